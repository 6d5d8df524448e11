"""`sitegen new DIR` (a starter site) and `sitegen new page|post|talk|project PATH` (a page from an archetype)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sitegen.config import load_config
from sitegen.scaffold import (
    KINDS,
    NewSite,
    default_requirement,
    install_origin,
    new_content,
    new_site,
    requirement_warning,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen new`."""
    parser.add_argument("target", nargs="+", metavar="DIR | KIND PATH",
                        help="a folder for a new site, or `page|post|talk|project PATH` for a new page")
    parser.add_argument("--title", default="My Site")
    parser.add_argument("--author", default="Your Name")
    parser.add_argument("--base-url", default="https://example.org/")
    parser.add_argument("--requirement", metavar="SPEC", default="",
                        help="the requirements.txt line deploys install sitegen from (default: "
                             f"{default_requirement()}); e.g. a fork's `git+https://...` URL, a path or a wheel")
    parser.add_argument("--force", action="store_true", help="add missing files to a non-empty folder")
    parser.add_argument("--source", "-s", type=Path, default=Path("."), help="site folder for a new page")


def run(args: argparse.Namespace) -> int:
    """Create the site or the page and say what was written."""
    if len(args.target) == 2 and args.target[0] in KINDS:
        config, _ = load_config(args.source)
        path = new_content(args.source, args.target[0], args.target[1], theme=config.theme,
                           allow_outside=config.allow_symlinks_outside)
        if not args.quiet:
            print(f"Created {path} (draft: true; remove that line to publish)")
        return 0
    if len(args.target) != 1:
        print(f"usage: sitegen new DIR, or sitegen new {{{','.join(KINDS)}}} PATH")
        return 2
    target = Path(args.target[0])
    done = new_site(target, NewSite(args.title, args.author, args.base_url, args.requirement), force=args.force)
    for path in done.kept:
        print(f"kept {path} as it was (not overwritten)")
    if not args.quiet:
        print(f"Created a new site in {target}: {len(done.written)} files written, {len(done.kept)} kept.\n"
              f"Next: cd {target} && sitegen serve")
    warning = None if args.requirement.strip() else requirement_warning(install_origin(), target / "requirements.txt")
    if warning is not None:
        print(warning.format(), file=sys.stderr)
    return 0
