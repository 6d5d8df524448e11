"""The build pipeline, in order. Everything is gathered first, then rendered to memory; nothing is written here.

    load config -> discover sources -> parse pages and data (+ git dates) -> assemble the content tree and taxonomies
    -> render Markdown -> CV pages -> render templates -> CV PDF/JSON and other outputs (feeds, sitemap, ...)
    -> BuildResult

Writing the result is `sitegen.writer.write_output`'s job.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import sitegen
from sitegen.config import SiteConfig, load_config
from sitegen.content.dates import build_time, source_date_epoch
from sitegen.content.gitinfo import apply_git_lastmod
from sitegen.content.page import Page, parse_page
from sitegen.content.sources import SourceFile, Sources, discover_sources, load_data, read_text
from sitegen.content.taxonomies import collect_taxonomies
from sitegen.content.tree import ContentTree, assemble_tree
from sitegen.cv.site import cv_files, plan_cv
from sitegen.cv.source import CVSource, cv_options, discover_cvs
from sitegen.errors import Diagnostic, SitegenError, raise_if_any
from sitegen.markdown import MarkdownRenderer, RenderContext, Rendered
from sitegen.memo import BuildMemo, digest
from sitegen.render_pages import render_pages
from sitegen.templates import UrlHelper, theme_dirs
from sitegen.views import SiteState


@dataclass(frozen=True)
class BuildOptions:
    """What to build and how; the CLI, the dev server and tests all fill this in."""

    source: Path
    """The site folder (holding sitegen.yaml, content/, ...)."""
    drafts: bool = False
    future: bool = False
    base_url: str | None = None
    """Overrides `base_url` from the config (deploys pass the Pages URL)."""
    strict: bool = False
    """Warnings become errors."""
    now: dt.datetime | None = None
    """The build time for future/expiry checks (default: SOURCE_DATE_EPOCH or now)."""


@dataclass
class BuildResult:
    """The whole site in memory: output path -> bytes, plus what the build noticed."""

    files: dict[str, bytes]
    config: SiteConfig
    warnings: list[Diagnostic] = field(default_factory=list)
    pages: int = 0
    """HTML pages rendered."""
    seconds: float = 0.0
    sources: dict[str, str] = field(default_factory=dict)
    """Output path -> the source file it came from (for messages and `sitegen check`)."""
    state: SiteState | None = None


def build_site(options: BuildOptions, memo: BuildMemo | None = None) -> BuildResult:
    """Run the whole pipeline; raises SitegenError/ErrorGroup with every error of the failing phase.

    `memo` carries parsed pages and rendered Markdown from a previous build (dev server, build cache).
    """
    started = time.perf_counter()
    site_dir = options.source
    config, warnings = load_config(site_dir)
    config = _apply_overrides(config, options)
    memo = memo or BuildMemo()
    memo.begin(digest(repr(config) + sitegen.__version__))
    themes = theme_dirs(site_dir, config.theme)
    sources = discover_sources(site_dir, themes)
    pages, data, cvs = _parse_sources(sources, config, site_dir, memo)
    apply_git_lastmod(pages, site_dir, config.enable_git_info)
    now = options.now or build_time()
    drafts = options.drafts or config.build.drafts
    future = options.future or config.build.future
    tree, errors = assemble_tree(pages, [r.rel for r in sources.resources], config,
                                 now=now, drafts=drafts, future=future)
    raise_if_any(errors)
    taxonomies = collect_taxonomies(tree, config.taxonomies)
    renderer = MarkdownRenderer(config.markdown)
    rendered, summaries, link_warnings = _render_markdown(tree, renderer, config, memo)
    warnings.extend(link_warnings)
    state = SiteState(config=config, tree=tree, taxonomies=taxonomies, rendered=rendered, summaries=summaries,
                      data=data, urls=UrlHelper(config), build_date=source_date_epoch())
    cv_plan = plan_cv(state, cvs, cv_options(config))
    files, origins = _copy_assets(sources, tree)
    page_files = render_pages(state, site_dir, themes, renderer, warnings, cv_plan.context)
    files.update(page_files)
    files.update(cv_files(cv_plan, cv_options(config)))
    from sitegen.outputs import generate_outputs

    files.update(generate_outputs(state, site_dir, themes, files))
    if options.strict and warnings:
        raise_if_any([w.to_error() for w in warnings])
    memo.finish()
    return BuildResult(files=dict(sorted(files.items())), config=config, warnings=warnings,
                       pages=len(page_files), seconds=time.perf_counter() - started, sources=origins,
                       state=state)


def _apply_overrides(config: SiteConfig, options: BuildOptions) -> SiteConfig:
    if options.base_url:
        url = options.base_url if options.base_url.endswith("/") else options.base_url + "/"
        config = dataclasses.replace(config, base_url=url)
    return config


def _parse_sources(sources: Sources, config: SiteConfig, site_dir: Path, memo: BuildMemo
                   ) -> tuple[list[Page], dict[str, object], list[CVSource]]:
    """Parse every page, data file and CV, collecting all errors of the phase."""
    errors: list[SitegenError] = list(sources.errors)
    pages: list[Page] = []
    for source in sources.pages:
        try:
            text = read_text(source, "content")
            pages.append(memo.page(source.rel, text, lambda: parse_page(source.rel, text, config)))  # noqa: B023
        except SitegenError as exc:
            errors.append(_in_content(exc, source))
    data = load_data(sources.data, errors)
    cvs, cv_errors = discover_cvs(site_dir, config.language)
    errors.extend(e for e in cv_errors if not any(e.path == d.path and e.line == d.line for d in errors))
    try:
        cv_options(config)
    except SitegenError as exc:
        errors.append(exc)
    raise_if_any(errors)
    return pages, data, cvs


def _in_content(exc: SitegenError, source: SourceFile) -> SitegenError:
    """Page parsing names paths relative to content/; messages name them from the site root."""
    from sitegen.errors import ErrorGroup

    if isinstance(exc, ErrorGroup):
        for err in exc.errors:
            _in_content(err, source)
        return exc
    if exc.path and not exc.path.startswith("content/"):
        exc.path = f"content/{exc.path}"
    return exc


def _render_markdown(tree: ContentTree, renderer: MarkdownRenderer, config: SiteConfig, memo: BuildMemo
                     ) -> tuple[dict[str, Rendered], dict[str, str], list[Diagnostic]]:
    """Render every page's Markdown with links between content files resolved to their URLs."""
    from sitegen.links import LinkResolver

    urls = UrlHelper(config)
    rendered: dict[str, Rendered] = {}
    summaries: dict[str, str] = {}
    warnings: list[Diagnostic] = []
    resolver = LinkResolver(tree, urls)
    for source in sorted(tree.pages):
        page = tree.pages[source]
        result = memo.rendered(source, page.body, page.body_line, resolver.for_page(source),
                               functools.partial(_render_body, renderer, page))
        rendered[source] = result
        if page.summary is not None:
            summaries[source] = renderer.render(page.summary).html
        for link in result.broken_links:
            warnings.append(Diagnostic(f"link to missing content `{link.href}`", path=f"content/{source}",
                                       line=link.line, hint="fix the path, or link to the page's URL"))
    return rendered, summaries, warnings


def _render_body(renderer: MarkdownRenderer, page: Page, resolve: Callable[[str], str | None]) -> Rendered:
    """Render one page's Markdown with a given link resolver."""
    return renderer.render(page.body, RenderContext(source=page.source, body_line=page.body_line,
                                                    resolve_link=resolve))


def _copy_assets(sources: Sources, tree: ContentTree) -> tuple[dict[str, bytes], dict[str, str]]:
    """Static files (theme, then site) and content resources, as bytes."""
    files: dict[str, bytes] = {}
    origins: dict[str, str] = {}
    for f in sources.static:
        files[f.rel] = f.path.read_bytes()
        origins[f.rel] = str(f.path)
    by_rel = {r.rel: r for r in sources.resources}
    for rel, out in tree.resources.items():
        files[out] = by_rel[rel].path.read_bytes()
        origins[out] = f"content/{rel}"
    return files, origins
