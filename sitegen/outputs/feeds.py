"""Atom feeds (RFC 4287): the site's, each section's and each term's, with stable ids and absolute URLs."""

from __future__ import annotations

import datetime as dt
import functools
import itertools

import sitegen
from sitegen.content.dates import iso
from sitegen.memo import BuildMemo, key_of
from sitegen.outputs.absolute import absolutize
from sitegen.outputs.context import OutputContext
from sitegen.outputs.xmltext import escape, quoteattr
from sitegen.views import PageView, SiteState

DEFAULT_LIMIT = 20


def feed_settings(state: SiteState) -> tuple[int, bool, bool]:
    """(limit, full content, enabled) from the `feeds:` config section."""
    cfg = state.config.feeds
    limit = cfg.get("limit", DEFAULT_LIMIT)
    limit = limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else DEFAULT_LIMIT
    return limit, cfg.get("full_content", True) is not False, cfg.get("enabled", True) is not False


def feed_paths(state: SiteState) -> dict[str, tuple[str, list[str]]]:
    """Feed output path -> (feed title, page sources newest first) for every feed the site has."""
    title = state.config.title
    tree = state.tree
    feeds: dict[str, tuple[str, list[str]]] = {"feed.xml": (title, list(tree.regular))}
    for key, section in sorted(tree.sections.items()):
        if key and "/" not in key and section.pages:
            name = state.view(section.page)
            feeds[f"{key}/feed.xml"] = (f"{name.title if name else key} · {title}", _deep_pages(state, key))
    for terms in state.taxonomies.values():
        for term in terms.values():
            feeds[f"{term.site_path.strip('/')}/feed.xml"] = (f"{term.name} · {title}", list(term.pages))
    for term in state.plan.listing_terms.values():  # date archives (`sitegen.content.archives`): beside their page
        if term.path and term.taxonomy not in state.taxonomies:
            feeds[f"{term.path.strip('/')}/feed.xml"] = (f"{term.name} · {title}", list(term.pages))
    return feeds


def _deep_pages(state: SiteState, key: str) -> list[str]:
    tree = state.tree
    return [s for s in tree.regular if tree.section_of[s] == key or tree.section_of[s].startswith(key + "/")]


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """Every feed as bytes."""
    state = ctx.state
    limit, full, enabled = feed_settings(state)
    if not enabled:
        return {}
    out: dict[str, bytes] = {}
    pages = state.tree.pages
    paths = state.derived.get("feeds")  # feeds list pages by metadata only: a quick rebuild hands them on
    if paths is None:
        paths = state.derived["feeds"] = feed_paths(state)
    for path, (title, sources) in paths.items():
        if ctx.edited is not None and path in ctx.previous:
            entries = itertools.islice((s for s in sources if s in pages and pages[s].date is not None), limit)
            if ctx.edited.isdisjoint(entries):  # a quick rebuild, and none of its entries changed
                out[path] = ctx.previous[path]
                continue
        views = list(itertools.islice((v for v in map(state.view, sources) if v is not None and v.date is not None),
                                      limit))
        # A feed is a function of its entries (metadata and body) and the config: reuse it while they hold.
        key = key_of("feed", ctx.memo.config_key, path, title, full, state.build_date,
                     [(state.meta_key(v.source), state.body_key(v.source)) for v in views])
        # The build cache keeps the entries, not the feeds they make (a fifth of the cache at 1,000 posts).
        out[path] = ctx.memo.blob(key, functools.partial(_feed_bytes, state, "/" + path, title, views,
                                                                   full, ctx.memo), in_cache=False)
    return out


def _feed_bytes(state: SiteState, path: str, title: str, views: list[PageView], full: bool,
                memo: BuildMemo) -> bytes:
    return render_feed(state, path, title, views, full, memo).encode("utf-8")


def _updated(view: PageView) -> dt.datetime:
    return view.lastmod or view.date


def render_feed(state: SiteState, path: str, title: str, views: list[PageView], full: bool,
                memo: BuildMemo | None = None) -> str:
    """One Atom document. `updated` comes from the entries, never the wall clock.

    With a memo, each entry is made once for all the feeds that list it (a post is in the site's feed, its
    section's and each of its terms'), and again only when its page changes.
    """
    urls = state.urls
    config = state.config
    feed_url = urls.absurl(path)
    home = urls.absurl("/")
    stamps = [_updated(v) for v in views]
    updated = max(stamps) if stamps else (state.build_date or dt.datetime(1970, 1, 1, tzinfo=dt.UTC))
    author = config.author.name or config.title
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang={quoteattr(config.language)}>',
        f"  <title>{escape(title)}</title>",
        f"  <id>{escape(feed_url)}</id>",
        f"  <link rel=\"self\" type=\"application/atom+xml\" href={quoteattr(feed_url)}/>",
        f"  <link rel=\"alternate\" type=\"text/html\" href={quoteattr(home)}/>",
        f"  <updated>{iso(updated)}</updated>",
        f"  <author><name>{escape(author)}</name>"
        + (f"<email>{escape(config.author.email)}</email>" if config.author.email else "") + "</author>",
        f'  <generator uri="{sitegen.PROJECT_URL}">sitegen</generator>',
    ]
    origin = urls.absurl("/")[: -len(config.base_path)] if config.site_origin else ""
    for view in views:
        terms = [term.name for term in view.categories + view.tags]
        if memo is None:
            lines.append(_entry(view, terms, full, origin))
        else:
            key = key_of("feed-entry", state.meta_key(view.source), state.body_key(view.source), full, terms)
            lines.append(memo.blob(key, functools.partial(_entry_bytes, view, terms, full, origin)).decode())
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


def _entry_bytes(view: PageView, terms: list[str], full: bool, origin: str) -> bytes:
    return _entry(view, terms, full, origin).encode("utf-8")


def _entry(view: PageView, terms: list[str], full: bool, origin: str) -> str:
    """One `<entry>`, with links and images made absolute."""
    lines = [
        "  <entry>",
        f"    <title>{escape(view.title)}</title>",
        f"    <id>{escape(view.permalink)}</id>",
        f"    <link rel=\"alternate\" type=\"text/html\" href={quoteattr(view.permalink)}/>",
        f"    <published>{iso(view.date)}</published>",
        f"    <updated>{iso(_updated(view))}</updated>",
    ]
    lines += [f"    <category term={quoteattr(name)}/>" for name in terms]
    summary = absolutize(str(view.summary), view.permalink, origin)
    lines.append(f"    <summary type=\"html\">{escape(summary)}</summary>")
    if full:
        body = absolutize(str(view.content), view.permalink, origin)
        lines.append(f"    <content type=\"html\">{escape(body)}</content>")
    lines.append("  </entry>")
    return "\n".join(lines)
