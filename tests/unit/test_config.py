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
