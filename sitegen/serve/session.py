"""A serve session: build, serve, watch, rebuild, notify. Never writes into the site folder."""

from __future__ import annotations

import dataclasses
import re
import threading
import time
import traceback
from collections import ChainMap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sitegen.build import BuildOptions, BuildResult, build_site
from sitegen.cache import load_memo
from sitegen.dialects import load_site_config
from sitegen.errors import SitegenError
from sitegen.incremental import prepare_quick_rebuilds, rebuild_edited_pages, rebuild_edited_templates
from sitegen.markdown.highlight import preload
from sitegen.memo import BuildMemo
from sitegen.outputs.search import Indexer
from sitegen.parallel import collect_if_due
from sitegen.render_pages import FragmentRecorder
from sitegen.serve.livereload import ReloadHub
from sitegen.serve.notfound import left_out_notices
from sitegen.serve.server import DevServer, ServerState, Snapshot, make_server, serve_in_thread
from sitegen.serve.watcher import InputWatch, SourceFilter
from sitegen.theme import theme_dirs
from sitegen.views import SiteState

INDEX_DELAY = 0.25
"""Seconds background work (the search index, recording fragments) waits after a build is served (the reload's
page request goes first)."""
_STARTING_PAGE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sitegen</title></head>
<body><p>The site does not build yet; fix the error shown and this page reloads.</p></body></html>"""


@dataclass
class RebuildStats:
    """The last rebuild, for the terminal and for benchmarks."""

    seconds: float = 0.0
    changed_outputs: int = 0
    ok: bool = True


_HIGHLIGHTED = re.compile(r'<div class="highlight" data-lang="([^"]+)"')


def _code_languages(state: SiteState) -> list[str]:
    """The languages of the site's highlighted code blocks."""
    languages: set[str] = set()
    for rendered in list(state.rendered.values()):
        if 'data-lang="' in rendered.html:
            languages.update(_HIGHLIGHTED.findall(rendered.html))
    return sorted(languages)


class ServeSession:
    """Owns the memo, the hub, the server and the watcher."""

    def __init__(self, options: BuildOptions, *, reload: bool = True,
                 say: Callable[[str], None] = print) -> None:
        # The search index is made in the background after each build (`_background`): no edit waits on it.
        self.options = dataclasses.replace(options, defer_search=True)
        self.memo = BuildMemo()
        self.hub = ReloadHub()
        self.say = say
        self.state = ServerState(Snapshot({}, building=True), self.hub, reload=reload)
        self.stop_event = threading.Event()
        self._inputs: InputWatch | None = None
        """What the server watches (once started)."""
        self.lock = threading.Lock()
        self.server: DevServer | None = None
        self.last = RebuildStats()
        self.builds = 0
        self.collections = 0
        """Full collections the background worker ran while idle (`collect_if_due`)."""
        self.result: BuildResult | None = None
        """The last good build, which quick rebuilds start from."""
        self.quick_builds = 0
        self.template_retry: set[Path] | None = None
        """The changes of a template rebuild that failed, tried again (quickly) with the next batch."""
        self.snapshot_lock = threading.Lock()
        """Held only while the snapshot is swapped (by a build or by the background indexer)."""
        self.indexer = Indexer()
        self._to_index: BuildResult | None = None
        self._index_wanted = threading.Condition()
        self.indexed: BuildResult | None = None
        """The build whose search index the snapshot serves."""
        self.recorded: BuildResult | None = None
        """The build whose every output unit has its included templates' texts recorded (`_record_fragments`)."""
        self._recorder: FragmentRecorder | None = None
        """Recording the last build's; every build drops it (good or failed: the memo may have changed)."""
        self._prepared: BuildResult | None = None
        self._built_at = 0.0
        self._edit_waiting = threading.Event()
        """Set while a build waits for `lock`: background work lets it go first."""
        self._site_files: dict[str, bytes] = {}
        self._index_files: dict[str, bytes] = {}
        """The snapshot serves these two as one (the index first): a build or the indexer replaces its own half,
        without copying the other."""
        threading.Thread(target=self._background, name="sitegen-background", daemon=True).start()

    def _build(self, changes: set[Path] | None) -> BuildResult:
        # Edited page texts, and edited templates, are re-rendered from the last good build; anything else (and
        # the build after a failure, whose batch may have touched other files) is a full memoized build. A
        # template rebuild that failed (a syntax error) is the exception: its batch is tried again with the next.
        retry, self.template_retry = self.template_retry, None
        if changes and self.result is not None and (not self.hub.error or retry is not None):
            self.memo.fragments = True  # what it renders again reuses, and records, included templates' texts
            quick = rebuild_edited_pages(self.result, changes, self.memo) if retry is None else None
            if quick is None:
                batch = changes | (retry or set())
                try:
                    quick = rebuild_edited_templates(self.result, batch, self.memo)
                except SitegenError:  # the author's to fix (a sitegen bug is not retried: the full build runs)
                    self.template_retry = batch
                    raise
            if quick is not None:
                self.quick_builds += 1
                return quick
        # A full build records no included templates' texts (a tenth of its template work on a large site): the
        # background worker does once the build is served (`_record_fragments`), before a template edit needs them.
        self.memo.fragments = False
        return build_site(self.options, self.memo)

    def build_once(self, changes: set[Path] | None = None) -> bool:
        """(Re)build; swap the snapshot on success, keep the old one and show the error on failure."""
        self._edit_waiting.set()
        with self.lock:
            self._edit_waiting.clear()
            self._recorder = None
            started = time.perf_counter()
            try:
                result = self._build(changes)
            except Exception as exc:  # noqa: BLE001 - no failure may end the server or its watcher
                # A SitegenError is the author's to fix; anything else is a sitegen bug, shown the same way
                # (with its traceback) so that the next save still rebuilds.
                message = exc.format() if isinstance(exc, SitegenError) else (
                    f"sitegen failed: {type(exc).__name__}: {exc}\n"
                    "  hint: this is a bug in sitegen; the previous build is still served, and saving again "
                    "rebuilds\n" + "".join(traceback.format_exception(exc)))
                self.last = RebuildStats(time.perf_counter() - started, 0, False)
                self.say(message)
                if self.state.snapshot.building:  # the first build failed: a page that says so, and the overlay
                    with self.snapshot_lock:
                        self.state.snapshot = Snapshot({"index.html": _STARTING_PAGE})
                self.hub.failed(message)
                return False
            stale = self.result.state if self.result is not None and self.result.state is not result.state else None
            self.result = result
            left_out = left_out_notices(result.state.tree) if result.state is not None else {}
            with self.snapshot_lock:
                first = self.state.snapshot.building
                old, new = self._site_files, result.files
                self._site_files = new
                # Until the background indexer catches up, the last search index is served.
                self.state.snapshot = Snapshot(ChainMap(self._index_files, new), result.config.base_path, left_out)
            # A quick rebuild names the files it made again: the others are the last build's, unchanged.
            maybe = result.touched if result.touched is not None and not first else set(old) | set(new)
            changed = sorted(k for k in maybe if old.get(k) != new.get(k))
            with self._index_wanted:
                self._to_index = result
                self._built_at = time.monotonic()
                self._index_wanted.notify()
            self.builds += 1
            elapsed = time.perf_counter() - started
            self.last = RebuildStats(elapsed, len(changed), True)
            for warning in result.warnings:
                self.say(warning.format())
            if first:  # tabs opened on the building page load the site
                self.hub.built(None)
            elif self.builds > 1 or self.hub.error:
                css_only = changed and all(k.endswith(".css") for k in changed)
                paths = [result.config.base_path + k for k in changed] if css_only else None
                if changed or self.hub.error:
                    self.hub.built(paths)
                self.say(f"Rebuilt in {elapsed * 1000:.0f} ms: {len(changed)} files changed"
                         + (" (stylesheets swapped)" if css_only else ""))
            # Collections are rare in a server (tune_gc_for_builds): the last state's views, which point back at
            # it, are dropped now (after the reload went out: ~15 ms for the 10,000 views of a full build).
            if stale is not None:
                stale.release()
            return True

    def start(self, host: str, port: int, *, auto_port: bool,
              listening: Callable[[str, int], None] | None = None) -> tuple[str, int]:
        """Bind (trying the next ports when allowed), build, and start watching.

        The server answers from the moment it listens (`listening(host, port)` is called then): until the first
        build is complete, every page request gets the building page, which reloads into the site once it is.
        """
        last_error: OSError | None = None
        for candidate in range(port, port + (20 if auto_port else 1)):
            try:
                self.server = make_server(host, candidate, self.state)
                break
            except OSError as exc:
                last_error = exc
                if auto_port and port != 0:
                    continue
                break
        if self.server is None:
            raise SitegenError(f"cannot listen on {host}:{port}: {last_error.strerror if last_error else ''}",
                               hint=f"port {port} is in use; pick another with --port (for example "
                                    f"--port {port + 1}), or --port 0 for any free port")
        serve_in_thread(self.server)
        bound = int(self.server.server_address[1])
        if listening is not None:
            listening(host, bound)
        # Watching starts before the first build: a file saved while it runs (most of a minute on a large site)
        # is rebuilt once it is served, and starting the watcher is not on the way to the site being served.
        # A config that cannot be read is the first build's to show; watching then starts after it, as it did.
        try:
            self._watch()
            watching = True
        except SitegenError:
            watching = False
        # The cache `sitegen build` leaves makes the first build a warm one (read only: serve writes nothing into
        # the site folder); without one, everything is rendered once, as a cold build does.
        self.memo = load_memo(self.options.source) or self.memo
        self.build_once()
        if not watching:
            self._watch()
        return host, bound

    def _watch(self) -> None:
        """Start watching the site's sources and its themes outside it (changes rebuild, `_on_change`)."""
        site = self.options.source
        config, _ = load_site_config(site)
        themes = theme_dirs(site, config.theme)
        ignore = [site / "public", site / ".sitegen-cache"]
        outside = [t for t in themes if not t.is_relative_to(site.resolve())]
        flt = SourceFilter(site, ignore, in_place=not config.layout.content_dir)
        self._inputs = InputWatch(site, config.layout, flt, outside, self._on_change, self.stop_event)
        self._inputs.start()

    def _background(self) -> None:
        """The work a build leaves for after it is served, newest build first: the lookups of quick rebuilds, the
        search index, then the included templates' texts a template edit reuses. An edit never waits for it."""
        while not self.stop_event.is_set():
            with self._index_wanted:
                idle = self.result is not None and self._to_index is None and not self._recording_wanted()
            if idle and not self._edit_waiting.is_set():
                self._collect()
            with self._index_wanted:
                while self._to_index is None and not self._recording_wanted() and not self.stop_event.is_set():
                    self._index_wanted.wait(0.5)
            # The browser asks for the page it shows right after a build: let that request have the interpreter
            # (indexing 10,000 pages holds it for seconds), then work on the newest build.
            quiet = self._built_at + INDEX_DELAY - time.monotonic()
            if quiet > 0 or self._edit_waiting.is_set():
                if self.stop_event.wait(max(quiet, 0.02)):
                    return
                continue
            self._prepare()
            with self._index_wanted:
                result, self._to_index = self._to_index, None
            if result is not None:
                self._index(result)
            else:
                self._record_fragments()

    def _collect(self) -> None:
        """With nothing left to do, the collector's full collection if it is due soon (`collect_if_due`): here, not
        in the next edit. Under the build lock: an edit that comes meanwhile waits for it, as it would in the
        edit."""
        with self.lock:
            if not self._edit_waiting.is_set():
                self.collections += collect_if_due()

    def _prepare(self) -> None:
        """After a full build, the lookups the first quick rebuild needs, then the lexers of the site's code
        languages (its Markdown was rendered in worker processes: the first saved page with code would wait ~0.1 s
        for their imports). A save made sooner makes what it needs itself. Both are done under the build lock, one
        language at a time, yielding to an edit: builds fork, and a copy forked while another thread imports a
        module would inherit that import's lock held, and hang on it."""
        result = self.result
        languages: list[str] = []
        if result is not None and result is not self._prepared and result.touched is None:
            with self.lock:
                if result is self.result:
                    prepare_quick_rebuilds(result, self.memo)
                    languages = _code_languages(result.state) if result.state is not None else []
        self._prepared = result
        for language in languages:
            if self._edit_waiting.is_set() or self.stop_event.is_set():
                return
            with self.lock:
                if result is not self.result:
                    return
                preload([language])

    def _index(self, result: BuildResult) -> None:
        """Index a build for search, and serve the index with it unless a newer build is served meanwhile."""
        if result.state is None:
            return
        try:
            files = self.indexer.files(result.state, result.files)
        except Exception as exc:  # noqa: BLE001 - the server keeps serving; the next build tries again
            self.say(f"sitegen: the search index could not be made: {type(exc).__name__}: {exc}")
            return
        with self.snapshot_lock:
            if self.result is not result:
                return
            old = self.state.snapshot
            self._index_files = files
            self.state.snapshot = Snapshot(ChainMap(files, self._site_files), old.base_path, old.left_out)
            self.indexed = result

    def _recording_wanted(self) -> bool:
        result = self.result
        return result is not None and result is not self.recorded

    def _record_fragments(self) -> None:
        """Record the last build's output units' included templates' texts, one unit at a time, until a build
        wants the lock or a newer build is to be indexed."""
        while not self.stop_event.is_set() and not self._edit_waiting.is_set() and self._to_index is None:
            if not self._record_one():
                return

    def _record_one(self) -> bool:
        """Record one unit of the last build; False when none is left (or the build gives quick rebuilds none)."""
        with self.lock:
            if self._to_index is not None or time.monotonic() < self._built_at + INDEX_DELAY:
                return False  # a build ran while this waited for the lock: its page request and index go first
            result, recorder = self.result, self._recorder
            if recorder is None:
                if result is None or result.state is None or result.basis is None \
                        or all(entry.recorded for entry in self.memo.outputs.values()):
                    self.recorded = result
                    return False
                recorder = self._recorder = FragmentRecorder(result.state, result.basis.rendering, self.memo)
            if recorder.done:
                recorder.read_facts()
                self.recorded, self._recorder = result, None
                return False
            recorder.record_one()
            return True

    def wait_for_index(self, timeout: float = 10.0) -> bool:
        """Block until the search index of the last build is served (for tests and benchmarks)."""
        return _wait_until(lambda: self.result is not None and self.indexed is self.result, timeout)

    def wait_for_fragments(self, timeout: float = 10.0) -> bool:
        """Block until every output unit of the last build has its included templates' texts recorded (for tests
        and benchmarks)."""
        return _wait_until(lambda: self.result is not None and self.recorded is self.result, timeout)

    def _on_change(self, changes: set[Path]) -> None:
        self.build_once(changes)

    def stop(self) -> None:
        """Stop watching, end event streams, free the port."""
        self.stop_event.set()
        with self._index_wanted:
            self._index_wanted.notify()
        self.hub.close()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def _wait_until(done: Callable[[], bool], timeout: float) -> bool:
    """Poll `done` every 10 ms until it holds (True) or `timeout` seconds have passed (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return True
        time.sleep(0.01)
    return False
