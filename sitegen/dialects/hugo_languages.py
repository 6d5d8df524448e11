"""A Hugo site's `[languages]` table read into sitegen's `languages:` (one `Language` each).

    [languages.en]                 [languages.zh]
    languageName = "English"       languageName = "中文"        contentDir = "content/zh"
    weight = 1                     languageCode = "zh-CN"      title = "林雅"
                                   [languages.zh.params]       [[languages.zh.menus.main]]

Hugo's keys map one to one: `languageName` -> `name`, `languageCode` -> `code`, `weight`, `title`,
`contentDir`, `params` (and, as in older Hugo, any other key of the language), `menus.main` / `menu.main`
(`pageRef` is a content path, taken as the page's URL), `params.dateFormat` (a Go layout such as
`January 2, 2006`) -> `date_format`. `disabled = true` and `disableLanguages` leave a language out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sitegen.config import LANGUAGE_KEY, Language, MenuItem
from sitegen.errors import Diagnostic

_LANGUAGE_KEYS = {"languagename", "languagecode", "weight", "title", "contentdir", "params", "menus", "menu",
                  "disabled", "languagedirection", "label", "locale", "direction"}
_GO_LAYOUT = re.compile(r"January|Jan|Monday|Mon|2006|06|01|02|15|03|04|05|_2|1|2|PM|pm|MST|-0700|Z07:00")
_GO_TO_STRFTIME = {"January": "%B", "Jan": "%b", "Monday": "%A", "Mon": "%a", "2006": "%Y", "06": "%y",
                   "01": "%m", "02": "%d", "15": "%H", "03": "%I", "04": "%M", "05": "%S", "_2": "%-d", "1": "%-m",
                   "2": "%-d", "PM": "%p", "pm": "%p", "MST": "%Z", "-0700": "%z", "Z07:00": "%z"}


def go_date_layout(layout: str) -> str:
    """Hugo's (Go's) date layout as a strftime format: `January 2, 2006` -> `%B %-d, %Y`."""
    return _GO_LAYOUT.sub(lambda m: _GO_TO_STRFTIME[m.group(0)], layout.replace("%", "%%"))


def hugo_languages(raw: Any, default_language: str, disabled: list[str], path: str
                   ) -> tuple[tuple[Language, ...], list[Diagnostic]]:
    """The languages of a Hugo config (`[languages]`, `defaultContentLanguage`, `disableLanguages`), the default
    first; a warning for each key that does not map. One language is a site in one language whose title, menu
    and params are that language's (`single_language`)."""
    warnings: list[Diagnostic] = []
    if not isinstance(raw, Mapping) or not raw:
        return (), warnings
    off = {str(d).lower() for d in disabled}
    out: list[Language] = []
    for key, value in raw.items():
        name = str(key)
        if not isinstance(value, Mapping):
            warnings.append(Diagnostic(f"`languages.{name}` is not a table: left out", path=path))
            continue
        if name.lower() in off or value.get("disabled") is True:
            continue
        if not LANGUAGE_KEY.match(name):
            warnings.append(Diagnostic(f"`languages.{name}` is not a language code sitegen can use: left out",
                                       path=path, hint="name languages with codes such as `en`, `zh`, `pt-br`"))
            continue
        out.append(_language(name, value, path, warnings))
    default = default_language or "en"
    out.sort(key=lambda lang: (lang.key.lower() != default.lower(), lang.weight, lang.key))
    return tuple(out), warnings


def _language(key: str, value: Mapping[str, Any], path: str, warnings: list[Diagnostic]) -> Language:
    lowered = {str(k).lower(): v for k, v in value.items()}
    params = dict(lowered.get("params") or {}) if isinstance(lowered.get("params"), Mapping) else {}
    # Older Hugo sites put a language's params straight into its table.
    params.update({str(k): v for k, v in value.items() if str(k).lower() not in _LANGUAGE_KEYS})
    weight = lowered.get("weight", 0)
    weight = weight if isinstance(weight, int) and not isinstance(weight, bool) else 0
    layout = next((params[k] for k in ("dateFormat", "DateFormat", "dateformat", "date_format") if k in params), None)
    content_dir = lowered.get("contentdir")
    menus = lowered.get("menus") if isinstance(lowered.get("menus"), Mapping) else lowered.get("menu")
    menu = _menu(menus.get("main") if isinstance(menus, Mapping) else None, key, path, warnings)
    text = {k: str(lowered[k]) if lowered.get(k) is not None else None
            for k in ("languagename", "languagecode", "title", "label", "locale")}
    return Language(key=key, code=text["languagecode"] or text["locale"] or "",
                    name=text["languagename"] or text["label"] or "", weight=weight, title=text["title"],
                    description=str(params["description"]) if params.get("description") else None,
                    menu=menu, params=params, date_format=go_date_layout(str(layout)) if layout else None,
                    content_dir=str(content_dir) if content_dir else None)


def _menu(items: Any, key: str, path: str, warnings: list[Diagnostic]) -> tuple[MenuItem, ...] | None:
    if not isinstance(items, list):
        return None
    out = []
    for item in items:
        if not isinstance(item, Mapping) or "name" not in item:
            continue
        url = item.get("url") or item.get("pageRef") or item.get("pageref")
        if not url:
            warnings.append(Diagnostic(f"menu entry `{item['name']}` of `languages.{key}` has no `url` or "
                                       "`pageRef`: left out", path=path))
            continue
        url = str(url)
        if "pageRef" in item or "pageref" in item:
            url = "/" + url.strip("/").removesuffix(".md").removesuffix("/_index").removesuffix("_index") + "/"
            url = url.replace("//", "/")
        weight = item.get("weight", 0)
        out.append(MenuItem(str(item["name"]), url, weight if isinstance(weight, int) else 0))
    return tuple(sorted(out, key=lambda m: m.weight))


def single_language(languages: tuple[Language, ...]) -> dict[str, Any]:
    """SiteConfig fields of a Hugo site that configures one language under `[languages]`: its title, menu, params
    and language code."""
    if len(languages) != 1:
        return {}
    lang = languages[0]
    fields: dict[str, Any] = {"language": lang.tag}
    if lang.title:
        fields["title"] = lang.title
    if lang.menu is not None:
        fields["menu"] = lang.menu
    if lang.description:
        fields["description"] = lang.description
    if lang.date_format:
        fields["date_format"] = lang.date_format
    return fields
