"""GitHub alerts and Obsidian callouts: `> [!NOTE]` blockquotes rendered as GitHub renders them.

    > [!TIP] Optional title          <div class="markdown-alert markdown-alert-tip">
    > Text.                     ->     <p class="markdown-alert-title">Optional title</p><p>Text.</p></div>

GitHub's five types (`NOTE`, `TIP`, `IMPORTANT`, `WARNING`, `CAUTION`) and Obsidian's other types are read, in
any case; an Obsidian foldable callout (`[!NOTE]-` closed, `[!NOTE]+` open) becomes `<details>` with the title as
its `<summary>`. A blockquote whose marker names no known type stays a blockquote, as on GitHub.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

GITHUB_TYPES = ("note", "tip", "important", "warning", "caution")
OBSIDIAN_TYPES = ("abstract", "summary", "tldr", "info", "todo", "success", "check", "done", "question", "help",
                  "faq", "failure", "fail", "missing", "danger", "error", "bug", "example", "quote", "cite",
                  "hint", "attention")
"""Obsidian's callout types besides GitHub's (https://help.obsidian.md/callouts); themes style them by class."""
_KNOWN = frozenset((*GITHUB_TYPES, *OBSIDIAN_TYPES))
_MARKER = re.compile(r"^\[!([A-Za-z]+)\]([-+]?)[ \t]*(.*)$")


def _callouts(state: StateCore) -> None:
    """Turn each blockquote whose first line is a `[!TYPE]` marker into a callout (before inline parsing)."""
    tokens = state.tokens
    i = 0
    while i < len(tokens):
        opening = tokens[i]
        if (opening.type != "blockquote_open" or i + 3 >= len(tokens) or tokens[i + 1].type != "paragraph_open"
                or tokens[i + 2].type != "inline"):
            i += 1
            continue
        inline = tokens[i + 2]
        first, _, rest = inline.content.partition("\n")
        match = _MARKER.match(first.strip())
        if match is None or match[1].lower() not in _KNOWN:
            i += 1
            continue
        kind, fold, title = match[1].lower(), match[2], match[3].strip() or match[1].capitalize()
        closing = _closing(tokens, i)
        tag = "details" if fold else "div"
        opening.tag = closing.tag = tag
        opening.attrSet("class", f"markdown-alert markdown-alert-{kind}")
        if fold == "+":
            opening.attrSet("open", "")
        title_tag = "summary" if fold else "p"
        head_open = Token("paragraph_open", title_tag, 1, attrs={"class": "markdown-alert-title"}, map=inline.map,
                          level=inline.level - 1, block=True)
        head = Token("inline", "", 0, content=title, map=inline.map, level=inline.level, children=[], block=True)
        head_close = Token("paragraph_close", title_tag, -1, level=inline.level - 1, block=True)
        if rest.strip():
            inline.content = rest
            tokens[i + 1:i + 1] = [head_open, head, head_close]
        else:
            tokens[i + 1:i + 4] = [head_open, head, head_close]
        i += 1


def _closing(tokens: list[Token], start: int) -> Token:
    """The `blockquote_close` matching the opening at `start`."""
    depth = 0
    for token in tokens[start:]:
        if token.type == "blockquote_open":
            depth += 1
        elif token.type == "blockquote_close":
            depth -= 1
            if depth == 0:
                return token
    raise AssertionError("unbalanced blockquote tokens")  # markdown-it always closes what it opens


def callouts_plugin(md: MarkdownIt) -> None:
    """Render `> [!NOTE]` alerts and callouts (see the module docstring)."""
    md.core.ruler.before("inline", "callouts", _callouts)
