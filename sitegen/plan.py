"""Planning: from parsed sources to the frozen site plan, before anything renders.

    parsed pages -> assemble the content tree (sections, URLs) -> taxonomies
    -> generated pages (CV pages, /publications/, taxonomy and term pages, 404) -> URL table

`plan_site` is pure: it takes parsed pages, data, CVs and publications and returns a `SitePlan`, whose tree is
complete and never changes afterwards. Every URL collision is found here (two sources writing one output file)
and reported together, naming both sources. Rendering (Markdown, templates, outputs) only reads the plan.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sitegen.config import SiteConfig
from sitegen.content.archives import date_archives, place_terms
from sitegen.content.landing import plan_landing
from sitegen.content.languages import Translations
from sitegen.content.news import URL as NEWS_URL
from sitegen.content.news import NewsItem, read_news
from sitegen.content.page import Page
from sitegen.content.talks import Talk, read_talk
from sitegen.content.taxonomies import Term, apply_term_permalinks, collect_taxonomies, taxonomy_content
from sitegen.content.tree import ContentTree, assemble_tree
from sitegen.content.urls import UrlHelper, output_path_for
from sitegen.cv.publication import Publication, newest_first
from sitegen.cv.pubpage import PublicationList, plan_publications
from sitegen.cv.site import CVPlan, plan_cv
from sitegen.cv.source import CVOptions, CVSource
from sitegen.dialects import NATIVE, Dialect, SiteFacts
from sitegen.dialects.scholar import bibtex_fields
from sitegen.errors import ContentError, Diagnostic, SitegenError, raise_if_any
from sitegen.memo import key_of

NEWS_PAGE = "_news"
"""Source key of the generated /news/ page."""
NOT_FOUND = "_special/404"
"""Source key of the generated 404 page."""


@dataclass(frozen=True)
class SitePlan:
    """The whole site as planned: every page (content and generated) with its URL, before any rendering."""

    config: SiteConfig
    tree: ContentTree
    """Every page that gets an output file: content pages, then generated ones (CV, publications, lists, 404)."""
    content: tuple[str, ...]
    """Sources of the assembled content tree (sections included): the pages whose Markdown is rendered."""
    taxonomies: dict[str, dict[str, Term]]
    listing_terms: dict[str, Term]
    """Generated term-page source -> its Term."""
    data: dict[str, Any]
    """`site.data`: the data/ files, nested."""
    urls: UrlHelper
    dialect: Dialect
    """How the site's files are read (its naming rules, its in-content syntax)."""
    build_date: dt.datetime | None
    cv: CVPlan
    publications: PublicationList | tuple[()]
    """`site.publications`."""
    page_context: dict[str, dict[str, Any]]
    """Extra template context per page source (`cv` on CV pages, `publications` on publications pages)."""
    intros: dict[str, str]
    """Generated page -> content page whose rendered Markdown it shows (a CV page's introduction)."""
    translations: Translations | None = None
    """A language of a multilingual site: its pages' versions in the other languages (`link_translations`)."""
    talks: dict[str, Talk] = dataclasses.field(default_factory=dict)
    """Talk page source -> when and where it happens (`sitegen.content.talks`)."""
    news: tuple[NewsItem, ...] = ()
    """`site.news`: data/news.yaml and content/news/ pages, newest first."""
    now: dt.datetime | None = None
    """The build time (for future pages, and which talks are still to come); `build_date` when that is set."""
    expand_key: str = ""
    """A digest of what the dialect's expansion reads of the site (`SiteFacts`), part of the key of each page's
    rendered Markdown (`""` when it reads nothing)."""
    notes: tuple[Diagnostic, ...] = ()
    """Warnings of planning (a landing page's block naming an author with no profile), paths from the site root."""


def plan_site(config: SiteConfig, pages: list[Page], resources: list[str], data: dict[str, Any],
              cvs: list[CVSource], cv_options: CVOptions, publications: list[Publication], *,
              now: dt.datetime, drafts: bool, future: bool, build_date: dt.datetime | None,
              dialect: Dialect = NATIVE, urls: UrlHelper | None = None) -> SitePlan:
    """Plan the site; raises ErrorGroup with every problem of the phase (URL collisions, unsafe URLs...)."""
    tree, errors = assemble_tree(pages, resources, config, now=now, drafts=drafts, future=future)
    talks: dict[str, Talk] = {}
    for source, page in sorted(tree.pages.items()):
        talk, problems = read_talk(page)
        errors.extend(problems)
        if talk is not None:
            talks[source] = talk
    urls = urls or UrlHelper(config)
    taxonomies = collect_taxonomies(tree, config.taxonomies, dialect.term_slug)
    taxonomy_pages: dict[str, Page] = {}
    if config.dialect_settings.get("taxonomy_pages") == "content":
        # Hugo: `content/tags/_index.md` and `content/tags/<term>/_index.md` are the taxonomy's and terms' own pages
        tree, taxonomy_pages = taxonomy_content(tree, taxonomies, dialect.term_slug)
    apply_term_permalinks(taxonomies, config.permalinks, dialect.term_slug)
    content = tuple(sorted(tree.pages))
    archive_patterns = config.dialect_settings.get("archives") or {}
    place_terms(taxonomies, archive_patterns)
    # Generated pages, in order: each planner sees the URLs taken before it (a content page at /cv/ or
    # /publications/ wins over the generated one).
    cv_plan = plan_cv(tree, urls, cvs, cv_options, publications)
    tree = _with_pages(tree, cv_plan.pages, cv_plan.urls)
    pubs = plan_publications(tree, config, urls, publications, cvs, cv_options.name_variants)
    tree = _with_pages(tree, pubs.pages, pubs.urls)
    news, news_errors = read_news(data, tree.pages, tree.urls)
    errors.extend(news_errors)
    tree = _with_pages(tree, *_news_page(tree, news, config))
    listing_pages, listing_urls, listing_terms = listing_pages_of(taxonomies, date_archives(tree, archive_patterns),
                                                                  taxonomy_pages)
    tree = _with_pages(tree, listing_pages, listing_urls)
    content = (*content, *sorted(s for s, p in listing_pages.items() if p.body.strip()))  # their own pages' text
    # Landing pages (Hugo Blox, Wowchemy, hugo-resume): their blocks' pages and authors (a profile may be a term's)
    tree, notes = plan_landing(tree, pages, data, now, dialect, config.params)
    raise_if_any([*errors, *url_collisions(tree.urls, generated=set(listing_pages))])
    page_context = {**cv_plan.context, **pubs.context}
    facts = site_facts(config, tree, content, data, urls, page_context, publications)
    bound = dialect.for_site(facts)
    return SitePlan(config=config, tree=tree, content=content, taxonomies=taxonomies, listing_terms=listing_terms,
                    data=data, urls=urls, dialect=bound, build_date=build_date, cv=cv_plan, publications=pubs.listing,
                    page_context=page_context, intros=dict(cv_plan.intros),
                    expand_key="" if bound is dialect else key_of("site-facts", facts),
                    talks=talks, news=tuple(news), now=now, notes=tuple(notes))


def site_facts(config: SiteConfig, tree: ContentTree, content: tuple[str, ...], data: dict[str, Any],
               urls: UrlHelper, page_context: Mapping[str, Mapping[str, Any]],
               publications: list[Publication] | None = None) -> SiteFacts:
    """What in-content syntax may read of the planned site: every content page's variables and URL, where
    each BibTeX entry is shown (the first publications page), and the entries themselves."""
    pages: dict[str, dict[str, Any]] = {}
    for source in content:
        page = tree.pages[source]
        pages[source] = {**page.params, **page.taxonomies, "title": page.title, "url": urls.url(tree.urls[source]),
                         "date": page.date, "description": page.description, "layout": page.layout or "",
                         "path": source}
    citations: dict[str, str] = {}
    for source, context in sorted(page_context.items()):
        listing = context.get("publications")
        for entry in getattr(listing, "entries", []):
            citations.setdefault(entry.key, f"{tree.urls[source]}#{entry.id}")
    bibliography = tuple(_bib_entry(p, citations.get(p.key, "")) for p in newest_first(list(publications or []))
                         if p.key)
    return SiteFacts(config=config, data=data, pages=pages, urls={s: tree.urls[s] for s in content},
                     citations=citations, bibliography=bibliography)


def _bib_entry(p: Publication, url: str) -> dict[str, Any]:
    """A BibTeX entry as in-content bibliography lists select and show it (`SiteFacts.bibliography`)."""
    kind, fields = bibtex_fields(p.bibtex)
    fields.update(dict(p.extra))
    if p.selected:
        fields["selected"] = "true"
    if p.tags:
        fields.setdefault("keywords", ", ".join(p.tags))
    fields.setdefault("year", p.year)
    return {"key": p.key, "type": kind, "fields": fields, "year": p.year, "authors": list(p.authors),
            "title": p.title, "venue": p.venue, "url": url,
            "file": posixpath.splitext(posixpath.basename(p.path))[0]}


def _news_page(tree: ContentTree, news: list[NewsItem], config: SiteConfig
               ) -> tuple[dict[str, Page], dict[str, str]]:
    """/news/ for data/news.yaml, unless a content page or a `news/` section has that URL."""
    taken = {output_path_for(u).casefold() for u in tree.urls.values()}
    if not news or output_path_for(NEWS_URL).casefold() in taken:
        return {}, {}
    page = Page(source=NEWS_PAGE, kind="page", title="News", body="", layout="news", generated=True,
                description=f"News from {config.author.name or config.title}")
    return {NEWS_PAGE: page}, {NEWS_PAGE: NEWS_URL}


def listing_pages_of(taxonomies: Mapping[str, Mapping[str, Term]], archives: Mapping[str, Term] | None = None,
                     own: Mapping[str, Page] | None = None) -> tuple[dict[str, Page], dict[str, str], dict[str, Term]]:
    """Taxonomy index pages, term pages, date archives (`sitegen.content.archives`) and the 404 page: (pages,
    their URLs, term page -> Term). A taxonomy or term with a content page of its own (`own`, `Term.page`) takes
    its title, description, params and text."""
    pages: dict[str, Page] = {}
    urls: dict[str, str] = {}
    terms_of: dict[str, Term] = {}
    for source, term in (archives or {}).items():  # listed like a term of the posts, under the posts' list
        pages[source] = Page(source=source, kind="term", title=term.name, body="", generated=True,
                             params={"taxonomy": "posts", "term": term.slug, "archive": term.taxonomy})
        urls[source] = term.url
        terms_of[source] = term
    for name, terms in taxonomies.items():
        page = _listing(Page(source=f"_taxonomies/{name}", kind="taxonomy", title=name.replace("_", " ").title(),
                             body="", params={"taxonomy": name}, generated=True), (own or {}).get(name))
        pages[page.source] = page
        urls[page.source] = f"/{name}/"
        for slug, term in terms.items():
            page = _listing(Page(source=f"_taxonomies/{name}/{slug}", kind="term", title=term.name, body="",
                                 params={"taxonomy": name, "term": slug}, generated=True), term.page)
            pages[page.source] = page
            urls[page.source] = term.url
            terms_of[page.source] = term
    pages[NOT_FOUND] = Page(source=NOT_FOUND, kind="404", title="Page not found", body="", generated=True)
    urls[NOT_FOUND] = "/404.html"
    return pages, urls, terms_of


def _listing(page: Page, content: Page | None) -> Page:
    """A taxonomy or term page with its own content page (Hugo's `content/tags/x/_index.md`): keyed by that file,
    so that its text is rendered and named as the file in messages."""
    if content is None:
        return page
    return dataclasses.replace(page, source=content.source, title=content.title or page.title,
                               description=content.description,
                               params={**content.params, **page.params}, images=content.images,
                               body=content.body, body_line=content.body_line)


def url_collisions(urls: Mapping[str, str], generated: set[str]) -> list[SitegenError]:
    """An error for each pair of pages writing the same output file, naming both.

    A taxonomy, term or 404 page that meets a content page gives way (the content page wins, so a site can
    write its own `/tags/` page); any other pair is an error.
    """
    claimed: dict[str, str] = {}
    errors: list[SitegenError] = []
    for source in sorted(urls, key=lambda s: (s in generated, s)):
        out = output_path_for(urls[source]).casefold()
        other = claimed.get(out)
        if other is None:
            claimed[out] = source
        elif source not in generated:
            errors.append(ContentError(
                f"two pages write the same output `{output_path_for(urls[source])}`: {source_label(other)} and "
                f"{source_label(source)}", path=source_label(source), hint="give one of them another `slug` or `url`"))
    return errors


def source_label(source: str) -> str:
    """How messages name a page's source: `content/x.md`, or the key of a generated page (`_special/404`)."""
    generated = source.startswith("_") and not source.endswith((".md", ".markdown"))  # `_index.md` is content
    return source if generated else f"content/{source}"


def _with_pages(tree: ContentTree, pages: Mapping[str, Page], urls: Mapping[str, str]) -> ContentTree:
    """The tree with generated pages added (a new tree: the old one is not changed)."""
    if not pages:
        return tree
    return dataclasses.replace(tree, pages={**tree.pages, **pages}, urls={**tree.urls, **urls})
