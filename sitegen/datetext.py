"""Front-matter date text as its author wrote it, below every reader of dates (sitegen.content.dates reads and
reports them; a site's time zone, sitegen.dialects.timezones, places those written without an offset)."""

from __future__ import annotations

import datetime as dt
import re

DATE_ONLY = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$")
SPACED_OFFSET = re.compile(r"^(\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?) +([+-]\d{2}:?\d{2}|Z)$")
"""Jekyll's `2020-01-01 10:00:00 -0800` (Ruby's Time#to_s form): a space before the offset."""
ISO_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d")


def read_as_written(value: object) -> dt.datetime | None:
    """A front-matter date as its author wrote it: naive when written without an offset (so that a site's time
    zone can place it), aware when written with one; None for anything that is not an ISO date or date-time
    (RFC 1123 dates always carry an offset; `parse_date` reads and reports everything else)."""
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        if DATE_ONLY.match(text):
            year, month, day = (int(p) for p in text.split("-"))
            return dt.datetime(year, month, day)
        if spaced := SPACED_OFFSET.match(text):
            text = spaced[1] + spaced[2]
        return dt.datetime.fromisoformat(text.replace(" ", "T", 1)) if ISO_DATE_TIME.match(text) else None
    except ValueError:
        return None
