"""Configuration parsing: defaults, validation, every error at once with its line."""

from __future__ import annotations

import pytest

from sitegen.config import parse_config
from sitegen.errors import ConfigError, ErrorGroup


def test_defaults() -> None:
    cfg, warnings = parse_config("", "sitegen.yaml")
    assert cfg.title == "My Site"
    assert cfg.language == "en"
    assert cfg.taxonomies == ("categories", "tags")
    assert cfg.theme == "default"
    assert warnings == []


def test_full_config() -> None:
    cfg, _ = parse_config(
        "title: Ada\nbase_url: https://u.github.io/repo\nlanguage: zh-CN\nauthor: {name: Ada, email: a@b.c}\n"
        "menu:\n  - {name: B, url: /b/, weight: 2}\n  - {name: A, url: /a/, weight: 1}\n"
        "taxonomies: {category: categories, tag: tags, series: series}\n"
        "permalinks: {posts: '/posts/:year/:slug/'}\nparams: {color: red}\nbuild: {drafts: true}\n", "sitegen.yaml")
    assert cfg.base_url == "https://u.github.io/repo/"
    assert cfg.base_path == "/repo/"
    assert [m.name for m in cfg.menu] == ["A", "B"]
    assert cfg.taxonomies == ("categories", "tags", "series")
    assert cfg.permalinks == {"posts": "/posts/:year/:slug/"}
    assert cfg.params == {"color": "red"}
    assert cfg.build.drafts is True
    assert cfg.author.email == "a@b.c"


def test_unknown_key_is_a_warning_with_line_and_suggestion() -> None:
    _, warnings = parse_config("title: x\n\ntitel: y\n", "sitegen.yaml")
    assert len(warnings) == 1
    assert warnings[0].line == 3
    assert "titel" in warnings[0].message
    assert warnings[0].hint and "title" in warnings[0].hint


def test_unknown_keys_inside_author_and_menu_entries_are_warnings_on_their_lines() -> None:
    text = "author: {name: A, emial: a@b.c}\nmenu:\n  - {name: A, url: /a/}\n  - name: B\n    url: /b/\n    wieght: 2\n"
    _, warnings = parse_config(text, "sitegen.yaml")
    assert sorted((w.line, w.message) for w in warnings) == [
        (1, "unknown key `author.emial`"), (6, "unknown key `menu.1.wieght`")]


def test_menu_errors_name_the_entry_line() -> None:
    with pytest.raises(ErrorGroup) as info:
        parse_config("menu:\n  - {name: A, url: /a/, weight: high}\n  - {name: B}\n", "sitegen.yaml")
    assert sorted((e.line, e.message) for e in info.value.errors) == [
        (2, "`menu.0.weight`: expected a whole number, got 'high'"), (3, "`menu.1`: entry 2 needs `name` and `url`")]


def test_all_errors_reported_at_once() -> None:
    with pytest.raises(ErrorGroup) as info:
        parse_config("paginate: 0\nbuild: {drafts: maybe}\nbase_url: ftp://x/\nmenu: [{name: a}]\n", "sitegen.yaml")
    lines = sorted(e.line or 0 for e in info.value.errors)
    assert lines == [1, 2, 3, 4]


def test_yaml_syntax_error_has_position() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config("title: x\nmenu: [a\n", "sitegen.yaml")
    assert info.value.line is not None and info.value.path == "sitegen.yaml"


def test_title_no_stays_text() -> None:
    cfg, _ = parse_config("title: no\n", "sitegen.yaml")
    assert cfg.title == "no"
