"""Issue 16: Hugo's `timeZone`, and config values of the wrong type are located warnings, not silently dropped.

Written from Hugo's configuration docs: `timeZone` "The time zone (or location), e.g. Europe/Oslo, used to parse
front matter dates without such information"; `paginate` / `pagination.pagerSize` an integer; `taxonomies` a map
of singular to plural names; `languages` a map of language keys to tables.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import html
from tests.dialects.hugo.site import HUGO_TOML, build_hugo

POST = "---\ntitle: Late\ndate: 2024-03-10T23:30:00\n---\nBody.\n"


def test_time_zone_places_dates_without_an_offset(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {"hugo.toml": HUGO_TOML + 'timeZone = "America/New_York"\n',
                                   "content/posts/late.md": POST,
                                   "content/posts/offset.md": "---\ntitle: Offset\ndate: 2024-03-10T23:30:00+01:00\n"
                                                              "---\nB\n"})
    page = html(result, "posts/late/index.html")
    assert 'datetime="2024-03-10T23:30:00-04:00"' in page  # New York's daylight time began that night
    feed = result.files["feed.xml"].decode()
    assert "2024-03-10T23:30:00-04:00" in feed and "2024-03-10T23:30:00+00:00" not in feed
    assert 'datetime="2024-03-10T23:30:00+01:00"' in html(result, "posts/offset/index.html")  # Hugo keeps it


@pytest.mark.parametrize("setting, key, expected", [
    ('timeZone = "Mars/X"\n', "timeZone", "an IANA time zone"),
    ('paginate = "ten"\n', "paginate", "a whole number above 0"),
    ('taxonomies = "x"\n', "taxonomies", "a table of singular"),
    ("languages = 5\n", "languages", "a table of languages"),
    ("buildDrafts = \"yes\"\n", "buildDrafts", "true or false"),
])
def test_a_value_of_the_wrong_type_is_a_located_warning(tmp_path: Path, setting: str, key: str,
                                                        expected: str) -> None:
    result = build_hugo(tmp_path, {"hugo.toml": HUGO_TOML + setting, "content/posts/late.md": POST})
    notes = [w for w in result.warnings if f"`{key} = " in w.message]
    assert len(notes) == 1, [str(w) for w in result.warnings]
    assert notes[0].path == "hugo.toml" and notes[0].line == 3 and expected in notes[0].message, str(notes[0])
    assert not any(key in w.message and "does not use" in w.message for w in result.warnings)
    assert "Body." in html(result, "posts/late/index.html")
    if key == "timeZone":
        assert 'datetime="2024-03-10T23:30:00+00:00"' in html(result, "posts/late/index.html")  # UTC, as before


@pytest.mark.parametrize("table, line", [
    ("latest_posts: Newest\nall_posts: [1, 2]\nminutes_read:\n  one: [1]\n  other: x\n", 2),  # sitegen's own form
    ("- id: latest_posts\n  translation: Newest\n- id: all_posts\n  translation: [1, 2]\n", 3),  # go-i18n's (Hugo)
])
def test_a_string_that_is_not_a_text_is_a_located_warning(tmp_path: Path, table: str, line: int) -> None:
    result = build_hugo(tmp_path, {"i18n/en.yaml": table, "content/posts/late.md": POST})
    notes = [w for w in result.warnings if "`all_posts`" in w.message]
    assert [(w.path, w.line) for w in notes] == [("i18n/en.yaml", line)], [str(w) for w in result.warnings]
    home = html(result, "index.html")
    assert "Newest" in home and "All posts" in home  # the theme's text, not `[1, 2]` or `1, 2`
    assert "[1, 2]" not in home and "1, 2" not in home and "['1', '2']" not in home
    if "minutes_read" in table:
        assert any("`minutes_read`" in w.message for w in result.warnings)
        assert "min read" in html(result, "posts/late/index.html")


def test_a_wrong_value_in_config_default_names_its_file(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {"config/_default/hugo.toml": HUGO_TOML,
                                   "config/_default/params.toml": 'description = "d"\n',
                                   "config/_default/pagination.toml": "disableAliases = true\npagerSize = 'ten'\n",
                                   "content/posts/late.md": POST})
    notes = [w for w in result.warnings if "`pagination.pagerSize = " in w.message]
    assert [(w.path, w.line) for w in notes] == [("config/_default/pagination.toml", 2)], [str(w) for w in
                                                                                           result.warnings]
