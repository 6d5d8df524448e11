"""Pygments' regex lexers, faster: at each position only the rules that can match its character are tried.

Pygments' `RegexLexer` tries a state's rules in order at each position, one `re.match` call per rule, and takes
the first that matches; a typical code token is found only after ten or twenty calls, most of which fail on the
first character. Here each rule's pattern is read once (with `re`'s own parser) for the characters a match of it
can start with: a literal, a character class, the first of a sequence whose earlier parts may match nothing, any
alternative's. A rule that may match the empty string, starts with any character (`.`), a backreference or a
conditional, or is anything this reading does not follow, can start anywhere. The characters become a
one-character pattern with the rule's own case flag, so `re` decides what they match as it does in the rule;
anchors and lookarounds take no character and are passed over, which only lets more characters in.

A state's rules are then kept, for each character met at a position (and for the end of the text), as the list
of those that can match there, in their order: the loop tries that list exactly as Pygments tries the whole
state, so it takes the same rule, and gives the same tokens, in the same order. `tests/unit/test_lexing.py`
compares every regex lexer Pygments ships with its stock loop. A rule is never tried more often than Pygments
tries it, so no text takes longer than with Pygments' loop, but for one dictionary lookup a token.

`install()` puts this loop in place of `RegexLexer.get_tokens_unprocessed` (the method every regex lexer runs,
including those that post-process its tokens, such as the C family's); highlighting calls it before its first
lexer. `bench/highlight.py` times the benchmark corpus's code fences with both loops.
"""

from __future__ import annotations

import functools
import re
import re._constants as _c  # the parsed form of a pattern: read, never changed
import re._parser as _parser
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pygments.lexer import RegexLexer
from pygments.token import Error, Whitespace, _TokenType

__all__ = ["fast_tokens", "install", "STOCK"]

STOCK: Callable[..., Iterator[tuple[int, Any, str]]] = RegexLexer.get_tokens_unprocessed
"""Pygments' own loop, kept for the comparison test and for `install(False)`."""

Rule = tuple[Callable[..., Any], Any, Any]
"""A state's rule as Pygments keeps it: (match function, action, new state)."""

_ZERO_WIDTH = frozenset({_c.AT, _c.ASSERT, _c.ASSERT_NOT})
_REPEATS = frozenset({_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT})
_CATEGORIES = {_c.CATEGORY_DIGIT: r"\d", _c.CATEGORY_NOT_DIGIT: r"\D", _c.CATEGORY_SPACE: r"\s",
               _c.CATEGORY_NOT_SPACE: r"\S", _c.CATEGORY_WORD: r"\w", _c.CATEGORY_NOT_WORD: r"\W"}


class _Anywhere(Exception):
    """Raised while reading a rule whose first character is not worked out: the rule is tried everywhere."""


def _char(code: int) -> str:
    return f"\\U{code:08x}"  # as itself in any pattern and in a class (`]`, `^`, `-` and `\` included)


def _class(items: list[tuple[Any, Any]]) -> str:
    """A parsed character class as pattern text."""
    negate, parts = "", []
    for op, av in items:
        if op is _c.NEGATE:
            negate = "^"
        elif op is _c.LITERAL:
            parts.append(_char(av))
        elif op is _c.RANGE:
            parts.append(f"{_char(av[0])}-{_char(av[1])}")
        elif op is _c.CATEGORY and av in _CATEGORIES:
            parts.append(_CATEGORIES[av])
        else:
            raise _Anywhere
    return f"[{negate}{''.join(parts)}]"


def _first(items: Any, flags: int) -> tuple[list[str], bool]:
    """(one-character patterns, one of which matches the first character of any match of the parsed `items`;
    whether `items` can match the empty string). Raises _Anywhere where that is not worked out."""
    if flags & (re.ASCII | re.LOCALE):
        raise _Anywhere  # `\W` and the like would stand for other characters in the one-character pattern
    out: list[str] = []
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        if op is _c.LITERAL or op is _c.NOT_LITERAL or op is _c.IN:
            one = _class(av) if op is _c.IN else f"[{'^' if op is _c.NOT_LITERAL else ''}{_char(av)}]"
            out.append(f"(?i:{one})" if flags & re.IGNORECASE else one)
            return out, False
        if op is _c.SUBPATTERN:
            inner, empty = _first(av[3], (flags | av[1]) & ~av[2])
        elif op is _c.ATOMIC_GROUP:
            inner, empty = _first(av, flags)
        elif op in _REPEATS:
            inner, empty = _first(av[2], flags)
            empty = empty or av[0] == 0
        elif op is _c.BRANCH:
            inner, empty = [], False
            for alternative in av[1]:
                more, can_be_empty = _first(alternative, flags)
                inner += more
                empty = empty or can_be_empty
        else:  # any character, a backreference, a conditional, or what a later Python adds
            raise _Anywhere
        out += inner
        if not empty:
            return out, False
    return out, True


def starts(rexmatch: Callable[..., Any]) -> Callable[[str], object] | None:
    """For a rule's match function, the match function of a one-character pattern that matches every character
    a match of the rule can start with; None for a rule that may match anywhere (at the end of the text too)."""
    pattern = getattr(rexmatch, "__self__", None)
    if (not isinstance(pattern, re.Pattern) or getattr(rexmatch, "__name__", "") != "match"
            or not isinstance(pattern.pattern, str)):
        return None
    return _first_characters(pattern.pattern, pattern.flags)


@functools.cache
def _first_characters(source: str, flags: int) -> Callable[[str], object] | None:
    """`starts` of a pattern's source and flags, read once per process: a lexer's states share many rules
    (Python's 435 have 83 patterns), and reading a pattern is most of the time it takes to make the dispatches."""
    try:
        parsed = _parser.parse(source, flags)
        ones, empty = _first(parsed.data, parsed.state.flags)
        return None if empty or not ones else re.compile("|".join(ones)).match
    except (_Anywhere, re.error, RecursionError, OverflowError, ValueError, TypeError, AttributeError, IndexError):
        return None


class _Dispatch(dict[str, tuple[Rule, ...]]):
    """A state's rules that can match at a position, in their order, by the character there ("" at the end of
    the text); worked out for each character the first time it is met."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        super().__init__()
        self.rules = rules
        self.starts = [starts(rule[0]) for rule in rules]

    def __missing__(self, char: str) -> tuple[Rule, ...]:
        chosen = self[char] = tuple(rule for rule, start in zip(self.rules, self.starts, strict=True)
                                    if start is None or (char and start(char)))
        return chosen


_PLANS: dict[int, tuple[Sequence[Rule], _Dispatch]] = {}
"""id(a state's rule list) -> (that list, kept alive so the id stays its own; its dispatch)."""


def _plan(rules: Sequence[Rule]) -> _Dispatch:
    known = _PLANS.get(id(rules))
    if known is None or known[0] is not rules:
        known = _PLANS[id(rules)] = (rules, _Dispatch(rules))
    return known[1]


def fast_tokens(self: RegexLexer, text: str, stack: Sequence[str] = ("root",)) -> Iterator[tuple[int, Any, str]]:
    """`RegexLexer.get_tokens_unprocessed`, trying only the rules that can match at each position (see the
    module)."""
    pos = 0
    tokendefs = self._tokens
    statestack = list(stack)
    plan = _plan(tokendefs[statestack[-1]])
    while 1:
        for rexmatch, action, new_state in plan[text[pos:pos + 1]]:
            m = rexmatch(text, pos)
            if m:
                if action is not None:
                    if type(action) is _TokenType:
                        yield pos, action, m.group()
                    else:
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
                    plan = _plan(tokendefs[statestack[-1]])
                break
        else:
            # no rule matched: at a line's end, back to "root"; else one character is an error
            try:
                if text[pos] == "\n":
                    statestack = ["root"]
                    plan = _plan(tokendefs["root"])
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
