"""News (data/news.yaml and content/news/) on the home page and at /news/ with a feed; projects as a card grid."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import feedparser
import pytest

from sitegen.errors import SitegenError
from tests.conftest import build, html

MakeSite = Callable[..., Path]
NEWS = """\
- date: 2026-03-01
  text: Paper accepted at **MLSys**, see [the paper](/publications/).
- date: 2026-05-10
  text: Joined Example University.
- {date: 2025-12-24, text: "Older item"}
"""
FILES = {
    "sitegen.yaml": "title: Ada\nbase_url: https://ada.example.org/repo/\nnews: {home_limit: 2}\n",
    "data/news.yaml": NEWS,
    "content/_index.md": "---\ntitle: Home\n---\nHello.\n",
}


def test_news_newest_first_on_the_home_page_up_to_the_limit(make_site: MakeSite) -> None:
    home = html(build(make_site(FILES, layouts=False)), "index.html")
    section = home.split('id="news-heading"')[1].split("</section>")[0]
    assert re.findall(r'<li class="news-item" id="([^"]+)"', section) == ["news-2026-05-10", "news-2026-03-01"]
    assert "Paper accepted at <strong>MLSys</strong>, see <a href=\"/repo/publications/\">the paper</a>" in section
    assert 'href="/repo/news/">All news' in section and "Older item" not in section


def test_the_news_page_lists_every_item_and_has_its_own_feed(make_site: MakeSite) -> None:
    result = build(make_site(FILES, layouts=False))
    page = html(result, "news/index.html")
    assert re.findall(r'id="(news-[^"]+)"', page) == ["news-2026-05-10", "news-2026-03-01", "news-2025-12-24"]
    assert 'href="/repo/news/feed.xml"' in page
    feed = feedparser.parse(result.files["news/feed.xml"])
    assert not feed.bozo
    assert [e.title for e in feed.entries] == ["Joined Example University.", "Paper accepted at MLSys, see the paper.",
                                               "Older item"]
    assert feed.entries[0].link == "https://ada.example.org/repo/news/#news-2026-05-10"


def test_a_news_section_lists_its_pages_too(make_site: MakeSite) -> None:
    files = {**FILES, "content/news/_index.md": "---\ntitle: News\n---\n",
             "content/news/award.md": "---\ntitle: Won an award\ndate: 2026-06-01\n---\nDetails.\n"}
    result = build(make_site(files, layouts=False))
    page = html(result, "news/index.html")
    assert re.findall(r'id="(news-[^"]+)"', page)[:2] == ["news-2026-06-01", "news-2026-05-10"]
    assert 'href="/repo/news/award/"' in page
    assert b"Won an award" in result.files["news/feed.xml"]  # the section's own feed (feeds.py)


def test_a_news_item_without_a_date_is_an_error_naming_the_file(make_site: MakeSite) -> None:
    with pytest.raises(SitegenError) as caught:
        build(make_site({**FILES, "data/news.yaml": "- text: no date\n"}, layouts=False))
    assert "data/news.yaml" in str(caught.value) and "item 1 needs a `date`" in str(caught.value)


PROJECT = """---
title: remat
date: 2023-06-01
description: Recompute activations under a memory budget.
image: /img/remat.png
tech: [Python, PyTorch]
repo: https://github.com/ada/remat
links:
  - {name: Docs, url: "https://remat.example.org/"}
---
Longer text about remat.
"""


def test_projects_are_a_card_grid_with_a_page_each(make_site: MakeSite) -> None:
    files = {"content/projects/_index.md": "---\ntitle: Projects\n---\n", "content/projects/remat.md": PROJECT,
             "static/img/remat.png": b"\x89PNG\r\n\x1a\n"}
    result = build(make_site(files, layouts=False))
    grid = html(result, "projects/index.html")
    card = grid.split('<article class="project-card">')[1]
    assert '<img src="/img/remat.png"' in card and 'href="/projects/remat/">remat</a>' in card
    assert "Recompute activations under a memory budget." in card
    assert "<li>Python</li><li>PyTorch</li>" in card
    assert 'href="https://github.com/ada/remat">Repository</a>' in card and ">Docs</a>" in card
    page = html(result, "projects/remat/index.html")
    assert "Longer text about remat." in page and 'class="project-hero" src="/img/remat.png"' in page
