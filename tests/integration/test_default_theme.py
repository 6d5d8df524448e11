"""The default theme's markup, on the repository's example site and on tiny sites that use the theme."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from urllib.parse import unquote

from sitegen.build import BuildResult
from tests.conftest import REPO, build, html

MakeSite = Callable[..., Path]
POST = "posts/profiling-dataloaders/index.html"
ZH_POST = "posts/论文笔记/index.html"
THEME = REPO / "themes" / "default"


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


def _init_script_hash() -> str:
    """The CSP source of the theme's one inline script (the light/dark choice, applied before the first paint)."""
    body = re.search(r"<script>(.*?)</script>", (THEME / "layouts/partials/theme-init.html").read_text("utf-8"), re.S)
    assert body
    return "'sha256-" + base64.b64encode(hashlib.sha256(body.group(1).encode()).digest()).decode() + "'"


def test_theme_runs_no_inline_script_but_the_hashed_theme_choice() -> None:
    # A strict CSP (script-src 'self' plus one hash) is used in deployment: every other script is a file of the
    # site; JSON-LD blocks are data, not scripts the browser runs.
    config = tomllib.loads((REPO / "netlify.toml").read_text(encoding="utf-8"))
    csp = next(h["values"]["Content-Security-Policy"] for h in config["headers"] if h["for"] == "/*")
    assert f"script-src 'self' {_init_script_hash()};" in csp
    for path, text in _pages().items():
        inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", text)
        expected = [] if 'http-equiv="refresh"' in text else [""]
        assert [a for a in inline if a != ' type="application/ld+json"'] == expected, path
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


def _jsonld(text: str) -> list[dict[str, object]]:
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', text, re.S)
    return [json.loads(block) for block in blocks]


def _meta(text: str, key: str) -> str | None:
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)">', text)
    return found.group(1) if found else None


def test_every_page_has_a_title_sharing_tags_and_favicons() -> None:
    for path, text in _pages().items():
        if 'http-equiv="refresh"' in text:
            continue
        assert re.search(r"<title>[^<]+</title>", text), path
        for key in ("og:title", "og:type", "og:site_name", "twitter:card", "twitter:title"):
            assert _meta(text, key), (path, key)
        assert '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' in text, path
        assert '<link rel="apple-touch-icon" href="/apple-touch-icon.png">' in text, path
        image = _meta(text, "og:image")
        assert image and image.startswith("https://ada-lin.example.org/"), (path, image)
        assert image.removeprefix("https://ada-lin.example.org/") in example().files, (path, image)
    for name in ("favicon.svg", "favicon-32.png", "apple-touch-icon.png"):
        assert name in example().files


def test_a_post_shares_its_own_description_image_and_dates() -> None:
    post = html(example(), POST)
    assert _meta(post, "description") == "Why your GPU is idle, and how to find out with the PyTorch profiler."
    assert _meta(post, "og:type") == "article" and _meta(post, "twitter:card") == "summary_large_image"
    assert _meta(post, "og:image") == "https://ada-lin.example.org/posts/profiling-dataloaders/resources/demo.share.jpg"
    assert _meta(post, "article:published_time") == "2024-06-12T10:30:00+02:00"
    [posting] = _jsonld(post)
    assert posting["@type"] == "BlogPosting" and posting["headline"] == "Profiling PyTorch DataLoaders"
    assert posting["datePublished"] == "2024-06-12T10:30:00+02:00"
    assert posting["dateModified"] == "2024-07-01T08:00:00+02:00"
    assert posting["author"] == {"@type": "Person", "name": "Ada Lin", "url": "https://ada-lin.example.org/"}


def test_home_about_and_cv_describe_the_author_as_a_person() -> None:
    for path in ("index.html", "about/index.html", "cv/index.html"):
        people = [d for d in _jsonld(html(example(), path)) if d["@type"] == "Person"]
        assert len(people) == 1, path
        person = people[0]
        assert person["@context"] == "https://schema.org" and person["name"] == "Ada Lin"
        assert person["image"] == "https://ada-lin.example.org/img/avatar.png"
        assert "https://github.com/ada-lin" in person["sameAs"] and "https://orcid.org/0000-0002-1825-0097" in person[
            "sameAs"]
    [site] = [d for d in _jsonld(html(example(), "index.html")) if d["@type"] == "WebSite"]
    assert site["url"] == "https://ada-lin.example.org/"
    assert not [d for d in _jsonld(html(example(), "tags/index.html")) if d["@type"] == "Person"]
    assert not [d for d in _jsonld(html(example(), "projects/remat/index.html")) if d["@type"] == "BlogPosting"]


def test_every_json_ld_block_is_valid_json_with_absolute_urls() -> None:
    def urls(value: object) -> list[str]:
        if isinstance(value, dict):
            return [u for k, v in value.items() for u in (urls(v) if k not in ("url", "image", "mainEntityOfPage")
                                                          else [v] if isinstance(v, str) else urls(v))]
        if isinstance(value, list):
            return [u for v in value for u in urls(v)]
        return []

    seen = 0
    for path, text in _pages().items():
        for block in _jsonld(text):
            seen += 1
            assert all(u.startswith("https://") for u in urls(block)), (path, block)
    assert seen >= 10


def test_footer_links_the_authors_profiles_and_the_feed_as_icons() -> None:
    home = html(example(), "index.html")
    footer = home[home.index('<footer class="site-footer">'):]
    for href in ("https://github.com/ada-lin", "https://www.linkedin.com/in/ada-lin-example",
                 "https://scholar.example.org/ada", "https://orcid.org/0000-0002-1825-0097",
                 "mailto:ada@example.org", "/feed.xml"):
        assert f'<a href="{href}"' in footer, href
    assert footer.count('<svg class="icon"') >= 6 and 'aria-label="GitHub"' in footer


def test_the_author_card_shows_on_home_and_about_only() -> None:
    for path in ("index.html", "about/index.html"):
        card = html(example(), path)
        assert '<section class="author-card h-card"' in card, path
        assert '<img class="author-photo u-photo" src="/img/avatar.png" alt="Ada Lin"' in card
        assert "Research Scientist, Machine Learning Systems" in card and "Institute for Computing Systems" in card
    assert "author-card" not in html(example(), POST)


def test_theme_params_set_accent_colour_and_fonts(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "title: T\nbase_url: https://e.org/\nparams:\n  accent: '#aa3377'\n"
                                      "  fonts: {sans: '\"Inter\", sans-serif'}\n",
                      "content/a.md": "---\ntitle: A\n---\nbody"}, layouts=False)
    page = html(build(site), "a/index.html")
    assert '<style>:root{--accent-light:#aa3377;--font-sans:"Inter", sans-serif;}</style>' in page


def test_home_sections_come_from_params_and_site_partials(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "title: T\nbase_url: https://e.org/\nparams: {home_sections: [awards, posts]}\n",
                      "layouts/partials/home/awards.html": "<section class=awards>AWARDS</section>",
                      "content/_index.md": "---\ntitle: T\n---\nhello",
                      "content/posts/a.md": "---\ntitle: A post\ndate: 2024-01-01\n---\nbody"}, layouts=False)
    home = html(build(site), "index.html")
    assert home.index("AWARDS") < home.index("A post")


def test_the_hreflang_hook_is_in_every_head(make_site: MakeSite) -> None:
    site = make_site({"layouts/partials/hreflang.html": '<link rel="alternate" hreflang="x-default" href="/">',
                      "content/a.md": "---\ntitle: A\n---\nbody"}, layouts=False)
    page = html(build(site), "a/index.html")
    assert page.index('hreflang="x-default"') < page.index("</head>")


def test_params_in_other_themes_shapes_do_not_break_the_default_theme(make_site: MakeSite) -> None:
    # Hugo and Jekyll themes use the same names differently: PaperMod's `author: Name`, lists of social links.
    site = make_site({"sitegen.yaml": "title: T\nbase_url: https://e.org/\nparams:\n  author: Ada\n"
                                      "  social: [{name: github, url: 'https://github.com/a'}]\n  fonts: Inter\n"
                                      "  home_sections: posts\n  og_image: [1]\n  images: [1]\n",
                      "content/_index.md": "---\ntitle: T\n---\nhi",
                      "content/posts/a.md": "---\ntitle: A post\ndate: 2024-01-01\n---\nbody"}, layouts=False)
    result = build(site)
    assert "A post" in html(result, "index.html") and "author-card" not in html(result, "index.html")


def test_home_lists_posts_by_title_and_loads_katex_only_when_summaries_are_shown(make_site: MakeSite) -> None:
    files = {"content/_index.md": "---\ntitle: Home\n---\nHi.\n",
             "content/posts/a.md": "---\ntitle: Euler\ndate: 2024-01-01\n---\nWe prove $$e^{i\\pi} + 1 = 0$$ here.\n"}
    plain = html(build(make_site(files, layouts=False, name="plain")), "index.html")
    shown = html(build(make_site({**files, "sitegen.yaml": "title: T\nbase_url: https://e.org/\n"
                                                           "params: {home_summaries: true}\n"},
                                 layouts=False, name="shown")), "index.html")
    assert ">Euler</a>" in plain and "We prove" not in plain and "katex" not in plain
    assert "We prove" in shown and "katex.min.js" in shown
