#!/usr/bin/env python3
"""CPU milliseconds to highlight every fenced code block of a site's Markdown, with Pygments' own regex loop and
with sitegen.markdown.lexing's (only the rules that can match the next character), each in a fresh process (as a
build's worker: lexers made once), interleaved.

    python bench/highlight.py SITE [--rounds 5] [--pages N]

Prints the lowest and the median of each, and their ratio. Figures are printed, never asserted: this machine
is shared.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.M | re.S)


def _blocks(site: Path, pages: int | None) -> list[tuple[str, str]]:
    files = sorted((site / "content").rglob("*.md"))[:pages]
    return [(m.group(1), m.group(2)) for f in files for m in _FENCE.finditer(f.read_text(encoding="utf-8"))]


def _child(site: str, pages: int | None, fast: bool) -> None:
    """Runs in the fresh process: print the CPU milliseconds of highlighting every block."""
    sys.path.insert(0, str(ROOT))
    blocks = _blocks(Path(site), pages)
    start = time.process_time()
    from sitegen.markdown import lexing
    from sitegen.markdown.highlight import highlight_code

    if not fast:
        lexing.install = lambda on=True: None  # type: ignore[assignment]  # highlighting keeps Pygments' loop
    for info, code in blocks:
        highlight_code(code, info)
    print(f"{(time.process_time() - start) * 1000:.1f} {len(blocks)}")


def main() -> int:
    """Parse arguments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pages", type=int, default=None)
    parser.add_argument("--child", choices=("stock", "fast"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(str(args.site), args.pages, args.child == "fast")
        return 0
    times: dict[str, list[float]] = {"stock": [], "fast": []}
    blocks = 0
    for _ in range(args.rounds):
        for mode in times:
            argv = [sys.executable, __file__, str(args.site), "--child", mode]
            if args.pages:
                argv += ["--pages", str(args.pages)]
            ms, count = subprocess.run(argv, check=True, capture_output=True, text=True).stdout.split()
            times[mode].append(float(ms))
            blocks = int(count)
    print(f"{blocks} fenced blocks, {args.rounds} rounds, CPU ms (lowest / median):")
    for mode, label in (("stock", "Pygments' loop"), ("fast", "first characters")):
        print(f"  {label:15} {min(times[mode]):8.1f} / {statistics.median(times[mode]):8.1f}")
    print(f"  stock / first characters: {min(times['stock']) / min(times['fast']):.2f}x (lowest), "
          f"{statistics.median(times['stock']) / statistics.median(times['fast']):.2f}x (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
