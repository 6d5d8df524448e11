"""`sitegen check`: broken internal links, images, stylesheets, scripts and fragments, with source lines."""

from __future__ import annotations

import os
from pathlib import Path

from sitegen.build import BuildResult
from sitegen.check.internal import CheckReport, Problem, check_files
from sitegen.content.urls import output_path_for

__all__ = ["CheckReport", "Problem", "check_build", "check_directory", "link_sources"]


def link_sources(result: BuildResult) -> dict[str, dict[str, str]]:
    """Output page -> href -> `content/<file>:<line>` for every link written in Markdown."""
    state = result.state
    if state is None:
        return {}
    out: dict[str, dict[str, str]] = {}
    for source, rendered in state.rendered.items():
        if source not in state.tree.urls:
            continue
        page = output_path_for(state.tree.urls[source])
        where = out.setdefault(page, {})
        for link in [*rendered.links, *rendered.broken_links]:
            where.setdefault(link.href, f"content/{source}:{link.line}")
    return out


def check_build(result: BuildResult) -> CheckReport:
    """Check an in-memory build."""
    return check_files(result.files, result.config.base_url, link_sources(result))


def check_directory(output: Path, base_url: str) -> CheckReport:
    """Check an already written output folder (no source lines available). Only pages, feeds and sitemaps are
    read; every other file only needs to exist (a search index can be tens of megabytes)."""
    files: dict[str, bytes] = {}
    for folder, dirs, names in os.walk(output):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = Path(folder).relative_to(output).as_posix()
        prefix = "" if rel == "." else rel + "/"
        for name in names:
            if name.startswith("."):
                continue
            if name.endswith((".html", ".xml")):
                with open(os.path.join(folder, name), "rb") as handle:
                    files[prefix + name] = handle.read()
            else:
                files[prefix + name] = b""
    return check_files(dict(sorted(files.items())), base_url)
