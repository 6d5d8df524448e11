"""Talks and other events: when and where a talk page happens, read from its front matter.

A page is a talk when its layout is `talk` or it sits in the top-level `talks/` section. Its front matter:

    date: 2026-12-03 09:00        # the start, local time in `timezone` (a date alone: an all-day event)
    timezone: Asia/Shanghai       # IANA zone; default UTC (an explicit offset in `date` is kept)
    end: "10:30"                  # or `duration: 90` (minutes, or `1h30m`); default one hour
    location: Room 101, Example Hall
    zoom: https://example.zoom.us/j/123   # or `online:`, `join:`, `meeting:`: the join link
    event: Systems Seminar
    abstract: ...                 # else `description`, else the page's text (the calendar's DESCRIPTION)

A talk is published even when it is dated in the future (its date is when it happens, not when it was written);
`publishDate` still holds one back. Reading is pure: `read_talk(page)` returns the `Talk` and the problems.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass

from sitegen.content.page import Page
from sitegen.errors import ContentError, SitegenError

SECTION = "talks"
JOIN_KEYS = ("zoom", "online", "join", "meeting", "teams", "webex")
"""Front matter keys whose value is the link to join a talk online, in the order they are looked for."""
DEFAULT_MINUTES = 60
_ABSTRACT = re.compile(r"^[#*_ \t]*abstract\b[*_ \t]*:?[*_]*\s*", re.IGNORECASE)
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")
_DURATION = re.compile(r"^(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?$")


@dataclass(frozen=True)
class Talk:
    """When, where and how to join one talk."""

    start: dt.datetime | dt.date
    """Aware datetime in the talk's own zone; a plain date for an all-day event."""
    end: dt.datetime | dt.date
    """Aware datetime in the same zone; for an all-day event the day after the last (iCalendar's rule)."""
    timezone: str
    """IANA name (`Asia/Shanghai`), `UTC`, or empty when `date` carried a fixed offset."""
    location: str = ""
    join: str = ""
    """The link to join online (Zoom, Teams, ...)."""
    event: str = ""
    abstract: str = ""
    """From front matter (`abstract`, else `description`); the page's text is used when both are empty."""

    @property
    def all_day(self) -> bool:
        return not isinstance(self.start, dt.datetime)

    @property
    def start_utc(self) -> dt.datetime:
        """The start as an aware UTC datetime (midnight UTC for an all-day event), for sorting and splitting."""
        if isinstance(self.start, dt.datetime):
            return self.start.astimezone(dt.UTC)
        return dt.datetime(self.start.year, self.start.month, self.start.day, tzinfo=dt.UTC)

    @property
    def end_utc(self) -> dt.datetime:
        if isinstance(self.end, dt.datetime):
            return self.end.astimezone(dt.UTC)
        return dt.datetime(self.end.year, self.end.month, self.end.day, tzinfo=dt.UTC)

    def upcoming(self, now: dt.datetime) -> bool:
        """Not over yet at `now` (a talk under way is still upcoming)."""
        return self.end_utc > now


def is_talk(page: Page) -> bool:
    """A regular page with `layout: talk` or in the top-level `talks/` section."""
    if page.kind != "page":
        return False
    return page.layout == "talk" or page.source.split("/", 1)[0] == SECTION and "/" in page.source


def read_talk(page: Page) -> tuple[Talk | None, list[SitegenError]]:
    """The talk of a page (None when it is not a talk or has no date) and the problems in its front matter."""
    if not is_talk(page) or page.date is None:
        return None, []
    errors: list[SitegenError] = []
    path = f"content/{page.source}"
    params = page.params

    def err(message: str, hint: str) -> None:
        errors.append(ContentError(message, path=path, hint=hint))

    zone_name = str(params.get("timezone") or params.get("tz") or "").strip()
    zone: dt.tzinfo = dt.UTC
    if zone_name:
        try:
            zone = zoneinfo.ZoneInfo(zone_name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            err(f"`timezone: {zone_name}` is not a known time zone",
                "write an IANA zone name such as `Europe/Vienna`, `Asia/Shanghai` or `America/New_York`")
            zone_name = ""
    date = page.date
    clock = _CLOCK.match(str(params.get("time") or "").strip())
    if clock and int(clock[1]) < 24 and int(clock[2]) < 60:  # `time: "09:00"` beside a date
        date = date.replace(hour=int(clock[1]), minute=int(clock[2]))
    elif params.get("time"):
        err(f"`time: {params.get('time')}` is not a time of day", "write it as `time: \"09:00\"` (24-hour clock)")
    if date.tzinfo is dt.UTC:  # written without an offset (or with Z): local time in the talk's zone
        start_dt = date.replace(tzinfo=zone)
        zone_name = zone_name or "UTC"
    else:  # an explicit offset wins; shown in the talk's zone when one is named
        start_dt = date.astimezone(zone) if zone_name else date
    all_day = date.tzinfo is dt.UTC and (date.hour, date.minute, date.second) == (0, 0, 0) and \
        not any(params.get(k) for k in ("time", "end", "duration"))
    start: dt.datetime | dt.date = start_dt.date() if all_day else start_dt
    end = _end(params, start_dt, all_day, err)
    join = next((str(params[k]).strip() for k in JOIN_KEYS if params.get(k)), "")
    if join and not re.match(r"^https?://\S+$", join):
        err(f"the join link `{join}` is not a web address", "write the full link, e.g. `zoom: https://…`")
        join = ""
    abstract = str(params.get("abstract") or page.description or "").strip() or abstract_in(page.body)
    return Talk(start=start, end=end, timezone=zone_name, location=str(params.get("location") or "").strip(),
                join=join, event=str(params.get("event") or "").strip(), abstract=abstract), errors


def abstract_in(body: str) -> str:
    """The abstract of a pasted announcement: the paragraph labelled `Abstract:` (the label alone on its line,
    or before the text), as plain text; empty when there is none."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", body) if p.strip()]
    for i, paragraph in enumerate(paragraphs):
        match = _ABSTRACT.match(paragraph)
        if match:
            text = paragraph[match.end():].strip()
            if not text and i + 1 < len(paragraphs):
                text = paragraphs[i + 1]
            return " ".join(text.split())
    return ""


def _end(params: dict[str, object], start: dt.datetime, all_day: bool,
         report: Callable[[str, str], None]) -> dt.datetime | dt.date:
    """`end` (a clock time on the same day, or a date-time), else `duration`, else one hour (all day: one day)."""
    try:
        return _end_of(params, start, all_day, report)
    except OverflowError:  # a date near year 9999, or a duration of centuries
        report("the talk ends after the year 9999", "check `date`, `end` and `duration`")
        return start


def _end_of(params: dict[str, object], start: dt.datetime, all_day: bool,
            report: Callable[[str, str], None]) -> dt.datetime | dt.date:
    if all_day:
        return start.date() + dt.timedelta(days=1)
    end = params.get("end")
    if isinstance(end, dt.datetime):
        return end.astimezone(start.tzinfo) if end.tzinfo else end.replace(tzinfo=start.tzinfo)
    if isinstance(end, str) and end.strip():
        text = end.strip()
        clock = _CLOCK.match(text)
        if clock and int(clock[1]) < 24 and int(clock[2]) < 60:
            value = start.replace(hour=int(clock[1]), minute=int(clock[2]), second=0)
            return value if value > start else value + dt.timedelta(days=1)
        try:
            parsed = dt.datetime.fromisoformat(text)
            return parsed.astimezone(start.tzinfo) if parsed.tzinfo else parsed.replace(tzinfo=start.tzinfo)
        except ValueError:
            report(f"`end: {text}` is neither a time nor a date-time",
                   "write the time it ends, e.g. `end: \"10:30\"`, or `duration: 90` (minutes)")
    minutes = _minutes(params.get("duration"))
    if minutes is None:
        report(f"`duration: {params.get('duration')}` is not a duration",
               "write minutes (`duration: 90`) or hours and minutes (`duration: 1h30m`)")
        minutes = DEFAULT_MINUTES
    return start + dt.timedelta(minutes=minutes)


def _minutes(value: object) -> int | None:
    """Minutes of `duration` (90, `90m`, `1h30m`, `1.5h`); DEFAULT_MINUTES when absent, None when unreadable."""
    if value is None or value == "":
        return DEFAULT_MINUTES
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    text = str(value).strip().lower()
    try:
        if text.endswith("h") and text[:-1].replace(".", "", 1).isdigit():
            return round(float(text[:-1]) * 60)
    except ValueError:
        return None
    match = _DURATION.match(text)
    if match and (match[1] or match[2]):
        return int(match[1] or 0) * 60 + int(match[2] or 0)
    return None


@dataclass(frozen=True)
class TalkView:
    """A talk as templates see it (`page.talk`): the `Talk`'s fields, plus its calendar link and JSON-LD."""

    talk: Talk
    upcoming: bool
    """Not over at the build time."""
    ics: str
    """Site-relative URL of its `event.ics`."""
    jsonld: dict[str, object]
    """schema.org `Event` (absolute URLs); templates write it with `tojson`."""
    body: str = ""
    """The page's HTML; with `plain_text: true`, the line breaks of a pasted announcement kept (`keep_lines`)."""

    def __getattr__(self, name: str) -> object:
        return getattr(self.talk, name)

    @property
    def when(self) -> str:
        """`Thursday, 3 December 2026, 09:00–10:30` in the talk's own zone (the date alone for an all-day talk)."""
        start, end = self.talk.start, self.talk.end
        day = f"{start:%A}, {start.day} {start:%B %Y}"
        if not isinstance(start, dt.datetime) or not isinstance(end, dt.datetime):
            return day
        same_day = end.date() == start.date()
        return f"{day}, {start:%H:%M}–" + (f"{end:%H:%M}" if same_day else f"{end.day} {end:%B}, {end:%H:%M}")

    @property
    def zone(self) -> str:
        """`Asia/Shanghai (UTC+08:00)`; empty for an all-day talk."""
        start = self.talk.start
        if not isinstance(start, dt.datetime):
            return ""
        offset = start.strftime("%z")
        utc = f"UTC{offset[:3]}:{offset[3:]}" if offset not in ("", "+0000") else "UTC"
        name = self.talk.timezone.replace("_", " ")
        return utc if name in ("", "UTC") else f"{name} ({utc})"

    @property
    def iso_start(self) -> str:
        return self.talk.start.isoformat()

    @property
    def iso_end(self) -> str:
        return self.talk.end.isoformat()


_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)
_LABEL = re.compile(r"^[A-Z][\w .()/-]{0,24}:(\s|$)")
SHORT_LINE = 48
"""A line shorter than this ended on purpose (an e-mail wraps prose at 65-78 characters)."""


def keep_lines(html: str) -> str:
    """Line breaks of pasted plain text, where the author meant them: before a `Label:` line, after a line
    ending in `:`, and after a short line; the lines of a hard-wrapped paragraph still flow together."""
    def paragraph(match: re.Match[str]) -> str:
        lines = [_LABEL.sub(lambda m: f"<strong>{m.group(0).rstrip()}</strong> ", line, count=1).rstrip()
                 if not line.startswith("<") else line for line in match.group(1).split("\n")]
        out = lines[0]
        for before, line in zip(lines, lines[1:], strict=False):
            plain = re.sub(r"<[^>]+>", "", before)
            broken = line.startswith("<strong>") or plain.rstrip().endswith(":") or \
                len(plain) < SHORT_LINE
            out += ("<br>\n" if broken else "\n") + line
        return f"<p>{out}</p>"

    return _PARAGRAPH.sub(paragraph, html)


def ics_path(page_path: str) -> str:
    """Site path of a talk's calendar file: `/talks/x/` -> `/talks/x/event.ics` (`/talks/x.html` -> `/talks/x.ics`)."""
    if page_path.endswith("/"):
        return page_path + "event.ics"
    stem, dot, _ = page_path.rpartition(".")
    return (stem if dot and "/" not in page_path[len(stem):] else page_path) + ".ics"


def event_jsonld(talk: Talk, title: str, permalink: str, description: str, performer: str) -> dict[str, object]:
    """schema.org `Event` of a talk: name, start/end, attendance mode, place and/or online location, url."""
    places: list[dict[str, object]] = []
    if talk.location and talk.location.casefold() not in ("online", "virtual", "zoom"):
        places.append({"@type": "Place", "name": talk.location, "address": talk.location})
    if talk.join or (talk.location and not places):
        places.append({"@type": "VirtualLocation", "url": talk.join or permalink})
    online = any(p["@type"] == "VirtualLocation" for p in places)
    offline = any(p["@type"] == "Place" for p in places)
    mode = "Mixed" if online and offline else "Online" if online else "Offline"
    data: dict[str, object] = {
        "@context": "https://schema.org", "@type": "Event", "name": title,
        "startDate": talk.start.isoformat(), "endDate": talk.end.isoformat(),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": f"https://schema.org/{mode}EventAttendanceMode", "url": permalink,
    }
    if places:
        data["location"] = places[0] if len(places) == 1 else places
    if description:
        data["description"] = description
    if performer:
        data["performer"] = {"@type": "Person", "name": performer}
    if talk.event:
        data["superEvent"] = {"@type": "Event", "name": talk.event}
    return data
