"""Watch the site's sources with watchfiles (Rust notify) and hand over batches of changed paths."""

from __future__ import annotations

import threading
import time
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
    """Watches a site's inputs without its output, with two notifiers: one over the input folders
    (`input_folders`) and the themes outside the site, with their subfolders, and one over the site folder alone
    (its config files, and its top folders made, removed, renamed or replaced). A change at the top makes the
    first notifier register the input folders again, then the site is rebuilt: what a new folder holds already and
    what comes later are both seen, and a folder replaced is watched where it now is."""

    def __init__(self, site: Path, layout: SourceLayout, flt: SourceFilter, themes: list[Path],
                 on_change: Callable[[set[Path]], None], stop: threading.Event) -> None:
        self.site, self.layout, self.flt, self.themes = site, layout, flt, themes
        self.on_change, self.stop = on_change, stop
        self.watching: list[Path] = []
        """The folders the first notifier registered last."""
        self._again = threading.Event()
        self._registered = threading.Event()
        self._names: set[str] = set()
        self._turns = threading.Condition()
        self._asked = self._listed = self._served = 0
        """Registrations asked for (`_at_top`), the one the last listing of folders answers, and the one that last
        ran: a change at the top waits until a registration that listed the folders after it runs."""

    def folders(self) -> list[Path]:
        """What the first notifier watches, as it is now."""
        with self._turns:
            self._listed = self._asked
        inputs = input_folders(self.site, self.layout, self.flt.ignore)
        self._names = {folder.name for folder in inputs}
        self.watching = [*inputs, *self.themes]
        return self.watching

    def start(self) -> None:
        """Start both notifiers together; returns once both run."""
        top = threading.Event()
        watch_in_thread(self.folders, self.flt, self.on_change, self.stop, again=self._again, ready=self._registered,
                        on_ready=self._ran)
        watch_in_thread(lambda: [self.site], _TopFilter(self.flt), self._at_top, self.stop, recursive=False,
                        ready=top)
        self._registered.wait(timeout=5)
        top.wait(timeout=5)

    def _at_top(self, changes: set[Path]) -> None:
        mine = {path for path in changes if self.flt(watchfiles.Change.modified, str(path))}
        # Input folders made, removed, renamed or replaced (not the output, the cache, `.git`, a README...).
        names = self._names | {folder.name for folder in input_folders(self.site, self.layout, self.flt.ignore)}
        moved = {path for path in changes if path.name in names}
        if moved:
            with self._turns:
                self._asked += 1
                turn = self._asked
            self._again.set()
            deadline = time.monotonic() + 5  # (a rebuild under way holds the first notifier's thread)
            with self._turns:
                while self._served < turn and not self.stop.is_set() and time.monotonic() < deadline:
                    self._turns.wait(0.05)
        if self.stop.is_set():
            return
        if mine or moved:
            self.on_change(mine | moved)

    def _ran(self) -> None:
        """The first notifier runs, on the folders its last listing found."""
        with self._turns:
            self._served = self._listed
            self._turns.notify_all()


class _TopFilter(watchfiles.DefaultFilter):
    """The site folder's own changes: those of its input files, and its top folders (made, removed, renamed)."""

    def __init__(self, flt: SourceFilter) -> None:
        super().__init__()
        self.flt = flt

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        return self.flt(change, path) or Path(path).parent == self.flt.site


def watch_in_thread(paths: list[Path] | Callable[[], list[Path]], flt: watchfiles.BaseFilter,
                    on_change: Callable[[set[Path]], None], stop: threading.Event, step_ms: int = 10, *,
                    recursive: bool = True, again: threading.Event | None = None,
                    ready: threading.Event | None = None, on_ready: Callable[[], None] | None = None
                    ) -> threading.Thread:
    """Call `on_change` with each batch of changed paths; a burst within `step_ms` is one batch (watchfiles yields
    once a step passes with no new change, so a save reaches `on_change` one to two steps after it: see `python
    bench/watch_latency.py`; an editor's save is one burst well within a step). `paths` may be a function, asked
    each time the watcher starts: when `again` is set, it starts again on what it returns (and clears `again`).
    With `ready`, returns at once and sets it when the watcher runs (watchers start together); `on_ready` is called
    each time it runs after (re)starting.

    Returns once the watcher is running, so that no change made right after `sitegen serve` starts is missed:
    watchfiles asks whether to stop only from inside its watch loop, after its notifier has registered every
    folder, so the first question says so (one step after it starts, not one timeout: ~40 ms sooner).
    """
    waits = ready is None
    ready = ready if ready is not None else threading.Event()
    asked = _Asked(stop, ready, again, on_ready)
    listed = paths if callable(paths) else lambda: paths

    def watch(existing: list[str]) -> None:
        for changes in watchfiles.watch(*existing, watch_filter=flt, stop_event=asked, step=step_ms,
                                        debounce=1600, raise_interrupt=False, yield_on_timeout=True,
                                        rust_timeout=50, recursive=recursive):
            if stop.is_set():
                return
            if changes:
                try:
                    on_change({Path(p) for _, p in changes})
                except Exception:  # noqa: BLE001 - a failed rebuild must not stop the watching
                    traceback.print_exc()
            if again is not None and again.is_set():
                return

    def run() -> None:
        # Nothing ends the watcher but `stop`: if watching itself fails (a watched folder vanished), it
        # starts again on what exists.
        while not stop.is_set():
            if again is not None:
                again.clear()
            existing = [str(p) for p in listed() if p.exists()]
            if not existing:  # nothing to watch (yet): wait to be asked again
                ready.set()
                if on_ready is not None:
                    on_ready()
                while not stop.is_set() and not (again is not None and again.is_set()):
                    stop.wait(0.05)
                continue
            asked.armed = True
            try:
                watch(existing)
            except Exception:  # noqa: BLE001
                traceback.print_exc()
                stop.wait(0.5)

    thread = threading.Thread(target=run, daemon=True, name="sitegen-watch")
    thread.start()
    if waits:
        ready.wait(timeout=5)
    return thread


class _Asked:
    """The watcher's stop event, which also marks the watcher ready the first time watchfiles asks it (not while
    it is asked to start again)."""

    def __init__(self, stop: threading.Event, ready: threading.Event, again: threading.Event | None,
                 on_ready: Callable[[], None] | None) -> None:
        self._stop, self._ready, self._again, self._on_ready = stop, ready, again, on_ready
        self.armed = True
        """Until the first question of a watch (re)started: then `on_ready` is called."""

    def is_set(self) -> bool:
        """Whether to stop, or to start again; else the watcher is running (`ready` is set)."""
        if self._stop.is_set() or (self._again is not None and self._again.is_set()):
            return True
        self._ready.set()
        if self.armed:
            self.armed = False
            if self._on_ready is not None:
                self._on_ready()
        return False
