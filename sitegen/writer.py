"""The only code that writes the output directory: safety checks, a staging directory, then the swap.

Order: refuse unsafe output folders before touching anything -> write every file into a sibling staging
folder (a full disk fails here, with the old site intact) -> move each changed file into place (atomic
per file) -> delete files that the previous build wrote and this one did not (per the manifest) -> write the
manifest. Files sitegen did not write (and every dotfile, such as `.git`) are kept unless `clean` is asked for.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sitegen.errors import OutputError

MANIFEST = ".sitegen-manifest.json"
_SOURCE_FOLDERS = ("content", "static", "layouts", "data", "themes")


@dataclass(frozen=True)
class WriteStats:
    """What the writer did."""

    written: int
    unchanged: int
    deleted: int


def check_output_dir(out_dir: Path, site_dir: Path) -> Path:
    """Refuse an output folder whose cleaning could destroy sources; returns the resolved folder."""
    if str(out_dir).strip() == "":
        raise OutputError("the output folder is empty", hint="pass --output public")
    out = out_dir.expanduser().resolve()
    site = site_dir.resolve()
    home = Path.home().resolve()
    reason = None
    if out == Path(out.anchor):
        reason = "it is the file-system root"
    elif out == home:
        reason = "it is your home folder"
    elif out == site:
        reason = "it is the site folder itself"
    elif site.is_relative_to(out):
        reason = "it contains the site folder"
    else:
        for name in _SOURCE_FOLDERS:
            if out.is_relative_to(site / name):
                reason = f"it is inside the site's {name}/ folder"
                break
    if reason:
        raise OutputError(f"refusing to write the site into {out_dir} ({out}): {reason}",
                          hint="choose a dedicated folder such as `public/`")
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out_dir} exists and is not a folder", hint="remove it or choose another --output")
    return out


def _read_manifest(out: Path) -> set[str]:
    try:
        data = json.loads((out / MANIFEST).read_text("utf-8"))
        return {str(p) for p in data.get("files", [])}
    except (OSError, ValueError, AttributeError):
        return set()


def _safe_rel(rel: str) -> str:
    parts = rel.split("/")
    if rel.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\\" in rel or "\x00" in rel:
        raise OutputError(f"refusing to write {rel!r}: it is not a plain relative path")
    return rel


def write_output(files: dict[str, bytes], out_dir: Path, site_dir: Path, *, clean: bool = False) -> WriteStats:
    """Write `files` into `out_dir` safely (see the module docstring)."""
    out = check_output_dir(out_dir, site_dir)
    for rel in files:
        _safe_rel(rel)
    out.parent.mkdir(parents=True, exist_ok=True)
    # mkdir (not mkdtemp, whose 0700 would stay on a renamed first output) honours the umask.
    staging = out.parent / f".{out.name}.sitegen-staging-{os.getpid()}-{secrets.token_hex(4)}"
    staging.mkdir()
    try:
        if not out.exists():
            # A first build: the staging folder becomes the output in one rename.
            _write_all(staging, files.items())
            (staging / MANIFEST).write_text(_manifest(files), "utf-8")
            with _signals_deferred():
                os.rename(staging, out)
            return WriteStats(written=len(files), unchanged=0, deleted=0)
        changed: list[str] = []
        unchanged = 0
        for rel, data in files.items():
            target = out / rel
            if target.is_file() and not target.is_symlink() and target.stat().st_size == len(data) \
                    and target.read_bytes() == data:
                unchanged += 1
                continue
            changed.append(rel)
        _write_all(staging, ((rel, files[rel]) for rel in changed))
        previous = _read_manifest(out)
        with _signals_deferred():
            deleted = _commit(out, staging, changed, previous, files, clean)
        return WriteStats(written=len(changed), unchanged=unchanged, deleted=deleted)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _write_all(root: Path, items: Iterable[tuple[str, bytes]]) -> None:
    """Write files under `root`, creating each folder once."""
    made: set[str] = set()
    for rel, data in items:
        folder = rel.rpartition("/")[0]
        if folder and folder not in made:
            (root / folder).mkdir(parents=True, exist_ok=True)
            made.add(folder)
        with open(root / rel, "wb") as f:
            f.write(data)


def _manifest(files: dict[str, bytes]) -> str:
    return json.dumps({"files": sorted(files)}, ensure_ascii=False, indent=0) + "\n"


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT/SIGTERM while files are swapped in: an interrupt lands after the swap, never halfway."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    blocked = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _commit(out: Path, staging: Path, changed: list[str], previous: set[str], files: dict[str, bytes],
            clean: bool) -> int:
    """Move staged files into place, delete stale ones, write the manifest; returns how many were deleted."""
    for rel in changed:
        target = out / rel
        if target.is_symlink() or (target.exists() and target.is_dir()):
            _remove(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / rel, target)
    stale = previous - files.keys()
    if clean:
        stale |= _all_files(out) - files.keys()
    deleted = 0
    for rel in sorted(stale):
        if rel == MANIFEST or any(p.startswith(".") for p in rel.split("/")):
            continue
        target = out / rel
        if target.is_file() or target.is_symlink():
            target.unlink()
            deleted += 1
            _prune_empty(target.parent, out)
    (out / MANIFEST).write_text(_manifest(files), "utf-8")
    return deleted


def _all_files(out: Path) -> set[str]:
    found: set[str] = set()
    for root, dirs, names in os.walk(out):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel_root = Path(root).relative_to(out).as_posix()
        for name in names:
            if not name.startswith("."):
                found.add(name if rel_root == "." else f"{rel_root}/{name}")
    return found


def _remove(target: Path) -> None:
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    else:
        target.unlink()


def _prune_empty(folder: Path, out: Path) -> None:
    while folder != out and folder.is_relative_to(out):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
