"""Dates in front matter: YAML dates, offset datetimes and strings, read the same in every time zone."""

from __future__ import annotations

import datetime as dt
import email.utils
import os
import re

from sitegen.datetext import DATE_ONLY as _DATE_ONLY
from sitegen.datetext import SPACED_OFFSET as _SPACED_OFFSET

UTC = dt.UTC

_RFC_1123 = re.compile(r"^[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}(:\d{2})? ")
"""`Tue, 21 Mar 2023 10:00:00 +0000` (RFC 1123 / RFC 2822, as feeds and Hugo's front matter write it)."""


class DateParseError(ValueError):
    """A value that is not a date; the message says what was expected."""


def parse_date(value: object) -> dt.datetime | None:
    """Turn a front matter value into an aware datetime.

    A date-only value is that calendar date at midnight UTC, so it is the same date whatever TZ the build
    runs in; a naive datetime is taken as UTC; an offset is kept so that the author's local time shows.
    """
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise DateParseError(f"{value!r} is a number, not a date")
    if not isinstance(value, str):
        raise DateParseError(f"expected a date, got {type(value).__name__}")
    text = value.strip()
    if re.fullmatch(r"\d{4}", text):
        return dt.datetime(int(text), 1, 1, tzinfo=UTC)  # Hugo reads a year alone (`'2022'`) as 1 January
    if _DATE_ONLY.match(text):
        y, m, d = (int(p) for p in text.split("-"))
        try:
            return dt.datetime(y, m, d, tzinfo=UTC)
        except ValueError as exc:
            raise DateParseError(f"{text!r} is not a valid date ({exc})") from None
    if _RFC_1123.match(text):
        try:
            parsed = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError):
            raise DateParseError(f"{text!r} is not a valid date") from None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)  # `-0000`: UTC, source unknown
    if spaced := _SPACED_OFFSET.match(text):
        text = f"{spaced[1]}{spaced[2]}"
    try:
        # `2024-03-01 10:00` is read as `2024-03-01T10:00`; the message quotes the text as written.
        parsed = dt.datetime.fromisoformat(text.replace(" ", "T", 1) if " " in text else text)
    except ValueError:
        guess = _read_as_written(text)
        raise DateParseError(f"{text!r} is not a valid date" + (f": write it as {guess}" if guess else "")) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


_HUMAN_FORMATS = ("%b %d, %Y", "%B %d, %Y", "%b %d %Y", "%B %d %Y", "%d %b %Y", "%d %B %Y", "%Y/%m/%d", "%d.%m.%Y")
"""Dates people write (`Nov 23, 2026`, `23 November 2026`, `2026/11/23`): not read, but named in the message."""


def _read_as_written(text: str) -> str | None:
    """The ISO form of a date written in a common human format (for the message), or None."""
    for fmt in _HUMAN_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    return None


def build_time() -> dt.datetime:
    """The moment the build happens: SOURCE_DATE_EPOCH when set (reproducible builds), else now."""
    return source_date_epoch() or dt.datetime.now(tz=UTC)


def source_date_epoch() -> dt.datetime | None:
    """SOURCE_DATE_EPOCH as a datetime, or None when unset: the one place sitegen reads it (the build passes
    the value on as `SitePlan.build_date`; the CV PDF's date comes from there)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=UTC)
    return None


def iso(value: dt.datetime) -> str:
    """RFC 3339 text of an aware datetime (`2024-03-01T00:00:00+00:00`)."""
    return value.isoformat(timespec="seconds")
