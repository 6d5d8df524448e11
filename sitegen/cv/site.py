"""The CV inside a site: which pages show it, and the PDF and JSON Resume files beside them.

    data/cv.yaml      -> /cv/ (content/cv.md supplies title and intro), /cv.pdf, /cv.json
    data/cv.zh.yaml   -> /zh/cv/, /zh/cv.pdf, /zh/cv.json (linked to each other with hreflang)
    data/*.bib        -> the publications of every CV above (with those its file lists, newest first)
    cv.variants.short -> /cv/short/, /cv-short.pdf, /cv-short.json (and per language)
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

from sitegen.content.page import Page
from sitegen.content.tree import ContentTree
from sitegen.content.urls import UrlHelper, output_path_for
from sitegen.cv.html import CVPage
from sitegen.cv.i18n import labels
from sitegen.cv.jsonresume import json_resume_bytes
from sitegen.cv.model import CV, build_cv
from sitegen.cv.pdf import render_pdf
from sitegen.cv.publication import Publication, merge_publications
from sitegen.cv.source import CVOptions, CVSource
from sitegen.errors import ContentError, SitegenError, raise_if_any
from sitegen.memo import BuildMemo, key_of

CV_PAGE = "cv.md"


@dataclass
class CVDocument:
    """One CV to publish: its data, where its page, PDF and JSON go."""

    source: CVSource
    cv: CV
    page_source: str
    pdf_path: str
    json_path: str


@dataclass
class CVPlan:
    """The CV pages of a site and the extra template context each gets."""

    documents: list[CVDocument] = field(default_factory=list)
    context: dict[str, dict[str, Any]] = field(default_factory=dict)
    pages: dict[str, Page] = field(default_factory=dict)
    """Generated CV pages to add to the tree, by source."""
    urls: dict[str, str] = field(default_factory=dict)
    """Their site paths."""
    intros: dict[str, str] = field(default_factory=dict)
    """Generated CV page -> the content page whose rendered Markdown it shows as its introduction."""


def _paths(lang: str, default: bool, variant: str) -> tuple[str, str, str]:
    prefix = "" if default else f"/{lang}"
    page = f"{prefix}/cv/{variant}/" if variant else f"{prefix}/cv/"
    stem = f"{prefix}/cv-{variant}" if variant else f"{prefix}/cv"
    return page, f"{stem}.pdf".lstrip("/"), f"{stem}.json".lstrip("/")


def plan_cv(tree: ContentTree, urls: UrlHelper, sources: list[CVSource], options: CVOptions,
            publications: list[Publication] | None = None) -> CVPlan:
    """Decide the CV pages to add to the assembled tree and every CV file (pure: the tree is not changed).

    Publications from BibTeX join every CV, newest first with the ones its file lists (`merge_publications`).
    """
    plan = CVPlan()
    if not sources:
        return plan
    sources = [dataclasses.replace(s, data=merge_publications(s.data, publications or [])) for s in sources]
    default_lang = sources[0].lang
    names = list(options.name_variants) + [str((src.data.get("basics") or {}).get("name") or "") for src in sources]
    base = tree.pages.get(CV_PAGE)
    taken = {output_path_for(u).casefold(): s for s, u in tree.urls.items()}
    errors: list[SitegenError] = []
    for source in sources:
        default = source.lang == default_lang
        for variant_name, variant in [("", {}), *options.variants.items()]:
            url, pdf, json_path = _paths(source.lang, default, variant_name)
            cv = build_cv(source.data, source.lang, names, variant, variant_name)
            if default and not variant_name and base is not None and tree.urls.get(CV_PAGE) == "/cv/":
                page_source = CV_PAGE
            else:
                page_source = f"_cv/{source.lang}/{variant_name or 'main'}"
                title = (base.title if base is not None and default else labels(source.lang).get("cv", "CV"))
                if source.lang.split("-")[0] == "zh" and not (base is not None and default):
                    title = "简历"
                if variant_name:
                    title = f"{title} ({variant_name})"
                page = Page(source=page_source, kind="page", title=title, body=base.body if base and default else "",
                            layout="cv", lang=source.lang, generated=True,
                            description=base.description if base is not None else "")
                if output_path_for(url).casefold() in taken:
                    errors.append(ContentError(
                        f"the CV page {url} collides with content/{taken[output_path_for(url).casefold()]}",
                        path=source.path, hint="rename that page or give it another `url`"))
                    continue
                plan.pages[page_source] = page
                plan.urls[page_source] = url
                if default and base:
                    plan.intros[page_source] = CV_PAGE
            plan.documents.append(CVDocument(source, cv, page_source, pdf, json_path))
    raise_if_any(errors)
    for doc in plan.documents:
        alternates = [{"lang": other.source.lang, "url": urls.url({**tree.urls, **plan.urls}[other.page_source]),
                       "label": labels(doc.source.lang).get("other_language", other.source.lang)}
                      for other in plan.documents
                      if other.cv.variant == doc.cv.variant and other.source.lang != doc.source.lang]
        plan.context[doc.page_source] = {"cv": CVPage(doc.cv, urls.url("/" + doc.pdf_path),
                                                      urls.url("/" + doc.json_path), alternates)}
    return plan


def cv_files(plan: CVPlan, options: CVOptions, date: dt.datetime | None, memo: BuildMemo | None = None
             ) -> dict[str, bytes]:
    """The PDF and JSON Resume file of every CV document, PDFs dated `date` (reused while their CV is
    unchanged)."""
    files: dict[str, bytes] = {}
    memo = memo or BuildMemo()
    for doc in plan.documents:
        key = key_of("pdf", doc.cv, options, date)
        files[doc.pdf_path] = memo.blob(key, functools.partial(
            render_pdf, doc.cv, paper=options.paper, font_paths=options.font_paths, fonts=options.fonts,
            source_label=doc.source.path, date=date))
        files[doc.json_path] = json_resume_bytes(doc.source.data, options.variants.get(doc.cv.variant))
    return files
