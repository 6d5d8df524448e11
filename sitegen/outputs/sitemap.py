"""`/sitemap.xml` with every published page and its last change, and `/robots.txt` pointing to it.

A multilingual site has one sitemap per language (`/en/sitemap.xml`, `/zh/sitemap.xml`), each page listing its
translations as `xhtml:link` alternates, and `/sitemap.xml` is the index of those sitemaps, as Hugo makes them.
"""

from __future__ import annotations

from sitegen.content.languages import LanguageSite, Version
from sitegen.outputs.context import OutputContext
from sitegen.outputs.xmltext import escape
from sitegen.views import SiteState

_SKIP_KINDS = {"404"}


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """sitemap.xml (and robots.txt unless the site ships its own)."""
    state = ctx.state
    urls = state.urls
    translations = state.plan.translations
    entries: list[tuple[str, str, tuple[Version, ...]]] = []
    for source, path in state.tree.urls.items():
        view = state.view(source)
        if view is None or view.kind in _SKIP_KINDS or view.params.get("sitemap") is False:
            continue
        stamp = view.lastmod or view.date
        versions = translations.versions.get(source, ()) if translations else ()
        entries.append((urls.absurl(path), stamp.date().isoformat() if stamp else "", versions))
    entries.sort()
    xhtml = ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' if translations else ""
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"{xhtml}>']
    for loc, lastmod, versions in entries:
        links = "".join(f'<xhtml:link rel="alternate" hreflang="{escape(v.tag)}" href="{escape(v.permalink)}"/>'
                        for v in _with_default(versions, translations.default if translations else ""))
        lines.append(f"  <url><loc>{escape(loc)}</loc>" + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "")
                     + links + "</url>")
    lines.append("</urlset>")
    out = {"sitemap.xml": ("\n".join(lines) + "\n").encode("utf-8")}
    if "robots.txt" not in ctx.files:
        out["robots.txt"] = f"User-agent: *\nAllow: /\n\nSitemap: {urls.absurl('/sitemap.xml')}\n".encode()
    return out


def _with_default(versions: tuple[Version, ...], default: str) -> list[Version]:
    """The versions, then `x-default`: the default language's (else the first)."""
    if not versions:
        return []
    chosen = next((v for v in versions if v.key == default), versions[0])
    return [*versions, Version(chosen.key, "x-default", chosen.name, chosen.url, chosen.permalink)]


def sitemap_index(files: dict[str, bytes], sites: list[LanguageSite], states: list[SiteState]) -> dict[str, bytes]:
    """The files that make a multilingual site's sitemaps: the default language's own moved from the root to
    `<key>/sitemap.xml` when it lives at the root, and `/sitemap.xml`, the index of every language's sitemap."""
    out: dict[str, bytes] = {}
    locations = []
    for site in sites:
        own = f"{site.output_prefix}sitemap.xml"
        if own not in files:
            continue
        if not site.output_prefix:
            own = f"{site.key}/sitemap.xml"
            out[own] = files["sitemap.xml"]
        locations.append(states[0].urls.absurl("/" + own))
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"  <sitemap><loc>{escape(loc)}</loc></sitemap>" for loc in locations]
    lines.append("</sitemapindex>")
    out["sitemap.xml"] = ("\n".join(lines) + "\n").encode("utf-8")
    return out
