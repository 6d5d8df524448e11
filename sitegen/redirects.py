"""Redirect pages that work without JavaScript (meta refresh plus canonical link): `page/1/` of a list and
the old URLs in `aliases:`."""

from __future__ import annotations

from html import escape


def redirect_page(target_url: str, absolute: str) -> bytes:
    """A tiny HTML page that sends the reader to `target_url`."""
    t, a = escape(target_url, quote=True), escape(absolute, quote=True)
    return (f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Redirecting…</title>\n'
            f'<link rel="canonical" href="{a}">\n<meta name="robots" content="noindex">\n'
            f'<meta http-equiv="refresh" content="0; url={t}">\n</head>\n'
            f'<body>\n<p>This page has moved to <a href="{t}">{a}</a>.</p>\n</body>\n</html>\n').encode()
