"""A site's time zone (Jekyll's `timezone:`, Hugo's `timeZone`): front-matter dates written without an offset are
in that zone. Jekyll also converts dates written with an offset into it (`Time.parse(input).localtime`); Hugo
keeps their offset.
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from typing import Any

from sitegen.datetext import read_as_written

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
    parsed = read_as_written(value)
    if parsed is None:
        return value
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=zone)
    return parsed.astimezone(zone) if convert else parsed
