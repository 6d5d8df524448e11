"""The only code that writes the output directory: safety checks, a staging directory, then the swap.

Order: refuse unsafe output folders before touching anything (`sitegen.outdir`) -> take the output's lock and
remove staging folders of killed builds -> plan: which files changed, which stale files are provably ours
(listed in the manifest with the digest of what is on disk now), and whether anything is in the way (a link,
or a file or folder sitegen did not write) -> write every changed file into a sibling staging folder (a full
disk fails here, with the old site intact) -> delete the stale files -> move each changed file into place
(atomic per file) -> write the manifest. Files sitegen did not write (and every dot folder, such as `.git`)
are kept unless `--clean-output` is asked for; no link inside the output is ever followed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import signal
import stat
import threading
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.errors import Diagnostic, OutputError, SitegenError, raise_if_any
from sitegen.outdir import (
    MANIFEST,
    check_output_dir,
    holds_lock,
    output_lock,
    real_path,
    remove_stale_staging,
    staging_prefix,
)

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
"""Open the path itself, never what a link there points to (0 where the platform has no such flag)."""

__all__ = ["MANIFEST", "Staging", "WriteStats", "check_output_dir", "path_problem", "write_output"]

_RESERVED = (MANIFEST, ".git")


@dataclass(frozen=True)
class WriteStats:
    """What the writer did, and what it left alone and why."""

    written: int
    unchanged: int
    deleted: int
    warnings: tuple[Diagnostic, ...] = ()


def path_problem(rel: object) -> str | None:
    """Why `rel` may not be an output path (None when it may): it must be a plain relative POSIX path, not
    under a dot folder other than `.well-known/`, and not a name sitegen or git keeps for itself."""
    if not isinstance(rel, str) or not rel:
        return "it is not a path"
    parts = rel.split("/")
    if rel.startswith("/") or "\\" in rel or "\x00" in rel or any(p in ("", ".", "..") for p in parts):
        return "it is not a plain relative path inside the output folder"
    if any(p.startswith(".") and p != ".well-known" for p in parts[:-1]):
        return "it is inside a dot folder (of those, only .well-known/ is published)"
    if parts[-1] in _RESERVED or parts[-1].startswith(".sitegen"):
        return f"the name {parts[-1]} is reserved"
    return None


def digest(data: bytes) -> str:
    """The content digest the manifest keeps for each file."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


_DIGEST_CHARS = len(digest(b""))
"""How long each `digest` is (the staging writer sends them one after the other)."""


def write_output(files: dict[str, bytes], out_dir: Path, site_dir: Path, *, clean: bool = False,
                 origins: Mapping[str, str] | None = None, staging: Staging | None = None) -> WriteStats:
    """Write `files` into `out_dir` safely (see the module docstring); `origins` names the source of each
    output path in messages. `staging` holds files already written while the build went on (a first build);
    it is used when the output folder still does not exist, else discarded."""
    # Under the lock, the command that took it has walked the output already.
    out = check_output_dir(out_dir, site_dir, clean=clean,
                           repositories=not holds_lock(real_path(Path(os.path.abspath(out_dir)))))
    errors: list[SitegenError] = []
    for rel in files:
        problem = path_problem(rel)
        if problem:
            errors.append(OutputError(f"refusing to write {rel!r}: {problem}", path=(origins or {}).get(rel),
                                      hint="change the page's url/slug/aliases, or rename the file"))
    if errors and staging is not None:
        staging.discard()
    raise_if_any(errors)
    try:
        with output_lock(out):
            remove_stale_staging(out)
            if staging is not None:
                if staging.out == out and not out.exists() and staging.wait():
                    return _finish_staged(files, out, staging)
                staging.discard()
            return _write_locked(files, out, clean)
    except OSError as exc:
        raise OutputError(f"cannot write the output folder {out_dir}: {exc.strerror or exc}",
                          path=exc.filename and str(exc.filename),
                          hint="check the folder's permissions and free space; the previous output is as it was"
                          ) from None


def _write_locked(files: dict[str, bytes], out: Path, clean: bool) -> WriteStats:
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = _new_staging(out)
    try:
        if not out.exists():
            # A first build: the staging folder becomes the output in one rename.
            _write_all(staging, files.items())
            _write_manifest(staging, files)
            with _signals_deferred():
                os.rename(staging, out)
            return WriteStats(written=len(files), unchanged=0, deleted=0)
        plan = _plan(out, files, clean)
        _write_all(staging, ((rel, files[rel]) for rel in plan.changed))
        with _signals_deferred():
            _commit(out, staging, plan, files)
        return WriteStats(written=len(plan.changed), unchanged=plan.unchanged, deleted=len(plan.delete),
                          warnings=tuple(plan.warnings))
    finally:
        _remove_staging(staging)


def _remove_staging(folder: Path) -> None:
    """Remove a staging folder whole: an interrupt arriving meanwhile (the build is over, the process about to
    stop) lands after it, not halfway, which would leave the folder beside the output."""
    with _signals_deferred():
        shutil.rmtree(folder, ignore_errors=True)


def _new_staging(out: Path) -> Path:
    """A fresh staging folder for `out`: beside it, so that each file moves in with a rename; inside it when
    the output is a mount point (a container's volume), where a rename from beside it would cross file systems.
    mkdir (not mkdtemp, whose 0700 would stay on a renamed first output) honours the umask."""
    home = out if out.exists() and not same_device(out, out.parent) else out.parent
    staging = home / f"{staging_prefix(out)}{os.getpid()}-{secrets.token_hex(4)}"
    staging.mkdir()
    return staging


class Staging:
    """A first build's output folder, written while the build goes on.

    `sitegen build` into a folder that does not exist yet hands the files that are final early (pages, static
    files, images) to `put`, which writes them into a staging folder in a forked copy of the process, on the
    other core, while the build makes its feeds and search index. `write_output` then writes the rest into the
    same folder and swaps it in as before; if anything fails, or the output appeared meanwhile, the folder is
    removed and the output written the usual way. Nothing here touches the output folder itself.
    """

    def __init__(self, out: Path) -> None:
        self.out = out
        """The output folder (resolved)."""
        self.folder: Path | None = None
        self.staged: dict[str, bytes] = {}
        self.digests: dict[str, str] = {}
        """The manifest's digest of each staged file, made by the writing copy once it has written them (the
        build process then digests only the rest: ~0.3 s less at 10,000 pages)."""
        self._pid = 0
        self._digests_fd = -1

    def put(self, files: Mapping[str, bytes]) -> None:
        """Start writing these files (plain output paths only) into the staging folder; only the first call of a
        build stages anything, and only where the output does not exist and processes can fork."""
        # Where the output's parent is missing, nothing is made before the build has succeeded.
        if self.folder is not None or not hasattr(os, "fork") or self.out.exists() or not self.out.parent.is_dir():
            return
        todo = {rel: data for rel, data in files.items() if path_problem(rel) is None}
        self.folder = _new_staging(self.out)
        self.staged = todo
        self._digests_fd, digests_out = os.pipe()
        try:
            self._pid = os.fork()
        except OSError:
            os.close(digests_out)
            raise
        if self._pid == 0:  # the copy: write, then leave without the parent's exit handlers or buffered output
            code = 1
            try:
                os.close(self._digests_fd)
                _write_all(self.folder, todo.items())
                with open(digests_out, "wb") as pipe:  # in the order of `staged`, `_DIGEST_CHARS` each
                    pipe.write("".join(digest(data) for data in todo.values()).encode("ascii"))
                code = 0
            finally:
                os._exit(code)
        os.close(digests_out)

    def wait(self) -> bool:
        """Wait for the staged files; whether they were all written."""
        if self.folder is None:
            return False
        if self._pid:
            pid, self._pid = self._pid, 0
            digests = self._read_digests()
            try:
                _, status = os.waitpid(pid, 0)
            except ChildProcessError:
                return False
            if os.waitstatus_to_exitcode(status) != 0:
                return False
            size = _DIGEST_CHARS
            if len(digests) == size * len(self.staged):
                self.digests = {rel: digests[size * i:size * i + size] for i, rel in enumerate(self.staged)}
            return True
        return True

    def _read_digests(self) -> str:
        """Everything the writing copy sent (until it ended), as text; the pipe is closed."""
        if self._digests_fd < 0:
            return ""
        chunks = []
        try:
            while chunk := os.read(self._digests_fd, 1 << 20):
                chunks.append(chunk)
        finally:
            os.close(self._digests_fd)
            self._digests_fd = -1
        return b"".join(chunks).decode("ascii", "replace")

    def discard(self) -> None:
        """Stop writing and remove the staging folder (nothing of it is published)."""
        if self._pid:
            with contextlib.suppress(OSError):
                os.kill(self._pid, signal.SIGKILL)
            self.wait()
        if self._digests_fd >= 0:
            os.close(self._digests_fd)
            self._digests_fd = -1
        if self.folder is not None:
            _remove_staging(self.folder)
            self.folder = None
        self.staged = {}
        self.digests = {}


def _finish_staged(files: dict[str, bytes], out: Path, staging: Staging) -> WriteStats:
    """Complete the staging folder to exactly `files`, then swap it in as a first build's output."""
    folder, staged = staging.folder, staging.staged
    assert folder is not None
    try:
        for rel, data in staged.items():
            if files.get(rel) is not data and files.get(rel) != data:  # left out or changed after it was staged
                target = folder / rel
                target.unlink()
                _prune_empty(target.parent, folder)
        _write_all(folder, ((rel, data) for rel, data in files.items()
                            if staged.get(rel) is not data and staged.get(rel) != data))
        # A staged file's digest is the writing copy's when the build kept that very file.
        _write_manifest(folder, files, {rel: sum_ for rel, sum_ in staging.digests.items()
                                        if files.get(rel) is staged[rel]})
        with _signals_deferred():
            os.rename(folder, out)
        staging.folder = None
    finally:
        staging.discard()
    return WriteStats(written=len(files), unchanged=0, deleted=0)


def same_device(a: Path, b: Path) -> bool:
    """Whether two folders are on one file system (a rename between them works)."""
    return os.stat(a).st_dev == os.stat(b).st_dev


@dataclass
class _Plan:
    """What the commit will do; made before anything in the output changes."""

    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    delete: list[str] = field(default_factory=list)
    """Files to remove: listed in the manifest and unchanged since (or, with --clean-output, not written now)."""
    warnings: list[Diagnostic] = field(default_factory=list)


class _Tree:
    """`lstat` of paths inside the output, remembered; links are never followed."""

    def __init__(self, out: Path) -> None:
        self.root = str(out) + os.sep
        self.stats: dict[str, os.stat_result | None] = {}

    def lstat(self, rel: str) -> os.stat_result | None:
        try:
            return self.stats[rel]
        except KeyError:
            pass
        try:
            st: os.stat_result | None = os.lstat(self.root + rel)
        except (FileNotFoundError, NotADirectoryError):
            st = None
        self.stats[rel] = st
        return st

    def folder_problem(self, rel: str, going: AbstractSet[str] = frozenset()) -> str | None:
        """Why the folders on the way to `rel` cannot hold it: a link, or a file that is not going away."""
        parts = rel.split("/")
        for i in range(1, len(parts)):
            folder = "/".join(parts[:i])
            st = self.lstat(folder)
            if st is None or (folder in going and stat.S_ISREG(st.st_mode)):
                return None
            if stat.S_ISLNK(st.st_mode):
                return f"{folder} is a link (sitegen never writes or deletes through links in the output)"
            if not stat.S_ISDIR(st.st_mode):
                return f"{folder} is a file sitegen did not write"
        return None


def _plan(out: Path, files: dict[str, bytes], clean: bool) -> _Plan:
    plan = _Plan()
    tree = _Tree(out)
    previous = _read_manifest(out, plan.warnings)
    label = out.name
    legacy = 0
    for rel in sorted(previous.keys() - files.keys()):
        st = tree.lstat(rel)
        problem = tree.folder_problem(rel) if st is not None else None
        if st is None:
            continue
        if problem:
            plan.warnings.append(Diagnostic(f"kept {rel}: {problem}", path=label))
        elif not stat.S_ISREG(st.st_mode):
            plan.warnings.append(Diagnostic(f"kept {rel}: it is no longer a plain file sitegen wrote", path=label))
        elif previous[rel] is None:
            legacy += 1
        elif _file_digest(out / rel) != previous[rel]:
            if not clean:
                plan.warnings.append(Diagnostic(f"kept {rel}: it changed after sitegen wrote it", path=label,
                                                hint="delete it yourself if the site no longer needs it"))
        else:
            plan.delete.append(rel)
    if legacy and not clean:
        plan.warnings.append(Diagnostic(
            f"kept {legacy} file(s) an older sitegen wrote (its manifest cannot prove they are unchanged)",
            path=label, hint="build once with --clean-output to remove files this build does not write"))
    if clean:
        plan.delete = sorted(set(plan.delete) | (_all_files(out) - files.keys()))
    going = set(plan.delete)
    errors: list[SitegenError] = []
    manifest = tree.lstat(MANIFEST)
    if manifest is not None and stat.S_ISDIR(manifest.st_mode):
        errors.append(OutputError(f"cannot write {MANIFEST}: it is a folder", path=str(out),
                                  hint="move it out of the output folder and build again"))
    foreign: list[str] = []
    for rel, data in files.items():
        problem = tree.folder_problem(rel, going)
        st = tree.lstat(rel) if problem is None else None
        if problem is None and st is not None and stat.S_ISDIR(st.st_mode) and not _only(out / rel, rel, going):
            problem = f"{rel} is a folder holding files sitegen did not write"
        if problem:
            errors.append(OutputError(f"cannot write {rel}: {problem}", path=str(out),
                                      hint="move it out of the output folder and build again"))
            continue
        if st is not None and stat.S_ISREG(st.st_mode) and st.st_size == len(data) \
                and (out / rel).read_bytes() == data:
            plan.unchanged += 1
            continue
        if st is not None and not clean and rel not in previous:
            foreign.append(rel)  # a file sitegen did not write: never overwritten unless --clean-output
            continue
        plan.changed.append(rel)
    if foreign:
        shown = ", ".join(sorted(foreign)[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        errors.append(OutputError(
            f"cannot write {len(foreign)} file(s) over files sitegen did not write: {shown}", path=str(out),
            hint="move them out of the output folder (or choose another --output) and build again"))
    raise_if_any(errors)
    return plan


def _only(folder: Path, rel: str, going: set[str]) -> bool:
    """Whether every file below `folder` (no links) is one that is going away."""
    for root, dirs, names in os.walk(folder):
        prefix = rel + "/" + Path(root).relative_to(folder).as_posix()
        prefix = prefix.removesuffix("/.") + "/"
        if any(os.path.islink(os.path.join(root, d)) for d in dirs):
            return False
        if any(prefix + name not in going for name in names):
            return False
    return True


def _file_digest(path: Path) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        return digest(f.read())


def _read_manifest(out: Path, warnings: list[Diagnostic]) -> dict[str, str | None]:
    """The previous build's files and their digests (None for a manifest of sitegen before 0.x, which had
    none). Entries that are not plain paths inside the output are ignored with one warning."""
    path = out / MANIFEST
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            data = json.loads(f.read().decode("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        warnings.append(Diagnostic(f"{MANIFEST} cannot be read ({getattr(exc, 'strerror', None) or exc}); "
                                   "no file of the previous build is removed", path=out.name))
        return {}
    raw = data.get("files") if isinstance(data, dict) else None
    entries: dict[object, object]
    if isinstance(raw, dict):
        entries = dict(raw)
    elif isinstance(raw, list):
        entries = dict.fromkeys(raw)
    else:
        warnings.append(Diagnostic(f"{MANIFEST} is not a sitegen manifest; no file of the previous build is "
                                   "removed", path=out.name))
        return {}
    valid: dict[str, str | None] = {}
    ignored: list[str] = []
    for rel, value in entries.items():
        if path_problem(rel) is None and (value is None or isinstance(value, str)):
            valid[str(rel)] = value if isinstance(value, str) else None
        else:
            ignored.append(repr(rel))
    if ignored:
        warnings.append(Diagnostic(
            f"ignored {len(ignored)} entr{'y' if len(ignored) == 1 else 'ies'} of {MANIFEST} that "
            f"{'is' if len(ignored) == 1 else 'are'} not a plain path inside the output: {', '.join(ignored[:3])}"
            f"{' ...' if len(ignored) > 3 else ''}", path=out.name,
            hint="sitegen only removes files it wrote into this folder; nothing outside it was touched"))
    return valid


WRITE_THREADS = 2
"""Threads that write an output of many folders. Making folders and files is the kernel's work, outside the
interpreter's lock: two threads do it on two cores, in about 60% of the time one takes (3,150 files in 1,650
folders, this project's 2-core machine)."""
_THREADED_FROM = 64
"""Folders from which the writing is shared between threads."""


def _write_all(root: Path, items: Iterable[tuple[str, bytes]]) -> None:
    """Write files under `root` (a fresh staging folder), creating each folder once; folder by folder, shared
    between `WRITE_THREADS` threads when there are many."""
    by_folder: dict[str, list[tuple[str, bytes]]] = {}
    for rel, data in items:
        by_folder.setdefault(rel.rpartition("/")[0], []).append((rel, data))
    folders = list(by_folder.items())
    threads = min(WRITE_THREADS, os.cpu_count() or 1) if len(folders) >= _THREADED_FROM else 1
    if threads == 1:
        _write_folders(root, folders)
        return
    failed: list[BaseException] = []

    def share(part: list[tuple[str, list[tuple[str, bytes]]]]) -> None:
        try:
            _write_folders(root, part)
        except BaseException as exc:  # noqa: BLE001 - raised by the calling thread below
            failed.append(exc)

    helpers = [threading.Thread(target=share, args=(folders[i::threads],), daemon=True) for i in range(1, threads)]
    for helper in helpers:
        helper.start()
    try:
        _write_folders(root, folders[::threads])
    finally:
        for helper in helpers:
            helper.join()
    if failed:
        raise failed[0]


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
"""`open(path, "xb")`'s flags: a new file (never over one, nor through a link), not inherited by children."""


def _write_folders(root: Path, folders: list[tuple[str, list[tuple[str, bytes]]]]) -> None:
    """Make each folder (and its parents) and write its files, each a new file (`x`: never over one). Written
    with `os.open` and `os.write`, as `open(path, "xb")` writes them without its buffer's checks of the new file
    (its size, whether it is a terminal, its position: three calls into the kernel a file, thousands a build)."""
    base = str(root) + os.sep
    for folder, files in folders:
        if folder:
            (root / folder).mkdir(parents=True, exist_ok=True)
        for rel, data in files:
            fd = os.open(base + rel, _NEW_FILE, 0o666)
            try:
                written = os.write(fd, data)
                if written < len(data):  # (a write to a regular file is whole unless the disk fills up)
                    view = memoryview(data)
                    while written < len(view):
                        written += os.write(fd, view[written:])
            finally:
                os.close(fd)


def _write_manifest(folder: Path, files: dict[str, bytes], known: Mapping[str, str] | None = None) -> None:
    """The manifest, replaced atomically (a link in its place is replaced, never written through); `known`:
    digests already made of some of these very files."""
    known = known or {}
    text = json.dumps({"files": {rel: known.get(rel) or digest(files[rel]) for rel in sorted(files)}},
                      ensure_ascii=False, indent=0) + "\n"
    tmp = folder / f"{MANIFEST}.{secrets.token_hex(4)}.tmp"
    try:
        # O_EXCL: a fresh file, never an existing one or a link's target; the mode honours the umask.
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, folder / MANIFEST)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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


def _commit(out: Path, staging: Path, plan: _Plan, files: dict[str, bytes]) -> None:
    """Delete the stale files, move the staged ones into place, write the manifest (all checked by `_plan`)."""
    for rel in plan.delete:
        target = out / rel
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
        _prune_empty(target.parent, out)
    for rel in plan.changed:
        target = out / rel
        if target.is_dir() and not target.is_symlink():
            _remove_empty_folders(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / rel, target)
    _write_manifest(out, files)


def _all_files(out: Path) -> set[str]:
    """Every file in the output outside dot folders (for --clean-output); links to folders are not followed."""
    found: set[str] = set()
    for root, dirs, names in os.walk(out):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel_root = Path(root).relative_to(out).as_posix()
        for name in names:
            if not name.startswith("."):
                found.add(name if rel_root == "." else f"{rel_root}/{name}")
    return found


def _remove_empty_folders(folder: Path) -> None:
    for root, _dirs, _names in os.walk(folder, topdown=False):
        os.rmdir(root)


def _prune_empty(folder: Path, out: Path) -> None:
    while folder != out and folder.is_relative_to(out):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
