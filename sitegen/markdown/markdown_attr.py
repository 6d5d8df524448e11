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


_IAL_ITEM = r"""(?:[.#][^\s{}.#="']+|[A-Za-z_:][\w:.-]*=(?:"[^"]*"|'[^']*'|[^\s{}"']+))"""
_IAL = re.compile(rf"^\{{:[ \t]*+((?:{_IAL_ITEM}[ \t]*+)*)\}}[ \t]*$")
"""kramdown's block IAL `{: .class #id key="v"}`, alone on its line: nothing else that starts with `{`
(`{% raw %}`, `{{ x }}`, `{foo}`) is read as attributes."""
_IAL_PART = re.compile(_IAL_ITEM.replace("|[A-Za-z_:]", r"|(?<![\w:.-])[A-Za-z_:]", 1))
"""One item of an IAL; a key starts only where no key character precedes it (linear on `aaaa…` runs)."""


def ial_attributes(line: str) -> dict[str, str] | None:
    """The attributes of a kramdown block IAL line (`{: .a .b #x k="v"}` -> class, id, k), else None."""
    match = _IAL.match(line.strip())
    if match is None:
        return None
    attrs: dict[str, str] = {}
    for part in _IAL_PART.findall(match[1]):
        if part[0] == ".":
            attrs["class"] = f"{attrs['class']} {part[1:]}" if "class" in attrs else part[1:]
        elif part[0] == "#":
            attrs["id"] = part[1:]
        else:
            key, _, value = part.partition("=")
            if key.casefold().startswith("on") or key.casefold() in ("href", "src", "style"):
                continue  # no scripts or links slipped in through attributes
            attrs[key] = value[1:-1] if value[:1] in ('"', "'") else value
    return attrs


def _ial_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A kramdown IAL line: right after a block (no blank line) it is that block's; else the next block's."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    attrs = ial_attributes(_line(state, start))
    if attrs is None:
        return False
    if silent:
        return True
    target = None
    if state.tokens and state.tokens[-1].nesting == -1:
        level, index = 0, len(state.tokens) - 1
        for index in range(len(state.tokens) - 1, -1, -1):
            level += state.tokens[index].nesting
            if level == 0:
                break
        opening = state.tokens[index]
        if opening.map is not None and opening.map[1] == start:
            target = opening
    if target is None:
        token = state.push("attrs_block", "", 0)  # mdit-py-plugins' attrs core rule hands it to the next block
        token.attrs = dict(attrs)
        token.map = [start, start + 1]
    else:
        for key, value in attrs.items():
            old = target.attrGet(key) if key == "class" else None
            target.attrSet(key, f"{old} {value}" if old else value)
    state.line = start + 1
    return True


def kramdown_ial_plugin(md: MarkdownIt) -> None:
    """kramdown block IALs (`{: .class}`) replace mdit-py-plugins' djot-style attribute lines (`{.class}`), which
    took any `{...}` paragraph (`{% raw %}`, `{foo}`) for attributes and dropped it. Use after attrs_block_plugin,
    whose core rule moves a leading IAL's attributes onto the next block."""
    md.block.ruler.at("attr", _ial_block, {"alt": ["paragraph", "blockquote", "list"]})
