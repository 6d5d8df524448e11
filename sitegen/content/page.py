"""Page: one content file's metadata and Markdown, parsed purely from (source path, text, config)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from sitegen.config import SiteConfig
from sitegen.content.dates import DateParseError, parse_date
from sitegen.content.frontmatter import FrontMatter, normalize_text, split_front_matter
from sitegen.content.landing import read_landing
from sitegen.content.urls import UnsafeURLError, check_safe_slug, nfc, normalize_url_path
from sitegen.dialects import NATIVE, Dialect
from sitegen.errors import ContentError, Diagnostic, SitegenError, raise_if_any

KNOWN_KEYS = frozenset({
    "title", "date", "lastmod", "publishDate", "expiryDate", "draft", "summary", "description", "slug", "url",
    "aliases", "categories", "tags", "layout", "weight", "hiddenFromHomePage", "hidden", "toc", "math", "lang",
    "images", "type",
})
READ_FROM_PARAMS = frozenset({"search", "sitemap"})
"""Free keys that sitegen itself reads (`search: false`, `sitemap: false`): typos of them are worth a word."""
JEKYLL_SINGULAR = {"categories": "category", "tags": "tag"}
"""Jekyll reads `category` and `tag` as its categories and tags; so does sitegen, for those taxonomies."""
FREE_KEYS_OF_OTHER_TOOLS = frozenset({"image", "published", "hide", "author", "authors", "category", "header",
                                      "author_profile", "excerpt", "redirect_from"})
"""Free keys that Hugo and Jekyll themes use on purpose and that look like typos of known keys (`image` is not
a misspelt `images`, Jekyll's `published` is not `publishDate`): never warned about."""
HUGO_DATE_ALIASES = {"unpublishdate": "expiryDate", "pubdate": "publishDate", "modified": "lastmod"}
"""Hugo's other names for date keys: spelling alone would point `unpublishdate` at `publishDate`, its opposite."""
_HEADING = re.compile(r"^#{1,6}[ \t]++(.+)$", re.M)
"""An ATX heading line; its closing `#`s are stripped after (a lazy `(.+?)[ \t#]*$` is quadratic on `# # # …`)."""
_LAYOUT = re.compile(r"^[\w][\w.-]*(/[\w][\w.-]*)*$", re.UNICODE)


@dataclass
class Page:
    """A content page before rendering. `kind` is `home`, `section` or `page`; relations are keys."""

    source: str
    """Content-relative POSIX path, NFC (`posts/论文笔记.md`)."""
    kind: str
    """`home` (content/_index.md), `section` (a folder's _index.md) or `page`."""
    title: str
    body: str
    """Markdown text after the front matter."""
    body_line: int = 1
    """1-based line in the file where `body` starts (for messages)."""
    date: dt.datetime | None = None
    lastmod: dt.datetime | None = None
    publish_date: dt.datetime | None = None
    expiry_date: dt.datetime | None = None
    draft: bool = False
    summary: str | None = None
    """Summary from front matter (Markdown), if given."""
    description: str = ""
    slug: str | None = None
    url: str | None = None
    """Front matter `url` override, normalized to a site path."""
    aliases: list[str] = field(default_factory=list)
    taxonomies: dict[str, list[str]] = field(default_factory=dict)
    layout: str | None = None
    type: str | None = None
    weight: int = 0
    hidden: bool = False
    toc: bool | None = None
    math: bool | None = None
    lang: str | None = None
    images: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    """Every other front matter key, for templates."""
    landing: list[dict[str, Any]] = field(default_factory=list)
    """A landing page's blocks (`sitegen.content.landing`), read from `sections:` or a Wowchemy widget file and
    completed by planning; kept out of `params` so that a front matter key `landing:` is only a param."""
    lastmod_from_git: bool = False
    """`lastmod: git` asks for the date of the last commit touching the file."""
    generated: bool = False
    """Synthesized by sitegen (a section without `_index.md`, taxonomy lists, 404), not read from a file."""
    warnings: tuple[Diagnostic, ...] = ()
    """What parsing could read but doubts the author meant (a misspelt key, `tags: a, b`); the build reports
    them (`page_warnings`)."""
    date_line: int | None = None
    """The line of `publishDate` (else `date`) in the file, for the warning about a future-dated page."""

    @property
    def folder(self) -> str:
        """The content folder of the page (`posts` for `posts/x.md` and for `posts/x/index.md`)."""
        folder = posixpath.dirname(self.source)
        return posixpath.dirname(folder) if self.is_bundle else folder

    @property
    def is_bundle(self) -> bool:
        """A leaf bundle: `posts/x/index.md`, whose sibling files are its resources."""
        return posixpath.basename(self.source) in ("index.md", "index.markdown") and "/" in self.source

    @property
    def stem(self) -> str:
        """The name the URL is built from: file stem, or the bundle folder's name."""
        if self.is_bundle:
            return posixpath.basename(posixpath.dirname(self.source))
        return posixpath.splitext(posixpath.basename(self.source))[0]


def _kind(source: str) -> str:
    name = posixpath.basename(source)
    if name.startswith("_index."):
        return "home" if "/" not in source else "section"
    return "page"


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return [str(v) for v in value if v is not None and str(v).strip()]
    return [str(value)] if str(value).strip() else []


def parse_page(source: str, text: str, config: SiteConfig, dialect: Dialect = NATIVE) -> Page:
    """Parse one content file. Raises ContentError (or ErrorGroup) naming the file, line and column."""
    source = nfc(source)
    fm = split_front_matter(normalize_text(text), source)
    errors: list[SitegenError] = []
    data = dialect.front_matter(source, fm.data, config)

    def err(key: str, message: str, hint: str | None = None) -> None:
        errors.append(ContentError(f"`{key}`: {message}", path=source, line=fm.key_line(key), col=1, hint=hint))

    def date_of(key: str) -> dt.datetime | None:
        try:
            return parse_date(data.get(key))
        except DateParseError as exc:
            err(key, str(exc), "write dates as 2024-03-01 or 2024-03-01T10:00:00+08:00")
            return None

    # YAML reads `title: 2024-01-01` as a date; text fields keep the text as written.
    for key in ("title", "description", "summary", "slug", "lang", "layout"):
        if isinstance(data.get(key), dt.date):
            data[key] = data[key].isoformat()
    kind = _kind(source)
    page = Page(source=source, kind=kind, title="", body=fm.body, body_line=fm.body_line)
    page.date = date_of("date")
    if data.get("lastmod") == "git":
        page.lastmod_from_git = True
    else:
        page.lastmod = date_of("lastmod")
    page.publish_date = date_of("publishDate")
    page.expiry_date = date_of("expiryDate")
    from_name = dialect.date_and_slug(source) if kind == "page" else None
    if from_name:
        page.date = page.date or from_name[0]

    title = data.get("title")
    if title is None:
        heading = _HEADING.search(fm.body)
        text = heading.group(1) if heading else ""
        text = text[:max(1, len(text.rstrip(" \t#")))]
        title = text.strip() if heading else (from_name[1] if from_name else page.stem)
        if kind != "page" and not heading:
            title = posixpath.basename(posixpath.dirname(source)) if kind == "section" else config.title
    elif not isinstance(title, str | int | float) or isinstance(title, bool):
        err("title", f"expected text, got {type(title).__name__}", "quote the title")
        title = page.stem
    page.title = str(title)

    for key in ("draft", "hiddenFromHomePage", "hidden", "toc", "math"):
        value = data.get(key)
        if key == "toc" and isinstance(value, dict | list):
            continue  # al-folio's `toc: {sidebar: left}` or distill's `toc: [{name: ...}]`: a table of contents
        if value is not None and not isinstance(value, bool):
            err(key, f"expected true or false, got {value!r}")
    # Jekyll's `published: false` keeps a page out of the site, as Hugo's `draft: true` does (`--drafts` shows it).
    page.draft = data.get("draft") is True or data.get("published") is False
    page.hidden = data.get("hiddenFromHomePage") is True or data.get("hidden") is True
    toc = data.get("toc")
    page.toc = toc if isinstance(toc, bool) else (True if isinstance(toc, dict | list) else None)
    page.math = data.get("math") if isinstance(data.get("math"), bool) else None

    weight = data.get("weight", 0)
    if weight is False or weight is None:
        weight = 0  # Stack's archetype writes `weight: false`: Hugo reads it as no weight
    if isinstance(weight, bool) or not isinstance(weight, int | float):
        err("weight", f"expected a number, got {weight!r}")
    else:
        page.weight = int(weight)

    # An empty `summary: ""` (older archetypes wrote one) is no summary: `<!--more-->` and the first words apply.
    page.summary = str(data["summary"]) if data.get("summary") not in (None, "") else None
    if page.summary is None and isinstance(data.get("excerpt"), str | int | float) and str(data["excerpt"]).strip():
        page.summary = str(data["excerpt"])  # Jekyll's `excerpt:` front matter replaces the generated excerpt
    page.description = str(data.get("description") or "")
    page.lang = str(data["lang"]) if data.get("lang") else None
    page.images = _as_list(data.get("images"))
    page.type = str(data["type"]) if data.get("type") else None

    if data.get("slug") is not None:
        try:
            page.slug = check_safe_slug(str(data["slug"]))
        except UnsafeURLError as exc:
            err("slug", str(exc), "a slug is one path segment such as `my-post`")
    elif from_name:
        page.slug = from_name[1]
    if data.get("url") is not None:
        try:
            page.url = normalize_url_path(str(data["url"]))
        except UnsafeURLError as exc:
            err("url", str(exc), "write a site path such as `/about/`")
    # jekyll-redirect-from's `redirect_from:` is what Hugo calls `aliases`: old URLs that redirect here.
    for key in ("aliases", "redirect_from"):
        for alias in _as_list(data.get(key)):
            try:
                page.aliases.append(normalize_url_path(alias))
            except UnsafeURLError as exc:
                err(key, str(exc), "aliases are site paths such as `/old/path/`")

    layout = data.get("layout")
    if layout is not None:
        if not isinstance(layout, str) or not _LAYOUT.match(layout) or ".." in layout:
            err("layout", f"{layout!r} is not a layout name", "name a template such as `cv` or `talk`")
        else:
            page.layout = layout

    warnings: list[Diagnostic] = []
    singular_used: set[str] = set()
    for taxonomy in config.taxonomies:
        keys = [taxonomy]
        singular = JEKYLL_SINGULAR.get(taxonomy)
        if singular is not None and singular in data and singular not in config.taxonomies:
            keys.append(singular)  # Jekyll's `category: notes` / `tag: python`: its categories and tags
            singular_used.add(singular)
        terms: list[str] = []
        for key in keys:
            values = data.get(key)
            if values is not None and not isinstance(values, list | tuple | str | int | float):
                err(key, "expected a list of names", f"write `{taxonomy}: [one, two]`")
                continue
            split = dialect.split_terms(values) if isinstance(values, str) else None
            if split is not None:
                values = split
            elif isinstance(values, str) and "," in values:
                # `tags: hello, world` is one YAML string; the author meant two tags (Jekyll would split it too).
                values = [v.strip() for v in values.split(",")]
                names = ", ".join(v for v in values if v)
                warnings.append(Diagnostic(
                    f"`{key}: {data[key]}` is one text, not a list: read as {len(_as_list(values))} "
                    f"{taxonomy} ({names})", path=source, line=fm.key_line(key), col=1,
                    hint=f"write a list: `{taxonomy}: [{names}]`"))
            terms.extend(t for t in _as_list(values) if t not in terms)
        page.taxonomies[taxonomy] = terms

    page.params = {k: v for k, v in data.items()
                   if k not in KNOWN_KEYS and k not in config.taxonomies and k not in singular_used}
    warnings.extend(_near_miss_warnings(page.params, fm, source, [*KNOWN_KEYS, *config.taxonomies]))
    landing, landing_notes = read_landing(data, fm, source, dialect)  # Hugo Blox blocks, Wowchemy widgets
    page.landing = landing
    warnings.extend(landing_notes)
    page.warnings = tuple(warnings)
    page.date_line = fm.key_line("publishDate" if data.get("publishDate") else "date")
    raise_if_any(errors)
    return page


def near_miss(key: str, known: list[str]) -> str | None:
    """The known key that `key` is probably a slip for (`tittle` -> `title`, `publishdate` -> `publishDate`,
    `tag` -> `tags`), or None for a key that is free on purpose."""
    if key in FREE_KEYS_OF_OTHER_TOOLS:
        return None
    if key.casefold() in HUGO_DATE_ALIASES:
        return HUGO_DATE_ALIASES[key.casefold()]
    folded = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(key.casefold(), list(folded), n=1, cutoff=0.8)
    return folded[close[0]] if close else None


def _near_miss_warnings(params: dict[str, Any], fm: FrontMatter, source: str, known: list[str]) -> list[Diagnostic]:
    """A warning for each free key that looks like a misspelt known one; other free keys are the author's own
    (templates read them as `page.params.<key>`), and keys nested under them are never looked at."""
    warnings = []
    for key in params:
        guess = near_miss(str(key), [*known, *READ_FROM_PARAMS]) if key not in READ_FROM_PARAMS else None
        if guess is not None:
            warnings.append(Diagnostic(
                f"unknown front matter key `{key}`: did you mean `{guess}`?", path=source, line=fm.key_line(str(key)),
                col=1, hint=f"rename it to `{guess}`; as written, it is only `page.params.{key}` for templates"))
    return warnings


def page_warnings(pages: list[Page]) -> list[Diagnostic]:
    """Every page's parsing warnings, with paths from the site folder (`content/posts/x.md`)."""
    return [dataclasses.replace(w, path=f"content/{w.path}") for page in pages for w in page.warnings]

