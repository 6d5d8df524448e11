"""Taxonomies: group pages by term (categories, tags, series), with Unicode-preserving term slugs."""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sitegen.content.page import Page
from sitegen.content.tree import ContentTree
from sitegen.content.urls import term_slug


@dataclass
class Term:
    """One term of a taxonomy: display name (as first written), slug, and its pages newest first."""

    taxonomy: str
    name: str
    slug: str
    pages: list[str] = field(default_factory=list)
    url_slug: str = ""
    """The URL segment when it is not `slug`: the `slug:` of the term's own page (`content/tags/x/_index.md`)."""
    page: Page | None = None
    """The term's own content page (`content/categories/<term>/_index.md`): its title, description and params."""
    path: str = ""
    """Where the term's page is when not at sitegen's `/<taxonomy>/<slug>/`: the site's archive plugin's pattern
    (`/blog/tag/x/`, `sitegen.content.archives`) or its `permalinks` for the taxonomy (`tags: /tag/:slug/`)."""

    @property
    def site_path(self) -> str:
        """Site path of the term page, not percent-encoded (`/tags/c#/`)."""
        return self.path or f"/{self.taxonomy}/{self.url_slug or self.slug}/"

    @property
    def url(self) -> str:
        """Site path of the term page (`/tags/deep-learning/`)."""
        return self.site_path.replace("#", "%23")


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


def taxonomy_content(tree: ContentTree, taxonomies: dict[str, dict[str, Term]], slug_of: Callable[[str], str]
                     ) -> tuple[ContentTree, dict[str, Page]]:
    """Hugo's content for taxonomy pages: `content/<taxonomy>/_index.md` is the taxonomy list's page and
    `content/<taxonomy>/<term>/_index.md` the term's (its `slug:` gives the term's URL, as in Hugo). Those
    section pages are taken out of the tree (they are not pages of their own), the terms get theirs
    (`Term.page`, `Term.url_slug`), and the taxonomy pages are returned by taxonomy name."""
    own: dict[str, Page] = {}
    dropped: set[str] = set()
    for source, page in tree.pages.items():
        if page.kind != "section" or page.url:
            continue
        folder = posixpath.dirname(source)
        taxonomy, _, rest = folder.partition("/")
        terms = taxonomies.get(taxonomy)
        if terms is None or "/" in rest or folder in tree.sections and tree.sections[folder].pages:
            continue
        if page.generated and rest:
            continue
        if not rest:  # a folder `content/authors/` without `_index.md` is no page of its own either
            if not page.generated:
                own[taxonomy] = page
        else:  # a term no page uses yet (Wowchemy's author profile `authors/admin/`) still has its page, as in Hugo
            term = terms.get(slug_of(rest)) or terms.get(rest) or Term(taxonomy, page.title or rest, slug_of(rest))
            terms[term.slug] = dataclasses.replace(term, page=page, url_slug=page.slug or "")
        dropped.add(source)
    for name, terms in taxonomies.items():  # a term added for its page goes where its slug sorts
        taxonomies[name] = dict(sorted(terms.items()))
    if not dropped:
        return tree, own
    keep = {s: p for s, p in tree.pages.items() if s not in dropped}
    folders = {posixpath.dirname(d) for d in dropped}
    sections = {k: dataclasses.replace(v, subsections=[x for x in v.subsections if x not in folders])
                for k, v in tree.sections.items() if v.page not in dropped}
    return dataclasses.replace(
        tree, pages=keep, urls={s: u for s, u in tree.urls.items() if s not in dropped}, sections=sections,
        by_path={k: s for k, s in tree.by_path.items() if s not in dropped},
        prev={s: p for s, p in tree.prev.items() if s not in dropped},
        next={s: n for s, n in tree.next.items() if s not in dropped}), own


_TERM_PLACEHOLDER = re.compile(r":(slugortitle|slug|title|sections|section)\b")


def apply_term_permalinks(taxonomies: dict[str, dict[str, Term]], permalinks: Mapping[str, str],
                          slug_of: Callable[[str], str] = term_slug) -> None:
    """Term pages at the path the site's `permalinks` give their taxonomy (Hugo: `tags: /tag/:slug/` puts the term
    `PhD thesis` at `/tag/phd-thesis/`; `:slug` is the term page's `slug`, else its title, so a Wowchemy profile
    `authors/admin/` titled `Ann Lee, PhD` is at `/author/ann-lee-phd/`), in place. A pattern with other
    placeholders (dates) is left alone, as a term has no date."""
    for name, terms in taxonomies.items():
        pattern = permalinks.get(name)
        if not pattern or re.search(r":(?!(slugortitle|slug|title|sections|section)\b)\w", pattern):
            continue
        for slug, term in terms.items():
            segment = term.url_slug or (slug_of(term.page.title) if term.page and term.page.title else "") or slug
            terms[slug] = dataclasses.replace(term, path=_term_path(pattern, name, segment))


def _term_path(pattern: str, taxonomy: str, segment: str) -> str:
    path = _TERM_PLACEHOLDER.sub(lambda m: taxonomy if m[1].startswith("section") else segment, pattern)
    return "/" + "/".join(part for part in path.split("/") if part) + "/"
