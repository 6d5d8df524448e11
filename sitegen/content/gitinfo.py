"""Last-modified dates from git history: one batched `git log` for the whole site, never one per page."""

from __future__ import annotations

import dataclasses
import datetime as dt
import subprocess
from pathlib import Path

from sitegen.content.page import Page
from sitegen.content.urls import nfc


def git_lastmods(site_dir: Path) -> dict[str, dt.datetime]:
    """Content-relative path -> committer date of the newest commit touching it ({} outside a git repository)."""
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=site_dir, capture_output=True,
                             text=True, check=True).stdout.strip()
        log = subprocess.run(
            ["git", "-c", "core.quotepath=false", "log", "--name-only", "--no-renames", "--format=%x00%cI",
             "--", "content"], cwd=site_dir, capture_output=True, check=True).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.CalledProcessError):
        return {}
    prefix = (site_dir.resolve() / "content").relative_to(Path(top).resolve()).as_posix() + "/"
    found: dict[str, dt.datetime] = {}
    for record in log.split("\x00")[1:]:
        lines = [line for line in record.splitlines() if line.strip()]
        if not lines:
            continue
        when = dt.datetime.fromisoformat(lines[0].strip())
        for name in lines[1:]:
            name = nfc(name.strip())
            if name.startswith(prefix):
                found.setdefault(name[len(prefix):], when)
    return found


def apply_git_lastmod(pages: list[Page], site_dir: Path, enabled_for_all: bool) -> list[Page]:
    """The pages with `lastmod` from git for those saying `lastmod: git`, or for every page without one when
    enabled (changed copies: parsed pages are shared with the build memo)."""
    if not any(p.lastmod_from_git or (enabled_for_all and p.lastmod is None) for p in pages):
        return pages
    dates = git_lastmods(site_dir)
    return [dataclasses.replace(p, lastmod=dates.get(p.source, p.lastmod))
            if p.lastmod_from_git or (enabled_for_all and p.lastmod is None) else p for p in pages]
