"""jekyll-scholar's `{% bibliography %}` with its options, as a list of the site's BibTeX entries in the page.

    {% bibliography --file papers --query @article[year>=2020 && author ~= Lovelace] --max 5 %}
    {% bibliography --cited_in_order %}            {% bibliography --group_by year --group_order descending %}

Read: `--file`/`-f` (entries of `_bibliography/<name>.bib`), `--query`/`-q` (bibtex-ruby's filters: `@type` or
`@*`, `!@type`, conditions in `[...]` joined by `&&` or `,`, each `field`, `field=value`, `!=`, `^=` (starts
with), `~=` (matches), `<`, `<=`, `>`, `>=`), `--cited` and `--cited_in_order` (the entries the page cites),
`--max N` (`--limit N` too; not when grouped, as in jekyll-scholar), `--group_by year|none` and `--group_order`
(also from `scholar:` in `_config.yml`, with `query`); `{% bibliography_count %}` takes the same options. The
list is jekyll-scholar's markup: an `<ol class="bibliography">` (one per group, after an
`<h2 class="bibliography">` heading), an entry per `<li>`.
"""

from __future__ import annotations

import html
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_FIELD_LINE = re.compile(r"^\s*([\w-]+)\s*=\s*\{(.*)\},?\s*$")
_CONDITION = re.compile(r"^\s*([\w-]+)\s*(?:(!=|/=|\^=|~=|<=|>=|<|>|=)\s*(.*?))?\s*$")
_CLAUSE = re.compile(r"(!?)@(\*|\w+)(?:\[([^\]]*)\])?\*?")
OPTIONS_WITH_VALUE = {"--file": "file", "-f": "file", "--query": "query", "-q": "query", "--max": "max",
                      "--limit": "max", "--group_by": "group_by", "-g": "group_by", "--group_order": "group_order",
                      "-G": "group_order"}
FLAGS = {"--cited": "cited", "-c": "cited", "--cited_in_order": "cited_in_order"}


def bibtex_fields(bibtex: str) -> tuple[str, dict[str, str]]:
    """The entry type and the fields of an entry as sitegen writes it for citing (`@article{key,` then one
    `name = {value},` a line)."""
    kind = re.match(r"\s*@(\w+)", bibtex)
    fields: dict[str, str] = {}
    for line in bibtex.splitlines()[1:]:
        match = _FIELD_LINE.match(line)
        if match:
            fields[match[1].lower()] = match[2]
    return (kind[1].lower() if kind else ""), fields


@dataclass(frozen=True)
class BibOptions:
    """A `{% bibliography %}` tag's options, over the site's `scholar:` settings."""

    file: str = ""
    query: str = ""
    cited: bool = False
    cited_in_order: bool = False
    max: int | None = None
    group_by: str = "none"
    group_order: str = "ascending"
    unsupported: tuple[str, ...] = ()
    """Options written but not read (`--template`, `--prefix`...), for the warning."""
    problems: tuple[str, ...] = field(default=())
    """What could not be read (`--max ten`), for the warning."""
    selects: bool = False
    """Whether the tag itself picks entries (`--file`, `--query`, `--cited`, `--max`): not the whole list."""


def parse_options(args: str, scholar: Mapping[str, Any]) -> BibOptions:
    """The tag's options (`args` after the tag name) over `scholar:` of `_config.yml`."""
    values: dict[str, Any] = {"group_by": str(scholar.get("group_by") or "none"),
                              "group_order": str(scholar.get("group_order") or "ascending")}
    config_query = str(scholar.get("query") or "").strip()
    unsupported: list[str] = []
    problems: list[str] = []
    try:
        words = shlex.split(args)
    except ValueError:
        words = args.split()
    i = 0
    while i < len(words):
        word = words[i]
        name, _, glued = word.partition("=") if word.startswith("--") else (word, "", "")
        if name in OPTIONS_WITH_VALUE:
            if glued:
                value = glued
            elif i + 1 < len(words):
                i += 1
                value = words[i]
            else:
                value = ""
            while value.count("[") > value.count("]") and i + 1 < len(words):  # `@book[year <= 2000]`
                i += 1
                value += " " + words[i]
            values[OPTIONS_WITH_VALUE[name]] = value
        elif name in FLAGS:
            values[FLAGS[name]] = True
        elif word.startswith("-"):
            unsupported.append(name)
            if i + 1 < len(words) and not words[i + 1].startswith("-"):
                i += 1  # its value
        else:
            unsupported.append(word)
        i += 1
    limit = values.pop("max", None)
    if limit is not None and not str(limit).isdigit():
        problems.append(f"`--max {limit}` is not a number")
        limit = None
    query = values.pop("query", None)
    selects = bool(values.get("file") or query or values.get("cited") or values.get("cited_in_order")
                   or limit is not None)
    if query is None:  # the site's `scholar.query` (al-folio's `@*` is every entry)
        query = "" if config_query in ("@*", "") else config_query
    return BibOptions(**values, selects=selects, query=query,
                      max=int(limit) if limit is not None else None, unsupported=tuple(unsupported),
                      problems=tuple(problems))


def _compare(actual: str | None, operator: str, wanted: str) -> bool:
    if operator in ("!=", "/="):
        return actual is None or actual != wanted
    if actual is None:
        return False
    if operator == "=":
        return actual == wanted
    if operator == "^=":
        return actual.startswith(wanted)
    if operator == "~=":
        try:
            return re.search(wanted, actual) is not None
        except re.error:
            return wanted in actual
    try:
        left, right = float(actual), float(wanted)
    except ValueError:
        left, right = actual, wanted  # type: ignore[assignment]
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[operator]


def _meets(condition: str, entry: Mapping[str, Any]) -> bool:
    match = _CONDITION.match(condition)
    if match is None:
        raise ValueError(condition)
    name, operator, value = match[1].lower(), match[2], (match[3] or "").strip().strip("\"'")
    fields: Mapping[str, str] = entry.get("fields", {})
    actual = {"type": entry.get("type"), "key": entry.get("key")}.get(name) or fields.get(name)
    if operator is None:
        return bool(actual)
    return _compare(actual, operator, value)


def query_matches(query: str, entry: Mapping[str, Any]) -> bool:
    """Whether an entry is one a bibtex-ruby query selects; ValueError for a query it cannot read."""
    clauses = list(_CLAUSE.finditer(query))
    rest = _CLAUSE.sub("", query).replace(",", " ").replace("||", " ").strip()
    if not clauses or rest:
        raise ValueError(query)
    for clause in clauses:
        negated, kind, conditions = clause[1] == "!", clause[2].lower(), clause[3]
        type_ok = kind == "*" or kind == str(entry.get("type", "")).lower()
        if negated:
            type_ok = not type_ok
        if not type_ok:
            continue
        if not conditions or any(all(_meets(c, entry) for c in re.split(r"&&|,", alternative) if c.strip())
                                 for alternative in conditions.split("||")):
            return True
    return False


def select_entries(options: BibOptions, entries: Sequence[Mapping[str, Any]], cited: Sequence[str],
                   problem: Callable[[str], None]) -> list[Mapping[str, Any]]:
    """The entries the options select, in order (`--max` applied unless grouped); `problem` is told what could
    not be read."""
    chosen = list(entries)
    if options.file:
        name = options.file.removesuffix(".bib").rsplit("/", 1)[-1]
        chosen = [e for e in chosen if e.get("file") == name]
    if options.query:
        try:
            chosen = [e for e in chosen if query_matches(options.query, e)]
        except ValueError:
            problem(f"`--query {options.query}` is not a query sitegen can read: every entry is listed")
    if options.cited_in_order:
        by_key = {e.get("key"): e for e in chosen}
        chosen = [by_key[k] for k in dict.fromkeys(cited) if k in by_key]
    elif options.cited:
        wanted = set(cited)
        chosen = [e for e in chosen if e.get("key") in wanted]
    if options.max is not None and _group(options) == "none":
        chosen = chosen[:options.max]
    return chosen


def _group(options: BibOptions) -> str:
    group = options.group_by.strip().lower()
    return group if group in ("year", "none") else "none"


def render_bibliography(options: BibOptions, entries: Sequence[Mapping[str, Any]], cited: Sequence[str],
                        problem: Callable[[str], None]) -> str:
    """The list the options select, as jekyll-scholar's HTML on one line (Markdown passes it through; the page's
    line numbers stay). `problem` is told what could not be read (the list is still shown)."""
    chosen = select_entries(options, entries, cited, problem)
    if options.group_by.strip().lower() not in ("", "none", "year"):
        problem(f"`group_by: {options.group_by}` is not supported by sitegen (only `year` and `none`): not grouped")
    if _group(options) == "year":
        years = sorted({str(e.get("year") or "") for e in chosen}, reverse=options.group_order.startswith("desc"))
        return "".join(f'<h2 class="bibliography">{html.escape(year)}</h2>' + _list(
            [e for e in chosen if str(e.get("year") or "") == year]) for year in years)
    return _list(chosen)


def _list(entries: Sequence[Mapping[str, Any]]) -> str:
    return '<ol class="bibliography">' + "".join(f"<li>{_reference(e)}</li>" for e in entries) + "</ol>"


def _reference(entry: Mapping[str, Any]) -> str:
    """`Ada Lovelace, Charles Babbage. <a>Title</a>. <em>Venue</em>, 1843.`, the title linking to the entry on
    the publications page."""
    title = html.escape(str(entry.get("title") or entry.get("key") or ""))
    url = str(entry.get("url") or "")
    parts = [html.escape(", ".join(entry.get("authors") or ())),
             f'<a href="{html.escape(url)}">{title}</a>' if url else title,
             ", ".join(x for x in (f"<em>{html.escape(str(entry.get('venue') or ''))}</em>" if entry.get("venue")
                                   else "", html.escape(str(entry.get("year") or ""))) if x)]
    return ". ".join(p for p in parts if p) + "."
