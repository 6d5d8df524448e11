"""The content tree: which pages are published, their sections, URLs, resources and neighbours.

Relations are keys: pages are looked up by their content-relative source path; sections by folder key
(`""` is the home section). Assembly is pure: it takes parsed pages and resource paths and returns a tree.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from dataclasses import dataclass, field
from functools import cached_property

from sitegen.config import SiteConfig
from sitegen.content.page import Page
from sitegen.content.urls import (
    UnsafeURLError,
    expand_permalink,
    nfc,
    normalize_url_path,
    output_path_for,
    slugify_path_part,
)
from sitegen.errors import ContentError, SitegenError

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

    @cached_property
    def order(self) -> dict[str, int]:
        """Position of each regular page in newest-first order."""
        return {source: i for i, source in enumerate(self.regular)}


def sort_key(page: Page) -> tuple[float, int, str, str]:
    """Newest first; ties by weight, then title, then path, so order never depends on the file system."""
    date = page.date or _FAR_PAST
    return (-date.timestamp(), page.weight, page.title.casefold(), page.source)


def is_published(page: Page, config: SiteConfig, now: dt.datetime, drafts: bool, future: bool) -> bool:
    """Drafts, future-dated and expired pages are left out unless asked for."""
    if page.draft and not drafts:
        return False
    if not future:
        publish = page.publish_date or page.date
        if publish is not None and publish > now:
            return False
    if page.expiry_date is not None and page.expiry_date <= now and not config.build.expired:
        return False
    return True


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
                                                   title=page.title, filename=page.stem))
    folder = page.folder
    prefix = "/".join(slugify_path_part(p) or nfc(p) for p in folder.split("/")) + "/" if folder else ""
    return "/" + prefix + slug + "/"


def assemble_tree(pages: list[Page], resource_paths: list[str], config: SiteConfig, *, now: dt.datetime,
                  drafts: bool, future: bool) -> tuple[ContentTree, list[SitegenError]]:
    """Filter, place and address every page; returns the tree and the errors found (URL collisions...)."""
    errors: list[SitegenError] = []
    published = [p for p in pages if is_published(p, config, now, drafts, future)]
    keys = _section_keys(published)
    by_source = {p.source: p for p in published}
    for key in sorted(keys):
        index = f"{key}/_index.md" if key else "_index.md"
        if index not in by_source:
            title = config.title if not key else key.split("/")[-1].replace("-", " ").replace("_", " ").title()
            by_source[index] = Page(source=index, kind="home" if not key else "section", title=title, body="",
                                    generated=True)
    sections = {k: Section(key=k, page=f"{k}/_index.md" if k else "_index.md") for k in sorted(keys)}
    for key in sorted(keys - {""}):
        parent = _nearest_section(posixpath.dirname(key), keys)
        sections[parent].subsections.append(key)

    urls: dict[str, str] = {}
    section_of: dict[str, str] = {}
    claimed: dict[str, str] = {}
    for source in sorted(by_source):
        page = by_source[source]
        folder = posixpath.dirname(source) if page.kind != "page" else page.folder
        section = _nearest_section(folder, keys) if page.kind == "page" else folder
        try:
            url = _page_url(page, section, config)
        except UnsafeURLError as exc:
            errors.append(ContentError(str(exc), path=f"content/{source}", hint="fix the permalink pattern"))
            continue
        out = output_path_for(url).casefold()
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
        listing.pages.sort(key=lambda s: sort_key(by_source[s]))
    prev: dict[str, str | None] = {}
    nxt: dict[str, str | None] = {}
    for listing in sections.values():
        for i, member in enumerate(listing.pages):
            nxt[member] = listing.pages[i - 1] if i > 0 else None
            prev[member] = listing.pages[i + 1] if i + 1 < len(listing.pages) else None
    regular = sorted(section_of, key=lambda s: sort_key(by_source[s]))
    hidden_bundles = {posixpath.dirname(p.source) for p in pages if p.is_bundle and p.source not in urls}
    resources = _place_resources([r for r in resource_paths if not _under(r, hidden_bundles)], by_source, urls)
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
                       by_path=by_path)
    return tree, errors


def _under(rel: str, folders: set[str]) -> bool:
    folder = posixpath.dirname(rel)
    while folder:
        if folder in folders:
            return True
        folder = posixpath.dirname(folder)
    return False


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
