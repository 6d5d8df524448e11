"""The interface every dialect implements (a Protocol: dialects are plain objects, not subclasses)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sitegen.config import SiteConfig
from sitegen.errors import Diagnostic, SitegenError


def _no_page(path: str) -> str | None:
    return None


@dataclass(frozen=True)
class ExpandContext:
    """What expanding one page's in-content syntax may look up in the assembled site (given by the build)."""

    resolve_ref: Callable[[str], str | None] = _no_page
    """A page path as the page names it (`x.md`, `/posts/x`, `posts/x.md`; relative to the page, then to
    content/) -> the target's URL with the base path, or None when no published page is there."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """The page's front matter over the site's `params` (what Hugo's `param` shortcode reads)."""
    site_url: Callable[[str], str] = str
    """A site path (`/img/a.png`) -> its URL with the site's base path (`/repo/img/a.png`)."""


@dataclass(frozen=True)
class SiteFacts:
    """What in-content syntax may read of the planned site (Liquid's `site` and `page`, links between pages):
    known only once the content tree is planned, before any page renders."""

    config: SiteConfig
    data: dict[str, Any] = field(default_factory=dict)
    """`site.data`."""
    pages: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Content source -> the page's variables (`title`, `url`, `date`, `tags`, its other front matter)."""
    urls: dict[str, str] = field(default_factory=dict)
    """Content source -> its URL without the base path (`/posts/x/`)."""
    citations: dict[str, str] = field(default_factory=dict)
    """BibTeX key -> the URL of its entry on the publications page, without the base path."""
    bibliography: tuple[dict[str, Any], ...] = ()
    """The BibTeX entries, newest first, as in-content lists select them (jekyll-scholar's `{% bibliography
    --query ... %}`): `key`, `type`, `fields`, `file` (the .bib file's name), `year`, `authors`, `title`, `venue`,
    `url` (its entry on the publications page, without the base path)."""


class Dialect(Protocol):
    """How one tool's sites are read: layout, config, naming rules and in-content syntax."""

    @property
    def name(self) -> str:
        """Short name for messages and cache keys (`sitegen`, `hugo`, `jekyll`)."""
        ...

    def detect(self, site_dir: Path) -> bool:
        """Whether a site folder is laid out for this tool (by its config file, folders...)."""
        ...

    def load_config(self, site_dir: Path, errors: list[SitegenError] | None = None
                    ) -> tuple[SiteConfig, list[Diagnostic]]:
        """Read the site's configuration into a SiteConfig, with warnings for what it could not map.

        Errors are raised; with `errors`, they are appended there instead and the configuration is returned as
        far as it could be read (the tool's defaults for what could not), so that a build can report the site's
        other errors in the same run."""
        ...

    def date_and_slug(self, source: str) -> tuple[dt.datetime, str] | None:
        """Naming rule: the date and slug a content file's path (content-relative, `posts/2024-03-10-title.md`)
        gives, if any."""
        ...

    def split_terms(self, text: str) -> list[str] | None:
        """Taxonomy terms written as one string (`tags: a b`): the tool's split, or None for sitegen's own."""
        ...

    def term_slug(self, name: str) -> str:
        """The URL segment of a taxonomy term (`C++` -> `c++` for Hugo's urlize)."""
        ...

    def expand(self, body: str, source: str, body_line: int,
               context: ExpandContext | None = None) -> tuple[str, list[Diagnostic]]:
        """In-content syntax expanded before Markdown (shortcodes, Liquid tags), with file:line warnings for
        what could not be expanded. `body_line` is the file line of the body's first line; `context` looks
        up other pages and parameters (None: nothing can be looked up)."""
        ...

    def front_matter(self, source: str, data: dict[str, Any], config: SiteConfig) -> dict[str, Any]:
        """A page's front matter as its tool sees it (its defaults applied, the URL its permalink rules give written
        as `url`), before sitegen reads it; sitegen's own dialect returns it unchanged."""
        ...

    def for_site(self, facts: SiteFacts) -> Dialect:
        """The dialect bound to the planned site, for `expand` (Liquid reads `site.*`, `{% link %}` other pages);
        a dialect whose expansion reads nothing of the site returns itself."""
        ...


def read_or_defaults(read: Callable[[], tuple[SiteConfig, list[Diagnostic]]],
                     defaults: Callable[[SitegenError], SiteConfig],
                     errors: list[SitegenError] | None) -> tuple[SiteConfig, list[Diagnostic]]:
    """`read()`; when it fails and `errors` is given, the error goes there and the tool's defaults are returned
    (`defaults(error)`), so that a build reports the site's other errors in the same run (`Dialect.load_config`)."""
    try:
        return read()
    except SitegenError as exc:
        if errors is None:
            raise
        errors.append(exc)
        return defaults(exc), []
