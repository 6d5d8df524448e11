"""`sitegen serve` is ready before it has recorded the included templates' texts that a template edit reuses: its
full builds leave them to the background worker, which records them unit by unit once the build is served (after
the search index). An edit never waits for that: a save or a template edit made while it runs is built at once
(a template edit renders every include it has no text of: correct, only slower), and a server started from
`sitegen build`'s cache (which renders nothing) gets them too. Every result equals a clean build, byte for byte."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import sitegen.blockedits as blockedits
import sitegen.serve.session as session_module
from sitegen.build import BuildOptions, build_site
from sitegen.cache import save_memo
from sitegen.memo import BuildMemo, template_key
from sitegen.serve.session import ServeSession
from sitegen.views import SiteView
from tests.serve.conftest import Running
from tests.serve.test_fragments import SINGLE, SITE

Serve = Callable[..., Running]
POSTS = {f"posts/p{i}/index.html" for i in range(3)}


class Gate:
    """Holds the background worker before it records its unit number `after` (outside the session's lock, as
    between any two units), until `open` is set."""

    def __init__(self) -> None:
        self.after = 0
        self.passed = 0
        self.open = threading.Event()
        self.waiting = threading.Event()
        """Set once the worker is held: recording has begun and is not finished."""

    def passing(self) -> None:
        if self.passed >= self.after and not self.open.is_set():
            self.waiting.set()
            self.open.wait(30)
        self.passed += 1


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    held = Gate()
    real = ServeSession._record_one

    def record_one(self: ServeSession) -> bool:
        held.passing()
        return real(self)

    monkeypatch.setattr(ServeSession, "_record_one", record_one)
    yield held
    held.open.set()


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages the head partial looked up (`site.get_page`) in the thread that runs edits' builds: one per
    render of the partial, none when its recorded text is reused."""
    found: list[str] = []
    original = SiteView.get_page

    def get_page(self: SiteView, source: str) -> object:
        if threading.current_thread().name == "sitegen-watch":
            found.append(source)
        return original(self, source)

    monkeypatch.setattr(SiteView, "get_page", get_page)
    return found


def _edit(run: Running, rel: str, text: str) -> None:
    builds = run.session.builds
    (run.site / rel).write_text(text, encoding="utf-8")
    run.wait_for_build(builds, timeout=30)
    assert run.session.hub.error is None and run.session.builds > builds


def _without_index(files: object) -> dict[str, bytes]:
    return {k: v for k, v in dict(files).items() if not k.startswith("searchindex/")}  # type: ignore[call-overload]


def _assert_clean(run: Running, *, index: bool = True) -> None:
    """The served files are a clean build's (without the search index while the background worker is held: the
    index of the last build is served until it catches up)."""
    clean = build_site(BuildOptions(source=run.site)).files
    if index:
        assert run.session.wait_for_index()
        assert run.session.state.snapshot.files == clean
    else:
        assert _without_index(run.session.state.snapshot.files) == _without_index(clean)


def _page(run: Running, path: str) -> str:
    return run.session.state.snapshot.files[path].decode()


def test_serve_is_ready_before_the_fragments_are_recorded_and_a_template_edit_then_reuses_them(
        serve: Serve, gate: Gate, lookups: list[str]) -> None:
    run = serve(SITE)
    assert gate.waiting.wait(10)
    entries = list(run.session.memo.outputs.values())
    assert entries and not any(e.recorded or e.fragments for e in entries), "the first build recorded none"
    _assert_clean(run)
    gate.open.set()
    assert run.session.wait_for_fragments()
    entries = list(run.session.memo.outputs.values())
    assert all(e.recorded for e in entries) and any(e.fragments for e in entries)
    _edit(run, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
    assert set(run.session.result.rendered or []) >= POSTS  # type: ignore[union-attr]
    assert lookups == []  # no post's head partial (which looks about.md up) was rendered again
    assert "<h1 class='one'>" in _page(run, "posts/p1/index.html")
    _assert_clean(run)


def test_a_save_while_fragments_are_recorded_is_built_at_once(serve: Serve, gate: Gate, lookups: list[str]) -> None:
    gate.after = 2
    run = serve(SITE)
    assert gate.waiting.wait(10)
    _edit(run, "content/posts/p1.md", "---\ntitle: Post 1\ndate: 2024-01-02\n---\nSaved while recording.\n")
    assert run.session.quick_builds == 1
    assert run.session.recorded is not run.session.result, "the save did not wait for the recording"
    assert "Saved while recording." in _page(run, "posts/p1/index.html")
    _assert_clean(run, index=False)
    gate.open.set()
    assert run.session.wait_for_fragments()
    lookups.clear()  # (the save rendered the post's head again: its page's text changed)
    _edit(run, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
    assert lookups == []
    _assert_clean(run)


def test_a_template_edit_before_the_fragments_are_recorded_is_correct(
        serve: Serve, gate: Gate, lookups: list[str]) -> None:
    gate.after = 2
    run = serve(SITE)
    assert gate.waiting.wait(10)
    _edit(run, "layouts/partials/nav.html", "<nav class=\"new-nav\">{{ site.title }}</nav>")
    assert run.session.recorded is not run.session.result
    assert all('<nav class="new-nav">' in _page(run, p) for p in [*POSTS, "about/index.html"])
    _edit(run, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
    assert lookups, "without recorded texts the posts' head partials were rendered again"
    _assert_clean(run, index=False)
    gate.open.set()
    assert run.session.wait_for_fragments()
    lookups.clear()
    _edit(run, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='two'>"))
    assert lookups == []
    assert "<h1 class='two'>" in _page(run, "posts/p2/index.html")
    _assert_clean(run)


def test_a_server_started_from_the_build_cache_records_the_fragments_too(
        make_site: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, lookups: list[str]) -> None:
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "test-key")
    site = make_site(SITE)
    memo = BuildMemo()
    build_site(BuildOptions(source=site), memo)
    save_memo(site, memo)  # what `sitegen build` leaves: no fragments
    session = ServeSession(BuildOptions(source=site), say=lambda _m: None)
    host, port = session.start("127.0.0.1", 0, auto_port=False)
    run = Running(session, site, f"http://{host}:{port}")
    try:
        assert session.result is not None and session.result.rendered == [], "the first build rendered nothing"
        assert session.wait_for_fragments()
        assert any(e.fragments for e in session.memo.outputs.values())
        _edit(run, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
        assert lookups == []
        _assert_clean(run)
    finally:
        session.stop()


def test_the_lexers_of_the_sites_code_are_imported_under_the_build_lock_one_language_at_a_time(
        serve: Serve, monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds fork under the session's lock, and a copy forked while another thread imports a module inherits
    that import's lock held (the copy hangs on it, and the server with it): the background worker imports the
    lexers of the site's code only while it holds the lock, a language at a time so that an edit waits little."""
    sessions: list[ServeSession] = []
    init = ServeSession.__init__

    def tracked(self: ServeSession, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        sessions.append(self)

    calls: list[tuple[list[str], bool]] = []
    monkeypatch.setattr(ServeSession, "__init__", tracked)
    monkeypatch.setattr(session_module, "preload",
                        lambda languages: calls.append((list(languages), sessions[0].lock.locked())))
    serve({"content/posts/code.md": "---\ntitle: Code\ndate: 2024-01-05\n---\n```rust\nfn main() {}\n```\n\n"
                                    "```python\nx = 1\n```\n"})
    deadline = time.monotonic() + 10
    while len(calls) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert calls == [(["python"], True), (["rust"], True)]


def test_once_idle_the_server_has_read_its_layouts_facts_for_a_template_edit(serve: Serve) -> None:
    # So that the first layout edit parses only the layout it changed (sitegen.blockedits).
    blockedits._FACTS.clear()
    run = serve(SITE)
    assert run.session.wait_for_fragments()
    for name in ("base.html", "single.html"):
        path = run.session.options.source / "layouts" / name
        assert template_key(str(path), path.read_text(encoding="utf-8")) in blockedits._FACTS


def test_once_idle_the_server_runs_the_collectors_full_collection_when_it_is_due_under_the_build_lock(
        serve: Serve, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full collection walks the whole site (1.8 s at 10,000 posts): when one is due soon, the background worker
    runs it once its work is done, holding the build lock (an edit waits for it, never runs beside it), so that it
    does not come in the middle of the next edit."""
    sessions: list[ServeSession] = []
    init = ServeSession.__init__

    def tracked(self: ServeSession, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        sessions.append(self)

    held: list[bool] = []

    def collect_when_due() -> bool:
        held.append(sessions[0].lock.locked())
        return True  # (as if one was due and ran)

    monkeypatch.setattr(ServeSession, "__init__", tracked)
    monkeypatch.setattr(session_module, "collect_if_due", collect_when_due)
    run = serve(SITE)
    assert run.session.wait_for_fragments()
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        time.sleep(0.02)
    assert held and all(held), "asked once idle, under the lock"
    assert run.session.collections == len(held)


def test_a_full_collection_runs_only_when_the_collector_is_about_to_run_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc  # noqa: PLC0415 - only this test stands in for the collector

    from sitegen import parallel  # noqa: PLC0415

    collected: list[int] = []
    monkeypatch.setattr(gc, "get_threshold", lambda: (50_000, 50, 100))
    monkeypatch.setattr(gc, "collect", lambda *_args: collected.append(1) or 0)
    monkeypatch.setattr(gc, "get_count", lambda: (10, 3, 20))  # 20 of 100 younger collections: not yet
    assert parallel.collect_if_due() is False and collected == []
    monkeypatch.setattr(gc, "get_count", lambda: (10, 3, 60))  # past half way: now, rather than in an edit
    assert parallel.collect_if_due() is True and collected == [1]
