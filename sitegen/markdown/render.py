"""MarkdownRenderer: CommonMark + GFM + footnotes, deflists, attrs, math, anchors, highlighting, link rewriting."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, unescapeAll
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.gfm_autolink import gfm_autolink_plugin
from mdit_py_plugins.gfm_autolink import index as _gfm  # its helpers, for a linear `http:` rule
from mdit_py_plugins.tasklists import tasklists_plugin

from sitegen.config import MarkdownSettings
from sitegen.content.text import plain_text
from sitegen.content.urls import slugify
from sitegen.errors import Diagnostic
from sitegen.markdown.callouts import callouts_plugin
from sitegen.markdown.highlight import highlight_code
from sitegen.markdown.markdown_attr import kramdown_ial_plugin, markdown_attr_plugin
from sitegen.markdown.mathdelims import bracket_math_plugin
from sitegen.markdown.native import NativePage, NativeParser

MORE = "<!--more-->"


@dataclass(frozen=True)
class TocEntry:
    """One heading of the table of contents."""

    level: int
    id: str
    title: str


@dataclass(frozen=True)
class Link:
    """A link or image written in the page, with the file line it was written on."""

    href: str
    line: int
    kind: str = "link"
    """`link` or `image`."""


@dataclass
class RenderContext:
    """What rendering one page needs to know about it."""

    source: str = "<string>"
    body_line: int = 1
    resolve_link: Callable[[str], str | None] | None = None
    """Maps a relative link to its final href; returns None when the target does not exist."""


@dataclass
class Rendered:
    """The result of rendering one page's Markdown."""

    html: str
    toc: list[TocEntry] = field(default_factory=list)
    summary_html: str | None = None
    """HTML before `<!--more-->`, when the page has that marker."""
    links: list[Link] = field(default_factory=list)
    broken_links: list[Link] = field(default_factory=list)
    """Relative links to content files that do not exist."""
    has_math: bool = False
    plain: str | None = None
    """The text without tags, whitespace collapsed (`sitegen.content.text.plain_words`), filled in once (by the
    render, from the compiled parse's walk, when the page has no raw HTML; else by the render workers, or on first
    use; kept with the memo)."""
    words: tuple[int, int] | None = None
    """(latin words, CJK characters) of `plain`, filled in with it."""
    terms: str | None = None
    """The search index's term weights of `plain` (`sitegen.content.text.packed_term_weights`), filled in with
    it."""
    warnings: tuple[Diagnostic, ...] = ()
    """What the site's dialect could not expand before Markdown (file:line)."""
    front_summary: str | None = None
    """The page's front-matter `summary:` rendered, by the render workers; read once by the build and cleared
    before the memo keeps this record (the memo's key is the body, not the summary)."""


def _math_renderer(content: str, options: dict[str, Any]) -> str:
    if options.get("display_mode"):
        return "\\[" + escape(content, quote=False) + "\\]"
    return "\\(" + escape(content, quote=False) + "\\)"


def _render_display_inline(_renderer: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """`$$x$$` or `\\[x\\]` inside a paragraph: display math (as in LaTeX and Hugo's passthrough), in a `<span>`
    so the paragraph stays valid HTML."""
    return f'<span class="math display">{_math_renderer(tokens[idx].content, {"display_mode": True})}</span>'


@functools.lru_cache(maxsize=4096)
def _fence_text(fenced: str) -> str:
    """The plain text of a fenced block's HTML (highlighted code is mostly tags: the same snippet on many pages is
    read once, as it is highlighted once)."""
    return plain_text(fenced)


class MarkdownRenderer:
    """One configured parser, reused for every page of a build."""

    def __init__(self, settings: MarkdownSettings | None = None) -> None:
        self.settings = settings or MarkdownSettings()
        # GFM autolinks (www., http://, e-mail) come from gfm_autolink: linkify-it costs ~1 ms a page.
        md = MarkdownIt("commonmark", {"html": True, "typographer": False})
        md.enable(["table", "strikethrough"])
        md.use(gfm_autolink_plugin)
        md.inline.ruler.at("gfm_autolink_protocol", _bounded_protocol_rule)
        md.inline.terminator_re = _stop_at_www(md.inline.terminator_re)
        md.use(footnote_plugin).use(deflist_plugin).use(tasklists_plugin, label=True)
        md.use(attrs_plugin).use(attrs_block_plugin).use(kramdown_ial_plugin).use(markdown_attr_plugin)
        md.use(callouts_plugin)
        md.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True, renderer=_math_renderer)
        md.use(bracket_math_plugin)
        md.add_render_rule("math_inline_double", _render_display_inline)
        md.add_render_rule("fence", lambda _renderer, tokens, idx, options, env: self._render_fence(
            tokens, idx, options, env))
        md.validateLink = lambda url: not url.strip().lower().startswith(("javascript:", "vbscript:"))  # type: ignore
        # A pure function of the URL (a parse and an encode, ~10 us): a site links to the same URLs again and again,
        # and most URLs are already what it gives.
        md.normalizeLink = plain_urls_as_they_are(  # type: ignore[method-assign,assignment]
            functools.lru_cache(maxsize=65_536)(md.normalizeLink))
        self.md = md
        self.native = NativeParser(md.normalizeLink, md.normalizeLinkText)
        """The compiled parse of pages that need no markdown-it-py plugin (`sitegen.markdown.native`)."""

    def _render_fence(self, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return self._fence(tokens[idx].content, tokens[idx].info)

    def _fence(self, content: str, info: str) -> str:
        """A fenced code block's HTML, highlighted unless the site turned that off."""
        info = unescapeAll(info).strip()  # CommonMark: `foo\+bar` is `foo+bar`, `f&ouml;` is `fö`
        if self.settings.highlight:
            return highlight_code(content, info)
        lang = info.split()[0] if info else ""
        cls = f' class="language-{escape(lang, quote=True)}"' if lang else ""
        return f'<div class="highlight"><pre><code{cls}>{escape(content)}</code></pre></div>\n'

    def render(self, text: str, ctx: RenderContext | None = None) -> Rendered:
        """Render Markdown to HTML plus a table of contents, summary and the links written in it."""
        ctx = ctx or RenderContext()
        result = Rendered(html="")
        # The compiled parse, rendered straight from its tree; None when the page shows syntax only markdown-it-py's
        # plugins read (or no compiled parser is installed here). Raw HTML is dropped from tokens only.
        page = self.native.page(text) if self.settings.unsafe_html else None
        if page is not None:
            html = self._fill(page, ctx, result)
            if not page.raw_html:  # the walk's text is the HTML's: no tag of it is the author's
                result.plain = " ".join("".join(page.plain).split())
        else:
            env: dict[str, Any] = {}
            tokens = self.md.parse(text, env)
            if not self.settings.unsafe_html:
                tokens = _drop_raw_html(tokens)
            self._walk(tokens, ctx, result)
            html = self.md.renderer.render(tokens, self.md.options, env)
        if MORE in html:
            head, _, _ = html.partition(MORE)
            result.summary_html = close_open_tags(head.strip())
            html = html.replace(MORE, "", 1)
        result.html = html
        return result

    def _fill(self, page: NativePage, ctx: RenderContext, result: Rendered) -> str:
        """The compiled parse's HTML with its slots filled as `_walk` and the renderer fill the tokens': heading
        ids and the toc, links rewritten and recorded, fenced code highlighted."""
        parts = page.parts
        if page.headings:
            anchors = _Anchors(page.raw_html)
            for slot, level, title in page.headings:
                anchor = anchors.take(title)
                parts[slot] = escapeHtml(anchor)
                result.toc.append(TocEntry(level, anchor, title))
        for slot, href, line, kind in page.links:
            parts[slot] = escapeHtml(self._resolve(href, ctx.body_line + line, ctx, result, kind))
        for slot, content, info, plain_slot in page.fences:
            parts[slot] = fenced = self._fence(content, info)
            page.plain[plain_slot] = _fence_text(fenced)
        return "".join(parts)

    def render_summary(self, text: str) -> str:
        """A front-matter summary's HTML, the same as `render(text).html`; a line of words and punctuation that no
        Markdown rule reads (most summaries) is put in a paragraph without a parse."""
        if _plain_line(text):
            return f"<p>{escapeHtml(text)}</p>\n"
        return self.render(text).html

    def _walk(self, tokens: list[Token], ctx: RenderContext, result: Rendered) -> None:
        """Give headings stable unique ids, collect the toc, rewrite and record links."""
        anchors = _Anchors(_raw_html(tokens))
        line = ctx.body_line
        for i, token in enumerate(tokens):
            if token.map:
                line = ctx.body_line + token.map[0]
            if token.type.startswith("math_"):
                result.has_math = True
            if token.type == "heading_open":
                inline = tokens[i + 1]
                _heading_attrs(token, inline)
                title = "".join(c.content for c in (inline.children or []) if c.type in ("text", "code_inline"))
                anchor = anchors.take(title, str(token.attrs.get("id") or ""))
                token.attrSet("id", anchor)
                result.toc.append(TocEntry(int(token.tag[1]), anchor, title))
            if token.children:
                for child in token.children:
                    if child.type.startswith("math_"):
                        result.has_math = True
                    if child.type == "link_open":
                        self._link(child, "href", line, ctx, result, "link")
                    elif child.type == "image":
                        self._link(child, "src", line, ctx, result, "image")

    @classmethod
    def _link(cls, token: Token, attr: str, line: int, ctx: RenderContext, result: Rendered, kind: str) -> None:
        href = str(token.attrs.get(attr) or "")
        new = cls._resolve(href, line, ctx, result, kind)
        if new != href:
            token.attrSet(attr, new)

    @staticmethod
    def _resolve(href: str, line: int, ctx: RenderContext, result: Rendered, kind: str) -> str:
        """The href a link of the page is written with (a relative one resolved), recorded with its line; a
        relative link to nothing is also recorded as broken, and kept as written."""
        if ctx.resolve_link is not None and _is_relative(href):
            new = ctx.resolve_link(href)
            if new is None:
                result.broken_links.append(Link(href, line, kind))
            else:
                href = new
        result.links.append(Link(href, line, kind))
        return href


_PLAIN_URL = re.compile(r"(?:https?://[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?=/|$))?[A-Za-z0-9._~/-]*"
                        r"(?:\?[A-Za-z0-9._~/=&-]*)?(?:#[A-Za-z0-9._~/-]*)?")
"""A URL that markdown-it-py's `normalizeLink` gives back as it is: an optional http(s) scheme and lowercase ASCII
host, then a path, query and fragment of characters it never encodes (no `%`, `:`, `@` or non-ASCII)."""


def plain_urls_as_they_are(normalize: Callable[[str], str]) -> Callable[[str], str]:
    """`normalize` (markdown-it-py's `normalizeLink`), skipped for a `_PLAIN_URL`, which it returns unchanged (most
    links of a site: its parse, format and encode cost ~10 us a URL; tests/unit/test_markdown.py compares the two
    on generated URLs)."""
    plain = _PLAIN_URL.fullmatch

    def normalized(url: str) -> str:
        return url if plain(url) else normalize(url)

    normalized.__wrapped__ = normalize  # type: ignore[attr-defined]  # as functools.wraps names it
    return normalized


_PLAIN_LINE = re.compile(r"^[^\W\d_](?:[^\s\x00-\x1f\x7f*_~`\[\]\\<>&$@{}|^]| )*+(?<! )")
"""A line that is one paragraph of plain text: it starts with a letter (no list, heading, quote, code, table, HTML,
math or attribute block starts so), holds no line break, tab or other whitespace than single-line spaces (which
a paragraph would trim at its ends), and none of the characters inline rules start at (`:`, and `w` for `www.`,
are checked apart)."""
_AUTOLINK_STARTS = ("www.", "http:", "https:", "mailto:", "xmpp:")


def _plain_line(text: str) -> bool:
    """Whether Markdown renders `text` as `<p>` + the text, HTML-escaped, + `</p>` (see `_PLAIN_LINE`)."""
    if _PLAIN_LINE.fullmatch(text) is None:
        return False
    lowered = text.lower()
    return not any(start in lowered for start in _AUTOLINK_STARTS)


_VOID_TAGS = frozenset("area base br col embed hr img input link meta source track wbr".split())


class _OpenTags(HTMLParser):
    """Tracks which elements are still open at the end of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID_TAGS:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            # Close everything opened after `tag` too, as a browser would.
            del self.stack[len(self.stack) - 1 - self.stack[::-1].index(tag):]


def close_open_tags(fragment: str) -> str:
    """Close the elements left open where `<!--more-->` cut the HTML (`<p>Intro <em>a` -> `...</em></p>`).

    A marker written inside a paragraph or a raw `<div>` would otherwise leave the summary, and every list page
    that shows it, with unbalanced tags.
    """
    parser = _OpenTags()
    try:
        parser.feed(fragment)
        parser.close()
    except AssertionError:  # html.parser on a marked section it does not know (`<![a b`): the tags seen so far
        pass
    return fragment + "".join(f"</{tag}>" for tag in reversed(parser.stack))


_HEADING_ATTRS = re.compile(r"(?<!\s)(?:\s*+[#.][\w:-]++)+\s*+")
r"""The inside of a trailing `{#id .class}`; possessive, and never started inside a run of spaces: linear."""


def _heading_attrs(heading: Token, inline: Token) -> None:
    """Hugo/kramdown `## Title {#id .class}`: move trailing attributes onto the heading."""
    children = inline.children or []
    if not children or children[-1].type != "text":
        return
    # Found by position, not by searching a pattern from every `{` (quadratic on `{#a {#a {#a …`).
    text = children[-1].content.rstrip()
    start = text.rfind("{")
    if not text.endswith("}") or start < 0 or not _HEADING_ATTRS.fullmatch(text, start + 1, len(text) - 1):
        return
    children[-1].content = text[:start].rstrip()
    classes = []
    for part in text[start + 1:-1].split():
        if part.startswith("#"):
            heading.attrSet("id", part[1:])
        else:
            classes.append(part[1:])
    if classes:
        heading.attrSet("class", " ".join(classes))


def _is_relative(href: str) -> bool:
    """Links on this site: relative paths and root-relative paths (not fragments, schemes or `//host`)."""
    if not href or href.startswith(("#", "//", "mailto:", "tel:", "data:")):
        return False
    return "://" not in href.split("?")[0].split("#")[0] and not href.startswith("//")


_RAW_ID = re.compile(r"""\sid\s*=\s*["']([^"']+)["']""")


def _raw_html(tokens: list[Token]) -> Iterator[str]:
    """The raw HTML of a page's tokens: its HTML blocks, and the inline tags of its paragraphs and headings."""
    for token in tokens:
        if token.type == "html_block":
            yield token.content
        for child in token.children or []:
            if child.type == "html_inline":
                yield child.content


class _Anchors:
    """A page's heading ids: each unique, none an id written in its raw HTML (`<div id="contact">`)."""

    def __init__(self, raw_html: Iterable[str]) -> None:
        self.used = {name for content in raw_html for name in _RAW_ID.findall(content)}
        self.suffixes: dict[str, int] = {}

    def take(self, title: str, given: str = "") -> str:
        """The id of the next heading: `given` (`{#id}`), else the title's slug made unique."""
        anchor = given or _unique(slugify(title) or "section", self.used, self.suffixes)
        self.used.add(anchor)
        return anchor


def _unique(base: str, used: set[str], next_suffix: dict[str, int]) -> str:
    """`base`, or `base-N` with the first N not used; `next_suffix` remembers where to start per base, so
    20,000 headings of one title cost linear time, not quadratic."""
    if base not in used:
        return base
    n = next_suffix.get(base, 1)
    while f"{base}-{n}" in used:
        n += 1
    next_suffix[base] = n + 1
    return f"{base}-{n}"


_AUTOLINK_SCHEMES = ("https", "http", "mailto", "xmpp")
_AUTOLINK_SPAN = 4096
"""The longest text after a scheme's `:` examined for an autolink (a longer bare URL is cut there)."""


def _bounded_protocol_rule(state: StateInline, silent: bool) -> bool:
    """gfm_autolink's `http:` rule in linear time: it regex-searched all pending text and copied the rest of the
    paragraph at every `:`, so `a:` x 40,000 took 32 s. Here a cheap test comes first, and the rule sees at most
    `_AUTOLINK_SPAN` characters after the colon."""
    if state.linkLevel > 0 or state.src[state.pos] != ":" or state.posMax - state.pos < 4:
        return False
    # The plugin's `(?:^|.)(https?|mailto|xmpp)$` search over all pending text, as a suffix test.
    proto = next((p for p in _AUTOLINK_SCHEMES if state.pending.endswith(p)), None)
    if proto is None or not _gfm._preceding_ok(state, len(proto)):
        return False
    combined = proto + state.src[state.pos:min(state.posMax, state.pos + _AUTOLINK_SPAN)]
    if proto in ("mailto", "xmpp"):
        result = _gfm.match_any_email(combined, len(proto) + 1, proto)
    else:
        result = _gfm.match_http(combined)
    if result is None or silent:  # silent: as the plugin (see its _www_inline_rule)
        return False
    full_url, total_len = result
    return bool(_gfm._create_autolink(state, len(proto), total_len, full_url, combined[:total_len]))


def _stop_at_www(terminators: re.Pattern[str]) -> re.Pattern[str]:
    """Where the inline text rule stops, with gfm_autolink's `w` narrowed to `www.`: the plugin makes it stop at
    every `w` to find `www.` there, and then every inline rule is tried and fails (5-10% of a parse). Its www
    rule matches only at a `www.`, and no other rule at a `w`, so the tokens are the same. A set that is not
    plain ASCII (another version of the plugins) is left as it is."""
    pattern = terminators.pattern
    if not (pattern.isascii() and pattern.startswith("[") and pattern.endswith("]") and terminators.fullmatch("w")):
        return terminators
    stops = "".join(c for c in map(chr, range(128)) if c != "w" and terminators.fullmatch(c))
    return re.compile(f"[{re.escape(stops)}]|www\\.")


_SAFE_ATTRS = frozenset({"id", "class", "title", "alt", "href", "src", "width", "height", "lang", "dir", "start",
                         "colspan", "rowspan", "scope", "type", "checked", "disabled", "value", "reversed", "style"})
"""Attributes kept under `unsafe_html: false` (`{style=… onclick=…}` written with the attribute syntax is dropped)."""
_SAFE_STYLE = re.compile(r"text-align:(?:left|right|center)")
"""The only style kept: table column alignment, which Markdown itself writes."""
_SAFE_DATA = re.compile(r"data:image/(?:gif|png|jpeg|webp);", re.I)
_UNSAFE_SCHEMES = ("javascript:", "vbscript:", "file:", "data:")
_TASK_CHECKBOXES = frozenset(
    f'<input class="task-list-item-checkbox"{checked}{disabled} type="checkbox">'
    for checked in ("", ' checked="checked"') for disabled in ("", ' disabled="disabled"')) | {"<label>", "</label>"}
"""What the task-list plugin writes (raw HTML tokens that Markdown, not the author, made); the label around each
item's text names its checkbox for screen readers."""


def _safe_url(url: str) -> bool:
    """Not a script, file or `data:` URL (except the raster images markdown-it also allows)."""
    lowered = url.strip().lower()
    return not lowered.startswith(_UNSAFE_SCHEMES) or bool(_SAFE_DATA.match(lowered))


def _drop_raw_html(tokens: list[Token]) -> list[Token]:
    """`markdown.unsafe_html: false`: remove raw HTML (but keep the `<!--more-->` marker and task checkboxes),
    attributes other than plain ones (`style`, `on…`), and script, file and `data:` URLs."""
    kept: list[Token] = []
    for token in tokens:
        if token.type == "html_block" and token.content.strip() != MORE:
            continue
        if token.children:
            token.children = [c for c in token.children if c.type != "html_inline" or c.content == MORE
                              or c.content in _TASK_CHECKBOXES]
            for child in token.children:
                _drop_unsafe_attrs(child)
        _drop_unsafe_attrs(token)
        kept.append(token)
    return kept


def _drop_unsafe_attrs(token: Token) -> None:
    for key, value in list(token.attrs.items()):
        text = str(value)
        if (key not in _SAFE_ATTRS or (key == "style" and not _SAFE_STYLE.fullmatch(text))
                or (key in ("href", "src") and not _safe_url(text))):
            del token.attrs[key]
