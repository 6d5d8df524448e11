"""Theme strings in every language: translation tables, looked up by key with parameters and plurals.

    themes/<theme>/i18n/<lang>.yaml  (the theme's strings)  <-  i18n/<lang>.yaml (the site's: override, extend)
    -> `Strings` -> `Translator(lang)`: `{{ i18n("read_more") }}`, `{{ T("page_n_of_m", n=2, total=5) }}`,
       `{{ i18n("minutes_read", count=3) }}`; `date` and `number` filters in the language's format

A table maps keys to a text, to plural forms (`{one: "{count} minute", other: "{count} minutes"}`) or to a list
(`months`). Hugo's list form (`- id: read_more` / `translation: Read more`) is read too. A lookup tries the
page's language (`zh-CN`, then `zh`), then the site's default language, then English; a multilingual site is
told once, per key and language, about every string its default language has and another language lacks.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from markupsafe import Markup, escape

from sitegen.errors import ContentError, Diagnostic, SitegenError
from sitegen.inputlimits import decode_utf8
from sitegen.yamlload import load_yaml, yaml_error

Entry = str | dict[str, str] | list[str]
"""A table's value: a text, plural forms, or a list (month names)."""
_PLACEHOLDER = re.compile(r"\{\{\s*\.(\w+)\s*\}\}|\{\{\s*\.\s*\}\}|\{(\w+)\}")
"""`{name}` (sitegen), `{{ .Count }}` and `{{ . }}` (Hugo's go-i18n)."""
BASE_LANGUAGE = "en"
"""The language every theme has all its strings in: the last fallback."""


class MissingTranslation(LookupError):
    """A template asked for a string that no translation table has (a typo, or a table not shipped)."""


@dataclass(frozen=True)
class Strings:
    """Every language's table, the site's entries over the theme's (lowercased language keys)."""

    tables: dict[str, dict[str, Entry]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    """Language -> the file to name in messages about it (the site's, else the theme's)."""
    notes: tuple[Diagnostic, ...] = ()
    """Warnings about the tables: values that are not texts (left out), each at its file and line."""

    def chain(self, lang: str, default: str = BASE_LANGUAGE) -> list[str]:
        """The tables a lookup in `lang` tries, in order: `zh-cn`, `zh`, the default language's, `en`."""
        return list(_chain(lang, default))

    def own(self, lang: str) -> dict[str, Entry]:
        """The strings a language has itself (`zh-CN` reads `zh.yaml` too), without fallbacks."""
        tag = lang.lower()
        return {**self.tables.get(tag.split("-")[0], {}), **self.tables.get(tag, {})}

    def lookup(self, lang: str, key: str, default: str = BASE_LANGUAGE) -> Entry | None:
        """The entry for `key` in the first table of the chain that has it."""
        for tag in _chain(lang, default):  # templates look strings up ~60 times a page
            table = self.tables.get(tag)
            if table is not None and key in table:
                return table[key]
        return None


@functools.lru_cache(maxsize=256)
def _chain(lang: str, default: str) -> tuple[str, ...]:
    out: list[str] = []
    for tag in (lang, default, BASE_LANGUAGE):
        tag = tag.lower()
        for candidate in (tag, tag.split("-")[0]):
            if candidate not in out:
                out.append(candidate)
    return tuple(out)


PLURAL_FORMS = frozenset({"zero", "one", "two", "few", "many", "other"})
"""CLDR plural categories: the keys of a plural entry."""


def _key_line(text: str, key: str) -> int | None:
    """The line of `key:` (or go-i18n's `id: key`) in a translation file, for messages."""
    name = re.escape(key)
    found = re.search(rf"^\s*(?:-\s*)?(?:id:\s*)?[\"']?{name}[\"']?\s*:?\s*(?:$|\S)", text, re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _is_text(value: Any) -> bool:
    return isinstance(value, str | int | float) or value is None


def parse_table(text: str, path: str, notes: list[Diagnostic] | None = None) -> dict[str, Entry]:
    """One translation file: a mapping of keys, or Hugo's list of `{id, translation}`. Errors name the file; a
    value that is not a text (`read_more: [1, 2]`), plural forms (`{one: ..., other: ...}`) or a list of texts
    (`months`) is left out, with a warning at its line appended to `notes`."""
    try:
        raw = load_yaml(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        raise yaml_error(exc, ContentError, "YAML", path) from None
    except ValueError as exc:
        raise ContentError(f"cannot read this file: {exc}", path=path) from None
    if isinstance(raw, list):  # Hugo's go-i18n form
        pairs: dict[str, Any] = {}
        for item in raw:
            if not isinstance(item, dict) or "id" not in item:
                raise ContentError("each entry of a list needs `id` and `translation`", path=path)
            pairs[str(item["id"])] = item.get("translation", "")
        raw = pairs
    if not isinstance(raw, dict):
        raise ContentError("a translation table is a mapping of keys to texts", path=path,
                           hint="write `read_more: Read more` lines")
    table: dict[str, Entry] = {}
    for key, value in raw.items():
        if isinstance(value, dict) and all(str(k).lower() in PLURAL_FORMS and _is_text(v) for k, v in value.items()):
            table[str(key)] = {str(k): str(v) for k, v in value.items() if v is not None}
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            table[str(key)] = [str(v) for v in value]
        elif isinstance(value, dict | list):
            if notes is not None:
                shown = "a list" if isinstance(value, list) else "a mapping"
                notes.append(Diagnostic(
                    f"the string `{key}` is {shown}, not a text: left out (the theme's own text is shown)",
                    path=path, line=_key_line(text, str(key)),
                    hint=f"write `{key}: Some text`, plural forms as `{key}: {{one: ..., other: ...}}`, or a list "
                         "of texts (`months`)"))
        elif value is not None:
            table[str(key)] = str(value).lower() if isinstance(value, bool) else str(value)
    return table


def load_strings(site_dir: Path, themes: list[Path], errors: list[SitegenError],
                 base: Mapping[str, Mapping[str, Entry]] | None = None) -> Strings:
    """The theme's tables (least specific theme first), then the site's `i18n/` over them; `base` tables (the
    CV's section titles) come first of all. Errors are appended, not raised."""
    tables: dict[str, dict[str, Entry]] = {lang.lower(): dict(t) for lang, t in (base or {}).items()}
    files: dict[str, str] = {}
    notes: list[Diagnostic] = []
    folders = [(t / "i18n", f"theme:{t.name}/i18n") for t in reversed(themes)] + [(site_dir / "i18n", "i18n")]
    for folder, label in folders:
        if not folder.is_dir():
            continue
        for file in sorted(folder.iterdir()):
            if file.suffix not in (".yaml", ".yml") or not file.is_file():
                continue
            lang, name = file.stem.lower(), f"{label}/{file.name}"
            try:
                table = parse_table(decode_utf8(file.read_bytes(), name), name, notes)
            except SitegenError as exc:
                errors.append(exc)
                continue
            except OSError as exc:
                errors.append(ContentError(f"cannot read the file: {exc.strerror or exc}", path=name))
                continue
            tables[lang] = {**tables.get(lang, {}), **table}
            files[lang] = name
    return Strings(tables, files, tuple(notes))


def missing_warnings(strings: Strings, languages: list[tuple[str, str]]) -> list[Diagnostic]:
    """Once per key and language: each string the default language (first of `languages`, as (key, tag)) has
    that another language lacks, so its text falls back to the default's; one warning for a language without
    any table."""
    if len(languages) < 2:
        return []
    default_key, default_tag = languages[0]
    wanted = {**strings.own(default_key), **strings.own(default_tag)}
    out: list[Diagnostic] = []
    for key, tag in languages[1:]:
        has = {**strings.own(key), **strings.own(tag)}
        if not has:
            out.append(Diagnostic(f"no translation table for `{key}`: the theme's strings are shown in "
                                  f"`{default_key}`", path=f"i18n/{key}.yaml",
                                  hint=f"create i18n/{key}.yaml with the keys of "
                                       f"{strings.files.get(default_key, 'the theme')}"))
            continue
        for name in sorted(set(wanted) - set(has)):
            out.append(Diagnostic(f"the string `{name}` has no `{key}` translation: the `{default_key}` text is "
                                  "shown", path=f"i18n/{key}.yaml", hint=f"add `{name}: ...` to i18n/{key}.yaml"))
    return out


class Translator:
    """The `i18n` (and `T`) template function and the `date` and `number` filters for one language."""

    def __init__(self, strings: Strings, lang: str, default: str = BASE_LANGUAGE,
                 date_format: str | None = None) -> None:
        self.strings = strings
        self.lang = lang
        self.default = default
        self.date_format = date_format
        """The site's or language's own format (`date_format:` in the config), over the table's."""
        self._plain: dict[tuple[str, str], str] = {}
        """Strings asked for without a count or parameters, by key and language (a theme asks for the same
        ones on every page)."""
        self._dates: dict[tuple[str, tuple[str | None, dt.timedelta | None] | None, str | None, str | None], str] = {}
        """Dates formatted, by the date as ISO text (with its offset) and time zone name, format and language (a
        post's date is shown on every list page that shows the post)."""
        self._date_plans: dict[tuple[str | None, str], tuple[str, list[str], list[str]]] = {}
        """What formatting a date reads of the tables, by format and language (`_date_plan`)."""

    def __call__(self, key: str, count: int | float | None = None, *, lang: str | None = None,
                 **params: Any) -> str:
        """The string `key` in this language (or `lang`): `count` picks the plural form and is `{count}`; other
        keyword arguments fill `{name}` placeholders."""
        if count is None and not params:
            found = self._plain.get((key, lang or self.lang))
            if found is None:
                found = self._plain[(key, lang or self.lang)] = self._translate(key, None, lang, params)
            return found
        return self._translate(key, count, lang, params)

    def _translate(self, key: str, count: int | float | None, lang: str | None, params: dict[str, Any]) -> str:
        entry = self.strings.lookup(lang or self.lang, key, self.default)
        if entry is None:
            raise MissingTranslation(f"no string `{key}` in any translation table (i18n/*.yaml)")
        if isinstance(entry, list):
            return ", ".join(entry)
        if isinstance(entry, dict):
            entry = _plural(entry, count)
        if count is not None:
            params.setdefault("count", _number(count, self.strings, lang or self.lang, self.default))
        if any(isinstance(v, Markup) for v in params.values()):
            # A parameter that is HTML (a link): the text is escaped, the HTML kept, the result is HTML.
            safe = {k: v if isinstance(v, Markup) else escape(v) for k, v in params.items()}
            return Markup(_fill(str(escape(entry)), safe))
        return _fill(entry, params)

    def format_date(self, value: dt.datetime | dt.date | None, fmt: str | None = None,
                    lang: str | None = None) -> str:
        """A date in the language's format (`November 24, 2026`, `2026年11月24日`); `fmt` is strftime's, with
        `%-d`/`%-m` without padding and `%B`/`%b` from the table's `months`."""
        if value is None:
            return ""
        if not isinstance(value, dt.date) or not _plain(fmt) or not _plain(lang):
            # Not a date (the error says so, as it did), or a format or language that is not a plain text (a
            # `Markup` format escapes what is put into it): made each time, never taken for an equal text's.
            return self._format_date(value, fmt, lang)
        # Equal aware date-times in two zones differ in text: the key is what strftime reads (the date and time as
        # written, with its offset, zone name and daylight saving), not the value.
        zone = (value.tzname(), value.dst()) if isinstance(value, dt.datetime) else None
        key = (value.isoformat(), zone, fmt, lang)
        found = self._dates.get(key)
        if found is None:
            found = self._dates[key] = self._format_date(value, fmt, lang)
        return found

    def _format_date(self, value: dt.datetime | dt.date, fmt: str | None, lang: str | None) -> str:
        lang = lang or self.lang
        if _plain(fmt) and type(lang) is str:
            plan = self._date_plans.get((fmt, lang))
            if plan is None:
                plan = self._date_plans[(fmt, lang)] = self._date_plan(fmt, lang)
        else:  # (not a plain format or language: made each time; an error says so, as it did)
            plan = self._date_plan(fmt, lang)
        fmt, names, abbr = plan
        fmt = fmt.replace("%B", names[value.month - 1]).replace("%b", abbr[value.month - 1])
        fmt = fmt.replace("%-d", str(value.day)).replace("%-m", str(value.month))
        return value.strftime(fmt)

    def _date_plan(self, fmt: str | None, lang: str) -> tuple[str, list[str], list[str]]:
        """The strftime format of dates asked for with `fmt` in `lang` (before month names and unpadded numbers
        are put in), and the language's month names and their short forms."""
        own = self.date_format if lang == self.lang else None
        if fmt and lang.split("-")[0].lower() in ("zh", "ja") and ("%B" in fmt or "%b" in fmt):
            # A template written for English month names (`%B %-d, %Y`): the language's own order instead.
            key = "date_format" if "%d" in fmt or "%-d" in fmt else "month_year"
            entry = self.strings.lookup(lang, key, self.default)
            fmt = entry if isinstance(entry, str) else "%Y年%-m月%-d日"
        entry = self.strings.lookup(lang, "date_format", self.default)
        fmt = fmt or own or (entry if isinstance(entry, str) else "%B %-d, %Y")
        months = self.strings.lookup(lang, "months", self.default)
        names = months if isinstance(months, list) and len(months) == 12 else _EN_MONTHS
        short = self.strings.lookup(lang, "months_short", self.default)
        abbr = short if isinstance(short, list) and len(short) == 12 else [m[:3] for m in names]
        return fmt, names, abbr

    def number(self, value: int | float, lang: str | None = None) -> str:
        """A number with the language's digit grouping (`12,345` / `12 345`)."""
        return _number(value, self.strings, lang or self.lang, self.default)


def _plain(text: object) -> bool:
    """Whether a format or language is None or a plain `str` (not `Markup`, whose `replace` escapes: equal to the
    same text as a `str`, it must not share its cached answers)."""
    return text is None or type(text) is str


_EN_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"]


def _plural(forms: dict[str, str], count: int | float | None) -> str:
    if count is not None and count == 0 and "zero" in forms:
        return forms["zero"]
    if count is not None and count == 1 and "one" in forms:
        return forms["one"]
    return forms.get("other") or next(iter(forms.values()), "")


def _fill(text: str, params: Mapping[str, Any]) -> str:
    lowered = {k.lower(): v for k, v in params.items()}

    def sub(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name is None:  # `{{ . }}`: the count
            return str(params.get("count", match.group(0)))
        value = params.get(name, lowered.get(name.lower()))
        return match.group(0) if value is None else str(value)

    return _PLACEHOLDER.sub(sub, text)


def _number(value: int | float, strings: Strings, lang: str, default: str) -> str:
    sep = strings.lookup(lang, "thousands_separator", default)
    point = strings.lookup(lang, "decimal_separator", default)
    text = f"{value:,}" if isinstance(value, int) else f"{value:,.2f}".rstrip("0").rstrip(".")
    return text.replace(",", "\x00").replace(".", point if isinstance(point, str) else ".").replace(
        "\x00", sep if isinstance(sep, str) else ",")
