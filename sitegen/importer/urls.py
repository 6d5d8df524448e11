"""The URL each page of a site folder gets, as sitegen reads it (in place with its dialect, or once imported).

The importer compares the two: a page whose new URL differs from the one it had gets `url:` in its front
matter, so links and search results pointing at the old site keep working. Pages that cannot be parsed are
left out (the build reports them); nothing here raises.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.config import SiteConfig
from sitegen.content.frontmatter import normalize_text, split_front_matter
from sitegen.content.page import Page
from sitegen.content.sources import discover_sources, load_data, read_text
from sitegen.content.tree import ContentTree, assemble_tree
from sitegen.content.urls import UrlHelper
from sitegen.dialects import Dialect
from sitegen.dialects.base import ExpandContext
from sitegen.errors import Diagnostic, SitegenError
from sitegen.importer.pages import parse_leniently
from sitegen.links import LinkResolver
from sitegen.plan import site_facts

_FAR_FUTURE = dt.datetime(9999, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class SiteReading:
    """A site folder as sitegen reads it: its content tree and the URL of each page by its path in the folder."""

    tree: ContentTree | None = None
    urls: dict[str, str] = field(default_factory=dict)
    """Site-relative source path (`content/posts/x.md`, `_posts/x.md`) -> URL path (`/posts/x/`)."""
    keys: dict[str, str] = field(default_factory=dict)
    """Site-relative source path -> the page's key in the tree."""
    dialect: Dialect | None = None
    """The site's dialect bound to what its pages read of the site (Liquid's `site`, links), as the build binds it."""
    files: frozenset[str] = frozenset()
    """Output paths of the files the site publishes as they are (static files, page resources)."""


def page_urls(site_dir: Path, config: SiteConfig, dialect: Dialect) -> dict[str, str]:
    """Site-relative source path -> URL path of every page (see `read_site`)."""
    return read_site(site_dir, config, dialect).urls


Expander = Callable[[str, str, int], tuple[str, list[Diagnostic]]]


def page_expander(reading: SiteReading, source: str, config: SiteConfig) -> Expander | None:
    """The in-content syntax of the page at site-relative `source` expanded as the build expands it in place:
    with other pages by the paths it names (`ref`, `{% link %}`: their URLs as site paths, which the import
    keeps), the page's and the site's params and Liquid's `site`; warnings name the page by its own path."""
    key = reading.keys.get(source)
    if reading.tree is None or key is None or reading.dialect is None:
        return None
    resolver = LinkResolver(reading.tree, UrlHelper(dataclasses.replace(config, base_url="/")))
    params = collections.ChainMap(reading.tree.pages[key].params, dict(config.params))
    context = ExpandContext(resolve_ref=resolver.ref_for_page(key), params=params, site_url=lambda path: path)
    dialect, named = reading.dialect, f"content/{key}"

    def expand(body: str, _source: str, body_line: int) -> tuple[str, list[Diagnostic]]:
        text, notes = dialect.expand(body, key, body_line, context)
        return text, [dataclasses.replace(n, path=source) if n.path == named else n for n in notes]

    return expand


def read_site(site_dir: Path, config: SiteConfig, dialect: Dialect) -> SiteReading:
    """Every page of a site folder, placed as `dialect` places them, drafts and future pages included (not
    those whose URL another page has: the build reports them)."""
    try:
        sources = discover_sources(site_dir, [], allow_outside=False, layout=config.layout)
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
    # A page read in place from another tool's layout is named by its own path (`_posts/x.md`).
    keys = {sources.labels.get(f"content/{key}", f"content/{key}"): key for key in tree.urls if key in tree.pages}
    # Bound as the build binds it, with site paths for URLs (the new site adds its base path itself).
    slash = dataclasses.replace(config, base_url="/")
    content = tuple(sorted(k for k in tree.pages if k in tree.urls))
    facts = site_facts(slash, tree, content, load_data(sources.data, []), UrlHelper(slash), {})
    files = frozenset([*(f.rel for f in sources.static), *tree.resources.values()])
    return SiteReading(tree, {rel: tree.urls[key] for rel, key in keys.items()}, keys, dialect.for_site(facts),
                       files)
