"""The default theme's markup, on the repository's example site and on tiny sites that use the theme."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from urllib.parse import unquote

from sitegen.build import BuildResult
from tests.conftest import REPO, build, html

MakeSite = Callable[..., Path]
POST = "posts/profiling-dataloaders/index.html"
ZH_POST = "posts/论文笔记/index.html"


@cache
def example() -> BuildResult:
    """The example site, built once for this module."""
    return build(REPO)


def _pages() -> dict[str, str]:
    return {path: data.decode("utf-8") for path, data in example().files.items() if path.endswith(".html")}


def test_every_page_declares_language_description_and_canonical_url() -> None:
    for path, text in _pages().items():
        assert re.search(r'<html lang="[a-z]{2}', text), path
        if path.endswith("404.html") or 'http-equiv="refresh"' in text:
            continue
        assert '<meta name="description" content="' in text, path
        assert re.search(r'<link rel="canonical" href="https://ada-lin\.example\.org/[^"]*">', text), path
    assert html(example(), ZH_POST).startswith('<!doctype html>\n<html lang="zh">')


def test_theme_adds_no_inline_scripts_styles_or_handlers() -> None:
    # A strict CSP (script-src 'self') is used in deployment: every script is an external file of the site
    # (JSON-LD is data, which CSP does not run).
    for path, text in _pages().items():
        assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/ld\+json\"))[^>]*>", text), path
        assert not re.search(r"\son[a-z]+=\"", text), path
        for ref in re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', text):
            assert not ref.startswith(("http://", "//")) and (
                not ref.startswith("https://") or ref.startswith("https://ada-lin.example.org/")), (path, ref)


def test_home_shows_latest_posts_without_hidden_pages_or_drafts() -> None:
    home = html(example(), "index.html")
    assert "Hi, I&#39;m Ada Lin" in home or "Hi, I'm Ada Lin" in home
    assert "Profiling PyTorch DataLoaders" in home and "论文笔记" in home
    assert "Site changelog" not in home
    assert "Site changelog" in html(example(), "posts/index.html")
    assert not any("unfinished draft" in text.lower() for text in _pages().values())


def test_post_shows_dates_reading_time_terms_toc_and_neighbours() -> None:
    post = html(example(), POST)
    assert '<time datetime="2024-06-12T10:30:00+02:00">June 12, 2024</time>' in post
    assert "Updated" in post and "min read" in post
    assert 'class="category" href="/categories/pytorch/"' in post and 'class="tag" href="/tags/pytorch/"' in post
    assert '<nav class="toc"' in post and 'href="#measuring-the-gap"' in post
    assert 'rel="prev"' in post and 'rel="next"' not in post  # the newest post has no newer neighbour
    assert '<img src="resources/demo.png"' in post
    assert "posts/profiling-dataloaders/resources/demo.png" in example().files


def test_chinese_post_is_labelled_in_chinese() -> None:
    post = html(example(), ZH_POST)
    assert "2024年4月21日" in post and "分钟阅读" in post and "上一篇" in post
    # Listed on an English page, the Chinese entry carries its own language for correct CJK glyphs.
    home = html(example(), "index.html")
    assert re.search(r'<article lang="zh">\s*<h3 class="post-title"><a href="/posts/%E8%AE%BA', home)


def test_menu_marks_the_current_section() -> None:
    post = html(example(), POST)
    assert '<a href="/posts/" aria-current="page">Posts</a>' in post
    assert post.count('aria-current="page"') == 1


def test_feed_links_point_to_existing_feeds() -> None:
    files = example().files
    for path, text in _pages().items():
        for href in re.findall(r'<link rel="alternate" type="application/atom\+xml" [^>]*href="([^"]+)"', text):
            assert unquote(href).lstrip("/") in files, (path, href)
    assert 'href="/posts/feed.xml"' in html(example(), POST)


def test_jekyll_post_renders_as_its_author_meant() -> None:
    post = html(example(), "posts/jekyll-style/index.html")
    assert "<strong>bold with underscores</strong>" in post
    assert re.search(r"<em><strong>(<strong>)?bold italics(</strong>)?</strong></em>", post)
    assert '<div class="notice" id="jekyll-box">' in post and "<!-- This comment stays" in post


def test_posts_in_a_series_show_part_n_of_m() -> None:
    post = html(example(), "posts/csapp-linking/index.html")
    assert '<a href="/series/csapp-notes/">CS:APP notes</a></strong> · part 2 of 2' in post
    assert '<span aria-current="page">CS:APP Chapter 7: Linking</span>' in post
    assert 'href="/posts/csapp-memory-hierarchy/">CS:APP Chapter 6' in post


def test_talk_links_slides_and_video() -> None:
    talk = html(example(), "talks/memory-efficient-training/index.html")
    assert "Systems for ML Workshop" in talk and "Vienna, Austria" in talk
    assert 'href="https://slides.example.org/memory-efficient-training.pdf">Slides</a>' in talk
    assert ">Video</a>" in talk


def test_cv_page_has_print_styles() -> None:
    cv = html(example(), "cv/index.html")
    css = example().files["css/cv.css"].decode() + example().files["css/main.css"].decode()
    assert '<link rel="stylesheet" href="/css/cv.css">' in cv
    assert "@page { size: A4" in css and "break-inside: avoid" in css


def test_feed_links_follow_the_feeds_setting(make_site: MakeSite) -> None:
    files = {"content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\nbody"}
    on = build(make_site(files, layouts=False, name="on"))
    off = build(make_site({**files, "sitegen.yaml": "title: T\nbase_url: https://e.org/\nfeeds: {enabled: false}\n"},
                          layouts=False, name="off"))
    assert 'type="application/atom+xml"' in html(on, "posts/a/index.html")
    assert 'type="application/atom+xml"' not in html(off, "posts/a/index.html")


def test_theme_urls_carry_the_base_path(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "title: T\nbase_url: https://u.github.io/repo/\n"
                                      "menu: [{name: Posts, url: /posts/, weight: 1}]\n",
                      "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\n```python\nx = 1\n```\n"},
                     layouts=False)
    page = html(build(site), "posts/a/index.html")
    refs = re.findall(r'(?:href|src)="(/[^"]*)"', page)
    assert refs and all(ref.startswith("/repo/") for ref in refs), refs
    assert '<a href="/repo/posts/" aria-current="page">Posts</a>' in page


def test_a_site_overrides_one_partial_without_copying_the_theme(make_site: MakeSite) -> None:
    site = make_site({"layouts/partials/meta.html": "<p class=meta>custom meta</p>",
                      "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\nbody"}, layouts=False)
    page = html(build(site), "posts/a/index.html")
    assert "custom meta" in page and '<header class="site-header">' in page
