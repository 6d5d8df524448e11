"""Helpers for import tests: write a tool's site from a file map, digest a folder."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from tests.conftest import write_files


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `{relative path: text or bytes}` under `root`."""
    return write_files(root, files)


def digest(root: Path) -> str:
    """One digest of every path, mode and content under `root`."""
    h = hashlib.sha256()
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            path = Path(folder) / name
            h.update(f"{path.relative_to(root)}\0{path.stat().st_mode}\0".encode())
            h.update(path.read_bytes())
    return h.hexdigest()
