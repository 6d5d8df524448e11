"""The default theme in a real browser: phone and desktop widths, dark mode, no third-party requests."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

PAGES = ["/", "/about/", "/posts/", "/posts/profiling-dataloaders/", "/posts/论文笔记/", "/cv/", "/tags/",
         "/talks/memory-efficient-training/", "/posts/csapp-memory-hierarchy/"]


def _context(browser: Any, width: int, scheme: str = "light") -> Any:
    return browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)


@pytest.mark.parametrize("width", [390, 1280])
def test_no_horizontal_overflow(browser: Any, example_site_url: str, width: int) -> None:
    ctx = _context(browser, width)
    page = ctx.new_page()
    page.route("**/*", lambda route: route.abort() if "127.0.0.1" not in route.request.url else route.continue_())
    for path in PAGES:
        page.goto(example_site_url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} overflows by {overflow}px at {width}px"
    ctx.close()


def test_dark_mode_changes_the_background(browser: Any, example_site_url: str) -> None:
    colors = []
    for scheme in ("light", "dark"):
        ctx = _context(browser, 1280, scheme)
        page = ctx.new_page()
        page.goto(example_site_url + "/")
        colors.append(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        ctx.close()
    assert colors[0] != colors[1]


def test_only_the_authors_badges_leave_the_site(browser: Any, example_site_url: str) -> None:
    ctx = _context(browser, 1280)
    page = ctx.new_page()
    external: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(example_site_url):
            r.continue_()
        else:
            external.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    for path in PAGES:
        page.goto(example_site_url + path)
        page.wait_for_load_state("networkidle")
    assert external, "the about page's shields.io badges should have been requested"
    assert all(url.startswith("https://img.shields.io/") for url in external), external
    ctx.close()


def test_math_is_typeset_by_the_shipped_katex(browser: Any, example_site_url: str) -> None:
    ctx = _context(browser, 1280)
    page = ctx.new_page()
    page.goto(example_site_url + "/posts/csapp-memory-hierarchy/")
    page.wait_for_selector(".katex")
    assert page.locator(".math .katex").count() >= 3
    ctx.close()


def test_code_blocks_get_a_copy_button(browser: Any, example_site_url: str) -> None:
    ctx = _context(browser, 1280)
    page = ctx.new_page()
    page.goto(example_site_url + "/posts/profiling-dataloaders/")
    assert page.locator("div.highlight .copy-code").count() == 1
    ctx.close()
