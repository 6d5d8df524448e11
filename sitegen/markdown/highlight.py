"""Build-time syntax highlighting of fenced code with Pygments (CSS classes, styles shipped by the theme)."""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pygments is imported on the first code block, not by every build that has none to render
    from pygments.formatters import HtmlFormatter
    from pygments.lexer import Lexer

_OPTS = re.compile(r"\{(.*)\}\s*$")
_PAIR = re.compile(r"(\w+)\s*=\s*(\[[^\]]*\]|\"[^\"]*\"|'[^']*'|[^\s,]+)")


@lru_cache(maxsize=256)
def _lexer(lang: str) -> Lexer | None:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(lang, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return None


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    """Split a fence info string: ```` python {linenos=true hl_lines=[2,3]} ```` -> ("python", {...})."""
    info = info.strip()
    options: dict[str, str] = {}
    match = _OPTS.search(info)
    if match:
        options = {k: v.strip("\"'") for k, v in _PAIR.findall(match.group(1))}
        info = info[: match.start()].strip()
    lang = info.split()[0] if info else ""
    return lang, options


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
    return html.replace('<div class="highlight">', f'<div class="highlight" data-lang="{label}">', 1)
