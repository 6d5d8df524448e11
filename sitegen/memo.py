"""Reuse of parsed pages and rendered Markdown between builds (the dev server keeps one in memory; the
persistent build cache stores one on disk).

Entries are keyed by content, never by time: a page is reused only when its file's bytes are the same, and
rendered Markdown only when the text, its position and every link it resolved still resolve the same way.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sitegen.content.page import Page
from sitegen.markdown import Rendered


def digest(data: bytes | str) -> str:
    """A short content hash."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


@dataclass
class MarkdownEntry:
    """Rendered Markdown and the link decisions it was made with."""

    rendered: Rendered
    links: tuple[tuple[str, str | None], ...]


@dataclass
class OutputEntry:
    """The files one page rendered, and what they were rendered from."""

    key: str
    """Digest of everything site-wide the render could read (config, templates, data, every page's metadata)."""
    deps: tuple[tuple[str, str], ...]
    """(page source, body digest) of every page whose content the render read."""
    files: dict[str, bytes]
    source: str = ""
    """The page whose output this is."""


@dataclass
class BuildMemo:
    """What one build can hand to the next."""

    config_key: str = ""
    """Digest of everything that changes how pages parse and render (config, sitegen version)."""
    pages: dict[tuple[str, str], Page] = field(default_factory=dict)
    """(content path, text digest) -> parsed page."""
    markdown: dict[tuple[str, int, str], MarkdownEntry] = field(default_factory=dict)
    """(text digest, body line, page source) -> rendered Markdown."""
    outputs: dict[str, OutputEntry] = field(default_factory=dict)
    """Page source -> its rendered files."""
    blobs: dict[str, bytes] = field(default_factory=dict)
    """Expensive derived files by input digest (CV PDFs)."""
    used_pages: set[tuple[str, str]] = field(default_factory=set)
    used_markdown: set[tuple[str, int, str]] = field(default_factory=set)
    used_outputs: set[str] = field(default_factory=set)
    used_blobs: set[str] = field(default_factory=set)
    hits: int = 0
    misses: int = 0
    dirty: bool = True
    """Whether this build added anything (a clean warm build need not rewrite the cache)."""
    _readers: dict[str, set[str]] | None = field(default=None, repr=False)
    """Page source -> output units that read its content (a superset; see `units_reading`)."""
    transient: dict[str, Any] = field(default_factory=dict, repr=False)
    """What a generator keeps for the next build in this process (the dev server); never in the build cache."""

    def begin(self, config_key: str) -> None:
        """Start a build: forget everything when the configuration changed."""
        if config_key != self.config_key:
            self.pages.clear()
            self.markdown.clear()
            self.outputs.clear()
            self.blobs.clear()  # summaries, feeds, search entries and PDFs depend on the config too
            self.transient.clear()
            self.config_key = config_key
        for used in (self.used_pages, self.used_markdown, self.used_outputs, self.used_blobs):
            used.clear()
        self.hits = self.misses = 0
        self.dirty = False

    def finish(self) -> None:
        """End a build: drop entries it did not use, so memory follows the site.

        Dropping alone does not make the memo dirty: entries are keyed by content, so a cache file that still
        holds a few unused ones is as correct as a pruned one, and a warm build need not rewrite it.
        """
        self.pages = {k: v for k, v in self.pages.items() if k in self.used_pages}
        self.markdown = {k: v for k, v in self.markdown.items() if k in self.used_markdown}
        self.outputs = {k: v for k, v in self.outputs.items() if k in self.used_outputs}
        self._readers = None
        self.blobs = {k: v for k, v in self.blobs.items() if k in self.used_blobs}

    def cached_output(self, source: str, key: str, body_digest: Callable[[str], str | None]
                      ) -> dict[str, bytes] | None:
        """A page's files from an earlier build, when nothing they were rendered from has changed."""
        self.used_outputs.add(source)
        entry = self.outputs.get(source)
        if entry is None or entry.key != key:
            return None
        if any(body_digest(dep) != dig for dep, dig in entry.deps):
            return None
        return entry.files

    def store_output(self, unit: str, key: str, deps: tuple[tuple[str, str], ...],
                     files: dict[str, bytes], page: str = "") -> None:
        """Remember an output unit's files, what they depend on and the page they belong to."""
        self.used_outputs.add(unit)
        self.dirty = True
        self.outputs[unit] = OutputEntry(key, deps, files, page or unit)
        if self._readers is not None:
            for dep, _ in deps:
                self._readers.setdefault(dep, set()).add(unit)

    def units_reading(self, sources: set[str]) -> set[str]:
        """Output units whose recorded dependencies include the content of any of these pages."""
        if self._readers is None:  # made on first use, then kept up to date by store_output
            self._readers = {}
            for unit, entry in self.outputs.items():
                for dep, _ in entry.deps:
                    self._readers.setdefault(dep, set()).add(unit)
        found = set().union(*(self._readers.get(s, ()) for s in sources))
        return {u for u in found if u in self.outputs and any(dep in sources for dep, _ in self.outputs[u].deps)}

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_readers"] = None  # derived; not worth a place in the build cache
        state["transient"] = {}
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("transient", {})  # caches written before these existed
        self.__dict__.setdefault("_readers", None)

    def blob(self, key: str, make: Callable[[], bytes]) -> bytes:
        """An expensive derived file, made once per distinct input."""
        self.used_blobs.add(key)
        if key not in self.blobs:
            self.dirty = True
            self.blobs[key] = make()
        return self.blobs[key]

    def page(self, rel: str, text: str, parse: Callable[[], Page]) -> Page:
        """The parsed page for this exact text (a fresh copy, since later steps may fill in fields)."""
        key = (rel, digest(text))
        self.used_pages.add(key)
        if key not in self.pages:
            self.misses += 1
            self.dirty = True
            self.pages[key] = parse()
        else:
            self.hits += 1
        return copy.copy(self.pages[key])  # later steps only assign fields (git lastmod), never mutate lists

    def cached_markdown(self, source: str, body: str, body_line: int,
                        resolve: Callable[[str], str | None]) -> Rendered | None:
        """Rendered Markdown from an earlier build, if every link it resolved still resolves the same way."""
        key = (digest(body), body_line, source)
        self.used_markdown.add(key)
        entry = self.markdown.get(key)
        if entry is not None and all(resolve(href) == result for href, result in entry.links):
            self.hits += 1
            return entry.rendered
        self.misses += 1
        return None

    def store_markdown(self, source: str, body: str, body_line: int, rendered: Rendered,
                       links: tuple[tuple[str, str | None], ...]) -> None:
        """Remember a rendering and the link decisions it was made with."""
        key = (digest(body), body_line, source)
        self.used_markdown.add(key)
        self.dirty = True
        self.markdown[key] = MarkdownEntry(rendered, links)

