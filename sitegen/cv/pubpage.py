"""Publications inside a site: `site.publications` for every template, and the `/publications/` page.

    data/*.bib + the main CV's own publications -> site.publications (newest first; `.by_year`, `.selected`)
    content/publications.md (`layout: publications`) -> title and introduction of /publications/

Every page with `layout: publications` gets `publications` in its context, labelled in the page's language.
Without such a page, one is generated at /publications/ (as /cv/ is for a CV). A page of the author's at that
URL (`publications.md`, al-folio's `_pages/publications.md`) with no template of its own gets the layout: its text
above the generated list, never one silently replacing the other.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from sitegen.config import SiteConfig
from sitegen.content.page import Page
from sitegen.content.tree import ContentTree
from sitegen.content.urls import UrlHelper, output_path_for, slugify
from sitegen.cv.html import authors_html, inline_markdown
from sitegen.cv.i18n import format_month, labels
from sitegen.cv.model import normalize_name, publication_links
from sitegen.cv.publication import Publication, newest_first, work_keys
from sitegen.cv.pubmeta import LINK_LABELS, citation_tags, coins, scholarly_jsonld
from sitegen.cv.source import CVSource

PAGE = "_publications"
LAYOUT = "publications"
ENTRY_LAYOUT = "publication"
"""Layout of a publication's own page (`publications.pages: true`)."""
URL = "/publications/"


@dataclass(frozen=True)
class PublicationView:
    """One publication as templates see it: author list as safe HTML, links ready to use."""

    id: str
    """Anchor id on the publications page: the BibTeX key (`#lin2024remat`)."""
    key: str
    title: str
    authors: Markup
    """`Ada Lin, Bo Chen` with the site owner's name in `<strong class="author-self">`."""
    author_names: list[str]
    venue: str
    type: str
    date: str
    """`2024-05` (ISO, as written)."""
    year: str
    when: str
    """`May 2024` / `2024年5月`."""
    badges: list[str]
    """The award, then the word for "selected"."""
    links: list[tuple[str, str]]
    """(label, URL): DOI, arXiv, PDF, Code, Slides."""
    url: str
    selected: bool
    award: str
    summary: Markup
    tags: list[str]
    bibtex: str
    """The entry as others should cite it; empty for a publication written in a CV file."""
    labels: dict[str, str] = field(default_factory=dict)
    """Words in the listing's language (`abstract`, `selected`)."""
    abbr: str = ""
    """Venue abbreviation badge (`MLSys`)."""
    note: str = ""
    abstract: str = ""
    """The abstract as plain text (for meta tags, JSON-LD and search)."""
    page: str = ""
    """Site-relative URL of its own page (`publications.pages: true`), else empty."""
    permalink: str = ""
    """Absolute URL of its own page, else of its anchor on /publications/."""
    citation: list[tuple[str, str]] = field(default_factory=list)
    """Highwire Press `citation_*` meta tags (name, content), for Google Scholar and Zotero."""
    jsonld: dict[str, Any] = field(default_factory=dict)
    """schema.org `ScholarlyArticle` (or Thesis, Book, Chapter, Report), absolute URLs."""
    coins: str = ""
    """COinS (OpenURL KEV) for `<span class="Z3988" title="...">`."""

    @property
    def search_text(self) -> str:
        """What a search index should find it by: title, co-authors, venue (and its abbreviation), year, tags
        and abstract, as one plain string."""
        parts = [self.title, ", ".join(self.author_names), self.venue, self.abbr, self.year, " ".join(self.tags),
                 self.abstract]
        return " ".join(p for p in parts if p)

    @property
    def jsonld_document(self) -> dict[str, Any]:
        """`jsonld` as a document of its own (with `@context`), for the publication's own page."""
        return {"@context": "https://schema.org", **self.jsonld}


@dataclass(frozen=True)
class PublicationList:
    """`site.publications` (and `publications` on a publications page): iterable, newest first."""

    entries: list[PublicationView]
    labels: dict[str, str] = field(default_factory=dict)
    """The CV's words in the page's language (`selected`, `publications`, ...)."""

    def __iter__(self) -> Iterator[PublicationView]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __bool__(self) -> bool:
        return bool(self.entries)

    @property
    def by_year(self) -> list[dict[str, Any]]:
        """`[{year, entries}]`, newest year first; undated entries last under `year = ""`."""
        groups: dict[str, list[PublicationView]] = {}
        for entry in self.entries:
            groups.setdefault(entry.year, []).append(entry)
        years = sorted((y for y in groups if y), reverse=True) + ([""] if "" in groups else [])
        return [{"year": year, "entries": groups[year]} for year in years]

    @property
    def selected(self) -> list[PublicationView]:
        """The entries marked `selected`, newest first (for "selected publications" on a home page)."""
        return [e for e in self.entries if e.selected]


def site_publications(publications: list[Publication], cvs: list[CVSource]) -> list[Publication]:
    """The BibTeX publications, plus those only the main CV file lists (same DOI or title: BibTeX's wins)."""
    taken: set[str] = set().union(*(work_keys(p.cv_item()) for p in publications))
    extra: list[Publication] = []
    for item in (cvs[0].data.get("publications") or []) if cvs else []:
        if isinstance(item, dict) and not work_keys(item) & taken:
            taken |= work_keys(item)
            extra.append(Publication.from_cv_item(item, cvs[0].path))
    return newest_first([*publications, *extra])


@dataclass(frozen=True)
class PublicationsPlan:
    """`site.publications`, the generated /publications/ page (if any) and each publications page's context."""

    listing: PublicationList | tuple[()]
    """`site.publications`, labelled in the site's language."""
    pages: dict[str, Page]
    """The generated /publications/ page, by source (empty when a content page has the layout)."""
    urls: dict[str, str]
    context: dict[str, dict[str, Any]]
    """Page source -> `{"publications": PublicationList}` in the page's language."""


def plan_publications(tree: ContentTree, config: SiteConfig, urls: UrlHelper, bibtex: list[Publication],
                      cvs: list[CVSource], name_variants: list[str]) -> PublicationsPlan:
    """`site.publications`, and /publications/ when no page has the layout (pure: the tree is not changed).

    The site owner, whose name is bold, is the CV's `basics.name` (any language), `cv.name_variants` and the
    site's `author.name`.
    """
    publications = site_publications(bibtex, cvs)
    owners = [*name_variants, config.author.name, *(str((c.data.get("basics") or {}).get("name") or "")
                                                          for c in cvs)]
    me = {normalize_name(n) for n in owners if n}
    anchors = _anchors(publications)

    own_pages = config.publications.get("pages") is True

    def listing(lang: str) -> PublicationList:
        words = labels(lang)
        return PublicationList([entry_view(p, a, me, words, lang, urls, own_pages)
                                for p, a in zip(publications, anchors, strict=True)], words)

    pages = [source for source, page in sorted(tree.pages.items()) if page.layout == LAYOUT]
    owner = next((s for s, u in sorted(tree.urls.items())
                  if output_path_for(u).casefold() == output_path_for(URL).casefold()), None)
    added: dict[str, Page] = {}
    added_urls: dict[str, str] = {}
    if not pages and publications and owner is None:
        added[PAGE] = Page(source=PAGE, kind="page", title=labels(config.language)["publications"],
                           body="", layout=LAYOUT, generated=True)
        added_urls[PAGE] = URL
        pages = [PAGE]
    elif not pages and publications and owner is not None and _merges(tree.pages[owner]):
        # The author's own /publications/ page (`publications.md`, al-folio's `{% bibliography %}` page): their
        # text first, then the BibTeX list, rather than one silently replacing the other.
        added[owner] = dataclasses.replace(tree.pages[owner], layout=LAYOUT)
        added_urls[owner] = tree.urls[owner]
        pages = [owner]
    all_pages = {**tree.pages, **added}
    site_listing = listing(config.language)
    page_urls = dict(added_urls)
    context: dict[str, dict[str, Any]] = {
        source: {"publications": listing(all_pages[source].lang or config.language)} for source in pages}
    if own_pages:  # `publications.pages: true`: a page per publication, for Google Scholar's and Zotero's readers
        for entry in site_listing.entries:
            source = f"{PAGE}/{entry.id}"
            added[source] = Page(source=source, kind="page", title=entry.title, body="", layout=ENTRY_LAYOUT,
                                 description=entry.abstract[:300] or _cited_as(entry), generated=True)
            page_urls[source] = f"{URL}{entry.id}/"
            context[source] = {"publication": entry, "publications": site_listing}
    return PublicationsPlan(listing=site_listing, pages=added, urls=page_urls, context=context)


def _cited_as(entry: PublicationView) -> str:
    """`Ada Lin, Bo Chen. MLSys 2024, May 2024.`: a page description for an entry without an abstract."""
    parts = [", ".join(entry.author_names), ", ".join(x for x in (entry.venue, entry.when) if x)]
    return ". ".join(p for p in parts if p) + "." if any(parts) else entry.title


MERGED_LAYOUTS = frozenset({"page", "default", "single", "archive", "post", "about", "bib", "publications"})
"""Layouts of a hand-written /publications/ page that get the BibTeX list below their text (sitegen's default, and
the generic layouts of Jekyll themes); a page with its own template (`layout: mypubs`) keeps it."""


_OWN_SELECTION = re.compile(r"\{%-?\s*bibliography\s[^%]*?(?<!\S)(?:--file|-f|--query|-q|--cited|--cited_in_order|"
                            r"--max|--limit)(?!\S)")
"""A jekyll-scholar list of the page's own choosing (`{% bibliography --query @article %}`): shown in its text."""


def _merges(page: Page) -> bool:
    """Whether a page at /publications/ shows the BibTeX list below its text (not when its text lists a selection
    of its own, as jekyll-scholar's options make it)."""
    return page.kind == "page" and not page.generated and (page.layout is None or page.layout in MERGED_LAYOUTS) \
        and not _OWN_SELECTION.search(page.body)


def _anchors(publications: list[Publication]) -> list[str]:
    """An id per entry: its BibTeX key made safe for a URL fragment (else `pub-<title>`), unique."""
    seen: set[str] = set()
    out = []
    for p in publications:
        base = re.sub(r"[^A-Za-z0-9_.:-]+", "-", p.key).strip("-") if p.key else ""
        base = base if base and base[0].isalpha() else f"pub-{base or slugify(p.title) or 'entry'}"
        anchor, n = base, 1
        while anchor.casefold() in seen:
            n += 1
            anchor = f"{base}-{n}"
        seen.add(anchor.casefold())
        out.append(anchor)
    return out


def entry_view(p: Publication, anchor: str, me: set[str], words: dict[str, str], lang: str, urls: UrlHelper,
               own_page: bool = False) -> PublicationView:
    """One publication as templates show it (see `sitegen.cv.pubmeta` for its meta tags and JSON-LD)."""
    def link(value: str) -> str:
        return urls.url(value) if value.startswith("/") else value

    def absolute(value: str) -> str:
        return urls.absurl(value) if value.startswith("/") else value

    links = [(label, link(value)) for label, value in publication_links(p.doi, p.arxiv, p.pdf, p.code, p.slides)]
    links += [(LINK_LABELS[name], link(value)) for name, value in p.more_links]
    parts = [int(x) for x in p.date.split("-")[:2] if x.isdigit()]
    when = format_month(parts[0], parts[1] if len(parts) > 1 else None, lang) if parts else ""
    page = f"{URL}{anchor}/" if own_page else ""
    permalink = urls.absurl(page) if page else urls.absurl(URL) + "#" + anchor
    abstract = " ".join(p.summary.split())
    return PublicationView(
        id=anchor, key=p.key, title=p.title, authors=authors_html([(a, normalize_name(a) in me) for a in p.authors]),
        author_names=list(p.authors), venue=p.venue, type=p.type, date=p.date, year=p.year, when=when,
        badges=[p.award] if p.award else [], links=links, url=link(p.url), selected=p.selected, award=p.award,
        summary=inline_markdown(p.summary), tags=list(p.tags), bibtex=p.bibtex, labels=words, abbr=p.abbr,
        note=p.note, abstract=abstract, page=urls.url(page) if page else "", permalink=permalink,
        citation=citation_tags(p, absolute), jsonld=scholarly_jsonld(p, permalink, abstract, absolute),
        coins=coins(p, permalink))
