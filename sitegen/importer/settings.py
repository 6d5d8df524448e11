"""Write a SiteConfig as the `sitegen.yaml` of an imported site: only what differs from sitegen's defaults."""

from __future__ import annotations

import dataclasses
from typing import Any

import yaml

from sitegen.config import Language, SiteConfig
from sitegen.errors import Diagnostic

_NOT_WRITTEN = frozenset({"path", "site_layouts", "layout", "dialect_settings", "weight_first"})
"""Fields that describe the site read in place, not the new one (`site_layouts: false` says a Hugo site's
`layouts/` hold Go templates, `layout` where a Jekyll site keeps its pages, `dialect_settings` its permalink
rules: the new site has sitegen's folders, its own templates in `layouts/` and the URLs written in its pages)."""
_HEADER = "# Written by `sitegen import`; every key is described in docs/configuration.md.\n"


def config_values(config: SiteConfig) -> dict[str, Any]:
    """The keys of sitegen.yaml that differ from the defaults, in the order of SiteConfig's fields."""
    default = SiteConfig()
    out: dict[str, Any] = {}
    for f in dataclasses.fields(SiteConfig):
        if f.name in _NOT_WRITTEN:
            continue
        value = getattr(config, f.name)
        if f.name in ("title", "base_url") or value != getattr(default, f.name):
            out[f.name] = _languages(value) if f.name == "languages" else _plain(value)
    return out


def _languages(languages: tuple[Language, ...]) -> dict[str, Any]:
    """`languages:` is a mapping keyed by the language's name, each holding only the values that are set."""
    return {lang.key: {k: v for k, v in _plain(lang).items() if k != "key" and v not in (None, "", {}, 0)}
            for lang in languages}


def config_text(config: SiteConfig) -> str:
    """sitegen.yaml for `config` (loads back to the same values)."""
    return _HEADER + yaml.safe_dump(config_values(config), sort_keys=False, allow_unicode=True, width=1000)


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def without_theme_links(config: SiteConfig) -> tuple[SiteConfig, list[Diagnostic]]:
    """Menu entries that link to a section of the old theme's home page (`#featured`, Wowchemy's widgets):
    sitegen's home page has no such section, so they are left out, each with a note."""
    kept, notes = [], []
    for item in config.menu:
        if item.url.startswith(("#", "/#")):
            notes.append(Diagnostic(f"menu entry `{item.name}` links to `{item.url}`, a section of the old "
                                           "theme's home page: left out", path=config.path,
                                           hint="add it again in sitegen.yaml with the URL of a page"))
        else:
            kept.append(item)
    return (dataclasses.replace(config, menu=tuple(kept)) if notes else config), notes


def with_moved_paths(config: SiteConfig, moved: dict[str, str]) -> SiteConfig:
    """Config values naming files of the source folder, made to name where the import put them
    (`cv.bibtex: [_bibliography/papers.bib]` -> `[data/papers.bib]`)."""
    bibtex = config.cv.get("bibtex")
    if not isinstance(bibtex, list):
        return config
    return dataclasses.replace(config, cv={**config.cv, "bibtex": [moved.get(str(p), p) for p in bibtex]})


def author_from_params(config: SiteConfig) -> SiteConfig:
    """Hugo themes' `params.author: "Ann"` (or a list of names) is the site's author; sitegen's `params.author` is
    the author card's mapping (`photo`, `role`...), so the name moves to `author.name`."""
    value = config.params.get("author")
    if isinstance(value, dict) or value is None:
        return config
    names = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    params = {k: v for k, v in config.params.items() if k != "author"}
    author = config.author if config.author.name or not names else dataclasses.replace(config.author, name=names[0])
    return dataclasses.replace(config, params=params, author=author)
