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

_OPEN = re.compile(
    r"""<([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s>]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?)*?)"""
    r"""\s+markdown\s*=\s*(?:"(?:1|block)"|'(?:1|block)'|1|block)"""
    r"""((?:\s+[^\s>]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*>\s*$""")


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]]


def _markdown_html_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """An opening tag with `markdown="1"` alone on its line, Markdown lines, and its closing tag alone on a line."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    match = _OPEN.match(_line(state, start))
    if not match:
        return False
    tag = match.group(1).lower()
    opens, closes = re.compile(rf"<{tag}[\s>]", re.I), re.compile(rf"</{tag}\s*>", re.I)
    depth, close = 1, start
    while depth > 0:
        close += 1
        if close >= end:
            return False
        text = _line(state, close)
        depth += len(opens.findall(text)) - len(closes.findall(text))
    if not closes.fullmatch(_line(state, close).strip()):
        return False
    if silent:
        return True
    token = state.push("html_block", "", 0)
    token.content = f"<{match.group(1)}{match.group(2)}{match.group(3)}>\n"
    token.map = [start, start + 1]
    old_parent, old_max = state.parentType, state.lineMax
    state.parentType, state.lineMax = "markdown_html", close  # type: ignore[assignment]
    state.md.block.tokenize(state, start + 1, close)
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
