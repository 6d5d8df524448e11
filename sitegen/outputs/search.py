"""A static search index (`/search/index.json`) for the theme's client-side search; no server needed.

Each entry holds a page's title, URL, date, summary, terms and the start of its text. Matching happens in the
browser by case-insensitive substring search, which works for Chinese and Japanese without a word segmenter.
Pages opt out with `search: false`; `search: {enabled: false}` in the config turns it off.
"""

from __future__ import annotations

import json

from sitegen.content.text import plain_text
from sitegen.outputs import OutputContext

DEFAULT_CHARS = 3000


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """The JSON index over published regular pages and top-level pages."""
    state = ctx.state
    cfg = state.config.search
    if cfg.get("enabled", True) is False:
        return {}
    chars = cfg.get("content_chars", DEFAULT_CHARS)
    chars = chars if isinstance(chars, int) and not isinstance(chars, bool) and chars >= 0 else DEFAULT_CHARS
    entries = []
    for source in sorted(state.tree.pages, key=lambda s: state.tree.urls[s]):
        view = state.view(source)
        if view is None or view.kind != "page" or view.params.get("search") is False:
            continue
        entries.append({
            "title": view.title,
            "url": view.url,
            "date": view.date.date().isoformat() if view.date else "",
            "section": view.section,
            "lang": view.lang,
            "summary": " ".join(plain_text(str(view.summary)).split()),
            "terms": [t.name for t in view.categories + view.tags],
            "text": view.plain[:chars],
        })
    data = json.dumps({"pages": entries}, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return {"search/index.json": data.encode("utf-8")}
