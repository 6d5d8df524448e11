"""The URL each page of a site folder gets, as sitegen reads it (in place with its dialect, or once imported).

The importer compares the two: a page whose new URL differs from the one it had gets `url:` in its front
matter, so links and search results pointing at the old site keep working. Pages that cannot be parsed are
left out (the build reports them); nothing here raises.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sitegen.config import SiteConfig
from sitegen.content.frontmatter import normalize_text, split_front_matter
from sitegen.content.page import Page
from sitegen.content.sources import discover_sources, read_text
from sitegen.content.tree import assemble_tree
from sitegen.dialects import Dialect
from sitegen.errors import SitegenError
from sitegen.importer.pages import parse_leniently

_FAR_FUTURE = dt.datetime(9999, 1, 1, tzinfo=dt.UTC)


def page_urls(site_dir: Path, config: SiteConfig, dialect: Dialect) -> dict[str, str]:
    """Site-relative source path (`content/posts/x.md`) -> URL path (`/posts/x/`) of every page, drafts and
    future pages included (not those whose URL another page has: the build reports them)."""
    try:
        sources = discover_sources(site_dir, [], allow_outside=False)
    except (SitegenError, OSError):
        return {}
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
    return {_site_relative(site_dir, source): url for source, url in tree.urls.items() if source in tree.pages}


def _site_relative(site_dir: Path, source: str) -> str:
    """A page's source as a path in the site folder: under `content/`, or (a reader that finds pages elsewhere,
    such as Jekyll's `_posts/`) as named."""
    return source if not (site_dir / "content" / source).is_file() and (site_dir / source).is_file() \
        else f"content/{source}"
