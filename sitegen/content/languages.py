"""Languages of a multilingual site: whose pages are whose, and which pages translate each other.

    parsed pages -> split by language (`about.zh.md`, `content/zh/about.md`) -> one page set per language,
    each with the language's own config (title, menu, params, URL prefix) -> planned like a one-language site
    -> translations linked across the planned languages (same path, or the same `translationKey`)

A translation's source inside its language is the path without the language (`about.zh.md` and
`zh/about.md` are both `about.md` of `zh`), so sections, bundles and links work in each language as in a
one-language site; `origins` maps it back to the file for messages. Each language's URLs are language-relative
(`/about/`) and its `UrlHelper` adds the prefix (`/zh/about/`), so URLs of two languages never collide.

A site without `languages:` is one language; a translation file of a language it does not configure
(`about.fr.md` beside `about.md`) is left out with one warning per language, as Hugo leaves out files of
languages it does not know (never a URL collision).
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sitegen.config import Language, SiteConfig
from sitegen.content.page import Page
from sitegen.content.urls import UrlHelper, under_any
from sitegen.errors import ContentError, Diagnostic, SitegenError

_SUFFIX = re.compile(r"^(?P<stem>.+)\.(?P<lang>[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?)(?P<ext>\.(?:md|markdown))$")
"""`about.zh.md`: a page name, a language code and the Markdown extension."""


@dataclass(frozen=True)
class LanguageSite:
    """One language's part of the site, ready to plan like a site of its own."""

    language: Language | None
    """None for a site in one language."""
    config: SiteConfig
    """The site's config as this language sees it (title, menu, params, `language`, `language_prefix`)."""
    pages: list[Page]
    """Its pages, with language-free sources (`about.md`)."""
    resources: list[str]
    """Content files it publishes, language-free paths."""
    origins: dict[str, str] = field(default_factory=dict)
    """Language-free source -> the file's real content-relative path, where they differ."""
    output_prefix: str = ""
    """Where its files go in the output (`zh/`); `""` for the default language at the root."""

    @property
    def key(self) -> str:
        """The language's key (`zh`), `""` for a one-language site."""
        return self.language.key if self.language else ""


def language_of_file(rel: str, keys: Iterable[str] = ()) -> tuple[str, str] | None:
    """(language, path without it) for a translation file name: `about.zh.md` -> (`zh`, `about.md`).

    With `keys` (configured languages), only those count; without, any code-like suffix does."""
    match = _SUFFIX.match(posixpath.basename(rel))
    if match is None:
        return None
    lang = match.group("lang")
    known = list(keys)
    if known and lang not in known:
        return None
    folder = posixpath.dirname(rel)
    name = match.group("stem") + match.group("ext")
    return lang, posixpath.join(folder, name) if folder else name


def _is_untranslated_name(rel: str, lang: str, stripped: str, all_rels: set[str]) -> bool:
    """Whether `about.fr.md` is a translation (its untranslated page exists, or it is an `index`/`_index`), not
    a page whose name just has a dot in it (`notes.v2.md`)."""
    del lang
    base = posixpath.basename(stripped)
    if base.startswith(("index.", "_index.")):
        return True
    stem = posixpath.splitext(stripped)[0]
    return any(f"{stem}{ext}" in all_rels for ext in (".md", ".markdown"))


def split_languages(config: SiteConfig, pages: list[Page], resources: list[str]
                    ) -> tuple[list[LanguageSite], list[SitegenError], list[Diagnostic]]:
    """One `LanguageSite` per language, the default first; errors (two files for one page of a language) and
    warnings (translation files of languages the site does not configure, left out)."""
    rels = {p.source for p in pages}
    warnings: list[Diagnostic] = []
    left: dict[str, list[str]] = {}
    if not config.languages:
        kept = []
        for page in pages:
            found = language_of_file(page.source)
            if found and _is_untranslated_name(page.source, *found, rels):
                left.setdefault(found[0], []).append(page.source)
            else:
                kept.append(page)
        warnings += _unconfigured_warnings(left, config)
        return [LanguageSite(None, config, kept, resources)], [], warnings
    languages = config.languages
    keys = [lang.key for lang in languages]
    for lang in languages:
        if lang.content_dir and not lang.content_dir.strip("/").startswith("content/"):
            warnings.append(Diagnostic(
                f"the `{lang.key}` pages in {lang.content_dir}/ are not read: sitegen reads languages' folders "
                f"inside content/ only", path=config.path,
                hint=f"move them to content/{lang.key}/ (or name them `*.{lang.key}.md` inside content/)"))
    folders = {_folder_of(lang): lang.key for lang in languages}
    by_lang: dict[str, list[Page]] = {k: [] for k in keys}
    origins: dict[str, dict[str, str]] = {k: {} for k in keys}
    errors: list[SitegenError] = []
    for page in pages:
        key, logical = _place(page.source, folders, keys[0])
        in_folder = logical != page.source
        found = language_of_file(logical)
        if found and found[0] in keys and (not in_folder or found[0] == key):
            key, logical = found
        elif found and found[0] not in keys and _is_untranslated_name(logical, *found, rels):
            left.setdefault(found[0], []).append(page.source)
            continue
        if logical in origins[key]:
            errors.append(ContentError(
                f"two files are the {key} page `{logical}`: content/{origins[key][logical]} and "
                f"content/{page.source}", path=f"content/{page.source}", hint="remove or rename one of them"))
            continue
        origins[key][logical] = page.source
        by_lang[key].append(page if logical == page.source else _renamed(page, logical, key))
    warnings += _unconfigured_warnings(left, config)
    sites = []
    for lang in languages:
        bundles = {posixpath.dirname(p.source) for p in by_lang[lang.key] if p.is_bundle}
        mine = [_strip_folder(r, folders) for r in resources if _folder_key(r, folders) == lang.key]
        shared = [r for r in resources if _folder_key(r, folders) is None]
        if lang.key != keys[0]:  # bundle resources go with each language's bundle; loose files stay at the root
            shared = [r for r in shared if under_any(r, bundles)]
        sites.append(LanguageSite(lang, language_config(config, lang), by_lang[lang.key], sorted({*mine, *shared}),
                                  {k: v for k, v in origins[lang.key].items() if k != v},
                                  output_prefix=prefix_of(config, lang).lstrip("/")))
    return sites, errors, warnings


def prefix_of(config: SiteConfig, lang: Language) -> str:
    """A language's URL prefix: `/` for the default language (unless `default_language_in_subdir`), else
    `url_prefix` or `/<key>/`."""
    if lang.key == config.languages[0].key and not config.default_language_in_subdir:
        return "/"
    return lang.url_prefix or f"/{lang.key}/"


def language_config(config: SiteConfig, lang: Language) -> SiteConfig:
    """The site's config for one of its languages."""
    default = config.languages[0]
    return dataclasses.replace(
        config, title=lang.title or (default.title if default.title else config.title),
        description=lang.description if lang.description is not None else (default.description or config.description),
        menu=lang.menu if lang.menu is not None else (default.menu if default.menu is not None else config.menu),
        params={**config.params, **lang.params}, language=lang.tag,
        date_format=lang.date_format or config.date_format,
        language_prefix="" if prefix_of(config, lang) == "/" else prefix_of(config, lang))


def _folder_of(lang: Language) -> str:
    """The content folder of a language: its `content_dir` inside content/, else `content/<key>/`."""
    folder = (lang.content_dir or "").strip("/")
    folder = folder.removeprefix("content/") if folder.startswith("content/") else ""
    return folder or lang.key


def _folder_key(rel: str, folders: Mapping[str, str]) -> str | None:
    for folder, key in folders.items():
        if rel.startswith(folder + "/"):
            return key
    return None


def _strip_folder(rel: str, folders: Mapping[str, str]) -> str:
    for folder in folders:
        if rel.startswith(folder + "/"):
            return rel[len(folder) + 1:]
    return rel


def _place(rel: str, folders: Mapping[str, str], default: str) -> tuple[str, str]:
    """(language, path inside it) by folder: `zh/about.md` -> (`zh`, `about.md`); else the default language."""
    key = _folder_key(rel, folders)
    return (key, _strip_folder(rel, folders)) if key else (default, rel)



def _renamed(page: Page, logical: str, lang: str) -> Page:
    """The page under its language-free source; a slug or title taken from the file name loses the language."""
    old_stem, new = page.stem, dataclasses.replace(page, source=logical)
    slug = page.slug[:-len(lang) - 1] if page.slug and page.slug.endswith(f".{lang}") else page.slug
    title = new.stem if page.title == old_stem else page.title
    return dataclasses.replace(new, slug=slug, title=title)


def _unconfigured_warnings(left: Mapping[str, list[str]], config: SiteConfig) -> list[Diagnostic]:
    out = []
    for lang, files in sorted(left.items()):
        files = sorted(files)
        shown = ", ".join(f"content/{f}" for f in files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        how = (f"add `{lang}: {{}}` under `languages:` in {config.path}" if config.languages else
               f"add `languages: {{{config.language.split('-')[0]}: {{}}, {lang}: {{}}}}` to {config.path}")
        out.append(Diagnostic(
            f"{len(files)} translation file(s) in `{lang}`, a language the site does not configure, are left out "
            f"(as Hugo leaves them out): {shown}", path=f"content/{files[0]}",
            hint=f"to publish them as the {lang} version of their pages, {how}"))
    return out


@dataclass(frozen=True)
class Version:
    """One language's version of a page, as a switcher or `hreflang` link shows it."""

    key: str
    """Language key (`zh`)."""
    tag: str
    """BCP 47 tag for `hreflang` (`zh-CN`)."""
    name: str
    """Shown in the switcher (`中文`)."""
    url: str
    """Site-relative URL with the base path."""
    permalink: str
    """Absolute URL."""


@dataclass(frozen=True)
class Translations:
    """What one language's plan knows of the site's other languages."""

    key: str
    """This language."""
    default: str
    """The default language."""
    homes: tuple[Version, ...]
    """Every language's home, in language order."""
    versions: dict[str, tuple[Version, ...]]
    """Page source -> every language's version of it (this one's included), for pages that have a translation."""


@dataclass(frozen=True)
class PlannedLanguage:
    """What linking translations reads of one planned language."""

    language: Language
    urls: Mapping[str, str]
    """Source -> language-relative site path."""
    pages: Mapping[str, Page]
    helper: UrlHelper
    keys: Mapping[str, str] = field(default_factory=dict)
    """Sources whose translation key is not their source (generated CV pages: `_cv/main`)."""


def translation_key(source: str, page: Page, keys: Mapping[str, str]) -> str | None:
    """What a page has in common with its translations: `translationKey`, else its language-free source; None
    for pages that are never translations (404)."""
    if page.kind == "404":
        return None
    given = page.params.get("translationKey")
    if isinstance(given, str | int) and not isinstance(given, bool) and str(given):
        return f"key:{given}"
    return keys.get(source, source)


def link_translations(planned: list[PlannedLanguage]) -> list[Translations]:
    """For each language, in the same order: the versions of each of its pages in every language."""
    by_key: dict[str, list[tuple[int, str]]] = {}
    for i, lang in enumerate(planned):
        for source in sorted(lang.urls):
            key = translation_key(source, lang.pages[source], lang.keys)
            if key is not None:
                by_key.setdefault(key, []).append((i, source))

    def version(i: int, source: str) -> Version:
        lang = planned[i]
        path = lang.urls[source]
        return Version(lang.language.key, lang.language.tag, lang.language.name or lang.language.key,
                       lang.helper.url(path), lang.helper.absurl(path))

    homes = tuple(version(i, "_index.md") for i, lang in enumerate(planned) if "_index.md" in lang.urls)
    versions: list[dict[str, tuple[Version, ...]]] = [{} for _ in planned]
    for members in by_key.values():
        langs = [i for i, _ in members]
        if len(set(langs)) < 2:
            continue
        first: dict[int, str] = {}
        for i, source in members:
            first.setdefault(i, source)  # two pages of one language sharing a translationKey: the first
        linked = tuple(version(i, s) for i, s in sorted(first.items()))
        for i, source in members:
            versions[i][source] = linked
    default = planned[0].language.key if planned else ""
    return [Translations(lang.language.key, default, homes, versions[i]) for i, lang in enumerate(planned)]
