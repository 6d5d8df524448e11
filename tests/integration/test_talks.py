"""Talks: calendar files (RFC 5545, parsed back with `icalendar`), the upcoming/past split at a fixed build date,
future-dated talks kept, schema.org Event JSON-LD, and a pasted seminar announcement."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from pathlib import Path

import icalendar
import pytest

from sitegen.content.page import Page
from sitegen.content.talks import Talk, read_talk
from sitegen.errors import SitegenError
from tests.conftest import build, html

MakeSite = Callable[..., Path]
NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)

SHANGHAI = """---
title: Pipelines on Mixed GPUs
layout: talk
date: 2026-12-03 09:00
timezone: Asia/Shanghai
end: "10:30"
event: Systems Seminar
location: Room 3-201, Tsinghua University
abstract: How to split a pipeline across cards of different generations.
---
Body of the Shanghai talk.
"""
VIENNA = """---
title: Memory Without Tears
date: 2024-05-15 14:00
timezone: Europe/Vienna
duration: 45
location: Vienna, Austria
---
An overview of rematerialisation.
"""
ANNOUNCEMENT = """---
title: Breaking the Memory Wall
date: 2026-07-14 16:00
timezone: America/New_York
end: "17:00"
location: Gates Hall 122
zoom: https://example.zoom.us/j/91234567890
plain_text: true
---
Systems Lunch
Title: Breaking the Memory Wall
Speaker: Ada Lin, Example University
Date: Tuesday, July 14, 2026
Time: 4:00 - 5:00 PM ET
Place: Gates Hall 122
Zoom: https://example.zoom.us/j/91234567890

Abstract:
Training large models is limited by memory, not arithmetic.
This talk surveys rematerialisation and offloading.

Bio:
Ada Lin works on systems for machine learning.
"""
FILES = {
    "sitegen.yaml": "title: Ada\nbase_url: https://ada.example.org/\nauthor: {name: Ada Lin}\n",
    "content/talks/_index.md": "---\ntitle: Talks\n---\n",
    "content/talks/shanghai.md": SHANGHAI,
    "content/talks/vienna.md": VIENNA,
    "content/talks/lunch.md": ANNOUNCEMENT,
    "content/talks/older.md": "---\ntitle: An Older Talk\ndate: 2023-09-20\n---\nOld.\n",
}


def _events(data: bytes) -> dict[str, icalendar.Event]:
    cal = icalendar.Calendar.from_ical(data)
    return {str(e["summary"]): e for e in cal.walk("VEVENT")}


def test_event_ics_has_utc_times_across_zones_and_a_vtimezone_each(make_site: MakeSite) -> None:
    result = build(make_site(FILES, layouts=False), now=NOW)
    shanghai = _events(result.files["talks/shanghai/event.ics"])["Pipelines on Mixed GPUs"]
    start = shanghai.decoded("dtstart")
    assert start.astimezone(dt.UTC) == dt.datetime(2026, 12, 3, 1, 0, tzinfo=dt.UTC)  # 09:00 CST = 01:00 UTC
    assert shanghai.decoded("dtend").astimezone(dt.UTC) == dt.datetime(2026, 12, 3, 2, 30, tzinfo=dt.UTC)
    vienna = _events(result.files["talks/vienna/event.ics"])["Memory Without Tears"]
    assert vienna.decoded("dtstart").astimezone(dt.UTC) == dt.datetime(2024, 5, 15, 12, 0, tzinfo=dt.UTC)  # CEST
    assert vienna.decoded("dtend").astimezone(dt.UTC) == dt.datetime(2024, 5, 15, 12, 45, tzinfo=dt.UTC)
    assert str(shanghai["url"]) == "https://ada.example.org/talks/shanghai/"
    assert str(shanghai["location"]) == "Room 3-201, Tsinghua University"
    assert "different generations" in str(shanghai["description"])
    assert shanghai.decoded("dtstamp") == dt.datetime(2026, 6, 1, tzinfo=dt.UTC)  # the build's day, not the clock
    calendar = icalendar.Calendar.from_ical(result.files["talks/calendar.ics"])
    assert len(calendar.walk("VEVENT")) == 4
    zones = {str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")}
    assert {"Asia/Shanghai", "Europe/Vienna", "America/New_York"} <= zones
    text = result.files["talks/calendar.ics"].decode()
    assert "DTSTART;TZID=Asia/Shanghai:20261203T090000" in text
    assert "\r\n" in text and "BEGIN:VCALENDAR" in text and "PRODID:" in text and "VERSION:2.0" in text


def test_uids_are_stable_across_builds_and_unique(make_site: MakeSite) -> None:
    site = make_site(FILES, layouts=False)
    first = build(site, now=NOW)
    second = build(site, now=NOW + dt.timedelta(hours=3))
    uids = [str(e["uid"]) for e in icalendar.Calendar.from_ical(first.files["talks/calendar.ics"]).walk("VEVENT")]
    again = [str(e["uid"]) for e in icalendar.Calendar.from_ical(second.files["talks/calendar.ics"]).walk("VEVENT")]
    assert uids == again and len(set(uids)) == 4
    assert "talks/shanghai@ada.example.org" in uids
    assert first.files["talks/calendar.ics"] == second.files["talks/calendar.ics"]  # same day: same bytes


def test_join_link_and_description_of_a_pasted_announcement(make_site: MakeSite) -> None:
    result = build(make_site(FILES, layouts=False), now=NOW)
    event = _events(result.files["talks/lunch/event.ics"])["Breaking the Memory Wall"]
    assert event.decoded("dtstart").astimezone(dt.UTC) == dt.datetime(2026, 7, 14, 20, 0, tzinfo=dt.UTC)  # EDT
    description = str(event["description"])
    assert description.startswith("Training large models is limited by memory")  # the `Abstract:` paragraph
    assert "Join: https://example.zoom.us/j/91234567890" in description
    assert str(event["conference"]) == "https://example.zoom.us/j/91234567890"
    page = html(result, "talks/lunch/index.html")
    assert 'href="https://example.zoom.us/j/91234567890"' in page and "Join online" in page
    # The labelled lines keep their breaks; a hard-wrapped paragraph flows (no break inside it).
    assert "<br>\n<strong>Speaker:</strong> Ada Lin, Example University<br>\n" in page
    assert "<p><strong>Abstract:</strong><br>\nTraining large models is limited by memory, not arithmetic.\n" in page
    assert 'href="/talks/lunch/event.ics"' in page
    assert "16:00–17:00" in page and "America/New York (UTC-04:00)" in page


def test_upcoming_and_past_split_at_the_build_date(make_site: MakeSite) -> None:
    result = build(make_site(FILES, layouts=False), now=NOW)
    page = html(result, "talks/index.html")
    upcoming, _, past = page.partition('id="talks-past"')
    order = re.findall(r'<h3><a href="/talks/(\w+)/">', upcoming)
    assert order == ["lunch", "shanghai"]  # soonest first
    assert re.findall(r'<h3><a href="/talks/(\w+)/">', past) == ["vienna", "older"]  # newest first
    later = html(build(make_site(FILES, layouts=False), now=dt.datetime(2026, 8, 1, tzinfo=dt.UTC)),
                 "talks/index.html")
    assert re.findall(r'<h3><a href="/talks/(\w+)/">', later.partition('id="talks-past"')[2])[0] == "lunch"


def test_a_future_talk_is_published_but_publish_date_still_holds_it_back(make_site: MakeSite) -> None:
    files = {**FILES, "content/talks/held.md": "---\ntitle: Held\ndate: 2027-01-01\npublishDate: 2026-12-01\n---\n"}
    result = build(make_site(files, layouts=False), now=NOW)
    assert "talks/shanghai/index.html" in result.files  # dated after the build, still published
    assert "talks/held/index.html" not in result.files
    assert not any("shanghai" in w.message for w in result.warnings)


def test_talk_pages_carry_event_json_ld(make_site: MakeSite) -> None:
    result = build(make_site(FILES, layouts=False), now=NOW)
    page = html(result, "talks/lunch/index.html")
    block = re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert block
    data = json.loads(block.group(1))
    assert data["@type"] == "Event" and data["name"] == "Breaking the Memory Wall"
    assert data["startDate"] == "2026-07-14T16:00:00-04:00"
    assert data["url"] == "https://ada.example.org/talks/lunch/"
    assert data["eventAttendanceMode"] == "https://schema.org/MixedEventAttendanceMode"
    places = {p["@type"]: p for p in data["location"]}
    assert places["VirtualLocation"]["url"].startswith("https://")
    assert places["Place"]["name"] == "Gates Hall 122"


def test_all_day_talk_is_a_date_event(make_site: MakeSite) -> None:
    result = build(make_site(FILES, layouts=False), now=NOW)
    event = _events(result.files["talks/older/event.ics"])["An Older Talk"]
    assert event.decoded("dtstart") == dt.date(2023, 9, 20) and event.decoded("dtend") == dt.date(2023, 9, 21)


@pytest.mark.parametrize("front, words", [
    ("timezone: Asia/Shangai", "not a known time zone"),
    ('end: "soon"', "neither a time nor a date-time"),
    ("duration: forever", "not a duration"),
    ("duration: 100000000000000", "ends after the year 9999"),  # was an OverflowError traceback
    ("zoom: example.zoom.us/j/1", "not a web address"),
])
def test_bad_talk_front_matter_is_an_error_naming_the_file(make_site: MakeSite, front: str, words: str) -> None:
    files = {**FILES, "content/talks/bad.md": f"---\ntitle: Bad\ndate: 2026-09-01 10:00\n{front}\n---\n"}
    with pytest.raises(SitegenError) as caught:
        build(make_site(files, layouts=False), now=NOW)
    assert words in str(caught.value) and "content/talks/bad.md" in str(caught.value)


def _talk(**params: object) -> Talk:
    page = Page(source="talks/x.md", kind="page", title="X", body="", date=dt.datetime(2027, 3, 1, tzinfo=dt.UTC),
                params=dict(params))
    talk, errors = read_talk(page)
    assert errors == [] and talk is not None
    return talk


def test_time_duration_and_offsets_are_read_as_written() -> None:
    talk = _talk(time="09:30", duration="1h30m", timezone="Europe/Vienna")
    assert talk.start.isoformat() == "2027-03-01T09:30:00+01:00"
    assert talk.end.isoformat() == "2027-03-01T11:00:00+01:00"
    late = _talk(time="23:00", end="00:30", timezone="Asia/Tokyo")
    assert late.end.isoformat() == "2027-03-02T00:30:00+09:00"  # past midnight: the next day
    assert _talk().all_day and _talk(duration=45).end.isoformat() == "2027-03-01T00:45:00+00:00"


def test_a_paginated_talks_list_splits_each_page_and_repeats_no_talk(make_site: MakeSite) -> None:
    config = FILES["sitegen.yaml"] + "paginate: 2\n"
    result = build(make_site({**FILES, "sitegen.yaml": config}, layouts=False), now=NOW)
    first, second = html(result, "talks/index.html"), html(result, "talks/page/2/index.html")
    talk = r'<h3><a href="/talks/(\w+)/">'
    assert re.findall(talk, first) == ["lunch", "shanghai"] and 'id="talks-past"' not in first
    assert re.findall(talk, second) == ["vienna", "older"] and 'id="talks-upcoming"' not in second
    assert 'href="/talks/page/2/"' in first


def test_the_home_page_lists_the_next_talks(make_site: MakeSite) -> None:
    files = {**FILES, "content/_index.md": "---\ntitle: Home\n---\nHi.\n"}
    home = html(build(make_site(files, layouts=False), now=NOW), "index.html")
    section = home.split('id="talks-next-heading"')[1].split("</section>")[0]
    assert re.findall(r'<a href="/talks/(\w+)/">', section) == ["lunch", "shanghai"]


def test_an_undated_talk_page_is_still_listed_and_no_calendar_is_promised(make_site: MakeSite) -> None:
    files = {"content/talks/_index.md": "---\ntitle: Talks\n---\n",
             "content/talks/vienna.md": "---\ntitle: Vienna talk\n---\nSlides soon.\n"}
    result = build(make_site(files, layouts=False), now=NOW)
    page = html(result, "talks/index.html")
    assert 'href="/talks/vienna/"' in page and "calendar.ics" not in page
    assert "talks/calendar.ics" not in result.files
