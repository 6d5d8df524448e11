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
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from sitegen.config import SiteConfig
from sitegen.content.dates import build_time, source_date_epoch
from sitegen.content.gitinfo import apply_git_lastmod
from sitegen.content.languages import LanguageSite, split_languages
from sitegen.content.page import Page, page_warnings, parse_page
from sitegen.content.sources import SourceFile, Sources, discover_sources, load_data, read_bytes, read_text
from sitegen.content.tree import ContentTree, left_out_warnings
from sitegen.content.urls import UrlHelper, output_path_for
from sitegen.cv.glyphs import cv_glyph_warnings
from sitegen.cv.i18n import LABELS as CV_LABELS
from sitegen.cv.publication import Publication
from sitegen.cv.site import cv_files
from sitegen.cv.source import CVOptions, CVSource, cv_options, discover_bibtex, discover_cvs
from sitegen.dialects import Dialect, detect_dialect
from sitegen.dialects.shortcodes import ONCE_PER_SITE
from sitegen.errors import Diagnostic, ErrorGroup, SitegenError, raise_if_any
from sitegen.i18n import Strings, load_strings, missing_warnings
from sitegen.images import ImageCatalog, ImageSettings, image_target, image_warnings
from sitegen.links import LinkResolver, broken_link_warnings
from sitegen.markdown import MarkdownRenderer, Rendered
from sitegen.memo import BuildMemo, config_key, digest, key_of, site_inputs_key, stable
from sitegen.multilingual import cvs_of, link_plans, merge_files, relabel_language, root_files
from sitegen.outputs import generate_outputs
from sitegen.owners import OutputOwners
from sitegen.parallel import cores, map_in_two, render_many, with_params
from sitegen.plan import SitePlan, plan_site, source_label
from sitegen.render_pages import (
    PageRendering,
    compiled_templates,
    page_environment,
    render_pages,
    template_syntax_errors,
)
from sitegen.result import BuildResult, RebuildBasis
from sitegen.templates import TrackingEnvironment
from sitegen.theme import theme_dirs
from sitegen.views import SiteState

Made = TypeVar("Made")


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
    defer_search: bool = False
    """Leave the search index out (the dev server makes it in the background: `sitegen.serve.session`)."""
    stage: Callable[[Mapping[str, bytes]], None] | None = None
    """Given, once, the files that are final before the rest of the site is (static files, images, pages), so
    that `sitegen build` writes them while feeds and the search index are made (`sitegen.writer.Staging`).
    They are in the result too; a site in several languages is not staged."""


def build_site(options: BuildOptions, memo: BuildMemo | None = None) -> BuildResult:
    """Run the whole pipeline; raises SitegenError/ErrorGroup with every error of the failing phase.

    `memo` carries parsed pages and rendered Markdown from a previous build (dev server, build cache).
    A multilingual site is planned and rendered once per language (`sitegen.content.languages`), the
    default language first, its other languages' files under their prefixes (`zh/`).
    Messages name files as they are in the site folder (`_posts/x.md` of a Jekyll site, not its content path).
    """
    labels: dict[str, str] = {}
    try:
        result = _build_site(options, memo, labels)
    except SitegenError as exc:
        raise relabel_error(exc, labels) from None
    result.warnings[:] = [relabel(w, labels) for w in result.warnings]
    result.labels = labels
    return result


def relabel(warning: Diagnostic, labels: dict[str, str]) -> Diagnostic:
    """A warning naming a file read in place by its own path (`content/posts/x.md` -> `_posts/x.md`)."""
    if not labels or warning.path is None:
        return warning
    return dataclasses.replace(warning, path=labels.get(warning.path, warning.path),
                               message=_relabel_text(warning.message, labels))


def relabel_error(exc: SitegenError, labels: dict[str, str]) -> SitegenError:
    """`relabel` for an error (and every error of a group), in place."""
    if labels:
        for err in exc.errors if isinstance(exc, ErrorGroup) else [exc]:
            err.path = labels.get(err.path or "", err.path)
            err.message = _relabel_text(err.message, labels)
            err.args = (err.message,)
    return exc


def _relabel_text(text: str, labels: dict[str, str]) -> str:
    if "content/" not in text and "data/" not in text:
        return text
    for word in sorted(set(re.findall(r"(?:content|data)/[^\s`'\",:]+", text)), key=len, reverse=True):
        if word in labels:
            text = text.replace(word, labels[word])
    return text


def _build_site(options: BuildOptions, memo: BuildMemo | None, labels: dict[str, str]) -> BuildResult:
    started = time.perf_counter()
    site_dir = options.source
    dialect = detect_dialect(site_dir)
    # Every problem of a site in one run, not in rounds. Errors that leave the rest of the site readable do not stop
    # the pipeline: a bad config value is replaced by its default (a config that cannot be read at all by the
    # tool's defaults), a template that does not compile is reported before any page renders (and again, naming
    # the page, by the pages that use it). The build still fails at the end, and nothing is written.
    pending: list[SitegenError] = []
    config, warnings = dialect.load_config(site_dir, pending)
    config = _apply_overrides(config, options)
    memo = memo or BuildMemo()
    memo.begin(config_key(config, dialect.name))
    try:
        result = _gather_and_render(options, memo, labels, dialect, config, warnings, pending, started)
    except SitegenError as exc:
        raise _with_earlier(pending, exc) from None
    raise_if_any(pending)
    if options.strict and result.warnings:
        raise_if_any([w.to_error() for w in result.warnings])
    return result


def _with_earlier(earlier: list[SitegenError], exc: SitegenError) -> SitegenError:
    """The errors of `exc` and the earlier ones it does not repeat (a template error found again by a page that
    uses it is kept in that form, which names the page)."""
    later = exc.errors if isinstance(exc, ErrorGroup) else [exc]
    seen = {(e.path, e.line, e.message) for e in later}
    combined = [*(e for e in earlier if (e.path, e.line, e.message) not in seen), *later]
    return combined[0] if len(combined) == 1 else ErrorGroup(combined)


def _gather_and_render(options: BuildOptions, memo: BuildMemo, labels: dict[str, str], dialect: Dialect,
                       config: SiteConfig, warnings: list[Diagnostic], pending: list[SitegenError],
                       started: float) -> BuildResult:
    """The pipeline after the config is read; errors that do not stop it are added to `pending`."""
    site_dir = options.source
    try:
        themes = theme_dirs(site_dir, config.theme)
        theme_errors: list[SitegenError] = []
    except SitegenError as exc:  # no theme to render with; the site's sources are still read for their errors
        themes, theme_errors = [], [exc]
    # 1. Gather: discover and parse every source, and compile the site's own templates (all errors together).
    sources = discover_sources(site_dir, themes, allow_outside=config.allow_symlinks_outside, layout=config.layout)
    labels.update(sources.labels)
    warnings.extend(_skipped_note(sources, config, dialect.name))
    pages, data, cvs, publications, gather_errors = _parse_sources(sources, config, dialect, site_dir, memo,
                                                                                   warnings, options.jobs)
    gather_errors[:0] = theme_errors
    pending.extend(template_syntax_errors(site_dir, themes, config, memo))
    pages = apply_git_lastmod(pages, site_dir, config.enable_git_info)
    # 2. Plan: the complete, frozen site (content tree, generated pages, URL table), one per language.
    now = options.now or build_time()
    # The plan is made even when some files failed to parse, so that URL collisions and the like are reported in
    # the same run as front-matter errors (every problem of the site at once, not in rounds).
    try:
        options_cv = cv_options(config)
        sites, errors, language_warnings = split_languages(config, pages, [r.rel for r in sources.resources])
        strings = load_strings(site_dir, themes, errors, base=CV_LABELS)  # the theme's strings, the site's over
        raise_if_any(errors)
        plans = _plan_languages(sites, sources, data, cvs, options_cv, publications, now, options, dialect)
    except SitegenError as exc:
        raise _together(gather_errors, exc) from None
    raise_if_any(gather_errors)
    if config.languages:
        plans = link_plans(sites, plans)
    warnings.extend(language_warnings)
    warnings.extend(strings.notes)  # strings that are not texts, left out
    warnings.extend(missing_warnings(strings, [(lang.key, lang.tag) for lang in config.languages]))
    warnings.extend(page_warnings(pages))
    warnings.extend(cv_glyph_warnings(site_dir, sorted({c.path for c in cvs}), options_cv.fonts,
                                      options_cv.font_paths))
    warnings.extend(note for cv in cvs for note in cv.notes)
    # 3. Render Markdown, then templates, then the files made from the rendered site; language by language.
    renderer = MarkdownRenderer(config.markdown)
    rendering = _Rendering(options, renderer, memo, strings, options_cv, data, cvs, publications, now)
    files, origins = _copy_static(sources)
    static = dict(files)
    rendered_pages = 0
    rendered: list[str] = []
    states: list[SiteState] = []
    basis: RebuildBasis | None = None
    errors = []
    for site, plan in zip(sites, plans, strict=True):
        own_memo = memo if site is sites[0] else memo.language(site.key)
        if own_memo is not memo:
            own_memo.begin(config_key(site.config, dialect.name))
        built = _build_language(site, plan, sources, dataclasses.replace(rendering, memo=own_memo), static,
                                default=site is sites[0])
        if own_memo is not memo:
            own_memo.finish()
            memo.dirty = memo.dirty or own_memo.dirty
        warnings.extend(relabel_language(w, site.origins) for w in [
            *left_out_warnings(plan.tree, site.pages, now), *plan.notes, *built.warnings])
        raise_if_any([relabel_language(e, site.origins) for e in built.errors])
        errors.extend(merge_files(files, origins, built.files, built.origins, site.output_prefix,
                                  default=site is sites[0]))
        rendered_pages += built.pages
        rendered.extend(site.output_prefix + path for path in built.rendered)
        states.append(built.state)
        basis = built.basis if len(sites) == 1 else None  # quick rebuilds know one language
    raise_if_any(errors)
    if config.languages:
        files.update(root_files(files, origins, sites, states))
    memo.languages = {s.key: memo.languages[s.key] for s in sites[1:] if s.key in memo.languages}
    memo.finish()
    # 4. The result, in memory: writing it is `sitegen.writer`'s job.
    return BuildResult(files=dict(sorted(files.items())), config=config, warnings=warnings,
                       pages=rendered_pages, seconds=time.perf_counter() - started, sources=origins,
                       state=states[0], basis=basis, rendered=rendered)


def _plan_languages(sites: list[LanguageSite], sources: Sources, data: dict[str, object], cvs: list[CVSource],
                    options_cv: CVOptions, publications: list[Publication], now: dt.datetime,
                    options: BuildOptions, dialect: Dialect) -> list[SitePlan]:
    """Plan each language as a site of its own (every language's errors together, naming their files)."""
    config = sites[0].config
    shared = frozenset(f.rel for f in sources.static) | frozenset(sites[0].resources)
    plans: list[SitePlan] = []
    errors: list[SitegenError] = []
    for site in sites:
        try:
            plans.append(plan_site(site.config, site.pages, site.resources, data, cvs_of(cvs, site, sites),
                                   options_cv, publications, now=now, drafts=options.drafts or config.build.drafts,
                                   future=options.future or config.build.future, build_date=source_date_epoch(),
                                   dialect=dialect, urls=UrlHelper(site.config, shared if site.language else
                                                                   frozenset())))
        except SitegenError as exc:
            errors.append(relabel_language(exc, site.origins))
    raise_if_any(errors)
    return plans


@dataclass
class _LanguageBuild:
    """What rendering one language produced (language-relative paths)."""

    files: dict[str, bytes]
    origins: dict[str, str]
    state: SiteState
    basis: RebuildBasis
    pages: int
    warnings: list[Diagnostic]
    errors: list[SitegenError]
    rendered: list[str]
    """Page files rendered through their templates (not reused from the memo)."""


@dataclass(frozen=True)
class _Rendering:
    """What rendering every language shares (and the memo of the one being rendered)."""

    options: BuildOptions
    renderer: MarkdownRenderer
    memo: BuildMemo
    strings: Strings
    cv: CVOptions
    data: dict[str, object]
    cvs: list[CVSource]
    publications: list[Publication]
    now: dt.datetime


def _build_language(site: LanguageSite, plan: SitePlan, sources: Sources, how: _Rendering,
                    static: dict[str, bytes], *, default: bool) -> _LanguageBuild:
    """Render one language's planned site to memory: Markdown, images, templates, CV files, feeds, sitemap,
    search. Static files are the default language's to publish; every language reads them."""
    options, memo = how.options, how.memo
    site_dir = options.source
    themes = theme_dirs(site_dir, plan.config.theme)
    rendering = PageRendering(site_dir, themes, how.renderer, jobs=options.jobs, strings=how.strings)

    def resources() -> tuple[dict[str, bytes], dict[str, str], ImageCatalog]:
        """The content resources, and the images' sizes and smaller/WebP copies (memoized by content)."""
        files, origins = _copy_resources(sources, plan.tree, site.origins)
        return files, origins, ImageCatalog.build({**static, **files}, [
            *plan.tree.resources.values(), *_site_static(sources, site_dir)],
            ImageSettings.from_params(plan.config.params), memo, cores(options.jobs))

    # While workers render the Markdown, this process compiles the templates and reads the resources and images
    # (none of which needs the Markdown), rather than wait for the workers and then do it.
    ahead: list[tuple[TrackingEnvironment, tuple[dict[str, bytes], dict[str, str], ImageCatalog]]] = []
    # The dev server indexes the default language in the background; a multilingual site's indexes are made here.
    skip = frozenset({"search"}) if options.defer_search and not plan.config.languages else frozenset()
    state, warnings = _render_markdown(plan, how.renderer, memo, options.jobs, terms="search" not in skip,
                                       beside=_head_start(lambda: (compiled_templates(plan, rendering, memo),
                                                                   resources()), ahead))
    compiled, (files, origins, images) = ahead[0] if ahead else (None, resources())
    # Then each page's <img> uses the images' sizes and copies.
    readable = {**static, **files}
    state.images = images
    images.add_share_crops(_shared_images(state), readable, memo, cores(options.jobs))
    copies = dict(images.files)
    if not default:  # copies of static images are published once, at the root, by the default language
        copies = {p: b for p, b in copies.items() if p not in _static_copies(images, static)}
    files.update(copies)
    warnings.extend(_image_warnings(state, images, set(readable) | set(images.files)))
    # Which talks are still to come changes the talks pages without any file changing.
    upcoming = sorted(s for s, talk in plan.talks.items() if talk.upcoming(how.now))
    site_key = key_of("site", site_inputs_key(memo.config_key, how.data, [c.data for c in how.cvs],
                                              how.publications, plan.build_date, upcoming), images.key)
    if plan.urls.prefix:  # which paths stay at the root or go to the default language decides this one's links
        site_key = digest(site_key + stable([sorted(plan.urls.shared), sorted(plan.urls.fallback.items())]))
    rendering = dataclasses.replace(rendering, site_key=site_key)
    environment = compiled if compiled is not None else page_environment(state, rendering, memo)
    templates = environment.keys.names()  # before rendering: a file added meanwhile is a change
    page_files = render_pages(state, rendering, warnings, memo, env=environment)
    rendered = [path for unit in memo.rendered for path in memo.outputs[unit].files]
    files.update(page_files)
    if options.stage is not None and default and not plan.config.languages:
        options.stage({**static, **files})
    cv_outputs = cv_files(plan.cv, how.cv, plan.build_date, memo)
    files.update(cv_outputs)
    seen = {**static, **files} if default else dict(files)
    basis = RebuildBasis(rendering, sources.pages, seen, skip=skip, templates=templates, environment=environment)
    made_by: dict[str, str] = {}
    generated = generate_outputs(state, site_dir, themes, seen, memo, made_by, skip, jobs=options.jobs)
    files.update(generated)
    # Every output path has one owner: a second claim is an error naming both, before anything is written.
    errors = _output_owners(site_dir, sources, plan, page_files, cv_outputs, generated, made_by, copies,
                            with_static=default).check()
    return _LanguageBuild(files, origins, state, basis, len(page_files), warnings, errors, rendered)


def _head_start(make: Callable[[], Made], into: list[Made]) -> Callable[[], None]:
    """`make`, as work for this process while workers render (`sitegen.parallel.fork_map`'s `beside`): its result
    goes into `into`. Should it fail, `into` stays empty and the caller makes it in its usual place after the
    workers, where the error is raised as it always was (so errors come in the order they did)."""

    def run() -> None:
        try:
            into.append(make())
        except Exception:  # noqa: BLE001, S110 - made again, and raised, in its place
            pass

    return run


def _static_copies(images: ImageCatalog, static: dict[str, bytes]) -> set[str]:
    """The copies (smaller, WebP, share crops) the catalog made of static files."""
    out = {crop for target, crop in images.shares.items() if target in static}
    for target, info in images.images.items():
        if target in static:
            out.update(path for path, _ in [*info.copies, *info.webp])
    return out


def _together(errors: list[SitegenError], more: SitegenError) -> SitegenError:
    """The errors of gathering and planning as one group, each once."""
    seen = {(e.path, e.line, e.message) for e in errors}
    extra = [e for e in (more.errors if isinstance(more, ErrorGroup) else [more])
             if (e.path, e.line, e.message) not in seen]
    combined = [*errors, *extra]
    return combined[0] if len(combined) == 1 else ErrorGroup(combined)


def _skipped_note(sources: Sources, config: SiteConfig, tool: str) -> list[Diagnostic]:
    """One note naming what of another tool's layout the build does not read, so that nothing is dropped without
    a word; and an error-level warning when no page at all was found."""
    bib_folders = {p.split("/")[0] + "/" for p in config.cv.get("bibtex") or []}
    skipped = [s for s in sources.skipped if s not in bib_folders and not re.fullmatch(r"_config[\w.-]*\.ya?ml", s)]
    notes = []
    if skipped:
        notes.append(Diagnostic(
            f"not read: {len(skipped)} {tool} files and folders that sitegen does not run (templates, includes, "
            f"styles, plugins, pages written in Liquid HTML): {', '.join(skipped)}", path=config.path,
            hint="sitegen's theme renders the pages; `sitegen import jekyll` converts what you need of these"))
    if not config.layout.content_dir and not sources.pages:
        notes.append(Diagnostic(f"no Markdown page with front matter was found in this {tool} site",
                                path=config.path, hint="Jekyll renders only files that start with a `---` line"))
    return notes


def _output_owners(site_dir: Path, sources: Sources, plan: SitePlan, pages: dict[str, bytes],
                   cv_outputs: dict[str, bytes], generated: dict[str, bytes], made_by: dict[str, str],
                   images: dict[str, bytes], *, with_static: bool = True) -> OutputOwners:
    """Claim every output path for its source, in the order the files were made (static files only once, with
    the default language)."""
    owners = OutputOwners()
    for f in sources.static if with_static else ():
        owners.claim([f.rel], _site_relative(f.path, site_dir) or f"the theme's static/{f.rel}")
    owners.claim(plan.tree.resources.values(), {out: f"content/{rel}" for rel, out in plan.tree.resources.items()})
    owners.claim(images, "an image copy made by sitegen (params.images)")
    by_output = {output_path_for(url): source_label(source) for source, url in plan.tree.urls.items()}
    owners.claim(pages, {path: _page_owner(path, by_output) for path in pages})
    owners.claim(cv_outputs, {path: doc.source.path for doc in plan.cv.documents
                              for path in (doc.pdf_path, doc.json_path)})
    aliases = {output_path_for(alias): f"{source_label(source)} (alias {alias})"
               for source, page in plan.tree.pages.items() for alias in page.aliases}
    generated_by = {path: f"the generated {made_by.get(path, 'output')} file" for path in generated}
    owners.claim(generated, {**generated_by, **{p: aliases[p] for p in generated if p in aliases}})
    return owners


def _page_owner(path: str, by_output: dict[str, str]) -> str:
    """The source of a rendered page file; page N of a list belongs to the list's source."""
    if path in by_output:
        return by_output[path]
    head, sep, tail = path.rpartition("page/")
    number = tail.removesuffix("/index.html")
    if sep and number.isdigit() and (head + "index.html") in by_output:
        return f"{by_output[head + 'index.html']} (page {number})"
    return "a generated page"


def _site_relative(path: Path, site_dir: Path) -> str | None:
    try:
        return path.relative_to(site_dir).as_posix()
    except ValueError:
        return None


def _apply_overrides(config: SiteConfig, options: BuildOptions) -> SiteConfig:
    if options.base_url:
        url = options.base_url if options.base_url.endswith("/") else options.base_url + "/"
        config = dataclasses.replace(config, base_url=url)
    return config


PARSE_IN_TWO = 2000
"""From this many pages on, a cold build parses them on two cores (`map_in_two`): below, a fork costs more than
it saves."""


def _parse_pages(texts: list[tuple[str, str]], config: SiteConfig, dialect: Dialect, jobs: int | None
                 ) -> dict[str, Page]:
    """The pages that parse without error, by source, parsed on two cores when there are many."""

    def task(chunk: Sequence[tuple[str, str]]) -> list[tuple[str, Page | None]]:
        out: list[tuple[str, Page | None]] = []
        for rel, text in chunk:
            try:
                out.append((rel, parse_page(rel, text, config, dialect)))
            except SitegenError:
                out.append((rel, None))
        return out

    return {rel: page for rel, page in map_in_two(task, texts, jobs, PARSE_IN_TWO) if page is not None}


def _parse_sources(sources: Sources, config: SiteConfig, dialect: Dialect, site_dir: Path, memo: BuildMemo,
                   warnings: list[Diagnostic], jobs: int | None = None
                   ) -> tuple[list[Page], dict[str, object], list[CVSource], list[Publication], list[SitegenError]]:
    """Parse every page, data file, CV and BibTeX file, collecting all errors of the phase (returned, so that
    planning what did parse can add its own)."""
    errors: list[SitegenError] = list(sources.errors)
    pages: list[Page] = []
    texts: list[str | SitegenError] = []
    for source in sources.pages:
        try:
            texts.append(read_text(source, "content"))
        except SitegenError as exc:
            texts.append(exc)
    # A cold build of a large site parses its pages on two cores; a page that fails is parsed again below, here,
    # for its error. The memo's pages are reused as they are.
    parsed = {} if memo.pages else _parse_pages(
        [(s.rel, t) for s, t in zip(sources.pages, texts, strict=True) if isinstance(t, str)], config, dialect, jobs)
    for source, text in zip(sources.pages, texts, strict=True):
        try:
            if isinstance(text, SitegenError):
                raise text
            pages.append(memo.page(source.rel, text, lambda: parsed[source.rel] if source.rel in parsed  # noqa: B023
                                   else parse_page(source.rel, text, config, dialect)))  # noqa: B023
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
    if config.dialect_settings.get("bibtex_problems") == "warn":
        warnings.extend(Diagnostic(f"{e.message} (as jekyll-scholar does, the build goes on; an entry that cannot be "
                                   "read is left out)", path=e.path, line=e.line, col=e.col, hint=e.hint)
                        for e in bib_errors)
    else:
        errors.extend(bib_errors)
    return pages, data, cvs, publications, errors


def _parse_bibtex(memo: BuildMemo, text: str, path: str) -> tuple[list[Publication], list[SitegenError]]:
    """parse_bibtex, once per distinct file text (pylatexenc takes ~1 ms an entry)."""
    from sitegen.cv.bibtex import parse_bibtex  # bibtexparser is loaded only for sites with .bib files

    blob = memo.blob(key_of("bibtex", path, text), lambda: pickle.dumps(parse_bibtex(text, path)))
    result: tuple[list[Publication], list[SitegenError]] = pickle.loads(blob)  # noqa: S301 - our own memo
    return result


def _in_content(exc: SitegenError, source: SourceFile) -> SitegenError:
    """Page parsing names paths relative to content/; messages name them from the site root."""
    if isinstance(exc, ErrorGroup):
        for err in exc.errors:
            _in_content(err, source)
        return exc
    if exc.path and not exc.path.startswith("content/"):
        exc.path = f"content/{exc.path}"
    return exc


def _render_markdown(plan: SitePlan, renderer: MarkdownRenderer, memo: BuildMemo, jobs: int | None,
                     terms: bool = True, beside: Callable[[], object] | None = None
                     ) -> tuple[SiteState, list[Diagnostic]]:
    """Render every content page's Markdown (reusing the memo, in parallel when large) with links resolved to
    URLs; the site state the templates read, and a warning per broken link. Without `terms` (the search index
    is made later, by the dev server), the search index's term weights are left to it; `beside`: work for this
    process while the workers run, see `sitegen.parallel.fork_map`."""
    tree, urls = plan.tree, plan.urls
    resolver = LinkResolver(tree, urls)
    rendered: dict[str, Rendered] = {}
    for source in plan.content:
        page = tree.pages[source]
        cached = memo.cached_markdown(source, page.body + plan.expand_key, page.body_line,
                                      with_params(resolver.decisions_for_page(source), page.params,
                                                  plan.config.params))
        if cached is not None:
            rendered[source] = cached
    missing = [s for s in plan.content if s not in rendered]
    fresh_summaries: dict[str, str] = {}
    for source, (result, links) in render_many(tree, renderer, urls, plan.dialect, missing, jobs,
                                               plan.config.params, summaries=True, terms=terms,
                                               beside=beside).items():
        page = tree.pages[source]
        if result.front_summary is not None:
            fresh_summaries[source], result.front_summary = result.front_summary, None
        memo.store_markdown(source, page.body + plan.expand_key, page.body_line, result, links)
        rendered[source] = result
    summaries: dict[str, str] = {}
    warnings: list[Diagnostic] = []
    once: set[str] = set()
    for source in plan.content:
        page = tree.pages[source]
        if page.summary is not None:
            text = page.summary
            summaries[source] = memo.blob(key_of("summary", text), functools.partial(
                _render_summary, renderer, text, fresh_summaries.get(source))).decode()
        for note in rendered[source].warnings:
            if note.message in once:  # a shortcode sitegen cannot run: named once per site, where first met
                continue
            if ONCE_PER_SITE in note.message:
                once.add(note.message)
            warnings.append(note)
        warnings.extend(broken_link_warnings(source, rendered[source]))
    for page_source, intro in plan.intros.items():  # a generated CV page shows cv.md's text
        if intro in rendered:
            rendered.setdefault(page_source, rendered[intro])
    return SiteState(plan, dict(sorted(rendered.items())), summaries), warnings


def _site_static(sources: Sources, site_dir: Path) -> list[str]:
    """Output paths of the site's own static files (the theme's favicons and icons are left alone)."""
    return [f.rel for f in sources.static if _site_relative(f.path, site_dir) is not None]


def _shared_images(state: SiteState) -> set[str]:
    """The images link previews show: each page's first (sitegen.views.PageView.images), the site default
    (`params.og_image`) and the author photo, as output paths."""
    base, params = state.config.base_path, state.config.params
    author = params.get("author")
    wanted = [params.get("og_image"), author.get("photo") if isinstance(author, dict) else None]
    for source in state.plan.content:
        view = state.view(source)
        wanted.extend(view.images[:1] if view is not None else [])
    return {t for t in (image_target(w, "/", base) for w in wanted if isinstance(w, str)) if t}


def _image_warnings(state: SiteState, images: ImageCatalog, assets: set[str]) -> list[Diagnostic]:
    """Each content page's missing, unreadable and alt-less images, located in its file."""
    out: list[Diagnostic] = []
    base = state.config.base_path
    for source in state.plan.content:
        page, rendered = state.tree.pages.get(source), state.rendered.get(source)
        if page is None or rendered is None or "<img" not in rendered.html:
            continue
        out.extend(image_warnings(rendered.html, state.tree.urls.get(source, "/"), images, assets,
                                  source_label(source), page.body, page.body_line, base))
    return out


def _render_summary(renderer: MarkdownRenderer, text: str, rendered: str | None = None) -> bytes:
    """A front-matter summary's HTML (`rendered`: what the render workers made of this very text)."""
    return (renderer.render_summary(text) if rendered is None else rendered).encode()


def _copy_static(sources: Sources) -> tuple[dict[str, bytes], dict[str, str]]:
    """Static files (theme, then site), as bytes."""
    files: dict[str, bytes] = {}
    origins: dict[str, str] = {}
    for f in sources.static:
        files[f.rel] = read_bytes(f, "static")
        origins[f.rel] = str(f.path)
    return files, origins


def _copy_resources(sources: Sources, tree: ContentTree, renamed: dict[str, str]
                    ) -> tuple[dict[str, bytes], dict[str, str]]:
    """Content resources of one language, as bytes (`renamed`: language-free path -> the file's own)."""
    files: dict[str, bytes] = {}
    origins: dict[str, str] = {}
    by_rel = {r.rel: r for r in sources.resources}
    for rel, out in tree.resources.items():
        real = renamed.get(rel, rel)
        files[out] = read_bytes(by_rel[real], "content")
        origins[out] = f"content/{real}"
    return files, origins
