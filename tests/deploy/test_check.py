"""`sitegen check` finds each planted fault with its source line, and passes the example site."""

from __future__ import annotations

import functools
import http.server
import itertools
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sitegen.check import check_build, external
from sitegen.check.external import check_external
from sitegen.check.internal import check_files
from sitegen.cli import main
from tests.conftest import REPO, build

MakeSite = Callable[..., Path]

PLANTED = {
    "sitegen.yaml": "title: T\nbase_url: https://u.github.io/repo/\n",
    "content/a.md": "---\ntitle: A\n---\nintro\n\n[missing page](/nowhere/)\n\n![missing image](/img/none.png)\n\n"
                    "[missing fragment](b.md#nope) [good fragment](b.md#there)\n\n"
                    '<a href="/repo/b/">ok</a> <a href="https://u.github.io/b/">wrong sub-path</a>\n',
    "content/b.md": "---\ntitle: B\n---\n## There\n",
}


def test_each_planted_fault_is_found_with_its_source_line(make_site: MakeSite) -> None:
    report = check_build(build(make_site(PLANTED)))
    errors = {(p.message, p.url, p.source) for p in report.errors}
    assert ("missing page", "/repo/nowhere/", "content/a.md:6") in errors
    assert ("missing image", "/repo/img/none.png", "content/a.md:8") in errors
    assert ("missing fragment #nope", "/repo/b/#nope", "content/a.md:10") in errors
    assert ("link outside the site's base path /repo/", "https://u.github.io/b/", "content/a.md:12") in errors
    assert len(report.errors) == 4, report.format()
    text = report.format()
    assert "a/index.html:\n" in text and ". error: missing page /repo/nowhere/ (content/a.md:6)" in text


def test_duplicate_ids_and_missing_titles(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": '<p id="x">1</p>\n\n<p id="x">2</p>\n',
                      "layouts/page.html": "<html><head><title></title></head><body>{{ page.content }}</body></html>"})
    report = check_build(build(site))
    assert any("duplicate id `x`" in p.message for p in report.errors)
    assert any(p.severity == "warning" and "title" in p.message for p in report.problems)


def test_stylesheets_scripts_feed_and_sitemap_urls_and_descriptions_are_checked() -> None:
    page = (b'<html><head><title>T</title><link rel="stylesheet" href="/css/gone.css">'
            b'<script src="/js/gone.js"></script></head><body><a href="/">home</a></body></html>')
    files = {"index.html": page,
             "feed.xml": b'<feed><link href="https://example.org/posts/gone/"/></feed>',
             "sitemap.xml": b"<urlset><url><loc>https://example.org/</loc></url>"
                            b"<url><loc>https://example.org/old/</loc></url></urlset>"}
    report = check_files(files, "https://example.org/")
    found = sorted((p.page, p.message, p.url) for p in report.problems)
    assert found == [
        ("feed.xml", "missing page", "https://example.org/posts/gone/"),
        ("index.html", "missing script", "/js/gone.js"),
        ("index.html", "missing stylesheet or resource", "/css/gone.css"),
        ("index.html", "page has no meta description", ""),
        ("sitemap.xml", "missing page", "https://example.org/old/"),
    ], report.format()


def test_an_id_after_a_name_attribute_is_a_fragment_target() -> None:
    page = (b'<html><head><title>T</title></head><body><input name="q" id="search" type="search">'
            b'<a name="old" id="new"></a><a href="#search">s</a> <a href="/#new">n</a> <a href="#old">o</a>'
            b'<p>id="text-not-an-id"</p><a href="#text-not-an-id">t</a></body></html>')
    report = check_files({"index.html": page}, "https://example.org/")
    assert [p.url for p in report.errors] == ["#text-not-an-id"], report.format()


def test_the_example_site_passes() -> None:
    report = check_build(build(REPO))
    assert report.errors == [], report.format()
    assert report.pages > 30


def test_cli_check_exit_codes(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--source", str(make_site(PLANTED))]) == 1
    assert "content/a.md:6" in capsys.readouterr().err
    good = make_site({"content/a.md": "---\ntitle: A\ndescription: d\n---\n[b](b.md)",
                      "content/b.md": "---\ntitle: B\ndescription: d\n---\n"}, layouts=False, name="good")
    assert main(["check", "--source", str(good)]) == 0


def test_build_check_refuses_to_write_a_broken_site(make_site: MakeSite) -> None:
    site = make_site(PLANTED)
    assert main(["build", "--check", "--source", str(site), "-q"]) == 1
    assert not (site / "public").exists()


def test_check_an_existing_output_folder(make_site: MakeSite) -> None:
    site = make_site(PLANTED)
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert main(["check", "--source", str(site), "--output", str(site / "public")]) == 1


@pytest.fixture
def local_server(tmp_path: Path) -> Iterator[str]:
    (tmp_path / "ok.html").write_text("ok")

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_external_links_are_checked_concurrently_and_cached(local_server: str, tmp_path: Path) -> None:
    cache = tmp_path / "cache.json"
    urls = [f"{local_server}/ok.html", f"{local_server}/missing.html"]
    results = check_external(urls, cache, timeout=2, retries=0, per_host_interval=0, now=1000.0)
    assert [(r.ok, r.status) for r in results] == [(False, 404), (True, 200)]
    again = check_external(urls, cache, timeout=2, retries=0, per_host_interval=0, now=2000.0)
    assert [r.error for r in again if r.ok] == ["cached"]


def test_a_failed_external_link_is_reported_on_each_page_with_its_source_line(
        local_server: str, make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    gone, ok = f"{local_server}/missing.html", f"{local_server}/ok.html"
    site = make_site({"content/a.md": f"---\ntitle: A\n---\n\n[gone]({gone}) [ok]({ok})\n",
                      "content/b.md": f"---\ntitle: B\n---\n[gone]({gone})\n"})
    assert main(["check", "--external", "--source", str(site)]) == 1
    err = capsys.readouterr().err
    groups = {block.split(":\n", 1)[0]: block for block in re.split(r"\n(?=\S)", err)}
    assert re.search(rf"\d+\. error: external link failed: HTTP 404 {gone} \(content/a\.md:5\)", groups["a/index.html"])
    assert re.search(rf"\d+\. error: external link failed: HTTP 404 {gone} \(content/b\.md:4\)", groups["b/index.html"])
    assert "(external)" not in err and ok not in err


def test_external_check_retries_server_errors_and_spaces_requests_to_one_host(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, float]] = []

    class Flaky(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_HEAD(self) -> None:  # noqa: N802
            seen.append((self.path, time.monotonic()))
            first = sum(1 for path, _ in seen if path == self.path) == 1
            self.send_response(503 if first and self.path == "/flaky" else 200)
            self.send_header("Content-Length", "0")
            self.end_headers()

    slots: list[float] = []

    class RecordingLimiter(external._HostLimiter):
        def wait(self, host: str) -> float:
            start = super().wait(host)
            slots.append(start)
            return start

    monkeypatch.setattr(external, "_HostLimiter", RecordingLimiter)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        results = check_external([f"{base}/flaky", f"{base}/a", f"{base}/b"], None, timeout=2, retries=1,
                                 per_host_interval=0.15)
    finally:
        server.shutdown()
    assert [(r.url.rsplit("/", 1)[1], r.ok) for r in results] == [("a", True), ("b", True), ("flaky", True)]
    assert [path for path, _ in seen].count("/flaky") == 2, "a 503 is retried"
    # The schedule the limiter handed out, not the server's arrival times (those jitter on a loaded machine).
    times = sorted(slots)
    assert len(times) == 4
    assert all(later - earlier >= 0.15 - 1e-9 for earlier, later in itertools.pairwise(times)), \
        "one request per interval"
