"""`sitegen check`: broken internal links, images, stylesheets, scripts and fragments, with source lines."""

from __future__ import annotations

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
    """Check an already written output folder (no source lines available)."""
    files = {p.relative_to(output).as_posix(): p.read_bytes() for p in sorted(output.rglob("*"))
             if p.is_file() and not any(part.startswith(".") for part in p.relative_to(output).parts)}
    return check_files(files, base_url)
