#!/usr/bin/env python3
"""Fuzz a parser entry point for a fixed time with Hypothesis; any exception other than SitegenError is a crash.

    python bench/fuzz.py --minutes 10 --target parse_page  # parse_page | parse_config | markdown | data_file | bibtex

Prints examples tried and crashes found (with the failing input). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import string
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sitegen.config import SiteConfig, parse_config  # noqa: E402
from sitegen.content.page import parse_page  # noqa: E402
from sitegen.content.sources import parse_data_file  # noqa: E402
from sitegen.cv.bibtex import parse_bibtex  # noqa: E402
from sitegen.errors import SitegenError  # noqa: E402
from sitegen.markdown import MarkdownRenderer, RenderContext  # noqa: E402

ALPHABET = list(string.printable) + ["中", "文", "\u200b", "\ufeff", "é", "𝔘", "\x00", "\r", "—", "$", "`", "<"]
TOKENS = ["---\n", "+++\n", "{", "}", "[", "]", ": ", "- ", "> ", "# ", "```", "$$", "<!--more-->", "<div>",
          "</div>", "[^1]", "{#id}", "!!python/object:x", "&a ", "*a ", "2024-13-01", "no", "1.10", "010", "\n\n",
          "|---|", "| a |", "~~", "__", "**", "](../x.md)", "![", "http://x.org", "\t", "    ",
          "@article{", "@string{", "@misc{k,", "title = {", "author = ", " and ", "year = 2024", "month = jan",
          "{\\\"u}", "\\'e", "#", "eprint = ", "}\n", ",\n"]
text = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(alphabet=ALPHABET, max_size=30)), max_size=60).map("".join)
CFG = SiteConfig()
MD = MarkdownRenderer()


def target_parse_page(value: str) -> None:
    parse_page("posts/x.md", value, CFG)


def target_parse_config(value: str) -> None:
    parse_config(value, "sitegen.yaml")


def target_markdown(value: str) -> None:
    MD.render(value, RenderContext(source="x.md", resolve_link=lambda h: None if ".md" in h else h))


def target_data_file(value: str) -> None:
    for name in ("a.yaml", "a.json", "a.toml"):
        try:
            parse_data_file(name, value)
        except SitegenError:
            pass


def target_bibtex(value: str) -> None:
    parse_bibtex(value, "data/x.bib")


TARGETS = {"bibtex": target_bibtex, "parse_page": target_parse_page, "parse_config": target_parse_config,
           "markdown": target_markdown, "data_file": target_data_file}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--target", choices=sorted(TARGETS), required=True)
    args = parser.parse_args()
    func = TARGETS[args.target]
    tried = 0
    crashes: list[tuple[str, str]] = []

    @settings(max_examples=2000, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(text)
    def run(value: str) -> None:
        nonlocal tried
        tried += 1
        try:
            func(value)
        except SitegenError:
            pass
        except Exception as exc:  # noqa: BLE001 - recording crashes is the point
            crashes.append((repr(value)[:500], f"{type(exc).__name__}: {exc}"))

    end = time.monotonic() + args.minutes * 60
    rounds = 0
    while time.monotonic() < end:
        run()
        rounds += 1
    print(f"target={args.target} minutes={args.minutes:g} examples={tried} crashes={len(crashes)}")
    for value, error in crashes[:10]:
        print(f"  CRASH {error}\n    input: {value}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
