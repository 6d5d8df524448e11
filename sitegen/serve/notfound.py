"""The dev server's 404 for a page the build left out: a draft, a future-dated or an expired page says why it is
missing and which flag shows it, instead of a bare "not found"."""

from __future__ import annotations

import html
import re

from sitegen.content.tree import ContentTree, LeftOut, show_date

_BODY = re.compile(rb"<body\b[^>]*>", re.I)
_STYLE = ("margin:1rem;padding:1rem 1.25rem;border:2px solid #b45309;border-radius:6px;background:#fffbeb;"
          "color:#1f2937;font:16px/1.5 system-ui,sans-serif")


def explain(why: LeftOut) -> str:
    """Why the page is not served, and how to see it (HTML)."""
    source = f"<code>content/{html.escape(why.source)}</code>"
    date = html.escape(show_date(why.date)) if why.date else ""
    if why.reason == "draft":
        return (f"{source} is a draft (<code>draft: true</code>), and drafts are left out unless you ask for them. "
                "Restart with <code>sitegen serve --drafts</code> to preview it, or delete its "
                "<code>draft: true</code> line to publish it.")
    if why.reason == "future":
        return (f"{source} is dated {date}, which is still to come, and future-dated pages are left out until "
                "their date. Restart with <code>sitegen serve --future</code> to preview it.")
    if why.reason == "headless":
        return (f"{source} is never published (<code>headless: true</code> or <code>build: {{render: never}}</code>,"
                " on it or on a section above it).")
    return (f"{source} expired on {date} (<code>expiryDate</code>), and expired pages are left out. "
            "Set <code>build: {expired: true}</code> in sitegen.yaml to keep it, or change the date.")


def left_out_notices(tree: ContentTree) -> dict[str, str]:
    """Output path (`posts/x/index.html`) -> the explanation, for every left-out page that has one."""
    return {why.output: explain(why) for why in tree.left_out.values() if why.output}


def with_notice(page: bytes | None, notice: str) -> bytes:
    """The site's 404 page with the notice at the top of its body (or a page of its own when there is none)."""
    block = (f'<div role="alert" style="{_STYLE}"><p style="margin:0"><strong>sitegen serve:</strong> '
             f"this page is not in the preview. {notice}</p></div>").encode()
    if page is None:
        return (b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not in the preview</title>'
                b"</head><body>" + block + b"</body></html>")
    match = _BODY.search(page)
    return page[:match.end()] + block + page[match.end():] if match else block + page
