"""Hugo's build options in front matter: pages that exist as data but are never published.

    headless: true                   a bundle (and the files beside it) that is never published
    build: {render: never}           the page is not rendered (`_build:`, `render: false` in older Hugo)
    cascade: {build: {render: never}}   ... and neither is any page below this section

Hugo Blox writes `build`/`cascade` in `content/authors/_index.md`; Wowchemy's `content/home/index.md` is a
headless bundle holding the home page's widget files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from typing import Any

from sitegen.content.page import Page


def _render_never(options: Any) -> bool:
    if not isinstance(options, dict):
        return False
    render = options.get("render")
    return render is False or (isinstance(render, str) and render.lower() in ("never", "false"))


def _build_options(data: dict[str, Any]) -> Any:
    return data.get("build", data.get("_build"))


def _cascaded(page: Page) -> bool:
    """Whether the page's `cascade` hides everything below it (a mapping, or list entries without `_target`)."""
    cascade = page.params.get("cascade")
    entries = cascade if isinstance(cascade, list) else [cascade]
    return any(isinstance(e, dict) and "_target" not in e and _render_never(_build_options(e)) for e in entries)


def never_rendered(pages: Iterable[Page]) -> set[str]:
    """The sources of the pages Hugo would not publish: headless bundles with the files beside them,
    `build: {render: never}` pages, and pages below a section that cascades that."""
    pages = list(pages)
    hidden: set[str] = set()
    folders: list[str] = []  # everything below these is hidden
    for page in pages:
        own = page.params.get("headless") is True or _render_never(_build_options(page.params))
        if own:
            hidden.add(page.source)
            if page.is_bundle and page.params.get("headless") is True:
                folders.append(posixpath.dirname(page.source))
        if page.kind in ("section", "home") and _cascaded(page):
            folders.append(posixpath.dirname(page.source))
    for page in pages:
        folder = posixpath.dirname(page.source)
        if any(folder == f or folder.startswith(f + "/") or f == "" for f in folders):
            hidden.add(page.source)
    return hidden
