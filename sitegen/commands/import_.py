"""`sitegen import hugo|jekyll SRC DEST`: convert a Hugo or Jekyll site into a new sitegen site and report."""

from __future__ import annotations

import argparse
from pathlib import Path

from sitegen.importer import KINDS, import_site


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen import`."""
    parser.add_argument("kind", choices=KINDS, help="the tool the site was made for")
    parser.add_argument("source", type=Path, help="the site folder to import (only read)")
    parser.add_argument("dest", type=Path, help="a new (or empty) folder for the sitegen site")


def run(args: argparse.Namespace) -> int:
    """Import and print the report (every copied file too with --verbose)."""
    report = import_site(args.kind, args.source, args.dest)
    if not args.quiet:
        print(report.format(verbose_copies=args.verbose))
    return 0
