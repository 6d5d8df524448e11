"""Cache keys are digests of declared inputs, written out canonically (never `repr()`)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from sitegen.config import parse_config
from sitegen.content.page import parse_page
from sitegen.memo import config_key, key_of, page_meta_key, stable


def test_stable_refuses_values_that_are_not_declared_inputs() -> None:
    with pytest.raises(TypeError):
        stable(object())


def test_stable_writes_dates_dataclasses_and_odd_mapping_keys() -> None:
    when = dt.datetime(2024, 3, 1, tzinfo=dt.UTC)
    assert stable(when) == stable(dt.datetime(2024, 3, 1, tzinfo=dt.UTC))
    assert stable({dt.date(2024, 1, 1): 1}) != stable({dt.date(2024, 1, 2): 1})
    assert key_of("pdf", {"a": [1, 2]}) != key_of("pdf", {"a": [2, 1]})
    assert stable({"blob": b"\x00\x01"}) != stable({"blob": b"\x00\x02"})  # YAML !!binary in data files


def test_a_page_metadata_key_ignores_the_body_only() -> None:
    config, _ = parse_config("title: T\n", "sitegen.yaml")
    page = parse_page("a.md", "---\ntitle: A\n---\nbody\n", config)
    assert page_meta_key("a.md", "/a/", page) == page_meta_key("a.md", "/a/", dataclasses.replace(page, body="x"))
    assert page_meta_key("a.md", "/a/", page) != page_meta_key("a.md", "/a/", dataclasses.replace(page, title="B"))
    assert page_meta_key("a.md", "/a/", page) != page_meta_key("a.md", "/b/", page)


def test_the_config_key_follows_the_configuration() -> None:
    one, _ = parse_config("title: T\n", "sitegen.yaml")
    two, _ = parse_config("title: U\n", "sitegen.yaml")
    assert config_key(one) == config_key(parse_config("title: T\n", "sitegen.yaml")[0])
    assert config_key(one) != config_key(two)
