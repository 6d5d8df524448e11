"""Render every page, taxonomy list, term page and the 404 page through the theme's templates."""

from __future__ import annotations

import dataclasses
import functools
import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from sitegen.config import SiteConfig
from sitegen.content.page import Page
from sitegen.content.urls import output_path_for
from sitegen.errors import Diagnostic, SitegenError, TemplateError, raise_if_any
from sitegen.i18n import Strings, Translator
from sitegen.markdown import MarkdownRenderer
from sitegen.memo import BuildMemo, digest, files_key
from sitegen.pagination import paginate
from sitegen.parallel import fork_map, worker_count
from sitegen.redirects import redirect_page
from sitegen.templates import MemoBytecodeCache, MissingTemplate, make_environment, select_template, template_error
from sitegen.views import PageView, SiteState, SiteView

PAGINATED = frozenset({"section", "term"})


def template_candidates(page: Page, section: str) -> list[str]:
    """Where a page's template is looked for, most specific first. A `layout:` no site or theme template
    provides (Jekyll's `post`, `default`, Hugo's `single`...) falls back to the kind's templates, as in Hugo and
    Jekyll."""
    top = section.split("/")[0] if section else ""
    kind_of = page.type or top
    if page.layout:
        named = [f"{kind_of}/{page.layout}.html", f"{page.layout}.html"] if kind_of else [f"{page.layout}.html"]
        return [*named, *template_candidates(dataclasses.replace(page, layout=None), section)]
    if page.kind == "home":
        return ["home.html", "index.html", "list.html"]
    if page.kind == "section":
        return [f"{kind_of}/list.html", f"{kind_of}/section.html", "section.html", "list.html"]
    if page.kind == "taxonomy":
        return [f"{page.params['taxonomy']}/taxonomy.html", "taxonomy.html", "list.html"]
    if page.kind == "term":
        return [f"{page.params['taxonomy']}/term.html", "term.html", "list.html"]
    if page.kind == "404":
        return ["404.html"]
    if kind_of:
        return [f"{kind_of}/single.html", "single.html", "post.html", "page.html"]
    return ["page.html", "single.html"]


def site_layouts(site_dir: Path, config: SiteConfig) -> list[Path]:
    """The site's own layouts folder, unless its dialect says they are another tool's templates."""
    return [site_dir / "layouts"] if config.site_layouts else []


def layout_fallbacks(state: SiteState, how: PageRendering) -> list[Diagnostic]:
    """A note for each page whose `layout:` names a template neither the site nor its theme has, so the
    kind's template renders it (as Hugo and Jekyll fall back); `sitegen build --verbose` prints them."""
    roots = [*site_layouts(how.site_dir, state.config), *(t / "layouts" for t in how.themes)]
    notes = []
    for source, page in sorted(state.tree.pages.items()):
        if page.layout is None or page.generated:
            continue
        kind_of = page.type or page.folder.split("/")[0]
        named = [f"{kind_of}/{page.layout}.html", f"{page.layout}.html"] if kind_of else [f"{page.layout}.html"]
        if not any((root / name).is_file() for root in roots for name in named):
            notes.append(Diagnostic(f"no template for `layout: {page.layout}`: the default {page.kind} template "
                                    "renders it, as in Hugo and Jekyll", path=f"content/{source}"))
    return notes


@dataclass(frozen=True)
class PageRendering:
    """How pages are rendered: where the templates are, the Markdown renderer (for `markdownify`), the
    digest of the site-wide inputs templates read besides pages (data, CVs, publications) and processes."""

    site_dir: Path
    themes: list[Path]
    renderer: MarkdownRenderer
    site_key: str = ""
    jobs: int | None = None
    strings: Strings | None = None
    """The theme's and site's translation tables (`i18n/<lang>.yaml`)."""


def render_pages(state: SiteState, how: PageRendering, warnings: list[Diagnostic], memo: BuildMemo | None = None,
                 only: set[str] | None = None) -> dict[str, bytes]:
    """Render all pages to `{output path: bytes}`; every failing page is reported together.

    A page sitegen generated itself (taxonomy lists, 404, a section without `_index.md`) is skipped with a
    warning when the theme has no template for its kind; a content page without a template is an error.
    Order: list every output unit -> take unchanged ones from the memo -> render the rest (on every core
    when there are many) -> store them, in unit order, with the pages whose content they read.
    With `only` (unit names, see `OutputEntry.source`), just those units are rendered and returned.
    """
    site_dir, themes, jobs = how.site_dir, how.themes, how.jobs
    renderer = how.renderer
    search_path = [*site_layouts(site_dir, state.config), *(t / "layouts" for t in themes)]
    memo = memo or BuildMemo()
    config = state.config
    translator = Translator(how.strings or Strings(), config.language,
                            config.languages[0].tag if config.languages else config.language, config.date_format)
    env = make_environment(search_path, config, lambda text: renderer.render(text).html,
                           bytecode_cache=MemoBytecodeCache(memo), urls=state.urls, translator=translator)
    page_context = state.plan.page_context
    key = digest(how.site_key + files_key([*search_path, site_dir / "i18n", *(t / "i18n" for t in themes)])
                 + state.metadata_digest())

    def body_digest(source: str) -> str | None:
        return state.body_key(source) if source in state.tree.pages else None

    site = SiteView(state)
    files: dict[str, bytes] = {}
    # Each output file is a unit: cached with the pages whose content it read (a post's edit
    # re-renders the post and only the list pages that show it).
    pending: list[_Unit] = []
    sources = sorted(state.tree.pages) if only is None else sorted({memo.outputs[u].source for u in only})
    for source in sources:
        view = state.view(source)
        assert view is not None
        for unit, path, render in _units(env, site, view, state, page_context.get(source, {}), only):
            if only is not None:
                if unit in only:
                    pending.append(_Unit(source, unit, path, render))
                continue
            cached = memo.cached_output(unit, key, body_digest)
            if cached is not None:
                files.update(cached)
            else:
                pending.append(_Unit(source, unit, path, render))
    if worker_count(len(pending), jobs) > 1:
        _compile_templates(env)  # once here, not once in every worker
    # Workers get indexes into `pending` (they inherit it): closures do not cross process boundaries.
    done = {unit: (body, reads) for unit, body, reads in fork_map(
        functools.partial(_render_units, state, pending), range(len(pending)), jobs)}
    errors: list[SitegenError] = []
    failed: set[str] = set()
    for item in pending:
        if item.source in failed:
            continue
        if item.unit in done:
            body, reads = done[item.unit]
        else:  # it failed in a worker: render it here again, where its error is caught and reported
            state.reads = set()
            try:
                body = item.render().encode("utf-8")
                reads = frozenset(state.reads)
            except MissingTemplate as exc:
                if state.tree.pages[item.source].generated:
                    warnings.append(Diagnostic(f"{exc.message}; not written", path=exc.path,
                                               causes=tuple(exc.causes)))
                else:
                    errors.append(exc)
                failed.add(item.source)
                continue
            except SitegenError as exc:
                errors.append(exc)
                failed.add(item.source)
                continue
            finally:
                state.reads = None
        deps = tuple(sorted((s, body_digest(s) or "") for s in reads | {item.source}))
        memo.store_output(item.unit, key, deps, {item.path: body}, item.source)
        files[item.path] = body
    raise_if_any([_relative(e, site_dir, themes) for e in errors])
    return files


def template_syntax_errors(site_dir: Path, themes: list[Path], config: SiteConfig, memo: BuildMemo
                           ) -> list[SitegenError]:
    """Every template of the site's own (its `layouts/`, a theme in its `themes/` folder) that does not compile,
    found before anything renders, so that it is reported in the same run as the site's config and content
    errors (not in a later round). sitegen's own themes are tested, and compiled as they are used."""
    search_path = [*site_layouts(site_dir, config), *(t / "layouts" for t in themes)]
    own = [p for p in search_path if p.is_relative_to(site_dir) and p.is_dir()]
    if not own:
        return []
    names = sorted({f.relative_to(folder).as_posix() for folder in own for f in folder.rglob("*.html")
                    if f.is_file()})
    env = make_environment(search_path, config, lambda text: text, bytecode_cache=MemoBytecodeCache(memo))
    errors: list[SitegenError] = []
    for name in names:
        try:
            env.get_template(name)  # the one the name resolves to: a site layout shadows the theme's
        except jinja2.TemplateSyntaxError as exc:
            if not _GO_TEMPLATE.search(exc.source or ""):
                errors.append(_relative(template_error(exc, None), site_dir, themes))
        except (jinja2.TemplateError, SitegenError, OSError):
            continue  # unreadable or outside the site: reported as before, by the page that uses it
    return errors


_GO_TEMPLATE = re.compile(r"\{\{-?\s*(?:define|partial|template|range|with|end)\b|\{\{-?\s*\.[A-Z]")
"""Hugo's Go templates left in a site's layouts/ (`{{ define "main" }}`, `{{ .Title }}`): never Jinja, not used
unless a page picks one by name, which reports it then."""


def _compile_templates(env: jinja2.Environment) -> None:
    """Compile every layout ahead of rendering; one that does not compile is reported when it is used."""
    for name in env.list_templates(filter_func=lambda n: n.endswith((".html", ".xml", ".json"))):
        if not name.startswith("theme/"):
            try:
                env.get_template(name)
            except jinja2.TemplateError:
                continue


@dataclass(frozen=True)
class _Unit:
    """One output file of a page to render."""

    source: str
    unit: str
    """Its memo key: the page source, or `source#N` for page N of a list."""
    path: str
    render: Callable[[], str]


def _render_units(state: SiteState, units: list[_Unit], indexes: Sequence[int]
                  ) -> list[tuple[str, bytes, frozenset[str]]]:
    """(unit, bytes, pages whose content it read) for each unit that renders; failures are left out, for
    the caller to render again and report (errors stay where they are made, not pickled across processes)."""
    out: list[tuple[str, bytes, frozenset[str]]] = []
    for item in (units[i] for i in indexes):
        state.reads = set()
        try:
            out.append((item.unit, item.render().encode("utf-8"), frozenset(state.reads)))
        except Exception:  # noqa: BLE001, S112 - reported by the caller's second render
            continue
        finally:
            state.reads = None
    return out


def _units(env: jinja2.Environment, site: SiteView, view: PageView, state: SiteState,
           extra: dict[str, Any], only: set[str] | None = None) -> list[tuple[str, str, Callable[[], str]]]:
    """(cache unit, output path, render) for each file of a page; lists give one per paginated page,
    page 1 at the list's URL, page N at `page/N/`, and `page/1/` redirecting to page 1. With `only`, the
    pages of a list not named there are left out (a list of 10,000 posts has 1,000)."""
    if view.kind not in PAGINATED:
        return [(view.source, output_path_for(view.path), lambda: render_one(env, site, view, state, **extra))]
    units: list[tuple[str, str, Callable[[], str]]] = []
    numbers = None if only is None else {int(n) for u in only if u.startswith(view.source + "#")
                                         and (n := u[len(view.source) + 1:]).isdigit()}
    for paginator in paginate(view.pages, state.config.paginate, view.path, state.urls.url, numbers):
        units.append((f"{view.source}#{paginator.number}", output_path_for(paginator.path_of(paginator.number)),
                      functools.partial(render_one, env, site, view, state, paginator=paginator, **extra)))
    first = redirect_page(state.urls.url(view.path), view.permalink).decode()
    units.append((f"{view.source}#redirect", output_path_for(f"{view.path}page/1/"), lambda: first))
    return units


def render_one(env: jinja2.Environment, site: SiteView, view: PageView, state: SiteState,
               **extra: Any) -> str:
    """Render one page with its template; template problems become TemplateErrors naming the page."""
    page = state.tree.pages[view.source]
    label = f"content/{view.source}" if not view.source.startswith("_") else view.path
    template = select_template(env, template_candidates(page, view.section), label)
    context: dict[str, Any] = {"site": site, "page": view, "paginator": None, **extra}
    if page.kind in ("taxonomy", "term"):
        context["taxonomy"] = {"name": page.params["taxonomy"],
                               "terms": site.taxonomies.get(page.params["taxonomy"], [])}
        term = state.term_of(view.source)
        context["term"] = state.term_view(term) if term else None
    try:
        return template.render(context)
    except TemplateError:
        raise
    except Exception as exc:  # noqa: BLE001 - any template failure is reported with its template line
        raise template_error(exc, label) from None


def _relative(err: SitegenError, site_dir: Path, themes: list[Path]) -> SitegenError:
    """Template paths are shown relative to the site (or as `theme:<path>`)."""
    if err.path and posixpath.isabs(err.path):
        path = Path(err.path)
        for root, prefix in [(site_dir, ""), *((t, f"theme:{t.name}/") for t in themes)]:
            try:
                err.path = prefix + path.relative_to(root).as_posix()
                break
            except ValueError:
                continue
    return err
