"""Text statistics: word counts where each CJK character is a word, reading time, and plain-text summaries."""

from __future__ import annotations

import html
import re
from collections import Counter

_TAGS = re.compile(r"<[^>]*>", re.S)
_BLOCK_TAGS = re.compile(
    r"</?(?:p|d(?:iv|[ltd])|[uo]l|li|h[1-6r]|pre|blockquote|t(?:able|[rdh])|section|br|fig(?:ure|caption))\b[^>]*>",
    re.I)
"""p div li ul ol dl dt dd h1-h6 pre blockquote table tr td th section br hr figure figcaption, by first letters: the
regex engine tries each alternative at every `<`, and most tags (a highlighted block's `<span>`s) fail them all."""
_CJK = re.compile(
    r"[\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    r"\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]")
_WORD = re.compile(r"[^\s\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
                   r"\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]+")
_PUNCT_ONLY = re.compile(r"^\W+$")

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
    cjk = len(_CJK.findall(text))
    words = _WORD.findall(text)
    return len(words) - len(list(filter(None, map(_PUNCT_ONLY.match, words)))), cjk


def minutes_to_read(words: int, cjk: int) -> int:
    """Minutes to read `words` latin words and `cjk` CJK characters (at least 1)."""
    minutes = words / WORDS_PER_MINUTE + cjk / CJK_CHARS_PER_MINUTE
    return max(1, round(minutes + 0.4999))


def plain_words(html_text: str) -> tuple[str, tuple[int, int]]:
    """The plain text of rendered HTML (whitespace collapsed) and its (latin words, CJK characters)."""
    text = " ".join(plain_text(html_text).split())
    return text, count_words(text)


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
    out = _LATIN_TERM.findall(lowered)
    for run in _CJK_RUN.findall(lowered):
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
    cost ~25 KB of memory a page; this costs its length). Each digit is taken from a table: half the time of
    formatting the count, for every term of every page."""
    return " ".join([term + (_WEIGHT_DIGITS[count] if count < 7 else "7")
                     for term, count in Counter(index_terms(text)).items()])


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
