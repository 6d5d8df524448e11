"""iCalendar files (RFC 5545) of talks: `event.ics` beside each talk page, and `/talks/calendar.ics` with all.

Made with the `icalendar` package: each event carries its zone's VTIMEZONE, a UID that stays the same from build
to build (the site's URL and the page's path), DTSTAMP from the build date, URL, LOCATION, the join link and a
DESCRIPTION from the abstract. DTSTAMP is SOURCE_DATE_EPOCH when set, else the build time truncated to its
day (UTC), so that two builds on one day give the same bytes.
"""

from __future__ import annotations

import datetime as dt

import icalendar

import sitegen
from sitegen.content.talks import ics_path
from sitegen.content.text import truncate_words
from sitegen.content.urls import output_path_for
from sitegen.outputs.context import OutputContext
from sitegen.views import PageView, SiteState

CALENDAR = "talks/calendar.ics"
PRODID = f"-//sitegen//sitegen {sitegen.__version__}//EN"


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """Every talk's `event.ics`, and `talks/calendar.ics` when the site has talks."""
    state = ctx.state
    views = [v for v in map(state.view, sorted(state.plan.talks)) if v is not None and v.talk is not None]
    if not views:
        return {}
    stamp = dtstamp(state)
    events = {v.source: event_of(state, v, stamp) for v in views}
    out: dict[str, bytes] = {}
    for view in views:
        path = ics_path(view.path).lstrip("/")
        out[path] = calendar_bytes(state, [events[view.source]], view.title)
    if CALENDAR not in out and output_path_for("/talks/calendar.ics") not in ctx.files:
        ordered = sorted(views, key=lambda v: (v.talk.talk.start_utc if v.talk else dt.datetime.min, v.source))
        out[CALENDAR] = calendar_bytes(state, [events[v.source] for v in ordered],
                                       f"Talks · {state.config.title}")
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


def event_of(state: SiteState, view: PageView, stamp: dt.datetime) -> icalendar.Event:
    """The VEVENT of one talk page."""
    assert view.talk is not None
    talk = view.talk.talk
    event = icalendar.Event()
    event.add("uid", uid_of(state, view))
    event.add("dtstamp", stamp)
    event.add("dtstart", talk.start)
    event.add("dtend", talk.end)
    event.add("summary", view.title)
    event.add("url", view.permalink)
    location = talk.location or (talk.join and "Online") or ""
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
    return event


def calendar_bytes(state: SiteState, events: list[icalendar.Event], name: str) -> bytes:
    """A VCALENDAR holding the events and a VTIMEZONE for every zone they use."""
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    for event in events:
        cal.add_component(event)
    cal.add_missing_timezones()
    return bytes(cal.to_ical())
