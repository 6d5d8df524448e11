"""Watch the site's sources with watchfiles (Rust notify) and hand over batches of changed paths."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from pathlib import Path

import watchfiles

from sitegen.content.sources import ignored_name
from sitegen.dialects.hugo import ROOT_FILES as HUGO_CONFIG_FILES

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


def watch_in_thread(paths: list[Path], flt: SourceFilter, on_change: Callable[[set[Path]], None],
                    stop: threading.Event, step_ms: int = 20) -> threading.Thread:
    """Call `on_change` with each batch of changed paths; a burst within `step_ms` is one batch.

    Returns once the watcher is running, so that no change made right after `sitegen serve` starts is missed:
    watchfiles asks whether to stop only from inside its watch loop, after its notifier has registered every
    folder, so the first question says so (one step after it starts, not one timeout: ~40 ms sooner).
    """
    ready = threading.Event()
    asked = _Asked(stop, ready)

    def watch() -> None:
        existing = [str(p) for p in paths if p.exists()]
        for changes in watchfiles.watch(*existing, watch_filter=flt, stop_event=asked, step=step_ms,
                                        debounce=1600, raise_interrupt=False, yield_on_timeout=True,
                                        rust_timeout=50):
            ready.set()
            if stop.is_set():
                return
            if changes:
                try:
                    on_change({Path(p) for _, p in changes})
                except Exception:  # noqa: BLE001 - a failed rebuild must not stop the watching
                    traceback.print_exc()

    def run() -> None:
        # Nothing ends the watcher but `stop`: if watching itself fails (a watched folder vanished), it
        # starts again on what exists.
        while not stop.is_set():
            try:
                watch()
            except Exception:  # noqa: BLE001
                traceback.print_exc()
            stop.wait(0.5)

    thread = threading.Thread(target=run, daemon=True, name="sitegen-watch")
    thread.start()
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
