"""Limits on what authors' YAML, JSON and TOML may hold, checked before a parser sees the text.

A parser must never crash the process, hang or throw a traceback on hostile input: libyaml's C composer
recurses once per nesting level (30,000 `[` overflow the C stack and kill the process, the dev server with
it), `json` and `tomllib` raise RecursionError, `tomllib` takes quadratic time on long dotted keys
(`a.a.a…`), and Python refuses to read integers longer than 4,300 digits. `check_input` bounds the nesting
depth (and TOML dotted keys) before parsing; `limit_error` turns what the parsers raise on oversized values
into a located message. Both report positions 1-based and relative to the text given, so callers add the
offset of the text in its file (front matter starts on line 2).
"""

from __future__ import annotations

import re
import sys
from typing import Any

import yaml

from sitegen.errors import ContentError, SitegenError

MAX_DEPTH = 100
"""The deepest nesting of lists and mappings a data file, front matter or config may have."""
MAX_DOTTED = 100
"""The most parts a TOML dotted key (`a.b.c`) may have."""

_DEPTH_HINT = "flatten the data: nobody writes lists or tables nested this deep by hand"


class InputLimitError(ValueError):
    """Input beyond one of sitegen's limits; `line` and `col` are 1-based, relative to the text checked."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None,
                 hint: str = _DEPTH_HINT) -> None:
        super().__init__(message)
        self.message, self.line, self.col, self.hint = message, line, col, hint


def check_input(text: str, fmt: str) -> None:
    """Raise InputLimitError if `text` (in `fmt`: yaml, json or toml) nests deeper than MAX_DEPTH.

    Cheap for ordinary files: a text with fewer opening characters than the limit cannot nest that deep, and
    is not scanned.
    """
    if fmt == "yaml":
        _check_yaml(text)
    elif fmt == "json":
        _check_brackets(text, _JSON_SPECIALS, json=True)
    elif fmt == "toml":
        _check_brackets(text, _TOML_SPECIALS, json=False)
        _check_dotted(text)


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _too_deep(line: int, col: int) -> InputLimitError:
    return InputLimitError(f"nesting deeper than {MAX_DEPTH} levels", line, col)


def _check_yaml(text: str) -> None:
    # Every collection starts with `[`, `{`, `- `, `? ` or has a key with `:`; fewer of those than the limit
    # means the document cannot be too deep.
    if sum(text.count(c) for c in "[{-?:") <= MAX_DEPTH:
        return
    depth = 0
    try:
        # libyaml's parser is a state machine (no recursion): its events are safe to count at any depth.
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = event.start_mark
                    raise _too_deep(mark.line + 1, mark.column + 1) if mark else _too_deep(1, 1)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as exc:
        # PyYAML 6.0.4's libyaml has a depth limit of its own, which its scanner (reading ahead of the events)
        # can hit first: that is the same finding, said the same way.
        # Count again over the text before that point, to name where the 101st level starts.
        mark = getattr(exc, "problem_mark", None)
        if "nesting depth" in str(getattr(exc, "problem", "") or ""):
            if mark is not None and 0 < mark.index < len(text):
                _check_yaml(text[:mark.index])
            raise _too_deep(mark.line + 1, mark.column + 1) if mark else _too_deep(1, 1) from None
        return  # a syntax error before any excess depth: the loader reports it, at the same place


_JSON_SPECIALS = re.compile(r'[\[\]{}"\\]')
_TOML_SPECIALS = re.compile(r"""'''|\"\"\"|[\[\]{}"'\\#\n]""")


def _check_brackets(text: str, specials: re.Pattern[str], *, json: bool) -> None:
    """Bracket depth outside strings (and TOML comments), visiting only the characters that matter."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    quote = ""  # the open string's delimiter, or "#" in a TOML comment
    skip_to = -1  # the index after an escaping backslash
    for match in specials.finditer(text):
        token, at = match.group(), match.start()
        if at < skip_to:
            continue
        if quote:
            if quote == "#":
                if token == "\n":
                    quote = ""
            elif token == "\\" and quote in ('"', '"""'):
                skip_to = at + 2
            elif token == quote or (len(quote) == 1 and token[0] == quote):
                quote = ""  # (`"""` after a one-quote string is its end and an empty string)
            elif token == "\n" and len(quote) == 1 and not json:
                quote = ""  # a single-line TOML string cannot span lines; tomllib reports it
        elif token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(*_position(text, at))
        elif token in "]}":
            depth = max(depth - 1, 0)
        elif token in ('"', "'", '"""', "'''"):
            quote = token
        elif token == "#" and not json:
            quote = "#"


_KEY_PART = r"""(?:[A-Za-z0-9_-]++|"[^"\n]*+"|'[^'\n]*+')"""
_DOTTED = re.compile(rf"""(?<![\w"'-]){_KEY_PART}(?:[ \t]*+\.[ \t]*+{_KEY_PART}){{{MAX_DOTTED}}}""")


def _check_dotted(text: str) -> None:
    if text.count(".") <= MAX_DOTTED:
        return
    match = _DOTTED.search(text)
    if match:
        raise InputLimitError(f"a dotted key with more than {MAX_DOTTED} parts", *_position(text, match.start()),
                              hint="use fewer levels of tables")


_LONG_NUMBER = re.compile(rf"[0-9_]{{{sys.get_int_max_str_digits() or 4300},}}")


def limit_error(text: str, exc: BaseException) -> InputLimitError | None:
    """The located error for what a parser raised on an oversized value, or None if `exc` is something else.

    Python refuses to convert integers longer than 4,300 digits (a ValueError from the parser), and a
    parser that recursed too deep anyway raises RecursionError.
    """
    if isinstance(exc, RecursionError):
        return InputLimitError(f"nesting deeper than {MAX_DEPTH} levels")
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        match = _LONG_NUMBER.search(text)
        line, col = _position(text, match.start()) if match else (None, None)
        return InputLimitError("a number with more than 4,300 digits", line, col, hint="quote it to keep it as text")
    return None


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """Raise InputLimitError if parsed data nests deeper than `limit` (for data that did not come from text)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            raise InputLimitError(f"nesting deeper than {limit} levels")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def located(exc: InputLimitError, path: str, line_offset: int = 0,
            kind: type[SitegenError] = ContentError) -> SitegenError:
    """The limit error as a SitegenError at `path`, its line moved by `line_offset` (the text's place in the file)."""
    return kind(exc.message, path=path, line=exc.line + line_offset if exc.line else None, col=exc.col,
                hint=exc.hint)


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def toml_error(exc: ValueError, what: str, path: str, *, first_line: int = 1, hint: str | None = None,
               kind: type[SitegenError] = ContentError) -> SitegenError:
    """A TOML parse failure as `invalid <what>: <problem>` at its line and column (`tomllib` puts them at the
    end of its message); `first_line` is the file line of the text's first line (2 for front matter)."""
    message = str(exc)
    match = _TOML_AT.search(message)
    if match is None:
        return kind(f"invalid {what}: {message}", path=path, hint=hint)
    return kind(f"invalid {what}: {message[:match.start()]}", path=path, line=int(match[1]) + first_line - 1,
                col=int(match[2]), hint=hint)


_WIDE = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
         (b"\xfe\xff", "UTF-16"))


def decode_utf8(raw: bytes, path: str, kind: type[SitegenError] = ContentError) -> str:
    """A file's bytes as text; a UTF-16/32 file or an invalid byte is reported (with its line) as `kind`."""
    wide = next((name for bom, name in _WIDE if raw.startswith(bom)), None)
    if wide is None and len(raw) >= 2 and (raw[0] == 0) != (raw[1] == 0):
        wide = "UTF-16"  # ASCII text in UTF-16 without a byte-order mark: every other byte is zero
    if wide is not None:
        raise kind(f"the file is saved as {wide}; sitegen reads UTF-8", path=path, line=1, col=1,
                   hint="re-save it as UTF-8 (in most editors: Save with Encoding, or File > Save As > UTF-8)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise kind(f"invalid UTF-8 byte 0x{raw[exc.start]:02x} at byte offset {exc.start}", path=path,
                   line=line, col=col, hint="re-save the file as UTF-8") from None
