"""Check every internal link, asset and fragment of a built site, in memory, in O(links)."""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote, urljoin, urlsplit

from sitegen.check.extract import PageLinks, anchors, extract, xml_urls

_SKIP_SCHEMES = ("mailto:", "tel:", "data:", "javascript:", "sms:")


@dataclass(frozen=True)
class Problem:
    """One broken thing on one page."""

    page: str
    """Output path of the page (`posts/x/index.html`)."""
    message: str
    url: str = ""
    source: str | None = None
    """`content/posts/x.md:12` when the link was written in Markdown."""
    severity: str = "error"
    """`error` (broken: exit 1) or `warning` (missing title or description, or a link broken in the site it was
    imported from already, see `note`)."""
    note: str = ""
    """Said after the problem: that the link was broken in the site it was imported from already."""


@dataclass
class CheckReport:
    """Everything `sitegen check` found."""

    problems: list[Problem] = field(default_factory=list)
    pages: int = 0
    links: int = 0
    external: list[str] = field(default_factory=list)
    """External URLs seen (checked only with --external)."""
    external_uses: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)
    """External URL -> every (page, source line) that links to it, so a failure is reported on each page."""

    def add_external_failure(self, url: str, error: str) -> None:
        """Report a failed external URL on every page that links to it."""
        for page, source in self.external_uses.get(url, []):
            self.problems.append(Problem(page, f"external link failed: {error}", url, source))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def format(self) -> str:
        """A numbered report grouped by page."""
        lines: list[str] = []
        by_page: dict[str, list[Problem]] = {}
        for problem in self.problems:
            by_page.setdefault(problem.page, []).append(problem)
        n = 0
        for page in sorted(by_page):
            lines.append(f"{page}:")
            for problem in by_page[page]:
                n += 1
                where = f" ({problem.source})" if problem.source else ""
                url = f" {problem.url}" if problem.url else ""
                lines.append(f"  {n}. {problem.severity}: {problem.message}{url}{where}")
                if problem.note:
                    lines.append(f"     {problem.note}")
        errors = len(self.errors)
        inherited = sum(1 for p in self.errors if p.note)
        of_them = f" ({inherited} of them broken in the original site already)" if inherited else ""
        kept = sum(1 for p in self.problems if p.note and p.severity == "warning")
        of_warnings = (f" ({kept} of them links broken in the original site already: fix them there or here; "
                       "`sitegen check --fail-inherited` counts them as broken)" if kept else "")
        lines.append(f"Checked {self.pages} pages and {self.links} links: {errors} broken{of_them}, "
                     f"{len(self.problems) - errors} warnings{of_warnings}.")
        return "\n".join(lines)


@dataclass(frozen=True)
class _Resolved:
    """Where a link leads: `external`, `outside` (the base path), `missing`, or a file (`target`)."""

    outcome: str
    target: str | None = None
    fragment: str = ""


class _Site:
    """Resolves site URLs to output files; each distinct URL is resolved once (a site repeats its menu, tag and
    list links on every page)."""

    def __init__(self, files: Mapping[str, bytes], base_url: str) -> None:
        self.files = files
        parts = urlsplit(base_url)
        self.origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""
        self.base_path = (parts.path or "/") if (parts.path or "/").endswith("/") else parts.path + "/"
        self._anchors: dict[str, set[str]] = {}
        self._resolved: dict[tuple[str, str], _Resolved] = {}
        self.fine: set[str] = set()
        """URLs that mean the same on every page (root-relative, absolute) and were found fine: skipped at once."""

    def target(self, url_path: str) -> str | None:
        """The output file a site path serves, or None."""
        rel = unquote(url_path[len(self.base_path):])
        candidates = [rel + "index.html"] if rel.endswith("/") or rel == "" else [rel, rel + "/index.html"]
        for candidate in candidates:
            if candidate in self.files:
                return candidate
        return None

    def anchors_of(self, path: str) -> set[str]:
        if path not in self._anchors:
            self._anchors[path] = anchors(self.files[path].decode("utf-8", "replace"))
        return self._anchors[path]

    def page_url(self, path: str) -> str:
        url = self.base_path + path
        return url[: -len("index.html")] if url.endswith("/index.html") or url == "/index.html" else url

    def resolve(self, page_url: str, url: str) -> _Resolved:
        """Resolve `url` as written on the page at `page_url` (root-relative and absolute URLs: once per site)."""
        key = ("" if site_wide(url) else page_url, url)
        found = self._resolved.get(key)
        if found is None:
            found = self._resolved[key] = self._resolve(page_url, url)
        return found

    def _resolve(self, page_url: str, url: str) -> _Resolved:
        if url.startswith(("https://", "http://")) and not (self.origin and url.startswith(self.origin)):
            return _Resolved("external")  # the common case, without parsing
        parts = urlsplit(url)
        if parts.scheme or url.startswith("//"):
            if not (self.origin and f"{parts.scheme}://{parts.netloc}" == self.origin):
                return _Resolved("external" if parts.scheme in ("http", "https") else "other")
            url = parts.path + (f"#{parts.fragment}" if parts.fragment else "")
        full = urljoin(page_url, url)
        target_path, _, fragment = full.partition("#")
        target_path = target_path.partition("?")[0]
        if not target_path.startswith(self.base_path):
            return _Resolved("outside")
        normalized = posixpath.normpath(target_path)
        if target_path.endswith("/") and not normalized.endswith("/"):
            normalized += "/"
        target = self.target(normalized)
        return _Resolved("missing" if target is None else "file", target, fragment)


def check_files(files: Mapping[str, bytes], base_url: str,
                sources: Mapping[str, Mapping[str, str]] | None = None) -> CheckReport:
    """Check a site held as `{output path: bytes}`. `sources` maps page -> href -> `content/x.md:line`."""
    site = _Site(files, base_url)
    report = CheckReport()
    sources = sources or {}
    external: dict[str, list[tuple[str, str | None]]] = {}
    # First every page's links and anchors (one parse each), then the links: a fragment target is then
    # always parsed already, whichever order the pages come in.
    pages = {path: extract(files[path].decode("utf-8", "replace")) for path in sorted(files)
             if path.endswith(".html")}
    site._anchors.update((path, found.anchors) for path, found in pages.items())
    for path in sorted(files):
        if path in pages:
            report.pages += 1
            _check_page(site, path, pages[path], report, sources.get(path, {}), external)
        elif path.endswith(".xml"):
            for url in xml_urls(files[path].decode("utf-8", "replace")):
                report.links += 1
                _check_url(site, path, "/", url, report, {}, external, kind="xml")
    report.external = sorted(external)
    report.external_uses = external
    return report


def _check_page(site: _Site, path: str, found: PageLinks, report: CheckReport, sources: Mapping[str, str],
                external: dict[str, list[tuple[str, str | None]]]) -> None:
    text = site.files[path]
    redirect = b'http-equiv="refresh"' in text
    if not redirect:
        if not found.title:
            report.problems.append(Problem(path, "page has no <title>", severity="warning"))
        if not found.description and path != "404.html":
            report.problems.append(Problem(path, "page has no meta description", severity="warning"))
        for dup, count in sorted(Counter(found.ids).items()):
            if count > 1:
                report.problems.append(Problem(path, f"duplicate id `{dup}` ({count} times)"))
    page_url = site.page_url(path)
    report.links += len(found.links)
    fine = site.fine
    for kind, url in found.links:
        if url not in fine:
            _check_url(site, path, page_url, url, report, sources, external, kind=kind)


_MISSING = {"img": "missing image", "link": "missing stylesheet or resource", "script": "missing script"}


def _check_url(site: _Site, path: str, page_url: str, url: str, report: CheckReport, sources: Mapping[str, str],
               external: dict[str, list[tuple[str, str | None]]], kind: str) -> None:
    """Check one link; where it was written (`sources`) is looked up only when there is something to report."""
    written, url = url, url.strip()
    if not url or url.startswith(_SKIP_SCHEMES):
        return
    if url.startswith("#"):
        found = _Resolved("file", path, url[1:])
    else:
        found = site.resolve(page_url, url)
    if found.outcome == "external":
        external.setdefault(url, []).append((path, sources.get(written)))
        return  # never `fine`: every page linking to it is recorded
    elif found.outcome == "outside":
        report.problems.append(Problem(path, f"link outside the site's base path {site.base_path}", url,
                                       sources.get(written)))
    elif found.outcome == "missing":
        report.problems.append(Problem(path, _MISSING.get(kind, "missing page"), url, sources.get(written)))
    elif found.outcome == "file" and found.fragment and found.target and found.target.endswith(".html"):
        fragment = unquote(found.fragment)
        if fragment not in site.anchors_of(found.target):
            report.problems.append(Problem(path, f"missing fragment #{fragment}", url, sources.get(written)))
            return
    if found.outcome in ("file", "other") and site_wide(written):
        site.fine.add(written)


def site_wide(url: str) -> bool:
    """Whether `url` means the same on every page: root-relative, protocol-relative or with a scheme."""
    return url.startswith("/") or ":" in url.partition("/")[0].partition("?")[0].partition("#")[0]
