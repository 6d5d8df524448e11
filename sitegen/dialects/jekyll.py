"""Jekyll's naming rules that sitegen already follows for every site (a full Jekyll reader would live here)."""

from __future__ import annotations

import datetime as dt
import re

_DATED_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-(.+)$")


def date_from_filename(stem: str) -> tuple[dt.datetime, str] | None:
    """Jekyll-style `2024-03-10-title` gives (2024-03-10, `title`); anything else (or an impossible date) None."""
    match = _DATED_NAME.match(stem)
    if not match:
        return None
    try:
        date = dt.datetime(int(match[1]), int(match[2]), int(match[3]), tzinfo=dt.UTC)
    except ValueError:
        return None
    return date, match[4]
