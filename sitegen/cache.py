"""The persistent build cache in `.sitegen-cache/` beside the site: the BuildMemo of the last build.

The memo is pickled, so the file is signed with a secret kept outside the site (in the user's cache folder,
or `SITEGEN_CACHE_KEY`): a cache folder that came with a cloned repository is ignored rather than loaded.
A cache from another sitegen version, a corrupt or foreign file is ignored and rebuilt; writes are atomic.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import pickle
import secrets
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from sitegen.confine import outside
from sitegen.memo import BuildMemo, code_version, user_cache_dir

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
"""Open the path itself, never what a link there points to (0 where the platform has no such flag)."""

CACHE_DIR = ".sitegen-cache"
MEMO_FILE = "build.pickle"
_FORMAT = b"sitegen-cache-2"
"""Version 2: signed with keyed BLAKE2b (twice as fast as HMAC-SHA256 here, where the CPU has no SHA instructions:
0.07 s against 0.17 s for the 73 MB memo of a 1,000-post site)."""


def _secret() -> bytes:
    env = os.environ.get("SITEGEN_CACHE_KEY")
    if env:
        return env.encode()
    base = user_cache_dir()
    path = base / "cache-secret"
    try:
        return path.read_bytes()
    except OSError:
        pass
    try:
        base.mkdir(parents=True, exist_ok=True)
        key = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        return key
    except FileExistsError:
        return path.read_bytes()
    except OSError:
        return b""


def _mac(key: bytes) -> hashlib.blake2b:
    """The signer of the memo: BLAKE2b in its keyed mode, a MAC in itself (a key of any length is hashed to 64
    bytes first, BLAKE2b's longest key)."""
    return hashlib.blake2b(key=key if len(key) <= 64 else hashlib.blake2b(key).digest(), digest_size=32)


def _header() -> bytes:
    return _FORMAT + b"\x00" + code_version().encode() + b"\x00"


def cache_path(site_dir: Path) -> Path:
    """Where the memo of a site is kept."""
    return site_dir / CACHE_DIR / MEMO_FILE


def load_memo(site_dir: Path) -> BuildMemo | None:
    """The memo of the previous build, or None (missing, other version, corrupt, or not signed by us)."""
    key = _secret()
    if not key:
        return None
    try:
        raw = cache_path(site_dir).read_bytes()
    except OSError:
        return None
    header = _header()
    if not raw.startswith(header) or len(raw) < len(header) + 32:
        return None
    # A view, not a copy: at 10,000 pages the file is ~430 MB, and a copy would be held while it is unpickled.
    mac, body = raw[len(header):len(header) + 32], memoryview(raw)[len(header) + 32:]
    signer = _mac(key)
    signer.update(body)
    if not hmac.compare_digest(mac, signer.digest()):
        return None
    try:
        memo = pickle.loads(body)  # noqa: S301 - signed with a secret kept outside the site
    except Exception:  # noqa: BLE001 - a broken cache is never an error, just a cold build
        return None
    return memo if isinstance(memo, BuildMemo) else None


def cache_folder(site_dir: Path, *, allow_outside: bool = False) -> Path | None:
    """The site's cache folder, made if missing, with its `.gitignore`; None when it cannot be used: a file, a
    loop, or a link out of the site (unless `allow_outside`). Nothing is ever written through a linked
    `.gitignore`: an existing one is left as it is."""
    folder = site_dir / CACHE_DIR
    if folder.is_symlink() and not allow_outside and outside(folder, site_dir) is not None:
        return None
    try:
        folder.mkdir(exist_ok=True)
    except OSError:
        return None
    if not folder.is_dir():
        return None
    try:
        fd = os.open(folder / ".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666)
    except FileExistsError:
        return folder
    except OSError:
        return None
    with os.fdopen(fd, "w") as f:
        f.write("*\n")
    return folder


def save_memo(site_dir: Path, memo: BuildMemo, *, allow_outside: bool = False) -> None:
    """Write the memo atomically (temp file + rename); failures only cost the next build its cache."""
    key = _secret()
    if not key:
        return
    folder = cache_folder(site_dir, allow_outside=allow_outside)
    if folder is None:
        return
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".build-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            # The pickle goes straight to the file, signed as it goes, and the signature is filled in after
            # it: never the whole pickle in memory (~0.5 GB at 10,000 pages, twice with the header joined on).
            header = _header()
            f.write(header + bytes(32))
            signed = _Signed(f, _mac(key))
            pickle.Pickler(signed, protocol=pickle.HIGHEST_PROTOCOL).dump(memo)
            f.seek(len(header))
            f.write(signed.mac.digest())
        os.replace(tmp, folder / MEMO_FILE)
        tmp = ""
    except OSError:
        return
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def start_saving_memo(site_dir: Path, memo: BuildMemo, *, allow_outside: bool = False) -> Callable[[], None]:
    """`save_memo` beside the caller's next step (`sitegen build` writes the output meanwhile); returns the
    function that waits for it to end.

    Pickling the memo takes the interpreter's lock for seconds at 10,000 pages, so it runs in a forked copy of
    the process rather than a thread: the two then use two cores. Without fork it is saved here, at once.
    """
    if not hasattr(os, "fork") or not memo.dirty:
        if memo.dirty:
            save_memo(site_dir, memo, allow_outside=allow_outside)
        return lambda: None
    pid = os.fork()
    if pid == 0:  # the copy: save, then leave without running the parent's exit handlers or buffered output
        code = 1
        try:
            save_memo(site_dir, memo, allow_outside=allow_outside)
            code = 0
        finally:
            os._exit(code)

    def wait() -> None:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)

    return wait


class _Signed:
    """A file that signs what is written to it (the pickler writes its frames here)."""

    def __init__(self, file: BinaryIO, mac: hashlib.blake2b) -> None:
        self.file, self.mac = file, mac

    def write(self, data: bytes) -> int:
        self.mac.update(data)
        return self.file.write(data)
