"""`sitegen clean`: remove what the last build wrote (per its manifest) and the build cache."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from sitegen.cache import CACHE_DIR
from sitegen.writer import MANIFEST, check_output_dir, write_output


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen clean`."""
    parser.add_argument("--source", "-s", type=Path, default=Path("."), help="site folder (default: .)")
    parser.add_argument("--output", "-o", type=Path, default=None, help="output folder (default: SOURCE/public)")


def run(args: argparse.Namespace) -> int:
    """Delete sitegen's files only: foreign files and dotfiles in the output folder stay."""
    output = args.output if args.output is not None else args.source / "public"
    out = check_output_dir(output, args.source)
    if (out / MANIFEST).is_file():
        write_output({}, out, args.source)
        (out / MANIFEST).unlink()
        if out.is_dir() and not any(out.iterdir()):
            out.rmdir()
    shutil.rmtree(args.source / CACHE_DIR, ignore_errors=True)
    if not args.quiet:
        print(f"Removed sitegen's files from {output} and the build cache.")
    return 0
