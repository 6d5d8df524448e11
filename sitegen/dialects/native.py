"""sitegen's own dialect: `sitegen.yaml`, Markdown as written, Jekyll's dated file names accepted, Hugo's URLs.

Naming rule: a dated Markdown *file* (`posts/2024-03-10-hello.md`) gives the date and the slug `hello`, so posts
moved over from Jekyll keep their URLs; a dated *bundle folder* (`posts/2025-02-03-winter/index.md`) is named
the Hugo way: its URL keeps the whole folder name (the date still fills a missing `date:`).
"""

from __future__ import annotations

import datetime as dt
import functools
import posixpath
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitegen.config import SiteConfig, find_config, load_config
from sitegen.dialects.base import ExpandContext, SiteFacts
from sitegen.dialects.jekyll import date_from_filename
from sitegen.errors import Diagnostic, SitegenError


@functools.lru_cache(maxsize=65_536)  # a site has few terms; every page's tags are slugged again and again
def hugo_urlize(text: str) -> str:
    """A term's path segment as Hugo's `urlize` makes it (`helpers.PathSpec.MakePathSanitized`): letters, digits,
    marks and `. _ # + ~ - @` stay, a run of spaces becomes one `-` (none at either end), everything else is
    dropped, then lowercase: `paper_summary` stays, `C++` -> `c++`, `C#` -> `c#`, `Python 3.12` -> `python-3.12`.
    Unlike Hugo, `/` and `\\` are dropped too (a term is one folder), and dots at either end go (`.NET` ->
    `net`, where Hugo writes a dot folder `.net/` that sitegen never publishes and many hosts do not serve)."""
    out: list[str] = []
    pending = was_hyphen = False
    for ch in unicodedata.normalize("NFC", text):
        if ch != " " and (ch.isalnum() or ch in "._#+~-@" or unicodedata.category(ch).startswith("M")):
            was_hyphen = ch == "-"
            if pending and not was_hyphen:
                out.append("-")
            pending = False
            out.append(ch)
        elif out and not was_hyphen and ch.isspace():
            pending = True
    return "".join(out).lower().strip(".")


@dataclass(frozen=True)
class NativeDialect:
    """A site made for sitegen (also the fallback for any folder no other dialect recognises)."""

    name: str = "sitegen"

    def detect(self, site_dir: Path) -> bool:
        """A folder with sitegen.yaml; without one, sitegen's defaults apply anyway."""
        return find_config(site_dir) is not None

    def load_config(self, site_dir: Path, errors: list[SitegenError] | None = None
                    ) -> tuple[SiteConfig, list[Diagnostic]]:
        """`sitegen.yaml` (or .yml), validated; defaults when there is none (and for each bad value, with
        `errors`)."""
        return load_config(site_dir, errors)

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

    def expand(self, body: str, source: str, body_line: int,
               context: ExpandContext | None = None) -> tuple[str, list[Diagnostic]]:
        """Nothing to expand: sitegen pages are Markdown (with the attributes the renderer reads)."""
        return body, []

    def front_matter(self, source: str, data: dict[str, Any], config: SiteConfig) -> dict[str, Any]:
        """sitegen reads front matter as written."""
        return data

    def for_site(self, facts: SiteFacts) -> NativeDialect:
        """Nothing to bind: sitegen's expansion reads nothing of the site."""
        return self


NATIVE = NativeDialect()
"""The one instance."""
