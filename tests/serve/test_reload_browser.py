"""Live reload in real headless Chromium: edits show up, CSS swaps in place, errors overlay, ten tabs reload,
a restarted server reloads open tabs once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sitegen.build import BuildOptions
from sitegen.serve.session import ServeSession
from tests.serve.conftest import Running

pytestmark = pytest.mark.browser
Serve = Callable[..., Running]


@pytest.fixture
def chromium(browser: Any) -> Any:
    """The session's Chromium."""
    return browser


def open_page(chromium: Any, url: str) -> Any:
    page = chromium.new_page()
    page.goto(url)
    # The reload script marks the page once the event stream said hello: edits made after this are seen.
    page.wait_for_function("document.documentElement.dataset.sitegenLive === 'connected'", timeout=10_000)
    return page


def test_markdown_edit_appears_without_a_manual_reload(serve: Serve, chromium: Any) -> None:
    run = serve()
    page = open_page(chromium, run.url + "/posts/first/")
    assert "Original text." in page.content()
    (run.site / "content/posts/first.md").write_text("---\ntitle: First\ndate: 2024-01-01\n---\nBrand new text.\n")
    page.wait_for_selector("text=Brand new text.", timeout=10_000)
    page.close()


def test_css_change_swaps_the_stylesheet_without_reloading(serve: Serve, chromium: Any) -> None:
    run = serve()
    page = open_page(chromium, run.url + "/posts/first/")
    page.evaluate("window.survivor = 42")
    assert page.evaluate("getComputedStyle(document.body).color") == "rgb(1, 2, 3)"
    (run.site / "static/css/extra.css").write_text("body { color: rgb(9, 8, 7); }\n")
    page.wait_for_function("getComputedStyle(document.body).color === 'rgb(9, 8, 7)'", timeout=10_000)
    assert page.evaluate("window.survivor") == 42, "the page was reloaded"
    page.close()


def test_broken_front_matter_shows_an_overlay_then_recovers(serve: Serve, chromium: Any) -> None:
    run = serve()
    page = open_page(chromium, run.url + "/posts/first/")
    post = run.site / "content/posts/first.md"
    post.write_text("---\ntitle: First\ndate: [2024\n---\nx\n")
    overlay = page.wait_for_selector("#sitegen-error-overlay", timeout=10_000)
    text = overlay.inner_text()
    assert "content/posts/first.md:" in text and "Original text." in page.content()
    post.write_text("---\ntitle: First\ndate: 2024-01-01\n---\nRecovered.\n")
    page.wait_for_selector("text=Recovered.", timeout=10_000)
    assert page.query_selector("#sitegen-error-overlay") is None
    page.close()


def test_ten_tabs_all_reload(serve: Serve, chromium: Any) -> None:
    run = serve()
    context = chromium.new_context()
    pages = [context.new_page() for _ in range(10)]
    for page in pages:
        page.goto(run.url + "/posts/first/")
    pages[-1].wait_for_timeout(300)
    (run.site / "content/posts/first.md").write_text("---\ntitle: First\ndate: 2024-01-01\n---\nTen tabs.\n")
    for page in pages:
        page.wait_for_selector("text=Ten tabs.", timeout=10_000)
    context.close()


def test_scroll_position_is_kept_across_reloads(serve: Serve, chromium: Any) -> None:
    long_body = "\n\n".join(f"Paragraph {i}." for i in range(300))
    run = serve({"content/posts/first.md": f"---\ntitle: First\n---\n{long_body}\n"})
    page = chromium.new_page(viewport={"width": 800, "height": 600})
    page.goto(run.url + "/posts/first/")
    page.wait_for_timeout(200)
    page.evaluate("window.scrollTo(0, 1500)")
    (run.site / "content/posts/first.md").write_text(f"---\ntitle: First\n---\nChanged.\n\n{long_body}\n")
    page.wait_for_selector("text=Changed.", timeout=10_000)
    page.wait_for_function("window.scrollY > 1000", timeout=5_000)
    page.close()


def test_a_restarted_server_makes_open_tabs_reload_once(serve: Serve, chromium: Any) -> None:
    run = serve()
    page = open_page(chromium, run.url + "/posts/first/")
    loads: list[str] = []
    page.on("load", lambda _: loads.append(page.url))
    port = int(run.url.rsplit(":", 1)[1])
    run.session.stop()
    (run.site / "content/posts/first.md").write_text("---\ntitle: First\ndate: 2024-01-01\n---\nAfter restart.\n")
    restarted = ServeSession(BuildOptions(source=run.site), say=lambda _m: None)
    restarted.start("127.0.0.1", port, auto_port=False)
    try:
        page.wait_for_selector("text=After restart.", timeout=10_000)
        page.wait_for_timeout(1500)
        assert len(loads) == 1, loads
    finally:
        restarted.stop()
        page.close()
