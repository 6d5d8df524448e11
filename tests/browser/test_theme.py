"""The default theme in a real browser, on the example site served like a static host.

The site is built into a temp folder and served by a stdlib `http.server` thread on 127.0.0.1 with the
Content-Security-Policy of the repository's `netlify.toml` and GitHub Pages' 404 behaviour. Every request that
leaves 127.0.0.1 is blocked and recorded: only the author's own shields.io badges may be attempted.
"""

from __future__ import annotations

import functools
import http.server
import io
import threading
import tomllib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pypdf import PdfReader

from sitegen.build import BuildOptions, build_site
from sitegen.writer import write_output
from tests.browser.conftest import PagesHandler
from tests.conftest import REPO

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PAGES = ["/", "/about/", "/posts/", "/posts/profiling-dataloaders/", "/posts/论文笔记/", "/posts/jekyll-style/",
         "/posts/csapp-memory-hierarchy/", "/cv/", "/tags/", "/categories/paper-summary/", "/talks/",
         "/talks/memory-efficient-training/", "/search/", "/publications/", "/no/such/page/"]
BADGES = "https://img.shields.io/"


def _netlify_csp() -> str:
    """The CSP the repository deploys with, so the test holds the theme to the real policy."""
    config = tomllib.loads((REPO / "netlify.toml").read_text(encoding="utf-8"))
    return next(h["values"]["Content-Security-Policy"] for h in config["headers"] if h["for"] == "/*")


class _StaticHost(PagesHandler):
    """Serves files with a CSP header and answers unknown paths with /404.html, as GitHub Pages does."""

    csp = ""

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", self.csp)
        super().end_headers()


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the browser closing a connection early (aborted requests) is not a failure


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example site built into a temp dir and served on 127.0.0.1; yields its root URL (no trailing slash)."""
    out = tmp_path_factory.mktemp("theme") / "public"
    write_output(build_site(BuildOptions(source=REPO, base_url="/")).files, out, REPO)
    handler = type("Handler", (_StaticHost,), {"csp": _netlify_csp()})
    server = _QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _page(browser: Any, site_url: str, viewport: dict[str, int], scheme: str = "light",
          external: list[str] | None = None) -> tuple[Any, Any]:
    """A fresh context and page; requests leaving the site are aborted (and recorded in `external`)."""
    ctx = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = ctx.new_page()

    def route(r: Any) -> None:
        if r.request.url.startswith(site_url + "/"):
            r.continue_()
        else:
            if external is not None:
                external.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    return ctx, page


def _each_page(page: Any, site_url: str, check: Callable[[str], None]) -> None:
    for path in PAGES:
        page.goto(site_url + path, wait_until="load")
        check(path)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_scrolls_sideways(browser: Any, site_url: str, viewport: dict[str, int]) -> None:
    ctx, page = _page(browser, site_url, viewport)
    overflows: dict[str, int] = {}

    def check(path: str) -> None:
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if overflow > 0:
            overflows[path] = overflow

    _each_page(page, site_url, check)
    ctx.close()
    assert overflows == {}


def test_the_menu_fits_the_phone_screen_and_marks_the_current_section(browser: Any, site_url: str) -> None:
    ctx, page = _page(browser, site_url, PHONE)
    page.goto(site_url + "/posts/profiling-dataloaders/")
    folded = page.locator(".site-nav").is_visible()
    page.click(".nav-toggle-label")  # the phone menu opens without JavaScript (a checkbox and its label)
    boxes = page.eval_on_selector_all(".site-nav a", "els => els.map(e => e.getBoundingClientRect().right)")
    current = page.eval_on_selector_all(".site-nav a[aria-current=page]", "els => els.map(e => e.textContent)")
    ctx.close()
    assert not folded
    assert len(boxes) >= 6 and 0 < min(boxes) and max(boxes) <= PHONE["width"]
    assert current == ["Posts"]


def test_wide_code_scrolls_inside_its_block_on_a_phone(browser: Any, site_url: str) -> None:
    ctx, page = _page(browser, site_url, PHONE)
    page.goto(site_url + "/posts/profiling-dataloaders/")
    pre = page.locator("div.highlight pre").first
    scroll, client = pre.evaluate("e => [e.scrollWidth, e.clientWidth]")
    page_overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    # The highlighted line (hl_lines) is painted across the whole scrolled width, not cut at the visible edge.
    hll_width = page.locator("div.highlight .hll").first.evaluate("e => e.getBoundingClientRect().width")
    ctx.close()
    assert scroll > client and page_overflow <= 0
    assert hll_width >= scroll - 40  # the pre's horizontal padding


def test_dark_mode_changes_page_text_and_code_colours(browser: Any, site_url: str) -> None:
    probe = """() => [document.body, document.querySelector('div.highlight'), document.querySelector('.highlight .kn')]
                 .map(e => getComputedStyle(e)).map(s => s.backgroundColor + ' ' + s.color)"""
    seen = []
    for scheme in ("light", "dark"):
        ctx, page = _page(browser, site_url, DESKTOP, scheme)
        page.goto(site_url + "/posts/profiling-dataloaders/")
        seen.append(page.evaluate(probe))
        ctx.close()
    light, dark = seen
    assert all(a != b for a, b in zip(light, dark, strict=True)), (light, dark)


def test_only_the_authors_badges_leave_the_site(browser: Any, site_url: str) -> None:
    external: list[str] = []
    ctx, page = _page(browser, site_url, DESKTOP, external=external)
    _each_page(page, site_url, lambda path: None)
    ctx.close()
    assert external, "the about page's shields.io badges should have been attempted"
    assert [u for u in external if not u.startswith(BADGES)] == []


def test_pages_run_under_the_deployed_csp_without_errors(browser: Any, site_url: str) -> None:
    ctx, page = _page(browser, site_url, DESKTOP)
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"{page.url}: {err}"))
    page.on("console", lambda msg: problems.append(f"{page.url}: {msg.text}")
            if msg.type == "error" and "404" not in msg.text and "ERR_FAILED" not in msg.text else None)
    _each_page(page, site_url, lambda path: None)
    ctx.close()
    assert problems == []


def test_math_in_posts_and_in_listed_summaries_is_typeset(browser: Any, site_url: str) -> None:
    ctx, page = _page(browser, site_url, DESKTOP)
    counts = {}
    for path in ("/posts/csapp-memory-hierarchy/", "/posts/"):  # the home page lists titles only
        page.goto(site_url + path)
        page.wait_for_selector(".math .katex")
        counts[path] = page.locator(".math .katex").count()
    ctx.close()
    assert counts["/posts/csapp-memory-hierarchy/"] >= 3 and counts["/posts/"] >= 3


def test_code_blocks_get_a_copy_button(browser: Any, site_url: str) -> None:
    ctx, page = _page(browser, site_url, DESKTOP)
    page.goto(site_url + "/posts/profiling-dataloaders/")
    buttons = page.locator("div.highlight .copy-code").count()
    ctx.close()
    assert buttons == 1


def test_copy_button_copies_the_code_without_line_numbers(browser: Any, site_url: str) -> None:
    # The example block has `linenos=true hl_lines=[4]`: the highlighted line nests its number one level deeper.
    ctx, page = _page(browser, site_url, DESKTOP)
    page.add_init_script("""Object.defineProperty(navigator, "clipboard", {value: {writeText: function (t) {
        window.copied = t; return Promise.resolve(); }}});""")
    page.goto(site_url + "/posts/profiling-dataloaders/")
    page.locator("div.highlight .copy-code").first.click(force=True)
    page.wait_for_function("window.copied !== undefined")
    copied = page.evaluate("window.copied")
    ctx.close()
    assert copied.splitlines()[0] == "from torch.profiler import profile, ProfilerActivity"
    assert copied.splitlines()[3] == "    for step, batch in zip(range(20), loader):"
    assert not any(line[:1].isdigit() for line in copied.splitlines())


def test_a_missing_url_gets_the_styled_404_page(browser: Any, site_url: str) -> None:
    ctx, page = _page(browser, site_url, PHONE)
    response = page.goto(site_url + "/deep/missing/path/")
    heading = page.locator("main h1").text_content()
    styled = page.evaluate("getComputedStyle(document.querySelector('.site-nav ul')).display")
    ctx.close()
    assert response.status == 404 and heading == "404" and styled == "flex"


def test_printing_the_cv_leaves_out_the_site_chrome(browser: Any, site_url: str) -> None:
    ctx, page = _page(browser, site_url, DESKTOP)
    page.goto(site_url + "/cv/")
    page.emulate_media(media="print")
    hidden = page.evaluate("""() => ['.site-header', '.site-footer', '.cv-downloads']
        .map(s => getComputedStyle(document.querySelector(s)).display)""")
    unbreakable = page.evaluate("getComputedStyle(document.querySelector('.cv-entry')).breakInside")
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    ctx.close()
    assert hidden == ["none", "none", "none"]
    assert unbreakable == "avoid"
    reader = PdfReader(io.BytesIO(pdf))
    text = "\n".join(p.extract_text() for p in reader.pages)
    width_mm = float(reader.pages[0].mediabox.width) / 72 * 25.4
    assert round(width_mm) == 210 and "EXPERIENCE" in text.upper()
    assert "Built with sitegen" not in text and "Skip to content" not in text
