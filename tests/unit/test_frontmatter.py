"""Front matter: YAML/TOML/JSON, YAML 1.2 scalars, positions, BOM and CRLF."""

from __future__ import annotations

import datetime as dt

import pytest

from sitegen.config import SiteConfig
from sitegen.content.frontmatter import normalize_text, split_front_matter
from sitegen.content.page import parse_page
from sitegen.errors import ContentError, SitegenError

CFG = SiteConfig()


def test_yaml_front_matter_and_body_line() -> None:
    fm = split_front_matter("---\ntitle: A\ntags: [x]\n---\nbody\n", "a.md")
    assert fm.format == "yaml"
    assert fm.data == {"title": "A", "tags": ["x"]}
    assert fm.body == "body\n"
    assert fm.body_line == 5


def test_toml_front_matter() -> None:
    page = parse_page("a.md", '+++\ntitle = "T"\ndate = 2024-03-01\ntags = ["a"]\n+++\nhi\n', CFG)
    assert page.title == "T"
    assert page.date == dt.datetime(2024, 3, 1, tzinfo=dt.UTC)
    assert page.taxonomies["tags"] == ["a"]


def test_json_front_matter() -> None:
    page = parse_page("a.md", '{\n  "title": "J",\n  "weight": 3\n}\nbody text\n', CFG)
    assert page.title == "J"
    assert page.weight == 3
    assert page.body.strip() == "body text"


@pytest.mark.parametrize("yaml_text, key, expected", [
    ("title: no", "title", "no"),
    ("title: yes", "title", "yes"),
    ("slug: 010", "slug", "010"),
    ("title: on", "title", "on"),
])
def test_yaml_12_scalars_stay_as_written(yaml_text: str, key: str, expected: str) -> None:
    page = parse_page("a.md", f"---\n{yaml_text}\n---\n", CFG)
    assert getattr(page, key) == expected


def test_tag_list_keeps_on_and_version_numbers() -> None:
    page = parse_page("a.md", "---\ntitle: x\ntags: [on, 1.10, 2]\n---\n", CFG)
    assert page.taxonomies["tags"] == ["on", "1.10", "2"]


def test_unknown_keys_are_params() -> None:
    page = parse_page("a.md", "---\ntitle: x\nvenue: NeurIPS\nsearch: false\n---\n", CFG)
    assert page.params == {"venue": "NeurIPS", "search": False}


def test_bom_and_crlf_read_like_lf() -> None:
    lf = parse_page("a.md", "---\ntitle: T\n---\n# H\ntext\n", CFG)
    crlf = parse_page("a.md", "\ufeff---\r\ntitle: T\r\n---\r\n# H\r\ntext\r\n", CFG)
    assert (lf.title, lf.body, lf.body_line) == (crlf.title, crlf.body, crlf.body_line)
    assert normalize_text("\ufeffa\r\nb\rc") == "a\nb\nc"


def test_no_front_matter_title_from_first_heading() -> None:
    page = parse_page("notes/x.md", "Intro\n\n## Real Title\n\ntext", CFG)
    assert page.title == "Real Title"


def test_no_front_matter_and_no_heading_title_from_file_name() -> None:
    assert parse_page("notes/my-notes.md", "just text", CFG).title == "my-notes"


def test_unclosed_front_matter_names_line_and_fix() -> None:
    with pytest.raises(ContentError) as info:
        parse_page("a.md", "---\ntitle: x\nbody", CFG)
    assert info.value.line == 1
    assert "never closed" in info.value.message
    assert info.value.hint and "---" in info.value.hint


def test_bad_yaml_line_counted_from_top_of_file() -> None:
    text = "---\ntitle: ok\ndate: 2024-01-01\ntags: [a, b\nx: 1\n---\n"
    with pytest.raises(ContentError) as info:
        parse_page("a.md", text, CFG)
    assert info.value.line is not None and 4 <= info.value.line <= 5
    assert info.value.path == "a.md"


def test_several_bad_keys_are_reported_together() -> None:
    with pytest.raises(SitegenError) as info:
        parse_page("a.md", "---\ntitle: x\ndate: 2024-13-01\nslug: ../x\ndraft: maybe\n---\n", CFG)
    text = info.value.format()
    assert "a.md:3:1" in text and "a.md:4:1" in text and "a.md:5:1" in text


def test_jekyll_file_name_gives_date_and_slug() -> None:
    page = parse_page("posts/2024-03-10-my-title.md", "---\ntitle: T\n---\n", CFG)
    assert page.date == dt.datetime(2024, 3, 10, tzinfo=dt.UTC)
    assert page.slug == "my-title"


def test_front_matter_date_wins_over_file_name() -> None:
    page = parse_page("posts/2024-03-10-x.md", "---\ndate: 2020-01-02\n---\n", CFG)
    assert page.date == dt.datetime(2020, 1, 2, tzinfo=dt.UTC)


def test_hidden_from_home_page_and_hidden() -> None:
    assert parse_page("a.md", "---\nhiddenFromHomePage: true\n---\n", CFG).hidden
    assert parse_page("a.md", "---\nhidden: true\n---\n", CFG).hidden


def test_layout_path_traversal_is_refused() -> None:
    with pytest.raises(ContentError, match="layout"):
        parse_page("a.md", "---\nlayout: ../../../etc/passwd\n---\n", CFG)
