"""Archive pages at the URLs a site's archive plugin gives them (jekyll-archives): posts by year, month and day,
and taxonomy terms at a pattern of the site's (`/blog/tag/:name/` rather than `/tags/name/`).

A dialect asks for them in `config.dialect_settings["archives"]`: archive type (`year`, `month`, `day`, or a
taxonomy name such as `tags`) -> URL pattern. Date archives list the dated posts (the `posts/` section), newest
first, by the date as the page gives it (in the site's time zone).
"""

from __future__ import annotations

from collections.abc import Mapping

from sitegen.content.taxonomies import Term
from sitegen.content.tree import ContentTree

DATE_KINDS = ("year", "month", "day")
"""Date archive types, coarsest first."""
POSTS = "posts/"
"""The section whose pages date archives list (Jekyll's `_posts/` is read as `posts/`)."""


def expand_pattern(pattern: str, values: Mapping[str, str]) -> str:
    """An archive permalink (`/blog/:year/:month/`, `/tag/:name/`) with its placeholders filled in; longer names
    first, so that `:year` is never read as a shorter placeholder."""
    url = pattern
    for name in sorted(values, key=len, reverse=True):
        url = url.replace(f":{name}", values[name])
    url = "/" + url.lstrip("/")
    while "//" in url:
        url = url.replace("//", "/")
    return url


def place_terms(taxonomies: Mapping[str, Mapping[str, Term]], patterns: Mapping[str, str]) -> None:
    """Give each term of a taxonomy the site's archive pattern asks for its URL (`:name` is the term's slug)."""
    for name, terms in taxonomies.items():
        pattern = patterns.get(name)
        if not pattern:
            continue
        for term in terms.values():
            term.path = expand_pattern(pattern, {"name": term.slug})


def date_archives(tree: ContentTree, patterns: Mapping[str, str]) -> dict[str, Term]:
    """Generated page source (`_archives/month/2024/03`) -> the Term it lists, for each enabled date archive
    type; a year, month or day without posts has no page."""
    found: dict[str, Term] = {}
    for source in tree.regular:  # newest first: each archive's pages keep that order
        page = tree.pages[source]
        if not source.startswith(POSTS) or page.date is None:
            continue
        parts = {"year": f"{page.date.year:04d}", "month": f"{page.date.month:02d}", "day": f"{page.date.day:02d}"}
        for depth, kind in enumerate(DATE_KINDS, start=1):
            pattern = patterns.get(kind)
            if not pattern:
                continue
            values = {k: parts[k] for k in DATE_KINDS[:depth]}
            name = "-".join(values.values())
            key = f"_archives/{kind}/{'/'.join(values.values())}"
            term = found.get(key)
            if term is None:
                term = found[key] = Term(kind, name, name, path=expand_pattern(pattern, values))
            term.pages.append(source)
    return dict(sorted(found.items()))
