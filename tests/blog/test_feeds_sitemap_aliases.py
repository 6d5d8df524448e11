"""Atom feeds, sitemap, robots.txt, alias redirects, 404 and the search index."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import feedparser
import pytest

from sitegen.errors import SitegenError
from tests import searchindex as index
from tests.conftest import build, html

MakeSite = Callable[..., Path]

SITE = {
    "sitegen.yaml": "title: Blog\nbase_url: https://u.github.io/repo/\nauthor: {name: Ada}\n",
    "content/posts/a.md": "---\ntitle: A & B\ndate: 2024-01-01\ntags: [x]\ncategories: [深度学习]\n---\n"
                          "Hello [rel](b.md) ![img](pic.png) [abs](/about/)\n",
    "content/posts/b.md": "---\ntitle: B\ndate: 2024-02-01T10:00:00+08:00\nlastmod: 2024-03-01\n"
                          "aliases: [/old/b/]\n---\nbody b\n",
    "content/posts/pic.png": b"png",
    "content/posts/draft.md": "---\ntitle: D\ndraft: true\ndate: 2024-01-05\n---\n",
    "content/about.md": "---\ntitle: About\n---\n",
}


def test_feeds_are_valid_atom_with_absolute_urls(make_site: MakeSite) -> None:
    result = build(make_site(SITE))
    for path in ("feed.xml", "posts/feed.xml", "tags/x/feed.xml", "categories/深度学习/feed.xml"):
        feed = feedparser.parse(result.files[path])
        assert not feed.bozo, (path, feed.get("bozo_exception"))
    site_feed = feedparser.parse(result.files["feed.xml"])
    assert [e.title for e in site_feed.entries] == ["B", "A & B"]
    entry = site_feed.entries[1]
    assert entry.id == "https://u.github.io/repo/posts/a/"
    content = entry.content[0].value
    assert 'href="https://u.github.io/repo/posts/b/"' in content
    assert 'src="https://u.github.io/repo/posts/pic.png"' in content
    assert 'href="https://u.github.io/repo/about/"' in content
    assert site_feed.feed.updated == "2024-03-01T00:00:00+00:00"


def test_feed_ids_are_stable_and_output_deterministic(make_site: MakeSite) -> None:
    site = make_site(SITE)
    assert build(site).files["feed.xml"] == build(site).files["feed.xml"]


def test_feed_limit_and_summary_only(make_site: MakeSite) -> None:
    files = {f"content/posts/p{i}.md": f"---\ndate: 2024-01-{i + 1:02d}\n---\nfull text {i}\n" for i in range(5)}
    site = make_site({**files, "sitegen.yaml": "feeds: {limit: 2, full_content: false}\n"})
    feed = feedparser.parse(build(site).files["feed.xml"])
    assert len(feed.entries) == 2 and "content" not in feed.entries[0]


def test_sitemap_lists_exactly_the_published_pages(make_site: MakeSite) -> None:
    result = build(make_site(SITE))
    sitemap = result.files["sitemap.xml"].decode()
    locs = re.findall(r"<loc>(.*?)</loc>", sitemap)
    assert "https://u.github.io/repo/posts/a/" in locs and "https://u.github.io/repo/about/" in locs
    assert not [loc for loc in locs if "draft" in loc or "old" in loc or "404" in loc or "/page/" in loc]
    html_pages = {p for p in result.files
                  if p.endswith("index.html") and "/page/" not in p and not p.startswith("old/")}
    assert len(locs) == len(html_pages)
    assert "<lastmod>2024-03-01</lastmod>" in sitemap
    assert result.files["robots.txt"].decode().endswith("Sitemap: https://u.github.io/repo/sitemap.xml\n")


def test_site_robots_txt_wins(make_site: MakeSite) -> None:
    site = make_site({"static/robots.txt": "User-agent: *\nDisallow: /\n", "content/a.md": "x"})
    assert build(site).files["robots.txt"] == b"User-agent: *\nDisallow: /\n"


def test_aliases_redirect_without_javascript(make_site: MakeSite) -> None:
    page = html(build(make_site(SITE)), "old/b/index.html")
    assert '<meta http-equiv="refresh" content="0; url=/repo/posts/b/">' in page
    assert '<link rel="canonical" href="https://u.github.io/repo/posts/b/">' in page
    assert "<script" not in page


def test_alias_colliding_with_a_page_is_an_error_naming_both(make_site: MakeSite) -> None:
    site = make_site({"content/about.md": "x", "content/b.md": "---\naliases: [/about/]\n---\n"})
    with pytest.raises(SitegenError) as info:
        build(site)
    assert "content/b.md" in info.value.format() and "content/about.md" in info.value.format()


def test_404_page_from_the_theme(make_site: MakeSite) -> None:
    result = build(make_site({"content/a.md": "x"}, layouts=False))
    assert "404" in html(result, "404.html")


def test_search_index_holds_published_pages_except_those_opting_out(make_site: MakeSite) -> None:
    site = make_site({**SITE, "content/posts/zh.md": "---\ntitle: 中文\ndate: 2024-01-03\n---\n显存优化的笔记\n",
                      "content/posts/hidden.md": "---\ntitle: Unlisted\ndate: 2024-01-04\nsearch: false\n---\nx\n"})
    files = build(site).files
    pages = {p["t"]: p for p in (index.doc(files, i) for i in range(index.meta(files)["n"]))}
    assert sorted(pages) == ["A & B", "About", "B", "中文"]
    assert pages["A & B"]["u"] == "/repo/posts/a/" and pages["中文"]["x"].startswith("显存优化")
    assert pages["A & B"]["x"].startswith("Hello rel")
    ids = sorted(pages, key=lambda t: pages[t]["u"])
    shard = index.shard(files, "深")  # the shard of terms starting with it
    assert [ids[i] for i in _pages_of(shard["深度"])] == ["A & B"]  # a term name, indexed
    assert [ids[i] for i in _pages_of(index.shard(files, "显")["显存"])] == ["中文"]


def _pages_of(postings: str) -> list[int]:
    """Page ids of a term's postings (`.`-joined base 36 of page delta * 16 + weight)."""
    ids, page = [], 0
    for item in postings.split("."):
        page += int(item, 36) // 16
        ids.append(page)
    return ids
