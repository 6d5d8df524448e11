"""Related pages: other pages sharing tags and categories, scored and ordered deterministically."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Mapping

from sitegen.content.taxonomies import Term
from sitegen.content.tree import ContentTree
from sitegen.content.urls import term_slug

WEIGHTS = {"categories": 2, "tags": 1}
"""How much one shared term of each taxonomy counts."""
WINDOW = 100
"""Per shared term, only the pages this close in date order are considered, so large sites stay linear."""


def related_pages(source: str, tree: ContentTree, taxonomies: dict[str, dict[str, Term]], limit: int = 5,
                  slug_of: Callable[[str], str] = term_slug,
                  positions: Callable[[Term], Mapping[str, int]] | None = None) -> list[str]:
    """Up to `limit` sources sharing terms with `source`: highest score first, then newest, then path.
    `slug_of` is the site dialect's term slug (the one the taxonomies were collected with); `positions`, where
    each page is among a term's pages (`term_positions`, kept by the caller for every page of a build: finding
    it in the list is linear in the term's size, and every page asks)."""
    page = tree.pages[source]
    order = tree.order
    scores: Counter[str] = Counter()
    for taxonomy, weight in WEIGHTS.items():
        terms = taxonomies.get(taxonomy, {})
        for value in page.taxonomies.get(taxonomy, []):
            term = terms.get(slug_of(value))
            if term is None:
                continue
            members = term.pages
            at = (positions or term_positions)(term).get(source)
            if at is None:
                continue
            window = members[max(0, at - WINDOW // 2): at + WINDOW // 2 + 1]
            for _ in range(weight):
                scores.update(window)  # (counted in C; the page itself is taken out below)
    scores.pop(source, None)
    if len(scores) > limit:  # only pages scoring at least the limit-th best score can be among the best
        cutoff, kept = 0, 0
        for score, count in sorted(Counter(scores.values()).items(), reverse=True):
            cutoff, kept = score, kept + count
            if kept >= limit:
                break
        candidates = [s for s, score in scores.items() if score >= cutoff]
    else:
        candidates = list(scores)
    return heapq.nsmallest(limit, candidates, key=lambda s: (-scores[s], order.get(s, 0), s))


def term_positions(term: Term) -> dict[str, int]:
    """Where each of a term's pages is in its list (newest first)."""
    return {page: at for at, page in reversed(list(enumerate(term.pages)))}


def series_of(source: str, tree: ContentTree, taxonomies: dict[str, dict[str, Term]],
              slug_of: Callable[[str], str] = term_slug) -> list[tuple[Term, list[str]]]:
    """For each series the page belongs to: the term and its pages oldest first (part 1 first)."""
    page = tree.pages[source]
    terms = taxonomies.get("series", {})
    out = []
    for value in page.taxonomies.get("series", []):
        term = terms.get(slug_of(value))
        if term is not None:
            out.append((term, list(reversed(term.pages))))
    return out
