"""XML text and attribute escaping for the feeds and sitemaps: `xml.sax.saxutils`' `escape` and `quoteattr`,
the same output, without importing that module (it imports `urllib.request`, ~20 ms of every build's start)."""

from __future__ import annotations

_ATTRIBUTE = str.maketrans({"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def escape(data: str) -> str:
    """`&`, `<` and `>` as entities (`xml.sax.saxutils.escape`)."""
    return data.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(data: str) -> str:
    """An attribute value with its quotes (`xml.sax.saxutils.quoteattr`): `escape`d, newlines, returns and tabs as
    character references, in double quotes unless it holds a double quote and no single one."""
    data = escape(data).translate(_ATTRIBUTE)
    if '"' in data:
        if "'" in data:
            return '"{}"'.format(data.replace('"', "&quot;"))
        return f"'{data}'"
    return f'"{data}"'
