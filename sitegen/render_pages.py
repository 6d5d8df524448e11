"""Render every page, taxonomy list, term page and the 404 page through the theme's templates."""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any

import jinja2

from sitegen.content.page import Page
from sitegen.content.urls import output_path_for
from sitegen.errors import Diagnostic, SitegenError, TemplateError, raise_if_any
from sitegen.markdown import MarkdownRenderer
from sitegen.pagination import paginate
from sitegen.templates import MissingTemplate, make_environment, select_template, template_error
from sitegen.views import PageView, SiteState, SiteView

NOT_FOUND = "_special/404"
PAGINATED = frozenset({"section", "term"})


def template_candidates(page: Page, section: str) -> list[str]:
    """Where a page's template is looked for, most specific first."""
    top = section.split("/")[0] if section else ""
    kind_of = page.type or top
    if page.layout:
        return [f"{kind_of}/{page.layout}.html", f"{page.layout}.html"] if kind_of else [f"{page.layout}.html"]
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


def add_listing_pages(state: SiteState) -> None:
    """Synthesize taxonomy index pages, term pages and the 404 page into the tree (after assembly)."""
    tree = state.tree
    for name, terms in state.taxonomies.items():
        source = f"_taxonomies/{name}"
        tree.pages[source] = Page(source=source, kind="taxonomy", title=name.replace("_", " ").title(), body="",
                                  params={"taxonomy": name}, generated=True)
        tree.urls[source] = f"/{name}/"
        for slug, term in terms.items():
            term_source = f"_taxonomies/{name}/{slug}"
            tree.pages[term_source] = Page(source=term_source, kind="term", title=term.name, body="",
                                           params={"taxonomy": name, "term": slug}, generated=True)
            tree.urls[term_source] = term.url
            state.listing_terms[term_source] = term
    tree.pages[NOT_FOUND] = Page(source=NOT_FOUND, kind="404", title="Page not found", body="", generated=True)
    tree.urls[NOT_FOUND] = "/404.html"


def render_pages(state: SiteState, site_dir: Path, themes: list[Path], renderer: MarkdownRenderer,
                 warnings: list[Diagnostic], page_context: dict[str, dict[str, Any]] | None = None
                 ) -> dict[str, bytes]:
    """Render all pages to `{output path: bytes}`; every failing page is reported together.

    A page sitegen generated itself (taxonomy lists, 404, a section without `_index.md`) is skipped with a
    warning when the theme has no template for its kind; a content page without a template is an error.
    """
    add_listing_pages(state)
    env = make_environment([site_dir / "layouts", *(t / "layouts" for t in themes)], state.config,
                           lambda text: renderer.render(text).html)
    page_context = page_context or {}
    site = SiteView(state)
    files: dict[str, bytes] = {}
    errors: list[SitegenError] = []
    for source in sorted(state.tree.pages):
        view = state.view(source)
        assert view is not None
        try:
            rendered = render_listing(env, site, view, state) if view.kind in PAGINATED else {
                output_path_for(state.tree.urls[source]): render_one(env, site, view, state,
                                                                     **page_context.get(source, {}))}
        except MissingTemplate as exc:
            if state.tree.pages[source].generated:
                warnings.append(Diagnostic(f"{exc.message}; not written", path=exc.path, causes=tuple(exc.causes)))
            else:
                errors.append(exc)
            continue
        except SitegenError as exc:
            errors.append(exc)
            continue
        files.update((path, html.encode("utf-8")) for path, html in rendered.items())
    raise_if_any([_relative(e, site_dir, themes) for e in errors])
    return files


def render_listing(env: jinja2.Environment, site: SiteView, view: PageView, state: SiteState) -> dict[str, str]:
    """A section or term list, paginated: page 1 at its URL, page N at `page/N/`, and `page/1/` redirecting."""
    from sitegen.outputs.aliases import redirect_page

    pages = paginate(view.pages, state.config.paginate, view.path, state.urls.url)
    out: dict[str, str] = {}
    for paginator in pages:
        path = paginator.path_of(paginator.number)
        out[output_path_for(path)] = render_one(env, site, view, state, paginator=paginator)
    first = f"{view.path}page/1/"
    out[output_path_for(first)] = redirect_page(state.urls.url(view.path), view.permalink).decode()
    return out


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
