"""Build-time syntax highlighting of fenced code with Pygments (CSS classes, styles shipped by the theme)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pygments is imported on the first code block, not by every build that has none to render
    from pygments.formatters import HtmlFormatter
    from pygments.lexer import Lexer

_KEY = re.compile(r"(?<!\w)(\w++)\s*+=\s*+")
_BARE = re.compile(r"[^\s,]++")
_CLOSERS = {"[": "]", '"': '"', "'": "'"}


@lru_cache(maxsize=256)
def _lexer(lang: str) -> Lexer | None:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    from sitegen.markdown import lexing  # lazy: it imports Pygments, which builds without code need not load

    lexing.install()  # only the rules that can match the next character are tried: the same tokens

    try:
        return get_lexer_by_name(lang, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return None


def preload(languages: Iterable[str]) -> None:
    """Import Pygments and the lexers of these languages now (the dev server, after a build rendered in worker
    processes: the first saved page with code would wait ~0.1 s for the imports)."""
    from pygments import highlight  # noqa: F401 - imported for the import's sake

    _formatter(False, (), 1)
    for lang in languages:
        _lexer(lang.lower())


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    """Split a fence info string: ```` python {linenos=true hl_lines=[2,3]} ```` -> ("python", {...})."""
    info = info.strip()
    options: dict[str, str] = {}
    start = info.find("{")
    if start >= 0 and info.endswith("}"):
        options = {k: v.strip("\"'") for k, v in _pairs(info[start + 1:-1])}
        info = info[:start].strip()
    lang = info.split()[0] if info else ""
    return lang, options


def _pairs(text: str) -> list[tuple[str, str]]:
    """`key=value` pairs; a value is `[...]`, `"..."`, `'...'` or runs to the next space or comma.

    Parsed by position so that crafted input stays linear: a closer found missing once is not looked for
    again (a regex alternation would rescan to the end from every unclosed `[` or quote).
    """
    pairs: list[tuple[str, str]] = []
    missing: dict[str, int] = {}  # closer -> a position after which it does not occur
    pos = 0
    while (key := _KEY.search(text, pos)) is not None:
        at, pos = key.end(), key.end()
        opener = text[at:at + 1]
        if opener in _CLOSERS:
            closer = _CLOSERS[opener]
            end = -1 if missing.get(closer, len(text)) <= at else text.find(closer, at + 1)
            if end >= 0:
                pairs.append((key.group(1), text[at:end + 1]))
                pos = end + 1
                continue
            missing[closer] = at
        bare = _BARE.match(text, at)
        if bare:
            pairs.append((key.group(1), bare.group()))
            pos = bare.end()
    return pairs


def _hl_lines(spec: str) -> list[int]:
    lines: list[int] = []
    for part in re.findall(r"\d+(?:-\d+)?", spec):
        if "-" in part:
            lo, hi = (int(x) for x in part.split("-"))
            lines.extend(range(lo, min(hi, lo + 10_000) + 1))
        else:
            lines.append(int(part))
    return lines


@lru_cache(maxsize=64)
def _formatter(linenos: bool, hl_lines: tuple[int, ...], start: int) -> HtmlFormatter:
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(nowrap=False, wrapcode=True, cssclass="highlight",
                         linenos="inline" if linenos else False, hl_lines=list(hl_lines), linenostart=start)


@lru_cache(maxsize=4096)
def highlight_code(code: str, info: str) -> str:
    """HTML for one fenced block: `<div class="highlight" data-lang=..><pre><code>..</code></pre></div>`.

    A pure function of (code, info string), so the same snippet in many pages is highlighted once.
    """
    lang, options = parse_info(info)
    lexer = _lexer(lang.lower()) if lang else None
    label = escape(lang, quote=True)
    if lexer is None:
        cls = f' class="language-{label}"' if lang else ""
        return (f'<div class="highlight"{f" data-lang={chr(34)}{label}{chr(34)}" if lang else ""}>'
                f"<pre><code{cls}>{escape(code)}</code></pre></div>\n")
    linenos = options.get("linenos", "false").lower() in ("true", "table", "inline")
    start = int(options["linenostart"]) if options.get("linenostart", "").isdigit() else 1
    formatter = _formatter(linenos, tuple(_hl_lines(options.get("hl_lines", ""))), start)
    from pygments import highlight as pygments_highlight

    html = pygments_highlight(code, lexer, formatter)
    html = html.replace("<code>", f'<code class="language-{label}">', 1)  # as CommonMark and unhighlighted code
    return html.replace('<div class="highlight">', f'<div class="highlight" data-lang="{label}">', 1)
