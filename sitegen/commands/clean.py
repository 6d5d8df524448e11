"""`sitegen clean`: remove what the last build wrote (per its manifest) and the build cache."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from sitegen.cache import CACHE_DIR, MEMO_FILE
from sitegen.outdir import MANIFEST, check_output_dir, output_lock
from sitegen.writer import write_output

CACHE_FILES = (MEMO_FILE, "external-links.json")
"""The files sitegen keeps in the cache folder (besides its `.gitignore` and temporary files)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen clean`."""
    parser.add_argument("--source", "-s", type=Path, default=Path("."), help="site folder (default: .)")
    parser.add_argument("--output", "-o", type=Path, default=None, help="output folder (default: SOURCE/public)")


def run(args: argparse.Namespace) -> int:
    """Delete sitegen's files only: foreign files, files changed since the build, dotfiles and anything reached
    through a link stay."""
    output = args.output if args.output is not None else args.source / "public"
    out = check_output_dir(output, args.source)
    with output_lock(out):
        manifest = out / MANIFEST
        if manifest.is_file() and not manifest.is_symlink():
            stats = write_output({}, out, args.source)
            for warning in stats.warnings:
                print(warning.format(), file=sys.stderr)
            manifest.unlink()
            if out.is_dir() and not any(out.iterdir()):
                out.rmdir()
    kept = _remove_cache(args.source / CACHE_DIR)
    if not args.quiet:
        print(f"Removed sitegen's files from {output} and the build cache"
              f"{f' (kept {kept}: it is a link)' if kept else ''}.")
    return 0


def _remove_cache(folder: Path) -> str | None:
    """Remove the files sitegen keeps in the cache folder, then the folder when empty; a linked folder is left
    alone (returned)."""
    if folder.is_symlink():
        return str(folder)
    if not folder.is_dir():
        return None
    for entry in os.scandir(folder):
        ours = entry.name in CACHE_FILES or (entry.name.startswith((".build-", ".external-"))
                                             and entry.name.endswith(".tmp"))
        if entry.name == ".gitignore" and entry.is_file(follow_symlinks=False):
            with open(entry.path, "rb") as f:
                ours = f.read() == b"*\n"
        if ours and not entry.is_dir(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
    with contextlib.suppress(OSError):
        folder.rmdir()
    return None
