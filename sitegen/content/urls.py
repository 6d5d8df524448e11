"""URL rules: Unicode-preserving slugs, pretty URLs, permalink patterns, and safe output paths."""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from urllib.parse import quote, unquote

from sitegen.config import SiteConfig

_DROP = re.compile(r"[^\w\s-]", re.UNICODE)
_DROP_TERM = re.compile(r"[^\w\s.-]", re.UNICODE)
_DASHES = re.compile(r"[\s_-]+", re.UNICODE)
_PATTERN_TOKEN = re.compile(
    r":(year|month|day|slugortitle|slugorfilename|slug|sections|section|title|filename|contentbasename)")


class UnsafeURLError(ValueError):
    """A URL or slug that would leave the output directory or is not a usable path."""


def nfc(text: str) -> str:
    """NFC-normalize text (file names saved as NFD on macOS give the same URL)."""
    return unicodedata.normalize("NFC", text)


@lru_cache(maxsize=16384)
def slugify(text: str) -> str:
    """`Deep Learning` -> `deep-learning`; `深度学习` stays `深度学习`; `PyTorch` and `pytorch` are equal.

    Keeps letters and digits of every script, lowercases, turns spaces and runs of `-`/`_` into one `-`.
    """
    text = nfc(text).strip().casefold()
    text = _DROP.sub("", text)
    return _DASHES.sub("-", text).strip("-")


@lru_cache(maxsize=16384)
def term_slug(text: str) -> str:
    """A taxonomy term's slug: like `slugify`, but dots inside stay, as Hugo keeps them (`Python 3.12` ->
    `python-3.12`, `1.10` and `11.0` stay apart); leading and trailing dots go, so no slug is `.` or `..`."""
    text = nfc(text).strip().casefold()
    text = _DROP_TERM.sub("", text)
    return _DASHES.sub("-", text).strip("-.")


def slugify_path_part(text: str) -> str:
    """A slug for a file-name part: like slugify but keeps `_` (Hugo keeps file names as they are)."""
    text = nfc(text).strip()
    text = re.sub(r"[^\w\s.-]", "", text, flags=re.UNICODE).strip()
    return re.sub(r"\s+", "-", text).lower()


def check_safe_slug(slug: str) -> str:
    """Refuse slugs that could climb out of their folder (`..`, `/`, `%2e%2e`, control characters)."""
    decoded = unquote(unquote(slug))
    if not decoded or decoded in (".", "..") or any(c in decoded for c in "/\\\x00") or decoded.startswith("."):
        raise UnsafeURLError(f"slug {slug!r} is not a plain name")
    if any(unicodedata.category(c) == "Cc" for c in decoded):
        raise UnsafeURLError(f"slug {slug!r} contains control characters")
    return nfc(slug)


def normalize_url_path(url: str) -> str:
    """Turn a front matter `url` into a clean site path `/a/b/` (or `/a/b.html`), refusing `..` and `%2e%2e`."""
    decoded = nfc(unquote(unquote(url))).replace("\\", "/")
    if "\x00" in decoded or any(unicodedata.category(c) == "Cc" for c in decoded):
        raise UnsafeURLError(f"URL {url!r} contains control characters")
    if "://" in decoded or decoded.startswith("//"):
        raise UnsafeURLError(f"URL {url!r} must be a path on this site, not an absolute URL")
    parts = [p for p in decoded.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise UnsafeURLError(f"URL {url!r} climbs out of the site with `..`")
    path = "/" + "/".join(parts)
    if not parts:
        return "/"
    if posixpath.splitext(parts[-1])[1] and not decoded.endswith("/"):
        return path
    return path + "/"


def output_path_for(url_path: str) -> str:
    """The output file of a site path: `/a/` -> `a/index.html`, `/a.html` -> `a.html`, `/` -> `index.html`."""
    url_path = url_path.replace("%23", "#")  # a term `c#` is served from `c#/` (its URL says `c%23`)
    if url_path.endswith("/"):
        return (url_path.lstrip("/") + "index.html") if url_path != "/" else "index.html"
    return url_path.lstrip("/")


def expand_permalink(pattern: str, *, date: dt.datetime | None, slug: str, section: str, title: str,
                     filename: str, front_slug: str | None = None) -> str:
    """Expand `/posts/:year/:month/:slug/` for one page; unknown tokens are left as written. Hugo's tokens too:
    `:slugorfilename`, `:contentbasename` (file or bundle name), `:sections` (the section path), and
    `:slugortitle`, which is what Hugo's own `:slug` means (the front matter `slug`, else the title)."""
    values = {
        "year": f"{date.year:04d}" if date else "",
        "month": f"{date.month:02d}" if date else "",
        "day": f"{date.day:02d}" if date else "",
        "slug": slug,
        "section": section,
        "title": slugify(title),
        "filename": filename,
        "slugorfilename": slug,
        "contentbasename": filename,
        "sections": section,
        "slugortitle": front_slug or slugify(title) or slug,
    }
    return _PATTERN_TOKEN.sub(lambda m: values[m.group(1)], pattern)


def join_url(base_path: str, path: str) -> str:
    """Prefix a site path with the base path (`/repo/` + `/a/` -> `/repo/a/`), percent-encoding non-ASCII."""
    if not path.startswith("/"):
        path = "/" + path
    return quote(base_path.rstrip("/") + path, safe="/#?&=%:@!$'()*+,;~-._")


def encode_href(path: str) -> str:
    """Percent-encode a site path for an href, leaving existing escapes alone."""
    return quote(path, safe="/#?&=%:@!$'()*+,;~-._")


class UrlHelper:
    """Builds every URL of the site from `base_url`, so themes never concatenate paths by hand."""

    def __init__(self, config: SiteConfig, shared: frozenset[str] = frozenset(),
                 fallback: Mapping[str, str] | None = None) -> None:
        self.base_path = config.base_path
        self.origin = config.site_origin
        self.prefix = config.language_prefix
        """One language of a multilingual site: the prefix of its pages (`/zh/`)."""
        self.shared = shared
        """Output files every language shares at the site's root (static files): never prefixed."""
        self.fallback = fallback or {}
        """Pages of the default language this one does not have: their path -> where they are (`/posts/` ->
        `/posts/`), so that a menu entry or link to an untranslated page reaches the original."""
        self._made: dict[str, str] = {}
        """URLs made, by path (templates ask for the same ones on every page: stylesheets, menus, tags)."""

    def url(self, path: str) -> str:
        """Site-relative URL including the base path: `/about/` -> `/repo/about/` (percent-encoded); in one
        language of a multilingual site, its pages' paths get the language prefix (`/zh/about/`), and static
        files keep theirs (`/css/main.css`)."""
        if type(path) is not str:  # (a Markup path comes back as given: not cached with the plain one)
            return self._url(path)
        made = self._made.get(path)
        if made is None:
            made = self._made[path] = self._url(path)
        return made

    def _url(self, path: str) -> str:
        if "://" in path or path.startswith(("mailto:", "tel:", "#", "//")):
            return path
        if path.startswith(self.base_path) and self.base_path != "/" and path != "/":
            return encode_href(path)
        return join_url(self.base_path, self.localize(path))

    def localize(self, path: str) -> str:
        """A site path of this language: `/about/` -> `/zh/about/`, unless it is a shared file or already there."""
        if not self.prefix or not path.startswith("/") or path.startswith(self.prefix):
            return path
        bare = path.split("#", 1)[0].split("?", 1)[0]
        if bare.lstrip("/") in self.shared:
            return path
        if bare in self.fallback:
            return self.fallback[bare] + path[len(bare):]
        return self.prefix.rstrip("/") + path

    def absurl(self, path: str) -> str:
        """Absolute URL (`https://host/repo/about/`); a bare path when base_url has no host."""
        full = self.url(path)
        if "://" in full or full.startswith(("mailto:", "tel:", "//")):
            return full
        return self.origin + full


def is_site_path(value: str) -> bool:
    """A path on this site (`/papers/x.pdf`): not `//host`, and not `/\\host` or a tab or newline that browsers
    turn into `//host` (they read a backslash as a slash and drop tabs and newlines from URLs)."""
    return (value.startswith("/") and value[1:2] not in ("/", "\\")
            and not any(c == "\\" or ord(c) < 32 or c == "\x7f" for c in value))


def under_any(rel: str, folders: set[str] | frozenset[str]) -> bool:
    """Whether a content path (`posts/x/img.png`) lies inside one of `folders` (at any depth)."""
    folder = posixpath.dirname(rel)
    while folder:
        if folder in folders:
            return True
        folder = posixpath.dirname(folder)
    return False
