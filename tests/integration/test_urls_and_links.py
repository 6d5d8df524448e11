"""URL rules, Unicode slugs, base_url sub-paths, links between content files, collisions."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.errors import SitegenError
from tests.conftest import build, html

MakeSite = Callable[..., Path]


def test_slug_url_and_permalinks(make_site: MakeSite) -> None:
    site = make_site({
        "sitegen.yaml": "permalinks:\n  posts: /posts/:year/:month/:slug/\n",
        "content/posts/a.md": "---\ndate: 2024-03-05\n---\n",
        "content/posts/b.md": "---\ndate: 2024-03-05\nslug: bee\n---\n",
        "content/posts/c.md": "---\nurl: /special/place/\n---\n",
        "content/notes/d.md": "---\nslug: dee\n---\n",
    })
    files = build(site).files
    assert {"posts/2024/03/a/index.html", "posts/2024/03/bee/index.html", "special/place/index.html",
            "notes/dee/index.html"} <= set(files)


def test_chinese_slugs_are_unicode_on_disk_and_encoded_in_hrefs(make_site: MakeSite) -> None:
    nfd_name = unicodedata.normalize("NFD", "Übersicht")
    site = make_site({
        "content/posts/论文笔记.md": "---\ntitle: 论文笔记\n---\n",
        f"content/{nfd_name}.md": "---\ntitle: U\n---\n",
        "content/index-links.md": "[a](posts/论文笔记.md) [b](Übersicht.md)",
    })
    result = build(site)
    assert "posts/论文笔记/index.html" in result.files
    assert unicodedata.normalize("NFC", "übersicht/index.html") in result.files
    links = html(result, "index-links/index.html")
    assert 'href="/posts/%E8%AE%BA%E6%96%87%E7%AC%94%E8%AE%B0/"' in links
    assert 'href="/%C3%BCbersicht/"' in links
    assert not result.warnings


def test_base_url_sub_path_reaches_every_link(make_site: MakeSite) -> None:
    site = make_site({
        "sitegen.yaml": "base_url: https://u.github.io/repo/\nmenu: [{name: About, url: /about/}]\n",
        "content/about.md": "[post](posts/x.md) ![i](/img/a.png)",
        "content/posts/x.md": "---\ntags: [t]\n---\n",
        "layouts/page.html": "{% for m in site.menu %}{{ m.url }}{% endfor %}|{{ page.url }}|{{ page.permalink }}|"
                             "{{ url('/css/main.css') }}|{{ absurl('/feed.xml') }}|{{ page.content }}",
    })
    out = html(build(site), "about/index.html")
    assert out.startswith("/repo/about/|/repo/about/|https://u.github.io/repo/about/|/repo/css/main.css|"
                          "https://u.github.io/repo/feed.xml|")
    assert 'href="/repo/posts/x/"' in out


def test_base_url_override_from_the_command_line(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "x", "layouts/page.html": "{{ page.permalink }}"})
    assert html(build(site, base_url="https://x.github.io/r"), "a/index.html") == "https://x.github.io/r/a/"


def test_relative_links_resolve_to_target_urls(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "[b](b.md) [b2](../posts/b.md#part) [other](other/) [up](../about.md)",
        "content/posts/b.md": "---\nslug: bee\n---\n",
        "content/posts/other/index.md": "bundle",
        "content/about.md": "about",
    })
    out = html(build(site), "posts/a/index.html")
    assert 'href="/posts/bee/"' in out and 'href="/posts/bee/#part"' in out
    assert 'href="/posts/other/"' in out and 'href="/about/"' in out


def test_link_to_missing_content_is_a_warning_with_line(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntitle: A\n---\n\ntext\n\n[gone](gone.md)\n"})
    result = build(site)
    assert len(result.warnings) == 1
    warning = result.warnings[0]
    assert (warning.path, warning.line) == ("content/a.md", 7)
    with pytest.raises(SitegenError, match="gone.md"):
        build(site, strict=True)


def test_two_pages_claiming_one_path_is_an_error_naming_both(make_site: MakeSite) -> None:
    site = make_site({
        "content/a.md": "---\nurl: /same/\n---\n",
        "content/b.md": "---\nurl: /same/\n---\n",
    })
    with pytest.raises(SitegenError) as info:
        build(site)
    text = info.value.format()
    assert "content/a.md" in text and "content/b.md" in text and "same/index.html" in text


def test_case_variants_collide(make_site: MakeSite) -> None:
    site = make_site({"content/About.md": "x", "content/x/about.md": "---\nurl: /about/\n---\n"})
    with pytest.raises(SitegenError, match="same output"):
        build(site)


@pytest.mark.parametrize("front", ["slug: ../../x", "url: /../../tmp/pwn", "slug: '%2e%2e'",
                                   "aliases: ['/../../etc/']"])
def test_paths_leaving_the_output_are_refused(make_site: MakeSite, front: str) -> None:
    site = make_site({"content/a.md": f"---\n{front}\n---\n"})
    with pytest.raises(SitegenError) as info:
        build(site)
    assert "content/a.md:2:1" in info.value.format()
