"""Jekyll's URLs: permalink styles and placeholders, as Jekyll 4 expands them (`Jekyll::URL`, `Drops::UrlDrop`).

The placeholders are Jekyll's own, so they live with the Jekyll dialect rather than in sitegen's
`content/urls.py:expand_permalink` (whose `:title` is the slugified title, where Jekyll's is the file's name).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass

STYLES = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}
"""Jekyll's named permalink styles (`permalink: pretty`)."""

_TOKEN = re.compile(r":([a-z_]+)")
_PRETTY_DROP = re.compile(r"[^\w._~!$&'()+,;=@]+", re.UNICODE)
_DEFAULT_DROP = re.compile(r"[\W_]+", re.UNICODE)


def slugify(text: str, mode: str = "default", *, cased: bool = False) -> str:
    """Jekyll's `Utils.slugify` in `default` or `pretty` mode (`pretty` keeps `._~!$&'()+,;=@`)."""
    pattern = _PRETTY_DROP if mode == "pretty" else _DEFAULT_DROP
    slug = pattern.sub("-", unicodedata.normalize("NFC", text)).strip("-")
    return slug if cased else slug.lower()


def style_pattern(permalink: str) -> str:
    """A config `permalink:` as a pattern: a named style (`pretty`) or the pattern as written."""
    return STYLES.get(permalink, permalink)


def with_suffix(base: str, site_permalink: str) -> str:
    """Jekyll's `Utils.add_permalink_suffix`: how pages and collections follow the site's style (`pretty` or a
    pattern ending in `/` gives `/about/`; `date`, `none`, a pattern ending in `:output_ext` gives `/about.html`)."""
    pattern = style_pattern(site_permalink)
    if site_permalink == "pretty" or pattern.endswith("/"):
        return base + "/"
    return base + ":output_ext"


@dataclass(frozen=True)
class UrlParts:
    """What a Jekyll document's URL placeholders are made of."""

    basename: str
    """The file name without its extension, date prefix included (`2024-03-10-hello`)."""
    slug_source: str
    """The name `:title` and `:slug` come from: front matter `slug`, else the name without the date."""
    date: dt.datetime | None = None
    categories: tuple[str, ...] = ()
    collection: str = ""
    path: str = ""
    """The path inside the collection (or the page's folder path), without extension (`sub/x`)."""
    output_ext: str = ".html"


def expand(pattern: str, parts: UrlParts) -> str:
    """A permalink pattern expanded for one document; unknown placeholders stay as written (Jekyll's rule)."""
    date = parts.date
    values: dict[str, str] = {
        "title": slugify(parts.slug_source, "pretty", cased=True),
        "slug": slugify(parts.slug_source),
        "name": slugify(parts.basename),
        "basename": parts.basename,
        "path": parts.path,
        "collection": parts.collection,
        "categories": "/".join(dict.fromkeys(c.lower() for c in parts.categories)),
        "output_ext": parts.output_ext,
    }
    if date is not None:
        iso = date.isocalendar()
        values.update({
            "year": f"{date.year:04d}", "short_year": f"{date.year % 100:02d}", "month": f"{date.month:02d}",
            "i_month": str(date.month), "short_month": date.strftime("%b"), "long_month": date.strftime("%B"),
            "day": f"{date.day:02d}", "i_day": str(date.day), "y_day": f"{date.timetuple().tm_yday:03d}",
            "hour": f"{date.hour:02d}", "minute": f"{date.minute:02d}", "second": f"{date.second:02d}",
            "week": f"{iso.week:02d}", "w_year": str(iso.year), "w_day": str(iso.weekday),
            "short_day": date.strftime("%a"), "long_day": date.strftime("%A"),
        })

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        # `:output_ext` glued to a name (`:title:output_ext`): the longest known name wins.
        for end in range(len(name), 0, -1):
            if name[:end] in values:
                return values[name[:end]] + name[end:]
        return match.group(0)

    url = _TOKEN.sub(fill, pattern)
    return sanitize(url)


def sanitize(url: str) -> str:
    """Jekyll's `URL#sanitize_url`: a leading `/`, no `..` or `./`, no runs of `/`; and, since the file is written
    with its extension (`/talks/x` is `talks/x.html` in Jekyll's output), a last segment without one gets `.html`."""
    url = re.sub(r"/+", "/", ("/" + url).replace("..", "/").replace("./", ""))
    last = url.rsplit("/", 1)[-1]
    if last and "." not in last:
        url += ".html"
    return url
