"""Issue 16: front matter, term URLs and naming rules as Hugo and Jekyll sites write them (fixtures written from
the tools' public docs: Hugo's urlize and page bundles, Jekyll's posts, slugify and jekyll-redirect-from)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from sitegen.config import SiteConfig
from sitegen.content.dates import parse_date
from sitegen.content.page import parse_page
from sitegen.dialects import JEKYLL, NATIVE
from tests import searchindex as index
from tests.conftest import build, html

MakeSite = Callable[..., Path]


def jekyll_site(make_site: MakeSite, files: dict[str, str]) -> Path:
    """A Jekyll-laid-out site (`_config.yml`, no sitegen.yaml)."""
    site = make_site({"_config.yml": "title: J\n", **files})
    (site / "sitegen.yaml").unlink()
    return site


def test_dates_real_sites_write() -> None:
    assert parse_date("Tue, 21 Mar 2023 10:00:00 +0000") == dt.datetime(2023, 3, 21, 10, tzinfo=dt.UTC)
    jekyll = parse_date("2020-01-01 10:00:00 -0800")
    assert jekyll == dt.datetime(2020, 1, 1, 18, tzinfo=dt.UTC) and jekyll.utcoffset() == dt.timedelta(hours=-8)
    assert parse_date("") is None


def test_front_matter_shapes_of_al_folio_and_academicpages() -> None:
    text = ("---\ntitle: T\ndate: \"\"\ntoc: {sidebar: left}\nredirect_from: [/old/, /older.html]\n"
            "excerpt: Short *story*.\nheader: {teaser: tn.png}\nauthor_profile: true\nhidden: true\n---\nBody\n")
    page = parse_page("posts/t.md", text, SiteConfig())
    assert page.toc is True and page.date is None and page.hidden
    assert page.aliases == ["/old/", "/older.html"]
    assert page.summary == "Short *story*."
    assert page.warnings == ()
    assert parse_page("posts/u.md", "---\npublished: false\n---\nx\n", SiteConfig()).draft


def test_space_separated_terms_split_for_jekyll_only() -> None:
    text = "---\ntags: machine-learning python\ncategories: a, b\n---\nx\n"
    page = parse_page("_posts/2024-01-02-x.md", text, SiteConfig(), JEKYLL)
    assert page.taxonomies == {"categories": ["a,", "b"], "tags": ["machine-learning", "python"]}
    native = parse_page("posts/x.md", text, SiteConfig(), NATIVE)
    assert native.taxonomies == {"categories": ["a", "b"], "tags": ["machine-learning python"]}


def test_published_false_sitemap_false_and_redirects_in_a_build(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/draft.md": "---\ntitle: D\npublished: false\n---\nx\n",
        "content/posts/quiet.md": "---\ntitle: Q\ndate: 2024-01-01\nsitemap: false\nredirect_from: /q-old/\n---\nx\n",
    })
    result = build(site)
    assert "posts/draft/index.html" not in result.files
    assert "/posts/quiet/" not in html(result, "sitemap.xml")
    assert "/posts/quiet/" in html(result, "q-old/index.html")


def test_hugo_term_urls_follow_urlize(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01\ncategories: [paper_summary]\n"
                              "tags: [C++, C#, .NET]\n---\nA\n",
    })
    result = build(site)
    for path in ("categories/paper_summary/index.html", "tags/c++/index.html", "tags/c#/index.html",
                 "tags/net/index.html"):
        assert path in result.files, path
    assert 'href="/tags/c%23/"' in html(result, "tags/index.html")


def test_jekyll_term_urls_follow_slugify_and_posts_lose_their_date(make_site: MakeSite) -> None:
    site = jekyll_site(make_site, {
        "_posts/2024-01-02-hello-world.md": "---\ntitle: Hello\ncategories: paper_summary\n"
                                            "tags: Deep.Learning\n---\nx\n",
        "notes/2024-05-06-kept.md": "---\ntitle: Kept\n---\nx\n",
    })
    result = build(site)
    assert "categories/paper-summary/index.html" in result.files
    assert "tags/deep-learning/index.html" in result.files
    # Jekyll's default permalink style `date`: /:categories/:year/:month/:day/:title.html
    assert "paper_summary/2024/01/02/hello-world.html" in result.files
    assert "notes/2024-05-06-kept.html" in result.files  # Jekyll reads dates from post names only
    # The post's date and title slug come from its name, as Jekyll's `:year/:month/:day/:title` use them.
    post = parse_page("_posts/2024-01-02-hello-world.md", "---\ntitle: Hello\n---\nx\n", SiteConfig(), JEKYLL)
    assert (post.date, post.slug) == (dt.datetime(2024, 1, 2, tzinfo=dt.UTC), "hello-world")
    other = parse_page("notes/2024-05-06-kept.md", "---\ntitle: Kept\n---\nx\n", SiteConfig(), JEKYLL)
    assert (other.date, other.slug) == (None, None)


def test_hugo_bundle_folder_keeps_its_date_in_the_url(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/2025-02-03-winter-landscape/index.md": "---\ntitle: Winter\n---\nSnow\n",
        "content/posts/2024-03-10-jekyll-style.md": "---\ntitle: Moved\n---\nx\n",
    })
    result = build(site)
    assert "Snow" in html(result, "posts/2025-02-03-winter-landscape/index.html")
    assert "posts/jekyll-style/index.html" in result.files


def test_pages_link_their_urlized_terms_and_related_posts(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "---\ntitle: Alpha\ndate: 2024-01-01\ncategories: [paper_summary]\ntags: [C++]\n---\nA\n",
        "content/posts/b.md": "---\ntitle: Beta\ndate: 2024-01-02\ncategories: [paper_summary]\ntags: [C++]\n---\nB\n",
    }, layouts=False)
    result = build(site)
    page = html(result, "posts/b/index.html")
    assert 'href="/categories/paper_summary/"' in page and 'href="/tags/c++/"' in page
    assert 'href="/posts/a/"' in page  # related by the shared terms
    assert "summary" in index.shard(result.files, "su")  # the category's words are searchable
