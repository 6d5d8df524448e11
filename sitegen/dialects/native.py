"""sitegen's own dialect: `sitegen.yaml`, Markdown as written, and Jekyll's dated file names accepted."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from sitegen.config import SiteConfig, find_config, load_config
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

    def date_and_slug(self, stem: str) -> tuple[dt.datetime, str] | None:
        """Jekyll's `2024-03-10-title` names give a date and a slug, so posts moved over keep their URLs."""
        return date_from_filename(stem)

    def expand(self, body: str, source: str, body_line: int) -> tuple[str, list[Diagnostic]]:
        """Nothing to expand: sitegen pages are Markdown (with the attributes the renderer reads)."""
        return body, []


NATIVE = NativeDialect()
"""The one instance."""
