"""The compiled parse: markdown-it-pyrs (markdown-it ported to Rust, by markdown-it-py's maintainer) parses a page
that needs nothing beyond CommonMark, tables and strikethrough, and its tree is rendered here to the HTML that
markdown-it-py's parse and renderer would have given, with the heading ids, links and fenced code left as slots
that `MarkdownRenderer` fills as it fills them on markdown-it-py's tokens.

Parsing and rendering are most of a cold build's Markdown time besides highlighting (markdown-it-py's rules and
tokens, in Python); the Rust parse of the same page takes a tenth of it, and one walk of its tree writes the HTML.
The two parsers agree on CommonMark, tables and strikethrough, and what a page may hold beyond that is read only
by sitegen's markdown-it-py plugins (math, attributes, footnotes, definition lists, task lists, GFM autolinks,
callouts, kramdown's `{: }` and `markdown="1"`) or is parsed differently by the two (punycode hosts, which links
count as safe). A page showing any of it, anywhere outside its code, returns None here and takes markdown-it-py's
parse: the HTML, toc and links are the same on either path (the tests in `tests/unit/test_markdown_native.py`
compare both on every page they know, and on generated Markdown).

Where the package has no wheel (Python 3.13 and later, musl), it is not installed and every page takes
markdown-it-py's parse: the same output, more slowly.
"""

from __future__ import annotations

import bisect
import functools
import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markdown_it.common.utils import escapeHtml

_RustMarkdownIt: Any
try:  # an optional speed-up: pyproject installs it only where it has wheels
    from markdown_it_pyrs import MarkdownIt as _RustMarkdownIt
except ImportError:  # pragma: no cover - exercised on interpreters without a wheel
    _RustMarkdownIt = None

_LIST_MARKER = r"(?:[-+*]|\d{1,9}[.)])"
"""A bullet or ordered list item's marker, as the line checks below find it."""

_RAW_FALLBACK_TEXT = ("\r", "\x00", "\\|", "[^", "[ ]", "[x]", "[X]")
_RAW_FALLBACK_LOWER = ("javascript:", "vbscript:", "file:", "data:", "<source", "</source", "<search", "</search")
_ODD_SPACE = re.compile(r"[^\S \t\n]")
"""Whitespace other than spaces, tabs and newlines (U+3000, U+00A0, form feeds...): markdown-it-py trims it from a
paragraph's ends, the Rust parser keeps it."""
_MARKDOWN_ATTR = re.compile(r"markdown\s*=")
_PREFIX = rf"[ \t>]*+(?:{_LIST_MARKER}[ \t][ \t>]*+)*"
"""What may stand before a block on its line: indentation, quote markers and list markers. Each marker's spaces
can be matched one way only (one, then the rest possessively): a pattern that could split them between two
quantifiers takes exponential time on a line of many markers with several spaces between them."""
_LINE_CHECKS: tuple[tuple[str | None, str], ...] = (
    (None, rf"{_PREFIX}[:~](?:[ \t\n]|$)"),
    (None, rf"{_PREFIX}{_LIST_MARKER}[ \t]*(?:\n|$)"),
    ("[!", rf"{_PREFIX}\[![A-Za-z]"),
    ("\t", rf"[ \t]*(?:{_LIST_MARKER}[ \t]+)*>[^\n]*\t|[ \t]*{_LIST_MARKER}\t"),
    ("]:", rf"[ \t]*{_LIST_MARKER}[^\n]*\]:"),
    ("~~~", r"(?![ \t]{0,3}~~~)[^\n]*~~~"),
    ("|", r"[^\n|]*+\|[^\n]*+\n[ \t]*:?-+:?[ \t]*(?:\n|$)"))
"""The checks `_RAW_FALLBACK_LINES` makes at each line's start, each with a text it cannot match without (None: it
may match any text)."""
_RAW_FALLBACK_LINES = re.compile(r"\n(?:" + "|".join(check for _, check in _LINE_CHECKS) + ")")
"""The line checks of `_raw_fallback`, all of them (what `_fallback_line` finds, as a test compares)."""
_ODD_SYNTAX = re.compile(r"`[ \n]{2,}`|^(?=[^\n]*\]:)[^\n]*\\$|^(?=[^\n]*\]:[ \t]*<)[^\n]*>\S|\]\[[^\]\n]*\[",
                         re.MULTILINE)
"""Syntax the two parsers read differently: a code span of spaces only (one trims it), a link reference
definition whose destination ends with `\\` or whose `<destination>` has something right after it (lines found
from their start: linear on a line of many `]:`), and `[` inside a full reference's label (`[a][[b]]`). The
definition of what `_odd_syntax` finds more quickly (a test compares the two); not searched with in a build."""
_OPEN_DESTINATION = re.compile(r"\]\([ \t]*(?:\n|\||$)")
"""`[ref](` with nothing after the `(` on its line (or in its table cell): the Rust parser makes it a reference
link, markdown-it-py text."""
_DEEP_PREFIX = re.compile(rf"\n(?:[ \t]*+(?:>|{_LIST_MARKER}[ \t])){{24}}")
"""24 quote or list markers at a line's start, in the text after a newline (`\\n` is found quickly, a multi-line
`^` is tried at every character)."""
_LONG_RUN = re.compile(r"[*_~]{64}")
_MANY = 3000
"""Asterisks, underscores or tildes (each) from which a page takes markdown-it-py's parse, as it does with 24 nested
quotes or list items on a line, a run of 64 emphasis characters, or `_MANY // 15` link reference definitions: the
Rust parser takes quadratic time on nested emphasis, strikethrough and runs of definitions, and overflows its
stack (killing the process) on nesting in the thousands."""
_DEFINITION = re.compile(r"^[ \t]{0,3}\[[^\]\n]+\]:", re.MULTILINE)


def _raw_fallback(text: str) -> bool:
    """Whether the source text sends a page to markdown-it-py before any parse (found anywhere, code included):
    carriage returns and NULs (normalized by either parser, not proven alike), `\\|` (a table cell's escaped pipe,
    read apart by the two), footnotes `[^`, task list boxes, `markdown="1"` blocks, URL schemes one parser links and
    the other does not (also written with entities or backslash escapes), `<source>` and `<search>` (HTML block tags
    in one parser's CommonMark version only), whitespace other than spaces and tabs (trimmed by one parser only),
    `[ref](` ending a line, input the Rust parser is slow on or cannot nest (`_MANY`); and, at a line's start
    (after quote and list markers where these can stand there): definition-list lines, callouts `[!TYPE]`, empty
    list items (which end a paragraph, quote or table in markdown-it-py, and continue it in the Rust parser), tabs
    in quote and list markers (expanded differently), runs of three tildes inside a line (strikethrough's edge),
    and a line with a `|` over a pipeless `---` (a table to markdown-it-py only)."""
    if any(marker in text for marker in _RAW_FALLBACK_TEXT) or _odd_space(text):
        return True
    lowered = text.lower()
    if any(marker in lowered for marker in _RAW_FALLBACK_LOWER):
        return True
    if "&" in text or "\\" in text:  # `[a](&#102;ile:x)`, `[a](file\\:x)`: the schemes as the parsers decode them
        decoded = html.unescape(lowered.replace("\\", ""))
        if any(marker in decoded for marker in _RAW_FALLBACK_LOWER[:4]):
            return True
    if "markdown" in lowered and _MARKDOWN_ATTR.search(lowered):
        return True
    stars, underscores, tildes = text.count("*"), text.count("_"), text.count("~")
    lined = "\n" + text
    if (stars > _MANY or underscores > _MANY or tildes > _MANY
            or (stars + underscores + tildes >= 64 and _LONG_RUN.search(text)) or _DEEP_PREFIX.search(lined)):
        return True
    if text.count("]:") > _MANY // 15 and len(_DEFINITION.findall(text)) > _MANY // 15:
        return True
    return _OPEN_DESTINATION.search(text) is not None or _odd_syntax(text) or _fallback_line(text, lined)


@functools.cache
def _line_checks(present: tuple[bool, ...]) -> re.Pattern[str]:
    """`_RAW_FALLBACK_LINES` with only the line checks whose text is `present`."""
    return re.compile(r"\n(?:" + "|".join(check for (_, check), there in zip(_LINE_CHECKS, present, strict=True)
                                          if there) + ")")


def _fallback_line(text: str, lined: str) -> bool:
    """`_RAW_FALLBACK_LINES` found in `lined` ("\\n" + `text`), trying only the checks whose text `text` holds (a
    check for `~~~` reads each whole line); the last one, a line holding `|` over a pipeless delimiter row, is
    looked for from the rows (`_pipe_over_pipeless_row`: a page of tables has few rows of dashes, and every line
    of it would be read for a `|`)."""
    present = tuple(need is None or need in text for need, _ in _LINE_CHECKS[:-1])
    if any(present) and _line_checks((*present, False)).search(lined) is not None:
        return True
    return "|" in text and _pipe_over_pipeless_row(lined)


_PIPELESS_ROW = re.compile(r"\n[ \t]*:?-+:?[ \t]*(?=\n|$)")
"""A table delimiter row without `|` (`---`, `:-:`), found from the newline before it."""


def _pipe_over_pipeless_row(lined: str) -> bool:
    """Whether a line that follows a newline holds a `|` and the line after it is a pipeless delimiter row (the last
    of `_LINE_CHECKS`, found from each such row back to the line before it)."""
    for row in _PIPELESS_ROW.finditer(lined):
        start = lined.rfind("\n", 0, row.start())
        if start >= 0 and "|" in lined[start + 1:row.start()]:
            return True
    return False


_ASCII_ODD_SPACE = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")
"""The ASCII characters `_ODD_SPACE` finds."""
_WIDE_ODD_SPACE = (*_ASCII_ODD_SPACE, "\x85", "\xa0", "\u1680", *map(chr, range(0x2000, 0x200B)), "\u2028", "\u2029",
                   "\u202f", "\u205f", "\u3000")
"""Every character `_ODD_SPACE` finds (a test lists them from all of Unicode)."""


def _odd_space(text: str) -> bool:
    """`_ODD_SPACE` found in `text`: one of the characters it finds, each looked for in turn (the pattern's scan of
    the page costs ten times as much in ASCII text, and twice as much in other text)."""
    return any(char in text for char in (_ASCII_ODD_SPACE if text.isascii() else _WIDE_ODD_SPACE))


_SPACES_SPAN = re.compile(r"`[ \n]{2,}`")
_LABEL_BRACKET = re.compile(r"\]\[[^\]\n]*\[")
_ANGLE_DESTINATION = re.compile(r"\]:[ \t]*<")
_AFTER_ANGLE = re.compile(r">\S")


def _odd_syntax(text: str) -> bool:
    """`_ODD_SYNTAX` found in `text`, looking only where its literal parts are: the definition checks run on the
    lines holding `]:` (the pattern tries them at every line's start, twice)."""
    if "`" in text and _SPACES_SPAN.search(text):
        return True
    if "][" in text and _LABEL_BRACKET.search(text):
        return True
    at = text.find("]:")
    while at >= 0:
        end = text.find("\n", at)
        line = text[text.rfind("\n", 0, at) + 1:end if end >= 0 else len(text)]
        if line.endswith("\\") or (_ANGLE_DESTINATION.search(line) and _AFTER_ANGLE.search(line)):
            return True
        at = text.find("]:", end) if end >= 0 else -1
    return False


_LIST_LINE = re.compile(rf"^{_PREFIX}{_LIST_MARKER}(?:[ \t]|$)")
"""A line that opens a list item, after quote markers too."""
_QUOTE_LINE = re.compile(rf"^[ \t]*(?:{_LIST_MARKER}[ \t]+)*>")
"""A line that opens or continues a quote, in a list item too. (These line patterns are only ever matched at a
line's start; the `^` keeps a search from trying every position, each scanning to the end: 93 s on 20,000
characters of `- `.)"""

_TEXT_FALLBACK = re.compile(r"[$@{}]|\\[\[\]()]|www\.|(?:https?|mailto|xmpp):|<!|\]\(", re.IGNORECASE)
"""Text outside code that a sitegen plugin may read: math (`$`), attributes and kramdown (`{ }`), GFM autolinks
(`www.`, `http:`, e-mail `@`), bracket math (an escaped `\\(`, kept with its backslash in the checked text); and
`<!`, an HTML comment that CommonMark 0.31 (markdown-it-py) reads as HTML and the Rust parser's older rules as
text (`<!-- a -- b -->`); `](` left as text, an inline link that failed, after which the parsers look for a
reference differently. The definition of what `_text_fallback` finds more quickly (a test compares the two)."""
_TEXT_FALLBACK_MARKERS = ("$", "@", "{", "}", "\\[", "\\]", "\\(", "\\)", "www.", "http:", "https:", "mailto:", "xmpp:",
                          "<!", "](")
"""`_TEXT_FALLBACK`'s matches, lowercased: it matches only ASCII text."""
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
"""The characters besides ASCII letters that `re.IGNORECASE` matches to an ASCII letter (İ ı ſ K)."""


def _text_fallback(checked: str) -> bool:
    """`_TEXT_FALLBACK` found in `checked`: a search for each of its matches in the lowercased text (6 times as
    quick as the pattern's case-insensitive scan). Lowercasing keeps every ASCII character where it was among the
    others, and makes no other ASCII character but from `İ` and `K`: where none of `_FOLDS_TO_ASCII` stands, a
    match of the pattern is one of the markers in the lowercased text, and each marker found is a match."""
    if any(char in checked for char in _FOLDS_TO_ASCII):
        return _TEXT_FALLBACK.search(checked) is not None
    lowered = checked.lower()
    return any(marker in lowered for marker in _TEXT_FALLBACK_MARKERS)


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


_DELIMITER_ROW = re.compile(r"[ \t>|:-]*")
_TOP_HEADER = re.compile(rf"^(?![ \t]*(?:{_LIST_MARKER}(?:[ \t]|$)|>))[^\n]*\|")
"""A table's header row that starts a line (not in a list item or quote) and holds a `|`."""


def _quote_or_table_read_apart(text: str) -> bool:
    """Whether a quote (with the lines that continue it lazily) holds a `|` or runs into a list item, or a table row
    runs into one: markdown-it-py ends the quote or table at such a line, the Rust parser reads it as more of it.
    Also whether a table's delimiter row (`--|--`) stands anywhere but under a `|` header at the start of a line
    (in a list item or quote, or under a line without `|`), where the two parsers find tables differently."""
    if ">" not in text and "|" not in text:
        return False
    quote = table = False
    previous = ""
    for line in text.split("\n"):
        if "|" in line and "-" in line and _DELIMITER_ROW.fullmatch(line) \
                and (line[:1] in " \t>" or not _TOP_HEADER.match(previous)):
            return True
        previous = line
        if not line.strip():
            quote = table = False
            continue
        if (quote or table) and _LIST_LINE.match(line):
            return True
        if _QUOTE_LINE.match(line):
            quote = True
        elif quote and line[:1] in " \t":  # a lazy line keeps its indentation in one parser's inline content only
            return True
        if quote and "|" in line:
            return True
        table = table or "|" in line
    return False


def _symbol_flanked(text: str) -> bool:
    """Whether an emphasis or strikethrough delimiter stands beside a Unicode symbol (`_😀`, `©*`): CommonMark 0.31
    (markdown-it-py) counts symbols as punctuation in its flanking rules, the Rust parser's older rules do not.
    (Each delimiter is found with `find`: three times as quick as a pattern's scan of the page for those beside
    a character past ASCII.)"""
    if text.isascii():
        return False
    for delimiter in "*_~":
        at = text.find(delimiter)
        while at >= 0:
            for beside in text[at - 1:at] + text[at + 1:at + 2]:
                if beside > "\x7f" and unicodedata.category(beside)[0] == "S":
                    return True
            at = text.find(delimiter, at + 1)
    return False


class _Unsupported(Exception):
    """A node this module does not render: the page takes markdown-it-py's parse."""


@dataclass
class NativePage:
    """One page rendered from the compiled parse, with the values only its renderer knows left as slots in `parts`:
    `MarkdownRenderer` fills them in and joins the parts."""

    parts: list[str] = field(default_factory=list)
    """The HTML, in pieces."""
    links: list[tuple[int, str, int, str]] = field(default_factory=list)
    """(slot, href as markdown-it-py normalizes it, 0-based line of its block, `link` or `image`): the slot takes
    the href, rewritten and HTML-escaped."""
    headings: list[tuple[int, int, str]] = field(default_factory=list)
    """(slot, level, title: the heading's text and code, not image descriptions): the slot takes the id, escaped."""
    fences: list[tuple[int, str, str, int]] = field(default_factory=list)
    """(slot, content, info string, slot in `plain`): the slot takes the fenced block's HTML, its slot in `plain`
    that HTML's plain text."""
    raw_html: list[str] = field(default_factory=list)
    """The page's raw HTML blocks and inline tags (not those inside image descriptions), whose ids anchors avoid."""
    plain: list[str] = field(default_factory=list)
    """The text of the HTML in `parts`, in pieces, as `sitegen.content.text.plain_text` gives it apart from
    whitespace (a space for each block tag, nothing for an inline one; text unescaped), when `raw_html` is empty:
    the plain text without a scan of the HTML for its tags."""


class NativeParser:
    """The compiled parser, when installed; `page(text)` or None for markdown-it-py's parse."""

    def __init__(self, normalize_link: Callable[[str], str], normalize_link_text: Callable[[str], str]) -> None:
        self._md = (_RustMarkdownIt("commonmark").enable_many(["table", "strikethrough"])
                    if _RustMarkdownIt is not None else None)
        self._normalize = (normalize_link, normalize_link_text)
        """markdown-it-py's own `normalizeLink` and `normalizeLinkText` (hrefs, and an autolink's shown text)."""

    @property
    def available(self) -> bool:
        """Whether markdown-it-pyrs is installed here."""
        return self._md is not None

    def page(self, text: str) -> NativePage | None:
        """The HTML markdown-it-py's renderer gives for `text` (after its core rules), with slots for what the
        caller resolves; or None when the page needs markdown-it-py's parse."""
        if (self._md is None or _raw_fallback(text) or _unpaired_backticks(text)
                or _symbol_flanked(text)
                or _quote_or_table_read_apart(text)):
            return None
        try:
            tree = self._md.tree(text)
        except BaseException as exc:  # a Rust panic is a BaseException (pyo3's PanicException)
            if type(exc).__name__ != "PanicException":
                raise
            return None
        builder = _Builder(text, *self._normalize)
        try:
            builder.blocks(tree.children, 0)
        except _Unsupported:
            return None
        if _text_fallback("".join(builder.checked)):
            return None
        return builder.page


class _Builder:
    """Renders one page's Rust tree as markdown-it-py's renderer renders the tokens markdown-it-py's parse gives
    (its `renderToken`: a newline after a block tag unless inline content or a tight list item's hidden paragraph
    follows, or the same tag closes at once; a newline before a block tag that follows a hidden paragraph)."""

    def __init__(self, text: str, normalize_link: Callable[[str], str],
                 normalize_link_text: Callable[[str], str]) -> None:
        self.page = NativePage()
        self.out = self.page.parts
        self.plain = self.page.plain
        self.checked: list[str] = []
        """The page's text outside code, for `_text_fallback`."""
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

    def check_end(self, node: Any) -> None:
        """A code or HTML block that reaches the end of a text without a final newline is left to markdown-it-py."""
        srcmap = node.srcmap
        if srcmap is None:
            raise _Unsupported("no source position")
        if self._open_end is not None and srcmap[1] >= self._open_end:
            raise _Unsupported("a code or HTML block ending the text without a newline")

    def blocks(self, nodes: list[Any], level: int, item_line: int | None = None) -> None:
        """The HTML of block `nodes` (a list item's inline runs are its tight paragraphs, hidden; `item_line`: the
        item's line, where a run that opens it starts)."""
        if level > _MAX_DEPTH:
            raise _Unsupported("nested deeper than markdown-it-py's limit allows comparing")
        out, plain = self.out, self.plain
        run: list[Any] = []
        after_run = False
        """Whether the last thing rendered is a hidden paragraph: a block tag after it starts on a new line."""
        first = item_line
        """The line of a run that opens the item; None once anything else came first."""
        for node in nodes:
            name = node.name
            if name in _INLINE_NAMES:
                run.append(node)
                continue
            if run:
                self.hidden_paragraph(run, first)
                run = []
                after_run = True
            first = None
            lf = "\n" if after_run else ""
            after_run = False
            if name == "paragraph":
                out.append(lf + "<p>")
                plain.append(" ")
                self.children(node.children, self.line(node.srcmap), None, 0)
                out.append("</p>\n")
                plain.append(" ")
            elif name == "heading" or name == "lheading":
                if name == "lheading" and b"|" in self.source_of(node):
                    raise _Unsupported("a setext heading that markdown-it-py may read as a table")
                level = int(node.meta["level"])
                out.append(f"{lf}<h{level} id=\"")
                slot = len(out)
                out.append("")
                out.append("\">")
                plain.append(" ")
                title: list[str] = []
                self.children(node.children, self.line(node.srcmap), title, 0)
                out.append(f"</h{level}>\n")
                plain.append(" ")
                self.page.headings.append((slot, level, "".join(title)))
            elif name == "fence":
                self.check_end(node)
                meta = node.meta
                self.page.fences.append((len(out), meta["content"], meta["info"], len(plain)))
                out.append("")
                plain.append("")
            elif name == "code_block":
                self.check_end(node)
                content = node.meta["content"]
                out.append("<pre><code>" + escapeHtml(content) + "</code></pre>\n")
                plain.append(" " + content + " ")
            elif name == "html_block":
                self.check_end(node)
                content = node.meta["content"]
                raw = _RAW_TEXT_BLOCK.match(content)
                if raw and f"</{raw.group(1).lower()}>" not in content.lower():
                    raise _Unsupported("an unclosed <pre>, <script>, <style> or <textarea> block")
                opener = _MARKED_BLOCK.match(content)
                if opener and _MARKED_BLOCK_ENDS.get(opener.group(1), ">") not in content[opener.end():]:
                    raise _Unsupported("an unclosed comment, processing instruction, declaration or CDATA block")
                if "|" in content.partition("\n")[0]:
                    raise _Unsupported("an HTML line that may head a table")
                self.page.raw_html.append(content)
                out.append(content)
            elif name == "bullet_list" or name == "ordered_list":
                self.list_block(node, level, lf)
            elif name == "blockquote":
                children = node.children
                out.append(lf + "<blockquote" + _open_lf(children))
                plain.append(" ")
                self.blocks(children, level + 1)
                out.append("</blockquote>\n")
                plain.append(" ")
            elif name == "hr":
                out.append(lf + "<hr />\n")
                plain.append(" ")
            elif name == "table":
                self.table(node, lf)
            elif name == "definition":  # a link reference definition: no HTML
                title = node.meta.get("title", "")
                if "\n" in title or "\\" in title:  # the Rust parser can misplace the end of such a title
                    raise _Unsupported("definition title over lines")
                after_run = bool(lf)  # markdown-it-py makes no token of it: what came before is still before
            else:
                raise _Unsupported(name)
        if run:
            self.hidden_paragraph(run, first)

    def hidden_paragraph(self, nodes: list[Any], line: int | None) -> None:
        """A tight list item's paragraph: its text without `<p>` tags (markdown-it-py's `hidden`), on `line` when it
        opens the item. Elsewhere its line is its first node's, when that is text: the Rust tree's positions of
        inline nodes in list items drift over emphasis that spans lines."""
        if line is None:
            if nodes[0].name != "text":
                raise _Unsupported("a tight paragraph after a block, opening with markup")
            line = self.line(nodes[0].srcmap)
        self.children(nodes, line, None, 0)

    def list_block(self, node: Any, level: int, lf: str) -> None:
        ordered = node.name == "ordered_list"
        out, plain = self.out, self.plain
        plain.append(" ")  # (`<ul>`, `<ol>`, `<li>` and their ends are block tags: each a space in the plain text)
        if ordered:
            start = node.meta["start"]
            out.append(lf + ('<ol>\n' if start == 1 else f'<ol start="{start}">\n'))
        else:
            out.append(lf + "<ul>\n")
        for item in node.children:
            if item.name != "list_item" or item.attrs:
                raise _Unsupported(item.name)
            children = item.children
            out.append("<li" + _open_lf(children))
            plain.append(" ")
            self.blocks(children, level + 2, self.line(item.srcmap))
            out.append("</li>\n")
            plain.append(" ")
        out.append("</ol>\n" if ordered else "</ul>\n")

    def table(self, node: Any, lf: str) -> None:
        if b"|" not in self.source_of(node).partition(b"\n")[0]:
            raise _Unsupported("a table whose header line has no pipe")
        out, plain = self.out, self.plain
        aligns = node.meta["alignments"]
        out.append(lf + "<table>\n")
        plain.append(" ")  # (`<table>`, `<tr>`, `<th>`, `<td>` and their ends are block tags)
        for part in node.children:
            section = part.name
            if section not in ("thead", "tbody"):
                raise _Unsupported(section)
            cell_tag = "th" if section == "thead" else "td"
            starts = [f'<{cell_tag} style="text-align:{align}">' if align != "none" else f"<{cell_tag}>"
                      for align in aligns]
            close = f"</{cell_tag}>\n"
            out.append(f"<{section}>\n")
            for row in part.children:
                cells = row.children
                if row.name != "trow" or len(cells) != len(aligns):
                    raise _Unsupported(row.name)
                line = self.line(row.srcmap)
                out.append("<tr>\n")
                for cell, start in zip(cells, starts, strict=True):
                    out.append(start)
                    plain.append(" ")
                    self.children(cell.children, line, None, 0)
                    out.append(close)
                    plain.append(" ")
                out.append("</tr>\n")
            out.append(f"</{section}>\n")
        out.append("</table>\n")

    def children(self, nodes: list[Any], line: int, title: list[str] | None, depth: int) -> None:
        """The HTML of inline `nodes`, written on `line`; `title` (a heading's) gathers their text and code."""
        if depth > _MAX_DEPTH:
            raise _Unsupported("nested deeper than markdown-it-py's limit allows comparing")
        checked = self.checked
        out, plain = self.out, self.plain
        linked = False
        """Whether the node before is a link or image: `(` after it is a failed inline link's, read apart."""
        for node in nodes:
            name = node.name
            after_link, linked = linked, False
            if name == "text":
                content = node.meta["content"]
                if after_link and content.startswith("("):
                    raise _Unsupported("a reference link or image right before `(`")
                checked.append(content)
                out.append(escapeHtml(content))
                plain.append(content)
                if title is not None:
                    title.append(content)
            elif name == "text_special":
                meta = node.meta
                checked.append(meta["markup"])  # `\(` keeps its backslash: bracket math is checked for
                content = meta["content"]
                out.append(escapeHtml(content))
                plain.append(content)
                if title is not None:
                    title.append(content)
            elif name == "softbreak":
                out.append("\n")
                plain.append("\n")
            elif name == "hardbreak":
                out.append("<br />\n")
                plain.append(" ")
            elif name in _TAGS:
                tag = _TAGS[name]
                out.append(f"<{tag}>")
                self.children(node.children, line, title, depth + 1)
                out.append(f"</{tag}>")
            elif name == "code_inline":
                content = self.code(node)
                out.append("<code>" + escapeHtml(content) + "</code>")
                plain.append(content)
                if title is not None:
                    title.append(content)
            elif name == "link":
                linked = True
                meta = node.meta
                href = self.href(meta["url"])
                out.append('<a href="')
                self.slot(href, line, "link")
                out.append(f'" title="{escapeHtml(meta["title"])}">' if meta.get("title") else '">')
                self.children(node.children, line, title, depth + 1)
                out.append("</a>")
            elif name == "image":
                linked = True
                meta = node.meta
                href = self.href(meta["url"])
                alt: list[str] = []
                self.text_of(node.children, alt, depth + 1)
                out.append('<img src="')
                self.slot(href, line, "image")
                out.append(f'" alt="{escapeHtml("".join(alt))}"'
                           + (f' title="{escapeHtml(meta["title"])}" />' if meta.get("title") else " />"))
            elif name == "autolink":
                href, shown = self.autolink(node)
                out.append('<a href="')
                self.slot(href, line, "link")
                out.append('">' + escapeHtml(shown) + "</a>")
                plain.append(shown)
                if title is not None:
                    title.append(shown)
            elif name == "html_inline":
                content = node.meta["content"]
                self.page.raw_html.append(content)
                out.append(content)
            else:
                raise _Unsupported(name)

    def text_of(self, nodes: list[Any], out: list[str], depth: int) -> None:
        """An image description as markdown-it-py's `renderInlineAsText` gives it: text, code and raw HTML as
        written, a line break as a newline; the same checks as `children`, and no links recorded. An image in the
        description is left to markdown-it-py, whose text of it drops escapes and entities."""
        if depth > _MAX_DEPTH:
            raise _Unsupported("nested deeper than markdown-it-py's limit allows comparing")
        checked = self.checked
        for node in nodes:
            name = node.name
            if name == "text":
                content = node.meta["content"]
                checked.append(content)
                out.append(content)
            elif name == "text_special":
                meta = node.meta
                checked.append(meta["markup"])
                out.append(meta["content"])
            elif name == "softbreak" or name == "hardbreak":
                out.append("\n")
            elif name in _TAGS:
                self.text_of(node.children, out, depth + 1)
            elif name == "code_inline":
                out.append(self.code(node))
            elif name == "link":
                self.href(node.meta["url"])
                self.text_of(node.children, out, depth + 1)
            elif name == "image":  # its description's escapes and entities are dropped in markdown-it-py's text
                raise _Unsupported("an image in an image's description")
            elif name == "autolink":
                out.append(self.autolink(node)[1])
            elif name == "html_inline":
                out.append(node.meta["content"])
            else:
                raise _Unsupported(name)

    def slot(self, href: str, line: int, kind: str) -> None:
        """A placeholder for a link's href (rewritten and escaped by the caller), recorded with its line."""
        self.page.links.append((len(self.out), href, line, kind))
        self.out.append("")

    @staticmethod
    def code(node: Any) -> str:
        """A code span's text."""
        inner = node.children
        if len(inner) > 1 or (inner and inner[0].name != "text"):
            raise _Unsupported("code span with inner nodes")
        return str(inner[0].meta["content"]) if inner else ""

    def autolink(self, node: Any) -> tuple[str, str]:
        """An autolink's href and shown text: `<http://☃.net/>` in markdown-it-py takes both from the source."""
        shown = node.children
        if len(shown) != 1 or shown[0].name != "text_special":
            raise _Unsupported("autolink")
        written = shown[0].meta["markup"]
        target = written
        if node.meta["url"].startswith("mailto:") and not written.lower().startswith("mailto:"):
            target = "mailto:" + written  # `<a@b.co>`
        if not written.isascii() or "%" in written:
            raise _Unsupported("autolink outside ASCII")
        return self._normalize_link(target), self._normalize_link_text(written)

    def href(self, url: str) -> str:
        """A link's URL as markdown-it-py writes it; one that either parser escaped is left to markdown-it-py (their
        escapes differ: a host outside ASCII is punycode there, percent-escaped here)."""
        if "%" in url:
            raise _Unsupported("escaped URL")
        return self._normalize_link(url)


def _open_lf(children: list[Any]) -> str:
    """The end of a list item's or quote's opening tag: `>` before inline content (a hidden paragraph) or nothing,
    `>` and a newline before a block."""
    first = next((child.name for child in children if child.name != "definition"), None)
    return ">" if first is None or first in _INLINE_NAMES else ">\n"


_RAW_TEXT_BLOCK = re.compile(r"^[ \t]*<(pre|script|style|textarea)(?:[\s>]|$)", re.IGNORECASE)
"""HTML blocks that run to their closing tag, blank lines included: left open, the parsers end them differently."""

_MARKED_BLOCK = re.compile(r"^[ \t]*(<!--|<\?|<!\[CDATA\[|<![A-Za-z])")
_MARKED_BLOCK_ENDS = {"<!--": "-->", "<?": "?>", "<![CDATA[": "]]>"}
"""HTML blocks that run to an end marker, blank lines included (CommonMark's kinds 2-5; a declaration `<!X` ends
at `>`): left open, the parsers end them differently."""

_MAX_DEPTH = 12
"""Nesting past which a page takes markdown-it-py's parse: its `maxNesting` (20) turns deeper syntax into text, and
the Rust parser's limit differs (nesting in the thousands would also exhaust Python's recursion here)."""

_INLINE_NAMES = frozenset({"text", "text_special", "softbreak", "hardbreak", "em", "strong", "strikethrough",
                           "code_inline", "link", "image", "autolink", "html_inline"})
"""What a tight list item holds directly, where a loose one has a paragraph."""

_TAGS = {"em": "em", "strong": "strong", "strikethrough": "s"}
"""Inline nodes rendered as an element around their children, and its tag."""
