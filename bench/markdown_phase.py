"""CPU seconds of a cold build's Markdown phase, in one process, and where they go.

    python bench/markdown_phase.py SITE

Builds SITE once (no cache, `--jobs 1`, output kept in memory: nothing is written) and prints the CPU seconds
of `_render_markdown` (Markdown, front-matter summaries, plain text, word counts and search terms of every
page) and of its parts. One build per process, as a cold build: highlighted code is memoized within a process.
Run it a few times (the machine's noise) and compare the lowest figures.
"""

from __future__ import annotations

import argparse
import functools
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


def timed(owner: Any, name: str, label: str) -> None:
    """Add the CPU seconds of `owner.name` to `SPENT[label]` (nested timings are counted in both)."""
    original: Callable[..., Any] | None = getattr(owner, name, None)
    if original is None:  # not in this version of sitegen
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            SPENT[label] += time.process_time() - start

    setattr(owner, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    args = parser.parse_args()
    timed(build, "_render_markdown", "markdown phase")
    timed(render.MarkdownRenderer, "render", "  MarkdownRenderer.render (bodies and summaries)")
    timed(render.MarkdownRenderer, "render_summary", "  MarkdownRenderer.render_summary")
    timed(render.MarkdownRenderer, "_render_fence", "    code blocks (fences)")
    timed(parallel, "plain_words", "  plain_words")
    timed(parallel, "search_text", "  search_text")
    timed(parallel, "packed_term_weights", "  packed_term_weights")
    build.build_site(build.BuildOptions(source=args.site, jobs=1), BuildMemo())
    for label, seconds in sorted(SPENT.items(), key=lambda item: -item[1]):
        print(f"{label:52s} {seconds:7.3f} s CPU")


if __name__ == "__main__":
    main()
