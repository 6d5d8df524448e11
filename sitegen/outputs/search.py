"""A static search index (`/search/index.json`) for the theme's client-side search; no server needed.

Each entry holds a page's title, URL, date, summary, terms and the start of its text. Matching happens in the
browser by case-insensitive substring search, which works for Chinese and Japanese without a word segmenter.
Pages opt out with `search: false`; `search: {enabled: false}` in the config turns it off.
"""

from __future__ import annotations

import functools
import json
import pickle

from sitegen.content.page import Page
from sitegen.content.text import plain_text
from sitegen.content.urls import term_slug
from sitegen.outputs import OutputContext
from sitegen.views import SiteState

DEFAULT_CHARS = 3000


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """The JSON index over published regular pages and top-level pages."""
    state = ctx.state
    cfg = state.config.search
    if cfg.get("enabled", True) is False:
        return {}
    chars = cfg.get("content_chars", DEFAULT_CHARS)
    chars = chars if isinstance(chars, int) and not isinstance(chars, bool) and chars >= 0 else DEFAULT_CHARS
    # Which pages are listed, in what order and with which terms depends on metadata only: planned once per
    # metadata key, so an edit to one page's text rebuilds one entry and joins the rest.
    plan: list[tuple[str, list[str]]] = pickle.loads(ctx.memo.blob(  # noqa: S301 - our own memo
        f"search-plan:{ctx.meta_key}", functools.partial(_plan, state)))
    entries: list[bytes] = []
    blobs, used = ctx.memo.blobs, ctx.memo.used_blobs  # the loop runs once per page: no call per lookup
    for source, terms in plan:
        key = f"search:{state.meta_key(source)}:{state.body_key(source)}:{chars}:{terms!r}"
        entry = blobs.get(key)
        if entry is None:
            entry = ctx.memo.blob(key, functools.partial(_entry, state, source, terms, chars))
        else:
            used.add(key)
        entries.append(entry)
    return {"search/index.json": b'{"pages":[' + b",".join(entries) + b"]}"}


def _plan(state: SiteState) -> bytes:
    """The listed pages in URL order, each with its term names, pickled."""
    tree = state.tree
    plan = [(source, _term_names(state, tree.pages[source]))
            for source in sorted(tree.pages, key=lambda s: tree.urls[s])
            if tree.pages[source].kind == "page" and tree.pages[source].params.get("search") is not False]
    return pickle.dumps(plan)


def _term_names(state: SiteState, page: Page) -> list[str]:
    """Display names of the page's categories, then tags (as `page.categories + page.tags` lists them)."""
    names: list[str] = []
    for taxonomy in ("categories", "tags"):
        terms = state.taxonomies.get(taxonomy, {})
        slugs = dict.fromkeys(term_slug(v) for v in page.taxonomies.get(taxonomy, []))
        names += [terms[s].name for s in slugs if s in terms]
    return names


def _entry(state: SiteState, source: str, terms: list[str], chars: int) -> bytes:
    """One page's entry, serialized as the whole index is (sorted keys, no spaces)."""
    view = state.view(source)
    assert view is not None
    entry = {
        "title": view.title,
        "url": view.url,
        "date": view.date.date().isoformat() if view.date else "",
        "section": view.section,
        "lang": view.lang,
        "summary": " ".join(plain_text(str(view.summary)).split()),
        "terms": terms,
        "text": view.plain[:chars],
    }
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
