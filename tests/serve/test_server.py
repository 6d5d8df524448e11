"""The dev server over real sockets: content, safety, the reload channel's checks, load, rebuilds."""

from __future__ import annotations

import http.client
import socket
import threading
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from sitegen.build import BuildOptions, build_site
from sitegen.cli import main
from sitegen.serve.livereload import SCRIPT_PATH
from sitegen.serve.server import DevRequestHandler, allowed_hosts
from tests.serve.conftest import Running

Serve = Callable[..., Running]


def get(url: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    conn.putrequest("GET", path, skip_host=bool(headers and "Host" in headers), skip_accept_encoding=True)
    for k, v in (headers or {}).items():
        conn.putheader(k, v)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read() if "event-stream" not in (response.getheader("Content-Type") or "") else b""
    result = response.status, {k.lower(): v for k, v in response.getheaders()}, body
    conn.close()
    return result


def test_pages_assets_and_content_types(serve: Serve) -> None:
    run = serve()
    status, headers, body = get(run.url, "/posts/first/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert body.count(SCRIPT_PATH.encode()) == 1
    assert int(headers["content-length"]) == len(body)
    status, headers, body = get(run.url, "/css/extra.css")
    assert status == 200 and headers["content-type"] == "text/css; charset=utf-8" and SCRIPT_PATH.encode() not in body
    assert get(run.url, "/posts/%E8%AE%BA%E6%96%87%E7%AC%94%E8%AE%B0/")[0] == 200
    assert get(run.url, "/posts/first")[0] == 301


def test_reload_script_is_injected_into_a_page_that_mentions_its_path(serve: Serve) -> None:
    run = serve({"content/posts/first.md": "---\ntitle: First\n---\nThe dev server adds `/__sitegen/reload.js`.\n"})
    status, headers, body = get(run.url, "/posts/first/")
    assert status == 200 and body.count(f'<script src="{SCRIPT_PATH}"'.encode()) == 1
    assert int(headers["content-length"]) == len(body)


def test_build_output_never_contains_the_reload_script(make_site: Callable[..., Path]) -> None:
    site = make_site({"content/posts/first.md": "---\ntitle: First\n---\nText.\n"}, layouts=False)
    assert main(["build", "--source", str(site), "-q"]) == 0
    written = [p for p in (site / "public").rglob("*") if p.is_file()]
    assert written and not [p for p in written if b"__sitegen" in p.read_bytes()]


def test_editing_one_post_re_renders_only_the_pages_that_show_it(serve: Serve,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    run = serve({"content/posts/second.md": "---\ntitle: Second\ndate: 2024-01-03\n---\nOther.\n",
                 "content/about.md": "---\ntitle: About\n---\nAbout.\n"})
    memo = run.session.memo
    rendered: list[str] = []
    store = memo.store_output

    def spy(unit: str, key: str, deps: tuple[tuple[str, str], ...], files: dict[str, bytes], page: str = "",
            templates: tuple[tuple[str, str], ...] = (), *more: Any) -> None:
        rendered.append(unit)
        store(unit, key, deps, files, page, templates, *more)

    monkeypatch.setattr(memo, "store_output", spy)
    (run.site / "content/posts/first.md").write_text("---\ntitle: First\ndate: 2024-01-01\n---\nEdited.\n")
    run.session.build_once()
    assert "posts/first.md" in rendered
    assert not {"posts/second.md", "about.md", "posts/论文笔记.md"} & set(rendered), rendered
    rendered.clear()
    (run.site / "layouts/base.html").write_text((run.site / "layouts/base.html").read_text() + "<!-- t -->")
    run.session.build_once()
    assert {"posts/first.md", "posts/second.md", "about.md"} <= set(rendered), "a template edit re-renders all"


def test_unicode_names_saved_as_nfd_are_served_at_their_nfc_url(serve: Serve) -> None:
    nfd = unicodedata.normalize("NFD", "Übersicht")
    run = serve({f"content/{nfd}.md": "---\ntitle: U\n---\nUmlaut.\n", "content/♪.md": "---\ntitle: N\n---\nNote.\n"})
    assert b"Umlaut." in get(run.url, "/" + quote(unicodedata.normalize("NFC", "übersicht")) + "/")[2]
    assert get(run.url, "/" + quote(unicodedata.normalize("NFD", "übersicht")) + "/")[0] == 200
    assert b"Note." in get(run.url, "/%E2%99%AA/")[2]


def test_missing_paths_get_the_404_page_with_status_404(serve: Serve) -> None:
    run = serve(layouts=False)
    status, _, body = get(run.url, "/nope/")
    assert status == 404 and b"404" in body


@pytest.mark.parametrize("path", [
    "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%252e%252e/%252e%252e/etc/passwd", "/..%2f..%2fetc/passwd",
    "/..%5c..%5cetc%5cpasswd", "/C:/Windows/win.ini", "//etc/passwd", "/.git/config", "/.env", "/sitegen.yaml",
    "/content/posts/first.md", "/posts/..%2f..%2f..%2fsitegen.yaml",
])
def test_nothing_outside_the_build_is_served(serve: Serve, path: str) -> None:
    run = serve()
    (run.site / ".env").write_text("SECRET=1")
    status, _, body = get(run.url, path)
    assert status in (400, 404)
    assert b"SECRET" not in body and str(run.site).encode() not in body and b"root:" not in body
    assert get(run.url, "/posts/first/")[0] == 200, "the server stays up"


def test_nul_byte_is_a_bad_request(serve: Serve) -> None:
    run = serve()
    assert get(run.url, "/a%00b")[0] == 400


def test_symlink_outside_the_site_is_refused_and_never_served(serve: Serve, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    run = serve()
    (run.site / "static" / "leak.txt").symlink_to(secret)
    before = run.session.builds
    run.session.build_once()
    assert run.session.builds == before and run.session.hub.error and "symlink" in run.session.hub.error
    assert get(run.url, "/leak.txt")[0] == 404


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Host": "evil.example"},
])
def test_reload_channel_refuses_cross_origin_and_foreign_hosts(serve: Serve, headers: dict[str, str]) -> None:
    run = serve()
    if "Host" in headers:
        headers = {"Host": f"evil.example:{urlsplit(run.url).port}"}
    assert get(run.url, "/__sitegen/events", headers)[0] == 403


def test_reload_channel_accepts_same_origin(serve: Serve) -> None:
    run = serve()
    port = urlsplit(run.url).port
    status, headers, _ = get(run.url, "/__sitegen/events", {"Origin": f"http://127.0.0.1:{port}"})
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    status, _, _ = get(run.url, "/__sitegen/events", {"Host": f"localhost:{port}"})
    assert status == 200


def test_no_endpoint_triggers_a_build(serve: Serve) -> None:
    run = serve()
    builds = run.session.builds
    for path in ("/forcereload", "/__sitegen/reload", "/__sitegen/build", "/__sitegen/events?reload=1"):
        get(run.url, path)
    assert run.session.builds == builds


def test_fifty_concurrent_requests_and_idle_keepalive_sockets(serve: Serve) -> None:
    run = serve()
    parts = urlsplit(run.url)
    idle = [socket.create_connection((parts.hostname, parts.port)) for _ in range(10)]
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=50) as pool:
        statuses = list(pool.map(lambda _: get(run.url, "/posts/first/")[0], range(50)))
    assert statuses == [200] * 50
    assert time.monotonic() - started < 1.0
    for sock in idle:
        sock.close()


def test_edit_rebuilds_and_equals_a_clean_build(serve: Serve) -> None:
    run = serve()
    before = run.session.builds
    (run.site / "content/posts/first.md").write_text("---\ntitle: First\ndate: 2024-01-01\n---\nEdited text.\n")
    run.wait_for_build(before)
    served = get(run.url, "/posts/first/")[2].decode()
    assert "Edited text." in served
    assert run.session.quick_builds == 1  # a text edit: re-rendered from the last build
    clean = build_site(BuildOptions(source=run.site)).files
    assert run.session.wait_for_index()
    assert run.session.state.snapshot.files == clean


def test_bibtex_edit_rebuilds_publications_and_equals_a_clean_build(serve: Serve) -> None:
    bib = "@article{ada2024, title = {Old Title}, author = {Ada}, journal = {J}, year = 2024}\n"
    run = serve({"data/papers.bib": bib})
    assert b"Old Title" in get(run.url, "/publications/")[2]
    before = run.session.builds
    (run.site / "data/papers.bib").write_text(bib.replace("Old Title", "New Title"))
    run.wait_for_build(before)
    served = get(run.url, "/publications/")[2].decode()
    assert "New Title" in served and "Old Title" not in served
    assert run.session.wait_for_index()
    assert run.session.state.snapshot.files == build_site(BuildOptions(source=run.site)).files


def test_broken_file_keeps_the_last_good_site_and_recovers(serve: Serve) -> None:
    run = serve()
    page = run.site / "content/posts/first.md"
    page.write_text("---\ntitle: [broken\n---\nx\n")
    run.session.build_once()
    assert run.session.hub.error and "content/posts/first.md:" in run.session.hub.error
    assert b"Original text." in get(run.url, "/posts/first/")[2]
    page.write_text("---\ntitle: First\n---\nFixed.\n")
    run.session.build_once()
    assert run.session.hub.error is None and b"Fixed." in get(run.url, "/posts/first/")[2]


def test_requests_during_a_rebuild_get_a_complete_build(serve: Serve) -> None:
    run = serve()
    stop = threading.Event()
    bad: list[int] = []

    def hammer() -> None:
        while not stop.is_set():
            status, _, body = get(run.url, "/posts/first/")
            if status != 200 or not body.rstrip().endswith(b"</html>"):
                bad.append(status)

    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for t in threads:
        t.start()
    for i in range(5):
        (run.site / "content/posts/first.md").write_text(f"---\ntitle: First\n---\nVersion {i}\n")
        run.session.build_once()
    stop.set()
    for t in threads:
        t.join()
    assert bad == []


def test_base_url_sub_path_is_served_under_it(serve: Serve) -> None:
    run = serve({"sitegen.yaml": "title: T\nbase_url: https://u.github.io/repo/\n"})
    assert get(run.url, "/repo/posts/first/")[0] == 200
    status, headers, _ = get(run.url, "/")
    assert status == 302 and headers["location"] == "/repo/"


def test_stop_frees_the_port_quickly(serve: Serve) -> None:
    run = serve()
    port = urlsplit(run.url).port
    started = time.monotonic()
    run.session.stop()
    assert time.monotonic() - started < 1.0
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))


def test_a_draft_is_a_404_that_says_why_and_how_to_preview_it(serve: Serve) -> None:
    run = serve({"content/posts/wip.md": "---\ntitle: WIP\ndraft: true\n---\nNot yet.\n",
                 "content/posts/later.md": "---\ntitle: Later\ndate: 2999-01-01\n---\nSoon.\n"}, layouts=False)
    status, headers, body = get(run.url, "/posts/wip/")
    text = body.decode()
    assert status == 404 and headers["content-type"] == "text/html; charset=utf-8"
    assert "content/posts/wip.md</code> is a draft" in text and "sitegen serve --drafts" in text
    assert "This page does not exist" in text  # still the theme's 404 page around the notice
    assert get(run.url, "/posts/wip")[0] == 404 and b"--drafts" in get(run.url, "/posts/wip")[2]
    status, _, body = get(run.url, "/posts/later/")
    assert status == 404 and b"dated 2999-01-01" in body and b"sitegen serve --future" in body
    status, _, body = get(run.url, "/posts/nothing-here/")
    assert status == 404 and b"--drafts" not in body and b"sitegen serve:" not in body


def test_with_drafts_the_draft_is_served(serve: Serve) -> None:
    run = serve({"content/posts/wip.md": "---\ntitle: WIP\ndraft: true\n---\nNot yet.\n"}, drafts=True)
    assert get(run.url, "/posts/wip/")[0] == 200


def test_on_port_80_a_host_header_without_the_port_is_accepted(serve: Serve) -> None:
    run = serve()
    run.session.state.allowed_hosts = allowed_hosts("127.0.0.1", 80)  # as make_server sets it when bound to 80
    assert get(run.url, "/posts/first/", {"Host": "localhost"})[0] == 200
    assert get(run.url, "/posts/first/", {"Host": "127.0.0.1"})[0] == 200
    assert get(run.url, "/posts/first/", {"Host": "evil.example"})[0] == 403
    assert "localhost" not in allowed_hosts("127.0.0.1", 8000)


def test_an_idle_connection_is_closed(serve: Serve, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DevRequestHandler, "timeout", 0.3)
    run = serve()
    parts = urlsplit(run.url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        assert sock.recv(100) == b""  # closed by the server; before, this waited forever


def test_a_browser_closing_the_connection_prints_no_traceback(serve: Serve, capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    run = serve()
    server = run.session.server
    assert server is not None
    for error in (BrokenPipeError(32, "Broken pipe"), ConnectionResetError(104, "reset"), TimeoutError()):
        try:
            raise error
        except OSError:
            server.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""
    try:
        raise ValueError("a real bug")
    except ValueError:
        server.handle_error(None, ("127.0.0.1", 1))
    assert "ValueError: a real bug" in capsys.readouterr().err
