"""Watch the site's sources with watchfiles (Rust notify) and hand over batches of changed paths."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from pathlib import Path

import watchfiles

from sitegen.config import SourceLayout
from sitegen.content.sources import excluded, ignored_name
from sitegen.dialects.hugo import ROOT_FILES as HUGO_CONFIG_FILES
from sitegen.outdir import MANIFEST

WATCHED = ("content", "data", "static", "layouts", "themes", "archetypes", "i18n", "assets")
_TEMP_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload")


class SourceFilter(watchfiles.DefaultFilter):
    """Only the site's inputs: sitegen.yaml and the watched folders; never output, caches or editor temp files."""

    def __init__(self, site_dir: Path, ignore: list[Path], *, in_place: bool = False) -> None:
        super().__init__()
        self.site = site_dir.resolve()
        self.ignore = [p.resolve() for p in ignore]
        self.in_place = in_place
        """A site read in place (Jekyll's `_config.yml`, `_posts/`, `assets/` at the root): every file is input."""

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        p = Path(path)
        name = p.name
        if name.startswith((".#", "#")) or name.endswith(_TEMP_SUFFIXES) or name == "4913":
            return False
        if any(p == i or p.is_relative_to(i) for i in self.ignore):
            return False
        if not super().__call__(change, path):
            return False
        try:
            rel = p.relative_to(self.site)
        except ValueError:
            return not any(part.startswith(".") for part in p.parts[-2:])
        parts = rel.parts
        # static/ publishes dotfiles (`.nojekyll`, `.well-known/`, `_headers`), so their edits rebuild too.
        in_static = "static" in parts[:3]
        if not parts or any(ignored_name(part, dotfiles=in_static) for part in parts):
            return False
        if self.in_place:
            return True
        if len(parts) == 1:
            return parts[0] in ("sitegen.yaml", "sitegen.yml", *HUGO_CONFIG_FILES)
        return parts[0] in WATCHED or parts[:2] == ("config", "_default")


def input_folders(site: Path, layout: SourceLayout, ignore: list[Path]) -> list[Path]:
    """The site's top folders that hold its inputs: the `WATCHED` ones (and `config/`); for a site read in place
    (Jekyll), every folder but dot folders, its `exclude` patterns (`vendor`, `node_modules`), Jekyll's `_site`
    and folders sitegen built into. The output and the cache (`ignore`) never are: watching a large `public/`
    would spend the system's inotify watches (8,192 on many systems; a 10,000-post site has 15,000 folders)."""
    ignored = {i.resolve() for i in ignore}
    found = []
    try:
        entries = sorted(site.iterdir())
    except OSError:
        return []
    for entry in entries:
        name = entry.name
        try:
            if not entry.is_dir() or entry.resolve() in ignored:
                continue
        except OSError:
            continue
        if layout.content_dir:
            if name in WATCHED or name == "config":
                found.append(entry)
        elif not (ignored_name(name) or name == "_site" or excluded(name, layout.exclude)
                  or (entry / MANIFEST).is_file()):
            found.append(entry)
    return found


class InputWatch:
    """Watches a site's inputs without its output: the site folder without its subfolders (its config files, and
    top folders made later), and each input folder (`input_folders`) and theme outside the site with theirs. A
    top folder made while serving is watched from then on (and rebuilt from: its files may have come first); one
    that is removed stops its watcher."""

    def __init__(self, site: Path, layout: SourceLayout, flt: SourceFilter, themes: list[Path],
                 on_change: Callable[[set[Path]], None], stop: threading.Event) -> None:
        self.site, self.layout, self.flt, self.themes = site, layout, flt, themes
        self.on_change, self.stop = on_change, stop
        self.watching: set[Path] = set()
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start every watcher, all at once; returns once they are all running."""
        started = [self._watch(folder) for folder in [*input_folders(self.site, self.layout, self.flt.ignore),
                                                      *self.themes]]
        top = threading.Event()
        watch_in_thread([self.site], _TopFilter(self.flt), self._at_top, self.stop, recursive=False, ready=top)
        for ready in [*started, top]:
            ready.wait(timeout=5)

    def _watch(self, folder: Path) -> threading.Event:
        """Start watching `folder` with its subfolders (unless it is watched already); set once it is running."""
        ready = threading.Event()
        with self._lock:
            if folder in self.watching:
                ready.set()
                return ready
            self.watching.add(folder)

        def gone() -> None:
            with self._lock:
                self.watching.discard(folder)

        watch_in_thread([folder], self.flt, self.on_change, self.stop, on_gone=gone, ready=ready)
        return ready

    def _at_top(self, changes: set[Path]) -> None:
        new = [f for f in input_folders(self.site, self.layout, self.flt.ignore) if f not in self.watching]
        for ready in [self._watch(folder) for folder in new]:
            ready.wait(timeout=5)  # (then built: what it holds already, and what comes later, are both seen)
        mine = {path for path in changes if self.flt(watchfiles.Change.modified, str(path))}
        if mine or new:
            self.on_change(mine | set(new))


class _TopFilter(watchfiles.DefaultFilter):
    """The site folder's own changes: those of its input files, and top folders made or removed."""

    def __init__(self, flt: SourceFilter) -> None:
        super().__init__()
        self.flt = flt

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        return self.flt(change, path) or Path(path).parent == self.flt.site


def watch_in_thread(paths: list[Path], flt: watchfiles.BaseFilter, on_change: Callable[[set[Path]], None],
                    stop: threading.Event, step_ms: int = 20, *, recursive: bool = True,
                    on_gone: Callable[[], None] | None = None, ready: threading.Event | None = None
                    ) -> threading.Thread:
    """Call `on_change` with each batch of changed paths; a burst within `step_ms` is one batch. With `on_gone`,
    the watcher ends (and calls it) once none of `paths` exists any more. With `ready`, returns at once and sets
    it when the watcher runs (several watchers start together).

    Returns once the watcher is running, so that no change made right after `sitegen serve` starts is missed:
    watchfiles asks whether to stop only from inside its watch loop, after its notifier has registered every
    folder, so the first question says so (one step after it starts, not one timeout: ~40 ms sooner).
    """
    waits = ready is None
    ready = ready if ready is not None else threading.Event()
    asked = _Asked(stop, ready)

    def watch() -> None:
        existing = [str(p) for p in paths if p.exists()]
        for changes in watchfiles.watch(*existing, watch_filter=flt, stop_event=asked, step=step_ms,
                                        debounce=1600, raise_interrupt=False, yield_on_timeout=True,
                                        rust_timeout=50, recursive=recursive):
            ready.set()
            if stop.is_set():
                return
            if changes:
                try:
                    on_change({Path(p) for _, p in changes})
                except Exception:  # noqa: BLE001 - a failed rebuild must not stop the watching
                    traceback.print_exc()
            if on_gone is not None and not any(p.exists() for p in paths):
                return  # (a watched folder removed: the notifier would go on, watching nothing)

    def run() -> None:
        # Nothing ends the watcher but `stop`: if watching itself fails (a watched folder vanished), it
        # starts again on what exists.
        while not stop.is_set():
            if on_gone is not None and not any(p.exists() for p in paths):
                ready.set()
                on_gone()
                return
            try:
                watch()
            except Exception:  # noqa: BLE001
                if on_gone is None or any(p.exists() for p in paths):
                    traceback.print_exc()
            stop.wait(0.5)

    thread = threading.Thread(target=run, daemon=True, name="sitegen-watch")
    thread.start()
    if waits:
        ready.wait(timeout=5)
    return thread


class _Asked:
    """The watcher's stop event, which also marks the watcher ready the first time watchfiles asks it."""

    def __init__(self, stop: threading.Event, ready: threading.Event) -> None:
        self._stop, self._ready = stop, ready

    def is_set(self) -> bool:
        """Whether to stop (the watcher is running: `ready` is set)."""
        self._ready.set()
        return self._stop.is_set()
