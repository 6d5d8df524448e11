"""The planning step alone: parsed pages in, a frozen site plan out (no files, no rendering)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from sitegen.config import parse_config
from sitegen.content.page import parse_page
from sitegen.cv.source import CVSource, cv_options
from sitegen.errors import ErrorGroup, SitegenError
from sitegen.plan import NOT_FOUND, SitePlan, plan_site

NOW = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


def plan(files: dict[str, str], config: str = "title: T\nbase_url: https://example.org/\n",
         cvs: list[CVSource] | None = None) -> SitePlan:
    cfg, _ = parse_config(config, "sitegen.yaml")
    pages = [parse_page(source, text, cfg) for source, text in files.items()]
    return plan_site(cfg, pages, [], {}, cvs or [], cv_options(cfg), [], now=NOW, drafts=False, future=False,
                     build_date=None)


def test_the_plan_holds_content_and_generated_pages_with_their_urls() -> None:
    site = plan({"posts/a.md": "---\ntitle: A\ndate: 2024-01-02\ntags: [Py]\n---\nbody\n",
                 "about.md": "---\ntitle: About\n---\n"})
    urls = site.tree.urls
    assert urls["posts/a.md"] == "/posts/a/"
    assert urls["about.md"] == "/about/"
    assert urls["_taxonomies/tags"] == "/tags/"
    assert urls["_taxonomies/tags/py"] == "/tags/py/"
    assert urls[NOT_FOUND] == "/404.html"
    assert site.listing_terms["_taxonomies/tags/py"].pages == ["posts/a.md"]
    # Markdown is rendered for the content tree only (sections included), not for generated list pages.
    assert "posts/a.md" in site.content and "posts/_index.md" in site.content
    assert "_taxonomies/tags" not in site.content


def test_the_plan_is_frozen() -> None:
    site = plan({"a.md": "---\ntitle: A\n---\n"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        site.tree = site.tree  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        site.tree.pages = {}  # type: ignore[misc]


def test_a_cv_gets_a_generated_page_and_its_context() -> None:
    cv = CVSource(path="data/cv.yaml", lang="en", data={"basics": {"name": "Ada"}})
    site = plan({"a.md": "---\ntitle: A\n---\n"}, cvs=[cv])
    assert site.tree.urls["_cv/en/main"] == "/cv/"
    assert "_cv/en/main" not in site.content
    assert site.page_context["_cv/en/main"]["cv"].pdf_url == "/cv.pdf"


def test_a_url_collision_names_both_sources() -> None:
    with pytest.raises(SitegenError) as caught:
        plan({"a.md": "---\ntitle: A\nurl: /same/\n---\n", "b.md": "---\ntitle: B\nurl: /same/\n---\n"})
    errors = caught.value.errors if isinstance(caught.value, ErrorGroup) else [caught.value]
    assert any("content/a.md" in e.message and "content/b.md" in e.message for e in errors)


def test_a_content_page_at_a_taxonomy_url_is_kept() -> None:
    site = plan({"p.md": "---\ntitle: P\ntags: [x]\n---\n", "tags/_index.md": "---\ntitle: My tags\n---\n"})
    assert site.tree.urls["tags/_index.md"] == "/tags/"
