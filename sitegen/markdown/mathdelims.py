"""LaTeX's own math delimiters in Markdown: `\\(x\\)` inline and `\\[x\\]` display (CommonMark would read them as
escaped brackets and show `(x)`), so a page with math needs no `math: true`.

`\\(...\\)` is always math (nobody escapes a parenthesis in Markdown) when it holds a letter or digit; `\\[...\\]`
is math only when its inside also looks like TeX (a backslash, `^`, `_`, `=`, `{`, or a line break), because
authors escape square brackets (`\\[1\\]`, `\\[citation needed\\]`) to keep them from being links.
Tokens are dollarmath's `math_inline` and `math_inline_double`, so they render (and mark the page as having
math) like `$x$` and `$$x$$`.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

_TEX = re.compile(r"[\\^_={\n]")
_ALNUM = re.compile(r"[^\W_]")
_CLOSERS = {"(": "\\)", "[": "\\]"}


def _bracket_math(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if src[pos] != "\\" or pos + 2 >= state.posMax or src[pos + 1] not in _CLOSERS:
        return False
    opener = src[pos + 1]
    closer = _CLOSERS[opener]
    # A closer found missing once is not searched again in this text: `\( \( \( …` stays linear.
    absent: dict[tuple[str, str], int] = state.env.setdefault("_sitegen_math_absent", {})
    if absent.get((closer, src), state.posMax + 1) <= pos:
        return False
    end = src.find(closer, pos + 2, state.posMax)
    if end < 0:
        absent[(closer, src)] = pos
        return False
    content = src[pos + 2:end]
    if not _ALNUM.search(content) or (opener == "[" and not _TEX.search(content)):
        return False
    if not silent:
        token = state.push("math_inline" if opener == "(" else "math_inline_double", "math", 0)
        token.content = content.strip()
        token.markup = "\\" + opener
    state.pos = end + 2
    return True


def bracket_math_plugin(md: MarkdownIt) -> None:
    """Read `\\(x\\)` and `\\[x\\]` as math (see the module docstring); needs dollarmath's render rules."""
    md.inline.ruler.before("escape", "bracket_math", _bracket_math)
