"""`sitegen check`: broken internal links, images, stylesheets, scripts and fragments, with source lines."""

from __future__ import annotations

import dataclasses
import html
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from urllib.parse import unquote

from sitegen.build import BuildResult
from sitegen.check.internal import CheckReport, Problem, check_files
from sitegen.content.urls import output_path_for
from sitegen.links import IMPORT_RECORD

__all__ = ["CheckReport", "Problem", "SourceLines", "check_build", "check_directory", "link_sources",
           "mark_broken_in_source"]


class SourceLines(Mapping[str, str]):
    """href -> `content/<file>:<line>` for one page: the links Markdown recorded while rendering, and, on a
    miss, the first body line that spells the href out (a link written as raw HTML in the Markdown)."""

    def __init__(self, source: str, recorded: dict[str, str], body: str, body_line: int) -> None:
        self.source = source
        self.recorded = recorded
        self.body = body
        self.body_line = body_line

    def __getitem__(self, href: str) -> str:
        if href in self.recorded:
            return self.recorded[href]
        for spelled in dict.fromkeys((f'"{href}"', f"'{href}'", f'"{html.escape(href)}"')):
            index = self.body.find(spelled)
            if index >= 0:
                line = self.body_line + self.body.count("\n", 0, index)
                return self.recorded.setdefault(href, f"{self.source}:{line}")
        raise KeyError(href)

    def __iter__(self) -> Iterator[str]:
        return iter(self.recorded)

    def __len__(self) -> int:
        return len(self.recorded)


def link_sources(result: BuildResult) -> dict[str, Mapping[str, str]]:
    """Output page -> href -> `content/<file>:<line>` for every link written in a page's Markdown."""
    state = result.state
    if state is None:
        return {}
    out: dict[str, Mapping[str, str]] = {}
    for source, rendered in state.rendered.items():
        if source not in state.tree.urls:
            continue
        recorded: dict[str, str] = {}
        label = result.labels.get(f"content/{source}", f"content/{source}")  # `_posts/x.md` in a Jekyll site
        for link in [*rendered.links, *rendered.broken_links]:
            recorded.setdefault(link.href, f"{label}:{link.line}")
        page = state.tree.pages[source]
        out[output_path_for(state.tree.urls[source])] = SourceLines(label, recorded, page.body, page.body_line)
    return out


def mark_broken_in_source(report: CheckReport, site_dir: Path, *, strict: bool = False) -> None:
    """Note on each broken link that `sitegen import` found broken in the original site already (its record,
    `IMPORT_RECORD`, in the site folder): the import report named it with its original file and line. Such a
    link is a warning, not a failure (the import made nothing worse), unless `strict`."""
    try:
        record = json.loads((site_dir / IMPORT_RECORD).read_text(encoding="utf-8"))
        entries = [e for e in record.get("broken_in_source", []) if isinstance(e, dict)]
    except (OSError, ValueError, AttributeError):
        return
    known: dict[tuple[str, str], dict[str, str]] = {}
    for entry in entries:
        known.setdefault((str(entry.get("page")), _plain(str(entry.get("href")))), entry)
        known.setdefault(("", _plain(str(entry.get("href")))), entry)
    for i, problem in enumerate(report.problems):
        page = problem.source.rsplit(":", 1)[0] if problem.source else ""
        found = known.get((page, _plain(problem.url)))
        if found is None or problem.severity != "error":
            continue
        note = (f"broken in the original site already ({found.get('where')}; named by `sitegen import`): "
                f"{found.get('what_to_do')}")
        report.problems[i] = dataclasses.replace(problem, note=note,
                                                 severity=problem.severity if strict else "warning")


def _plain(href: str) -> str:
    return unquote(html.unescape(href))


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
