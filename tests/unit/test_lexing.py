"""sitegen.markdown.lexing: Pygments' regex lexers with each state's rules joined into alternations give the very
tokens Pygments' own loop gives, for every regex lexer Pygments ships."""

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


def test_states_are_joined_into_alternations(stock_then_fast: None) -> None:
    """Not vacuous: the lexers of the example site's code are tried in far fewer steps than rules, the C++ raw
    string's backreference included."""
    lexing.install()
    for lang in ("python", "cpp"):
        lexer = get_lexer_by_name(lang)
        list(lexer.get_tokens(MIXED))
        rules = steps = 0
        for state in lexer._tokens.values():
            rules += len(state)
            steps += len(lexing._plan(state))
        assert steps * 4 < rules, (lang, steps, rules)
    raw = next(rule for rule in get_lexer_by_name("cpp")._tokens["statements"]
               if "\\3" in rule[0].__self__.pattern)
    assert raw[0].__self__.pattern.count("\\3") == 1
    plan = lexing._plan(get_lexer_by_name("cpp")._tokens["statements"])
    assert all(step[1] is not None for step in plan), "the raw string's rule is inside an alternation"


def test_backreferences_move_with_their_groups() -> None:
    assert lexing._renumbered(r"(a)(b)\2", 3) == r"(a)(b)(?:\5)"
    assert lexing._renumbered(r"[\1](x)\1", 1) == r"[\1](x)(?:\2)"  # in a class, \1 is a character
    assert lexing._renumbered(r"[]\1](x)\1", 1) == r"[]\1](x)(?:\2)"
    assert lexing._renumbered(r"\\1", 4) == r"\\1"  # an escaped backslash, then a digit
    assert lexing._renumbered(r"(x)\12", 1) is None  # two digits: left on its own
    assert lexing._renumbered(r"(x)\1", 99) is None  # past 99 `re` would read an octal escape


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


def test_a_rule_with_every_scoped_flag_still_joins(stock_then_fast: None) -> None:
    """A rule compiled with IGNORECASE, MULTILINE, DOTALL and VERBOSE at once joins an alternation too (a scoped
    group then has no flag to turn off)."""
    every = re.compile(r"(?imsx) a . b  # a comment", re.M).match
    rules = [(every, "one", None), (re.compile("c").match, "two", None)]
    plan = lexing._plan(rules)
    assert len(plan) == 1 and plan[0][1] is not None
    match = plan[0][0]("A\nB", 0)
    assert match is not None and match.group() == "A\nB"


class _CommentedLexer(RegexLexer):
    """Rules whose comments hold a `[`, before a backreference (what a site's own lexer might have)."""

    flags = re.VERBOSE
    tokens = {"root": [(r"(k) \d", Keyword), (r"""(['"]) # quote [ ' or "
                       .*? \1""", String), (r"(?#[)(\w)\w*?\1", Name), (r".", Text)]}


def test_backreferences_after_a_comment_keep_their_group(stock_then_fast: None) -> None:
    lexer = _CommentedLexer()
    for text in ("'ab' k1", "abca", "x"):
        assert _tokens(lexer, text, True) == _tokens(lexer, text, False)
    assert (String, "'ab'") in _tokens(lexer, "'ab'", True)  # type: ignore[operator]


def test_a_backreference_past_group_99_starts_a_new_alternation(stock_then_fast: None) -> None:
    """Wikitext's root state has one (`</\\2` after 150 groups): its rules are still joined, not all alone."""
    plan = lexing._plan(get_lexer_by_name("wikitext")._tokens["root"])
    rules = len(get_lexer_by_name("wikitext")._tokens["root"])
    assert len(plan) * 4 < rules, (len(plan), rules)
    assert sum(step[1] is not None for step in plan) >= 2
