"""Jekyll sites: a `_config.yml` (and no `sitegen.yaml`) marks one; Jekyll's naming and URL rules apply.

What this reader does so far: dated post names (`_posts/2024-03-10-title.md`), tags and categories written as
one space-separated string, and term URLs made by Jekyll's `slugify`. The configuration is still sitegen's
defaults (reading `_config.yml` itself is the next step).
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from sitegen.config import SiteConfig, find_config, load_config
from sitegen.dialects.base import ExpandContext
from sitegen.errors import Diagnostic

_DATED_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-(.+)$")


def date_from_filename(stem: str) -> tuple[dt.datetime, str] | None:
    """Jekyll-style `2024-03-10-title` gives (2024-03-10, `title`); anything else (or an impossible date) None."""
    match = _DATED_NAME.match(stem)
    if not match:
        return None
    try:
        date = dt.datetime(int(match[1]), int(match[2]), int(match[3]), tzinfo=dt.UTC)
    except ValueError:
        return None
    return date, match[4]


_JEKYLL_DEFAULT = re.compile(r"[\W_]+", re.UNICODE)


def jekyll_slugify(text: str) -> str:
    """Jekyll's `Utils.slugify(text)` in its default mode: every run of characters that are not letters, marks or
    decimal digits becomes one `-`, with none at either end, lowercased (`C++` -> `c`, `paper_summary` ->
    `paper-summary`, `.NET` -> `net`)."""
    return _JEKYLL_DEFAULT.sub("-", unicodedata.normalize("NFC", text)).strip("-").lower()


@dataclass(frozen=True)
class JekyllDialect:
    """A site laid out for Jekyll (`_config.yml`)."""

    name: str = "jekyll"

    def detect(self, site_dir: Path) -> bool:
        """`_config.yml` without a `sitegen.yaml` (a site that has both was converted: sitegen's rules apply)."""
        return (site_dir / "_config.yml").is_file() and find_config(site_dir) is None

    def load_config(self, site_dir: Path) -> tuple[SiteConfig, list[Diagnostic]]:
        """sitegen's defaults for now (`_config.yml` is not read yet)."""
        return load_config(site_dir)

    def date_and_slug(self, source: str) -> tuple[dt.datetime, str] | None:
        """Jekyll's post names: a file in a `_posts` folder named `2024-03-10-title.md` is dated 2024-03-10 and
        published at `title`; other files keep their names (Jekyll only reads dates from posts)."""
        if "_posts" not in posixpath.dirname(source).split("/"):
            return None
        return date_from_filename(posixpath.splitext(posixpath.basename(source))[0])

    def split_terms(self, text: str) -> list[str] | None:
        """Jekyll splits `tags: a b c` on white space (a comma stays part of its word, as in Jekyll)."""
        return text.split()

    def term_slug(self, name: str) -> str:
        """Jekyll's `slugify` (default mode), as jekyll-archives makes term URLs."""
        return jekyll_slugify(name)

    def expand(self, body: str, source: str, body_line: int,
               context: ExpandContext | None = None) -> tuple[str, list[Diagnostic]]:
        """Liquid is not expanded yet: the text stays as written."""
        return body, []


JEKYLL = JekyllDialect()
"""The one instance."""
