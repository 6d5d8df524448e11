"""The compiled parse: markdown-it-pyrs (markdown-it ported to Rust, by markdown-it-py's maintainer) parses a page
that needs nothing beyond CommonMark, tables and strikethrough, and its tree becomes the tokens markdown-it-py
would have made, which `MarkdownRenderer` then walks and renders as before.

Parsing is most of a cold build's Markdown time (markdown-it-py's own rules, in Python); the Rust parse of the
same page takes a fifteenth of it. The two parsers agree on CommonMark, tables and strikethrough, and what a page
may hold beyond that is read only by sitegen's markdown-it-py plugins (math, attributes, footnotes, definition
lists, task lists, GFM autolinks, callouts, kramdown's `{: }` and `markdown="1"`) or is parsed differently by the
two (punycode hosts, which links count as safe). A page showing any of it, anywhere outside its code, returns
None here and takes markdown-it-py's parse: the tokens, and so the HTML, are the same on either path (the tests
in `tests/unit/test_markdown_native.py` compare both on every page they know, and on generated Markdown).

Where the package has no wheel (Python 3.13 and later, musl), it is not installed and every page takes
markdown-it-py's parse: the same output, more slowly.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from markdown_it.token import Token

_RustMarkdownIt: Any
try:  # an optional speed-up: pyproject installs it only where it has wheels
    from markdown_it_pyrs import MarkdownIt as _RustMarkdownIt
except ImportError:  # pragma: no cover - exercised on interpreters without a wheel
    _RustMarkdownIt = None

_LIST_MARKER = r"(?:[-+*]|\d{1,9}[.)])"
"""A bullet or ordered list item's marker, as the line checks below find it."""

_RAW_FALLBACK_TEXT = ("\r", "\x00", "\\|", "[^", "[!", "[ ]", "[x]", "[X]")
_RAW_FALLBACK_LOWER = ("javascript:", "vbscript:", "file:", "data:", "<source", "</source", "<search", "</search")
_ODD_SPACE = re.compile(r"[^\S \t\n]")
"""Whitespace other than spaces, tabs and newlines (U+3000, U+00A0, form feeds...): markdown-it-py trims it from a
paragraph's ends, the Rust parser keeps it."""
_MARKDOWN_ATTR = re.compile(r"markdown\s*=")
_RAW_FALLBACK_LINES = re.compile(
    r"\n(?:[ \t]{0,3}[:~](?:[ \t\n]|$)"
    rf"|[ \t]*{_LIST_MARKER}[ \t]*(?:\n|$)"
    rf"|[ \t]*>[^\n]*\t|[ \t]*{_LIST_MARKER}\t"
    r"|(?![ \t]{0,3}~~~)[^\n]*~~~"
    r"|[^\n]*\|[^\n]*\n[ \t]*:?-+:?[ \t]*(?:\n|$))")


def _raw_fallback(text: str) -> bool:
    """Whether the source text sends a page to markdown-it-py before any parse (found anywhere, code included):
    carriage returns and NULs (normalized by either parser, not proven alike), `\\|` (a table cell's escaped pipe,
    read apart by the two), footnotes `[^`, callouts `[!`, task list boxes, `markdown="1"` blocks, URL schemes one
    parser links and the other does not, `<source>` and `<search>` (HTML block tags in one parser's CommonMark
    version only), whitespace other than spaces and tabs (trimmed by one parser only); and, at a line's start:
    definition-list lines, empty list items (which end a paragraph, quote or table in markdown-it-py, and continue
    it in the Rust parser), tabs in quote and list markers (expanded differently), runs of three tildes inside
    a line (strikethrough's edge), and a line with a `|` over a pipeless `---` (a table to markdown-it-py only)."""
    if any(marker in text for marker in _RAW_FALLBACK_TEXT) or _ODD_SPACE.search(text):
        return True
    lowered = text.lower()
    if any(marker in lowered for marker in _RAW_FALLBACK_LOWER):
        return True
    if "markdown" in lowered and _MARKDOWN_ATTR.search(lowered):
        return True
    return _RAW_FALLBACK_LINES.search("\n" + text) is not None


_LIST_LINE = re.compile(rf"[ \t]*{_LIST_MARKER}(?:[ \t]|$)")
_QUOTE_LINE = re.compile(r"[ \t]{0,3}>")

_TEXT_FALLBACK = re.compile(r"[$@{}]|\\[\[\]()]|www\.|(?:https?|mailto|xmpp):|<!", re.IGNORECASE)
"""Text outside code that a sitegen plugin may read: math (`$`), attributes and kramdown (`{ }`), GFM autolinks
(`www.`, `http:`, e-mail `@`), bracket math (an escaped `\\(`, kept with its backslash in the checked text); and
`<!`, an HTML comment that CommonMark 0.31 (markdown-it-py) reads as HTML and the Rust parser's older rules as
text (`<!-- a -- b -->`)."""


_BACKTICKS = re.compile(r"`+")
_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_BLOCK_START = re.compile(rf"[ \t]{{0,3}}(?:#|>|{_LIST_MARKER}[ \t])")


def _unpaired_backticks(text: str) -> bool:
    """Whether a run of backticks may have no closing run of its length, after a `[`: markdown-it-pyrs 0.4 panics
    on `[a `b` (its label scan), and prints the panic to stderr before the exception is caught. Fenced code is left
    out; the rest is cut into stretches at blank lines and at lines that start a heading, list item or quote, and in
    a stretch holding a `[`, any length of run seen an odd number of times counts (a false alarm only costs the
    faster parse)."""
    if "`" not in text or "[" not in text:
        return False
    fence = ""
    stretch: list[str] = []
    for line in text.split("\n"):
        opener = _FENCE.match(line)
        if fence:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence) \
                    and not line[opener.end():].strip():
                fence = ""
            continue
        starts_fence = opener is not None and not (opener.group(1)[0] == "`" and "`" in line[opener.end():])
        if starts_fence or not line.strip() or _BLOCK_START.match(line):
            if _odd_backtick_runs(stretch):
                return True
            stretch = []
        if starts_fence:
            assert opener is not None
            fence = opener.group(1)
        elif line.strip():
            stretch.append(line)
    return _odd_backtick_runs(stretch)


def _odd_backtick_runs(lines: list[str]) -> bool:
    """Whether a stretch holding a `[` has a length of backtick run seen an odd number of times."""
    chunk = "\n".join(lines)
    if "`" not in chunk or "[" not in chunk:
        return False
    counts: dict[int, int] = {}
    for run in _BACKTICKS.findall(chunk):
        counts[len(run)] = counts.get(len(run), 0) + 1
    return any(count % 2 for count in counts.values())


def _quote_or_table_runs_on(text: str) -> bool:
    """Whether a quote (with the lines that continue it lazily) holds a `|` or runs into a list item, or a table row
    runs into one: markdown-it-py ends the quote or table at such a line, the Rust parser reads it as more of it."""
    if ">" not in text and "|" not in text:
        return False
    quote = table = False
    for line in text.split("\n"):
        if not line.strip():
            quote = table = False
            continue
        if (quote or table) and _LIST_LINE.match(line):
            return True
        if _QUOTE_LINE.match(line):
            quote = True
        if quote and "|" in line:
            return True
        table = table or "|" in line
    return False


_DELIMITER_BESIDE_WIDE = re.compile(r"[*_~][^\x00-\x7f]|[^\x00-\x7f][*_~]")


def _symbol_flanked(text: str) -> bool:
    """Whether an emphasis or strikethrough delimiter stands beside a Unicode symbol (`_😀`, `©*`): CommonMark 0.31
    (markdown-it-py) counts symbols as punctuation in its flanking rules, the Rust parser's older rules do not."""
    for match in _DELIMITER_BESIDE_WIDE.finditer(text):
        pair = match.group()
        wide = pair[1] if pair[0] in "*_~" else pair[0]
        if unicodedata.category(wide)[0] == "S":
            return True
    return False


class _Unsupported(Exception):
    """A node this module does not turn into tokens: the page takes markdown-it-py's parse."""


class NativeParser:
    """The compiled parser, when installed; `tokens(text)` or None for markdown-it-py's parse."""

    def __init__(self, normalize_link: Callable[[str], str], normalize_link_text: Callable[[str], str]) -> None:
        self._md = (_RustMarkdownIt("commonmark").enable_many(["table", "strikethrough"])
                    if _RustMarkdownIt is not None else None)
        self._normalize = (normalize_link, normalize_link_text)
        """markdown-it-py's own `normalizeLink` and `normalizeLinkText` (hrefs, and an autolink's shown text)."""

    @property
    def available(self) -> bool:
        """Whether markdown-it-pyrs is installed here."""
        return self._md is not None

    def tokens(self, text: str) -> list[Token] | None:
        """markdown-it-py's tokens for `text` (after its core rules), or None when the page needs its parse."""
        if (self._md is None or _raw_fallback(text) or _unpaired_backticks(text)
                or _symbol_flanked(text)
                or _quote_or_table_runs_on(text)):
            return None
        try:
            tree = self._md.tree(text)
        except BaseException as exc:  # a Rust panic is a BaseException (pyo3's PanicException)
            if type(exc).__name__ != "PanicException":
                raise
            return None
        builder = _Builder(text, *self._normalize)
        try:
            builder.blocks(list(tree.children), 0)
        except _Unsupported:
            return None
        if _TEXT_FALLBACK.search("".join(builder.checked)):
            return None
        return builder.out


class _Builder:
    """Turns one page's Rust tree into block tokens (with inline children), markdown-it-py's way."""

    def __init__(self, text: str, normalize_link: Callable[[str], str],
                 normalize_link_text: Callable[[str], str]) -> None:
        self.out: list[Token] = []
        self.checked: list[str] = []
        """The page's text outside code, for `_TEXT_FALLBACK`."""
        encoded = self._encoded = text.encode()
        self._open_end = len(encoded.rstrip()) if not text.endswith("\n") else None
        """Where the text ends when its last line has no newline: a code or HTML block reaching it keeps a newline
        in the Rust tree that markdown-it-py does not add."""
        # Line starts as byte offsets: the tree's source map counts bytes.
        self._newlines = [m.start() for m in re.finditer(b"\n", encoded)] if b"\n" in encoded else []
        self._normalize_link = normalize_link
        self._normalize_link_text = normalize_link_text

    def line(self, srcmap: tuple[int, int] | None) -> int:
        """The 0-based line of a byte offset."""
        if srcmap is None:
            raise _Unsupported("no source position")
        return bisect.bisect_right(self._newlines, srcmap[0] - 1) if srcmap[0] else 0

    def source_of(self, node: Any) -> bytes:
        """The node's source text, as bytes."""
        if node.srcmap is None:
            raise _Unsupported("no source position")
        return self._encoded[node.srcmap[0]:node.srcmap[1]]

    def map_of(self, node: Any) -> list[int]:
        srcmap = node.srcmap
        if srcmap is None:
            raise _Unsupported("no source position")
        if self._open_end is not None and srcmap[1] >= self._open_end and node.name in _LINE_BLOCKS:
            raise _Unsupported("a code or HTML block ending the text without a newline")
        end = srcmap[1]
        return [self.line(srcmap), bisect.bisect_left(self._newlines, end) + 1 if end else 1]

    def blocks(self, nodes: list[Any], level: int) -> None:
        """Block tokens of `nodes` (a list item's inline runs are its tight paragraphs, hidden)."""
        if level > _MAX_DEPTH:
            raise _Unsupported("nested deeper than markdown-it-py's limit allows comparing")
        out = self.out
        run: list[Any] = []
        for node in nodes:
            name = node.name
            if name in _INLINE_NAMES:
                run.append(node)
                continue
            if run:
                self.hidden_paragraph(run, level)
                run = []
            if name == "paragraph":
                line_map = self.map_of(node)
                out.append(Token("paragraph_open", "p", 1, map=line_map, level=level, block=True))
                self.inline(node.children, line_map, level + 1)
                out.append(Token("paragraph_close", "p", -1, level=level, block=True))
            elif name == "heading" or name == "lheading":
                if name == "lheading" and b"|" in self.source_of(node):
                    raise _Unsupported("a setext heading that markdown-it-py may read as a table")
                tag = f"h{node.meta['level']}"
                line_map = self.map_of(node)
                out.append(Token("heading_open", tag, 1, map=line_map, level=level, block=True))
                self.inline(node.children, line_map, level + 1)
                out.append(Token("heading_close", tag, -1, level=level, block=True))
            elif name == "fence":
                meta = node.meta
                out.append(Token("fence", "code", 0, map=self.map_of(node), level=level, block=True,
                                 content=meta["content"], info=meta["info"],
                                 markup=meta["marker"] * meta["marker_len"]))
            elif name == "code_block":
                out.append(Token("code_block", "code", 0, map=self.map_of(node), level=level, block=True,
                                 content=node.meta["content"]))
            elif name == "html_block":
                content = node.meta["content"]
                raw = _RAW_TEXT_BLOCK.match(content)
                if raw and f"</{raw.group(1).lower()}>" not in content.lower():
                    raise _Unsupported("an unclosed <pre>, <script>, <style> or <textarea> block")
                opener = _MARKED_BLOCK.match(content)
                if opener and _MARKED_BLOCK_ENDS.get(opener.group(1), ">") not in content[opener.end():]:
                    raise _Unsupported("an unclosed comment, processing instruction, declaration or CDATA block")
                if "|" in content.partition("\n")[0]:
                    raise _Unsupported("an HTML line that may head a table")
                out.append(Token("html_block", "", 0, map=self.map_of(node), level=level, block=True,
                                 content=content))
            elif name == "bullet_list" or name == "ordered_list":
                self.list_block(node, level)
            elif name == "blockquote":
                out.append(Token("blockquote_open", "blockquote", 1, map=self.map_of(node), level=level,
                                 block=True, markup=">"))
                self.blocks(node.children, level + 1)
                out.append(Token("blockquote_close", "blockquote", -1, level=level, block=True, markup=">"))
            elif name == "hr":
                meta = node.meta
                out.append(Token("hr", "hr", 0, map=self.map_of(node), level=level, block=True,
                                 markup=meta["marker"] * meta["marker_len"]))
            elif name == "table":
                self.table(node, level)
            elif name == "definition":  # a link reference definition: no token
                title = node.meta.get("title", "")
                if "\n" in title or "\\" in title:  # the Rust parser can misplace the end of such a title
                    raise _Unsupported("definition title over lines")
            else:
                raise _Unsupported(name)
        if run:
            self.hidden_paragraph(run, level)

    def hidden_paragraph(self, nodes: list[Any], level: int) -> None:
        """A tight list item's paragraph: its tags are not rendered (markdown-it-py's `hidden`)."""
        first = self.line(nodes[0].srcmap)
        line_map = [first, first + 1]
        self.out.append(Token("paragraph_open", "p", 1, map=line_map, level=level, block=True, hidden=True))
        self.inline(nodes, line_map, level + 1)
        self.out.append(Token("paragraph_close", "p", -1, level=level, block=True, hidden=True))

    def list_block(self, node: Any, level: int) -> None:
        ordered = node.name == "ordered_list"
        kind, tag = ("ordered_list", "ol") if ordered else ("bullet_list", "ul")
        marker = node.meta["marker"]
        attrs: dict[str, str | int | float] = {}
        if ordered and node.meta["start"] != 1:
            attrs["start"] = node.meta["start"]
        self.out.append(Token(f"{kind}_open", tag, 1, attrs=attrs, map=self.map_of(node), level=level, block=True,
                              markup=marker))
        for item in node.children:
            if item.name != "list_item" or item.attrs:
                raise _Unsupported(item.name)
            self.out.append(Token("list_item_open", "li", 1, map=self.map_of(item), level=level + 1, block=True,
                                  markup=marker))
            self.blocks(item.children, level + 2)
            self.out.append(Token("list_item_close", "li", -1, level=level + 1, block=True, markup=marker))
        self.out.append(Token(f"{kind}_close", tag, -1, level=level, block=True, markup=marker))

    def table(self, node: Any, level: int) -> None:
        if b"|" not in self.source_of(node).partition(b"\n")[0]:
            raise _Unsupported("a table whose header line has no pipe")
        out = self.out
        aligns = node.meta["alignments"]
        out.append(Token("table_open", "table", 1, map=self.map_of(node), level=level, block=True))
        for part in node.children:
            section = part.name
            if section not in ("thead", "tbody"):
                raise _Unsupported(section)
            cell_tag = "th" if section == "thead" else "td"
            out.append(Token(f"{section}_open", section, 1, map=self.map_of(part), level=level + 1, block=True))
            for row in part.children:
                if row.name != "trow" or len(row.children) != len(aligns):
                    raise _Unsupported(row.name)
                row_map = self.map_of(row)
                out.append(Token("tr_open", "tr", 1, map=row_map, level=level + 2, block=True))
                for cell, align in zip(row.children, aligns, strict=True):
                    attrs: dict[str, str | int | float] = {}
                    if align != "none":
                        attrs["style"] = f"text-align:{align}"
                    out.append(Token(f"{cell_tag}_open", cell_tag, 1, attrs=attrs, level=level + 3, block=True))
                    self.inline(cell.children, [row_map[0], row_map[0] + 1], level + 4)
                    out.append(Token(f"{cell_tag}_close", cell_tag, -1, level=level + 3, block=True))
                out.append(Token("tr_close", "tr", -1, level=level + 2, block=True))
            out.append(Token(f"{section}_close", section, -1, level=level + 1, block=True))
        out.append(Token("table_close", "table", -1, level=level, block=True))

    def inline(self, nodes: list[Any], line_map: list[int], level: int) -> None:
        children: list[Token] = []
        self.children(nodes, children)
        self.out.append(Token("inline", "", 0, map=line_map, level=level, children=children, block=True))

    def children(self, nodes: list[Any], out: list[Token], depth: int = 0) -> None:
        """Inline tokens of `nodes`, with escapes and entities as text (markdown-it-py's `text_join`)."""
        if depth > _MAX_DEPTH:
            raise _Unsupported("nested deeper than markdown-it-py's limit allows comparing")
        checked = self.checked
        for node in nodes:
            name = node.name
            if name == "text":
                content = node.meta["content"]
                checked.append(content)
                out.append(Token("text", "", 0, content=content))
            elif name == "text_special":
                meta = node.meta
                checked.append(meta["markup"])  # `\(` keeps its backslash: bracket math is checked for
                out.append(Token("text", "", 0, content=meta["content"]))
            elif name == "softbreak":
                out.append(Token("softbreak", "br", 0))
            elif name == "hardbreak":
                out.append(Token("hardbreak", "br", 0))
            elif name in _PAIRS:
                kind, tag, markup = _PAIRS[name]
                if not markup:
                    markup = node.meta["marker"] * (2 if name == "strong" else 1)
                out.append(Token(f"{kind}_open", tag, 1, markup=markup))
                self.children(node.children, out, depth + 1)
                out.append(Token(f"{kind}_close", tag, -1, markup=markup))
            elif name == "code_inline":
                inner = node.children
                if len(inner) > 1 or (inner and inner[0].name != "text"):
                    raise _Unsupported("code span with inner nodes")
                content = inner[0].meta["content"] if inner else ""
                out.append(Token("code_inline", "code", 0, content=content, markup="`" * node.meta["marker_len"]))
            elif name == "link":
                attrs: dict[str, str | int | float] = {"href": self.href(node.meta["url"])}
                if "title" in node.meta:
                    attrs["title"] = node.meta["title"]
                out.append(Token("link_open", "a", 1, attrs=attrs))
                self.children(node.children, out, depth + 1)
                out.append(Token("link_close", "a", -1))
            elif name == "image":
                attrs = {"src": self.href(node.meta["url"]), "alt": ""}
                if "title" in node.meta:
                    attrs["title"] = node.meta["title"]
                alt: list[Token] = []
                self.children(node.children, alt, depth + 1)
                out.append(Token("image", "img", 0, attrs=attrs, children=alt))
            elif name == "autolink":
                # `<http://☃.net/>`: markdown-it-py's href and shown text both come from the source as written.
                shown = node.children
                if len(shown) != 1 or shown[0].name != "text_special":
                    raise _Unsupported("autolink")
                written = shown[0].meta["markup"]
                target = written
                if node.meta["url"].startswith("mailto:") and not written.lower().startswith("mailto:"):
                    target = "mailto:" + written  # `<a@b.co>`
                if not written.isascii() or "%" in written:
                    raise _Unsupported("autolink outside ASCII")
                out.append(Token("link_open", "a", 1, attrs={"href": self._normalize_link(target)},
                                 markup="autolink", info="auto"))
                out.append(Token("text", "", 0, content=self._normalize_link_text(written)))
                out.append(Token("link_close", "a", -1, markup="autolink", info="auto"))
            elif name == "html_inline":
                out.append(Token("html_inline", "", 0, content=node.meta["content"]))
            else:
                raise _Unsupported(name)

    def href(self, url: str) -> str:
        """A link's URL as markdown-it-py writes it; one that either parser escaped is left to markdown-it-py (their
        escapes differ: a host outside ASCII is punycode there, percent-escaped here)."""
        if "%" in url:
            raise _Unsupported("escaped URL")
        return self._normalize_link(url)


_RAW_TEXT_BLOCK = re.compile(r"[ \t]*<(pre|script|style|textarea)(?:[\s>]|$)", re.IGNORECASE)
"""HTML blocks that run to their closing tag, blank lines included: left open, the parsers end them differently."""

_MARKED_BLOCK = re.compile(r"[ \t]*(<!--|<\?|<!\[CDATA\[|<![A-Za-z])")
_MARKED_BLOCK_ENDS = {"<!--": "-->", "<?": "?>", "<![CDATA[": "]]>"}
"""HTML blocks that run to an end marker, blank lines included (CommonMark's kinds 2-5; a declaration `<!X` ends
at `>`): left open, the parsers end them differently."""

_LINE_BLOCKS = frozenset({"fence", "code_block", "html_block"})
"""Blocks whose content is their source lines, newlines included."""

_MAX_DEPTH = 12
"""Nesting past which a page takes markdown-it-py's parse: its `maxNesting` (20) turns deeper syntax into text, and
the Rust parser's limit differs (nesting in the thousands would also exhaust Python's recursion here)."""

_INLINE_NAMES = frozenset({"text", "text_special", "softbreak", "hardbreak", "em", "strong", "strikethrough",
                           "code_inline", "link", "image", "autolink", "html_inline"})
"""What a tight list item holds directly, where a loose one has a paragraph."""

_PAIRS = {"em": ("em", "em", ""), "strong": ("strong", "strong", ""), "strikethrough": ("s", "s", "~~")}
"""Inline nodes with an opening and a closing token: markdown-it-py's type, tag and markup (empty: the node's own
marker)."""
