"""The site folder: sections, bundles, static, data, layouts, themes, drafts and dates."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.errors import SitegenError
from tests.conftest import build, html

MakeSite = Callable[..., Path]


def test_sections_home_and_pretty_urls(make_site: MakeSite) -> None:
    site = make_site({
        "content/_index.md": "---\ntitle: Welcome\n---\nHello *home*",
        "content/about.md": "---\ntitle: About\n---\nme",
        "content/posts/_index.md": "---\ntitle: All posts\n---\n",
        "content/posts/x.md": "---\ntitle: X\ndate: 2024-01-01\n---\n",
        "content/posts/y/index.md": "---\ntitle: Y\ndate: 2024-01-02\n---\n",
    })
    result = build(site)
    assert {"index.html", "about/index.html", "posts/index.html", "posts/x/index.html",
            "posts/y/index.html"} <= set(result.files)
    assert "<em>home</em>" in html(result, "index.html")
    posts = html(result, "posts/index.html")
    assert posts.index("/posts/y/") < posts.index("/posts/x/")


def test_bundle_resources_are_copied_next_to_the_page(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/demo/index.md": "---\ntitle: Demo\n---\n![shot](resources/demo.gif)\n"
                                       "[certificate](resources/award.png)",
        "content/posts/demo/resources/demo.gif": b"GIF89a",
        "content/posts/demo/resources/award.png": b"\x89PNG",
    })
    result = build(site)
    assert result.files["posts/demo/resources/demo.gif"] == b"GIF89a"
    page = html(result, "posts/demo/index.html")
    assert 'src="resources/demo.gif"' in page and 'href="resources/award.png"' in page


def test_static_and_data(make_site: MakeSite) -> None:
    site = make_site({
        "static/robots-extra.txt": "hi",
        "static/img/a.png": b"png",
        "data/people.yaml": "- name: Ada\n  version: 1.10\n",
        "data/nested/info.json": '{"x": 1}',
        "data/extra.toml": 'k = "v"\n',
        "layouts/page.html": "{% for p in site.data.people %}{{ p.name }} {{ p.version }}{% endfor %}"
                             "|{{ site.data.nested.info.x }}|{{ site.data.extra.k }}",
        "content/about.md": "x",
    })
    result = build(site)
    assert result.files["robots-extra.txt"] == b"hi"
    assert result.files["img/a.png"] == b"png"
    assert html(result, "about/index.html") == "Ada 1.10|1|v"


def test_bad_data_file_names_its_line(make_site: MakeSite) -> None:
    site = make_site({"data/a.yaml": "ok: 1\nbad: [\n", "content/a.md": "x"})
    with pytest.raises(SitegenError) as info:
        build(site)
    assert "data/a.yaml" in info.value.format()


def test_site_layout_overrides_theme_block(make_site: MakeSite) -> None:
    site = make_site({
        "themes/mine/layouts/base.html": "<main>{% block main %}{% endblock %}</main><footer>{% block footer %}"
                                         "theme footer{% endblock %}</footer>",
        "themes/mine/layouts/page.html": "{% extends 'base.html' %}{% block main %}{{ page.title }}{% endblock %}",
        "layouts/base.html": "{% extends 'theme/base.html' %}{% block footer %}my footer{% endblock %}",
        "sitegen.yaml": "title: T\ntheme: mine\n",
        "content/a.md": "---\ntitle: A\n---\n",
    }, layouts=False)
    assert html(build(site), "a/index.html") == "<main>A</main><footer>my footer</footer>"


def test_default_theme_is_found_without_a_themes_folder(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntitle: Plain page\n---\nhello"}, layouts=False)
    page = html(build(site), "a/index.html")
    assert "Plain page" in page and "<html" in page


def test_missing_theme_is_an_error(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "theme: nope\n", "content/a.md": "x"}, layouts=False)
    with pytest.raises(SitegenError, match="theme `nope` not found"):
        build(site)


@pytest.mark.parametrize("flag, visible", [({}, False), ({"drafts": True}, True)])
def test_drafts(make_site: MakeSite, flag: dict[str, bool], visible: bool) -> None:
    site = make_site({"content/d.md": "---\ntitle: D\ndraft: true\n---\n"})
    assert ("d/index.html" in build(site, **flag).files) is visible


def test_future_and_expired_pages(make_site: MakeSite) -> None:
    site = make_site({
        "content/future.md": "---\ndate: 2031-01-01\n---\n",
        "content/publish.md": "---\npublishDate: 2031-01-01\n---\n",
        "content/expired.md": "---\nexpiryDate: 2020-01-01\n---\n",
        "content/now.md": "---\ndate: 2029-12-31\n---\n",
    })
    files = build(site).files
    assert "now/index.html" in files
    assert "future/index.html" not in files and "publish/index.html" not in files
    assert "expired/index.html" not in files
    assert "future/index.html" in build(site, future=True).files


def test_date_only_is_the_same_date_in_every_time_zone(make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    site = make_site({"content/a.md": "---\ndate: 2024-03-01\n---\n",
                      "layouts/page.html": "{{ page.date | date('%Y-%m-%d') }}"})
    outputs = []
    for tz in ("America/Los_Angeles", "Asia/Tokyo", "UTC"):
        monkeypatch.setenv("TZ", tz)
        time.tzset()
        outputs.append(html(build(site), "a/index.html"))
    time.tzset()
    assert outputs == ["2024-03-01"] * 3


def test_config_drafts_setting(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "build: {drafts: true}\n", "content/d.md": "---\ndraft: true\n---\n"})
    assert "d/index.html" in build(site).files


def test_page_lang_and_params_reach_templates(make_site: MakeSite) -> None:
    site = make_site({"content/zh.md": "---\ntitle: 中文\nlang: zh\nvenue: ICML\n---\n",
                      "layouts/page.html": "{{ page.lang }}|{{ page.params.venue }}|{{ site.language }}"})
    assert html(build(site), "zh/index.html") == "zh|ICML|en"


def test_now_is_fixed_for_reproducible_tests(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ndate: 2029-06-01\n---\n"})
    assert "a/index.html" not in build(site, now=dt.datetime(2029, 1, 1, tzinfo=dt.UTC)).files
