"""sitegen's own dialect: `sitegen.yaml`, Markdown as written, Jekyll's dated file names accepted, Hugo's URLs.

Naming rule: a dated Markdown *file* (`posts/2024-03-10-hello.md`) gives the date and the slug `hello`, so posts
moved over from Jekyll keep their URLs; a dated *bundle folder* (`posts/2025-02-03-winter/index.md`) is named
the Hugo way: its URL keeps the whole folder name (the date still fills a missing `date:`).
"""

from __future__ import annotations

import datetime as dt
import posixpath
from dataclasses import dataclass
from pathlib import Path

from sitegen.config import SiteConfig, find_config, load_config
from sitegen.content.urls import hugo_urlize
from sitegen.dialects.jekyll import date_from_filename
from sitegen.errors import Diagnostic


@dataclass(frozen=True)
class NativeDialect:
    """A site made for sitegen (also the fallback for any folder no other dialect recognises)."""

    name: str = "sitegen"

    def detect(self, site_dir: Path) -> bool:
        """A folder with sitegen.yaml; without one, sitegen's defaults apply anyway."""
        return find_config(site_dir) is not None

    def load_config(self, site_dir: Path) -> tuple[SiteConfig, list[Diagnostic]]:
        """`sitegen.yaml` (or .yml), validated; defaults when there is none."""
        return load_config(site_dir)

    def date_and_slug(self, source: str) -> tuple[dt.datetime, str] | None:
        """Jekyll's `2024-03-10-title.md` names give a date and a slug, so posts moved over keep their URLs; a
        bundle folder `2024-03-10-title/` gives the date but keeps its whole name as the slug (Hugo's rule)."""
        name = posixpath.basename(source)
        if name in ("index.md", "index.markdown") and "/" in source:
            folder = posixpath.basename(posixpath.dirname(source))
            dated = date_from_filename(folder)
            return (dated[0], folder) if dated else None
        return date_from_filename(posixpath.splitext(name)[0])

    def split_terms(self, text: str) -> list[str] | None:
        """No dialect rule: `tags: a, b` is split at commas with a warning (by the page parser)."""
        return None

    def term_slug(self, name: str) -> str:
        """Hugo's `urlize`: `paper_summary`, `c++`, `c#`, `.net` (see `hugo_urlize`)."""
        return hugo_urlize(name)

    def expand(self, body: str, source: str, body_line: int) -> tuple[str, list[Diagnostic]]:
        """Nothing to expand: sitegen pages are Markdown (with the attributes the renderer reads)."""
        return body, []


NATIVE = NativeDialect()
"""The one instance."""
