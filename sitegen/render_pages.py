"""Render every page, taxonomy list, term page and the 404 page through the theme's templates."""

from __future__ import annotations

import array
import dataclasses
import functools
import posixpath
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from sitegen.blockedits import BlockEdits, ReadNames, Splice, read_facts, render_recorded
from sitegen.config import SiteConfig
from sitegen.content.page import Page
from sitegen.content.urls import output_path_for
from sitegen.errors import Diagnostic, SitegenError, TemplateError, raise_if_any
from sitegen.i18n import Strings, Translator
from sitegen.markdown import MarkdownRenderer
from sitegen.memo import BlockPlaces, BuildMemo, Fragment, Literals, OutputEntry, digest, files_key
from sitegen.pagination import paginate
from sitegen.parallel import Balance, fork_map, split_in_two, worker_count
from sitegen.plan import SitePlan, source_label
from sitegen.redirects import redirect_page
from sitegen.templates import (
    BlockCalls,
    Fragments,
    MemoBytecodeCache,
    MissingTemplate,
    TrackingEnvironment,
    make_environment,
    select_template,
    shared_template_cache,
    template_error,
)
from sitegen.views import PageView, SiteState, SiteView, context_key

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
                 only: set[str] | None = None, env: TrackingEnvironment | None = None,
                 edits: BlockEdits | None = None) -> dict[str, bytes]:
    """Render all pages to `{output path: bytes}`; every failing page is reported together.

    A page sitegen generated itself (taxonomy lists, 404, a section without `_index.md`) is skipped with a
    warning when the theme has no template for its kind; a content page without a template is an error.
    Order: list every output unit -> take unchanged ones from the memo -> render the rest (on every core
    when there are many) -> store them, in unit order, with the pages whose content they read.
    With `only` (unit names, see `OutputEntry.source`), just those units are rendered and returned.
    Templates are not part of the site-wide key: each unit records the templates its render loaded (and the
    names it looked for), so a template edit renders again only the units that used that template.
    `env` (`page_environment` of the same rendering and memo) is rendered with when given: `compiled_templates`
    made ahead by a build, or the one the dev server keeps, its templates loaded, while no template changes.
    With `edits` (a template edit under `sitegen serve`), a unit whose edited layouts changed only some blocks is
    made by rendering those blocks again into its last text (`sitegen.blockedits`).
    """
    site_dir, themes, jobs = how.site_dir, how.themes, how.jobs
    memo = memo or BuildMemo()
    env = env if env is not None else page_environment(state, how, memo)
    page_context = state.plan.page_context
    key = _units_key(state, how)

    body_digest = functools.partial(_body_digest, state)

    def previous(unit: str) -> OutputEntry | None:
        """The unit's last render, whose included templates' texts this one may reuse (`Fragments`)."""
        entry = memo.outputs.get(unit) if memo.fragments and only is not None else None
        return entry if entry is not None and entry.key == key and (entry.fragments or entry.blocks) else None

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
                    pending.append(_Unit(source, unit, path, render, previous(unit)))
                continue
            cached = memo.cached_output(unit, key, body_digest, env.keys.unchanged)
            if cached is not None:
                files.update(cached)
            else:
                pending.append(_Unit(source, unit, path, render, previous(unit)))
    if not env.compiled and worker_count(len(pending), jobs) > 1:
        # Once here, not once in every worker: every layout for a build, those the units used last time for a
        # quick rebuild (the default theme's 62 templates: ~10 ms; a post uses about 20).
        compile_templates(env, None if only is None else _template_names(
            entry for item in pending if (entry := memo.outputs.get(item.unit)) is not None))
    # Workers get indexes into `pending` (they inherit it): closures do not cross process boundaries.
    # Included templates' texts are recorded whenever the dev server renders (its first full build too, so that
    # its first template edit reuses them); a one-off build (`memo.fragments` off) does not pay for them.
    reuse = _FragmentReuse(env, lambda s: body_digest(s) or "", ReadNames(env)) if memo.fragments else None
    patching = False
    if edits is not None and reuse is not None:  # the templates' facts are read once, here, not in each worker
        placed = [item.previous for item in pending if item.previous is not None and item.previous.blocks is not None]
        distinct = {id(entry.templates): entry.templates for entry in placed}.values()
        edits.prepare(distinct)
        # An edit of literal texts and expressions alone makes each page in its last file's bytes (`Splice.patch`):
        # ~0.15 ms a page, for which forking a copy of the dev server's process costs more than it saves (1,000 and
        # 10,000 posts, measured); a guess (`patches_only`), before any page is made.
        patching = len(placed) * 10 >= len(pending) * 9 and bool(distinct) and all(
            edits.patches_only(record) for record in distinct)
    else:
        edits = None
    # A quick rebuild (a template edit under `sitegen serve`) renders some of its units here and the others in one
    # copy of this process (`split_in_two`, in the shares `_QUICK_SPLIT` learned), whose pages come back through
    # shared memory about as large as all of them were last time; a build uses a pool of workers.
    task = functools.partial(_render_units, state, env, pending, reuse, edits)
    if only is not None:
        shared = sum(len(body) for item in pending if (entry := memo.outputs.get(item.unit)) is not None
                     for body in entry.files.values())
        results = split_in_two(task, range(len(pending)), 1 if patching else jobs, shared + (1 << 20), _QUICK_SPLIT)
    else:
        results = fork_map(task, range(len(pending)), jobs)
    done = {unit: (body, reads, loaded, found, blocks) for unit, body, reads, loaded, found, blocks in results}
    errors: list[SitegenError] = []
    failed: set[str] = set()
    # One shared record per distinct set of templates (every post has the same): memory, and checks, once.
    records: dict[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] = {}
    contexts: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    by_loaded: dict[frozenset[str], tuple[tuple[str, str], ...]] = {}
    literal_keys: dict[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = {}
    for item in pending:
        if item.source in failed:
            continue
        found: tuple[tuple[Fragment | int, ...], Sequence[int]] = ((), ())
        blocks: tuple[BlockPlaces, Literals | None] | None = None
        if item.unit in done:
            body, reads, loaded, found, blocks = done[item.unit]
            if blocks is not None and blocks[1] is not None:  # (one tuple for the pages with the same layout code)
                blocks = (blocks[0], (literal_keys.setdefault(blocks[1][0], blocks[1][0]), *blocks[1][1:]))
        else:  # it failed in a worker: render it here again, where its error is caught and reported
            state.reads, env.loaded = set(), set()
            try:
                body = _encoded(item.render(), item.source)
                reads, loaded = frozenset(state.reads), frozenset(env.loaded)
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
                state.reads, env.loaded = None, None
        deps = tuple(sorted((s, body_digest(s) or "") for s in reads | {item.source}))
        templates = by_loaded.get(loaded)  # (10,000 posts: one set of templates, keyed once)
        if templates is None:
            templates = tuple((name, env.keys(name)) for name in sorted(loaded))
            templates = by_loaded[loaded] = records.setdefault(templates, templates)
        was = item.previous.fragments if item.previous is not None else ()
        fragments = tuple(was[f] if isinstance(f, int) else _shared(f, records, contexts) for f in found[0])
        memo.store_output(item.unit, key, deps, {item.path: body}, item.source, templates, fragments, found[1],
                          *(blocks or (None, None)))
        files[item.path] = body
    raise_if_any(_once_each([_relative(e, site_dir, themes) for e in errors]))
    return files


def _encoded(text: str, source: str) -> bytes:
    """A page's text in UTF-8; a TemplateError naming the page when it holds a character UTF-8 has no bytes for (a
    lone surrogate, which a template's `'\\udc80'` escape makes)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        at = text.count("\n", 0, exc.start) + 1
        raise TemplateError(
            f"the rendered page has a character UTF-8 cannot write, U+{ord(text[exc.start]):04X} (a lone surrogate), "
            f"on line {at} of its output", path=source_label(source),
            hint="find the template expression or page text that makes it (an escape such as '\\udc80') and "
                 "remove it") from None


def _template_names(entries: Iterable[OutputEntry]) -> list[str]:
    """The names of the templates these units loaded or looked for (each distinct record read once: the 10,000
    posts of a site share one)."""
    records = {id(entry.templates): entry.templates for entry in entries}
    return sorted({name for record in records.values() for name, _ in record})


_QUICK_SPLIT = Balance()
"""How a quick rebuild shares its units with its forked copy, learned from the rebuilds before in this process."""


def _body_digest(state: SiteState, source: str) -> str | None:
    """The key of a page's content (None for a name that is not a page: a generated list, a gone page)."""
    return state.body_key(source) if source in state.tree.pages else None


def _units_key(state: SiteState, how: PageRendering) -> str:
    """The site-wide key of every output unit's render (`OutputEntry.key`): what a render could read besides
    pages' content and templates (config, data, translations, every page's metadata)."""
    return digest(how.site_key + files_key([how.site_dir / "i18n", *(t / "i18n" for t in how.themes)])
                  + state.metadata_digest())


class FragmentRecorder:
    """Records the included templates' texts (`OutputEntry.fragments`) of the output units a build stored without
    them, by rendering each again: the dev server's full builds leave this to its idle time (`sitegen serve` is
    ready sooner), and a memo read from `sitegen build`'s cache gets them too.

    One unit at a time (`record_one`), so that the caller can stop between two for an edit. A unit's texts are
    kept only when its render now gives the very bytes stored (the texts' places are offsets into that file);
    otherwise (a template saved and not yet rebuilt) it is marked recorded without any, and a template edit
    renders it whole, as it renders a unit with no include.
    """

    def __init__(self, state: SiteState, how: PageRendering, memo: BuildMemo) -> None:
        self.state, self.memo = state, memo
        self.env = page_environment(state, how, memo)
        self.read_names = ReadNames(self.env)
        self.key = _units_key(state, how)
        self.site = SiteView(state)
        self.body_digest: Callable[[str], str] = lambda s: _body_digest(state, s) or ""
        waiting: dict[str, set[str]] = {}
        for unit, entry in memo.outputs.items():
            if not entry.recorded and entry.key == self.key:
                waiting.setdefault(entry.source, set()).add(unit)
        self._sources = sorted(waiting.items(), reverse=True)  # popped from the end: in source order
        self._units: list[_Unit] = []
        self._records: dict[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] = {}
        self._contexts: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self._literal_keys: dict[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = {}

    def read_facts(self) -> None:
        """Once every unit is recorded: read the facts of the templates the units loaded, ahead of a template edit
        (`sitegen.blockedits`; each version of a template is parsed once)."""
        read_facts(self.env, _template_names(self.memo.outputs.values()))

    @property
    def done(self) -> bool:
        """Whether every unit that was waiting is recorded (or left as it is: changed or gone meanwhile)."""
        return not self._units and not self._sources

    def record_one(self) -> None:
        """Record the next unit (a list page's units are listed first, in one step)."""
        if not self._units:
            if self._sources:
                source, units = self._sources.pop()
                view = self.state.view(source) if source in self.state.tree.pages else None
                if view is not None:
                    extra = self.state.plan.page_context.get(source, {})
                    self._units = [_Unit(source, unit, path, render) for unit, path, render
                                   in reversed(_units(self.env, self.site, view, self.state, extra, units))
                                   if unit in units]
            return
        item = self._units.pop()
        entry = self.memo.outputs.get(item.unit)
        if entry is None or entry.recorded or entry.key != self.key or item.path not in entry.files:
            return
        state, env = self.state, self.env
        state.reads, env.loaded = set(), set()
        env.fragments = Fragments(env, state, context_key, self.body_digest,  # nothing to reuse: all recorded
                                  read_names=self.read_names)
        env.block_calls = BlockCalls()
        blocks: BlockPlaces | None = None
        literals: Literals | None = None
        try:
            text = item.render()
            found, spans = env.fragments.finish(text)
            blocks, literals = env.block_calls.found, env.block_calls.placed_literals()
            if literals is not None:  # (one tuple for the pages with the same layout code)
                literals = (self._literal_keys.setdefault(literals[0], literals[0]), *literals[1:])
        except Exception:  # noqa: BLE001 - it rendered when it was stored: a template changed since
            found, spans, text = (), array.array("l"), None
        finally:
            state.reads, env.loaded, env.fragments, env.block_calls = None, None, None, None
        if text is None or text.encode("utf-8", "surrogatepass") != entry.files[item.path]:  # (never raises)
            found, spans, blocks = (), array.array("l"), None
        # (No previous render was given: every fragment is a new one, none an index.)
        fragments = tuple(_shared(f, self._records, self._contexts) for f in found if not isinstance(f, int))
        self.memo.add_fragments(item.unit, entry, fragments, spans, blocks, literals)


def _shared(fragment: Fragment, records: dict[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]],
            contexts: dict[tuple[Any, ...], tuple[Any, ...]]) -> Fragment:
    """The fragment with its record of templates, and its variables' key, shared with every other that has the
    same (memory: the same partial of 10,000 posts loads the same templates; a page's includes are mostly given
    the same variables)."""
    templates = records.setdefault(fragment.templates, fragment.templates)
    context = contexts.setdefault(fragment.context, fragment.context)
    if templates is fragment.templates and context is fragment.context:  # shared already (rendered here)
        return fragment
    return Fragment(fragment.name, context, templates, fragment.reads)


@dataclass(frozen=True)
class _FragmentReuse:
    """What rendering with fragment reuse needs besides the unit: the environment (whose keys say whether a
    template changed) and the body digests of pages (whether a page's content changed)."""

    env: TrackingEnvironment
    body_digest: Callable[[str], str]
    read_names: ReadNames

    def valid(self, fragment: Fragment) -> bool:
        """Whether a recorded fragment's text is what rendering it now would give."""
        return self.env.keys.unchanged(fragment.templates) and all(
            self.body_digest(source) == was for source, was in fragment.reads)


_NAMED_PAGES = 5
"""How many pages an error met by many pages names (then says how many more)."""


def _once_each(errors: list[SitegenError]) -> list[SitegenError]:
    """One error per template problem: the same error met by many pages (a syntax error in the layout of
    10,000 posts) is reported once, naming the first few pages and how many more."""
    seen: dict[tuple[object, ...], list[SitegenError]] = {}
    for err in errors:
        seen.setdefault((type(err), err.path, err.line, err.col, err.message, err.hint), []).append(err)
    out = []
    for first, *more in seen.values():
        for other in more[:_NAMED_PAGES - 1]:
            first.causes.extend(c for c in other.causes if c not in first.causes)
        if len(more) >= _NAMED_PAGES:
            rest = len(more) - (_NAMED_PAGES - 1)
            first.causes.append(f"and {rest} more page{'s' if rest > 1 else ''} with the same error")
        out.append(first)
    return out


def check_templates(state: SiteState, how: PageRendering, names: dict[str, str], memo: BuildMemo,
                    env: TrackingEnvironment | None = None) -> None:
    """Compile these templates (name -> a page that uses it, for the message) before any page is rendered with
    them: one that does not compile is reported once, located, instead of once per page (the bytecode goes to
    the memo, and to `env` when given, for the render that follows)."""
    env = env if env is not None else page_environment(state, how, memo)
    errors: list[SitegenError] = []
    for name, page in sorted(names.items()):
        try:
            env.get_template(name)
        except jinja2.TemplateNotFound:
            continue  # not compiled: the pages' own renders say which one they miss
        except jinja2.TemplateSyntaxError as exc:
            errors.append(template_error(exc, page))
        except TemplateError as exc:
            errors.append(exc)
    raise_if_any([_relative(e, how.site_dir, how.themes) for e in errors])


def compiled_templates(plan: SitePlan, how: PageRendering, memo: BuildMemo) -> TrackingEnvironment:
    """The environment `render_pages` will render this plan's pages with, every layout compiled (a cold build
    makes it while the Markdown workers run, instead of between the two phases: ~0.2 s of ~60 templates)."""
    env = page_environment(plan, how, memo)
    compile_templates(env)
    return env


def page_environment(state: SiteState | SitePlan, how: PageRendering, memo: BuildMemo) -> TrackingEnvironment:
    """The Jinja environment pages are rendered with: site layouts, then the theme's (compiled templates kept
    in `memo`)."""
    config, renderer = state.config, how.renderer
    search_path = [*site_layouts(how.site_dir, config), *(t / "layouts" for t in how.themes)]
    translator = Translator(how.strings or Strings(), config.language,
                            config.languages[0].tag if config.languages else config.language, config.date_format)
    return make_environment(search_path, config, lambda text: renderer.render(text).html,
                            bytecode_cache=MemoBytecodeCache(memo, shared_template_cache()), urls=state.urls,
                            translator=translator)


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
    env = make_environment(search_path, config, lambda text: text,
                           bytecode_cache=MemoBytecodeCache(memo, shared_template_cache()))
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


def compile_templates(env: TrackingEnvironment, names: Iterable[str] | None = None) -> None:
    """Compile (or load from the bytecode cache) every layout, or these, ahead of rendering; one that does not
    compile is reported when it is used."""
    env.compiled = env.compiled or names is None
    for name in names if names is not None else env.list_templates(
            filter_func=lambda n: n.endswith((".html", ".xml", ".json"))):
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
    render: Callable[..., str]
    """Renders it (with `splice=`, maybe by making only its edited blocks again)."""
    previous: OutputEntry | None = None
    """Its last render, when included templates' texts may be reused from it."""


def _render_units(state: SiteState, env: TrackingEnvironment, units: list[_Unit], reuse: _FragmentReuse | None,
                  edits: BlockEdits | None, indexes: Sequence[int]
                  ) -> list[tuple[str, bytes, frozenset[str], frozenset[str],
                                  tuple[tuple[Fragment | int, ...], Sequence[int]],
                                  tuple[BlockPlaces, Literals | None] | None]]:
    """(unit, bytes, pages whose content it read, templates it loaded or looked for, its included templates'
    texts when `reuse` is on, its blocks' places when it was made from its edited blocks) for each unit that
    renders; failures are left out, for the caller to render again and report (errors stay where they are made,
    not pickled across processes). With `edits`, a unit is made by rendering only its edited blocks when that
    gives the same page, or in its last file's bytes for an edit of literal texts alone (`Splice.patch`)."""
    out: list[tuple[str, bytes, frozenset[str], frozenset[str], tuple[tuple[Fragment | int, ...], Sequence[int]],
                    tuple[BlockPlaces, Literals | None] | None]] = []
    # Fragments share equal records here already: the results cross to the parent as one pickle, which then
    # holds each distinct record once (the same partials of every post), not once per include.
    records: dict[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] = {}
    contexts: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    loaded_names: dict[int, tuple[tuple[tuple[str, str], ...], frozenset[str]]] = {}
    for item in (units[i] for i in indexes):
        state.reads, env.loaded = set(), set()
        splice = None
        if reuse is not None:
            previous = item.previous
            file = previous.files.get(item.path) if previous else None
            env.fragments = Fragments(env, state, context_key, reuse.body_digest,
                                      previous.fragments if previous else (), previous.spans if previous else (),
                                      file, reuse.valid, reuse.read_names)
            if edits is not None and previous is not None and previous.blocks is not None and file is not None:
                splice = Splice(edits, previous)
        try:
            text = item.render(splice=splice)
            found, spans = env.fragments.finish(text) if env.fragments is not None else ((), ())
            fragments: tuple[tuple[Fragment | int, ...], Sequence[int]] = (
                tuple(f if isinstance(f, int) else _shared(f, records, contexts) for f in found), spans)
            if splice is not None and splice.used:  # the text kept was made from these too
                names = loaded_names.get(id(splice.entry.templates))  # (a record is shared by many units)
                if names is None or names[0] is not splice.entry.templates:
                    names = loaded_names[id(splice.entry.templates)] = (
                        splice.entry.templates, frozenset(name for name, _ in splice.entry.templates))
                env.loaded.update(names[1])
                state.reads.update(source for source, _ in splice.entry.deps)
            calls = env.block_calls
            body = splice.file if splice is not None and splice.file is not None else text.encode("utf-8")
            out.append((item.unit, body, frozenset(state.reads), frozenset(env.loaded),
                        fragments, (calls.found, calls.placed_literals()) if calls is not None else None))
        except Exception:  # noqa: BLE001, S112 - reported by the caller's second render
            continue
        finally:
            state.reads, env.loaded, env.fragments, env.block_calls = None, None, None, None
    return out


def _units(env: jinja2.Environment, site: SiteView, view: PageView, state: SiteState,
           extra: dict[str, Any], only: set[str] | None = None) -> list[tuple[str, str, Callable[[], str]]]:
    """(cache unit, output path, render) for each file of a page; lists give one per paginated page,
    page 1 at the list's URL, page N at `page/N/`, and `page/1/` redirecting to page 1. With `only`, the
    pages of a list not named there are left out (a list of 10,000 posts has 1,000)."""
    if view.kind not in PAGINATED:
        return [(view.source, output_path_for(view.path), functools.partial(render_one, env, site, view, state,
                                                                             **extra))]
    units: list[tuple[str, str, Callable[[], str]]] = []
    numbers = None if only is None else {int(n) for u in only if u.startswith(view.source + "#")
                                         and (n := u[len(view.source) + 1:]).isdigit()}
    for paginator in paginate(view.pages, state.config.paginate, view.path, state.urls.url, numbers):
        units.append((f"{view.source}#{paginator.number}", output_path_for(paginator.path_of(paginator.number)),
                      functools.partial(render_one, env, site, view, state, paginator=paginator, **extra)))
    first = redirect_page(state.urls.url(view.path), view.permalink).decode()
    units.append((f"{view.source}#redirect", output_path_for(f"{view.path}page/1/"),
                  functools.partial(_as_it_is, first)))
    return units


def _as_it_is(text: str, splice: Splice | None = None) -> str:
    """A unit's text that no template makes (a list's `page/1/` redirect)."""
    return text


def render_one(env: jinja2.Environment, site: SiteView, view: PageView, state: SiteState,
               splice: Splice | None = None, **extra: Any) -> str:
    """Render one page with its template; template problems become TemplateErrors naming the page. While the
    unit's blocks are recorded (`env.block_calls`), or with `splice`, through `render_recorded` (maybe by making
    only the blocks an edit changed again)."""
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
        if isinstance(env, TrackingEnvironment) and (env.block_calls is not None or splice is not None):
            return render_recorded(env, template, context, splice)
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
