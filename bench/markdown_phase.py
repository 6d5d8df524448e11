"""CPU seconds of a cold build's Markdown phase, and where they go.

    python bench/markdown_phase.py SITE [--jobs N]

Builds SITE once (no cache, output kept in memory: nothing is written) and prints the wall and CPU seconds of
`_render_markdown` (Markdown, front-matter summaries, plain text, word counts and search terms of every page;
CPU of the build process and of its render workers). With `--jobs 1` (the default) it renders in this process
and also prints the CPU seconds of the parts. One build per process, as a cold build: highlighted code and
normalized links are memoized within a process. Run it a few times (the machine's noise) and compare the
lowest figures.
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sitegen.build as build
import sitegen.markdown.render as render
import sitegen.parallel as parallel
from sitegen.memo import BuildMemo

SPENT: dict[str, float] = defaultdict(float)


def _cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def timed(owner: Any, name: str, label: str, clock: Callable[[], float] = time.process_time) -> None:
    """Add the seconds of `owner.name` by `clock` to `SPENT[label]` (nested timings are counted in both)."""
    original: Callable[..., Any] | None = getattr(owner, name, None)
    if original is None:  # not in this version of sitegen
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return original(*args, **kwargs)
        finally:
            SPENT[label] += clock() - start

    setattr(owner, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    timed(build, "_render_markdown", "markdown phase, CPU s (with workers)", _cpu)
    timed(build, "_render_markdown", "markdown phase, wall s", time.perf_counter)
    if args.jobs == 1:
        timed(render.MarkdownRenderer, "render", "  MarkdownRenderer.render")
        timed(render.MarkdownRenderer, "render_summary", "  MarkdownRenderer.render_summary")
        fence = "_fence" if hasattr(render.MarkdownRenderer, "_fence") else "_render_fence"  # before: _render_fence
        timed(render.MarkdownRenderer, fence, "    code blocks (fences)")
        timed(parallel, "plain_words", "  plain_words")
        timed(parallel, "search_text", "  search_text")
        timed(parallel, "packed_term_weights", "  packed_term_weights")
    build.build_site(build.BuildOptions(source=args.site, jobs=args.jobs), BuildMemo())
    for label, seconds in SPENT.items():
        print(f"{label:40s} {seconds:7.3f}")


if __name__ == "__main__":
    main()
