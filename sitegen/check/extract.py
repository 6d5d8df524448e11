"""Extract links, ids and head metadata from HTML, XML feeds and sitemaps (fast regexes over our own output)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_TAG = re.compile(r"<(a|link|img|script|source|iframe|video|audio|area)\b([^>]*)>", re.I | re.S)
_ATTR = re.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.S)
_ID = re.compile(r"""<[a-zA-Z][\w:-]*\b[^>]*?\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.S)
_ID_ONLY = re.compile(r"""<[a-zA-Z][\w:-]*\b[^>]*?\sid\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.S)
_TITLE = re.compile(r"<title>(.*?)</title>", re.I | re.S)
_DESCRIPTION = re.compile(r"""<meta\s+name=["']description["']\s+content=["']([^"']*)["']""", re.I)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_PRE = re.compile(r"<(pre|code|script|style)\b.*?</\1>", re.I | re.S)
_XML_URL = re.compile(r"<loc>(.*?)</loc>|<link\b[^>]*href=\"([^\"]*)\"", re.S)

URL_ATTRS = {"href", "src", "poster"}


@dataclass
class PageLinks:
    """What one HTML page links to and defines."""

    links: list[tuple[str, str]] = field(default_factory=list)
    """(kind, url) with kind `a`, `img`, `link`, `script`, ..."""
    ids: list[str] = field(default_factory=list)
    title: str = ""
    description: str = ""


def extract(text: str) -> PageLinks:
    """Links, element ids, the title and meta description of one HTML document."""
    text = _COMMENT.sub("", text)
    found = PageLinks()
    title = _TITLE.search(text)
    found.title = html.unescape(title.group(1)).strip() if title else ""
    desc = _DESCRIPTION.search(text)
    found.description = html.unescape(desc.group(1)).strip() if desc else ""
    body = _PRE.sub(lambda m: m.group(0) if m.group(1).lower() == "script" else "", text)
    for tag, attrs in _TAG.findall(body):
        for name, v1, v2, v3 in _ATTR.findall(attrs):
            if name.lower() in URL_ATTRS:
                found.links.append((tag.lower(), html.unescape(v1 or v2 or v3)))
    found.ids = [html.unescape(a or b) for a, b in _ID_ONLY.findall(text)]
    return found


def anchors(text: str) -> set[str]:
    """Every fragment target of a page: `id` and `name` attributes."""
    return {html.unescape(a or b) for a, b in _ID.findall(_COMMENT.sub("", text))}


def xml_urls(text: str) -> list[str]:
    """URLs in a sitemap (`<loc>`) or an Atom feed (`<link href>`)."""
    return [html.unescape(a or b) for a, b in _XML_URL.findall(text)]
