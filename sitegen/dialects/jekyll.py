"""Jekyll sites: a `_config.yml` (and no `sitegen.yaml`) marks one; Jekyll's naming and URL rules apply.

The site is read in place: `_config.yml` (`jekyll_config.py`), pages with front matter anywhere in the site,
`_pages/`, `_posts/`, `_drafts/` (with `--drafts`), collections with `output: true`, `_data/`, `_bibliography/`,
and every other file as a static file at its own path. Jekyll's rules apply: dated post names
(`_posts/2024-03-10-title.md`), front-matter `defaults` by path and type, permalinks (`jekyll_urls.py`), tags and
categories written as one space-separated string, term URLs made by Jekyll's `slugify`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import posixpath
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitegen.config import SiteConfig, find_config
from sitegen.dialects import jekyll_urls
from sitegen.dialects.base import ExpandContext, SiteFacts, read_or_defaults
from sitegen.dialects.jekyll_config import parse_jekyll_config, read_config
from sitegen.dialects.liquid import LiquidContext, expand_liquid
from sitegen.dialects.timezones import DATE_KEYS, in_zone, zone_named
from sitegen.errors import Diagnostic, SitegenError

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
    facts: SiteFacts | None = field(default=None, compare=False, repr=False)
    """The planned site, once bound (`for_site`): what Liquid in content reads."""
    context: LiquidContext = field(default_factory=LiquidContext, compare=False, repr=False)
    """Liquid's `site`, links and citations (made once per build by `for_site`; `page` is set per page)."""

    def detect(self, site_dir: Path) -> bool:
        """`_config.yml` without a `sitegen.yaml` (a site that has both was converted: sitegen's rules apply)."""
        return (site_dir / "_config.yml").is_file() and find_config(site_dir) is None

    def load_config(self, site_dir: Path, errors: list[SitegenError] | None = None
                    ) -> tuple[SiteConfig, list[Diagnostic]]:
        """`_config.yml`, read in place (see `jekyll_config.py`); with `errors`, one that cannot be read is
        reported there and the site is read with Jekyll's defaults."""
        return read_or_defaults(lambda: read_config(site_dir), lambda _exc: parse_jekyll_config({}, site_dir)[0],
                                errors)

    def date_and_slug(self, source: str) -> tuple[dt.datetime, str] | None:
        """Jekyll's post names: a file in a `_posts` folder named `2024-03-10-title.md` is dated 2024-03-10 and
        published at `title`; other files keep their names (Jekyll only reads dates from posts)."""
        folders = posixpath.dirname(source).split("/")
        if "_posts" not in folders and folders[0] != "posts":  # `_posts/` is read as `posts/`
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
        """Liquid in the page expanded (`liquid.expand_liquid`) with the site and page it reads."""
        page = self.facts.pages.get(source, {}) if self.facts else {}
        text, notes = expand_liquid(body, f"content/{source}", body_line,
                                    context=dataclasses.replace(self.context, page=page))
        if self.facts is not None and "/" in source and "<!--more-->" not in text:
            settings = self.facts.config.dialect_settings
            separator = str(page.get("excerpt_separator") or settings.get("excerpt_separator") or "\n\n")
            text = mark_excerpt(text, separator)
        return text, notes

    def for_site(self, facts: SiteFacts) -> JekyllDialect:
        """Bound to the planned site: Liquid's `site` is `_config.yml` with `data`, `posts`, `pages`, `baseurl`."""
        config = facts.config
        site = dict(config.dialect_settings.get("site", {}))
        posts = [v for s, v in facts.pages.items() if s.startswith("posts/") and "/drafts/" not in s]
        posts.sort(key=lambda p: str(p.get("date") or ""), reverse=True)
        site.update({"data": facts.data, "posts": posts, "pages": [v for s, v in facts.pages.items()
                                                                   if not s.startswith("posts/")],
                     "baseurl": config.base_path.rstrip("/"), "url": config.site_origin,
                     "title": config.title, "description": config.description})
        settings = config.dialect_settings
        context = LiquidContext(
            site=site, base_path=config.base_path, origin=config.site_origin, citations=facts.citations,
            bibliography=facts.bibliography,
            links={**{f"_pages/{s}": url for s, url in facts.urls.items()},  # `_pages/` is read as the root
                   **{_real_path(s, settings)[0]: url for s, url in facts.urls.items()}},
            posts={posixpath.splitext(posixpath.basename(s))[0]: url for s, url in facts.urls.items()
                   if s.startswith("posts/")})
        return JekyllDialect(facts=facts, context=context)

    def front_matter(self, source: str, data: dict[str, Any], config: SiteConfig) -> dict[str, Any]:
        """Jekyll's view of a page: its `defaults` applied (front matter wins), a draft from `_drafts/` marked as
        one, and the URL its permalink rules give written as `url` (page `permalink:`, else the collection's,
        else the site's style)."""
        settings = config.dialect_settings
        if not settings:
            return data  # a bare JekyllDialect in tests, without `_config.yml` read
        real, kind = _real_path(source, settings)
        merged: dict[str, Any] = {}
        for default in settings.get("defaults", []):
            scope, values = default.get("scope") or {}, default.get("values")
            if isinstance(scope, dict) and isinstance(values, dict) and _in_scope(scope, real, kind):
                merged.update(values)
        merged.update(data)
        for key in ("last_modified_at", "modified"):  # minimal-mistakes' and jekyll-last-modified-at's names
            if key in merged and "lastmod" not in merged:
                merged["lastmod"] = merged.pop(key)
        if isinstance(merged.get("date"), str):
            merged["date"] = _padded_date(merged["date"])
        zone = zone_named(str(settings.get("timezone") or ""))
        if zone is not None:  # `timezone:`: every date is read in (or converted to) the site's zone, as Jekyll does
            if "date" not in merged and kind in ("posts", "drafts"):
                dated = date_from_filename(posixpath.splitext(posixpath.basename(real))[0])
                if dated is not None:
                    merged["date"] = dated[0].replace(tzinfo=zone)
            for key in DATE_KEYS:
                if key in merged:
                    merged[key] = in_zone(merged[key], zone, convert=True)
        if kind == "drafts":
            merged.setdefault("draft", True)
        if "url" not in merged:
            merged["url"] = _url(source, real, kind, merged, settings)
        return merged


def mark_excerpt(text: str, separator: str) -> str:
    """Jekyll's excerpt of a post or collection document is its text before `excerpt_separator` (by default the
    first blank line, so the first paragraph): marked with sitegen's `<!--more-->`, on the same line so that line
    numbers stay (not inside code, where the marker would be text)."""
    start = len(text) - len(text.lstrip("\n"))
    at = text.find(separator, start)
    if at <= start:
        return text
    before = text[start:at]
    last_line = before.rsplit("\n", 1)[-1]
    in_code = before.count("```") % 2 or before.count("~~~") % 2 or last_line.startswith(("    ", "\t"))
    if in_code or not last_line.strip():
        return text
    if separator.strip():  # a marker of the author's (`<!-- excerpt -->`) becomes sitegen's
        return text[:at] + "<!--more-->" + text[at + len(separator):]
    return text[:at] + " <!--more-->" + text[at:]


_LOOSE_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?=[ T]|$)")


def _padded_date(text: str) -> str:
    """Ruby's `Time.parse`, which Jekyll uses, reads `2022-4-7 15:59:00-0400`; sitegen's dates want `2022-04-07`."""
    return _LOOSE_DATE.sub(lambda m: f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}", text, count=1)


def _real_path(source: str, settings: dict[str, Any]) -> tuple[str, str]:
    """The file's path in the site (`posts/x.md` -> `_posts/x.md`) and its Jekyll type (`posts`, `pages`, or a
    collection's name)."""
    if source in settings.get("in_pages", ()):
        return "_pages/" + source, "pages"
    for folder, into in settings.get("renames", {}).items():
        prefix = into + "/" if into else ""
        if into and source.startswith(prefix):
            name = posixpath.basename(folder)  # `collections_dir` puts them in a folder: `my_collections/_talks`
            kind = "drafts" if name == "_drafts" else "posts" if name == "_posts" else name[1:]
            if name == "_posts" and source.startswith("posts/drafts/"):
                continue
            return folder + "/" + source[len(prefix):], kind
    return source, "pages"


def _in_scope(scope: dict[str, Any], real: str, kind: str) -> bool:
    """Jekyll's `defaults` scope: a path prefix (`""` is every file) and, optionally, a type."""
    path = str(scope.get("path") or "").strip("/")
    wanted = scope.get("type")
    if wanted is not None and wanted != kind and not (wanted == "posts" and kind == "drafts"):
        return False
    return not path or real == path or real.startswith(path + "/") or (
        "*" in path and posixpath.dirname(real) == path.rstrip("/*"))


def _date_of(value: Any, dated: tuple[dt.datetime, str] | None) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    if isinstance(value, str):
        match = re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?", value.strip())
        if match:
            try:
                y, mo, d, h, mi, sec = (int(g or 0) for g in match.groups())
                return dt.datetime(y, mo, d, h, mi, sec)
            except ValueError:
                return None
    return dated[0] if dated else None


def _url(source: str, real: str, kind: str, data: dict[str, Any], settings: dict[str, Any]) -> str:
    """The URL Jekyll gives the file."""
    name = posixpath.splitext(posixpath.basename(real))[0]
    dated = date_from_filename(name) if kind in ("posts", "drafts") else None
    slug = str(data.get("slug") or (dated[1] if dated else name))
    categories = data.get("categories", data.get("category"))
    cats = tuple(str(c) for c in (categories.split() if isinstance(categories, str)
                                  else categories if isinstance(categories, list) else []))
    site_style = str(settings.get("permalink") or "date")
    if kind == "pages":
        folder = posixpath.dirname(real)
        path = folder + "/" if folder else ""
        pattern = data.get("permalink") or ("/:path/" if name == "index" else
                                            jekyll_urls.with_suffix("/:path/:basename", site_style))
        parts = jekyll_urls.UrlParts(basename=name, slug_source=slug, path=path.rstrip("/"),
                                     date=_date_of(data.get("date"), None))
        if name == "index" and not data.get("permalink"):
            return "/" + path
        return jekyll_urls.expand(str(pattern), parts)
    collection = settings.get("collections", {}).get(kind, {})
    within = real.split("/", 1)[1] if "/" in real else real
    if kind in ("posts", "drafts"):
        pattern = data.get("permalink") or collection.get("permalink") or jekyll_urls.style_pattern(site_style)
    else:
        pattern = data.get("permalink") or collection.get("permalink") or jekyll_urls.with_suffix(
            "/:collection/:path", site_style)
    parts = jekyll_urls.UrlParts(basename=name, slug_source=slug, date=_date_of(data.get("date"), dated),
                                 categories=cats, collection=kind, path=posixpath.splitext(within)[0])
    return jekyll_urls.expand(jekyll_urls.style_pattern(str(pattern)), parts)


JEKYLL = JekyllDialect()
"""The one instance."""
