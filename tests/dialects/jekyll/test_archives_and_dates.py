"""Issue 16: jekyll-archives pages, `timezone:` and `collections_dir:` as Jekyll gives them.

Written from the documentation of jekyll-archives (docs/configuration.md: `enabled` is `all` or a list of `year`,
`month`, `day`, `categories`, `tags`; permalinks default to `/:year/`, `/:year/:month/`, `/:year/:month/:day/`,
`/tag/:name/`, `/category/:name/`, `:name` being the slugified term) and of Jekyll's configuration (`timezone`:
"Set the time zone for site generation ... used to ... compute post dates"; `collections_dir`: "all your
collections (and `_posts`/`_drafts`) live under it").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import build, html
from tests.dialects.jekyll.test_jekyll_sites import jekyll

MakeSite = Callable[..., Path]

AL_FOLIO = """\
title: Ada
url: https://ada.github.io
permalink: /blog/:year/:title/
plugins:
  - jekyll-archives
  - jekyll/scholar
jekyll-archives:
  enabled: [year, tags, categories]
  layouts:
    year: archive-year
    tag: archive-tag
    category: archive-category
  permalinks:
    year: "/blog/:year/"
    tag: "/blog/tag/:name/"
    category: "/blog/category/:name/"
"""
POSTS = {
    "_posts/2015-10-20-math.md": "---\nlayout: post\ntitle: a post with math\ntags: formatting math\n"
                                 "categories: sample-posts\n---\nEuler.\n",
    "_posts/2024-03-10-code.md": "---\nlayout: post\ntitle: a post with code\ntags: [formatting, C++]\n"
                                 "categories: [sample-posts, External Services]\n---\nCode.\n",
}


def test_al_folio_archives_are_at_its_configured_urls(make_site: MakeSite) -> None:
    result = build(jekyll(make_site, POSTS, AL_FOLIO))
    year = html(result, "blog/2015/index.html")
    assert 'href="/blog/2015/math/"' in year and "/blog/2024/code/" not in year
    formatting = html(result, "blog/tag/formatting/index.html")
    assert 'href="/blog/2015/math/"' in formatting and 'href="/blog/2024/code/"' in formatting
    assert formatting.index("/blog/2024/code/") < formatting.index("/blog/2015/math/")  # newest first
    assert 'href="/blog/2024/code/"' in html(result, "blog/tag/c/index.html")  # Jekyll's slugify: `C++` -> `c`
    assert 'href="/blog/2015/math/"' in html(result, "blog/category/sample-posts/index.html")
    assert "blog/category/external-services/index.html" in result.files
    # Only what `enabled` names: no month archives, and the terms are not also at sitegen's own URLs.
    assert "blog/2015/10/index.html" not in result.files and "2015/index.html" not in result.files
    assert "tags/formatting/index.html" not in result.files
    assert 'href="/blog/tag/formatting/"' in html(result, "tags/index.html")  # the terms' list links there
    for feed in ("blog/tag/formatting/feed.xml", "blog/2015/feed.xml"):  # each archive's feed beside its page
        assert "a post with math" in result.files[feed].decode(), feed
    assert "tags/formatting/feed.xml" not in result.files


def test_al_folio_2024_archives_v2_per_collection(make_site: MakeSite) -> None:
    """jekyll-archives-v2 (docs/configuration.md): configured per collection; `:type` is the archive's type made
    singular (`tag`, `category`), `:collection` the collection's name; defaults `/:collection/:year/` and
    `/:collection/:type/:name/`."""
    config = ("title: Ada\npermalink: /blog/:year/:title/\nplugins: [jekyll-archives-v2]\njekyll-archives:\n"
              "  posts:\n    enabled: [year, tags, categories]\n    permalinks:\n      year: /blog/:year/\n"
              "      tags: /blog/:type/:name/\n      categories: /blog/:type/:name/\n"
              "  books:\n    enabled: [year]\n")
    result = build(jekyll(make_site, POSTS, config))
    assert 'href="/blog/2015/math/"' in html(result, "blog/2015/index.html")
    assert 'href="/blog/2015/math/"' in html(result, "blog/tag/formatting/index.html")
    assert 'href="/blog/2015/math/"' in html(result, "blog/category/sample-posts/index.html")
    defaults = build(jekyll(make_site, POSTS, "title: A\nplugins: [jekyll-archives-v2]\njekyll-archives:\n"
                                              "  posts:\n    enabled: all\n", name="defaults"))
    for page in ("posts/2015/index.html", "posts/2015/10/index.html", "posts/2015/10/20/index.html",
                 "posts/tag/math/index.html", "posts/category/sample-posts/index.html"):
        assert "a post with math" in html(defaults, page), page


def test_all_archives_with_the_plugins_default_permalinks(make_site: MakeSite) -> None:
    config = "title: Notes\nplugins: [jekyll-archives]\njekyll-archives:\n  enabled: all\n"
    result = build(jekyll(make_site, POSTS, config))
    for page in ("2015/index.html", "2015/10/index.html", "2015/10/20/index.html", "tag/math/index.html",
                 "category/sample-posts/index.html"):
        assert "a post with math" in html(result, page), page
    assert "a post with code" in html(result, "2024/03/10/index.html")
    assert "a post with math" not in html(result, "2024/index.html")
    # Configured but without the plugin loaded: Jekyll makes no archives (sitegen keeps its own term lists).
    result = build(jekyll(make_site, POSTS, "title: Notes\njekyll-archives:\n  enabled: all\n", name="plain"))
    assert not any(re.match(r"(blog/)?\d{4}/(index|\d\d/index)", p) for p in result.files)
    assert "tag/math/index.html" not in result.files and "tags/math/index.html" in result.files  # sitegen's own


def themed(make_site: MakeSite, files: dict[str, str], config: str) -> Path:
    """A Jekyll site rendered by sitegen's default theme (which shows each post's date)."""
    site = make_site({"_config.yml": config, **files}, layouts=False)
    (site / "sitegen.yaml").unlink()
    return site


TOKYO = "title: Notes\nurl: https://example.org\npermalink: /:year/:month/:day/:title/\ntimezone: Asia/Tokyo\n"


def test_timezone_gives_the_local_date_in_urls_pages_and_feeds(make_site: MakeSite) -> None:
    result = build(themed(make_site, {
        # 20:00 in London is 05:00 the next day in Tokyo: Jekyll converts the date to the site's zone.
        "_posts/2024-03-10-late.md": "---\ntitle: Late\ndate: 2024-03-10 20:00:00 +0000\n---\nL.\n",
        "_posts/2024-03-10-local.md": "---\ntitle: Local\ndate: 2024-03-10 23:30:00\n---\nT.\n",
        "_posts/2024-03-12-named.md": "---\ntitle: Named\n---\nN.\n",
    }, TOKYO))
    assert 'datetime="2024-03-11T05:00:00+09:00"' in html(result, "2024/03/11/late/index.html")
    assert "2024/03/10/late/index.html" not in result.files
    assert 'datetime="2024-03-10T23:30:00+09:00"' in html(result, "2024/03/10/local/index.html")
    feed = result.files["feed.xml"].decode()
    assert "2024-03-10T23:30:00+09:00" in feed and "2024-03-12T00:00:00+09:00" in feed
    assert "+00:00" not in feed.split("<entry>", 1)[1]


def test_an_unknown_timezone_is_a_located_warning_and_utc(make_site: MakeSite) -> None:
    config = "title: Notes\npermalink: /:year/:month/:day/:title/\ntimezone: Mars/X\n"
    result = build(themed(make_site, {"_posts/2024-03-10-local.md": "---\ntitle: Local\ndate: 2024-03-10 23:30:00\n"
                                                                    "---\nT.\n"}, config))
    notes = [w for w in result.warnings if "Mars/X" in w.message]
    assert [(w.path, w.line) for w in notes] == [("_config.yml", 3)], [str(w) for w in result.warnings]
    assert 'datetime="2024-03-10T23:30:00+00:00"' in html(result, "2024/03/10/local/index.html")


def test_collections_dir_holds_the_collections_posts_and_drafts(make_site: MakeSite) -> None:
    config = ("title: Notes\ncollections_dir: my_collections\npermalink: /:year/:title/\n"
              "collections:\n  talks:\n    output: true\n    permalink: /:collection/:name/\n"
              "defaults:\n  - scope: {path: \"my_collections/_talks\"}\n    values: {venue: Hall A}\n")
    site = jekyll(make_site, {
        "my_collections/_posts/2024-03-10-hello.md": "---\ntitle: Hello\n---\nA post.\n",
        "my_collections/_drafts/soon.md": "---\ntitle: Soon\ndate: 2024-05-01\n---\nA draft.\n",
        "my_collections/_talks/keynote.md": "---\ntitle: Keynote\n---\nA talk.\n",
        "_pages/about.md": "---\ntitle: About\npermalink: /about/\n---\nMe.\n",
    }, config)
    result = build(site)
    assert "A post." in html(result, "2024/hello/index.html")
    assert "A talk." in html(result, "talks/keynote/index.html")
    assert "Me." in html(result, "about/index.html")
    assert not any(p.startswith("my_collections/") for p in result.files)
    assert not [w for w in result.warnings if "collections_dir" in w.message], [str(w) for w in result.warnings]
    assert result.state is not None and result.state.plan.tree.pages["talks/keynote.md"].params["venue"] == "Hall A"
    assert "A draft." in html(build(site, drafts=True), "2024/soon/index.html")


def test_a_page_of_pages_keeps_its_jekyll_path(make_site: MakeSite) -> None:
    """al-folio's `_pages/dropdown.md` has no permalink: Jekyll publishes it at `/_pages/dropdown/` (`_pages` is an
    included folder, not a collection), and a `defaults` scope `path: _pages` applies to it."""
    config = ("title: A\npermalink: pretty\ninclude: [_pages]\n"
              "defaults:\n  - scope: {path: _pages}\n    values: {layout: page, note: from defaults}\n")
    result = build(jekyll(make_site, {"_pages/dropdown.md": "---\ntitle: submenus\nnav: true\n---\nMenu.\n",
                                      "_pages/about.md": "---\ntitle: About\npermalink: /\n---\nMe.\n"}, config))
    assert "Menu." in html(result, "_pages/dropdown/index.html") and "dropdown/index.html" not in result.files
    assert "Me." in html(result, "index.html")
    assert result.state is not None and result.state.plan.tree.pages["dropdown.md"].params["note"] == "from defaults"


@pytest.mark.parametrize("key", ["plugins", "gems", "exclude", "defaults"])
def test_a_config_list_of_the_wrong_shape_is_ignored_with_a_warning(make_site: MakeSite, key: str) -> None:
    site = jekyll(make_site, {"_posts/2015-10-20-a.md": "---\ntitle: A\n---\nText.\n"},
                  config=f"title: Ada\n{key}: 7\n")
    result = build(site)
    notes = [w for w in result.warnings if f"`{key}: 7`" in w.message]
    assert [(n.path, n.line) for n in notes] == [("_config.yml", 2)], [str(w) for w in result.warnings]
