#!/usr/bin/env python3
"""The writer's cost: a first write, and a rewrite where nothing changed (digests, the manifest, the checks
for links and other repositories), for a generated site of N pages.

    python bench/writer.py --pages 3000 --runs 5

Figures are printed, never asserted: this machine is shared, and a first write is mostly the file system's time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sitegen.build import BuildOptions, build_site  # noqa: E402
from sitegen.writer import digest, write_output  # noqa: E402


def main() -> None:
    """Build once in memory, then time write_output."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        (site / "content/posts").mkdir(parents=True)
        for i in range(args.pages):
            (site / f"content/posts/p{i}.md").write_text(
                f"---\ntitle: P{i}\ntags: [t{i % 40}]\n---\n" + "Some *text* with `code`.\n\n" * 60)
        (site / "sitegen.yaml").write_text("title: T\nbase_url: https://example.org/\n")
        files = build_site(BuildOptions(source=site)).files
        size = sum(map(len, files.values()))
        first, again = [], []
        for i in range(args.runs):
            out = site / f"public{i}"
            started = time.perf_counter()
            write_output(files, out, site)
            first.append(time.perf_counter() - started)
            started = time.perf_counter()
            write_output(files, out, site)
            again.append(time.perf_counter() - started)
            shutil.rmtree(out)
        started = time.perf_counter()
        for data in files.values():
            digest(data)
        digests = time.perf_counter() - started
    print(f"{len(files)} files, {size / 1e6:.1f} MB: first write median {statistics.median(first):.3f}s, "
          f"unchanged rewrite median {statistics.median(again):.3f}s, digests alone {digests:.3f}s")


if __name__ == "__main__":
    main()
