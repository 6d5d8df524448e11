"""Extract links, ids and head metadata from HTML, XML feeds and sitemaps (fast regexes over our own output)."""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass, field

# Every pattern below stops at the next `<` (or is possessive), so crafted pages (`<a<a<a…`, `<title>` never
# closed) are read in linear time: a `.*?` or `[^>]*` would rescan to the end from every start.
_TAG = re.compile(r"<(a|link|img|script|source|iframe|video|audio|area)\b([^<>]*+)>", re.I | re.S)
_ATTR = re.compile(r"""(?<![\w:-])([\w:-]++)\s*+=\s*+(?:"([^"]*+)"|'([^']*+)'|([^\s>]++))""", re.S)
# Literal-first patterns: the regex engine jumps between occurrences of `id`/`name` instead of trying every
# position (three times faster on a 10,000-page site); whether the match is an attribute is checked after.
_ID_ATTRS = (("id", re.compile(r"""id\s*=\s*(?:"([^"]*)"|'([^']*)')""")),
             ("name", re.compile(r"""name\s*=\s*(?:"([^"]*)"|'([^']*)')""")))
_TITLE = re.compile(r"<title>([^<]*+)</title>", re.I | re.S)
_DESCRIPTION = re.compile(r"""<meta\s+name=["']description["']\s+content=["']([^"']*)["']""", re.I)
_XML_URL = re.compile(r"<loc>([^<]*+)</loc>|<link\b[^<>]*?href=\"([^\"<]*+)\"", re.S)

URL_ATTRS = {"href", "src", "poster"}


@dataclass
class PageLinks:
    """What one HTML page links to and defines."""

    links: list[tuple[str, str]] = field(default_factory=list)
    """(kind, url) with kind `a`, `img`, `link`, `script`, ..."""
    ids: list[str] = field(default_factory=list)
    """`id` attributes, in order (duplicates kept, to report them)."""
    anchors: set[str] = field(default_factory=set)
    """Every fragment target: `id` and `name` attributes."""
    title: str = ""
    description: str = ""


def extract(text: str) -> PageLinks:
    """Links, element ids, the title and meta description of one HTML document."""
    text = _drop_comments(text)
    found = PageLinks()
    title = _TITLE.search(text)
    found.title = html.unescape(title.group(1)).strip() if title else ""
    desc = _DESCRIPTION.search(text)
    found.description = html.unescape(desc.group(1)).strip() if desc else ""
    # Markdown and highlighted code escape `<`, so every tag left in the text is real markup, in a code block or not.
    for tag, attrs in _TAG.findall(text):
        for name, v1, v2, v3 in _ATTR.findall(attrs):
            if name.lower() in URL_ATTRS:
                found.links.append((tag.lower(), html.unescape(v1 or v2 or v3)))
    for attr, value in _id_attributes(text):
        found.anchors.add(value)
        if attr == "id":
            found.ids.append(value)
    return found


def _id_attributes(text: str) -> list[tuple[str, str]]:
    """(`id` or `name`, value) of every such attribute inside a tag (a cheap scan, then a check that the match
    sits between `<` and `>`, so text that merely reads `id="x"` does not count)."""
    found = []
    opens = [m.start() for m in re.finditer("<", text)]
    closes = [m.start() for m in re.finditer(">", text)]

    def last(positions: list[int], before: int) -> int:
        i = bisect.bisect_left(positions, before)
        return positions[i - 1] if i else -1

    for attr, pattern in _ID_ATTRS:
        for match in pattern.finditer(text):
            start = match.start()
            if text[start - 1:start].isspace() and last(opens, start) > last(closes, start):
                found.append((start, attr, html.unescape(match.group(1) or match.group(2) or "")))
    return [(attr, value) for _, attr, value in sorted(found)]


def _drop_comments(text: str) -> str:
    """The text without `<!-- … -->` comments (an unclosed one is kept, as before)."""
    if "<!--" not in text:
        return text
    parts, pos = [], 0
    while (start := text.find("<!--", pos)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        parts.append(text[pos:start])
        pos = end + 3
    parts.append(text[pos:])
    return "".join(parts)


def anchors(text: str) -> set[str]:
    """Every fragment target of a page: `id` and `name` attributes."""
    return {value for _, value in _id_attributes(_drop_comments(text))}


def xml_urls(text: str) -> list[str]:
    """URLs in a sitemap (`<loc>`) or an Atom feed (`<link href>`)."""
    return [html.unescape(a or b) for a, b in _XML_URL.findall(text)]

