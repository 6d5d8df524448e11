"""`sitegen build`: build the site in memory, then write it safely."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from sitegen.build import BuildOptions, build_site
from sitegen.cache import load_memo, start_saving_memo
from sitegen.check import check_build, mark_broken_in_source
from sitegen.errors import OutputError
from sitegen.memo import BuildMemo
from sitegen.outdir import check_output_dir, output_lock
from sitegen.parallel import tune_gc_for_builds
from sitegen.render_pages import layout_fallbacks
from sitegen.writer import Staging, write_output


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen build`."""
    parser.add_argument("--source", "-s", type=Path, default=Path("."), help="site folder (default: .)")
    parser.add_argument("--output", "-o", default=None, help="output folder (default: SOURCE/public)")
    parser.add_argument("--drafts", action="store_true", help="include draft pages")
    parser.add_argument("--future", action="store_true", help="include future-dated pages")
    parser.add_argument("--base-url", default=None, help="override base_url (e.g. the GitHub Pages URL)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--no-cache", action="store_true",
                        help="ignore and do not write the build cache (.sitegen-cache/)")
    parser.add_argument("--jobs", "-j", type=int, default=None,
                        help="processes for rendering (default: one per core on large sites)")
    parser.add_argument("--check", action="store_true",
                        help="check internal links before writing; nothing is written when one is broken")
    parser.add_argument("--clean-output", action="store_true",
                        help="delete files in the output folder that this build did not write (dotfiles kept)")


def options_from_args(args: argparse.Namespace) -> BuildOptions:
    """BuildOptions from parsed flags (shared with serve and check)."""
    return BuildOptions(source=args.source, drafts=getattr(args, "drafts", False),
                        future=getattr(args, "future", False), base_url=getattr(args, "base_url", None),
                        strict=getattr(args, "strict", False), jobs=getattr(args, "jobs", None))


def run(args: argparse.Namespace) -> int:
    """Build and write; print warnings and a one-line summary."""
    if args.output is not None and not args.output.strip():
        raise OutputError("the output folder is empty", hint="pass --output public")
    output = Path(args.output) if args.output is not None else args.source / "public"
    out = check_output_dir(output, args.source, clean=args.clean_output)  # refuse an unsafe output before any work
    with output_lock(out):  # one build at a time into one output, from the start: the second is told at once
        staging = Staging(out)  # a first build writes its pages while its feeds and search index are made
        try:
            return _build_and_write(args, output, staging)
        finally:
            staging.discard()


def _build_and_write(args: argparse.Namespace, output: Path, staging: Staging) -> int:
    tune_gc_for_builds()
    memo = None if args.no_cache else load_memo(args.source)
    memo = memo or BuildMemo()
    result = build_site(dataclasses.replace(options_from_args(args), stage=staging.put), memo)
    for warning in result.warnings:
        print(warning.format(), file=sys.stderr)
    if getattr(args, "verbose", False) and result.state is not None and result.basis is not None:
        for note in layout_fallbacks(result.state, result.basis.rendering):
            print(f"{note.path}: note: {note.message}", file=sys.stderr)
    if args.check:
        report = check_build(result)
        mark_broken_in_source(report, args.source)
        if report.errors:
            print(report.format(), file=sys.stderr)
            print("Error: broken links; nothing was written.", file=sys.stderr)
            return 1
        if any(problem.note for problem in report.problems):  # links broken in the imported site already
            print(report.format(), file=sys.stderr)
    # The cache is saved while the output is written (each takes seconds on a large site), both under the lock.
    saved = (start_saving_memo(args.source, memo, allow_outside=result.config.allow_symlinks_outside)
             if not args.no_cache else lambda: None)
    try:
        stats = write_output(result.files, output, args.source, clean=args.clean_output, origins=result.sources,
                             staging=staging)
    finally:
        saved()
    for warning in stats.warnings:
        print(warning.format(), file=sys.stderr)
    if not args.quiet:
        print(f"Built {result.pages} pages, {len(result.files)} files in {result.seconds:.2f}s "
              f"-> {output} ({stats.written} written, {stats.unchanged} unchanged, {stats.deleted} removed)")
    return 0
