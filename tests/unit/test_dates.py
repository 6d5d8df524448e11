"""Dates: YAML dates, offsets, strings; the same calendar date in every time zone."""

from __future__ import annotations

import datetime as dt

import pytest

from sitegen.content.dates import DateParseError, parse_date
from sitegen.dialects.jekyll import date_from_filename


def test_date_only_is_that_calendar_date() -> None:
    value = parse_date(dt.date(2024, 3, 1))
    assert value is not None and (value.year, value.month, value.day) == (2024, 3, 1)
    assert parse_date("2024-03-01") == value


def test_offset_is_kept() -> None:
    value = parse_date("2023-02-03T16:49:14+08:00")
    assert value is not None
    assert value.utcoffset() == dt.timedelta(hours=8)
    assert value.hour == 16


def test_naive_datetime_is_utc() -> None:
    value = parse_date("2024-03-01 10:30")
    assert value == dt.datetime(2024, 3, 1, 10, 30, tzinfo=dt.UTC)


def test_z_suffix() -> None:
    assert parse_date("2024-03-01T10:00:00Z") == dt.datetime(2024, 3, 1, 10, tzinfo=dt.UTC)


@pytest.mark.parametrize("bad", ["2024-13-01", "yesterday", "2024-02-30", 20240301])
def test_invalid_dates_are_errors(bad: object) -> None:
    with pytest.raises(DateParseError):
        parse_date(bad)


def test_empty_is_none() -> None:
    assert parse_date(None) is None
    assert parse_date("") is None


def test_filename_dates() -> None:
    assert date_from_filename("2024-03-10-title") == (dt.datetime(2024, 3, 10, tzinfo=dt.UTC), "title")
    assert date_from_filename("2024-13-10-title") is None
    assert date_from_filename("title") is None
