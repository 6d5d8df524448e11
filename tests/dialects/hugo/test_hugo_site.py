"""A Hugo site (no sitegen.yaml) builds in place: its config, naming rules and shortcodes, as Hugo would."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import watchfiles

from sitegen.dialects import HUGO, detect_dialect
from sitegen.dialects.hugo import load_hugo_config
from sitegen.errors import ConfigError
from sitegen.serve.watcher import SourceFilter
from tests.conftest import html
from tests.dialects.hugo.site import build_hugo, hugo_site

PAPERMOD_TOML = """\
baseURL = "https://ann.example.org/blog/"
languageCode = "en-us"
title = "Ann's notes"
theme = "PaperMod"
paginate = 5
summaryLength = 30
buildFuture = true
googleAnalytics = "UA-123"
enableRobotsTXT = true

[params]
  description = "Notes on things"
  author = "Ann"
  ShowReadingTime = true

[[menu.main]]
  identifier = "posts"
  name = "Posts"
  pageRef = "/posts"
  weight = 10
[[menu.main]]
  name = "About"
  url = "/about/"
  weight = 1

[taxonomies]
  tag = "tags"
  series = "series"

[permalinks]
  posts = "/:year/:slug/"
"""


@pytest.mark.parametrize("name", ["hugo.toml", "config.toml", "hugo.yaml", "config.json", "config/_default/hugo.toml"])
def test_a_hugo_config_file_marks_a_hugo_site(tmp_path: Path, name: str) -> None:
    text = '{"title": "T"}' if name.endswith(".json") else ("title: T\n" if name.endswith(".yaml") else 'title = "T"\n')
    site = hugo_site(tmp_path, {name: text, "content/a.md": "A"}, layouts=False)
    assert detect_dialect(site) is HUGO
    assert load_hugo_config(site)[0].title == "T"


def test_a_config_json_without_content_is_not_taken_for_hugo(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, {"config.json": '{"lint": true}', "_config.yml": "title: J\n"}, layouts=False)
    assert detect_dialect(site) is not HUGO


def test_sitegen_yaml_wins_over_a_hugo_config(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, {"hugo.toml": 'title = "T"\n', "sitegen.yaml": "title: S\n"}, layouts=False)
    assert detect_dialect(site) is not HUGO


def test_papermod_config_is_read_and_unmapped_keys_are_listed_once(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, {"hugo.toml": PAPERMOD_TOML}, layouts=False)
    config, warnings = load_hugo_config(site)
    assert (config.title, config.base_url, config.base_path) == ("Ann's notes", "https://ann.example.org/blog/",
                                                                "/blog/")
    assert config.language == "en-us" and config.author.name == "Ann" and config.description == "Notes on things"
    assert [(m.name, m.url, m.weight) for m in config.menu] == [("About", "/about/", 1), ("Posts", "/posts/", 10)]
    assert config.taxonomies == ("tags", "series") and config.permalinks == {"posts": "/:year/:slugortitle/"}
    assert (config.paginate, config.summary_length, config.build.future) == (5, 30, True)
    assert config.params["ShowReadingTime"] is True and config.theme == "default"
    assert len(warnings) == 1 and warnings[0].path == "hugo.toml"
    assert "googleanalytics" in warnings[0].message and "theme" in warnings[0].message
    assert "enablerobotstxt" not in warnings[0].message


def test_config_default_folder_files_are_merged(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, {
        "config/_default/hugo.toml": 'title = "Split"\nbaseURL = "https://x.org/"\n',
        "config/_default/menus.toml": '[[main]]\nname = "Blog"\npageRef = "posts"\nweight = 2\n',
        "config/_default/params.toml": 'description = "From params.toml"\n[social]\ngithub = "ann"\n',
        "config/_default/pagination.toml": "pagerSize = 7\n",
    }, layouts=False)
    config, _ = load_hugo_config(site)
    assert config.title == "Split" and config.description == "From params.toml"
    assert [(m.name, m.url) for m in config.menu] == [("Blog", "/posts/")]
    assert config.params["social"] == {"github": "ann"} and config.paginate == 7


def test_a_broken_hugo_config_is_an_error_naming_the_file(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, {"hugo.toml": 'title = "unclosed\n'}, layouts=False)
    with pytest.raises(ConfigError) as caught:
        load_hugo_config(site)
    assert caught.value.path == "hugo.toml"


def test_hugo_site_builds_with_its_urls_menu_and_params(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "hugo.toml": PAPERMOD_TOML,
        "layouts/_default/single.html": "{{ define \"main\" }}{{ $x := .Content }}{{ end }}",
        "layouts/partials/toc.html": "{{- $headers := findRE \"<h[1-6].*?>(.|\\n])+?</h[1-6]>\" .Content -}}",
        "content/about.md": "---\ntitle: About\n---\nMe.\n",
        "content/posts/_index.md": "---\ntitle: Posts\n---\n",
        "content/posts/first.md": "---\ntitle: First\ndate: 2024-01-02\ntags: [C++, paper_summary]\n---\nHi.\n",
        "content/posts/named.md": "---\ntitle: A Long Title\nslug: short\ndate: 2023-05-06\n---\nHi.\n",
        "content/posts/untitled-file.md": "---\ntitle: Hello World\ndate: 2023-05-06\n---\nHi.\n",
        "content/posts/2025-02-03-winter/index.md": "---\ntitle: Winter\ndate: 2025-02-03\n---\n![s](snow.jpg)\n",
        "content/posts/2025-02-03-winter/snow.jpg": b"JPEG",
        "content/notes/2024-05-06-dated-name.md": "---\ntitle: Dated\n---\nHugo keeps the name.\n",
    })
    home = html(result, "index.html")  # sitegen's theme: the site's Go templates cannot run
    assert home.index('href="/blog/about/">About<') < home.index('href="/blog/posts/">Posts<')
    assert "Hugo templates cannot run" in " ".join(w.message for w in result.warnings)
    assert "2024/first/index.html" in result.files and "2023/short/index.html" in result.files
    assert "2023/hello-world/index.html" in result.files
    # `:slug` without a front matter slug is the title, in Hugo: /2025/winter/, the bundle's files beside it
    assert "2025/winter/index.html" in result.files and "2025/winter/snow.jpg" in result.files
    assert "notes/2024-05-06-dated-name/index.html" in result.files
    assert "tags/c++/index.html" in result.files and "tags/paper_summary/index.html" in result.files


def test_shortcodes_in_a_hugo_site_resolve_refs_between_pages(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/about.md": "---\ntitle: About\n---\nMe.\n",
        "content/posts/a.md": ('---\ntitle: A\n---\n[b]({{< ref "b.md" >}}) [b2]({{< relref "b" >}}) '
                               '[about]({{< ref "/about.md#me" >}}) [root]({{< relref "posts/b.md" >}}) '
                               '[by name]({{< ref "c" >}})\n'),
        "content/posts/b.md": "---\ntitle: B\n---\nB.\n",
        "content/posts/deep/c.md": "---\ntitle: C\n---\nC.\n",
    })
    page = html(result, "posts/a/index.html")
    for label, url in [("b", "/posts/b/"), ("b2", "/posts/b/"), ("about", "/about/#me"), ("root", "/posts/b/"),
                       ("by name", "/posts/deep/c/")]:
        assert f'<a href="{url}">{label}</a>' in page
    assert not [w for w in result.warnings if "ref" in w.message]


def test_missing_ref_and_unknown_shortcodes_are_warned_with_file_and_line(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/a.md": '---\ntitle: A\n---\nIntro\n\n[gone]({{< ref "gone.md" >}})\n{{< mybox >}}in A{{< /mybox >}}\n',
        "content/b.md": "---\ntitle: B\n---\n{{< mybox >}}in B{{< /mybox >}}\n",
    })
    assert "{{" not in html(result, "a/index.html") and "in B" in html(result, "b/index.html")
    located = sorted(f"{w.path}:{w.line}: {w.message[:22]}" for w in result.warnings if "shortcode" in w.message
                     or "ref" in w.message)
    assert located == ["content/a.md:6: `ref` to missing page ", "content/a.md:7: shortcode `mybox` is n"]


def test_a_hugo_site_without_sitegen_yaml_uses_hugo_rules_for_term_strings(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {"content/a.md": '---\ntitle: A\ntags: "deep learning"\n---\nA.\n'})
    assert "tags/deep-learning/index.html" in result.files
    assert not [w for w in result.warnings if "tags" in w.message]


def test_pages_join_the_main_menu_from_their_front_matter(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "hugo.toml": 'title = "T"\n[[menu.main]]\nname = "Blog"\nurl = "/posts/"\nweight = 5\n',
        "content/_index.md": "---\nmenu:\n  main:\n    name: Home\n    weight: 1\n    params: {icon: home}\n---\n",
        "content/page/about/index.md": "---\ntitle: About Me\nmenu: main\nweight: 9\n---\nMe.\n",
        "content/page/links.md": "---\ntitle: Links\nmenu: [footer]\n---\nL.\n",
        "content/posts/a.md": "---\ntitle: A\n---\nA.\n",
    })
    home = html(result, "index.html")
    menu = home[home.index('<nav class="site-nav"'):]
    menu = menu[:menu.index("</nav>")]
    assert re.findall(r'href="([^"]*)"[^>]*>([^<]*)<', menu) == [("/", "Home"), ("/posts/", "Blog"),
                                                                 ("/page/about/", "About Me")]


def test_a_key_slipped_under_taxonomies_is_no_taxonomy(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, {"hugo.toml": '[taxonomies]\ntag = "tags"\nhasCJKLanguage = true\n'})
    config, warnings = load_hugo_config(site)
    assert config.taxonomies == ("tags",) and "taxonomies.hasCJKLanguage" in warnings[0].message


def test_the_dev_server_rebuilds_when_the_hugo_config_changes(tmp_path: Path) -> None:
    flt = SourceFilter(tmp_path, [])
    for rel, watched in [("hugo.toml", True), ("config.yaml", True), ("config/_default/menus.toml", True),
                         ("config/production/params.toml", False), ("notes.toml", False)]:
        assert flt(watchfiles.Change.modified, str(tmp_path / rel)) is watched, rel


def test_markup_highlight_code_fences_off_is_honoured(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, {"hugo.toml": "[markup.highlight]\ncodeFences = false\nstyle = 'monokai'\n"
                                             "[markup.goldmark.renderer]\nunsafe = true\n"})
    config, warnings = load_hugo_config(site)
    assert config.markdown.highlight is False and warnings == []


def test_headless_bundles_and_build_render_never_are_not_published(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/home/index.md": "---\ntype: widget_page\nheadless: true\n---\n",
        "content/home/hero.md": "---\nwidget: hero\ntitle: Hero\n---\nHi.\n",
        "content/authors/_index.md": ("---\nbuild:\n  render: never\ncascade:\n  build:\n    render: never\n"
                                      "    list: always\n---\n"),
        "content/authors/admin/_index.md": "---\ntitle: Dr. Lee\n---\nBio.\n",
        "content/notes/private.md": "---\ntitle: Private\n_build:\n  render: false\n---\nNo.\n",
        "content/notes/public.md": "---\ntitle: Public\n---\nYes.\n",
    })
    published = sorted(p for p in result.files if p.endswith("index.html"))
    assert "notes/public/index.html" in published
    assert not [p for p in published if p.startswith(("home/", "authors/", "notes/private/"))]
    assert not [w for w in result.warnings if "home" in (w.path or "") or "authors" in (w.path or "")]


def test_weighted_pages_come_first_in_lists_as_in_hugo(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/posts/old-pinned.md": "---\ntitle: Pinned\ndate: 2020-01-01\nweight: 1\n---\nP.\n",
        "content/posts/new.md": "---\ntitle: Newest\ndate: 2024-01-01\n---\nN.\n",
        "content/posts/mid.md": "---\ntitle: Middle\ndate: 2022-01-01\n---\nM.\n",
    })
    listing = html(result, "posts/index.html")
    assert listing.index(">Pinned<") < listing.index(">Newest<") < listing.index(">Middle<")
