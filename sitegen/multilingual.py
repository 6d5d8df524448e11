"""Building a site in several languages: what the build does besides planning and rendering each language.

    split by language (`sitegen.content.languages`) -> plan each language -> `link_plans` (translations, CV
    language links, links to the default language's pages) -> render each -> `merge_files` (each language under
    its prefix) -> `root_files` (the sitemap index; with `default_language_in_subdir`, `/` and `/404.html`)

Messages about a language's pages name its files (`relabel`: `content/about.zh.md`, not `content/about.md`).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, TypeVar

from sitegen.content.languages import LanguageSite, PlannedLanguage, Translations, link_translations
from sitegen.content.urls import UrlHelper
from sitegen.cv.html import CVPage
from sitegen.cv.i18n import labels as cv_labels
from sitegen.cv.source import CVSource
from sitegen.errors import Diagnostic, ErrorGroup, OutputError, SitegenError
from sitegen.outputs.sitemap import sitemap_index
from sitegen.plan import SitePlan
from sitegen.redirects import redirect_page
from sitegen.views import SiteState

_Labelled = TypeVar("_Labelled", Diagnostic, SitegenError)


def cvs_of(cvs: list[CVSource], site: LanguageSite, sites: list[LanguageSite]) -> list[CVSource]:
    """The CVs a language publishes: every CV for a site in one language; else the CV in its language (or,
    for the default language, the one of no other configured language)."""
    if site.language is None:
        return cvs
    others = {s.key for s in sites if s is not site} | {s.language.tag for s in sites if s is not site and s.language}
    mine = {site.key, site.language.tag}
    return [c for c in cvs if c.lang in mine or (site is sites[0] and c.lang not in others)][:1]


def link_plans(sites: list[LanguageSite], plans: list[SitePlan]) -> list[SitePlan]:
    """Each language's plan with the versions of its pages in the other languages."""
    planned = []
    for site, plan in zip(sites, plans, strict=True):
        assert site.language is not None
        keys = {doc.page_source: f"_cv/{doc.cv.variant or 'main'}" for doc in plan.cv.documents}
        planned.append(PlannedLanguage(site.language, plan.tree.urls, plan.tree.pages, plan.urls, keys))
    linked = link_translations(planned)
    plans = [dataclasses.replace(plan, page_context=_cv_alternates(plan, t)) for plan, t in zip(plans, linked,
                                                                                               strict=True)]
    # A language's links to pages only the default language has (menus, Markdown) go to the default's page.
    default = plans[0]
    out = [dataclasses.replace(default, translations=linked[0])]
    for site, plan, translations in zip(sites[1:], plans[1:], linked[1:], strict=True):
        own = set(plan.tree.urls.values())
        fallback = {path: default.urls.localize(path) for path in default.tree.urls.values() if path not in own}
        urls = UrlHelper(site.config, plan.urls.shared, fallback)
        out.append(dataclasses.replace(plan, translations=translations, urls=urls))
    return out


def _cv_alternates(plan: SitePlan, translations: Translations) -> dict[str, dict[str, Any]]:
    """The page context with each CV page's links to its other languages (its "中文版" button)."""
    context = dict(plan.page_context)
    for doc in plan.cv.documents:
        page = context.get(doc.page_source, {}).get("cv")
        versions = [v for v in translations.versions.get(doc.page_source, ()) if v.key != translations.key]
        if isinstance(page, CVPage) and versions:
            label = cv_labels(doc.source.lang).get("other_language") if len(translations.homes) == 2 else None
            alternates = [{"lang": v.tag, "url": v.url, "label": label or v.name} for v in versions]
            context[doc.page_source] = {**context[doc.page_source], "cv": dataclasses.replace(page,
                                                                                             alternates=alternates)}
    return context


def merge_files(files: dict[str, bytes], origins: dict[str, str], own: dict[str, bytes], own_origins: dict[str, str],
                prefix: str, *, default: bool) -> list[SitegenError]:
    """Add a language's files under its prefix; only the default language's `robots.txt` is kept (at the root)."""
    errors: list[SitegenError] = []
    for path, body in own.items():
        if path == "robots.txt" and (prefix or not default):
            if default:
                files.setdefault(path, body)
            continue
        out = prefix + path
        if prefix and out in files:
            errors.append(OutputError(f"two sources write the output file `{out}`: {origins.get(out, 'a file')} "
                                      f"and the `{prefix.rstrip('/')}` version of `{path}`", path=origins.get(out),
                                      hint=f"`{prefix}` is where that language's pages go: move the other file"))
            continue
        files[out] = body
        if path in own_origins:
            origins[out] = own_origins[path]
    return errors


def relabel_language(item: _Labelled, origins: dict[str, str]) -> _Labelled:
    """A message about a language's page names its file (`content/about.zh.md`), not its language-free source."""
    if not origins:
        return item
    names = {f"content/{logical}": f"content/{real}" for logical, real in origins.items()}

    def fix(text: str | None) -> str | None:
        if text is None:
            return None
        for logical, real in names.items():
            if logical in text and real not in text:
                text = re.sub(re.escape(logical) + r"(?![\w./-])", real, text)
        return text

    if isinstance(item, Diagnostic):
        return dataclasses.replace(item, message=fix(item.message) or "", path=fix(item.path))
    if isinstance(item, ErrorGroup):
        for err in item.errors:
            relabel_language(err, origins)
        return item
    item.message, item.path = fix(item.message) or "", fix(item.path)
    item.args = (item.message,)
    return item


def root_files(files: dict[str, bytes], origins: dict[str, str], sites: list[LanguageSite], states: list[SiteState]
               ) -> dict[str, bytes]:
    """The files of the site's root: `/sitemap.xml` as the index of the languages' sitemaps; with the default
    language in its folder, `/` redirecting there and its 404 page also at `/404.html`."""
    out = sitemap_index(files, sites, states)
    prefix = sites[0].output_prefix
    if prefix and "index.html" not in files:
        home = states[0].urls
        out["index.html"] = redirect_page(home.url("/"), home.absurl("/"))
        origins["index.html"] = "the redirect to the default language"
        if f"{prefix}404.html" in files and "404.html" not in files:  # hosts serve /404.html for any missing path
            out["404.html"] = files[f"{prefix}404.html"]
    return out
