"""sitegen.markdown.lexing: Pygments' regex lexers, trying at each position only the rules that can match its
character, give the very tokens Pygments' own loop gives, for every regex lexer Pygments ships."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from pygments.lexer import ExtendedRegexLexer, RegexLexer
from pygments.lexers import LEXERS, get_lexer_by_name
from pygments.token import Keyword, Name, String, Text

from sitegen.markdown import lexing
from sitegen.markdown.highlight import highlight_code

ROOT = Path(__file__).resolve().parents[2]

MIXED = r'''#include <stdio.h>
int main(int argc, char **argv) { /* c */ printf("%d\n", R"x(raw "string")x"); return 0; }
<?php echo "hi $x"; ?> SELECT * FROM t WHERE a = 'b' AND c <> 2; -- sql
\begin{document} $x^2 + \frac{1}{2}$ \end{document} {"a": [1, 2.5e3, null, true], "b": "\u00e9"}
key: value # yaml
  - item: [1, 2]
<<EOF
heredoc $var ${x:-y} `cmd`
EOF
def f(x: int = 0x1F) -> str:  # Python
    return f"{x!r:>{width}} \N{BULLET}" + r'\d+' + b"\x00".decode()
<div class="a" id='b'>&amp; text <!-- comment --></div>
(defun f (x) (* x 2)) ; lisp
'''
"""Bits of many languages in one text, so each lexer goes through many of its states (and its errors)."""

SAMPLES = (
    MIXED,
    (ROOT / "sitegen" / "markdown" / "lexing.py").read_text(encoding="utf-8")[:6000],
    (ROOT / "themes" / "default" / "layouts" / "base.html").read_text(encoding="utf-8")[:3000],
)


def _regex_lexers() -> list[str]:
    """Every lexer class Pygments ships that runs RegexLexer's loop (ExtendedRegexLexer has its own)."""
    names = []
    for name, (module, *_rest) in sorted(LEXERS.items()):
        cls = getattr(__import__(module, fromlist=[name]), name)
        if issubclass(cls, RegexLexer) and not issubclass(cls, ExtendedRegexLexer):
            names.append(name)
    return names


REGEX_LEXERS = _regex_lexers()


@pytest.fixture
def stock_then_fast() -> Iterator[None]:
    """Leave the loop as the test found it."""
    before = RegexLexer.get_tokens_unprocessed
    yield
    RegexLexer.get_tokens_unprocessed = before  # type: ignore[method-assign]


def _tokens(lexer: object, text: str, fast: bool) -> object:
    lexing.install(fast)
    try:
        return list(lexer.get_tokens(text))  # type: ignore[attr-defined]
    except Exception as exc:  # a lexer that fails must fail the same way
        return ("raised", type(exc), str(exc))


@pytest.mark.parametrize("name", REGEX_LEXERS)
def test_every_regex_lexer_gives_pygments_tokens(name: str, stock_then_fast: None) -> None:
    cls = getattr(__import__(LEXERS[name][0], fromlist=[name]), name)
    try:
        lexer = cls()
    except Exception as exc:  # a lexer that needs options or a module Pygments does not ship
        pytest.skip(f"cannot be made with no options: {exc}")
    for text in SAMPLES:
        assert _tokens(lexer, text, True) == _tokens(lexer, text, False)


def test_only_the_rules_that_can_match_a_character_are_tried(stock_then_fast: None) -> None:
    """Not vacuous: for the characters of the example site's code languages, a small part of each state's rules is
    tried, and few rules are tried everywhere."""
    lexing.install()
    for lang in ("python", "cpp", "bash"):
        lexer = get_lexer_by_name(lang)
        list(lexer.get_tokens(MIXED))
        rules = anywhere = tried = everything = 0
        for state in lexer._tokens.values():
            plan = lexing._plan(state)
            rules += len(state)
            anywhere += sum(start is None for start in plan.starts)
            tried += sum(map(len, plan.values()))
            everything += len(plan) * len(state)
        assert tried * 5 < everything, (lang, tried, everything)
        assert anywhere * 20 < rules, (lang, anywhere, rules)


@pytest.mark.parametrize("lang", ["python", "cpp", "bash", "html", "wikitext", "latex", "sql", "yaml"])
def test_a_rule_matches_only_where_its_first_characters_say(lang: str) -> None:
    """Every rule of these lexers, at every position of the mixed text (upper case too), matches only where its
    one-character pattern takes the character there; and a rule that can match nothing is tried everywhere."""
    for text in (MIXED, MIXED.upper()):
        for state in get_lexer_by_name(lang)._tokens.values():
            for rule in state:
                start = lexing.starts(rule[0])
                if start is None:
                    continue
                assert rule[0](text, len(text)) is None, rule[0].__self__.pattern
                for pos in range(len(text)):
                    if rule[0](text, pos) is not None:
                        assert start(text[pos]), (rule[0].__self__.pattern, text[pos:pos + 20])


@pytest.mark.parametrize(("pattern", "flags", "takes", "leaves"), [
    (r"abc", 0, "a", "Ab"),
    (r"(?i)abc", 0, "aA", "b"),
    (r"k", re.IGNORECASE, "kK\u212a", "x"),  # the Kelvin sign folds to k
    (r"(?i:a)b|(?-i:c)", re.IGNORECASE, "aAc", "bC"),
    (r"a*b", 0, "ab", "c"),
    (r"(?:x|)y", 0, "xy", "z"),
    (r"(?=x)y|z", 0, "yz", "x"),
    (r"(?<=a)b", 0, "b", "a"),
    (r"[^\]]", 0, "a^", "]"),
    (r"[\d_-]+", 0, "7_-", "a"),
    (r"(\w)\1", 0, "a\u00e9", " "),
    (r"(?x) \# [ ] q  # a comment", 0, "#", "q "),
    (r"(?>a|b)c", 0, "ab", "c"),
    (r"a++|\s", 0, "a \n", "b"),
])
def test_first_characters_of_a_pattern(pattern: str, flags: int, takes: str, leaves: str) -> None:
    start = lexing.starts(re.compile(pattern, flags).match)
    assert start is not None
    assert all(start(char) for char in takes), pattern
    assert not any(start(char) for char in leaves), pattern


@pytest.mark.parametrize("pattern", [r"\s*", r".", r"(?s).x", r"(a)?\1", r"(?a)\W", r"(x)?(?(1)a|b)", r"\b", r"a|"])
def test_a_pattern_that_may_start_anywhere(pattern: str) -> None:
    """Empty matches, any character, backreferences first, ASCII classes and conditionals: tried everywhere."""
    assert lexing.starts(re.compile(pattern).match) is None


def test_highlighted_fences_are_unchanged(stock_then_fast: None) -> None:
    """The HTML of highlighted code, with and without the alternations."""
    code = (ROOT / "sitegen" / "markdown" / "lexing.py").read_text(encoding="utf-8")
    lexing.install(False)
    highlight_code.cache_clear()
    stock = [highlight_code(code, "python"), highlight_code(MIXED, "cpp {linenos=true hl_lines=[2]}")]
    lexing.install(True)
    highlight_code.cache_clear()
    fast = [highlight_code(code, "python"), highlight_code(MIXED, "cpp {linenos=true hl_lines=[2]}")]
    highlight_code.cache_clear()
    assert fast == stock
    assert stock[0].count('<span class="k">def</span>') >= 5


class _CommentedLexer(RegexLexer):
    """Verbose rules with comments, one holding a `[` (what a site's own lexer might have): read for their first
    characters as `re` reads them."""

    flags = re.VERBOSE
    tokens = {"root": [(r"(k) \d", Keyword), (r"""(['"]) # quote [ ' or "
                       .*? \1""", String), (r"(?#[)(\w)\w*?\1", Name), (r".", Text)]}


def test_verbose_rules_with_comments_give_pygments_tokens(stock_then_fast: None) -> None:
    lexer = _CommentedLexer()
    for text in ("'ab' k1", "abca", "x"):
        assert _tokens(lexer, text, True) == _tokens(lexer, text, False)
    assert (String, "'ab'") in _tokens(lexer, "'ab'", True)  # type: ignore[operator]
