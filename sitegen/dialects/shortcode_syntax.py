"""Reading Hugo shortcodes: a small tokenizer that finds `{{< name args >}}` and `{{% name args %}}` tags in a
page body (positions kept for file:line), and pairs them into a tree (`ShortcodeReader.tree`).

Linear on any input: each value is read by one regex or `find`, a broken tag's text is not read again, a
missing `*/` is looked for once, and nesting deeper than `MAX_NESTING` stands alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sitegen.errors import Diagnostic

_NAME = re.compile(r"[\w./-]+")
_QUOTED = re.compile(r'"((?:[^"\\]++|\\.)*+)"', re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)
_SPACE = re.compile(r"\s*")
_BARE = re.compile(r"[^\s\"`=]+?(?=\s|=|/?[>%]\}\}|$)")
MAX_NESTING = 64
"""Shortcodes nested deeper than this stand alone (no real page nests so deep; recursion stays bounded)."""
INLINE_SHORTCODES = frozenset({"ref", "relref", "param"})
"""Shortcodes that never take inner content: a later closing tag of another is not theirs."""


@dataclass
class Tag:
    """One `{{< ... >}}` or `{{% ... %}}` tag as written."""

    name: str
    start: int
    end: int
    line: int
    markdown: bool
    closing: bool = False
    self_closing: bool = False
    positional: list[str] = field(default_factory=list)
    named: dict[str, str] = field(default_factory=dict)


@dataclass
class Node:
    """A shortcode with its inner content (None when it is not paired)."""

    tag: Tag
    children: list[str | Node] | None
    end: int


class ShortcodeReader:
    """The tags of one page body, read and paired; warnings (`notes`) name the file and line."""

    def __init__(self, body: str, source: str, body_line: int) -> None:
        self.body, self.source, self.body_line = body, source, body_line
        self.notes: list[Diagnostic] = []
        self.warned: set[str] = set()
        self.reached = 0
        """How far the last broken tag was read."""
        self.no_comment_end = len(body) + 1
        """No `*/` follows this position (found once, not searched for again)."""
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(body) if ch == "\n"]

    def line_of(self, pos: int) -> int:
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return self.body_line + lo

    def warn(self, message: str, pos: int, hint: str | None = None, once: str | None = None) -> None:
        if once is not None:  # the first place is named; the same slip again in this page is not
            if once in self.warned:
                return
            self.warned.add(once)
        self.notes.append(Diagnostic(message, path=self.source, line=self.line_of(pos), hint=hint))

    def tokens(self) -> list[str | Tag]:
        """The body as text runs and tags, in order; escaped tags become their text."""
        body, pos, text_start = self.body, 0, 0
        items: list[str | Tag] = []
        while True:
            start = _next_open(body, pos)
            if start < 0:
                break
            markdown = body[start + 2] == "%"
            closer = "%}}" if markdown else ">}}"
            inner_start = _SPACE.match(body, start + 3).end()  # type: ignore[union-attr]
            if body.startswith("/*", inner_start):  # {{</* x */>}}: shown as written, without the comment marks
                end = body.find("*/", inner_start + 2) if inner_start < self.no_comment_end else -1
                if end < 0:
                    self.no_comment_end = min(self.no_comment_end, inner_start)
                after = _SPACE.match(body, end + 2).end() if end >= 0 else -1  # type: ignore[union-attr]
                if end >= 0 and body.startswith(closer, after):
                    items.append(body[text_start:start])
                    items.append(body[start:start + 3] + body[inner_start + 2:end] + closer)
                    pos = text_start = after + 3
                    continue
            tag = self.read_tag(start, markdown)
            if tag is None:  # what a broken tag swallowed is text too (tags inside it would only fail again)
                pos = max(start + 3, self.reached)
                continue
            items.append(body[text_start:start])
            items.append(tag)
            pos = text_start = tag.end
        items.append(body[text_start:])
        return [i for i in items if i != ""]

    def read_tag(self, start: int, markdown: bool) -> Tag | None:
        body = self.body
        closer = "%}}" if markdown else ">}}"
        pos = _SPACE.match(body, start + 3).end()  # type: ignore[union-attr]
        closing = body.startswith("/", pos)
        if closing:
            pos = _SPACE.match(body, pos + 1).end()  # type: ignore[union-attr]
        name = _NAME.match(body, pos)
        if name is None:
            self.warn("a shortcode tag without a name is shown as text", start, once="\x00nameless",
                      hint="write `{{< name args >}}`, or escape it as `{{</* ... */>}}`")
            return None
        tag = Tag(name=name.group().rstrip("/"), start=start, end=start, line=self.line_of(start), markdown=markdown,
                   closing=closing)
        pos = name.end() - (1 if name.group().endswith("/") else 0)
        while True:
            pos = _SPACE.match(body, pos).end()  # type: ignore[union-attr]
            if body.startswith(closer, pos):
                tag.end = pos + 3
                return tag
            if body.startswith("/" + closer, pos):
                tag.self_closing, tag.end = True, pos + 4
                return tag
            value, pos = self.read_value(pos)
            if value is None:
                self.reached = pos
                self.warn(f"shortcode `{tag.name}` is not closed with `{closer}`: shown as text", start,
                          hint=f"end the tag with `{closer}`", once=f"\x00open {tag.name}")
                return None
            if body.startswith("=", pos):
                named, pos = self.read_value(pos + 1)
                if named is None:
                    self.reached = pos
                    self.warn(f"shortcode `{tag.name}`: argument `{value}=` has no value", start,
                              once=f"\x00value {tag.name}")
                    return None
                tag.named[value] = named
            else:
                tag.positional.append(value)

    def read_value(self, pos: int) -> tuple[str | None, int]:
        """A quoted, raw (backtick) or bare value at pos and the position after it; (None, where reading
        stopped) when there is none. Each value is read by one regex or find, so a page stays linear."""
        body = self.body
        if body.startswith('"', pos):
            quoted = _QUOTED.match(body, pos)
            if quoted is None:
                return None, len(body)
            return _ESCAPE.sub(r"\1", quoted.group(1)), quoted.end()
        if body.startswith("`", pos):
            end = body.find("`", pos + 1)
            return (body[pos + 1:end], end + 1) if end >= 0 else (None, len(body))
        bare = _BARE.match(body, pos)
        if bare is None or not bare.group() or bare.group().startswith(("{{<", "{{%")):
            return None, pos  # the next tag's opening: this one was never closed (it must not swallow that tag)
        return bare.group(), bare.end()

    def tree(self) -> list[str | Node]:
        """Pair each closing tag with the nearest open tag of its name; unpaired tags stand alone."""
        root: list[str | Node] = []
        stack: list[tuple[Tag, list[str | Node]]] = []

        def current() -> list[str | Node]:
            return stack[-1][1] if stack else root

        def unwind(frame: tuple[Tag, list[str | Node]]) -> None:
            current().append(Node(frame[0], None, frame[0].end))
            current().extend(frame[1])

        for item in self.tokens():
            if isinstance(item, str):
                current().append(item)
            elif item.closing:
                at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][0].name == item.name), None)
                if at is None:
                    self.warn(f"closing shortcode `{{{{< /{item.name} >}}}}` has no opening tag: dropped", item.start,
                              once=f"\x00close {item.name}")
                    continue
                while len(stack) > at + 1:
                    unwind(stack.pop())
                tag, children = stack.pop()
                current().append(Node(tag, children, item.end))
            elif item.self_closing or item.name in INLINE_SHORTCODES or len(stack) >= MAX_NESTING:
                current().append(Node(item, None, item.end))
            else:
                stack.append((item, []))
        while stack:
            unwind(stack.pop())
        return root

    # -- writing ----------------------------------------------------------------------------------------------


def _next_open(body: str, pos: int) -> int:
    """The next `{{<` or `{{%` at or after pos, or -1."""
    while True:
        at = body.find("{{", pos)
        if at < 0 or at + 2 >= len(body):
            return -1
        if body[at + 2] in "<%":
            return at
        pos = at + 1
