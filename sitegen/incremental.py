"""Quick rebuilds for the dev server: edits to the text of existing Markdown pages.

When every file of a change batch is an existing, published Markdown page whose front matter parses to the
same metadata as before (the usual edit-and-save), nothing about the site's structure can change: not URLs,
lists, taxonomies, neighbours, menus or the sitemap. The previous build's state is then reused, in order:

    re-parse the edited pages -> render their Markdown -> re-render the output units that recorded reading
    their content (the page itself, list pages showing its summary) -> the generators (feeds and search
    re-render only entries of the edited pages; sitemap and aliases are reused) -> the new file map

Anything else (a new, deleted or renamed file, changed front matter, templates, data, config, static files,
a CV or publications page, a parse error) returns None, and the caller runs the full memoized build, which
reports errors as usual. The result equals a clean build of the same files: tests compare them byte for byte.

A batch that only edits templates (`rebuild_edited_templates`) is quick too, as long as the same template
names exist (so no page picks another layout): every output unit recorded which templates its render loaded or
looked for (`OutputEntry.templates`), and only the units one of whose templates now resolves to another text or
file (an edit, a site override added over the theme's file or removed) are rendered again, from the Markdown
already rendered, on every core when there are many. A template that does not compile is reported once, before
any page is rendered with it, and the previous site stays served.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import time
from pathlib import Path
from typing import TypeVar

from sitegen.blockedits import BlockEdits
from sitegen.content.page import Page, page_warnings, parse_page
from sitegen.content.sources import read_text
from sitegen.content.talks import read_talk
from sitegen.errors import Diagnostic, SitegenError
from sitegen.links import broken_link_warnings
from sitegen.memo import MISSING, BuildMemo
from sitegen.outputs import generate_outputs
from sitegen.parallel import render_many
from sitegen.plan import source_label
from sitegen.render_pages import (
    PageRendering,
    check_templates,
    compile_templates,
    page_environment,
    render_pages,
    site_layouts,
)
from sitegen.result import BuildResult, RebuildBasis
from sitegen.templates import MemoBytecodeCache, TrackingEnvironment
from sitegen.views import SiteState

K = TypeVar("K")
V = TypeVar("V")


def rebuild_edited_pages(previous: BuildResult, changed: set[Path], memo: BuildMemo) -> BuildResult | None:
    """The site after body-only edits of `changed` pages, or None when a full build is needed."""
    started = time.perf_counter()
    basis, state = previous.basis, previous.state
    if basis is None or state is None or not changed:
        return None
    # Only full builds prune the memo (memo.finish); without this, every quick rebuild would add the edited
    # page's new parse, rendering, feed and search entries for good (~150 KB a save on a real site). What is
    # kept: what the last full build left, and what this quick rebuild uses (`_prune`).
    sizes = _quick_start(basis, memo)
    edited: dict[str, Page] = {}
    for path in changed:
        source = basis.source_of(path)
        if source is None or source.rel not in state.tree.pages or source.rel in state.plan.page_context \
                or source.rel in state.plan.intros.values():
            return None
        try:
            text = read_text(source, "content")
            page = memo.page(source.rel, text, functools.partial(parse_page, source.rel, text, state.config,
                                                                 state.plan.dialect))
        except (SitegenError, OSError):
            return None  # the full build reports it (or sees the file gone), with everything else wrong
        old = state.tree.pages[source.rel]
        if dataclasses.replace(page, body="") != dataclasses.replace(old, body=""):
            return None
        edited[source.rel] = page
    tree = dataclasses.replace(state.tree, pages={**state.tree.pages, **edited})
    if "order" in state.tree.__dict__:  # newest-first positions: made from metadata, unchanged
        tree.__dict__["order"] = state.tree.order
    rendered = dict(state.rendered)
    for rel, (result, links) in render_many(tree, basis.rendering.renderer, state.urls, state.plan.dialect,
                                               sorted(edited), 1, state.plan.config.params).items():
        page = tree.pages[rel]
        memo.store_markdown(rel, page.body, page.body_line, result, links)
        rendered[rel] = result
    talks = dict(state.plan.talks)  # a talk's abstract may come from its text (`Abstract:` paragraph)
    for rel in sorted(set(edited) & set(talks)):
        talk, _ = read_talk(edited[rel])
        if talk is None:
            return None
        talks[rel] = talk
    new_state = SiteState(dataclasses.replace(state.plan, tree=tree, talks=talks), rendered, state.summaries)
    new_state.images = state.images  # assets are unchanged in a quick rebuild, and so are their copies
    new_state._meta_keys.update(state._meta_keys)  # metadata is unchanged, by the check above
    new_state.derived.update(state.derived)
    new_state._body_keys.update(state._body_keys)
    for rel in edited:
        new_state._body_keys.pop(rel, None)
        # A page's first image is what link previews show, cropped to 1200x630 by a full build (which also drops
        # a crop no page shows any more): another first image needs one.
        before, after = state.view(rel), new_state.view(rel)
        if state.images.settings.process and (before is None or after is None or before.images[:1] != after.images[:1]):
            return None
    units = memo.units_reading(set(edited))
    if not units or any(not memo.outputs[u].source for u in units):
        return None
    warnings = [w for w in previous.warnings if w.path not in {f"content/{rel}" for rel in edited}]
    for rel in sorted(edited):
        warnings += [*page_warnings([edited[rel]]), *rendered[rel].warnings, *broken_link_warnings(rel, rendered[rel])]
    how = dataclasses.replace(basis.rendering, jobs=1)
    env = _environment(basis, new_state, how, memo)
    page_files = render_pages(new_state, how, warnings, memo, only=units, env=env)
    return _finish(previous, new_state, page_files, memo, sizes, warnings, started, frozenset(edited), env)


def rebuild_edited_templates(previous: BuildResult, changed: set[Path], memo: BuildMemo) -> BuildResult | None:
    """The site after edits of template files only, or None when a full build is needed.

    Order: every changed path is under a layouts folder -> the same template names exist as when the pages
    were rendered -> the units whose recorded templates resolve differently now -> those templates compile ->
    render the units again (the rendered Markdown and the rest of the site reused) -> the generators (their
    files are made of pages' content and metadata, unchanged: kept) -> the new file map. Raises what
    `render_pages` raises.
    """
    started = time.perf_counter()
    basis, state = previous.basis, previous.state
    if basis is None or state is None or not changed or basis.templates is None:
        return None
    how = basis.rendering
    roots = [*site_layouts(how.site_dir, state.config), *(t / "layouts" for t in how.themes)]
    if not all(_inside(path, roots) for path in changed):
        return None
    # One environment for the whole rebuild: its keys are taken before any template is loaded again (an edit
    # made meanwhile is then a change for the next rebuild), the check compiles into it, the pages render with it.
    env = page_environment(state, how, memo)
    keys = env.keys
    if keys.names() != basis.templates:
        return None  # a template added or removed may change the layout a page picks, or which pages render
    sizes = _quick_start(basis, memo)
    units = memo.units_using_changed_templates(keys.unchanged)
    users: dict[str, list[str]] = {}
    edited_names: dict[int, list[str]] = {}  # per shared record of templates (every post has the same one)
    for unit in sorted(units):
        entry = memo.outputs[unit]
        names = edited_names.get(id(entry.templates))
        if names is None:
            names = edited_names[id(entry.templates)] = [name for name, was in entry.templates if keys(name) != was]
        for name in names:
            users.setdefault(name, []).append(source_label(entry.source))
    # A template that does not compile is said once, and no page is rendered with it.
    check_templates(state, how, {name: pages[0] + (f" and {len(set(pages)) - 1} more pages" if len(set(pages)) > 1
                                                   else "") for name, pages in users.items()}, memo, env)
    warnings = list(previous.warnings)
    # A unit whose edited layouts changed only some of their blocks is made by rendering those blocks again.
    edits = BlockEdits(basis.environment, env) if basis.environment is not None else None
    page_files = render_pages(state, how, warnings, memo, only=units, env=env, edits=edits) if units else {}
    return _finish(previous, state, page_files, memo, sizes, warnings, started, frozenset(), env)


def _inside(path: Path, roots: list[Path]) -> bool:
    """Whether a changed path is one of these folders or under one (as the watcher reports it, maybe gone)."""
    try:
        real = path.resolve()
    except OSError:
        return False
    for root in roots:
        try:
            if real == root.resolve() or real.is_relative_to(root.resolve()):
                return True
        except OSError:
            continue
    return False


def _environment(basis: RebuildBasis, state: SiteState, how: PageRendering, memo: BuildMemo
                 ) -> TrackingEnvironment:
    """The environment the last build rendered with (its templates loaded; none changed since, or this would not
    be a quick rebuild of page texts), or a new one when it was made for another memo or other URLs."""
    env = basis.environment
    cache = env.bytecode_cache if env is not None else None
    if env is None or not isinstance(cache, MemoBytecodeCache) or cache.memo is not memo \
            or env.globals.get("url") != state.urls.url:
        return page_environment(state, how, memo)
    return env


def _finish(previous: BuildResult, state: SiteState, page_files: dict[str, bytes], memo: BuildMemo,
            sizes: tuple[int, int, int], warnings: list[Diagnostic], started: float,
            edited: frozenset[str], env: TrackingEnvironment) -> BuildResult:
    """A quick rebuild's result: the pages rendered again over the files before the generators, the generators'
    files made again (a search shard may be gone; feeds without an edited page are kept), the memo pruned."""
    basis = previous.basis
    assert basis is not None  # both quick paths start by checking it
    before = {**basis.before_generators, **page_files}
    generated = generate_outputs(state, basis.rendering.site_dir, basis.rendering.themes, before, memo,
                                 skip=basis.skip, edited=edited, previous=previous.files)
    files = {**before, **generated}
    touched = frozenset(page_files) | frozenset(generated) | (previous.files.keys() - files.keys())
    _prune(memo, sizes)
    return BuildResult(files=files, config=previous.config, warnings=warnings, pages=previous.pages,
                       seconds=time.perf_counter() - started, sources=previous.sources, state=state,
                       basis=_next_basis(basis, before, sizes, env), touched=touched, labels=previous.labels,
                       rendered=_rendered_paths(memo))


def _quick_start(basis: RebuildBasis, memo: BuildMemo) -> tuple[int, int, int]:
    """Start a quick rebuild's use of the memo; how many entries the last full build left (`_prune`)."""
    # Only full builds prune the memo (memo.finish); without this, every quick rebuild would add the edited
    # page's new parse, rendering, feed and search entries for good (~150 KB a save on a real site). What is
    # kept: what the last full build left, and what this quick rebuild uses (`_prune`).
    sizes = basis.full_build_sizes or (len(memo.pages), len(memo.markdown), len(memo.blobs))
    memo.used_pages, memo.used_markdown, memo.used_blobs = set(), set(), set()
    memo.rendered = []
    return sizes


def _rendered_paths(memo: BuildMemo) -> list[str]:
    """Output paths of the units rendered since `memo.rendered` was emptied."""
    return [path for unit in memo.rendered for path in memo.outputs[unit].files]


def prepare_quick_rebuilds(result: BuildResult, memo: BuildMemo) -> None:
    """Make the lookups the first quick rebuild after a full build needs (which outputs read which page,
    newest-first positions, sources by path) and load its templates: the full build rendered in worker processes
    (or reused every page from the build cache), so the server's copy has none of them yet."""
    memo.units_reading(set())
    if result.state is not None:
        _ = result.state.tree.order
    if result.basis is not None:
        _ = result.basis.by_rel
        if result.basis.environment is not None:  # the templates the pages loaded (not every one a theme has)
            records = {id(entry.templates): entry.templates for entry in memo.outputs.values()}
            compile_templates(result.basis.environment, sorted(
                {name for record in records.values() for name, key in record if key != MISSING}))


def _prune(memo: BuildMemo, sizes: tuple[int, int, int]) -> None:
    """Drop the entries quick rebuilds added that this one did not use (they are caches: safe).

    The last full build left `sizes` entries (memo.finish); dicts keep insertion order, so what quick rebuilds
    added is the tail after them: pruning looks at that tail only, not at the whole memo.
    """
    _prune_tail(memo.pages, memo.used_pages, sizes[0])
    _prune_tail(memo.markdown, memo.used_markdown, sizes[1])
    _prune_tail(memo.blobs, memo.used_blobs, sizes[2])


def _prune_tail(table: dict[K, V], used: set[K], size: int) -> None:
    for key in list(itertools.islice(reversed(table.keys()), max(0, len(table) - size))):
        if key not in used:
            del table[key]


def _next_basis(basis: RebuildBasis, before: dict[str, bytes], sizes: tuple[int, int, int],
                env: TrackingEnvironment) -> RebuildBasis:
    """The same basis with the new files, the environment the pages were rendered with (and the lookup already
    made)."""
    new = dataclasses.replace(basis, before_generators=before, full_build_sizes=sizes, environment=env)
    if "by_rel" in basis.__dict__:
        new.__dict__["by_rel"] = basis.by_rel
    return new
