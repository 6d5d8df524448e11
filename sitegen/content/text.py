"""Text statistics: word counts where each CJK character is a word, reading time, and plain-text summaries."""

from __future__ import annotations

import html
import re
from collections import Counter

_TAGS = re.compile(r"<[^>]*>", re.S)


def _any_case(name: str) -> str:
    """Letters of a tag name, or of a class of them, matched in any case without `re.IGNORECASE` (a quarter fewer
    instructions for the scan of a page): each letter with its other case and the other characters the flag matches
    to it (`İ`, `ı`, `ſ`, `K`)."""
    folds = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}
    return "".join(f"{char}{char.upper()}{folds.get(char, '')}" if char.isalpha() else char for char in name)


_BLOCK_NAMES = r"p|d(?:iv|[ltd])|[uo]l|li|h[1-6r]|pre|blockquote|t(?:able|[rdh])|section|br|fig(?:ure|caption)"
"""p div li ul ol dl dt dd h1-h6 pre blockquote table tr td th section br hr figure figcaption, by first letters: the
regex engine tries each alternative at every `<`, and most tags (a highlighted block's `<span>`s) fail them all."""
_BLOCK_TAGS = re.compile(
    r"</?(?:" + re.sub(r"\[([^]]*)\]|([a-z])", lambda m: f"[{_any_case(m[1] or m[2])}]", _BLOCK_NAMES) + r")\b[^>]*>")
"""`</?(?:{_BLOCK_NAMES})\b[^>]*>` matched in any case, as `re.IGNORECASE` matches it (a test compares the two)."""
_CJK = re.compile(
    r"[\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    r"\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]")
_SEPARATING = (r"\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
               r"\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f")
"""Characters that end a latin word as whitespace does: CJK characters and punctuation, and full-width forms."""
_COUNTED_WORD = re.compile(rf"(?<![^\s{_SEPARATING}])[^\s{_SEPARATING}\w]*+[^\W{_SEPARATING}][^\s{_SEPARATING}]*+")
"""A latin word: a run of characters that are neither whitespace nor `_SEPARATING`, holding a letter, digit or `_`
(a run of punctuation only is not a word). Found only from a run's start (the look-behind), so a long run of
punctuation is read once, not once from each of its characters."""

WORDS_PER_MINUTE = 220
CJK_CHARS_PER_MINUTE = 400


def plain_text(fragment: str) -> str:
    """Strip tags (block tags become spaces, inline tags vanish) and unescape entities."""
    # Only up to the last `>`: a `<` with no `>` after it never starts a tag, and letting the patterns try
    # would rescan to the end from every such `<` (quadratic on `<<<<…`).
    end = fragment.rfind(">") + 1
    tags, rest = fragment[:end], fragment[end:]
    return html.unescape(_TAGS.sub("", _BLOCK_TAGS.sub(" ", tags)) + rest)


def count_words(text: str) -> tuple[int, int]:
    """(latin words, CJK characters) in plain text; punctuation-only tokens are not words."""
    return len(_COUNTED_WORD.findall(text)), len(_CJK.findall(text))


def minutes_to_read(words: int, cjk: int) -> int:
    """Minutes to read `words` latin words and `cjk` CJK characters (at least 1)."""
    minutes = words / WORDS_PER_MINUTE + cjk / CJK_CHARS_PER_MINUTE
    return max(1, round(minutes + 0.4999))


def plain_words(html_text: str) -> tuple[str, tuple[int, int]]:
    """The plain text of rendered HTML (whitespace collapsed) and its (latin words, CJK characters)."""
    text = " ".join(plain_text(html_text).split())
    return text, count_words(text)


def text_stats(html_text: str, terms: bool = True, plain: str | None = None
               ) -> tuple[str, tuple[int, int], str | None]:
    """`plain_words` of rendered HTML and, with `terms`, the `packed_term_weights` of its `search_text`: the CJK runs
    found once for the count and the terms where the text holds no math (its search text is then itself; lowercasing
    changes no CJK character and makes none, so the lowercased text's runs are the same). `plain`: the HTML's text as
    `plain_words` gives it, known already (`Rendered.plain`)."""
    text = " ".join(plain_text(html_text).split()) if plain is None else plain
    runs = _CJK_RUN.findall(text)
    words = (len(_COUNTED_WORD.findall(text)), sum(map(len, runs)))
    if not terms:
        return text, words, None
    searched = search_text(text, collapsed=True)
    return text, words, _packed(_terms(text.lower(), runs) if searched is text else index_terms(searched))


def truncate_words(text: str, limit: int) -> str:
    """The first `limit` words of plain text (each CJK character a word), ending with `…` when cut."""
    count = 0
    out: list[str] = []
    for token in re.findall(r"\s+|" + _CJK.pattern + r"|[^\s\u4e00-\u9fff]+", text):
        if token.isspace():
            out.append(" ")
            continue
        count += 1
        if count > limit:
            return "".join(out).strip() + "…"
        out.append(token)
    return "".join(out).strip()


_CJK_RUN = re.compile(_CJK.pattern[:-1] + "]+")
_LATIN_TERM = re.compile(r"[^\W_" + _CJK.pattern[1:-1] + r"]{1,40}")
_MATH = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.S)


def search_text(text: str, *, collapsed: bool = False) -> str:
    """Plain text as the search index keeps it: whitespace collapsed, math source (`\\(...\\)`, `\\[...\\]`)
    left out. `collapsed`: the text's whitespace is collapsed already (`plain_words`' text), so a text without
    math is returned as it is."""
    if "\\(" in text or "\\[" in text:  # (most pages have no math: no need for the pattern's scan)
        text = _MATH.sub(" ", text)
    elif collapsed:
        return text
    return " ".join(text.split())


def index_terms(text: str) -> list[str]:
    """The search index's terms of a text, with repeats: lowercased words (cut at 40 characters), then CJK
    character pairs (a lone CJK character is its own term)."""
    lowered = text.lower()
    return _terms(lowered, _CJK_RUN.findall(lowered))


def _terms(lowered: str, runs: list[str]) -> list[str]:
    """`index_terms` of a lowercased text whose CJK runs are `runs`."""
    out = _LATIN_TERM.findall(lowered)
    for run in runs:
        out += [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
    return out


def term_weights(text: str) -> dict[str, int]:
    """Each search term of a text and how often it occurs (at most 7)."""
    return {term: min(count, 7) for term, count in Counter(index_terms(text)).items()}


def is_cjk(char: str) -> bool:
    """Whether a character is Chinese, Japanese or Korean (one search term per pair of them)."""
    return _CJK.match(char) is not None


def packed_term_weights(text: str) -> str:
    """`term_weights` as one string, `term` + weight digit, space-separated (a page's many small strings would
    cost ~25 KB of memory a page; this costs its length)."""
    return _packed(index_terms(text))


def _packed(terms: list[str]) -> str:
    """The packed weights of these terms (each digit taken from a table: half the time of formatting the count, for
    every term of every page)."""
    return " ".join([term + (_WEIGHT_DIGITS[count] if count < 7 else "7") for term, count in Counter(terms).items()])


_WEIGHT_DIGITS = ("0", "1", "2", "3", "4", "5", "6")


def unpack_term_weights(packed: str) -> dict[str, int]:
    """The weights `packed_term_weights` packed (built with zip and a digit table: twice as fast as a loop
    calling int(), and run on every page of a build)."""
    if not packed:
        return {}
    items = packed.split(" ")
    return dict(zip([item[:-1] for item in items], map(_DIGITS.__getitem__, [item[-1] for item in items]),
                    strict=True))


_DIGITS = {str(digit): digit for digit in range(10)}
