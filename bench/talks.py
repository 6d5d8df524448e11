#!/usr/bin/env python3
"""Time talks and publications on a generated site: N talks in four time zones, N BibTeX entries.

    python bench/talks.py [--talks 300] [--papers 300] [--runs 3]

Prints the median cold build, and how long the calendar generator (every `event.ics` plus `/talks/calendar.ics`)
takes within it. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sitegen.build import BuildOptions, build_site  # noqa: E402
from sitegen.outputs import calendar  # noqa: E402
from sitegen.outputs.context import OutputContext  # noqa: E402

ZONES = ["Asia/Shanghai", "Europe/Vienna", "America/New_York", "UTC"]
NOW = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)


def make_site(root: Path, talks: int, papers: int) -> None:
    (root / "content/talks").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "sitegen.yaml").write_text("title: Bench\nbase_url: https://bench.example.org/\n"
                                       "publications: {pages: true}\n", encoding="utf-8")
    for i in range(talks):
        day = dt.date(2020, 1, 1) + dt.timedelta(days=5 * i)
        (root / f"content/talks/t{i}.md").write_text(
            f"---\ntitle: Talk {i}\ndate: {day} 09:00\ntimezone: {ZONES[i % 4]}\nend: \"10:30\"\n"
            f"location: Room {i}\nzoom: https://zoom.example.org/j/{i}\n---\nAbstract:\nTalk {i} is about things.\n",
            encoding="utf-8")
    entries = [f"@inproceedings{{k{i},\n  title = {{Paper {i}}},\n  author = {{Lin, Ada and Chen, Bo}},\n"
               f"  booktitle = {{Conf {i % 20}}},\n  year = {{{2000 + i % 25}}},\n  doi = {{10.1/x.{i}}},\n"
               f"  abstract = {{Paper {i} shows things.}},\n}}\n" for i in range(papers)]
    (root / "data/papers.bib").write_text("\n".join(entries), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--talks", type=int, default=300)
    parser.add_argument("--papers", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_site(root, args.talks, args.papers)
        builds, calendars = [], []
        for _ in range(args.runs):
            started = time.perf_counter()
            result = build_site(BuildOptions(source=root, now=NOW, jobs=1))
            builds.append(time.perf_counter() - started)
            assert result.state is not None
            ctx = OutputContext(result.state, root, [], {}, None, "")  # type: ignore[arg-type]
            started = time.perf_counter()
            files = calendar.generate(ctx)
            calendars.append(time.perf_counter() - started)
        size = len(files["talks/calendar.ics"])
        print(f"{args.talks} talks, {args.papers} papers: cold build {statistics.median(builds):.2f} s "
              f"(median of {args.runs}, one process); calendars {statistics.median(calendars) * 1000:.0f} ms "
              f"for {len(files)} .ics files, calendar.ics {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
