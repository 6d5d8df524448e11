"""Render Markdown on every core for large builds. The result never depends on the number of workers:
each page is rendered by the same pure function, in whatever process, and results are keyed by page.

Workers are forked after the content tree is complete, so they inherit it (no pickling of the site);
only page keys go out and Rendered results come back. Small builds, platforms without fork, and builds
inside a running dev server (threads and fork do not mix) render in-process.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from sitegen.content.tree import ContentTree
from sitegen.links import LinkResolver
from sitegen.markdown import MarkdownRenderer, RenderContext, Rendered
from sitegen.templates import UrlHelper

MIN_PAGES_PER_WORKER = 60
"""Below this many pages per extra process, forking costs more than it saves."""

LinkDecisions = tuple[tuple[str, str | None], ...]
_JOB: tuple[ContentTree, MarkdownRenderer, UrlHelper] | None = None


def render_one(tree: ContentTree, renderer: MarkdownRenderer, resolver: LinkResolver,
               source: str) -> tuple[Rendered, LinkDecisions]:
    """Render one page's Markdown, recording every link decision (for cache validation)."""
    page = tree.pages[source]
    resolve = resolver.for_page(source)
    seen: dict[str, str | None] = {}

    def recording(href: str) -> str | None:
        seen[href] = resolve(href)
        return seen[href]

    rendered = renderer.render(page.body, RenderContext(source=source, body_line=page.body_line,
                                                        resolve_link=recording))
    return rendered, tuple(sorted(seen.items()))


def _work(sources: list[str]) -> list[tuple[str, Rendered, LinkDecisions]]:
    assert _JOB is not None
    tree, renderer, urls = _JOB
    resolver = LinkResolver(tree, urls)
    return [(s, *render_one(tree, renderer, resolver, s)) for s in sources]


def worker_count(pages: int, jobs: int | None) -> int:
    """How many processes to use for `pages` pages (`jobs` caps it; 1 means in-process)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    wanted = cores if jobs is None else max(1, jobs)
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(wanted, pages // MIN_PAGES_PER_WORKER))


def render_many(tree: ContentTree, renderer: MarkdownRenderer, urls: UrlHelper, sources: list[str],
                jobs: int | None) -> dict[str, tuple[Rendered, LinkDecisions]]:
    """Render these pages, in parallel when it pays; the same result for any number of workers."""
    global _JOB
    workers = worker_count(len(sources), jobs)
    if workers <= 1:
        resolver = LinkResolver(tree, urls)
        return {s: render_one(tree, renderer, resolver, s) for s in sources}
    chunks = [sources[i::workers * 4] for i in range(workers * 4)]
    _JOB = (tree, renderer, urls)
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            results = [item for chunk in pool.map(_work, chunks) for item in chunk]
    finally:
        _JOB = None
    return {source: (rendered, links) for source, rendered, links in results}
