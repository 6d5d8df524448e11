"""A site in two languages: translations linked, each language with its own URLs, lists, feeds and sitemap."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.build import BuildOptions, build_site
from sitegen.errors import SitegenError
from sitegen.memo import BuildMemo
from tests.conftest import build, html

CONFIG = """\
title: Ada Lin
base_url: https://ada.example.org/
taxonomies: [tags]
languages:
  en: {name: English, weight: 1}
  zh: {name: 中文, code: zh-CN, title: 林雅, weight: 2,
       menu: [{name: 关于, url: /about/}, {name: 英文, url: /posts/english-only/}]}
menu:
  - {name: About, url: /about/}
"""

NOW = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)

# Layouts that show what the theme gets: the switcher entries, the hreflang links and translated strings.
LAYOUTS = {
    "layouts/base.html": (
        '<!doctype html><html lang="{{ page.lang }}"><head><title>{{ page.title }} · {{ site.title }}</title>\n'
        '{% for alt in page.hreflang %}<link rel="alternate" hreflang="{{ alt.lang }}" href="{{ alt.url }}">\n'
        '{% endfor %}</head><body>\n'
        '<nav class="menu">{% for m in site.menu %}<a href="{{ m.url }}">{{ m.name }}</a>{% endfor %}</nav>\n'
        '<nav class="langs">{% for l in page.languages %}<a class="{{ "current" if l.current else "" }}" '
        'hreflang="{{ l.lang }}" href="{{ l.url }}">{{ l.name }}</a>\n{% endfor %}</nav>\n'
        '<p class="strings">{{ i18n("read_more") }}|{{ T("page_n_of_m", n=2, total=5) }}|'
        '{{ i18n("minutes_read", count=3) }}|{{ i18n("hello") }}</p>\n'
        '{% block main %}{% endblock %}</body></html>\n'),
    "layouts/page.html": "{% extends 'base.html' %}{% block main %}<h1>{{ page.title }}</h1>"
                         "{% if page.date %}<time>{{ page.date | date }}</time>{% endif %}"
                         "{{ page.content }}{% endblock %}",
    "layouts/single.html": "{% extends 'page.html' %}",
    "i18n/en.yaml": "hello: Hello\n",
    "i18n/zh.yaml": "read_more: 继续阅读\n",
}

PAGES = {
    "content/_index.md": "---\ntitle: Home\n---\nWelcome\n",
    "content/_index.zh.md": "---\ntitle: 首页\n---\n欢迎\n",
    "content/about.md": "---\ntitle: About\n---\nI am Ada.\n",
    "content/about.zh.md": "---\ntitle: 关于我\n---\n我是林雅。[英文](/posts/english-only/) [文章](/posts/one/)\n",
    "content/posts/one.md": "---\ntitle: First post\ndate: 2026-11-24\ntags: [ml]\n---\nText.\n",
    "content/zh/posts/one.md": "---\ntitle: 第一篇\ndate: 2026-11-24\ntags: [ml]\n---\n正文。\n",
    "content/posts/english-only.md": "---\ntitle: English only\ndate: 2026-11-20\n---\nOnly here.\n",
    "content/posts/nihao.zh.md": "---\ntitle: 你好\ndate: 2026-11-21\ntranslationKey: greeting\n---\n你好。\n",
    "content/posts/hello.md": "---\ntitle: Hello\ndate: 2026-11-21\ntranslationKey: greeting\n---\nHi.\n",
}


@pytest.fixture
def site(make_site: Callable[..., Path]) -> Path:
    return make_site({"sitegen.yaml": CONFIG, **LAYOUTS, **PAGES})


def _links(page: str, css: str) -> list[tuple[str, str]]:
    nav = re.search(rf'<nav class="{css}">(.*?)</nav>', page, re.S)
    assert nav is not None
    return re.findall(r'hreflang="([^"]+)" href="([^"]+)"', nav.group(1))


def _hreflang(page: str) -> dict[str, str]:
    return dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', page))


def test_translations_get_their_language_urls_and_untranslated_pages_stay_in_their_language(site: Path) -> None:
    files = build(site).files
    for path in ("index.html", "about/index.html", "posts/one/index.html", "posts/english-only/index.html",
                 "zh/index.html", "zh/about/index.html", "zh/posts/one/index.html", "zh/posts/nihao/index.html"):
        assert path in files, path
    assert "zh/posts/english-only/index.html" not in files
    assert "about.zh/index.html" not in files and "zh/zh/posts/one/index.html" not in files
    zh = html(build(site), "zh/about/index.html")
    assert '<html lang="zh-CN">' in zh and "关于我 · 林雅" in zh and "我是林雅。" in zh
    assert '<a href="/zh/about/">关于</a>' in zh  # its own menu, its URLs in its language
    # links to pages only the default language has reach them there; translated ones stay in the language
    assert '<a href="/posts/english-only/">英文</a>' in zh
    assert '<a href="/posts/english-only/">英文</a> <a href="/zh/posts/one/">文章</a>' in zh
    assert '<html lang="en">' in html(build(site), "about/index.html")


def test_switcher_goes_to_the_translation_or_that_languages_home(site: Path) -> None:
    result = build(site)
    assert _links(html(result, "about/index.html"), "langs") == [("en", "/about/"), ("zh-CN", "/zh/about/")]
    assert _links(html(result, "zh/about/index.html"), "langs") == [("en", "/about/"), ("zh-CN", "/zh/about/")]
    # translationKey links pages whose names differ
    assert _links(html(result, "posts/hello/index.html"), "langs")[1] == ("zh-CN", "/zh/posts/nihao/")
    # no translation: the other language's home
    assert _links(html(result, "posts/english-only/index.html"), "langs")[1] == ("zh-CN", "/zh/")
    assert 'class="current" hreflang="zh-CN"' in html(result, "zh/posts/one/index.html")


def test_hreflang_pairs_are_reciprocal_with_x_default(site: Path) -> None:
    result = build(site)
    en, zh = _hreflang(html(result, "posts/one/index.html")), _hreflang(html(result, "zh/posts/one/index.html"))
    expected = {"en": "https://ada.example.org/posts/one/", "zh-CN": "https://ada.example.org/zh/posts/one/",
                "x-default": "https://ada.example.org/posts/one/"}
    assert en == zh == expected
    assert _hreflang(html(result, "posts/english-only/index.html")) == {}


def test_each_language_has_its_own_lists_taxonomies_and_feeds(site: Path) -> None:
    files = build(site).files
    en_feed, zh_feed = files["feed.xml"].decode(), files["zh/feed.xml"].decode()
    assert "First post" in en_feed and "English only" in en_feed and "第一篇" not in en_feed
    assert "第一篇" in zh_feed and "First post" not in zh_feed and "https://ada.example.org/zh/posts/one/" in zh_feed
    assert "zh/tags/ml/index.html" in files and "zh/tags/ml/feed.xml" in files
    assert "第一篇" in files["zh/tags/ml/index.html"].decode()
    assert "First post" not in files["zh/tags/ml/index.html"].decode()


def test_sitemap_index_lists_each_languages_sitemap_with_alternates(site: Path) -> None:
    files = build(site).files
    index = files["sitemap.xml"].decode()
    assert "<sitemapindex" in index
    assert re.findall(r"<loc>([^<]+)</loc>", index) == ["https://ada.example.org/en/sitemap.xml",
                                                         "https://ada.example.org/zh/sitemap.xml"]
    zh = files["zh/sitemap.xml"].decode()
    entry = re.search(r"<url><loc>https://ada.example.org/zh/about/</loc>(.*?)</url>", zh)
    assert entry is not None
    assert entry.group(1) == (
        '<xhtml:link rel="alternate" hreflang="en" href="https://ada.example.org/about/"/>'
        '<xhtml:link rel="alternate" hreflang="zh-CN" href="https://ada.example.org/zh/about/"/>'
        '<xhtml:link rel="alternate" hreflang="x-default" href="https://ada.example.org/about/"/>')
    assert "english-only" not in zh and "english-only" in files["en/sitemap.xml"].decode()
    assert "Sitemap: https://ada.example.org/sitemap.xml" in files["robots.txt"].decode()
    assert "zh/robots.txt" not in files


def test_theme_strings_come_from_translation_tables_and_the_site_overrides_them(site: Path) -> None:
    result = build(site)
    en, zh = html(result, "about/index.html"), html(result, "zh/about/index.html")
    assert '<p class="strings">Read more|Page 2 of 5|3 min read|Hello</p>' in en
    # the site's i18n/zh.yaml overrides the theme's 阅读全文; `hello` falls back to English
    assert '<p class="strings">继续阅读|第 2 页，共 5 页|3 分钟阅读|Hello</p>' in zh
    assert "<time>2026年11月24日</time>" in html(result, "zh/posts/one/index.html")
    assert "<time>November 24, 2026</time>" in html(result, "posts/one/index.html")


def test_a_missing_translation_is_reported_once_per_key_and_language(site: Path) -> None:
    warnings = [w for w in build(site).warnings if "`hello`" in w.message]
    assert len(warnings) == 1
    assert "has no `zh` translation" in warnings[0].message and warnings[0].path == "i18n/zh.yaml"


def test_a_string_in_no_table_is_a_template_error(make_site: Callable[..., Path]) -> None:
    site = make_site({"sitegen.yaml": CONFIG, **LAYOUTS, "layouts/page.html": "{{ i18n('no_such_key') }}",
                      "content/about.md": "x"})
    with pytest.raises(SitegenError) as caught:
        build(site)
    assert "no_such_key" in str(caught.value.format() if hasattr(caught.value, "format") else caught.value)


def test_two_files_for_one_page_of_a_language_is_an_error(make_site: Callable[..., Path]) -> None:
    site = make_site({"sitegen.yaml": CONFIG, **LAYOUTS, "content/about.zh.md": "a", "content/zh/about.md": "b"})
    with pytest.raises(SitegenError) as caught:
        build(site)
    assert "content/about.zh.md" in caught.value.format() and "content/zh/about.md" in caught.value.format()


def test_within_a_language_url_collisions_stay_errors_naming_the_files(make_site: Callable[..., Path]) -> None:
    site = make_site({"sitegen.yaml": CONFIG, **LAYOUTS, "content/a.zh.md": "---\nurl: /same/\n---\na",
                      "content/b.zh.md": "---\nurl: /same/\n---\nb"})
    with pytest.raises(SitegenError) as caught:
        build(site)
    message = caught.value.format()
    assert "content/a.zh.md" in message and "content/b.zh.md" in message


def test_translation_files_of_an_unconfigured_language_are_left_out_with_one_warning(
        make_site: Callable[..., Path]) -> None:
    site = make_site({"content/about.md": "About", "content/about.fr.md": "À propos",
                      "content/posts/x/index.md": "x", "content/posts/x/index.fr.md": "x fr",
                      "content/_index.fr.md": "Accueil", "content/notes.v2.md": "a dotted name"})
    result = build(site)
    assert "about/index.html" in result.files and "about.fr/index.html" not in result.files
    assert "notes.v2/index.html" in result.files  # a dot in a name is not a language
    warnings = [w for w in result.warnings if "`fr`" in w.message]
    assert len(warnings) == 1 and "3 translation file(s)" in warnings[0].message
    assert "languages:" in (warnings[0].hint or "")


def test_the_default_language_can_live_in_its_own_folder(make_site: Callable[..., Path]) -> None:
    site = make_site({"sitegen.yaml": CONFIG + "default_language_in_subdir: true\n", **LAYOUTS, **PAGES})
    files = build(site).files
    assert "en/about/index.html" in files and "zh/about/index.html" in files
    assert 'content="0; url=/en/"' in files["index.html"].decode()
    assert files["404.html"] == files["en/404.html"]
    assert "en/sitemap.xml" in files and "<sitemapindex" in files["sitemap.xml"].decode()
    assert "robots.txt" in files and "en/robots.txt" not in files


CV_EN = ("basics: {name: Ada Lin}\nwork:\n"
         "  - {name: Institute, position: Scientist, startDate: 2022-09, endDate: present}\n")
CV_ZH = "basics: {name: 林雅}\nwork:\n  - {name: 研究所, position: 研究科学家, startDate: 2022-09, endDate: present}\n"


def test_each_language_has_its_cv_page_pdf_and_json(make_site: Callable[..., Path]) -> None:
    site = make_site({"sitegen.yaml": CONFIG, "data/cv.yaml": CV_EN, "data/cv.zh.yaml": CV_ZH,
                      "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\nMy CV.",
                      "content/cv.zh.md": "---\ntitle: 简历\nlayout: cv\n---\n我的简历。"}, layouts=False)
    result = build(site)
    en, zh = html(result, "cv/index.html"), html(result, "zh/cv/index.html")
    assert "Experience" in en and "工作经历" in zh and "我的简历。" in zh and "2022年9月 – 至今" in zh
    assert '<html lang="zh-CN">' in zh
    assert 'href="/zh/cv.pdf"' in zh and 'href="/zh/cv.json"' in zh and 'href="/cv.pdf"' in en
    assert result.files["zh/cv.pdf"].startswith(b"%PDF") and "林雅" in result.files["zh/cv.json"].decode()
    assert "Ada Lin" in result.files["cv.json"].decode()
    assert 'href="/zh/cv/"' in en and 'href="/cv/"' in zh  # each links to the other


@pytest.mark.parametrize("edit", ["zh-body", "en-removed", "zh-added", "i18n", "static"])
def test_a_warm_build_after_an_edit_equals_a_cold_build(make_site: Callable[..., Path], edit: str) -> None:
    site = make_site({"sitegen.yaml": CONFIG, **LAYOUTS, **PAGES})
    memo = BuildMemo()
    build_site(BuildOptions(source=site, now=NOW, jobs=1), memo)
    if edit == "zh-body":
        (site / "content/about.zh.md").write_text("---\ntitle: 关于我\n---\n新的正文。\n", encoding="utf-8")
    elif edit == "en-removed":  # the Chinese menu's link to it no longer falls back to it
        (site / "content/posts/english-only.md").unlink()
    elif edit == "zh-added":  # now the Chinese menu's link stays in Chinese
        (site / "content/posts/english-only.zh.md").write_text("---\ntitle: 中文版\n---\n", encoding="utf-8")
    elif edit == "i18n":
        (site / "i18n/zh.yaml").write_text("read_more: 读下去\n", encoding="utf-8")
    else:
        (site / "static/zh/about").mkdir(parents=True)
        (site / "static/css.css").write_text("x", encoding="utf-8")
    warm = build_site(BuildOptions(source=site, now=NOW, jobs=1), memo).files
    assert warm == build_site(BuildOptions(source=site, now=NOW, jobs=1)).files


def test_a_language_can_have_its_own_prefix_and_content_folder(make_site: Callable[..., Path]) -> None:
    config = CONFIG.replace("weight: 2,", "weight: 2, url_prefix: /cn/, content_dir: content/chinese,")
    site = make_site({"sitegen.yaml": config, **LAYOUTS, "content/about.md": "About",
                      "content/chinese/about.md": "---\ntitle: 关于\n---\n你好", "static/logo.svg": "<svg/>",
                      "layouts/page.html": "{% extends 'base.html' %}{% block main %}"
                                           "<img src=\"{{ url('/logo.svg') }}\">"
                                           "<a href=\"{{ url('/feed.xml') }}\">feed</a>{% endblock %}"})
    files = build(site).files
    assert "cn/about/index.html" in files and "cn/feed.xml" in files and "cn/sitemap.xml" in files
    assert "zh/about/index.html" not in files and "cn/logo.svg" not in files
    page = files["cn/about/index.html"].decode()
    assert '<img src="/logo.svg">' in page and '<a href="/cn/feed.xml">' in page  # static files stay shared
    assert _hreflang(page)["zh-CN"] == "https://ada.example.org/cn/about/"


def test_the_default_theme_has_the_switcher_hreflang_and_translated_strings(make_site: Callable[..., Path]) -> None:
    site = make_site({"sitegen.yaml": CONFIG, **PAGES}, layouts=False)
    result = build(site)
    zh, en = html(result, "zh/posts/one/index.html"), html(result, "posts/one/index.html")
    switcher = re.search(r'<nav class="language-switcher" aria-label="语言">(.*?)</nav>', zh, re.S)
    assert switcher is not None
    assert '<a href="/posts/one/" hreflang="en" lang="en" rel="alternate">English</a>' in switcher.group(1)
    assert '<span aria-current="true" lang="zh-CN">中文</span>' in switcher.group(1)
    assert _hreflang(zh)["x-default"] == "https://ada.example.org/posts/one/"
    assert "跳到正文" in zh and "2026年11月24日" in zh and "1 分钟阅读" in zh
    assert "Skip to content" in en and "November 24, 2026" in en and "1 min read" in en
    only = html(result, "posts/english-only/index.html")
    assert '<a href="/zh/" hreflang="zh-CN" lang="zh-CN">中文</a>' in only  # no translation: that language's home
