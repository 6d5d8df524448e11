#!/usr/bin/env python3
"""Time the CV PDF (Typst): the example site's English and Chinese CVs and a generated three-page CV.

    python bench/cv_pdf.py [--runs 5]

Prints, per CV, its page count, the first compile (fonts loaded, Typst started) and the median of the
following ones. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pypdf import PdfReader  # noqa: E402

from sitegen.config import load_config  # noqa: E402
from sitegen.cv.model import CV, build_cv  # noqa: E402
from sitegen.cv.pdf import render_pdf  # noqa: E402
from sitegen.cv.publication import merge_publications  # noqa: E402
from sitegen.cv.source import cv_options, discover_bibtex, discover_cvs  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def long_cv() -> CV:
    """A CV of more than three A4 pages: 30 jobs with highlights and 12 papers."""
    work = [{"name": f"Org {i}", "position": f"Role {i}", "startDate": "2001", "endDate": "2003",
             "summary": "Built and ran **systems** for training large models; see [the report](https://example.org).",
             "highlights": [f"First highlight of {i}", f"Second highlight of {i}", f"Third highlight of {i}"]}
            for i in range(30)]
    pubs = [{"name": f"Paper {i}: a study of memory-efficient training", "authors": ["Ada Lin", "Bo Chen"],
             "releaseDate": "2020-05", "venue": f"Venue {i}", "doi": f"10.1000/x{i}"} for i in range(12)]
    return build_cv({"basics": {"name": "Ada Lin", "label": "Researcher"}, "work": work, "publications": pubs},
                    "en", ["Ada Lin"], None, "")


def example_cvs() -> list[tuple[str, CV]]:
    """The example site's CVs, publications from its BibTeX included."""
    config, _ = load_config(REPO)
    options = cv_options(config)
    sources, _ = discover_cvs(REPO, config.language)
    publications, _ = discover_bibtex(REPO, options.bibtex, config.path)
    names = options.name_variants + [str((s.data.get("basics") or {}).get("name") or "") for s in sources]
    return [(f"example {s.path}", build_cv(merge_publications(s.data, publications), s.lang, names, None, ""))
            for s in sources]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("| CV | pages | first compile s | next compiles, median s |")
    print("|---|--:|--:|--:|")
    for label, cv in [*example_cvs(), ("generated long CV", long_cv())]:
        started = time.perf_counter()
        pdf = render_pdf(cv)
        first = time.perf_counter() - started
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            render_pdf(cv)
            times.append(time.perf_counter() - started)
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        print(f"| {label} | {pages} | {first:.3f} | {statistics.median(times):.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
