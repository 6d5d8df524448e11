"""The build pipeline, in order. Everything is gathered first, then rendered to memory; nothing is written here.

    load config -> discover sources -> parse pages and data (+ git dates) -> assemble the content tree and taxonomies
    -> render Markdown -> CV and publications pages -> render templates -> CV PDF/JSON and other outputs
    (feeds, sitemap, ...)
    -> BuildResult

Writing the result is `sitegen.writer.write_output`'s job.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path

import sitegen
from sitegen.config import SiteConfig, load_config
from sitegen.content.dates import build_time, source_date_epoch
from sitegen.content.gitinfo import apply_git_lastmod
from sitegen.content.page import Page, page_warnings, parse_page
from sitegen.content.sources import SourceFile, Sources, discover_sources, load_data, read_bytes, read_text
from sitegen.content.taxonomies import collect_taxonomies
from sitegen.content.tree import ContentTree, assemble_tree, left_out_warnings
from sitegen.cv.glyphs import cv_glyph_warnings
from sitegen.cv.publication import Publication
from sitegen.cv.pubpage import plan_publications
from sitegen.cv.site import cv_files, plan_cv
from sitegen.cv.source import CVSource, cv_options, discover_bibtex, discover_cvs
from sitegen.errors import Diagnostic, SitegenError, raise_if_any
from sitegen.incremental import RebuildBasis
from sitegen.links import LinkResolver, broken_link_warnings
from sitegen.markdown import MarkdownRenderer, Rendered
from sitegen.memo import BuildMemo, digest
from sitegen.parallel import render_many
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
    jobs: int | None = None
    """Processes for rendering (None: one per core when the site is large; 1: in-process)."""


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
    basis: RebuildBasis | None = None
    """What the dev server's quick rebuilds reuse (`sitegen.incremental`)."""


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
    sources = discover_sources(site_dir, themes, allow_outside=config.allow_symlinks_outside)
    pages, data, cvs, publications = _parse_sources(sources, config, site_dir, memo)
    apply_git_lastmod(pages, site_dir, config.enable_git_info)
    now = options.now or build_time()
    drafts = options.drafts or config.build.drafts
    future = options.future or config.build.future
    tree, errors = assemble_tree(pages, [r.rel for r in sources.resources], config,
                                 now=now, drafts=drafts, future=future)
    raise_if_any(errors)
    warnings.extend(page_warnings(pages) + left_out_warnings(tree, pages, now))
    taxonomies = collect_taxonomies(tree, config.taxonomies)
    renderer = MarkdownRenderer(config.markdown)
    rendered, summaries, link_warnings = _render_markdown(tree, renderer, config, memo, options.jobs)
    warnings.extend(link_warnings)
    state = SiteState(config=config, tree=tree, taxonomies=taxonomies, rendered=rendered, summaries=summaries,
                      data=data, urls=UrlHelper(config), build_date=source_date_epoch())
    options_cv = cv_options(config)
    cv_plan = plan_cv(state, cvs, options_cv, publications)
    warnings.extend(cv_glyph_warnings(site_dir, sorted({c.path for c in cvs}), options_cv.fonts,
                                      options_cv.font_paths))
    pub_context = plan_publications(state, publications, cvs, options_cv.name_variants)
    files, origins = _copy_assets(sources, tree)
    site_key = digest(f"{memo.config_key}\x00{data!r}\x00{[c.data for c in cvs]!r}\x00{publications!r}"
                      f"\x00{state.build_date}")
    page_context = {**cv_plan.context, **pub_context}
    page_files = render_pages(state, site_dir, themes, renderer, warnings, page_context, memo, site_key,
                              options.jobs)
    files.update(page_files)
    files.update(cv_files(cv_plan, options_cv, memo))
    from sitegen.outputs import generate_outputs

    basis = RebuildBasis(site_dir, themes, renderer, page_context, site_key, sources.pages, dict(files))
    files.update(generate_outputs(state, site_dir, themes, files, memo))
    if options.strict and warnings:
        raise_if_any([w.to_error() for w in warnings])
    memo.finish()
    return BuildResult(files=dict(sorted(files.items())), config=config, warnings=warnings,
                       pages=len(page_files), seconds=time.perf_counter() - started, sources=origins,
                       state=state, basis=basis)


def _apply_overrides(config: SiteConfig, options: BuildOptions) -> SiteConfig:
    if options.base_url:
        url = options.base_url if options.base_url.endswith("/") else options.base_url + "/"
        config = dataclasses.replace(config, base_url=url)
    return config


def _parse_sources(sources: Sources, config: SiteConfig, site_dir: Path, memo: BuildMemo
                   ) -> tuple[list[Page], dict[str, object], list[CVSource], list[Publication]]:
    """Parse every page, data file, CV and BibTeX file, collecting all errors of the phase."""
    errors: list[SitegenError] = list(sources.errors)
    pages: list[Page] = []
    for source in sources.pages:
        try:
            text = read_text(source, "content")
            pages.append(memo.page(source.rel, text, lambda: parse_page(source.rel, text, config)))  # noqa: B023
        except SitegenError as exc:
            errors.append(_in_content(exc, source))
    data = load_data(sources.data, errors)
    cvs, cv_errors = discover_cvs(site_dir, config.language, allow_outside=config.allow_symlinks_outside)
    errors.extend(e for e in cv_errors if not any(e.path == d.path and e.line == d.line for d in errors))
    try:
        bibtex_paths = cv_options(config).bibtex
    except SitegenError as exc:
        errors.append(exc)
        bibtex_paths = None
    publications, bib_errors = discover_bibtex(site_dir, bibtex_paths, config.path,
                                               functools.partial(_parse_bibtex, memo),
                                               allow_outside=config.allow_symlinks_outside)
    errors.extend(bib_errors)
    raise_if_any(errors)
    return pages, data, cvs, publications


def _parse_bibtex(memo: BuildMemo, text: str, path: str) -> tuple[list[Publication], list[SitegenError]]:
    """parse_bibtex, once per distinct file text (pylatexenc takes ~1 ms an entry)."""
    from sitegen.cv.bibtex import parse_bibtex  # bibtexparser is loaded only for sites with .bib files

    blob = memo.blob(f"bibtex:{digest(path + chr(0) + text)}", lambda: pickle.dumps(parse_bibtex(text, path)))
    result: tuple[list[Publication], list[SitegenError]] = pickle.loads(blob)  # noqa: S301 - our own memo
    return result


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


def _render_markdown(tree: ContentTree, renderer: MarkdownRenderer, config: SiteConfig, memo: BuildMemo,
                     jobs: int | None) -> tuple[dict[str, Rendered], dict[str, str], list[Diagnostic]]:
    """Render every page's Markdown (reusing the memo, in parallel when large) with links resolved to URLs."""
    urls = UrlHelper(config)
    resolver = LinkResolver(tree, urls)
    rendered: dict[str, Rendered] = {}
    for source in sorted(tree.pages):
        page = tree.pages[source]
        cached = memo.cached_markdown(source, page.body, page.body_line, resolver.for_page(source))
        if cached is not None:
            rendered[source] = cached
    missing = [s for s in sorted(tree.pages) if s not in rendered]
    for source, (result, links) in render_many(tree, renderer, urls, missing, jobs).items():
        page = tree.pages[source]
        memo.store_markdown(source, page.body, page.body_line, result, links)
        rendered[source] = result
    summaries: dict[str, str] = {}
    warnings: list[Diagnostic] = []
    for source in sorted(tree.pages):
        page = tree.pages[source]
        if page.summary is not None:
            text = page.summary
            summaries[source] = memo.blob(f"summary:{digest(text)}",
                                          functools.partial(_render_summary, renderer, text)).decode()
        warnings.extend(broken_link_warnings(source, rendered[source]))
    return dict(sorted(rendered.items())), summaries, warnings


def _render_summary(renderer: MarkdownRenderer, text: str) -> bytes:
    return renderer.render(text).html.encode()


def _copy_assets(sources: Sources, tree: ContentTree) -> tuple[dict[str, bytes], dict[str, str]]:
    """Static files (theme, then site) and content resources, as bytes."""
    files: dict[str, bytes] = {}
    origins: dict[str, str] = {}
    for f in sources.static:
        files[f.rel] = read_bytes(f, "static")
        origins[f.rel] = str(f.path)
    by_rel = {r.rel: r for r in sources.resources}
    for rel, out in tree.resources.items():
        files[out] = read_bytes(by_rel[rel], "content")
        origins[out] = f"content/{rel}"
    return files, origins
