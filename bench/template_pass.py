"""CPU seconds of the template pass alone: every page of a site rendered through its templates in one process.

Usage: python bench/template_pass.py SITE [--runs 5]

A full build runs first (its Markdown phase on every core); then `render_pages` renders every page again with
`jobs=1` and a fresh memo, `--runs` times, and the median and least CPU seconds are printed. The memo being fresh,
each run also compiles the templates (~0.1 s). To compare versions, run it once per checkout with that checkout
first on `PYTHONPATH` (`PYTHONPATH=/tmp/old python bench/template_pass.py SITE`). SITE is only read.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

from sitegen.build import BuildOptions, build_site
from sitegen.memo import BuildMemo
from sitegen.parallel import tune_gc_for_builds
from sitegen.render_pages import render_pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tune_gc_for_builds()
    result = build_site(BuildOptions(source=args.site, defer_search=True), BuildMemo())
    if result.state is None or result.basis is None:
        print("the site builds no pages through templates", file=sys.stderr)
        return 1
    how = dataclasses.replace(result.basis.rendering, jobs=1)
    times = []
    for _ in range(args.runs):
        started = time.process_time()
        files = render_pages(result.state, how, [], BuildMemo())
        times.append(time.process_time() - started)
    print(f"template pass, one process: median {statistics.median(times):.3f} CPU s, least {min(times):.3f} "
          f"({len(files)} files, {args.runs} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
