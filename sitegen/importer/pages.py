"""Convert one page of a Hugo or Jekyll site into a sitegen page (pure: text in, text and notes out).

    split front matter -> map the keys sitegen names differently (permalink -> url, redirect_from -> aliases,
    published: false -> draft) -> the tool's content converter (shortcodes, Liquid) -> report what is left
    -> validate with sitegen's own page parser, dropping values it would refuse -> YAML front matter + body
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from sitegen.config import SiteConfig
from sitegen.content.frontmatter import normalize_text, split_front_matter
from sitegen.content.page import Page, parse_page
from sitegen.content.urls import UnsafeURLError, normalize_url_path
from sitegen.dialects import NATIVE, Dialect
from sitegen.errors import ContentError, Diagnostic, ErrorGroup, SitegenError
from sitegen.importer.converters import Converters

THEME_LAYOUTS = frozenset({"cv", "publications", "talk", "search"})
"""Layouts of sitegen's default theme that mean the same thing in al-folio and academicpages; other layouts
(`post`, `single`, `page`, `about`...) are dropped: sitegen picks the template of the page's kind."""
_LEFTOVER = re.compile(r"\{[{%]")
_FENCE = re.compile(r"^\s*(```|~~~)")
_BIBLIOGRAPHY = re.compile(r"^[ \t]*\{%-?\s*bibliography\b[^%]*%\}[ \t]*\n?", re.M)
_FOR = re.compile(r"\{%-?\s*for\s")
_KEY_ERROR = re.compile(r"^`([^`]+)`: ")


@dataclass
class ConvertedPage:
    """A page as written into the new site, with what the conversion noticed."""

    text: str
    front: dict[str, Any]
    body: str
    notes: list[Diagnostic] = field(default_factory=list)
    """Constructs not converted (file:line, what to do), and values dropped."""
    body_line: int = 1
    """The line of the original file its body starts on."""


def convert_page(source: str, text: str, converters: Converters, config: SiteConfig, *, url: str | None = None,
                 draft: bool = False, markdown_name: str | None = None,
                 expand: Callable[[str, str, int], tuple[str, list[Diagnostic]]] | None = None) -> ConvertedPage:
    """Convert `text` (the page at site-relative `source`). `url`: pin the page's URL (to keep its old one);
    `markdown_name`: the content-relative name it gets, for validation with sitegen's parser; `expand`: the
    content converter bound to the source site (other pages' URLs, params), else the tool's own."""
    fm = split_front_matter(normalize_text(text), source)
    front = _plain(dict(fm.data))
    notes: list[Diagnostic] = []
    body = fm.body
    _map_keys(front, converters, draft)
    if converters.kind == "jekyll" and _BIBLIOGRAPHY.search(body):
        body = _BIBLIOGRAPHY.sub("", body)  # jekyll-scholar's list: sitegen's publications page shows data/*.bib
        front["layout"] = "publications"
    loop = _liquid_loop(body, fm.body_line) if converters.kind == "jekyll" else None
    if loop is not None:
        notes.append(Diagnostic("not converted: a page that lists pages with a Liquid `{% for %}` loop is a "
                                "template; its body was left out", path=source, line=loop,
                                hint="sitegen lists a section's pages itself (section.html); copy any text "
                                     "you want to keep from the original file"))
        body = ""
    if expand is not None:
        body, warnings = expand(body, source, fm.body_line)
    else:
        body, warnings = converters.convert_content(body, source, fm.body_line, None)
    notes.extend(warnings)
    notes.extend(leftover_syntax(body, source, fm.body_line))
    if source.lower().endswith((".html", ".htm")) and body.strip():
        body = html_block(body)
    if url is not None:
        front["url"] = url
    notes.extend(_validate(front, body, markdown_name or source, source, config))
    return ConvertedPage(render_page(front, body), front, body, notes, fm.body_line)


def _map_keys(front: dict[str, Any], converters: Converters, draft: bool) -> None:
    """Rename the keys sitegen spells differently; keep the rest (themes read them from `page.params`)."""
    permalink = front.pop("permalink", None)
    if isinstance(permalink, str) and permalink.strip() and ":" not in permalink:
        front.setdefault("url", permalink)
    redirects = front.pop("redirect_from", None)
    if redirects:
        aliases = front.get("aliases") or []
        aliases = [aliases] if isinstance(aliases, str) else list(aliases)
        extra = [redirects] if isinstance(redirects, str) else list(redirects)
        front["aliases"] = list(dict.fromkeys([*aliases, *extra]))
    if isinstance(front.get("url"), str) and isinstance(front.get("aliases"), list):
        # `redirect_from: /projects` on the page at /projects/: the same address once made a folder URL.
        own = _normal(front["url"])
        front["aliases"] = [a for a in front["aliases"] if _normal(str(a)) != own]
        if not front["aliases"]:
            front.pop("aliases")
    if front.get("published") is False:
        front.pop("published")
        front["draft"] = True
    if draft:
        front["draft"] = True
    if front.get("weight") is False or ("weight" in front and front["weight"] is None):
        front.pop("weight")  # Stack's archetype writes `weight: false`: Hugo reads it as no weight
    layout = front.get("layout")
    if layout is not None and str(layout) not in THEME_LAYOUTS:
        front.pop("layout")
    for key, singular in (("tags", "tag"), ("categories", "category")):
        if key not in front and isinstance(front.get(singular), str | list):
            front[key] = front.pop(singular)
        if isinstance(front.get(key), str):
            split = converters.dialect.split_terms(front[key])
            front[key] = split if split is not None else [t.strip() for t in front[key].split(",") if t.strip()]


def _liquid_loop(body: str, body_line: int) -> int | None:
    """The file line of the first Liquid `{% for %}` outside fenced code, if any."""
    fenced = False
    for offset, line in enumerate(body.split("\n")):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and _FOR.search(line):
            return body_line + offset
    return None


def _normal(url: str) -> str:
    try:
        return normalize_url_path(url)
    except UnsafeURLError:
        return url


def html_block(html: str) -> str:
    """An HTML page body as one Markdown HTML block, passed through as written: Hugo and Jekyll never run
    `.html` pages through Markdown (a blank line would end the block, and indented lines become code)."""
    lines = [line if line.strip() else "<!---->" for line in html.strip("\n").split("\n")]
    return "<div>\n" + "\n".join(lines) + "\n</div>\n"


def leftover_syntax(body: str, source: str, body_line: int) -> list[Diagnostic]:
    """A note for each line still holding shortcode or Liquid syntax (outside fenced code)."""
    notes: list[Diagnostic] = []
    fenced = False
    for offset, line in enumerate(body.split("\n")):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _LEFTOVER.search(line)
        if match is not None:
            snippet = line.strip()[:60]
            notes.append(Diagnostic(f"not converted: `{snippet}`", path=source, line=body_line + offset,
                                    col=match.start() + 1,
                                    hint="rewrite it as Markdown or HTML (it is shown to readers as written)"))
    return notes


def _validate(front: dict[str, Any], body: str, name: str, source: str, config: SiteConfig) -> list[Diagnostic]:
    """Parse the result as sitegen will; drop each front matter value it refuses, with a note."""
    page, dropped, problem = parse_leniently(name, front, body, config, NATIVE)
    notes = [Diagnostic(f"front matter `{key}: {value!r}` dropped: {why}", path=source,
                        hint="set it again by hand if it mattered") for key, value, why in dropped]
    if page is None:
        notes.append(Diagnostic(f"sitegen cannot read the converted page: {problem}", path=source,
                                hint="fix the page in the new site by hand"))
    return notes


def parse_leniently(name: str, front: dict[str, Any], body: str, config: SiteConfig, dialect: Dialect
                    ) -> tuple[Page | None, list[tuple[str, Any, str]], str]:
    """Parse a page as sitegen does, dropping (from `front`) each value it refuses: the page (None when it still
    cannot be read), the (key, value, reason) dropped, and the last problem."""
    dropped: list[tuple[str, Any, str]] = []
    problem = ""
    for _ in range(4):
        try:
            return parse_page(name, render_page(_plain(front), body), config, dialect), dropped, ""
        except SitegenError as exc:
            problem = exc.message
            errors = exc.errors if isinstance(exc, ErrorGroup) else [exc]
            keys = [m for e in errors if isinstance(e, ContentError) and (m := _KEY_ERROR.match(e.message))]
            keys = [m for m in keys if m[1] in front]
            if not keys:
                return None, dropped, problem
            for match in keys:
                dropped.append((match[1], front.pop(match[1]), match.string[match.end():]))
    return None, dropped, problem


def render_page(front: dict[str, Any], body: str) -> str:
    """YAML front matter (keys in their order) and the body."""
    if not front:
        return body
    dumped = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, default_flow_style=False, width=1000)
    return f"---\n{dumped}---\n{body}"


def _plain(value: Any) -> Any:
    """Dates as ISO text (TOML and YAML dates dump differently), containers copied, everything else as is."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
