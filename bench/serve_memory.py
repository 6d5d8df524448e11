#!/usr/bin/env python3
"""Memory of the dev server across saves: tracemalloc growth per save, and where it is allocated.

    python bench/serve_memory.py --saves 50 --pages 200

Builds a generated site in a ServeSession (as `sitegen serve` does, without sockets), then edits one page
`--saves` times, alternating body edits (quick rebuilds) and front-matter edits (full memoized builds). Prints
the traced memory after a warm-up and at the end, the growth per save, and the top allocation sites of the
growth. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sitegen.build import BuildOptions  # noqa: E402
from sitegen.parallel import tune_gc_for_builds  # noqa: E402
from sitegen.serve.session import ServeSession  # noqa: E402


def make_site(root: Path, pages: int) -> None:
    files = {"sitegen.yaml": "title: Mem\nbase_url: https://example.org/\n",
             "content/_index.md": "---\ntitle: Home\n---\nWelcome.\n"}
    for i in range(pages):
        files[f"content/posts/p{i:04d}.md"] = (f"---\ntitle: Post {i}\ndate: 2024-01-{1 + i % 28:02d}\n"
                                               f"tags: [t{i % 7}]\n---\nText of post {i}.\n\n## Part\n\nMore.\n")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--saves", type=int, default=50)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--mode", choices=("body", "front", "mixed"), default="mixed",
                        help="edit the body only (quick rebuilds), the front matter (full builds), or alternate")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        make_site(site, args.pages)
        tune_gc_for_builds()
        session = ServeSession(BuildOptions(source=site), say=lambda _m: None)
        session.build_once()
        page = site / "content/posts/p0027.md"  # among the newest posts: in the feeds, as a post being written is

        def save(n: int) -> None:
            if args.mode == "body" or (args.mode == "mixed" and n % 2):
                page.write_text(f"---\ntitle: Post 27\ndate: 2024-01-28\ntags: [t6]\n---\nEdit {n}.\n")
            else:
                page.write_text(f"---\ntitle: Post 27 v{n}\ndate: 2024-01-28\ntags: [t6]\n---\nEdit {n}.\n")
            assert session.build_once({page})

        tracemalloc.start(25)
        for n in range(args.warmup):
            save(n)
        gc.collect()
        first = tracemalloc.take_snapshot()
        start_size = tracemalloc.get_traced_memory()[0]
        for n in range(args.warmup, args.warmup + args.saves):
            save(n)
        gc.collect()
        end_size = tracemalloc.get_traced_memory()[0]
        last = tracemalloc.take_snapshot()
        growth = (end_size - start_size) / args.saves
        print(f"pages={args.pages} saves={args.saves} traced after warm-up={start_size / 1e6:.1f} MB "
              f"at end={end_size / 1e6:.1f} MB growth per save={growth / 1e3:.1f} KB "
              f"(builds={session.builds}, quick={session.quick_builds})")
        for stat in last.compare_to(first, "traceback")[:args.top]:
            print(f"  {stat.size_diff / 1e3:+9.1f} KB {stat.count_diff:+6d} blocks")
            for line in stat.traceback.format()[-8:]:
                print("     ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
