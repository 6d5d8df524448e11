"""`languages:` in the config, splitting pages by language, and translation tables (pure: strings in)."""

from __future__ import annotations

import datetime as dt

import pytest
from markupsafe import Markup

from sitegen.config import parse_config
from sitegen.content.languages import language_of_file, split_languages
from sitegen.content.page import parse_page
from sitegen.dialects.hugo_languages import go_date_layout, hugo_languages, single_language
from sitegen.errors import SitegenError
from sitegen.i18n import MissingTranslation, Strings, Translator, missing_warnings, parse_table


def test_languages_are_read_with_the_default_first_and_their_own_settings() -> None:
    config, warnings = parse_config(
        "title: Site\nlanguage: zh\nlanguages:\n"
        "  en: {name: English, weight: 1, title: Site EN, params: {x: 1}}\n"
        "  zh: {name: 中文, weight: 2, code: zh-CN, date_format: '%Y年', menu: [{name: 关于, url: /about/}]}\n")
    assert warnings == []
    assert [lang.key for lang in config.languages] == ["zh", "en"]  # `language:` names the default
    assert config.language == "zh-CN"
    zh = config.languages[0]
    assert zh.tag == "zh-CN" and zh.name == "中文" and zh.date_format == "%Y年"
    assert zh.menu is not None and zh.menu[0].url == "/about/"
    assert config.languages[1].params == {"x": 1}


def test_language_config_errors_are_reported_together_with_lines() -> None:
    with pytest.raises(SitegenError) as caught:
        parse_config("languages:\n  en: {}\n  'not a lang': {}\n  fr: {url_prefix: /en/}\n"
                     "  de: [1]\ndefault_language: es\n")
    text = caught.value.format()
    assert "`not a lang` is not a language name" in text
    assert "`default_language`: `es` is not one of" in text
    assert "expected a mapping" in text


def test_two_languages_cannot_share_a_prefix() -> None:
    with pytest.raises(SitegenError) as caught:
        parse_config("languages:\n  en: {}\n  zh: {url_prefix: /cn/}\n  fr: {url_prefix: cn}\n")
    assert "share the URL prefix /cn/" in caught.value.format()


def test_an_unknown_key_of_a_language_is_a_warning_on_its_line() -> None:
    _, warnings = parse_config("languages:\n  en:\n    titel: x\n")
    assert [(w.message, w.line) for w in warnings] == [("unknown key `languages.en.titel`", 3)]


@pytest.mark.parametrize(("name", "expected"), [
    ("about.zh.md", ("zh", "about.md")), ("posts/x/index.fr.md", ("fr", "posts/x/index.md")),
    ("_index.pt-br.md", ("pt-br", "_index.md")), ("about.md", None), ("notes.version2.md", None),
])
def test_a_translation_file_name_gives_its_language(name: str, expected: tuple[str, str] | None) -> None:
    assert language_of_file(name) == expected


def test_pages_split_by_suffix_and_by_folder_with_language_free_sources() -> None:
    config, _ = parse_config("languages: {en: {}, zh: {}}\n")
    pages = [parse_page(rel, text, config) for rel, text in [
        ("about.md", "a"), ("about.zh.md", "b"), ("zh/posts/x.md", "c"), ("posts/y.md", "d"),
        ("posts/b/index.zh.md", "e"), ("posts/b/index.md", "f")]]
    sites, errors, warnings = split_languages(config, pages, ["posts/b/fig.png", "images/logo.png"])
    assert errors == [] and warnings == []
    en, zh = sites
    assert sorted(p.source for p in en.pages) == ["about.md", "posts/b/index.md", "posts/y.md"]
    assert sorted(p.source for p in zh.pages) == ["about.md", "posts/b/index.md", "posts/x.md"]
    assert zh.origins == {"about.md": "about.zh.md", "posts/x.md": "zh/posts/x.md",
                          "posts/b/index.md": "posts/b/index.zh.md"}
    assert zh.output_prefix == "zh/" and zh.config.language_prefix == "/zh/" and en.output_prefix == ""
    # a bundle's files go with each language's bundle; loose files only with the default language
    assert zh.resources == ["posts/b/fig.png"] and en.resources == ["images/logo.png", "posts/b/fig.png"]


def test_a_title_taken_from_a_translation_file_name_loses_the_language() -> None:
    config, _ = parse_config("languages: {en: {}, zh: {}}\n")
    sites, _, _ = split_languages(config, [parse_page("notes.zh.md", "no title", config)], [])
    assert sites[1].pages[0].title == "notes"


TABLES = Strings({
    "en": {"read_more": "Read more", "minutes": {"one": "{count} minute", "other": "{count} minutes"},
           "page_n_of_m": "Page {n} of {total}", "only_en": "Only English",
           "months": ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"]},
    "zh": {"read_more": "阅读全文", "minutes": "{count} 分钟", "page_n_of_m": "第 {n} 页，共 {total} 页",
           "date_format": "%Y年%-m月%-d日"},
    "fr": {"read_more": "Lire la suite", "hugo": "{{ .Count }} minutes"},
})


def test_strings_have_plurals_parameters_and_fall_back_to_the_default_language() -> None:
    en, zh = Translator(TABLES, "en"), Translator(TABLES, "zh-CN")
    assert (en("read_more"), zh("read_more")) == ("Read more", "阅读全文")
    assert (en("minutes", count=1), en("minutes", count=3), zh("minutes", count=3)) == (
        "1 minute", "3 minutes", "3 分钟")
    assert zh("page_n_of_m", n=2, total=5) == "第 2 页，共 5 页"
    assert zh("only_en") == "Only English"
    assert Translator(TABLES, "fr")("hugo", count=2) == "2 minutes"
    with pytest.raises(MissingTranslation):
        en("nope")


def test_dates_and_numbers_follow_the_language() -> None:
    day = dt.date(2026, 11, 24)
    assert Translator(TABLES, "zh").format_date(day) == "2026年11月24日"
    assert Translator(TABLES, "en").format_date(day) == "November 24, 2026"
    assert Translator(TABLES, "en", date_format="%-d %B %Y").format_date(day) == "24 November 2026"
    # a template written for English month names still gives Chinese dates in Chinese
    assert Translator(TABLES, "en").format_date(day, "%B %-d, %Y", "zh") == "2026年11月24日"
    assert Translator(TABLES, "en").number(1234567) == "1,234,567"


def test_a_date_formatted_once_is_given_again_only_for_the_same_text_zone_format_and_language() -> None:
    en = Translator(TABLES, "en")
    utc = dt.datetime(2026, 11, 24, 23, 30, tzinfo=dt.UTC)
    tokyo = utc.astimezone(dt.timezone(dt.timedelta(hours=9), "JST"))
    fixed = utc.astimezone(dt.timezone(dt.timedelta(hours=9)))
    assert utc == tokyo == fixed  # the same instant, written three ways
    assert en.format_date(utc, "%Y-%m-%d %H:%M %Z") == "2026-11-24 23:30 UTC"
    assert en.format_date(tokyo, "%Y-%m-%d %H:%M %Z") == "2026-11-25 08:30 JST"
    assert en.format_date(fixed, "%Y-%m-%d %H:%M %Z") == "2026-11-25 08:30 UTC+09:00"
    assert en.format_date(utc.replace(tzinfo=None), "%d %Z") == "24 "  # naive
    assert en.format_date(dt.date(2026, 11, 24)) == en.format_date(dt.date(2026, 11, 24)) == "November 24, 2026"
    assert en.format_date(dt.date(2026, 11, 24), lang="zh") == "2026年11月24日"
    assert en.format_date(dt.date(2026, 11, 24), "%b %Y") == "Nov 2026"

    class Zone(dt.tzinfo):
        """A zone at UTC+0 named GMT, in daylight saving time or not (Dublin's winter and London's)."""

        def __init__(self, dst: int) -> None:
            self.saving = dt.timedelta(hours=dst)

        def utcoffset(self, when: dt.datetime | None) -> dt.timedelta:
            return dt.timedelta(0)

        def dst(self, when: dt.datetime | None) -> dt.timedelta:
            return self.saving

        def tzname(self, when: dt.datetime | None) -> str:
            return "GMT"

    london, dublin = (dt.datetime(2024, 1, 15, 12, tzinfo=Zone(saving)) for saving in (0, -1))
    for when in (london, dublin):  # (`%s` reads the daylight saving flag, where the C library has it)
        assert en.format_date(when, "%s %Z") == Translator(TABLES, "en").format_date(when, "%s %Z")
    with pytest.raises(AttributeError, match="month"):  # not a date: the error names what it lacks, as it did
        en.format_date("2024-01-01")  # type: ignore[arg-type]


def test_missing_strings_are_listed_once_per_key_and_language() -> None:
    warnings = missing_warnings(TABLES, [("en", "en"), ("zh", "zh-CN"), ("de", "de")])
    messages = [w.message for w in warnings]
    assert messages.count("the string `only_en` has no `zh` translation: the `en` text is shown") == 1
    assert any("no translation table for `de`" in m for m in messages)
    assert missing_warnings(TABLES, [("en", "en")]) == []


def test_hugo_translation_files_are_read() -> None:
    table = parse_table("- id: read_more\n  translation: Weiterlesen\n- id: n\n  translation:\n    one: eins\n", "x")
    assert table == {"read_more": "Weiterlesen", "n": {"one": "eins"}}
    with pytest.raises(SitegenError):
        parse_table("read_more: [unclosed\n", "i18n/de.yaml")


def test_a_hugo_languages_table_reads_as_sitegen_languages() -> None:
    raw = {"en": {"languageName": "English", "weight": 1, "params": {"dateFormat": "January 2, 2006"}},
           "zh": {"languageName": "中文", "languageCode": "zh-CN", "weight": 2, "title": "林雅",
                  "contentDir": "content/zh", "subtitle": "副标题",
                  "menus": {"main": [{"name": "关于", "pageRef": "/about", "weight": 1},
                                     {"name": "文章", "url": "/posts/", "weight": 2}]}},
           "fr": {"languageName": "Français", "disabled": True}}
    languages, warnings = hugo_languages(raw, "en", [], "hugo.toml")
    assert warnings == []
    en, zh = languages
    assert (en.key, en.name, en.date_format) == ("en", "English", "%B %-d, %Y")
    assert (zh.tag, zh.name, zh.title, zh.content_dir) == ("zh-CN", "中文", "林雅", "content/zh")
    assert zh.params == {"subtitle": "副标题"}
    assert zh.menu is not None and [(m.name, m.url) for m in zh.menu] == [("关于", "/about/"), ("文章", "/posts/")]
    one, _ = hugo_languages({"en": {"title": "Mine", "languageCode": "en-GB"}}, "en", [], "hugo.toml")
    assert single_language(one) == {"language": "en-GB", "title": "Mine"}
    assert go_date_layout("2006-01-02") == "%Y-%m-%d"


def test_a_string_with_an_html_parameter_escapes_its_text_and_keeps_the_html() -> None:
    strings = Strings({"en": {"browse": "Browse {tags} <instead>", "of": "Profiles of {name}"}})
    out = Translator(strings, "en")("browse", tags=Markup('<a href="/tags/">tags</a>'))
    assert out == Markup('Browse <a href="/tags/">tags</a> &lt;instead&gt;')
    assert Translator(strings, "en")("of", name="<b>") == "Profiles of <b>"  # plain text: the template escapes it


def test_a_date_formatted_again_gives_its_text_and_equal_dates_in_two_zones_keep_theirs() -> None:
    translator = Translator(TABLES, "en")
    utc = dt.datetime(2026, 11, 24, 23, 30, tzinfo=dt.UTC)
    tokyo = utc.astimezone(dt.timezone(dt.timedelta(hours=9), "JST"))
    assert utc == tokyo
    for _ in range(2):  # the second time from what the first one remembered
        assert translator.format_date(utc, "%Y-%m-%d %H:%M %Z") == "2026-11-24 23:30 UTC"
        assert translator.format_date(tokyo, "%Y-%m-%d %H:%M %Z") == "2026-11-25 08:30 JST"
        assert translator.format_date(utc, "%b %-d") == "Nov 24"


def test_a_markup_format_and_a_zone_of_ones_own_are_formatted_each_time() -> None:
    """What the date filter remembers is never taken for a call it would answer otherwise: a `Markup` format
    (equal to the same `str`, but its `replace` escapes the month's name) and a `tzinfo` whose answers change (the
    same date-time object formatted again)."""
    months = ["de gener", "de febrer", "de març", "d'abril", "de maig", "de juny", "de juliol", "d'agost",
              "de setembre", "d'octubre", "de novembre", "de desembre"]
    for first, second in (("%-d %B", Markup("%-d %B")), (Markup("%-d %B"), "%-d %B")):
        translator = Translator(Strings({"ca": {"months": months}}), "ca", "ca")
        day = dt.date(2024, 4, 5)
        answers = {type(fmt): translator.format_date(day, fmt) for fmt in (first, second)}
        assert answers == {str: "5 d'abril", Markup: "5 d&#39;abril"}

    class Shifting(dt.tzinfo):
        hours = 1

        def utcoffset(self, _: dt.datetime | None) -> dt.timedelta:
            return dt.timedelta(hours=self.hours)

        def tzname(self, _: dt.datetime | None) -> str:
            return f"UTC+{self.hours}"

        def dst(self, _: dt.datetime | None) -> dt.timedelta:
            return dt.timedelta(0)

    zone = Shifting()
    when = dt.datetime(2024, 1, 1, tzinfo=zone)
    translator = Translator(Strings({}), "en")
    assert translator.format_date(when, "%H:%M %Z %z") == "00:00 UTC+1 +0100"
    zone.hours = 2
    assert translator.format_date(when, "%H:%M %Z %z") == "00:00 UTC+2 +0200"
