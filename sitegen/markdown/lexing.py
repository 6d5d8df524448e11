"""Pygments' regex lexers, faster: each state's rules tried in one compiled alternation instead of one by one.

Pygments' `RegexLexer` tries a state's rules in order at each position, one `re.match` call per rule, and takes
the first that matches; a typical code token is found only after ten or twenty calls. Python's `re` takes the
first alternative that matches too, so the alternation `(?:rule1)()|(?:rule2)()|…` of a state's rules finds the
same rule, and the same match, in one call; the empty group at each alternative's end tells which rule matched
(`lastindex`). Each rule keeps its own flags (as a scoped group) and its backreferences are renumbered. A rule that
cannot take part (a named group, a conditional, a pattern compiled otherwise, a backreference in a pattern with
comments, whose text this module does not read apart) is tried on its own, in its place, and the rules after it
start a new alternation, as does a rule whose backreference would pass group 99. A rule with a callback
(`bygroups`, `using`) is matched once more on its own, so the callback sees the match object Pygments would give
it. The tokens are Pygments' own, the same ones in the same order: `tests/unit/test_lexing.py` compares every regex
lexer Pygments ships with its stock loop. A rule that backtracks a lot can be slower inside a long alternation
(Python's `re` saves every earlier group's marks as it backtracks): a crafted Chapel string took 2.4 s with
Pygments' loop and 6.0 s here.

`install()` puts this loop in place of `RegexLexer.get_tokens_unprocessed` (the method every regex lexer runs,
including those that post-process its tokens, such as the C family's); highlighting calls it before its first
lexer. It highlights the benchmark corpus's code fences 1.6x as fast (`bench/highlight.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pygments.lexer import RegexLexer
from pygments.token import Error, Whitespace, _TokenType

__all__ = ["fast_tokens", "install", "STOCK"]

STOCK: Callable[..., Iterator[tuple[int, Any, str]]] = RegexLexer.get_tokens_unprocessed
"""Pygments' own loop, kept for the comparison test and for `install(False)`."""

_SCOPED = {re.IGNORECASE: "i", re.MULTILINE: "m", re.DOTALL: "s", re.VERBOSE: "x"}
_LEADING_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")
_UNMOVABLE = re.compile(r"\(\?P[=<]|\(\?\(")
"""Named groups and their references, and conditionals: such a rule is tried on its own."""
_BACKREFERENCE = re.compile(r"\\[1-9]")

Rule = tuple[Callable[..., Any], Any, Any]
Step = tuple[Callable[[str, int], "re.Match[str] | None"], "dict[int, int] | None", int]
"""(match function, {lastindex: rule index} for an alternation or None, the rule's index when on its own)."""


def _renumbered(src: str, offset: int) -> str | None:
    """`src` with each backreference `\\N` (one digit, outside a character class) moved up by `offset` groups;
    None when one cannot be moved (two digits, or past group 99, where `re` would read an octal escape)."""
    out: list[str] = []
    start = i = 0
    in_class = False
    while i < len(src):
        char = src[i]
        if char == "\\":
            nxt = src[i + 1:i + 2]
            if not in_class and nxt in "123456789" and nxt:
                number = int(nxt) + offset
                if src[i + 2:i + 3].isdigit() or number > 99:
                    return None
                out += [src[start:i], f"(?:\\{number})"]
                start = i = i + 2
                continue
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            i += 1 + (src[i + 1:i + 2] == "^")
            i += src[i:i + 1] == "]"  # a `]` first in a class is a character
            continue
        i += 1
    out.append(src[start:])
    return "".join(out)


def _parts(rexmatch: Callable[..., Any]) -> tuple[str, str, str, int] | None:
    """(flags on, flags off, pattern without its leading global flags, groups) of a rule that can join an
    alternation, else None."""
    pattern = getattr(rexmatch, "__self__", None)
    if (not isinstance(pattern, re.Pattern) or getattr(rexmatch, "__name__", "") != "match"
            or not isinstance(pattern.pattern, str) or pattern.flags & (re.ASCII | re.LOCALE | re.DEBUG)
            or _UNMOVABLE.search(pattern.pattern)):
        return None
    if _BACKREFERENCE.search(pattern.pattern) and ("(?#" in pattern.pattern
                                                    or (pattern.flags & re.VERBOSE and "#" in pattern.pattern)):
        return None  # a `[` in a comment would mislead `_renumbered`
    src = pattern.pattern
    while (lead := _LEADING_FLAGS.match(src)) is not None:
        src = src[lead.end():]
    on = "".join(letter for flag, letter in _SCOPED.items() if pattern.flags & flag)
    off = "".join(letter for flag, letter in _SCOPED.items() if not pattern.flags & flag)
    return on, off, src, pattern.groups


def _alternation(rules: Sequence[Rule], members: list[tuple[int, tuple[str, str, str, int]]]) -> list[Step]:
    """Steps matching `members` (rule index, parts) as alternations: one, or a new one from each rule whose
    backreferences cannot move, or one step each if they cannot be compiled."""
    alone: list[Step] = [(rules[i][0], None, i) for i, _ in members]
    if len(members) < 2:
        return alone
    sources: list[str] = []
    table: dict[int, int] = {}
    groups = 0
    for k, (i, (on, off, src, count)) in enumerate(members):
        moved = _renumbered(src, groups) if groups else src
        if moved is None:  # at group 0 it needs no move: a new alternation starts with it
            return _alternation(rules, members[:k]) + _alternation(rules, members[k:])
        # A verbose pattern may end in a comment: the newline ends it before the group closes.
        scope = f"{on}-{off}" if off else on  # `(?imsx-:` would be an error: a dash needs a flag after it
        sources.append(f"(?{scope}:{moved}\n)()" if "x" in on else f"(?{scope}:{moved})()")
        groups += count + 1
        table[groups] = i
    try:
        compiled = re.compile("|".join(sources))
    except (re.error, RecursionError, OverflowError, ValueError):
        return alone
    if compiled.groups != groups:
        return alone
    return [(compiled.match, table, -1)]


def _steps(rules: Sequence[Rule]) -> list[Step]:
    """A state's rules as steps tried in order: runs of rules that can be joined, one alternation each."""
    steps: list[Step] = []
    run: list[tuple[int, tuple[str, str, str, int]]] = []
    for i, rule in enumerate(rules):
        parts = _parts(rule[0])
        if parts is not None:
            run.append((i, parts))
            continue
        steps += _alternation(rules, run)
        run = []
        steps.append((rule[0], None, i))
    return steps + _alternation(rules, run)


_PLANS: dict[int, tuple[Sequence[Rule], list[Step]]] = {}
"""id(a state's rule list) -> (that list, kept alive so the id stays its own; its steps)."""


def _plan(rules: Sequence[Rule]) -> list[Step]:
    known = _PLANS.get(id(rules))
    if known is None or known[0] is not rules:
        known = _PLANS[id(rules)] = (rules, _steps(rules))
    return known[1]


def fast_tokens(self: RegexLexer, text: str, stack: Sequence[str] = ("root",)) -> Iterator[tuple[int, Any, str]]:
    """`RegexLexer.get_tokens_unprocessed`, with each state's rules tried as alternations (see the module)."""
    pos = 0
    tokendefs = self._tokens
    statestack = list(stack)
    statetokens = tokendefs[statestack[-1]]
    steps = _plan(statetokens)
    while 1:
        for match, table, i in steps:
            m = match(text, pos)
            if m:
                if table is not None:
                    i = table[m.lastindex]  # type: ignore[index]
                rexmatch, action, new_state = statetokens[i]
                if action is not None:
                    if type(action) is _TokenType:
                        yield pos, action, m.group()
                    else:
                        if table is not None:
                            m = rexmatch(text, pos)
                        yield from action(self, m)
                pos = m.end()
                if new_state is not None:
                    # state transition (as Pygments')
                    if isinstance(new_state, tuple):
                        for state in new_state:
                            if state == "#pop":
                                if len(statestack) > 1:
                                    statestack.pop()
                            elif state == "#push":
                                statestack.append(statestack[-1])
                            else:
                                statestack.append(state)
                    elif isinstance(new_state, int):
                        # pop, but keep at least one state on the stack
                        if abs(new_state) >= len(statestack):
                            del statestack[1:]
                        else:
                            del statestack[new_state:]
                    elif new_state == "#push":
                        statestack.append(statestack[-1])
                    else:
                        raise AssertionError(f"wrong state def: {new_state!r}")
                    statetokens = tokendefs[statestack[-1]]
                    steps = _plan(statetokens)
                break
        else:
            # no rule matched: at a line's end, back to "root"; else one character is an error
            try:
                if text[pos] == "\n":
                    statestack = ["root"]
                    statetokens = tokendefs["root"]
                    steps = _plan(statetokens)
                    yield pos, Whitespace, "\n"
                    pos += 1
                    continue
                yield pos, Error, text[pos]
                pos += 1
            except IndexError:
                break


def install(on: bool = True) -> None:
    """Make every regex lexer use `fast_tokens` (or, `on=False`, Pygments' own loop again)."""
    RegexLexer.get_tokens_unprocessed = fast_tokens if on else STOCK  # type: ignore[method-assign]
