"""The URL each page of a site folder gets, as sitegen reads it (in place with its dialect, or once imported).

The importer compares the two: a page whose new URL differs from the one it had gets `url:` in its front
matter, so links and search results pointing at the old site keep working. Pages that cannot be parsed are
left out (the build reports them); nothing here raises.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.config import SiteConfig
from sitegen.content.frontmatter import normalize_text, split_front_matter
from sitegen.content.page import Page
from sitegen.content.sources import discover_sources, read_text
from sitegen.content.tree import ContentTree, assemble_tree
from sitegen.content.urls import UrlHelper
from sitegen.dialects import Dialect
from sitegen.dialects.base import ExpandContext
from sitegen.errors import SitegenError
from sitegen.importer.pages import parse_leniently
from sitegen.links import LinkResolver

_FAR_FUTURE = dt.datetime(9999, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class SiteReading:
    """A site folder as sitegen reads it: its content tree and the URL of each page by its path in the folder."""

    tree: ContentTree | None = None
    urls: dict[str, str] = field(default_factory=dict)
    """Site-relative source path (`content/posts/x.md`, `_posts/x.md`) -> URL path (`/posts/x/`)."""
    keys: dict[str, str] = field(default_factory=dict)
    """Site-relative source path -> the page's key in the tree."""


def page_urls(site_dir: Path, config: SiteConfig, dialect: Dialect) -> dict[str, str]:
    """Site-relative source path -> URL path of every page (see `read_site`)."""
    return read_site(site_dir, config, dialect).urls


def expand_context(reading: SiteReading, source: str, config: SiteConfig) -> ExpandContext | None:
    """What converting the page at site-relative `source` may look up: other pages by the paths Hugo's `ref`
    names (their URLs as site paths, which the import keeps) and the page's and the site's params."""
    key = reading.keys.get(source)
    if reading.tree is None or key is None:
        return None
    resolver = LinkResolver(reading.tree, UrlHelper(dataclasses.replace(config, base_url="/")))
    params = collections.ChainMap(reading.tree.pages[key].params, dict(config.params))
    return ExpandContext(resolve_ref=resolver.ref_for_page(key), params=params, site_url=lambda path: path)


def read_site(site_dir: Path, config: SiteConfig, dialect: Dialect) -> SiteReading:
    """Every page of a site folder, placed as `dialect` places them, drafts and future pages included (not
    those whose URL another page has: the build reports them)."""
    try:
        sources = discover_sources(site_dir, [], allow_outside=False)
    except (SitegenError, OSError):
        return SiteReading()
    pages: list[Page] = []
    for source in sources.pages:
        try:
            fm = split_front_matter(normalize_text(read_text(source, "content")), source.rel)
        except (SitegenError, OSError):
            continue
        # A value sitegen refuses (`toc: [list]`, `weight: false`) does not hide the page's URL: it is dropped.
        page, _, _ = parse_leniently(source.rel, dict(fm.data), fm.body, config, dialect)
        if page is not None:
            pages.append(page)
    # Pages that collide are left out of the tree (the build reports them); every other page keeps its URL.
    tree, _ = assemble_tree(pages, [r.rel for r in sources.resources], config, now=_FAR_FUTURE, drafts=True,
                            future=True)
    keys = {f"content/{key}": key for key in tree.urls if key in tree.pages}
    return SiteReading(tree, {rel: tree.urls[key] for rel, key in keys.items()}, keys)
