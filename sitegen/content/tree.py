"""The content tree: which pages are published, their sections, URLs, resources and neighbours.

Relations are keys: pages are looked up by their content-relative source path; sections by folder key
(`""` is the home section). Assembly is pure: it takes parsed pages and resource paths and returns a tree.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import posixpath
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sitegen.config import SiteConfig
from sitegen.content.buildopts import never_rendered
from sitegen.content.page import Page
from sitegen.content.talks import is_talk
from sitegen.content.urls import (
    UnsafeURLError,
    expand_permalink,
    nfc,
    normalize_url_path,
    output_path_for,
    slugify_path_part,
    under_any,
)
from sitegen.errors import ContentError, Diagnostic, SitegenError

_FAR_PAST = dt.datetime(1, 1, 1, tzinfo=dt.UTC)


@dataclass
class Section:
    """A folder of content: its list page and the pages directly in it."""

    key: str
    """Folder path (`posts`, `posts/2024`); `""` for the home section."""
    page: str
    """Source of its `_index.md` (real or synthesized)."""
    pages: list[str] = field(default_factory=list)
    """Regular pages in this section, newest first."""
    subsections: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class LeftOut:
    """A page the build leaves out, and why: for warnings and for the dev server's 404 page."""

    source: str
    reason: str
    """`draft`, `future` (its `publishDate` or `date` is after the build time), `expired`, or `headless` (Hugo's
    `headless: true` or `build: {render: never}`, see `sitegen.content.buildopts`), or `conflict` (another page of
    a Jekyll site has its URL: `kept`)."""
    date: dt.datetime | None = None
    """The date that decided (`future`, `expired`)."""
    output: str | None = None
    """The output path it would have (`posts/x/index.html`), unless that is not known or taken."""
    kept: str | None = None
    """`conflict` (a Jekyll site's two pages at one URL): the source of the page written instead."""


@dataclass(frozen=True)
class ContentTree:
    """Published pages keyed by source, with everything derived from their positions (never changed once
    planned: a new page means a new tree)."""

    pages: dict[str, Page]
    urls: dict[str, str]
    """Source -> site path without base path (`/posts/x/`)."""
    sections: dict[str, Section]
    section_of: dict[str, str]
    """Regular page source -> section key."""
    regular: list[str]
    """All regular pages, newest first."""
    resources: dict[str, str]
    """Content resource rel path -> output path."""
    prev: dict[str, str | None]
    """Page source -> the older page in its section."""
    next: dict[str, str | None]
    """Page source -> the newer page in its section."""
    by_path: dict[str, str]
    """Content-relative lookup keys (`posts/x.md`, `posts/x`, `posts/x/`) -> source, for link resolution."""
    left_out: dict[str, LeftOut] = field(default_factory=dict)
    """Source -> why a page is not published (drafts, future-dated and expired pages)."""

    @cached_property
    def order(self) -> dict[str, int]:
        """Position of each regular page in newest-first order."""
        return {source: i for i, source in enumerate(self.regular)}


def sort_key(page: Page, weight_first: bool = False) -> tuple[Any, ...]:
    """Newest first; ties by weight, then title, then path, so order never depends on the file system.
    `weight_first` (Hugo's order): pages with a weight come first, lightest first, then the others by date."""
    date = page.date or _FAR_PAST
    if weight_first:
        return (page.weight == 0, page.weight, -date.timestamp(), page.title.casefold(), page.source)
    return (-date.timestamp(), page.weight, page.title.casefold(), page.source)


def is_published(page: Page, config: SiteConfig, now: dt.datetime, drafts: bool, future: bool) -> bool:
    """Drafts, future-dated and expired pages are left out unless asked for."""
    return why_left_out(page, config, now, drafts, future) is None


def why_left_out(page: Page, config: SiteConfig, now: dt.datetime, drafts: bool, future: bool) -> LeftOut | None:
    """Why a page is not published (draft, future, expired), or None when it is."""
    if page.draft and not drafts:
        return LeftOut(page.source, "draft")
    if not future:
        # A talk's `date` is when it happens, not when it was written: only `publishDate` holds it back.
        publish = page.publish_date if is_talk(page) else page.publish_date or page.date
        if publish is not None and publish > now:
            return LeftOut(page.source, "future", publish)
    if page.expiry_date is not None and page.expiry_date <= now and not config.build.expired:
        return LeftOut(page.source, "expired", page.expiry_date)
    return None


def left_out_warnings(tree: ContentTree, pages: list[Page], now: dt.datetime) -> list[Diagnostic]:
    """A warning for each future-dated page or section left out: a post that vanishes without a word looks like
    a bug (drafts and expired pages are left out because their author said so)."""
    by_source = {p.source: p for p in pages}
    warnings = []
    for source, why in sorted(tree.left_out.items()):
        if why.reason == "conflict" and why.kept:
            out = output_path_for(tree.urls[why.kept])
            warnings.append(Diagnostic(
                f"Conflict: destination `{out}` shared by multiple files: `content/{why.kept}` and "
                f"`content/{source}`: `content/{why.kept}` (the first by path) is written, this one is left out",
                path=f"content/{source}",
                hint="give one of them another `permalink` (Jekyll, too, writes only one of them)"))
            continue
        if why.reason != "future" or why.date is None:
            continue
        page = by_source[source]
        key = "publishDate" if page.publish_date else "date"
        written = f"`{key}: {show_date(why.date)}`" if page.date_line or key == "publishDate" else \
            f"the date in its file name ({show_date(why.date)})"
        what = "this page is left out"
        if page.kind == "section":
            # Its pages are still published: the section stays, as a plain list, without its own title and text.
            section = tree.sections.get(posixpath.dirname(source))
            url = tree.urls.get(section.page) if section else None
            what = (f"this section's own title and text are left out; {url} is a plain list of its pages until "
                    "then") if url else "this section is left out"
        warnings.append(Diagnostic(
            f"{written} is after the build time ({show_date(now)}): {what}", path=f"content/{source}",
            line=page.date_line, col=1 if page.date_line else None,
            hint="build or serve with `--future` (or `build: {future: true}` in sitegen.yaml) to publish it now; "
                 "without it, it appears in the first build after that date"))
    return warnings


def show_date(value: dt.datetime) -> str:
    """`2031-05-01` for a date written without a time, else `2031-05-01T09:30:00+02:00`."""
    if value.tzinfo is not None and value.utcoffset() == dt.timedelta(0) and value.time() == dt.time(0):
        return value.date().isoformat()
    return value.isoformat(timespec="seconds")


def _section_keys(pages: list[Page]) -> set[str]:
    keys = {""}
    for page in pages:
        parts = page.folder.split("/") if page.folder else []
        if parts:
            keys.add(parts[0])
        if page.kind == "section":
            keys.add(posixpath.dirname(page.source))
    return keys


def _nearest_section(folder: str, keys: set[str]) -> str:
    while folder and folder not in keys:
        folder = posixpath.dirname(folder)
    return folder


def _page_url(page: Page, section: str, config: SiteConfig) -> str:
    if page.url:
        return page.url
    if page.kind == "home":
        return "/"
    if page.kind == "section":
        folder = posixpath.dirname(page.source)
        return "/" + "/".join(slugify_path_part(p) or nfc(p) for p in folder.split("/")) + "/"
    slug = (slugify_path_part(page.slug) if page.slug else "") or slugify_path_part(page.stem) or nfc(page.stem)
    top = section.split("/")[0] if section else ""
    pattern = config.permalinks.get(section) or config.permalinks.get(top)
    if pattern:
        return normalize_url_path(expand_permalink(pattern, date=page.date, slug=slug, section=section,
                                                   title=page.title, filename=page.stem,
                                                   front_slug=slugify_path_part(page.slug) if page.slug else None))
    folder = page.folder
    prefix = "/".join(slugify_path_part(p) or nfc(p) for p in folder.split("/")) + "/" if folder else ""
    return "/" + prefix + slug + "/"


def assemble_tree(pages: list[Page], resource_paths: list[str], config: SiteConfig, *, now: dt.datetime,
                  drafts: bool, future: bool) -> tuple[ContentTree, list[SitegenError]]:
    """Filter, place and address every page; returns the tree and the errors found (URL collisions...)."""
    errors: list[SitegenError] = []
    left_out: dict[str, LeftOut] = {}
    published = []
    unrendered = never_rendered(pages)
    for page in pages:
        why = LeftOut(page.source, "headless") if page.source in unrendered else \
            why_left_out(page, config, now, drafts, future)
        if why is None:
            published.append(page)
        else:
            left_out[page.source] = why
    keys = _section_keys(published)
    by_source = {p.source: p for p in published}
    for key in sorted(keys):
        index = f"{key}/_index.md" if key else "_index.md"
        if index not in by_source:
            title = config.title if not key else key.split("/")[-1].replace("-", " ").replace("_", " ").title()
            # A dialect may name the list after the page the site wrote for it (Jekyll's Liquid archive pages).
            written = config.dialect_settings.get("list_pages", {}).get(key, {})
            by_source[index] = Page(source=index, kind="home" if not key else "section",
                                    title=written.get("title") or title, body="", generated=True,
                                    aliases=_list_aliases(written.get("aliases", [])))
    sections = {k: Section(key=k, page=f"{k}/_index.md" if k else "_index.md") for k in sorted(keys)}
    for key in sorted(keys - {""}):
        parent = _nearest_section(posixpath.dirname(key), keys)
        sections[parent].subsections.append(key)

    urls: dict[str, str] = {}
    section_of: dict[str, str] = {}
    claimed: dict[str, str] = {}
    # Pages written by hand first: a folder's generated list page gives way to a page at its URL
    # (`publications.md` beside `publications/`, Jekyll's `permalink: /`), which becomes the folder's page.
    for source in sorted(by_source, key=lambda s: (by_source[s].generated, s)):
        page = by_source[source]
        folder = posixpath.dirname(source) if page.kind != "page" else page.folder
        section = _nearest_section(folder, keys) if page.kind == "page" else folder
        try:
            url = _page_url(page, section, config)
        except UnsafeURLError as exc:
            errors.append(ContentError(str(exc), path=f"content/{source}", hint="fix the permalink pattern"))
            continue
        out = output_path_for(url).casefold()
        if out in claimed and page.generated and page.kind in ("home", "section"):
            sections[folder].page = claimed[out]
            continue
        if out in claimed and config.dialect_settings.get("shared_destination") == "warn":
            # Jekyll writes one of them with a warning ("Conflict: destination shared by multiple files"): the
            # page that sorts first by path is kept, this one is left out and named in a warning.
            left_out[source] = LeftOut(source, "conflict", kept=claimed[out])
            continue
        if out in claimed:
            errors.append(ContentError(
                f"two pages write the same output `{output_path_for(url)}`: content/{claimed[out]} and "
                f"content/{source}", path=f"content/{source}",
                hint="give one of them another `slug` or `url`"))
            continue
        claimed[out] = source
        urls[source] = url
        if page.kind == "page":
            section_of[source] = section
            sections[section].pages.append(source)

    for listing in sections.values():
        listing.pages.sort(key=lambda s: sort_key(by_source[s], config.weight_first))
    prev: dict[str, str | None] = {}
    nxt: dict[str, str | None] = {}
    for listing in sections.values():
        for i, member in enumerate(listing.pages):
            nxt[member] = listing.pages[i - 1] if i > 0 else None
            prev[member] = listing.pages[i + 1] if i + 1 < len(listing.pages) else None
    regular = sorted(section_of, key=lambda s: sort_key(by_source[s], config.weight_first))
    hidden_bundles = {posixpath.dirname(p.source) for p in pages if p.is_bundle and p.source not in urls}
    resources = _place_resources([r for r in resource_paths if not under_any(r, hidden_bundles)], by_source, urls)
    by_path: dict[str, str] = {}
    for source in by_source:
        by_path[source] = source
        stem = posixpath.splitext(source)[0]
        if by_source[source].is_bundle or by_source[source].kind != "page":
            stem = posixpath.dirname(source)
        by_path.setdefault(stem, source)
        by_path.setdefault(stem + "/", source)
    tree = ContentTree(pages={s: by_source[s] for s in urls}, urls=urls, sections=sections,
                       section_of=section_of, regular=regular, resources=resources, prev=prev, next=nxt,
                       by_path=by_path, left_out=_address_left_out(left_out, pages, keys, claimed, config))
    return tree, errors


def _address_left_out(left_out: dict[str, LeftOut], pages: list[Page], keys: set[str], claimed: dict[str, str],
                      config: SiteConfig) -> dict[str, LeftOut]:
    """Where each left-out page would be, so that the dev server can say why its URL is a 404."""
    by_source = {p.source: p for p in pages}
    placed: dict[str, LeftOut] = {}
    for source, why in sorted(left_out.items()):
        page = by_source[source]
        folder = posixpath.dirname(source) if page.kind != "page" else page.folder
        section = _nearest_section(folder, keys) if page.kind == "page" else folder
        try:
            out = output_path_for(_page_url(page, section, config))
        except UnsafeURLError:
            out = None
        taken = out is not None and out.casefold() in claimed
        placed[source] = dataclasses.replace(why, output=None if taken else out)
    return placed


def _list_aliases(urls: list[str]) -> list[str]:
    """The site paths of a list page's aliases (any that is not a plain site path is left out)."""
    out = []
    for url in urls:
        try:
            out.append(normalize_url_path(url))
        except UnsafeURLError:
            continue
    return out



def _place_resources(paths: list[str], pages: dict[str, Page], urls: dict[str, str]) -> dict[str, str]:
    """Bundle resources go next to their page's output; other content files keep their relative path."""
    bundles = {posixpath.dirname(s): s for s, p in pages.items() if p.is_bundle and s in urls}
    placed: dict[str, str] = {}
    for rel in paths:
        folder = posixpath.dirname(rel)
        owner = None
        while folder:
            if folder in bundles:
                owner = bundles[folder]
                break
            folder = posixpath.dirname(folder)
        if owner is not None:
            page_dir = output_path_for(urls[owner]).rsplit("/", 1)[0] if "/" in output_path_for(urls[owner]) else ""
            inner = rel[len(posixpath.dirname(owner)) + 1:]
            placed[rel] = f"{page_dir}/{inner}" if page_dir else inner
        else:
            placed[rel] = rel
    return placed
