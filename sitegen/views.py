"""Read-only views of pages, terms and the site for templates (the template context contract).

Views are thin: they look things up in the assembled tree and the rendered Markdown by key, so templates see
`page.prev.title` without the tree holding object cycles.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, overload

from jinja2.defaults import DEFAULT_POLICIES
from jinja2.filters import do_striptags, do_truncate
from markupsafe import Markup, escape

from sitegen.config import MenuItem, SiteConfig
from sitegen.content.languages import Version
from sitegen.content.menus import page_menu_items
from sitegen.content.news import home_limit
from sitegen.content.page import Page
from sitegen.content.related import related_pages, series_of, term_positions
from sitegen.content.talks import TalkView, event_jsonld, ics_path, keep_lines
from sitegen.content.taxonomies import Term
from sitegen.content.text import minutes_to_read, plain_text, plain_words, truncate_words
from sitegen.content.tree import ContentTree
from sitegen.content.urls import UrlHelper
from sitegen.cv.html import inline_markdown
from sitegen.images import SHARE_SIZE, ImageCatalog, ImageSettings, image_target, rewrite_images
from sitegen.markdown import Rendered
from sitegen.memo import body_key, digest, page_meta_key, stable
from sitegen.plan import SitePlan
from sitegen.templates import isodate


class Params(dict[str, Any]):
    """A mapping whose missing keys read as None in templates (`site.params.color`), as in Hugo.

    Nested mappings are wrapped on access, so `page.params.social.github` works the same way.
    """

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.get(name)

    def __getitem__(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        return Params(value) if isinstance(value, dict) and not isinstance(value, Params) else value

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        """Like dict.get, wrapping nested mappings."""
        return self[key] if key in self else default


class SiteState:
    """What the views read: the frozen plan, plus the rendered Markdown of its pages, keyed by source.

    The plan never changes; this object only adds what rendering produced and the views' own caches.
    """

    def __init__(self, plan: SitePlan, rendered: dict[str, Rendered], summaries: dict[str, str]) -> None:
        self.plan = plan
        self.rendered = rendered
        self.summaries = summaries
        """Rendered front matter `summary` Markdown, by source."""
        self.images = ImageCatalog(ImageSettings(process=False))
        """The site's processed images (the build sets it once its assets are read)."""
        self.views: dict[str, PageView] = {}
        self.reads: set[str] | None = None
        """While one page renders: the pages whose content (not just metadata) it read."""
        self._term_views: dict[tuple[str, str], TermView] = {}
        self._meta_keys: dict[str, str] = {}
        self._body_keys: dict[str, str] = {}
        self.derived: dict[str, Any] = {}
        """What is made once from every page's metadata (menus, the metadata digest): a quick rebuild, which
        changes no metadata, hands it to the next state (`sitegen.incremental`)."""

    @property
    def config(self) -> SiteConfig:
        return self.plan.config

    @property
    def tree(self) -> ContentTree:
        return self.plan.tree

    @property
    def taxonomies(self) -> dict[str, dict[str, Term]]:
        return self.plan.taxonomies

    @property
    def data(self) -> dict[str, Any]:
        return self.plan.data

    @property
    def urls(self) -> UrlHelper:
        return self.plan.urls

    @property
    def build_date(self) -> dt.datetime | None:
        return self.plan.build_date

    @property
    def publications(self) -> Any:
        """`site.publications` (a `sitegen.cv.pubpage.PublicationList`)."""
        return self.plan.publications

    def term_of(self, source: str) -> Term | None:
        """The Term listed by a synthesized term page."""
        return self.plan.listing_terms.get(source)

    def view(self, source: str | None) -> PageView | None:
        """The (cached) view of a page by its source, or None."""
        if source is None or source not in self.tree.pages:
            return None
        if source not in self.views:
            self.views[source] = PageView(self, source)
        return self.views[source]

    def term_view(self, term: Term) -> TermView:
        """The (cached) view of a taxonomy term."""
        key = (term.taxonomy, term.slug)
        view = self._term_views.get(key)
        if view is None or view.term is not term:
            view = self._term_views[key] = TermView(self, term)
        return view

    def metadata_digest(self) -> str:
        """Digest of every page's metadata and URL (not bodies): what listings, menus and neighbours can show."""
        found: str | None = self.derived.get("metadata_digest")
        if found is None:
            pages = "\n".join(self.meta_key(s) for s in sorted(self.tree.pages))
            if self.plan.translations is not None:  # a translation added in another language changes switchers
                pages += "\n" + stable(self.plan.translations)
            found = self.derived["metadata_digest"] = digest(pages)
        return found

    def menu_items(self) -> list[MenuItem]:
        """The main menu: the config's entries, then pages that put themselves in it (`menu: main`), by weight."""
        found: list[MenuItem] | None = self.derived.get("menu")
        if found is None:
            found = self.derived["menu"] = sorted([*self.config.menu, *page_menu_items(self.tree.pages,
                                                                                        self.tree.urls)],
                                                  key=lambda m: m.weight)
        return found

    def term_positions(self, term: Term) -> dict[str, int]:
        """Where each of a term's pages is in its list, made once per term (every page's related pages ask)."""
        known = self.derived.setdefault("term positions", {})
        found = known.get(id(term.pages))
        if found is None or found[0] is not term.pages:
            found = known[id(term.pages)] = (term.pages, term_positions(term))
        return found[1]

    def release(self) -> None:
        """Drop the cached views, which point back at this state: without the cycle, a state that is no
        longer used is freed at once rather than at the next full collection (the dev server replaces one
        on every rebuild)."""
        self.views.clear()
        self._term_views.clear()

    def meta_key(self, source: str) -> str:
        """Digest of a page's URL and metadata (everything but its body), computed once per build."""
        key = self._meta_keys.get(source)
        if key is None:
            page = self.tree.pages[source]
            key = self._meta_keys[source] = page_meta_key(source, self.tree.urls.get(source), page)
        return key

    def body_key(self, source: str) -> str:
        """Digest of a page's Markdown body, computed once per build."""
        key = self._body_keys.get(source)
        if key is None:
            key = self._body_keys[source] = body_key(self.tree.pages[source].body)
        return key


class PageView:
    """A page as templates see it."""

    def __init__(self, state: SiteState, source: str) -> None:
        self._state = state
        self._page: Page = state.tree.pages[source]
        self.source = source
        # Front matter fields of Page (title, date, weight, ...) read as plain attributes: templates read them
        # hundreds of thousands of times a build, and __getattr__ is the slow path. One dict update, minus the
        # names PageView defines itself (an instance entry would hide its methods and cached properties).
        self.__dict__.update({k: v for k, v in self._page.__dict__.items() if k not in _VIEW_NAMES})

    def __getattr__(self, name: str) -> Any:
        # Anything else of Page (properties such as `stem`) passes straight through.
        return getattr(self._page, name)

    @property
    def params(self) -> Params:
        """Front matter keys sitegen does not know, for templates (missing keys read as None)."""
        return Params(self._page.params)

    def __repr__(self) -> str:
        return f"<PageView {self.source}>"

    @cached_property
    def kind(self) -> str:
        """`home`, `section` or `page`."""
        return self._page.kind

    @property
    def rendered(self) -> Rendered:
        """The page's rendered Markdown (reading it is recorded as a content dependency)."""
        self._touch()
        return self._state.rendered.get(self.source) or Rendered(html="")

    @property
    def content(self) -> Markup:
        """The page body as HTML, its images sized and given responsive copies (sitegen.images)."""
        rendered = self.rendered  # (records the read)
        catalog = self._state.images
        made = self.__dict__.get("_content")
        # Made once per page and image catalog (the default theme reads it three times a page).
        if made is None or made[0] is not catalog or made[1] is not rendered:
            html = rendered.html
            if catalog.images:
                html = rewrite_images(html, self.path, catalog, self._state.config.base_path)
            made = self.__dict__["_content"] = (catalog, rendered, Markup(html))
        return made[2]

    def _touch(self) -> None:
        """Record that the page being rendered read this page's content."""
        if self._state.reads is not None:
            self._state.reads.add(self.source)

    @property
    def summary(self) -> Markup:
        """Front matter summary, else the text before `<!--more-->`, else the first words."""
        self._touch()
        return self._summary

    @cached_property
    def _summary(self) -> Markup:
        if self.source in self._state.summaries:
            return Markup(self._state.summaries[self.source])
        if self.rendered.summary_html is not None:
            return Markup(self.rendered.summary_html)
        text = truncate_words(self._plain, self._state.config.summary_length)
        return Markup(f"<p>{escape(text)}</p>") if text else Markup("")

    @property
    def truncated(self) -> bool:
        """True when the summary is shorter than the content (show a "read more" link)."""
        return self.rendered.summary_html is not None or len(self.plain) > len(plain_text(str(self.summary)))

    @property
    def plain(self) -> str:
        """The content as plain text."""
        self._touch()
        return self._plain

    @cached_property
    def _plain_words(self) -> tuple[str, tuple[int, int]]:
        """The text and its counts: as the render workers filled them in, else made here (the rendered record
        may be shared with the memo, so it is not changed)."""
        rendered = self._state.rendered.get(self.source)
        if rendered is None:
            return "", (0, 0)
        if rendered.plain is None or rendered.words is None:
            return plain_words(rendered.html)
        return rendered.plain, rendered.words

    @cached_property
    def _plain(self) -> str:
        return self._plain_words[0]

    @cached_property
    def _counts(self) -> tuple[int, int]:
        return self._plain_words[1]

    @property
    def word_count(self) -> int:
        """Words, each CJK character counting as one."""
        self._touch()
        return self._word_count

    @cached_property
    def _word_count(self) -> int:
        return sum(self._counts)

    @property
    def reading_time(self) -> int:
        """Minutes to read."""
        self._touch()
        return self._reading_time

    @cached_property
    def _reading_time(self) -> int:
        return minutes_to_read(*self._counts)

    @property
    def toc(self) -> list[Any]:
        """Headings h2-h4 as `{level, id, title}`."""
        return [t for t in self.rendered.toc if 2 <= t.level <= 4]

    @property
    def toc_enabled(self) -> bool:
        """Whether the theme should show the table of contents."""
        enabled = self._page.toc if self._page.toc is not None else self._state.config.toc
        return bool(enabled) and len(self.toc) > 0

    @property
    def math(self) -> bool:
        """Whether the page needs math rendering."""
        if self._page.math is not None:
            return self._page.math
        return self.rendered.has_math  # math the renderer found ($$, \(, $): no `math: true` needed

    # What follows is fixed for the build (the plan never changes; a quick rebuild makes new views): kept on the
    # view, since templates read it many times a page and from every list that shows the page.
    @cached_property
    def path(self) -> str:
        """Site path without the base path (`/posts/x/`)."""
        return self._state.tree.urls[self.source]

    @cached_property
    def url(self) -> str:
        """Site-relative URL with the base path."""
        return self._state.urls.url(self.path)

    @cached_property
    def permalink(self) -> str:
        """Absolute URL."""
        return self._state.urls.absurl(self.path)

    @cached_property
    def section(self) -> str:
        """Section key (`posts`), `""` for top-level pages."""
        if self._page.kind == "page":
            return self._state.tree.section_of.get(self.source, "")
        return posixpath.dirname(self.source)

    @cached_property
    def lang(self) -> str:
        """The page's language, else the site's."""
        return self._page.lang or self._state.config.language

    @cached_property
    def translations(self) -> list[Version]:
        """This page in the site's other languages (`key`, `tag`, `name`, `url`, `permalink`), language order."""
        plan = self._state.plan.translations
        versions = plan.versions.get(self.source, ()) if plan else ()
        return [v for v in versions if plan is not None and v.key != plan.key]

    @cached_property
    def hreflang(self) -> list[dict[str, str]]:
        """`<link rel="alternate" hreflang>` targets: every version of the page (this one too), then
        `x-default` (the default language's); empty for a page without translations."""
        plan = self._state.plan.translations
        versions = plan.versions.get(self.source, ()) if plan else ()
        if not versions or plan is None:
            return []
        chosen = next((v for v in versions if v.key == plan.default), versions[0])
        return [*({"lang": v.tag, "url": v.permalink} for v in versions),
                {"lang": "x-default", "url": chosen.permalink}]

    @cached_property
    def languages(self) -> list[dict[str, Any]]:
        """The language switcher: per language `{key, lang, name, url, current, translated}`, where `url` is this
        page's translation, else that language's home; empty for a site in one language."""
        plan = self._state.plan.translations
        if plan is None:
            return []
        versions = {v.key: v for v in plan.versions.get(self.source, ())}
        out = []
        for home in plan.homes:
            version = versions.get(home.key)
            current = home.key == plan.key
            target = self.url if current else (version or home).url
            out.append({"key": home.key, "lang": home.tag, "name": home.name, "url": target, "current": current,
                        "translated": current or version is not None})
        return out

    @property
    def prev(self) -> PageView | None:
        """The older page of the same section."""
        return self._state.view(self._state.tree.prev.get(self.source))

    @property
    def next(self) -> PageView | None:
        """The newer page of the same section."""
        return self._state.view(self._state.tree.next.get(self.source))

    @cached_property
    def pages(self) -> ViewList:
        """For home and sections: the pages listed, newest first (home: every regular page)."""
        tree = self._state.tree
        term = self._state.term_of(self.source)
        if term is not None:
            return self._state.term_view(term).pages
        if self._page.kind == "home":
            sources = tree.regular
        elif self._page.kind == "section":
            section = tree.sections.get(posixpath.dirname(self.source))
            sources = section.pages if section else []
        else:
            sources = []
        return ViewList(self._state, sources)

    @cached_property
    def sections(self) -> list[PageView]:
        """Subsections of a home or section page."""
        key = "" if self._page.kind == "home" else posixpath.dirname(self.source)
        section = self._state.tree.sections.get(key)
        subs = section.subsections if section and self._page.kind != "page" else []
        return [v for v in (self._state.view(self._state.tree.sections[k].page) for k in subs) if v is not None]

    @cached_property
    def taxonomies(self) -> dict[str, list[TermView]]:
        """The page's terms per taxonomy."""
        out: dict[str, list[TermView]] = {}
        for name, values in self._page.taxonomies.items():
            terms = self._state.taxonomies.get(name, {})
            slugs = dict.fromkeys(self._state.plan.dialect.term_slug(v) for v in values)
            out[name] = [self._state.term_view(terms[s]) for s in slugs                         if s in terms]
        return out

    @property
    def tags(self) -> list[TermView]:
        return self.taxonomies.get("tags", [])

    @property
    def categories(self) -> list[TermView]:
        return self.taxonomies.get("categories", [])

    @cached_property
    def related(self) -> list[PageView]:
        """Up to five pages sharing categories and tags, best match first."""
        if self._page.kind != "page":
            return []
        found = related_pages(self.source, self._state.tree, self._state.taxonomies,
                              slug_of=self._state.plan.dialect.term_slug, positions=self._state.term_positions)
        return [v for v in (self._state.view(s) for s in found) if v is not None]

    @cached_property
    def series(self) -> list[dict[str, Any]]:
        """Series the page belongs to: `{name, url, pages (part 1 first), number, total}`."""
        if self._page.kind != "page":
            return []
        out = []
        slug_of = self._state.plan.dialect.term_slug
        for term, sources in series_of(self.source, self._state.tree, self._state.taxonomies, slug_of):
            views = [v for v in (self._state.view(s) for s in sources) if v is not None]
            out.append({"name": term.name, "url": self._state.urls.url(term.url), "pages": views,
                        "number": sources.index(self.source) + 1, "total": len(sources)})
        return out

    @property
    def talk(self) -> TalkView | None:
        """When and where a talk page happens (`sitegen.content.talks`), or None for any other page (reading a
        talk is recorded as a content dependency: its description and body come from the page's text)."""
        made = self._talk
        if made is not None:
            self._touch()
        return made

    @cached_property
    def _talk(self) -> TalkView | None:
        talk = self._state.plan.talks.get(self.source)
        if talk is None:
            return None
        now = self._state.plan.now or self._state.build_date
        description = talk.abstract or truncate_words(self.plain, 300)
        author = self._state.config.author.name or ""
        return TalkView(talk, upcoming=now is None or talk.upcoming(now),
                        ics=self._state.urls.url(ics_path(self.path)),
                        jsonld=event_jsonld(talk, self.title, self.permalink, description,
                                            str(self.params.get("speaker") or author)),
                        body=Markup(keep_lines(str(self.content)) if self.params.get("plain_text") else self.content))

    @cached_property
    def resources(self) -> list[dict[str, str]]:
        """Bundle resources as `{name, url}`."""
        if not self._page.is_bundle:
            return []
        folder = posixpath.dirname(self.source) + "/"
        return [{"name": rel[len(folder):], "url": self._state.urls.url("/" + out)}
                for rel, out in sorted(self._state.tree.resources.items()) if rel.startswith(folder)]

    @property
    def images(self) -> list[str]:
        """The page's images as site paths or absolute URLs, for sharing (OpenGraph, JSON-LD): `images:` front
        matter (a path or a list; relative paths are the page's own), else the first image of its content that the
        site itself serves and link previews can show (not a remote badge, not an SVG)."""
        given = self._page.params.get("images")
        if isinstance(given, str):
            given = [given]
        found = [str(i) for i in given if i] if isinstance(given, list) else []
        if not found:
            self._touch()
            found = [src for src in _IMG_SRC.findall(self.rendered.html)
                     if not src.startswith(("http://", "https://", "//", "data:")) and not src.endswith(".svg")][:1]
        return [self._resolve(src) for src in found]

    @property
    def share(self) -> dict[str, Any]:
        """What link previews and structured data say of the page (the default theme's `partials/share.html`):
        `description` (front matter `description`, else a regular page's summary, else the site's; tags stripped,
        at most ~300 characters), `og_images` (`images`), `og_image` (absolute URL of the first, or of the site's
        `params.og_image`, else the author's photo; its share crop when the build made one), `og_size` (`site.image`
        of it). Made once per page: the theme asks twice a page (head and JSON-LD); each asking records what the
        making read."""
        state = self._state
        made = self.__dict__.get("_share")
        if made is None or made[0] is not state.images or made[1] is not state.rendered.get(self.source):
            outer, state.reads = state.reads, set()
            try:
                values = _share(self, state)
            finally:
                read, state.reads = state.reads, outer
            made = self.__dict__["_share"] = (state.images, state.rendered.get(self.source), values, frozenset(read))
        if state.reads is not None:
            state.reads.update(made[3])
        values = dict(made[2])  # a copy each time (a template may change what it was given; the next must not see it)
        values["og_images"] = list(values["og_images"])
        if values["og_size"] is not None:
            values["og_size"] = dict(values["og_size"])
        return values

    def jsonld(self, description: str, og_images: Sequence[str], og_image: str,
               social_links: Iterable[Any]) -> list[dict[str, Any]]:
        """The page's schema.org objects (the default theme's `partials/jsonld.html`): a WebSite on the home page;
        the author's Person on the home, about and CV pages and any page with `author_card`; a BlogPosting on dated
        pages of the main sections (`params.main_sections`, default posts). `description`, `og_images` and
        `og_image` are what `partials/share.html` made and `social_links` what `partials/social-links.html` made
        (a site may replace either partial)."""
        config, absurl = self._state.config, self._state.urls.absurl
        params = Params(config.params)
        author = params.author if isinstance(params.author, Mapping) else {}
        person: dict[str, Any] = {"@type": "Person", "name": config.author.name or config.title, "url": absurl("/")}
        photo = author.get("photo")
        if isinstance(photo, str):
            person["image"] = absurl(photo)
        if author.get("role"):
            person["jobTitle"] = author.get("role")
        if author.get("affiliation"):
            person["affiliation"] = {"@type": "Organization", "name": author.get("affiliation")}
        if config.author.email:
            person["email"] = "mailto:" + config.author.email
        same_as = [_attribute(link, "url") for link in social_links if not _attribute(link, "key") == "email"]
        if same_as:
            person["sameAs"] = same_as
        byline = {"@type": "Person", "name": person["name"], "url": person["url"]}
        graph: list[dict[str, Any]] = []
        kind = self.kind
        if kind == "home":
            graph.append({"@type": "WebSite", "name": config.title, "url": absurl("/"),
                          "inLanguage": self.lang or config.language, "description": config.description or "",
                          "author": dict(byline)})
        if kind == "home" or self.path == "/about/" or self.layout == "cv" or self.params.author_card:
            graph.append(dict(person, mainEntityOfPage=self.permalink))
        if kind == "page" and self.date and self.section.split("/")[0] in (params.main_sections or ["posts"]) \
                and self.layout not in ("talk", "cv", "publications"):
            post = {"@type": "BlogPosting", "headline": self.title, "url": self.permalink,
                    "mainEntityOfPage": self.permalink, "datePublished": isodate(self.date),
                    "dateModified": isodate(self.lastmod or self.date), "inLanguage": self.lang,
                    "author": dict(byline)}
            if description:
                post["description"] = description
            if og_images:
                post["image"] = og_image
            if self.tags:
                post["keywords"] = ", ".join(term.name for term in self.tags)
            graph.append(post)
        return graph

    def _resolve(self, src: str) -> str:
        """A content-relative image path made site-absolute (`resources/x.png` -> `/posts/p/resources/x.png`)."""
        if src.startswith(("/", "http://", "https://", "data:")):
            return src
        return posixpath.normpath(posixpath.join(self.path, src)).replace("//", "/")


_IMG_SRC = re.compile(r'<img\b[^>]*?\bsrc="([^"]+)"')
"""The first image's `src` in rendered HTML (sitegen's Markdown always quotes attributes with `"`)."""


class ViewList(Sequence["PageView"]):
    """Pages of a list as views, made when read: a paginated list of thousands renders ten of them."""

    def __init__(self, state: SiteState, sources: list[str], *, checked: bool = False) -> None:
        self._state = state
        if checked:
            self._sources = sources
            return
        # The tree's lists (every page, a section's, a term's) are checked once per site structure: a quick
        # rebuild, which keeps the same lists, does not walk 10,000 pages again for each list page it renders.
        listed = state.derived.setdefault("listed", {})
        known = listed.get(id(sources))
        if known is None or known[0] is not sources:
            known = listed[id(sources)] = (sources, [s for s in sources if s in state.tree.pages])
        self._sources = known[1]

    def __len__(self) -> int:
        return len(self._sources)

    @overload
    def __getitem__(self, index: int) -> PageView: ...

    @overload
    def __getitem__(self, index: slice) -> ViewList: ...

    def __getitem__(self, index: int | slice) -> PageView | ViewList:
        if isinstance(index, slice):
            return ViewList(self._state, self._sources[index], checked=True)
        return self._view(self._sources[index])

    def __repr__(self) -> str:
        return f"<ViewList of {len(self._sources)} pages>"

    def __iter__(self) -> Iterator[PageView]:
        return (self._view(s) for s in self._sources)

    def __add__(self, other: Iterable[PageView]) -> list[PageView]:
        return [*self, *other]

    def _view(self, source: str) -> PageView:
        view = self._state.view(source)
        assert view is not None
        return view


class TermView:
    """A taxonomy term as templates see it."""

    def __init__(self, state: SiteState, term: Term) -> None:
        self._state = state
        self.term = term
        self.name = term.name
        self.slug = term.slug
        self.taxonomy = term.taxonomy

    @property
    def path(self) -> str:
        return self.term.url

    @cached_property
    def url(self) -> str:
        return self._state.urls.url(self.term.url)

    @cached_property
    def permalink(self) -> str:
        return self._state.urls.absurl(self.term.url)

    @property
    def count(self) -> int:
        return len(self.term.pages)

    @cached_property
    def pages(self) -> ViewList:
        return ViewList(self._state, self.term.pages)


class SiteView:
    """The `site` template variable."""

    def __init__(self, state: SiteState) -> None:
        self._state = state
        config = state.config
        self.config = config
        self.title = config.title
        self.base_url = config.base_url
        self.language = config.language
        self.author = config.author
        self.description = config.description
        self.params = Params(config.params)
        self.data = state.data
        self.build_date = state.build_date
        self.publications = state.publications
        self.menu = [{"name": m.name, "url": state.urls.url(m.url), "path": m.url, "weight": m.weight}
                     for m in state.menu_items()]

    @cached_property
    def pages(self) -> list[PageView]:
        """All published regular pages, newest first."""
        return [v for v in (self._state.view(s) for s in self._state.tree.regular) if v is not None]

    @cached_property
    def sections(self) -> dict[str, PageView]:
        """Section key -> section page view."""
        out = {}
        for key, section in self._state.tree.sections.items():
            view = self._state.view(section.page)
            if view is not None and key:
                out[key] = view
        return out

    @cached_property
    def languages(self) -> list[dict[str, Any]]:
        """Every language of a multilingual site (`{key, lang, name, url, current}`, `url` its home), else []."""
        plan = self._state.plan.translations
        if plan is None:
            return []
        return [{"key": h.key, "lang": h.tag, "name": h.name, "url": h.url, "current": h.key == plan.key}
                for h in plan.homes]

    @cached_property
    def talks(self) -> dict[str, list[PageView]]:
        """`upcoming` (soonest first) and `past` (newest first) talk pages, split at the build time."""
        views = [v for v in (self._state.view(s) for s in sorted(self._state.plan.talks)) if v is not None]
        talks = [(v, v.talk) for v in views if v.talk is not None and not v.hidden]
        upcoming = sorted((x for x in talks if x[1].upcoming), key=lambda x: (x[1].start_utc, x[0].source))
        past = sorted((x for x in talks if not x[1].upcoming), key=lambda x: (x[1].start_utc, x[0].source),
                      reverse=True)
        return {"upcoming": [v for v, _ in upcoming], "past": [v for v, _ in past]}

    @cached_property
    def news(self) -> list[dict[str, Any]]:
        """News items newest first: `{date, html (inline Markdown), id, url, source}`."""
        urls = self._state.urls
        base = self._state.config.base_path
        return [{"date": item.date, "html": _under_base(inline_markdown(item.text), base), "id": item.id,
                 "source": item.source,
                 "url": urls.url(item.url) if item.url.startswith("/") else item.url}
                for item in self._state.plan.news]

    @cached_property
    def news_home(self) -> list[dict[str, Any]]:
        """The newest `news.home_limit` items (default 5), for the home page."""
        return self.news[: home_limit(self.config.news.get("home_limit"))]

    @cached_property
    def home(self) -> PageView | None:
        return self._state.view("_index.md")

    @cached_property
    def taxonomies(self) -> dict[str, list[TermView]]:
        """Taxonomy name -> its terms, sorted by slug."""
        return {name: [self._state.term_view(t) for t in terms.values()]
                for name, terms in self._state.taxonomies.items()}

    def get_page(self, source: str) -> PageView | None:
        """Look a page up by content path (`about.md`)."""
        return self._state.view(source)

    def share_image(self, src: str) -> str:
        """The image link previews should show for `src` (a site path): its 1200×630 crop when the build made
        one (sitegen.images), else `src` itself."""
        return _share_image(self._state, src)

    def image(self, src: str) -> dict[str, Any] | None:
        """A processed image (`width`, `height`, `srcset`, `webp`: `srcset` strings of its copies), or None when
        it is not one (remote, SVG, processing off). For templates' own images, e.g. the author photo."""
        return _image(self._state, src)

    @property
    def social_links(self) -> list[dict[str, str]]:
        """The author's profiles as `[{key, label, url}]` (the default theme's `partials/social-links.html`), from
        `params.social`: a full URL, or the short form each network uses (GitHub user name, LinkedIn handle,
        Scholar user id, ORCID iD, email address); `email` falls back to `author.email`. Made once per build, and
        given as a new list each time (a template may append to it, as the partial's own loop did)."""
        return [dict(link) for link in self._social_links]

    @cached_property
    def _social_links(self) -> tuple[dict[str, str], ...]:
        social = self.params.social
        social = social if isinstance(social, Mapping) else {}
        links = []
        for key, label, prefix in _NETWORKS:
            value = social.get(key) or (self.author.email if key == "email" else None)
            if value:
                value = value if isinstance(value, str) else str(value)
                links.append({"key": key, "label": label,
                              "url": value if "://" in value or value.startswith("mailto:") else prefix + value})
        return tuple(links)


def _under_base(html: Markup, base: str) -> Markup:
    """Site paths written in data (`[CV](/cv/)`) with the site's base path (`/repo/cv/`)."""
    return html if base == "/" else Markup(re.sub(r'href="/(?!/)', f'href="{base}', str(html)))


_NETWORKS = (
    ("github", "GitHub", "https://github.com/"),
    ("gitlab", "GitLab", "https://gitlab.com/"),
    ("linkedin", "LinkedIn", "https://www.linkedin.com/in/"),
    ("scholar", "Google Scholar", "https://scholar.google.com/citations?user="),
    ("orcid", "ORCID", "https://orcid.org/"),
    ("mastodon", "Mastodon", ""),
    ("twitter", "X (Twitter)", "https://x.com/"),
    ("email", "Email", "mailto:"),
)
"""`SiteView.social_links`' networks, in the order they are shown: key in `params.social`, label, URL prefix of
the short form."""


def _share_image(state: SiteState, src: str) -> str:
    """`SiteView.share_image`."""
    target = image_target(src, "/", state.config.base_path) if isinstance(src, str) else None
    crop = state.images.shares.get(target) if target else None
    return "/" + crop if crop else src


def _image(state: SiteState, src: str) -> dict[str, Any] | None:
    """`SiteView.image`."""
    target = image_target(src, "/", state.config.base_path) if isinstance(src, str) else None
    info = state.images.images.get(target) if target else None
    if info is None:
        if target not in state.images.shares.values():
            return None
        return {"width": SHARE_SIZE[0], "height": SHARE_SIZE[1], "srcset": "", "webp": ""}
    url = state.urls.url
    return {"width": info.width, "height": info.height,
            "srcset": ", ".join([*(f"{url('/' + p)} {w}w" for p, w in info.copies), f"{url(src)} {info.width}w"]),
            "webp": ", ".join(f"{url('/' + p)} {w}w" for p, w in info.webp)}


def _attribute(value: Any, name: str) -> Any:
    """`value.name` as a template reads it (an attribute, else an item: a mapping's key)."""
    try:
        return getattr(value, name)
    except AttributeError:
        return value[name]


def _share(page: PageView, state: SiteState) -> dict[str, Any]:
    """`PageView.share`, as the default theme's share partial made it with Jinja filters."""
    kind = page.kind
    summary_text = do_striptags(page.summary).strip() if kind == "page" else ""
    description = page.description or summary_text or state.config.description
    description = do_truncate(None, do_striptags(description).strip(), 300,  # type: ignore[arg-type]
                              leeway=DEFAULT_POLICIES["truncate.leeway"]) if description else ""
    params = Params(state.config.params)
    author = params.author if isinstance(params.author, Mapping) else {}
    fallback = params.og_image if isinstance(params.og_image, str) else author.get("photo")
    fallback = fallback if isinstance(fallback, str) else ""
    og_images = page.images if kind != "404" else []
    og_path = _share_image(state, og_images[0] if og_images else fallback) if og_images or fallback else ""
    return {"description": description, "og_images": og_images,
            "og_image": (og_path if og_path.startswith(("http://", "https://")) else state.urls.absurl(og_path))
            if og_path else "",
            "og_size": _image(state, og_path) if og_path else None}


_VIEW_NAMES = frozenset(dir(PageView)) | {"source", "_state", "_page"}
"""Names PageView defines itself: its own properties, methods and cached properties win over Page's fields."""


_SCALARS = frozenset({str, int, float, bool, type(None), Markup, dt.date, dt.datetime})
_KEY_ITEMS = 64
"""How many values (list items, mapping entries) a variable's key may hold: larger ones are not keyed."""


def context_key(value: Any) -> Any:
    """A template variable's value as a key equal to another render's when the value is the same, for reusing an
    included template's text (`sitegen.templates.Fragments`); None when it cannot be keyed.

    Pages and terms are keyed by name (their metadata is in the site-wide key of the output, their content in
    the reads each fragment records), and so are a list page's pages (`ViewList`); the site by its kind; scalars,
    lists and mappings of these by value."""
    kind = type(value)
    if kind is PageView:
        return ("page", value.source)
    if kind in _SCALARS:
        return (kind.__name__, value)
    if kind is SiteView:
        return ("site",)
    return _container_key(value, [_KEY_ITEMS])


def _container_key(value: Any, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        return None
    kind = type(value)
    if kind in _SCALARS:
        return (kind.__name__, value)
    if kind is PageView:
        return ("page", value.source)
    if kind is SiteView:
        return ("site",)
    if kind is TermView:
        return ("term", value.taxonomy, value.slug)
    if kind is ViewList:  # (a list page's pages: keyed by name, as each of them is)
        budget[0] -= len(value._sources)  # noqa: SLF001 - this module's own class
        return ("pages", tuple(value._sources)) if budget[0] >= 0 else None  # noqa: SLF001
    if kind is list or kind is tuple:
        keys = tuple(_container_key(v, budget) for v in value)
        return None if None in keys else (kind.__name__, keys)
    if kind is dict or kind is Params:
        pairs = tuple((k, _container_key(v, budget)) for k, v in value.items())
        if any(type(k) is not str or v is None for k, v in pairs):
            return None
        return (kind.__name__, pairs)
    return None
