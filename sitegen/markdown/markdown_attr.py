"""kramdown's `<div markdown="1">`: Markdown inside a raw HTML block, as Jekyll sites write it.

CommonMark passes an HTML block through untouched until the next blank line, so a Jekyll CV's
`<div id="contact" markdown="1">` holding `**Email**: [me](mailto:…)` would show the asterisks. This block rule
keeps the opening and closing tags as raw HTML (without the `markdown` attribute, as kramdown does) and parses
the lines between them as Markdown. Without the attribute, raw HTML stays raw, as in CommonMark and kramdown.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*+)")
_ATTR = re.compile(r"""(?<!\s)\s++([^\s>="']++)(?:\s*+=\s*+("[^"]*+"|'[^']*+'|[^\s>"']++))?""")
"""One attribute; possessive and matched from where the last ended, so a tag line is read in linear time."""
_ON = ("1", "block")
SCAN_BUDGET = 200_000
"""Lines all `markdown="1"` blocks of one page may scan for their closing tags."""
MAX_NESTING = 20
"""`markdown="1"` blocks nested deeper stay raw HTML (each level is a level of recursion)."""


def _open_tag(line: str) -> tuple[str, str, str] | None:
    """(tag, attributes before, attributes after) of a line holding only `<tag … markdown="1" …>`."""
    tag = _TAG.match(line)
    if tag is None:
        return None
    pos, marker = tag.end(), None
    while (attr := _ATTR.match(line, pos)) is not None:
        value = attr.group(2) or ""
        value = value[1:-1] if value[:1] in ("'", '"') else value
        if marker is None and attr.group(1) == "markdown" and value in _ON:
            marker = attr
        pos = attr.end()
    if marker is None or line[pos:].strip() != ">":
        return None
    return tag.group(1), line[tag.end():marker.start()], line[marker.end():pos]


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]]


def _markdown_html_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """An opening tag with `markdown="1"` alone on its line, Markdown lines, and its closing tag alone on a line."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    match = _open_tag(_line(state, start))
    if not match:
        return False
    tag = match[0].lower()
    env = state.env
    # Each opening tag scans ahead for its closing one: bound the total so that thousands of unclosed or
    # nested `markdown="1"` tags stay linear (and shallow); past the bounds they stay raw HTML, as in CommonMark.
    budget = env.get("markdown_attr_budget", SCAN_BUDGET)
    if budget <= 0 or env.get("markdown_attr_depth", 0) >= MAX_NESTING:
        return False
    opens, closes = re.compile(rf"<{tag}[\s>]", re.I), re.compile(rf"</{tag}\s*>", re.I)
    depth, close = 1, start
    while depth > 0:
        close += 1
        budget -= 1
        if close >= end or budget <= 0:
            env["markdown_attr_budget"] = budget
            return False
        text = _line(state, close)
        depth += len(opens.findall(text)) - len(closes.findall(text))
    env["markdown_attr_budget"] = budget
    if not closes.fullmatch(_line(state, close).strip()):
        return False
    if silent:
        return True
    token = state.push("html_block", "", 0)
    token.content = f"<{match[0]}{match[1]}{match[2]}>\n"
    token.map = [start, start + 1]
    old_parent, old_max = state.parentType, state.lineMax
    state.parentType, state.lineMax = "markdown_html", close  # type: ignore[assignment]
    env["markdown_attr_depth"] = env.get("markdown_attr_depth", 0) + 1
    state.md.block.tokenize(state, start + 1, close)
    env["markdown_attr_depth"] -= 1
    state.parentType, state.lineMax = old_parent, old_max
    token = state.push("html_block", "", 0)
    token.content = _line(state, close).strip() + "\n"
    token.map = [close, close + 1]
    state.line = close + 1
    return True


def markdown_attr_plugin(md: MarkdownIt) -> None:
    """Parse the inside of `<tag markdown="1">…</tag>` blocks as Markdown."""
    md.block.ruler.before("html_block", "markdown_html", _markdown_html_block,
                          {"alt": ["paragraph", "reference", "blockquote"]})
