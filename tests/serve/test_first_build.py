"""`sitegen serve` answers while its first build runs (with a building page, never part of a site), and starts
from the build cache `sitegen build` leaves."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import sitegen.build
import sitegen.serve.session
from sitegen.build import BuildOptions, build_site
from sitegen.cache import save_memo
from sitegen.memo import BuildMemo
from sitegen.serve.session import ServeSession
from tests.serve.conftest import SITE

MakeSite = Callable[..., Path]


def _get(url: str) -> tuple[int, bytes, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - loopback only
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


def test_requests_during_the_first_build_get_the_building_page_then_the_site(
        make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(SITE)
    release, listening = threading.Event(), threading.Event()
    real_build = build_site

    def slow_build(options: BuildOptions, memo: BuildMemo | None = None) -> Any:
        result = real_build(options, memo)
        assert release.wait(10), "the test never let the first build finish"
        return result

    monkeypatch.setattr(sitegen.serve.session, "build_site", slow_build)
    session = ServeSession(BuildOptions(source=site), say=lambda _m: None)
    bound: list[int] = []
    started = threading.Thread(target=session.start, args=("127.0.0.1", 0),
                               kwargs={"auto_port": False, "listening": lambda _h, p: (bound.append(p),
                                                                                      listening.set())})
    started.start()
    try:
        assert listening.wait(10)
        url = f"http://127.0.0.1:{bound[0]}"
        epoch = session.hub.epoch
        for path in ("/", "/posts/first/", "/css/extra.css", "/no/such/page/"):
            status, body, headers = _get(url + path)
            assert status == 503, path
            assert b"building the site" in body and b"Original text" not in body and b"rgb(1, 2, 3)" not in body
            assert headers["Retry-After"] == "1"
            assert b"/__sitegen/reload.js" in body  # it reloads itself when the build is done
        release.set()
        started.join(20)
        status, body, _ = _get(url + "/posts/first/")
        assert status == 200 and b"Original text" in body
        assert session.hub.epoch > epoch, "tabs on the building page are told to reload"
        assert session.wait_for_index()
        assert session.state.snapshot.files == real_build(BuildOptions(source=site)).files
    finally:
        release.set()
        started.join(20)
        session.stop()


def test_serve_starts_from_the_build_cache_without_rendering_pages_again(
        make_site: MakeSite, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "test-key")
    site = make_site(SITE)
    memo = BuildMemo()
    clean = build_site(BuildOptions(source=site), memo)
    save_memo(site, memo)  # what `sitegen build` leaves
    cache = sorted(p.relative_to(site) for p in site.rglob("*"))
    rendered: list[str] = []
    real_render = sitegen.build.render_many

    def counting(*args: Any, **kwargs: Any) -> Any:
        rendered.extend(args[4])
        return real_render(*args, **kwargs)

    monkeypatch.setattr(sitegen.build, "render_many", counting)
    session = ServeSession(BuildOptions(source=site), say=lambda _m: None)
    session.start("127.0.0.1", 0, auto_port=False)
    try:
        assert rendered == [], "every page's Markdown came from the cache"
        served = session.state.snapshot.files
        assert {k: v for k, v in served.items() if not k.startswith("searchindex/")} == {
            k: v for k, v in clean.files.items() if not k.startswith("searchindex/")}
        assert sorted(p.relative_to(site) for p in site.rglob("*")) == cache, "the cache is read, never written"
    finally:
        session.stop()


def test_a_file_saved_during_the_first_build_is_served_after_it(
        make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(SITE)
    post = site / "content/posts/first.md"
    real_build = build_site
    calls: list[int] = []

    def build_then_edit(options: BuildOptions, memo: BuildMemo | None = None) -> Any:
        result = real_build(options, memo)
        if not calls:  # the first build has read the post: it is saved now, before that build is served
            post.write_text(post.read_text(encoding="utf-8").replace("Original text.", "Saved meanwhile."),
                            encoding="utf-8")
        calls.append(1)
        return result

    monkeypatch.setattr(sitegen.serve.session, "build_site", build_then_edit)
    session = ServeSession(BuildOptions(source=site), say=lambda _m: None)
    host, port = session.start("127.0.0.1", 0, auto_port=False)
    try:
        deadline = time.monotonic() + 10
        body = b""
        while time.monotonic() < deadline and b"Saved meanwhile." not in body:
            time.sleep(0.05)
            body = _get(f"http://{host}:{port}/posts/first/")[1]
        assert b"Saved meanwhile." in body, "the save made during the first build was rebuilt"
    finally:
        session.stop()
