"""iCalendar files (RFC 5545) of talks: `event.ics` beside each talk page, and `/talks/calendar.ics` with all.

Made with the `icalendar` package: each event carries its zone's VTIMEZONE, a UID that stays the same from build
to build (the site's URL and the page's path), DTSTAMP from the build date, URL, LOCATION, the join link and a
DESCRIPTION from the abstract. DTSTAMP is SOURCE_DATE_EPOCH when set, else the build time truncated to its
day (UTC), so that two builds on one day give the same bytes.
"""

from __future__ import annotations

import datetime as dt
from types import ModuleType
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import sitegen
from sitegen.content.talks import ics_path
from sitegen.content.text import truncate_words
from sitegen.content.urls import output_path_for
from sitegen.outputs.context import OutputContext
from sitegen.views import PageView, SiteState

if TYPE_CHECKING:
    import icalendar


def _ical() -> ModuleType:
    """icalendar, imported when a site has talks (not at every build's start-up: ~25 ms)."""
    import icalendar

    return icalendar

CALENDAR = "talks/calendar.ics"
PRODID = f"-//sitegen//sitegen {sitegen.__version__}//EN"


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """Every talk's `event.ics`, and `talks/calendar.ics` when the site has talks."""
    state = ctx.state
    views = [v for v in map(state.view, sorted(state.plan.talks)) if v is not None and v.talk is not None]
    if not views:
        return {}
    stamp = dtstamp(state)
    # Each VEVENT is serialised once, for its own file and for calendar.ics.
    events = {v.source: (bytes(event.to_ical()), tzid) for v in views for event, tzid in [event_of(state, v, stamp)]}
    zones: dict[str, bytes] = {}  # each VTIMEZONE is made once a build (~10 ms each from zoneinfo)
    out: dict[str, bytes] = {}
    single = frame("")  # one talk's file names no calendar: importing it adds the event to one the reader has
    for view in views:
        path = ics_path(view.path).lstrip("/")
        out[path] = calendar_bytes([events[view.source]], single, zones)
    if CALENDAR not in out and output_path_for("/talks/calendar.ics") not in ctx.files:
        ordered = sorted(views, key=lambda v: (v.talk.talk.start_utc if v.talk else dt.datetime.min, v.source))
        out[CALENDAR] = calendar_bytes([events[v.source] for v in ordered], frame(f"Talks · {state.config.title}"),
                                       zones)
    return out


def dtstamp(state: SiteState) -> dt.datetime:
    """SOURCE_DATE_EPOCH, else the start (UTC) of the build's day."""
    if state.build_date is not None:
        return state.build_date.astimezone(dt.UTC)
    now = (state.plan.now or dt.datetime(1970, 1, 1, tzinfo=dt.UTC)).astimezone(dt.UTC)
    return dt.datetime(now.year, now.month, now.day, tzinfo=dt.UTC)


def uid_of(state: SiteState, view: PageView) -> str:
    """Stable across builds: the page's path on the site, at the site's host (`talks/x@example.org`)."""
    base = state.config.base_url.split("://", 1)[-1].rstrip("/")
    host, _, prefix = base.partition("/")
    path = "/".join(p for p in (prefix, view.path.strip("/")) if p)
    return f"{path or 'index'}@{host or 'localhost'}"


def event_of(state: SiteState, view: PageView, stamp: dt.datetime) -> tuple[icalendar.Event, str]:
    """The VEVENT of one talk page, and the TZID it uses (empty for UTC and all-day talks)."""
    assert view.talk is not None
    talk = view.talk.talk
    event = _ical().Event()
    event.add("uid", uid_of(state, view))
    event.add("dtstamp", stamp)
    start, end = talk.start, talk.end
    if isinstance(start, dt.datetime) and isinstance(end, dt.datetime) and not isinstance(start.tzinfo, ZoneInfo):
        start, end = start.astimezone(dt.UTC), end.astimezone(dt.UTC)  # a fixed offset or UTC: written as UTC
    event.add("dtstart", start)
    event.add("dtend", end)
    event.add("summary", view.title)
    event.add("url", view.permalink)
    # Calendar apps make a link in LOCATION clickable: an online-only talk's location is its join link.
    online_only = not talk.location or talk.location.casefold() in ("online", "virtual", "zoom")
    location = talk.join if talk.join and online_only else talk.location
    if location:
        event.add("location", location)
    description = talk.abstract or truncate_words(view.plain, 300)
    lines = [description] if description else []
    if talk.join:
        lines.append(f"Join: {talk.join}")
        event.add("conference", talk.join, parameters={"value": "URI", "feature": "VIDEO"})
    lines.append(view.permalink)
    event.add("description", "\n\n".join(lines))
    if talk.event:
        event.add("categories", [talk.event])
    return event, start.tzinfo.key if isinstance(start, dt.datetime) and isinstance(start.tzinfo, ZoneInfo) else ""


def frame(name: str) -> tuple[bytes, bytes]:
    """The VCALENDAR's opening (its properties; X-WR-CALNAME when `name` is given) and closing lines."""
    cal = _ical().Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    if name:
        cal.add("x-wr-calname", name)
    head, sep, tail = bytes(cal.to_ical()).rpartition(b"END:VCALENDAR\r\n")
    return head, sep + tail


def calendar_bytes(events: list[tuple[bytes, str]], around: tuple[bytes, bytes], zones: dict[str, bytes]) -> bytes:
    """A VCALENDAR holding the (serialised) events and, before them, a VTIMEZONE for every zone they use
    (`zones` caches each VTIMEZONE by TZID)."""
    used = sorted({tzid for _, tzid in events if tzid})
    for tzid in used:
        if tzid not in zones:
            zones[tzid] = bytes(_ical().Timezone.from_tzid(tzid).to_ical())
    return around[0] + b"".join(zones[tzid] for tzid in used) + b"".join(text for text, _ in events) + around[1]
