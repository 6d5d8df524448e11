"""Content written for Hugo and for Jekyll builds without edits and renders as its author meant."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import build, html

MakeSite = Callable[..., Path]

HUGO_ABOUT = """---
title: "About"
date: 2023-02-03T16:49:14+08:00
lastmod: 2024-01-05T10:00:00+08:00
summary: "Researcher in ML systems."
hiddenFromHomePage: true
---

<a href="https://github.com/x"><img src="https://img.shields.io/github/followers/x?style=social" alt="followers"></a>

Intro paragraph.

---

## Contact
"""

JEKYLL_CV = """---
layout: cv
title: Ada Lin's CV
---
<div id="webaddress">
<a href="mailto:ada@example.org">ada@example.org</a>
</div>

## Education

`2017 - 2022`
__PhD__, University of Example

***__Selected award__***

<!-- ### Footer

Last updated: May 2013 -->
"""


def test_hugo_content_builds_unchanged(make_site: MakeSite) -> None:
    site = make_site({
        "content/about.md": HUGO_ABOUT,
        "content/posts/hugo-post.md": HUGO_ABOUT.replace('title: "About"', 'title: "Hidden Hugo post"'),
        "content/posts/bundle/index.md": "---\ntitle: Bundle\ndate: 2024-01-01\n---\n![demo](resources/demo.gif)\n"
                                         "[award](resources/award.png)\n",
        "content/posts/bundle/resources/demo.gif": b"GIF89a",
        "content/posts/bundle/resources/award.png": b"\x89PNG",
        "content/posts/visible.md": "---\ntitle: Visible\ndate: 2024-02-01\n---\nx\n",
    }, layouts=False)
    result = build(site)
    about = html(result, "about/index.html")
    assert '<img src="https://img.shields.io/github/followers/x?style=social" alt="followers">' in about
    assert "<hr />" in about and '<h2 id="contact">Contact</h2>' in about
    post = html(result, "posts/hugo-post/index.html")
    assert 'datetime="2023-02-03T16:49:14+08:00"' in post and "Updated" in post and "January 5, 2024" in post
    home = html(result, "index.html")
    assert "Visible" in home and "Hidden Hugo post" not in home
    assert "Hidden Hugo post" in html(result, "posts/index.html")
    bundle = html(result, "posts/bundle/index.html")
    assert 'src="resources/demo.gif"' in bundle and result.files["posts/bundle/resources/demo.gif"] == b"GIF89a"
    assert 'href="resources/award.png"' in bundle


def test_hugo_summary_and_lastmod_reach_listings_and_sitemap(make_site: MakeSite) -> None:
    site = make_site({"content/posts/about.md": HUGO_ABOUT}, layouts=False)
    result = build(site)
    assert "Researcher in ML systems." in html(result, "posts/index.html")
    assert "<lastmod>2024-01-05</lastmod>" in result.files["sitemap.xml"].decode()


def test_jekyll_cv_builds_unchanged(make_site: MakeSite) -> None:
    site = make_site({"content/cv.md": JEKYLL_CV,
                      "content/posts/2024-03-10-jekyll-post.md": "---\ntitle: Post\n---\n__bold__ text\n"},
                     layouts=False)
    result = build(site)
    cv = html(result, "cv/index.html")
    assert '<div id="webaddress">' in cv and "cv.css" in cv
    assert "<code>2017 - 2022</code>" in cv and "<strong>PhD</strong>" in cv
    assert "<em><strong><strong>Selected award</strong></strong></em>" in cv
    assert "<!-- ### Footer" in cv and "Last updated" not in cv.replace("<!-- ### Footer", "").split("-->")[-1]
    post = html(result, "posts/jekyll-post/index.html")
    assert "<strong>bold</strong>" in post and "March 10, 2024" in post
