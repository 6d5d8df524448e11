"""The interface every dialect implements (a Protocol: dialects are plain objects, not subclasses)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Protocol

from sitegen.config import SiteConfig
from sitegen.errors import Diagnostic


class Dialect(Protocol):
    """How one tool's sites are read: layout, config, naming rules and in-content syntax."""

    @property
    def name(self) -> str:
        """Short name for messages and cache keys (`sitegen`, `hugo`, `jekyll`)."""
        ...

    def detect(self, site_dir: Path) -> bool:
        """Whether a site folder is laid out for this tool (by its config file, folders...)."""
        ...

    def load_config(self, site_dir: Path) -> tuple[SiteConfig, list[Diagnostic]]:
        """Read the site's configuration into a SiteConfig, with warnings for what it could not map."""
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

    def expand(self, body: str, source: str, body_line: int) -> tuple[str, list[Diagnostic]]:
        """In-content syntax expanded before Markdown (shortcodes, Liquid tags), with file:line warnings for
        what could not be expanded. `body_line` is the file line of the body's first line."""
        ...

    def front_matter(self, source: str, data: dict[str, Any], config: SiteConfig) -> dict[str, Any]:
        """A page's front matter as its tool sees it (its defaults applied, the URL its permalink rules give written
        as `url`), before sitegen reads it; sitegen's own dialect returns it unchanged."""
        ...
