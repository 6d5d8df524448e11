"""A site's time zone (Jekyll's `timezone:`, Hugo's `timeZone`): front-matter dates written without an offset are
in that zone. Jekyll also converts dates written with an offset into it (`Time.parse(input).localtime`); Hugo
keeps their offset.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import zoneinfo
from typing import Any

_SPACED_OFFSET = re.compile(r"^(\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?) +([+-]\d{2}:?\d{2}|Z)$")
_DATE_ONLY = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
DATE_KEYS = ("date", "lastmod", "publishDate", "publishdate", "expiryDate", "expirydate", "last_modified_at")
"""Front-matter keys holding dates."""


@functools.cache
def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    """The IANA zone (`Europe/Oslo`), or None for an empty or unknown name."""
    if not name.strip():
        return None
    try:
        return zoneinfo.ZoneInfo(name.strip())
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def in_zone(value: Any, zone: dt.tzinfo, *, convert: bool) -> Any:
    """A front-matter date as a datetime in `zone`: a date or a time without an offset is taken to be local to
    the zone; one with an offset keeps it, or is converted (`convert`, Jekyll's rule). Anything else (not a
    date, or one sitegen's own date reader should report) is returned unchanged."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=zone)
        return value.astimezone(zone) if convert else value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, tzinfo=zone)
    if not isinstance(value, str):
        return value
    text = value.strip()
    if date_only := _DATE_ONLY.match(text):
        try:
            year, month, day = (int(g) for g in date_only.groups())
            return dt.datetime(year, month, day, tzinfo=zone)
        except ValueError:
            return value
    if spaced := _SPACED_OFFSET.match(text):
        text = spaced[1] + spaced[2]
    if not re.match(r"^\d{4}-\d{2}-\d{2}[ T]\d", text):
        return value  # RFC 1123 and other forms always carry an offset: read as written
    try:
        parsed = dt.datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError:
        return value
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=zone)
    return parsed.astimezone(zone) if convert else parsed
