"""The static search page finds English and Chinese posts."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("query, expected", [
    ("dataloader", "Profiling PyTorch DataLoaders"),
    ("显存", "论文笔记：大模型训练中的显存优化"),
    ("locality", "CS:APP Chapter 6: The Memory Hierarchy"),
])
def test_search_finds_posts(browser: Any, example_site_url: str, query: str, expected: str) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(example_site_url + "/search/")
    page.fill("#search-input", query)
    page.wait_for_selector("#search-results li")
    titles = page.locator("#search-results h3").all_inner_texts()
    assert titles[0] == expected
    assert "Site changelog" not in titles or query == "changelog"
    ctx.close()


def test_search_with_no_match_says_so(browser: Any, example_site_url: str) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(example_site_url + "/search/?q=zzzzqqq")
    page.wait_for_function("document.getElementById('search-status').textContent.length > 0")
    assert page.inner_text("#search-status") == "0 results"
    ctx.close()
