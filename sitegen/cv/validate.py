"""Validate a CV against the declared format: every problem at once, with its line and path, and typos explained."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from typing import Any
from urllib.parse import urlsplit

import yaml

from sitegen.content.urls import is_site_path
from sitegen.cv.schema import (
    BOOLEAN,
    DATE,
    EMAIL,
    FREE_ENTRY,
    INTEGER,
    OPEN_OBJECTS,
    SCALAR,
    STRING,
    STRINGS,
    TOP_LEVEL,
    URL,
    Spec,
)
from sitegen.errors import ContentError, SitegenError
from sitegen.yamlload import Yaml12Loader

_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def key_lines(text: str) -> dict[str, int]:
    """Map CV paths (`work[2].startDate`) to 1-based lines, from the YAML (or JSON) text."""
    try:
        root = yaml.compose(text, Loader=Yaml12Loader)  # noqa: S506
    except yaml.YAMLError:
        return {}
    lines: dict[str, int] = {}

    def walk(node: yaml.Node, path: str) -> None:
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                child = f"{path}.{key.value}" if path else str(key.value)
                lines[child] = key.start_mark.line + 1
                walk(value, child)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, f"{path}[{i}]")

    if root is not None:
        walk(root, "")
    return lines


def parse_cv_date(value: Any) -> tuple[int, int | None, int | None] | None:
    """(year, month, day) of `2015`, `2015-09`, `2015-09-01` or a YAML date; None if it is not a date."""
    if isinstance(value, dt.date):
        return value.year, value.month, value.day
    if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 2999:
        return value, None, None
    if not isinstance(value, str):
        return None
    match = _DATE.match(value.strip())
    if not match:
        return None
    year, month, day = int(match[1]), int(match[2]) if match[2] else None, int(match[3]) if match[3] else None
    try:
        dt.date(year, month or 1, day or 1)
    except ValueError:
        return None
    return year, month, day


_BARE_HOST = re.compile(r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(/\S*)?$")


def normalize_url(value: str) -> str:
    """`example.com/x` (as the JSON Resume sample writes) becomes `https://example.com/x`."""
    return f"https://{value}" if value and _BARE_HOST.match(value) else value


def valid_url(value: str) -> bool:
    """http(s) URLs with a host, bare host names, mailto: links, site paths starting with `/`, or empty."""
    if value == "" or is_site_path(value) or _BARE_HOST.match(value):
        return True
    parts = urlsplit(value)
    if parts.scheme in ("http", "https"):
        return bool(parts.netloc) and " " not in value
    return parts.scheme == "mailto" and "@" in value


class _Validator:
    def __init__(self, path: str, lines: dict[str, int], allow_extra: bool = False) -> None:
        self.file = path
        self.lines = lines
        self.allow_extra = allow_extra
        self.errors: list[SitegenError] = []

    def error(self, where: str, message: str, hint: str | None = None) -> None:
        line = self.lines.get(where)
        probe = where
        while line is None and probe:
            parent = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", probe)
            if parent == probe:  # a top-level key, or one holding `[`: no parent to try (this looped forever)
                break
            probe = parent
            line = self.lines.get(probe)
        self.errors.append(ContentError(f"{where}: {message}", path=self.file, line=line, hint=hint))

    def check(self, value: Any, spec: Spec, where: str, key: str = "") -> None:
        if isinstance(spec, tuple) and spec[0] == "object":
            self.check_object(value, spec[1], where, open_keys=key in OPEN_OBJECTS)
        elif isinstance(spec, tuple) and spec[0] == "array":
            if not isinstance(value, list):
                self.error(where, f"expected a list, got {_kind(value)}", "write `- ` items")
                return
            for i, item in enumerate(value):
                self.check(item, spec[1], f"{where}[{i}]")
        else:
            self.check_scalar(value, spec, where, key)

    def check_object(self, value: Any, fields: dict[str, Spec], where: str, open_keys: bool = False) -> None:
        if not isinstance(value, dict):
            self.error(where, f"expected a mapping of keys, got {_kind(value)}")
            return
        for k, v in value.items():
            k = str(k)
            child = f"{where}.{k}" if where else k
            if k in fields:
                self.check(v, fields[k], child, k)
            elif not open_keys and not self.allow_extra:
                close = difflib.get_close_matches(k, list(fields), n=1, cutoff=0.6)
                self.error(child, f"unknown key `{k}`",
                           f"did you mean `{close[0]}`?" if close else f"known keys: {', '.join(sorted(fields))}")

    def check_scalar(self, value: Any, spec: str, where: str, key: str) -> None:
        if value is None:
            return
        if spec == STRING and not isinstance(value, str | int | float) or isinstance(value, bool) and spec != BOOLEAN:
            self.error(where, f"expected text, got {_kind(value)}", "quote the value")
        elif spec == DATE:
            if key == "endDate" and isinstance(value, str) and value.strip().lower() == "present":
                return
            if parse_cv_date(value) is None:
                self.error(where, f"{value!r} is not a valid date", "write 2015, 2015-09 or 2015-09-01"
                           + (" (or `present`)" if key == "endDate" else ""))
        elif spec == URL:
            if not isinstance(value, str) or not valid_url(value):
                self.error(where, f"{value!r} is not a valid URL", "write a full URL such as https://example.org/")
        elif spec == EMAIL:
            if not isinstance(value, str) or not _EMAIL.match(value):
                self.error(where, f"{value!r} is not an e-mail address")
        elif spec == INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
            self.error(where, f"expected a whole number, got {_kind(value)}")
        elif spec == BOOLEAN and not isinstance(value, bool):
            self.error(where, f"expected true or false, got {value!r}")
        elif spec == STRINGS:
            if not isinstance(value, list) or not all(isinstance(x, str | int | float) for x in value):
                self.error(where, f"expected a list of text items, got {_kind(value)}", "write `[a, b]`")
        elif spec == SCALAR and isinstance(value, list):
            self.error(where, "expected a single value, got a list")


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", bool: "true/false", type(None): "nothing"}.get(
        type(value), f"{type(value).__name__} {value!r}")


def is_free_section(value: Any) -> bool:
    """Another top-level key is a free section: `{title, entries: [...]}` or a list of entries with `title`."""
    if isinstance(value, dict):
        return "title" in value and isinstance(value.get("entries"), list)
    return isinstance(value, list) and bool(value) and all(isinstance(e, dict) and "title" in e for e in value)


def validate_cv(data: Any, path: str, lines: dict[str, int], *, allow_extra: bool = False) -> list[SitegenError]:
    """Every problem in a CV document, in file order.

    `allow_extra`: keys the format does not declare are accepted anywhere (JSON Resume allows them, so a
    `resume.json` from another tool reads unchanged); otherwise each is an error with a "did you mean".
    """
    check = _Validator(path, lines, allow_extra)
    if not isinstance(data, dict):
        check.error("", "a CV must be a mapping with `basics`, `work`, ... at the top")
        return check.errors
    for key, value in data.items():
        key = str(key)
        if key in TOP_LEVEL:
            check.check(value, TOP_LEVEL[key], key, key)
        elif is_free_section(value):
            entries = value["entries"] if isinstance(value, dict) else value
            where = f"{key}.entries" if isinstance(value, dict) else key
            for i, entry in enumerate(entries):
                check.check(entry, FREE_ENTRY, f"{where}[{i}]")
        elif not allow_extra:
            close = difflib.get_close_matches(key, list(TOP_LEVEL), n=1, cutoff=0.6)
            check.error(key, f"unknown section `{key}`",
                        f"did you mean `{close[0]}`?" if close else
                        "a free section is `{title: ..., entries: [...]}` or a list of entries with `title`")
    basics = data.get("basics")
    if basics is None or isinstance(basics, dict) and not str(basics.get("name") or "").strip():
        check.error("basics.name", "the CV has no name",
                    "write yours under `basics:` (`name: Ada Lin`): it heads the CV page and the PDF, and is set "
                    "in bold in author lists")
    refs = data.get("sections")
    for i, ref in enumerate(refs if isinstance(refs, list) else []):  # (not a list: reported above)
        name = ref.get("key") if isinstance(ref, dict) else ref
        # `publications` may come from BibTeX files alone (sitegen.cv.publication), so naming it is never wrong.
        if not isinstance(name, str) or name not in data and name not in ("basics", "publications"):
            check.error(f"sections[{i}]", f"`{name}` is not a section of this CV",
                        f"sections present: {', '.join(k for k in data if k not in ('sections', 'meta', '$schema'))}")
    check.errors.sort(key=lambda e: (e.line or 0, e.message))
    return check.errors
