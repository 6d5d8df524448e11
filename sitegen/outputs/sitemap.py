"""`/sitemap.xml` with every published page and its last change, and `/robots.txt` pointing to it."""

from __future__ import annotations

from xml.sax.saxutils import escape

from sitegen.outputs.context import OutputContext

_SKIP_KINDS = {"404"}


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """sitemap.xml (and robots.txt unless the site ships its own)."""
    state = ctx.state
    urls = state.urls
    entries: list[tuple[str, str]] = []
    for source, path in state.tree.urls.items():
        view = state.view(source)
        if view is None or view.kind in _SKIP_KINDS or view.params.get("sitemap") is False:
            continue
        stamp = view.lastmod or view.date
        entries.append((urls.absurl(path), stamp.date().isoformat() if stamp else ""))
    entries.sort()
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for loc, lastmod in entries:
        lines.append(f"  <url><loc>{escape(loc)}</loc>" + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "")
                     + "</url>")
    lines.append("</urlset>")
    out = {"sitemap.xml": ("\n".join(lines) + "\n").encode("utf-8")}
    if "robots.txt" not in ctx.files:
        out["robots.txt"] = f"User-agent: *\nAllow: /\n\nSitemap: {urls.absurl('/sitemap.xml')}\n".encode()
    return out
