"""News: dated one-liners from `data/news.yaml` and the pages of a `content/news/` section, newest first.

    # data/news.yaml
    - date: 2026-11-20
      text: Our paper on [rematerialisation](/publications/#lin2024remat) got an **oral** at MLSys.

Each item also accepts `content` or `title` for its text, and `url` for a link of its own. Reading is pure:
`read_news(data, pages)` returns the items and the problems, each naming the file and the item.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from dataclasses import dataclass

from sitegen.content.dates import DateParseError, parse_date
from sitegen.content.page import Page
from sitegen.errors import ContentError, SitegenError

SECTION = "news"
DATA_KEY = "news"
URL = "/news/"
DEFAULT_HOME_LIMIT = 5


@dataclass(frozen=True)
class NewsItem:
    """One dated line of news."""

    date: dt.datetime
    text: str
    """Markdown (inline)."""
    id: str
    """Anchor on /news/ (`news-2026-11-20`)."""
    source: str
    """`data/news.yaml`, or the news page's content path (`news/x.md`)."""
    url: str = ""
    """A link of its own: the item's `url`, or the site path of its page."""


def read_news(data: dict[str, object], pages: dict[str, Page], urls: dict[str, str]
              ) -> tuple[list[NewsItem], list[SitegenError]]:
    """Items of `data/news.*` and of published `content/news/` pages, newest first (file order breaks ties)."""
    items: list[tuple[dt.datetime, str, str, str]] = []
    errors: list[SitegenError] = []
    raw = data.get(DATA_KEY)
    path = "data/news.yaml"
    if not isinstance(raw, list):  # a mapping under data/news/ (or one for a theme's own use) is not news
        raw = []
    for number, entry in enumerate(raw or [], start=1):
        where = f"item {number}"
        if not isinstance(entry, dict):
            errors.append(ContentError(f"{where} is not a mapping", path=path,
                                       hint="write `- date: 2026-11-20` then `  text: ...` on the next line"))
            continue
        text = str(entry.get("text") or entry.get("content") or entry.get("title") or "").strip()
        try:
            date = parse_date(entry.get("date"))
        except DateParseError as exc:
            errors.append(ContentError(f"{where}: {exc}", path=path, hint="write the date as 2026-11-20"))
            continue
        if date is None or not text:
            errors.append(ContentError(f"{where} needs a `date` and a `text`", path=path,
                                       hint="e.g. `- {date: 2026-11-20, text: Joined Example University.}`"))
            continue
        items.append((date, text, path, str(entry.get("url") or "")))
    for source, page in sorted(pages.items()):
        if page.kind == "page" and posixpath.dirname(source).split("/", 1)[0] == SECTION and page.date:
            items.append((page.date, page.title or page.body.strip().splitlines()[0], source,
                          urls.get(source, "")))
    ordered = sorted(enumerate(items), key=lambda x: (x[1][0], -x[0]), reverse=True)
    seen: dict[str, int] = {}
    out = []
    for _, (date, text, source, url) in ordered:
        base = f"news-{date:%Y-%m-%d}"
        seen[base] = seen.get(base, 0) + 1
        anchor = base if seen[base] == 1 else f"{base}-{seen[base]}"
        out.append(NewsItem(date=date, text=text, id=anchor, source=source, url=url))
    return out, errors


def home_limit(setting: object) -> int:
    """`news.home_limit` from the config (default 5; 0 hides news on the home page)."""
    if isinstance(setting, int) and not isinstance(setting, bool) and setting >= 0:
        return setting
    return DEFAULT_HOME_LIMIT
