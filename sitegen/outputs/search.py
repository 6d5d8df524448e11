"""A static search index (`/search/index.json`) for the theme's client-side search; no server needed.

Each entry holds a page's title, URL, date, summary, terms and the start of its text. Matching happens in the
browser by case-insensitive substring search, which works for Chinese and Japanese without a word segmenter.
Pages opt out with `search: false`; `search: {enabled: false}` in the config turns it off.
"""

from __future__ import annotations

import functools
import json
import pickle
from dataclasses import dataclass

from sitegen.content.page import Page
from sitegen.content.text import plain_text
from sitegen.memo import key_of
from sitegen.outputs.context import OutputContext
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
    plan_key = f"search-plan:{ctx.meta_key}"
    plan: list[tuple[str, list[str]]] = pickle.loads(ctx.memo.blob(  # noqa: S301 - our own memo
        plan_key, functools.partial(_plan, state)))
    bodies = [state.body_key(source) for source, _ in plan]
    # The dev server's next edit: same plan, so only entries whose body changed are made again.
    last: _Index | None = ctx.memo.transient.get("search")
    if last is not None and (last.plan_key, last.chars) == (plan_key, chars):
        entries = list(last.entries)
        for i, (body, old) in enumerate(zip(bodies, last.bodies, strict=True)):
            if body != old:
                entries[i] = _cached_entry(ctx, state, *plan[i], body, chars)
    else:
        entries = [_cached_entry(ctx, state, source, terms, body, chars)
                   for (source, terms), body in zip(plan, bodies, strict=True)]
    ctx.memo.transient["search"] = _Index(plan_key, chars, bodies, entries)
    parts = [b'{"pages":[']
    for entry in entries:  # one join (one copy of tens of MB on large sites), commas placed here
        parts += (entry, b",")
    parts[-1] = b"]}" if entries else b'{"pages":[]}'
    return {"search/index.json": b"".join(parts)}


@dataclass(frozen=True)
class _Index:
    """The last index made in this process: its plan, the page bodies it saw, and its entries in order."""

    plan_key: str
    chars: int
    bodies: list[str]
    entries: list[bytes]


def _cached_entry(ctx: OutputContext, state: SiteState, source: str, terms: list[str], body: str,
                  chars: int) -> bytes:
    """A page's entry from the memo, made when its metadata, body, terms or length are new."""
    return ctx.memo.blob(key_of("search", state.meta_key(source), body, chars, terms),
                         functools.partial(_entry, state, source, terms, chars))


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
        slugs = dict.fromkeys(state.plan.dialect.term_slug(v) for v in page.taxonomies.get(taxonomy, []))
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
