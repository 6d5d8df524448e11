"""Resolve relative links written in Markdown (`../other.md`, `other/`, `img.png`) to the target's URL."""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable
from urllib.parse import unquote, urljoin

from sitegen.content.tree import ContentTree
from sitegen.content.urls import UrlHelper, nfc
from sitegen.errors import Diagnostic
from sitegen.markdown import Rendered

_MARKDOWN = (".md", ".markdown")
IMPORT_RECORD = ".sitegen-import.json"
"""Written by `sitegen import` into the new site: the links that were broken in the original site already
(`{"broken_in_source": [{"page", "href", "where", "what_to_do"}]}`), which `sitegen check` names as such."""
REF = "\x00ref\x00"
"""Prefix of a recorded link decision that is a page reference (`{{< ref "x.md" >}}`), not an href."""


class LinkResolver:
    """Maps a page's relative links to final hrefs using the assembled content tree."""

    def __init__(self, tree: ContentTree, urls: UrlHelper) -> None:
        self.tree = tree
        self.urls = urls

    def for_page(self, source: str) -> Callable[[str], str | None]:
        """A resolver bound to one page (links are relative to its content folder)."""
        page = self.tree.pages[source]
        folder = posixpath.dirname(source)

        def resolve(href: str) -> str | None:
            path, sep, fragment = href.partition("#")
            path, qsep, query = path.partition("?")
            suffix = (qsep + query) + (sep + fragment)
            if path.startswith("/"):
                return self._resolve_rooted(path, suffix)
            target = posixpath.normpath(posixpath.join(folder, nfc(unquote(path)))) if path else source
            if target.startswith("../") or target == "..":
                return None if path.lower().endswith(_MARKDOWN) else href
            found = self.tree.by_path.get(target) or self.tree.by_path.get(target + "/")
            if found is not None and found in self.tree.urls:
                return self.urls.url(self.tree.urls[found]) + suffix
            if target in self.tree.resources:
                if page.is_bundle and target.startswith(folder + "/"):
                    return href
                return self.urls.url("/" + self.tree.resources[target]) + suffix
            if path.lower().endswith(_MARKDOWN):
                return None
            if path.endswith("/") and not page.is_bundle and not self._browser_finds(source, path):
                return None
            return href

        return resolve

    def _browser_finds(self, source: str, path: str) -> bool:
        """Whether a link written as a URL (`../other-post/`) leads to a page or resource when the browser
        resolves it against the page's own URL (`/posts/a/` + `../other-post/` -> `/posts/other-post/`)."""
        page_url = self.tree.urls.get(source)
        if page_url is None:
            return False
        target = urljoin(page_url, nfc(unquote(path)))
        return target in self._published or target.rstrip("/") + "/" in self._published

    @functools.cached_property
    def _published(self) -> set[str]:
        """Every page URL and resource path of the site (without the base path)."""
        return {*self.tree.urls.values(), *("/" + out for out in self.tree.resources.values())}

    def decisions_for_page(self, source: str) -> Callable[[str], str | None]:
        """`for_page`, and `REF + path` for the page references of shortcodes (`ref_for_page`): one function, so
        the Markdown memo re-checks both kinds of decision."""
        resolve, ref = self.for_page(source), self.ref_for_page(source)
        return lambda key: ref(key[len(REF):]) if key.startswith(REF) else resolve(key)

    def ref_for_page(self, source: str) -> Callable[[str], str | None]:
        """Hugo's `ref`/`relref` lookup from one page: the path relative to the page's folder, then from
        content/ (with or without `.md`, a folder meaning its `_index.md` or `index.md`), then a page whose
        file or bundle name it is when only one has it; the URL (with base path) or None."""
        page = self.tree.pages[source]
        folders = dict.fromkeys((posixpath.dirname(source), page.folder, ""))

        def ref(path: str) -> str | None:
            path = nfc(unquote(path)).strip()
            rooted = path.startswith("/")
            path = path.strip("/")
            for folder in ("",) if rooted else folders:
                target = posixpath.normpath(posixpath.join(folder, path)) if path else folder
                for key in (target, posixpath.splitext(target)[0] if target.lower().endswith(_MARKDOWN) else None):
                    found = self.tree.by_path.get(key) if key else None
                    if found is not None and found in self.tree.urls:
                        return self.urls.url(self.tree.urls[found])
            stem = posixpath.splitext(posixpath.basename(path))[0] if path.lower().endswith(_MARKDOWN) else path
            named = self._by_name.get(stem, [])
            return self.urls.url(self.tree.urls[named[0]]) if len(named) == 1 else None

        return ref

    @functools.cached_property
    def _by_name(self) -> dict[str, list[str]]:
        """File or bundle name (without `.md`) -> the published pages of that name."""
        names: dict[str, list[str]] = {}
        for source, page in self.tree.pages.items():
            if source in self.tree.urls and page.kind == "page":
                names.setdefault(page.stem, []).append(source)
        return names

    def _resolve_rooted(self, path: str, suffix: str) -> str | None:
        """`/posts/x.md` names a content file; any other `/path` is a site path that gets the base path."""
        if path.lower().endswith(_MARKDOWN):
            target = posixpath.normpath(nfc(unquote(path)).lstrip("/"))
            found = self.tree.by_path.get(target)
            return self.urls.url(self.tree.urls[found]) + suffix if found in self.tree.urls else None
        return self.urls.url(path) + suffix


def broken_link_warnings(source: str, rendered: Rendered) -> list[Diagnostic]:
    """A warning with file:line for each relative link of the page whose target does not exist."""
    return [Diagnostic(f"link to missing content `{link.href}`", path=f"content/{source}", line=link.line,
                       hint="fix the path, or link to the page's URL") for link in rendered.broken_links]
