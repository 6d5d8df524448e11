"""`sitegen check`: build (or read --output) and check every link; exit 1 when anything is broken."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sitegen.build import build_site
from sitegen.cache import cache_folder
from sitegen.check import check_build, check_directory, mark_broken_in_source
from sitegen.check.external import check_external
from sitegen.commands.build import options_from_args
from sitegen.dialects import load_site_config


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen check`."""
    parser.add_argument("--source", "-s", type=Path, default=Path("."), help="site folder (default: .)")
    parser.add_argument("--output", "-o", type=Path, default=None,
                        help="check this already built folder instead of building")
    parser.add_argument("--external", action="store_true", help="also check external links (uses the network)")
    parser.add_argument("--drafts", action="store_true")
    parser.add_argument("--future", action="store_true")
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--fail-inherited", action="store_true",
                        help="links that `sitegen import` found broken in the original site fail the check too")


def run(args: argparse.Namespace) -> int:
    """Check and print the report."""
    config, _ = load_site_config(args.source)
    if args.output is not None:
        report = check_directory(args.output, args.base_url or config.base_url)
    else:
        report = check_build(build_site(options_from_args(args)))
        mark_broken_in_source(report, args.source, strict=args.fail_inherited)
    if args.external and report.external:
        folder = cache_folder(args.source, allow_outside=config.allow_symlinks_outside)
        cache = folder / "external-links.json" if folder is not None else None
        for result in check_external(report.external, cache):
            if not result.ok:
                report.add_external_failure(result.url, result.error)
    text = report.format()
    print(text, file=sys.stdout if not report.errors else sys.stderr)
    return 1 if report.errors else 0
