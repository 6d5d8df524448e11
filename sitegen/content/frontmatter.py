"""Split a page into front matter and body, and parse YAML (`---`), TOML (`+++`) or JSON (`{`) front matter.

The split is done here rather than with python-frontmatter because errors must name the line in the file
(front matter lines plus the offset of the body), and python-frontmatter neither keeps positions nor reads
YAML 1.2 scalars.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from typing import Any

import yaml

from sitegen.errors import ContentError, SitegenError
from sitegen.inputlimits import InputLimitError, check_input, limit_error, located, toml_error
from sitegen.yamlload import load_yaml, yaml_error


@dataclass(frozen=True)
class FrontMatter:
    """The metadata block of a page and where its body starts."""

    data: dict[str, Any]
    """The parsed keys."""
    body: str
    """The text after the front matter."""
    body_line: int
    """1-based line number, in the file, of the first body line."""
    format: str
    """`yaml`, `toml`, `json` or `none`."""
    text: str = ""
    """The raw front matter text (for locating keys in messages)."""

    def key_line(self, key: str) -> int | None:
        """1-based line, in the file, where `key` is written (None if not found)."""
        pattern = re.compile(rf"^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*[:=]", re.M)
        match = pattern.search(self.text)
        if match is None:
            return None
        return self.text.count("\n", 0, match.start()) + 2  # +1 for the opening fence, +1 for 1-based


_FENCES = {"---": "yaml", "+++": "toml"}


def normalize_text(text: str) -> str:
    """Drop a BOM and turn CRLF/CR line ends into LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def split_front_matter(text: str, path: str) -> FrontMatter:
    """Separate front matter from the body. `text` must already be normalized (LF, no BOM)."""
    first_end = text.find("\n")
    first = (text if first_end < 0 else text[:first_end]).rstrip()
    if first in _FENCES:
        fence = first
        close = re.compile(rf"^{re.escape(fence)}[ \t]*$", re.M)
        match = close.search(text, len(first) + 1 if first_end >= 0 else len(text))
        if match is None:
            raise ContentError(
                f"front matter opened with `{fence}` on line 1 is never closed", path=path, line=1, col=1,
                hint=f"add a line holding only `{fence}` after the last front matter key")
        fm_text = text[first_end + 1:match.start()]
        body_start = match.end() + 1 if match.end() < len(text) else match.end()
        body = text[body_start:]
        body_line = text.count("\n", 0, body_start) + 1
        data = _parse(fm_text, _FENCES[fence], path)
        return FrontMatter(data, body, body_line, _FENCES[fence], fm_text)
    if first.startswith("{"):
        decoder = json.JSONDecoder()
        try:
            check_input(text, "json")
            data, end = decoder.raw_decode(text)
        except InputLimitError as exc:
            raise located(exc, path) from None
        except json.JSONDecodeError as exc:
            raise ContentError(f"invalid JSON front matter: {exc.msg}", path=path, line=exc.lineno,
                               col=exc.colno, hint="JSON front matter is one object `{...}` at the top") from None
        except (ValueError, RecursionError) as exc:
            raise _limit_or_invalid(text, exc, "JSON", path, 0) from None
        if not isinstance(data, dict):
            raise ContentError("JSON front matter must be an object", path=path, line=1, col=1)
        rest = text[end:]
        nl = rest.find("\n")
        body = "" if nl < 0 else rest[nl + 1:]
        body_line = text.count("\n", 0, len(text) - len(body)) + 1
        return FrontMatter(data, body, body_line, "json", text[:end])
    return FrontMatter({}, text, 1, "none", "")


def _parse(fm_text: str, fmt: str, path: str) -> dict[str, Any]:
    """Parse YAML or TOML front matter text into a dict, with file-relative error positions."""
    if fmt == "toml":
        try:
            check_input(fm_text, "toml")
            return tomllib.loads(fm_text)
        except InputLimitError as exc:
            raise located(exc, path, 1) from None
        except tomllib.TOMLDecodeError as exc:
            raise toml_error(exc, "TOML front matter", path, first_line=2,
                             hint="check quoting: TOML strings need quotes") from None
        except (ValueError, RecursionError) as exc:
            raise _limit_or_invalid(fm_text, exc, "TOML", path, 1) from None
    try:
        data = load_yaml(fm_text)
    except InputLimitError as exc:
        raise located(exc, path, 1) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, ContentError, "YAML front matter", path, first_line=2,
                         hint="check indentation, and quote values containing `: `, `#`, `[` or `{`") from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise _limit_or_invalid(fm_text, exc, "YAML", path, 1) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ContentError("front matter must be `key: value` lines", path=path, line=2, col=1,
                           hint="for example `title: My page`")
    return data


def _limit_or_invalid(text: str, exc: Exception, fmt: str, path: str, line_offset: int) -> SitegenError:
    """A located error for a value beyond sitegen's limits, else the parser's message on the first line."""
    limit = limit_error(text, exc)
    if limit is not None:
        return located(limit, path, line_offset)
    return ContentError(f"invalid {fmt} front matter: {exc}", path=path, line=1 + line_offset)
