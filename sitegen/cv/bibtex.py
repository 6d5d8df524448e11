"""BibTeX text -> publications, purely: `parse_bibtex(text, path)` returns every entry and every problem.

bibtexparser 2 splits the file into blocks (with their lines). Values are then read the way BibTeX reads them:
`@string` macros and the predefined month macros, `#` concatenation (which bibtexparser leaves unresolved),
LaTeX accents and braces decoded by pylatexenc, names in "Last, First" or "First von Last" order, months
as names, abbreviations or numbers. Each entry becomes a `Publication` (see `sitegen.cv.publication`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import functools
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass

import bibtexparser
from bibtexparser import model
from bibtexparser.middlewares.names import InvalidNameError, parse_single_name_into_parts, split_multiple_persons_names
from pylatexenc.latex2text import LatexNodes2Text

from sitegen.cv.publication import SITE_FIELDS, TYPES, Publication, map_entry
from sitegen.errors import ContentError, SitegenError

MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
               "october", "november", "december"]
MONTH_MACROS = {name[:3]: name.title() for name in MONTH_NAMES}
"""BibTeX's predefined macros: `month = jan` is `January`."""
ENTRY_TYPES = frozenset(TYPES) | {"misc", "online", "electronic"}
"""Entry types sitegen knows; any other is reported (usually a typo: `@inprocedings`)."""
VERBATIM_FIELDS = frozenset({"doi", "url", "eprint", "arxiv", "pdf", "code", "slides", "html", "video", "poster",
                             "website", "project", "supp", "preview", "blog"})
"""Identifiers and URLs: braces dropped, never LaTeX-decoded (a `%` or `_` in a URL stays)."""
MAX_VALUE_CHARS = 100_000
"""The longest a field or @string value may be once its macros are expanded (`a1 = a0 # a0` doubles)."""
_FIX_SYNTAX = "check that each field is `name = {value},` and that every `{` has its `}`"


Problem = tuple[str, tuple[int, int], str]
"""(message, (line, column), hint)."""


class _ValueError(Exception):
    """A field value BibTeX cannot read; the message says why, the hint how to fix it."""

    def __init__(self, message: str, hint: str = _FIX_SYNTAX) -> None:
        super().__init__(message)
        self.hint = hint


@dataclass(frozen=True)
class RawEntry:
    """One entry with its values resolved (macros, concatenation) but still in LaTeX."""

    kind: str
    """Lower-case entry type: `inproceedings`."""
    key: str
    fields: dict[str, str]
    """Lower-case field name -> resolved LaTeX value, in file order."""
    lines: dict[str, tuple[int, int]]
    """Field name -> (line, column), 1-based; `@` -> the entry's own position."""
    spelled: dict[str, str]
    """Field name -> as the file spells it (`archivePrefix`)."""


def parse_bibtex(text: str, path: str) -> tuple[list[Publication], list[SitegenError]]:
    """Every publication of a .bib file's text, and every problem in it (`path:line:col`, entry key, fix)."""
    text = text.lstrip("\ufeff")
    lines = text.splitlines()
    with _quiet():
        library = bibtexparser.parse_string(text, parse_stack=[])
    macros = dict(MONTH_MACROS)
    publications: list[Publication] = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for block in library.blocks:
        where = _block_position(lines, block)
        if isinstance(block, model.String):
            try:
                macros[block.key.strip().lower()] = _resolve(block.value, macros)
            except _ValueError as exc:
                problems.append((f"@string `{block.key}`: {exc}", where, exc.hint))
        elif isinstance(block, model.ParsingFailedBlock):
            problems.append(_failed_block(block, lines, text))
        elif isinstance(block, model.Entry):
            raw, read_problems = _raw_entry(block, lines, macros, where)
            if raw.key and raw.key.casefold() in seen:
                problems.append((f"entry `{raw.key}`: the key is used twice (first on line "
                                 f"{seen[raw.key.casefold()]})", where, "give each entry its own key"))
                continue
            seen[raw.key.casefold()] = where[0]
            publication, map_problems = _publication(raw, path)
            # One problem per field: a value that could not be read is not also "not a month".
            unread = {at for _, at, _ in read_problems} - {where}
            problems += read_problems + [p for p in map_problems if p[1] not in unread]
            if publication is not None and not read_problems:
                publications.append(publication)
    errors: list[SitegenError] = [ContentError(message, path=path, line=line, col=col, hint=hint)
                                  for message, (line, col), hint in problems]
    return publications, errors


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """bibtexparser logs syntax errors to stderr; sitegen reports them itself, with the fix."""
    logger = logging.getLogger("bibtexparser.splitter")
    before = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = before


def _block_position(lines: list[str], block: model.Block) -> tuple[int, int]:
    """1-based (line, column) of a block's `@`."""
    index = block.start_line or 0
    line = lines[index] if index < len(lines) else ""
    first = (block.raw or "").split("\n", 1)[0]
    col = line.find(first) if first else -1
    return index + 1, (col if col >= 0 else max(line.find("@"), 0)) + 1


def _field_position(lines: list[str], field: model.Field, fallback: tuple[int, int]) -> tuple[int, int]:
    """1-based (line, column) of a field's name."""
    index = field.start_line
    if index is None or index >= len(lines):
        return fallback
    match = re.search(rf"(?<![\w-]){re.escape(field.key)}\s*=", lines[index], re.IGNORECASE)
    return index + 1, (match.start() + 1 if match else 1)


def _failed_block(block: model.ParsingFailedBlock, lines: list[str], text: str) -> Problem:
    """A syntax error, a field given twice or a key used twice, as bibtexparser found it."""
    where = _block_position(lines, block)
    head = re.match(r"@\s*(\w+)\s*[{(]\s*([^,\s{}()]*)", block.raw or "")
    name = (f"entry `{head.group(2)}`" if head and head.group(2) else f"@{head.group(1)} entry" if head
            else "entry")
    if isinstance(block, model.DuplicateFieldKeyBlock):
        keys = ", ".join(f"`{k}`" for k in sorted(block.duplicate_keys))
        return f"{name}: field {keys} is given twice", where, "keep one of them"
    if isinstance(block, model.DuplicateBlockKeyBlock):
        first = (block.previous_block.start_line or 0) + 1
        return f"{name}: the key is used twice (first on line {first})", where, "give each entry its own key"
    reason = (getattr(block.error, "abort_reason", "") or str(block.error) or "unreadable").strip()
    end = getattr(block.error, "end_index", None)
    stop = f" (reading stopped on line {text.count(chr(10), 0, end) + 1})" if end else ""
    return f"{name}: malformed BibTeX{stop}: {reason}", where, _FIX_SYNTAX


def _raw_entry(block: model.Entry, lines: list[str], macros: dict[str, str], where: tuple[int, int]
               ) -> tuple[RawEntry, list[Problem]]:
    """Resolve an entry's values; problems as (message, position, hint)."""
    key = block.key.strip()
    kind = block.entry_type.strip().lower()
    name = f"entry `{key}`" if key else f"@{kind} entry"
    problems: list[Problem] = []
    if not key:
        problems.append((f"{name} has no key", where, "write `@" + kind + "{yourkey2024, ...}`"))
    if kind not in ENTRY_TYPES:
        close = difflib.get_close_matches(kind, sorted(ENTRY_TYPES), n=1, cutoff=0.6)
        problems.append((f"{name}: unknown entry type `@{kind}`", where,
                         f"did you mean `@{close[0]}`?" if close else
                         f"use one of {', '.join('@' + t for t in sorted(ENTRY_TYPES))}"))
    fields: dict[str, str] = {}
    spelled: dict[str, str] = {}
    positions: dict[str, tuple[int, int]] = {"@": where}
    for field in block.fields:
        field_key = field.key.strip().lower()
        at = _field_position(lines, field, where)
        if field_key in fields:
            problems.append((f"{name}: field `{field_key}` is given twice", at, "keep one of them"))
            continue
        try:
            fields[field_key] = _resolve(str(field.value), macros)
            if field_key not in VERBATIM_FIELDS:
                latex_to_text(fields[field_key])
        except _ValueError as exc:
            problems.append((f"{name}: field `{field_key}`: {exc}", at, exc.hint))
            # Plain text, so that later checks neither call it missing nor fail on it again.
            fields[field_key] = re.sub(r"[\\{}$]", "", str(field.value))[:MAX_VALUE_CHARS]
        positions[field_key] = at
        spelled[field_key] = field.key.strip()
    return RawEntry(kind, key, fields, positions, spelled), problems


_TOKEN = re.compile(r"[^\s#{}\"]+")


def _resolve(raw: str, macros: dict[str, str]) -> str:
    """A BibTeX value: `{...}`, `"..."`, a number or a macro name, joined by `#`."""
    out: list[str] = []
    value = raw.strip()
    i, expect_part, length = 0, True, 0
    while i < len(value):
        char = value[i]
        if char.isspace():
            i += 1
            continue
        if char == "#":
            if expect_part:
                raise _ValueError("`#` without a value before it")
            expect_part, i = True, i + 1
            continue
        if not expect_part:
            raise _ValueError(f"expected `#` between parts of the value, found {value[i:i + 20]!r}")
        if char in "{\"":
            end = _closing(value, i)
            out.append(value[i + 1:end])
            i = end + 1
        else:
            match = _TOKEN.match(value, i)
            token = match.group(0) if match else value[i]
            i += len(token)
            if not token.isdigit():
                if token.lower() not in macros:
                    raise _ValueError(f"`{token}` is not a defined @string macro",
                                      f"define it above the entry (`@string{{{token} = {{...}}}}`) or write "
                                      f"the value in braces: `{{{token}}}`")
                token = macros[token.lower()]
            out.append(token)
        length += len(out[-1])
        if length > MAX_VALUE_CHARS:
            raise _ValueError(f"the value expands to more than {MAX_VALUE_CHARS:,} characters",
                              "check the @string macros it uses: each `#` joins the full text of both sides")
        expect_part = False
    if expect_part and out:
        raise _ValueError("the value ends with `#`")
    return "".join(out)


def _closing(value: str, start: int) -> int:
    """Index of the `}` or `"` closing the part opening at `start`; braces nest (as in BibTeX, even `\\{`)."""
    quoted = value[start] == '"'
    depth = 0
    for i in range(start + 1 if quoted else start, len(value)):
        char = value[i]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                break
            if depth == 0 and not quoted:
                return i
        elif char == '"' and quoted and depth == 0:
            return i
    raise _ValueError("unbalanced braces or quotes")


@functools.cache
def _decoder() -> LatexNodes2Text:
    return LatexNodes2Text(math_mode="text", keep_comments=False)


_NEEDS_LATEX = re.compile(r"[\\$~]|--|''|``")


@functools.lru_cache(maxsize=8192)
def latex_to_text(value: str) -> str:
    """`M{\\"u}ller`, `\\'e`, `{GPU}` -> `Müller`, `é`, `GPU`; whitespace collapsed.

    A bare `%` or `&` is text (BibTeX has no comments inside values); values without LaTeX skip pylatexenc.
    LaTeX that pylatexenc cannot read raises _ValueError.
    """
    if not _NEEDS_LATEX.search(value):
        return " ".join(value.replace("{", "").replace("}", "").split())
    escaped = re.sub(r"(?<!\\)([%&#_])", r"\\\1", value)
    try:
        decoded = _decoder().latex_to_text(escaped)
    except Exception as exc:  # noqa: BLE001 - pylatexenc fails in many ways (IndexError, RecursionError...)
        raise _ValueError(f"cannot read the LaTeX ({type(exc).__name__}: {exc})",
                          "check the braces and the commands (`\\verb`, `\\href{url}{text}`), or write plain text"
                          ) from None
    return " ".join(decoded.replace("\u00a0", " ").split())


def verbatim(value: str) -> str:
    """A URL or identifier as written, without braces, `\\url{}` or LaTeX escapes (`\\_` -> `_`)."""
    value = re.sub(r"^\s*\\url\s*\{(.*)\}\s*$", r"\1", value, flags=re.S)
    value = re.sub(r"\\([_%&#$~])", r"\1", value)
    return "".join(value.replace("{", "").replace("}", "").split())


def format_authors(value: str) -> list[str]:
    """`Lin, Ada and M{\\"u}ller, J. and others` -> `["Ada Lin", "J. Müller", "et al."]`."""
    names: list[str] = []
    for person in split_multiple_persons_names(value):
        if person.strip().lower() == "others":
            names.append("et al.")
            continue
        try:
            parts = parse_single_name_into_parts(person)
        except InvalidNameError as exc:
            raise _ValueError(f"cannot read the name `{person}` ({exc.reason})") from None
        names.append(latex_to_text(parts.merge_first_name_first))
    return [n for n in names if n]


def parse_month(value: str) -> int:
    """`jan`, `January`, `{March}`, `Mar.`, `3`, `03` -> the month number; ValueError for anything else."""
    text = latex_to_text(value).strip().rstrip(".").lower()
    if text.isdigit() and 1 <= int(text) <= 12:
        return int(text)
    for number, name in enumerate(MONTH_NAMES, start=1):
        if len(text) >= 3 and name.startswith(text):
            return number
    raise ValueError(value)


def release_date(raw: RawEntry) -> tuple[str, list[Problem]]:
    """`year[-month[-day]]` of an entry (biblatex `date` when there is no `year`), or the problems."""
    fields, at = raw.fields, raw.lines
    name = f"entry `{raw.key}`"
    date = verbatim(fields.get("date", ""))
    year_text = verbatim(fields.get("year", "")) or date[:4]
    if not year_text:
        return "", [(f"{name}: no `year`", at["@"], "add `year = {2024},` (and `month = may,` if known)")]
    if not re.fullmatch(r"[12]\d{3}", year_text):
        return "", [(f"{name}: `year = {{{year_text}}}` is not a year", at.get("year", at["@"]),
                     "write the year with four digits, e.g. `year = {2024}`")]
    year, month, day = int(year_text), None, None
    match = re.fullmatch(r"\d{4}-(\d{1,2})(?:-(\d{1,2}))?", date) if "year" not in fields else None
    if match:
        month, day = int(match.group(1)), int(match.group(2)) if match.group(2) else None
    if "month" in fields:
        try:
            month = parse_month(fields["month"])
        except ValueError:
            return "", [(f"{name}: `month = {{{fields['month']}}}` is not a month", at["month"],
                         "write `month = may,` (jan ... dec), a month name or a number from 1 to 12")]
    if "day" in fields and month is not None:
        day_text = verbatim(fields["day"])
        day = int(day_text) if day_text.isdigit() else 0
    try:
        dt.date(year, month or 1, day or 1)
    except ValueError:
        return "", [(f"{name}: {year}-{month:02d}-{day} is not a date", at.get("day", at.get("month", at["@"])),
                     "check the `day` and `month` fields")]
    return f"{year:04d}" + (f"-{month:02d}" if month else "") + (f"-{day:02d}" if month and day else ""), []


def _publication(raw: RawEntry, path: str
                 ) -> tuple[Publication | None, list[Problem]]:
    """Map a resolved entry onto a Publication, or say what is missing or wrong."""
    problems: list[Problem] = []
    name = f"entry `{raw.key}`"
    title = latex_to_text(raw.fields.get("title", ""))
    if not title:
        problems.append((f"{name}: no `title`", raw.lines["@"], "add `title = {The Paper's Title},`"))
    date, date_problems = release_date(raw)
    problems += date_problems
    authors: list[str] = []
    for field in ("author", "editor"):
        if field in raw.fields and not authors:
            try:
                authors = format_authors(raw.fields[field])
            except _ValueError as exc:
                problems.append((f"{name}: field `{field}`: {exc}", raw.lines[field],
                                 "separate people with `and`; write each as `Last, First` or `First Last`"))
    text = {k: verbatim(v) if k in VERBATIM_FIELDS else latex_to_text(v) for k, v in raw.fields.items()}
    publication, mapping_problems = map_entry(raw.kind, raw.key, title, authors, date, text, path,
                                              raw.lines["@"][0], clean_bibtex(raw))
    problems += [(f"{name}: {message}", raw.lines.get(field, raw.lines["@"]), hint)
                 for field, message, hint in mapping_problems]
    return (publication if not problems else None), problems


def clean_bibtex(raw: RawEntry) -> str:
    """The entry as others should cite it: macros resolved, sitegen's display-only fields left out."""
    shown = [(raw.spelled.get(k, k), k, v) for k, v in raw.fields.items() if k not in SITE_FIELDS]
    width = max((len(name) for name, _, _ in shown), default=0)
    lines = []
    for name, key, value in shown:
        month = _month_or_none(value) if key == "month" else 0
        if month:
            text = MONTH_NAMES[month - 1][:3]  # the predefined macro, as BibTeX styles expect
        else:
            text = f"{{{value}}}"
        lines.append(f"  {name.ljust(width)} = {text},\n")
    return f"@{raw.kind}{{{raw.key},\n{''.join(lines)}}}"


def _month_or_none(value: str) -> int:
    try:
        return parse_month(value)
    except ValueError:
        return 0
