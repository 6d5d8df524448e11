"""The output folder: which folders sitegen may write into, the lock that keeps two builds out of one output,
and the leftovers of builds that were killed.

`check_output_dir` runs before any work; `output_lock` is held from the start of a build to the end of the
write; `remove_stale_staging` runs under the lock, when no other build can own a staging folder of this output.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

from sitegen.errors import OutputError

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
"""Open the path itself, never what a link there points to (0 where the platform has no such flag)."""
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, as before
    fcntl = None  # type: ignore[assignment]

MANIFEST = ".sitegen-manifest.json"
"""What the last build wrote into the output (paths and content digests), so the next one removes only those."""
SOURCE_FOLDERS = ("content", "static", "layouts", "data", "themes", "archetypes", "assets", "i18n")
"""The site's own folders: never an output, nor a folder inside one."""
_SYSTEM = frozenset({"bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "opt", "proc", "root", "run",
                     "sbin", "srv", "sys", "tmp", "usr", "var", "Applications", "Library", "System", "Users",
                     "Volumes", "private"})
"""Top-level folders of Linux and macOS that are never an output themselves (`/var/www/site` may be)."""
_STAGING = re.compile(r"^(\d+)-[0-9a-f]{8}")
_HELD: set[Path] = set()
"""Outputs whose lock this process holds (the build command takes it, then the writer finds it taken)."""


def staging_prefix(out: Path) -> str:
    """Name prefix of the staging folders of `out`, which live beside it: `.public.sitegen-staging-`."""
    return f".{out.name}.sitegen-staging-"


def holds_lock(out: Path) -> bool:
    """Whether this process holds the lock of the output folder `out` (resolved)."""
    return out in _HELD


def lock_path(out: Path) -> Path:
    """The lock file of `out`, beside it (the output may not exist yet): `.public.sitegen-lock`."""
    return out.parent / f".{out.name}.sitegen-lock"


def check_output_dir(out_dir: Path, site_dir: Path, *, clean: bool = False, repositories: bool = True) -> Path:
    """Refuse an output folder whose writing or cleaning could destroy anything else; returns it resolved.

    Refused: the file-system root, the home folder, the site folder, a folder holding it, the site's own
    folders (content/, static/, layouts/, data/, themes/, archetypes/, assets/, i18n/, a Jekyll site's
    `_` folders other than _site/) and dot folders (.git, .github, the
    build cache) and anything inside them, any `.git` folder, a folder holding another repository below it,
    and, for `--clean-output`, a repository checkout or a folder of files sitegen has never built into.
    Both the path as given and the path after resolving links are checked. `repositories=False` skips the
    walk through the output that looks for other repositories (done once per build, before the lock is taken).
    """
    if str(out_dir).strip() == "":
        raise OutputError("the output folder is empty", hint="pass --output public")
    given = Path(os.path.abspath(out_dir.expanduser()))
    out = real_path(given)
    reason = _forbidden(out, real_path(site_dir)) or _forbidden(given, Path(os.path.abspath(site_dir)))
    if reason is None and repositories and out.is_dir():
        reason = _holds_a_repository(out, clean)
    if reason:
        raise OutputError(f"refusing to write the site into {out_dir} ({out}): {reason}",
                          hint="choose a dedicated folder such as `public/` (the default)")
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out_dir} exists and is not a folder", hint="remove it or choose another --output")
    parent = next((p for p in out.parents if p.exists()), None)
    if parent is not None and not parent.is_dir():
        raise OutputError(f"{out_dir} cannot be made: {parent} is a file", hint="choose another --output")
    return out


def real_path(path: Path) -> Path:
    """`path` with every link resolved; a link loop stays as it is (and fails later, with a message)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # Python 3.11 raises RuntimeError for a loop
        return Path(os.path.abspath(path))


def _forbidden(out: Path, site: Path) -> str | None:
    """Why `out` may never be an output folder of the site at `site` (both absolute), or None."""
    home = Path.home()
    if out == Path(out.anchor):
        return "it is the file-system root"
    if out.parent == Path(out.anchor) and out.name in _SYSTEM:
        return "it is a system folder"
    if out in (home, home.resolve()):
        return "it is your home folder"
    if home.is_relative_to(out) or home.resolve().is_relative_to(out):
        return "it holds your home folder"
    if ".git" in out.parts:
        return "it is a git repository's internal folder"
    if out == site:
        return "it is the site folder itself"
    if site.is_relative_to(out):
        return "it contains the site folder"
    if out.is_relative_to(site):
        first = out.relative_to(site).parts[0]
        if first in SOURCE_FOLDERS:
            return f"it is the site's {first}/ folder or inside it"
        if first.startswith("."):
            return f"it is the site's {first}/ folder or inside it (sitegen keeps out of dot folders)"
        if first.startswith("_") and first != "_site":  # a Jekyll site's own folders: _posts/, _data/, ...
            return f"it is the site's {first}/ folder or inside it (a Jekyll site's own folder)"
    package = Path(__file__).resolve().parent
    for own in (package, package.parent / "themes"):
        if out == own or out.is_relative_to(own) or own.is_relative_to(out):
            return f"it is (or holds) sitegen's own files ({own})"
    for name in SOURCE_FOLDERS:
        # A source folder may be a link to elsewhere: compare with where it leads, too.
        real = real_path(site / name)
        if real != site / name and (out == real or out.is_relative_to(real) or real.is_relative_to(out)):
            return f"it is (or holds) the folder the site's {name}/ links to"
    return None


def _holds_a_repository(out: Path, clean: bool) -> str | None:
    """A repository below the output belongs to someone else; the output's own `.git` (a checkout of the
    pages branch) is fine and never touched, but `--clean-output` needs the proof that sitegen built there."""
    for folder, dirs, _names in os.walk(out):
        if folder != str(out) and ".git" in dirs + _names:
            return f"it holds another git repository ({Path(folder).relative_to(out)}/.git)"
        dirs[:] = [d for d in dirs if not d.startswith(".")]
    if clean and not (out / MANIFEST).is_file():
        if (out / ".git").exists():
            return ("it is a git checkout that sitegen has not built into, and --clean-output would delete "
                    "every file sitegen did not write; build once without --clean-output first")
        # A folder of someone else's files (`--output ../thesis`, a sibling project without .git): no proof
        # that it is an output at all. Dotfiles are kept by --clean-output, so they do not count.
        foreign = sorted(name for name in os.listdir(out) if not name.startswith("."))
        if foreign:
            return (f"it holds files sitegen has not built into it ({', '.join(foreign[:3])}"
                    f"{', ...' if len(foreign) > 3 else ''}), and --clean-output would delete every one of "
                    "them; build once without --clean-output first (or empty the folder yourself)")
    return None


@contextlib.contextmanager
def output_lock(out: Path) -> Iterator[None]:
    """Hold the lock of the output folder `out` (resolved); another process holding it is an error naming it.

    The lock is an flock on a file beside the output, holding the owner's process id; the kernel drops the
    flock when its owner dies (even of `kill -9`), so a stale file never blocks a build.
    """
    if fcntl is None or out in _HELD:
        yield
        return
    path = lock_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _acquire(path, out)
    _HELD.add(out)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        _HELD.discard(out)
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(fd)


def _acquire(path: Path, out: Path) -> int:
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o644)
        except OSError as exc:
            raise OutputError(f"cannot make the lock file {path}: {exc.strerror}",
                              hint="it must be a plain file sitegen can write; remove it") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise OutputError(f"another sitegen (process {other}) is writing into {out}",
                              hint=f"wait for it to finish, or stop it (kill {other}) and build again") from None
        # The previous owner removes the file as it unlocks: make sure ours is still the one at `path`.
        try:
            same = os.path.samestat(os.fstat(fd), os.lstat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)


def remove_stale_staging(out: Path) -> int:
    """Remove staging folders of `out` left by builds that were killed; returns how many. Call it holding the
    output's lock: a staging folder is removed only when its name is sitegen's, for this output, and the
    process named in it is gone."""
    prefix = staging_prefix(out)
    removed = 0
    entries: list[os.DirEntry[str]] = []
    for folder in (out.parent, out):  # inside the output when it is a mount point (sitegen.writer)
        with contextlib.suppress(OSError):
            entries.extend(os.scandir(folder))
    for entry in entries:
        match = _STAGING.fullmatch(entry.name[len(prefix):]) if entry.name.startswith(prefix) else None
        if match is None or not entry.is_dir(follow_symlinks=False):
            continue
        pid = int(match.group(1))
        if pid == os.getpid() or _alive(pid):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
