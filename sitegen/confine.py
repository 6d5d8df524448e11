"""Reads and writes stay inside the site folder: a path whose links lead out of it is refused, unless the site
allows it with `allow_symlinks_outside: true` in sitegen.yaml.

A site is often a clone of someone else's repository, and links travel with it: `content/notes.md ->
~/.ssh/id_rsa` would publish a key, and a linked `.sitegen-cache` would let a build overwrite files anywhere.
"""

from __future__ import annotations

import os
from pathlib import Path

from sitegen.errors import ContentError

ALLOW_HINT = ("copy it into the site, or set `allow_symlinks_outside: true` in sitegen.yaml if the link is "
              "meant to leave the site")


def is_link_loop(path: Path) -> bool:
    """Whether `path` is a link that never reaches a file (a loop, or too deep)."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == 40  # ELOOP
    return False


def outside(path: Path, root: Path) -> Path | None:
    """Where `path` really is when its links lead out of `root` (None when it stays inside)."""
    real = Path(os.path.realpath(path))
    return None if real.is_relative_to(os.path.realpath(root)) else real


def check_inside(path: Path, root: Path, label: str, *, allow: bool = False) -> None:
    """Raise a ContentError naming `label` when `path` is a loop of links, or leads out of `root` (unless
    `allow`)."""
    if is_link_loop(path):
        raise ContentError("a loop of symbolic links", path=label, hint="remove the link or point it at a file")
    target = None if allow else outside(path, root)
    if target is not None:
        raise ContentError(f"a symbolic link to outside the site ({target})", path=label, hint=ALLOW_HINT)
