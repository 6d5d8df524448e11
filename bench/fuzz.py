#!/usr/bin/env python3
"""Fuzz a parser entry point for a fixed time with Hypothesis; any exception other than SitegenError is a crash.

    python bench/fuzz.py --minutes 10 --target parse_page
    # targets: parse_page | parse_config | config_data | markdown | data_file | bibtex | cv | cv_data | regexes

Each input runs under a time check: one that takes over `--hang` seconds (2 by default) is a hang. Text
targets mix parser tokens (fences, brackets, attribute and fence-option syntax, BibTeX macros) with random
text; the `*_data` targets dump random structures keyed like the real schema, to reach validation. Prints
examples tried, crashes and hangs (with the failing input). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import datetime as dt
import faulthandler
import importlib
import json
import pkgutil
import re
import string
import sys
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml  # noqa: E402

import sitegen  # noqa: E402
from sitegen.config import SiteConfig, parse_config  # noqa: E402
from sitegen.content.page import parse_page  # noqa: E402
from sitegen.content.sources import parse_by_extension, parse_data_file  # noqa: E402
from sitegen.cv.bibtex import parse_bibtex  # noqa: E402
from sitegen.cv.jsonresume import json_resume_bytes  # noqa: E402
from sitegen.cv.markdown import render_markdown_cv  # noqa: E402
from sitegen.cv.model import build_cv  # noqa: E402
from sitegen.cv.pdf import typst_source  # noqa: E402
from sitegen.cv.schema import TOP_LEVEL  # noqa: E402
from sitegen.cv.source import _plain, cv_options  # noqa: E402
from sitegen.cv.validate import key_lines, validate_cv  # noqa: E402
from sitegen.errors import SitegenError  # noqa: E402
from sitegen.markdown import MarkdownRenderer, RenderContext  # noqa: E402

ALPHABET = list(string.printable) + ["中", "文", "\u200b", "\ufeff", "é", "𝔘", "\x00", "\r", "—", "$", "`", "<"]
TOKENS = ["---\n", "+++\n", "{", "}", "[", "]", ": ", "- ", "> ", "# ", "```", "$$", "<!--more-->", "<div>",
          "</div>", "[^1]", "{#id}", "!!python/object:x", "&a ", "*a ", "2024-13-01", "no", "1.10", "010", "\n\n",
          "|---|", "| a |", "~~", "__", "**", "](../x.md)", "![", "http://x.org", "\t", "    ",
          "@article{", "@string{", "@misc{k,", "title = {", "author = ", " and ", "year = 2024", "month = jan",
          "{\\\"u}", "\\'e", "#", "eprint = ", "}\n", ",\n",
          # the attribute layer, fence options, heading attributes, shortcode-like and LaTeX syntax
          '<div markdown="1">\n', "<div a=a ", ' markdown=1>', "</div>\n", "<span markdown='block'>",
          "```python {linenos=true hl_lines=[1,2]}\n", "{linenos=", 'hl_lines="', "a=[", " {#a .b}\n", "{#",
          "## x {.c}", "<title>", "<!--", "-->", "\\verb", "\\href{", "\\url{", "$", "{{< x >}}", "{% x %}",
          "a.a.a.", "[[a]]\n", "= ", "'''", '"""', "9" * 50, "&x", "\\", "@string{a = b # b}\n"]
text = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(alphabet=ALPHABET, max_size=30)), max_size=60).map("".join)
CFG = SiteConfig()
MD = MarkdownRenderer()

CV_KEYS = sorted(TOP_LEVEL) + ["name", "title", "startDate", "endDate", "date", "url", "entries", "location",
                               "highlights", "tags", "releaseDate", "authors", "doi", "arxiv", "key", "email",
                               "profiles", "network", "summary", "present", "selected", "type", "x"]
CONFIG_KEYS = sorted(f.name for f in SiteConfig.__dataclass_fields__.values()) + [
    "pdf", "name_variants", "variants", "bibtex", "paper", "font_paths", "enabled", "markdown", "unsafe_html",
    "menu", "url", "weight", "taxonomies", "permalinks", "x"]


def _structures(keys: list[str]) -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                        st.text(alphabet=ALPHABET, max_size=20), st.sampled_from(TOKENS),
                        st.dates(dt.date(1000, 1, 1), dt.date(3000, 1, 1)).map(str))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(keys), inner, max_size=6)), max_leaves=40)


cv_structure = st.dictionaries(st.sampled_from(CV_KEYS), _structures(CV_KEYS), max_size=8)
config_structure = st.dictionaries(st.sampled_from(CONFIG_KEYS), _structures(CONFIG_KEYS), max_size=8)


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


def _cv_pipeline(text: str, label: str) -> None:
    """What a build does with one CV file, short of writing the PDF: validate, model, JSON Resume, Markdown, Typst."""
    data = parse_by_extension(text, label)
    errors = validate_cv(data, label, key_lines(text))
    if errors or not isinstance(data, dict):
        return
    plain = _plain(data)
    cv = build_cv(plain, "en", ["A. Lin"])
    json_resume_bytes(plain)
    render_markdown_cv(cv)
    typst_source(cv, "a4")


def target_cv(value: str) -> None:
    for label in ("data/cv.yaml", "data/cv.json"):
        try:
            _cv_pipeline(value, label)
        except SitegenError:
            pass


def target_cv_data(value: Any) -> None:
    for label, text in (("data/cv.yaml", yaml.safe_dump(value, allow_unicode=True)),
                        ("data/cv.json", json.dumps(value, ensure_ascii=False))):
        try:
            _cv_pipeline(text, label)
        except SitegenError:
            pass


def target_config_data(value: Any) -> None:
    config, _ = parse_config(yaml.safe_dump(value, allow_unicode=True), "sitegen.yaml")
    cv_options(config)


def _patterns() -> list[re.Pattern[str]]:
    """Every module-level compiled pattern in sitegen (the audit list of regexes that see user text)."""
    found: dict[int, re.Pattern[str]] = {}
    for info in pkgutil.walk_packages(sitegen.__path__, "sitegen."):
        if info.name.endswith("__main__"):
            continue
        for value in vars(importlib.import_module(info.name)).values():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found[id(value)] = value
    return list(found.values())


PATTERNS: list[re.Pattern[str]] = []


def target_regexes(value: str) -> None:
    """Each pattern over the input repeated to ~20 KB: a quadratic pattern shows up as a hang."""
    if not PATTERNS:
        PATTERNS.extend(_patterns())
    big = value * (20_000 // max(len(value), 1)) if value else ""
    for pattern in PATTERNS:
        pattern.search(big)
        pattern.findall(big)
        pattern.fullmatch(big)


TARGETS = {"bibtex": target_bibtex, "parse_page": target_parse_page, "parse_config": target_parse_config,
           "markdown": target_markdown, "data_file": target_data_file, "cv": target_cv, "cv_data": target_cv_data,
           "config_data": target_config_data, "regexes": target_regexes}
STRATEGIES = {"cv_data": cv_structure, "config_data": config_structure}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--hang", type=float, default=2.0, help="seconds one input may take")
    parser.add_argument("--target", choices=sorted(TARGETS), required=True)
    args = parser.parse_args()
    func = TARGETS[args.target]
    tried = 0
    slowest, slowest_input, slowest_cpu = 0.0, "", 0.0
    crashes: list[tuple[str, str]] = []
    hangs: list[tuple[str, float, float]] = []

    @settings(max_examples=2000, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(STRATEGIES.get(args.target, text))
    def run(value: Any) -> None:
        nonlocal tried, slowest, slowest_input, slowest_cpu
        tried += 1
        # A true hang (no return at all) dumps the stack and ends the run instead of blocking it.
        faulthandler.dump_traceback_later(max(30.0, args.hang * 10), exit=True)
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            func(value)
        except SitegenError:
            pass
        except Exception as exc:  # noqa: BLE001 - recording crashes is the point
            crashes.append((repr(value)[:500], f"{type(exc).__name__}: {exc}"[:300]))
        finally:
            faulthandler.cancel_dump_traceback_later()
            # Wall time is the bound; CPU time tells a slow input from a busy machine (it is shared).
            took, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            slowest_cpu = max(slowest_cpu, cpu)
            if took > slowest:
                slowest, slowest_input = took, repr(value)[:500]
            if took > args.hang:
                hangs.append((repr(value)[:500], took, cpu))

    end = time.monotonic() + args.minutes * 60
    while time.monotonic() < end:
        run()
    print(f"target={args.target} minutes={args.minutes:g} examples={tried} crashes={len(crashes)} "
          f"hangs={len(hangs)} slowest={slowest:.3f}s slowest_cpu={slowest_cpu:.3f}s")
    print(f"  slowest input: {slowest_input}")
    for value, error in crashes[:10]:
        print(f"  CRASH {error}\n    input: {value}")
    for value, took, cpu in hangs[:10]:
        print(f"  HANG {took:.1f}s (CPU {cpu:.1f}s)\n    input: {value}")
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
