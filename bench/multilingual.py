#!/usr/bin/env python3
"""Time a site in one language against the same site with every post translated (two languages).

    python bench/multilingual.py [--pages 1000] [--runs 3] [--jobs 1]

Prints, for each site, the pages rendered, the median cold build and a warm build (same memo, nothing
changed), and the cost per rendered page. Figures are printed, never asserted.
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
from sitegen.memo import BuildMemo  # noqa: E402

NOW = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
ONE = "title: Bench\nbase_url: https://example.org/\n"
TWO = ONE + "languages:\n  en: {name: English}\n  zh: {name: 中文, title: 基准}\n"


def make(root: Path, pages: int, translated: bool) -> Path:
    """A site of `pages` posts (each also in Chinese when `translated`)."""
    (root / "content/posts").mkdir(parents=True)
    (root / "sitegen.yaml").write_text(TWO if translated else ONE, encoding="utf-8")
    for i in range(pages):
        head = f"---\ntitle: Post {i}\ndate: 2020-01-{i % 28 + 1:02d}\ntags: [t{i % 40}]\n---\n"
        (root / f"content/posts/p{i:05d}.md").write_text(head + "Some *text* with `code`.\n\n" * 40, encoding="utf-8")
        if translated:
            (root / f"content/posts/p{i:05d}.zh.md").write_text(
                head.replace("Post", "文章") + "一些*文字*和`代码`。\n\n" * 40, encoding="utf-8")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, translated in (("one language", False), ("two languages", True)):
            site = make(Path(tmp) / name.replace(" ", "-"), args.pages, translated)
            options = BuildOptions(source=site, now=NOW, jobs=args.jobs)
            times, rendered = [], 0
            for _ in range(args.runs):
                started = time.perf_counter()
                rendered = build_site(options).pages
                times.append(time.perf_counter() - started)
            memo = BuildMemo()
            build_site(options, memo)
            started = time.perf_counter()
            build_site(options, memo)
            warm = time.perf_counter() - started
            cold = statistics.median(times)
            print(f"{name:14} {rendered:6d} pages  cold {cold:6.2f} s  warm {warm:6.2f} s  "
                  f"{cold / rendered * 1000:5.2f} ms/page")


if __name__ == "__main__":
    main()
