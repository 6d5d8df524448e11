"""A static search index (`/search/index.json`) for the theme's client-side search; no server needed.

Each entry holds a page's title, URL, date, summary, terms and the start of its text. Matching happens in the
browser by case-insensitive substring search, which works for Chinese and Japanese without a word segmenter.
Pages opt out with `search: false`; `search: {enabled: false}` in the config turns it off.
"""

from __future__ import annotations

import functools
import json

from sitegen.content.text import plain_text
from sitegen.outputs import OutputContext
from sitegen.views import PageView

DEFAULT_CHARS = 3000


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """The JSON index over published regular pages and top-level pages."""
    state = ctx.state
    cfg = state.config.search
    if cfg.get("enabled", True) is False:
        return {}
    chars = cfg.get("content_chars", DEFAULT_CHARS)
    chars = chars if isinstance(chars, int) and not isinstance(chars, bool) and chars >= 0 else DEFAULT_CHARS
    entries: list[bytes] = []
    for source in sorted(state.tree.pages, key=lambda s: state.tree.urls[s]):
        view = state.view(source)
        if view is None or view.kind != "page" or view.params.get("search") is False:
            continue
        terms = [t.name for t in view.categories + view.tags]
        # An entry is a function of the page (metadata, body), its term names and the text length: reuse it.
        key = f"search:{state.meta_key(source)}:{state.body_key(source)}:{chars}:{terms!r}"
        entries.append(ctx.memo.blob(key, functools.partial(_entry, view, terms, chars)))
    return {"search/index.json": b'{"pages":[' + b",".join(entries) + b"]}"}


def _entry(view: PageView, terms: list[str], chars: int) -> bytes:
    """One page's entry, serialized as the whole index is (sorted keys, no spaces)."""
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
