"""Links an imported page makes to nothing the original site has: broken in the original, named in the report.

    every converted page -> the links and images its body writes (Markdown and HTML, outside code)
    -> each resolved as the browser resolves it, from the URL the page had -> looked up among the original
    site's page URLs and published files -> a note (file:line in the source, what to do) for each one missing

Such a link is broken in the original site too: the import keeps it as written (it is the author's to fix), says
so here, and records it in the new site (`sitegen.links.IMPORT_RECORD`) so that `sitegen check` says the same.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote, urljoin, urlsplit

_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_INLINE_CODE = re.compile(r"`+[^`\n]*`+")
_MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_REFERENCE = re.compile(r"^[ ]{0,3}\[(?!\^)[^\]]+\]:\s*<?([^\s>]+)>?")
_DIGITS = re.compile(r"\d+")
_ATTRIBUTE = re.compile(r"\b(?:href|src)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.I)
_GENERATED = frozenset({"search", "publications", "cv", "news", "talks", "page", "feed.xml", "index.xml",
                        "sitemap.xml", "atom.xml", "404.html", "robots.txt"})
"""First path segments of pages a site generator makes itself (lists, feeds): not judged."""


@dataclass(frozen=True)
class BrokenLink:
    """A link of an imported page that leads to nothing in the original site."""

    page: str
    """The new page (`content/research.md`)."""
    href: str
    """As written in the page."""
    source: str
    """The original file and line (`_pages/research.md:296`)."""
    why: str
    """What to do, as precisely as the original site allows."""


@dataclass(frozen=True)
class OriginalSite:
    """What the original site publishes: its pages' URLs and its files' output paths."""

    urls: frozenset[str]
    """URL paths of its pages (`/posts/x/`)."""
    files: frozenset[str]
    """Output paths of its static files and page resources (`assets/img/a.png`)."""
    taxonomies: frozenset[str] = frozenset()
    """Taxonomy names (`tags`): their term pages are made by the generator."""
    base_path: str = "/"

    def has(self, path: str) -> bool:
        """Whether an URL path (no query or fragment, decoded) is a page or a file of the site."""
        for candidate in self._forms(path):
            if candidate in self.urls or candidate.lstrip("/") in self.files:
                return True
        first = path.strip("/").split("/")[0]
        page_like = posixpath.splitext(path.rstrip("/"))[1] in ("", ".html")
        return (page_like and (first in self.taxonomies or first in _GENERATED)) or path.endswith(".xml")

    def _forms(self, path: str) -> Iterator[str]:
        """The path, without the base path, and as a folder page (`/x` -> `/x/`, `/x/index.html`)."""
        paths = [path]
        if self.base_path != "/" and path.startswith(self.base_path):
            paths.append("/" + path[len(self.base_path):])
        for p in paths:
            yield p
            if p.endswith("/index.html"):
                yield p[: -len("index.html")]
            elif not p.endswith("/"):
                yield p + "/"
                yield p + "/index.html"
            else:
                yield p + "index.html"

    def suggestion(self, path: str, href: str) -> str:
        """What to write instead, when the site has a page or file the link was probably meant for."""
        folded = {u.casefold().rstrip("/"): u for u in self.urls} | {
            "/" + f.casefold(): "/" + f for f in self.files}
        same_case = folded.get(path.casefold().rstrip("/"))
        if same_case:
            return f"only the letter case differs from {same_case} (which works only on hosts that ignore case); " \
                   f"write {same_case}"
        if not href.startswith("/") and "://" not in href:
            rooted = "/" + href.split("#")[0].split("?")[0].lstrip("./")
            if self.has(unquote(rooted)):
                return f"the link is relative: from this page it leads to {path}; write {rooted}"
        folder, name = posixpath.split(path.lstrip("/"))
        stem, ext = posixpath.splitext(name)
        # A misspelt name (`Samle_of_work` for `Sample_of_work`), not a sibling numbered differently (`img_5.png`).
        names = {posixpath.basename(f): f for f in self.files if posixpath.dirname(f) == folder
                 and posixpath.splitext(f)[1] == ext and _DIGITS.sub("#", posixpath.basename(f)) !=
                 _DIGITS.sub("#", name)}
        close = difflib.get_close_matches(name, sorted(names), n=1, cutoff=0.85) if stem else []
        if close:
            return f"the site has /{names[close[0]]}: correct the link's name"
        return "the original site has no page or file there either: add the file, or correct or remove the link"


def _blank_comments(body: str) -> str:
    """`body` with each closed `<!-- … -->` replaced by its line breaks (found with str.find: linear on any input)."""
    parts, at = [], 0
    while (start := body.find("<!--", at)) != -1 and (end := body.find("-->", start + 4)) != -1:
        parts += [body[at:start], "\n" * body.count("\n", start, end)]
        at = end + 3
    return "".join(parts) + body[at:]


def page_links(body: str) -> Iterator[tuple[int, str]]:
    """(0-based line in `body`, href) of each link and image the Markdown or HTML of a page body writes, outside
    fenced and inline code."""
    fenced = None
    body = _blank_comments(body)  # commented out: not shown, not followed
    for number, line in enumerate(body.split("\n")):
        fence = _FENCE.match(line)
        if fence:
            fenced = None if fenced == fence[1] else (fenced or fence[1])
            continue
        if fenced:
            continue
        line = _INLINE_CODE.sub("", line)
        for match in _MARKDOWN_LINK.finditer(line):
            yield number, match[1]
        reference = _REFERENCE.match(line)
        if reference:
            yield number, reference[1]
        for match in _ATTRIBUTE.finditer(line):
            yield number, match[1] if match[1] is not None else match[2]


def broken_links(page: str, source: str, source_text: str, body_line: int, body: str, url: str,
                 site: OriginalSite) -> list[BrokenLink]:
    """The links of one imported page (`body`, the page's URL in the original site `url`) that lead nowhere in
    the original site, located in its original file (`source`, whose text is `source_text` and whose body starts
    on line `body_line`: conversion keeps the body's lines where it can)."""
    out: list[BrokenLink] = []
    seen: set[str] = set()
    lines = source_text.split("\n")
    for number, href in page_links(body):
        try:
            target = _target(href, url)
        except ValueError as e:  # `http://[bad`: not a URL at all (urlsplit: "Invalid IPv6 URL")
            if href not in seen:
                seen.add(href)
                line = _line_of(lines, href, body_line + number, body_line)
                out.append(BrokenLink(page, href, f"{source}:{line}" if line else source,
                                      f"the link cannot be read as a URL ({e}): correct or remove it"))
            continue
        if target is None or href in seen or site.has(target):
            continue
        seen.add(href)
        line = _line_of(lines, href, body_line + number, body_line)
        out.append(BrokenLink(page, href, f"{source}:{line}" if line else source, site.suggestion(target, href)))
    return out


def _target(href: str, page_url: str) -> str | None:
    """The URL path a link leads to from the page, or None for a link that leaves the site or is a fragment;
    ValueError for a link that is no URL (`http://[bad`)."""
    href = href.strip()
    if not href or href.startswith(("#", "//", "{{", "{%")) or "{{" in href:
        return None
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None
    path = urlsplit(urljoin(page_url, href)).path
    return unquote(path) if path else None


def _line_of(lines: list[str], href: str, guess: int, body_line: int) -> int:
    """The line of the original file that spells the link out (with or without its leading `/`): the line the
    converted body has it on when that one does, else the first such line of the body, else that line."""
    bare = href.split("#")[0] or href
    needles = [n for n in dict.fromkeys([href, bare, bare.lstrip("/"), unquote(bare).lstrip("/")]) if n]
    if 0 < guess <= len(lines) and any(n in lines[guess - 1] for n in needles):
        return guess
    for number in range(max(body_line, 1), len(lines) + 1):
        if any(n in lines[number - 1] for n in needles):
            return number
    return guess
