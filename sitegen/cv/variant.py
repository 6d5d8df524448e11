"""CV variants (`cv.variants` in sitegen.yaml): a shorter or focused CV made from the same source.

A variant filters the raw CV data once, and every output (web page, PDF, JSON Resume, Markdown) is made from
the filtered data, so `cv-short.json` holds exactly what `/cv/short/` and `cv-short.pdf` show:

    short: {sections: [work, education, publications], tags: [systems], max_publications: 10}

- `sections`: only these sections, in this order;
- `tags`: only entries tagged with one of these (entries without `tags` stay);
- `max_publications`: at most this many publications, the `selected: true` ones first, in their order.
"""

from __future__ import annotations

from typing import Any

KEPT = ("$schema", "basics", "meta")
"""Top-level keys that are not sections: every variant keeps them."""


def _items(value: Any) -> list[Any] | None:
    """The entries of a section (`[...]` or a free section's `{title, entries: [...]}`)."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and isinstance(value.get("entries"), list):
        return list(value["entries"])
    return None


def _with_items(value: Any, items: list[Any]) -> Any:
    return {**value, "entries": items} if isinstance(value, dict) else items


def _tagged(item: Any, wanted: set[str]) -> bool:
    tags = item.get("tags") if isinstance(item, dict) else None
    return not tags or bool(wanted & {str(t) for t in tags})


def _limit(items: list[Any], limit: int) -> list[Any]:
    """At most `limit` items, the selected ones first; the kept ones stay in their order."""
    chosen = [i for i, item in enumerate(items) if isinstance(item, dict) and item.get("selected") is True]
    chosen += [i for i in range(len(items)) if i not in chosen]
    keep = set(chosen[:limit])
    return [item for i, item in enumerate(items) if i in keep]


def apply_variant(data: dict[str, Any], variant: dict[str, Any] | None) -> dict[str, Any]:
    """The raw CV data of a variant (None or `{}`: the data unchanged)."""
    if not variant:
        return data
    out = dict(data)
    sections = [str(k) for k in variant.get("sections") or []]
    if sections:
        refs = {(str(r.get("key")) if isinstance(r, dict) else str(r)): r for r in data.get("sections") or []}
        out = {k: v for k, v in data.items() if k in KEPT or k in sections}
        out["sections"] = [refs.get(k, k) for k in sections if k in out]
    wanted = {str(t) for t in variant.get("tags") or []}
    for key, value in list(out.items()):
        items = _items(value) if key not in (*KEPT, "sections") else None
        if items is None:
            continue
        if wanted:
            items = [item for item in items if _tagged(item, wanted)]
        if key == "publications" and variant.get("max_publications"):
            items = _limit(items, int(variant["max_publications"]))
        out[key] = _with_items(value, items)
    return out
