"""Taxonomies: group pages by term (categories, tags, series), with Unicode-preserving term slugs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sitegen.content.tree import ContentTree
from sitegen.content.urls import term_slug


@dataclass
class Term:
    """One term of a taxonomy: display name (as first written), slug, and its pages newest first."""

    taxonomy: str
    name: str
    slug: str
    pages: list[str] = field(default_factory=list)
    path: str = ""
    """Where the site's archive plugin puts the term's page (`/blog/tag/x/`, `sitegen.content.archives`); else
    sitegen's `/<taxonomy>/<slug>/`."""

    @property
    def url(self) -> str:
        """Site path of the term page (`/tags/deep-learning/`)."""
        return self.path or f"/{self.taxonomy}/{self.slug.replace('#', '%23')}/"


def collect_taxonomies(tree: ContentTree, names: tuple[str, ...], slug_of: Callable[[str], str] = term_slug
                       ) -> dict[str, dict[str, Term]]:
    """`{taxonomy: {slug: Term}}` over the published regular pages.

    `PyTorch` and `pytorch` are one term; the name shown is the one written in the first page by path order,
    so it does not depend on dates or the file system. `slug_of` is the site dialect's rule for term URLs.
    """
    result: dict[str, dict[str, Term]] = {name: {} for name in names}
    for source in sorted(tree.regular):
        page = tree.pages[source]
        for taxonomy in names:
            for value in page.taxonomies.get(taxonomy, []):
                slug = slug_of(value)
                if not slug:
                    continue
                term = result[taxonomy].setdefault(slug, Term(taxonomy, value.strip(), slug))
                if not term.pages or term.pages[-1] != source:  # pages come one at a time: no list scan
                    term.pages.append(source)
    order = {source: i for i, source in enumerate(tree.regular)}
    for terms in result.values():
        for term in terms.values():
            term.pages.sort(key=order.__getitem__)
    return {name: dict(sorted(terms.items())) for name, terms in result.items()}
