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
class BuildMemo:
    """What one build can hand to the next."""

    config_key: str = ""
    """Digest of everything that changes how pages parse and render (config, sitegen version)."""
    pages: dict[tuple[str, str], Page] = field(default_factory=dict)
    """(content path, text digest) -> parsed page."""
    markdown: dict[tuple[str, int, str], MarkdownEntry] = field(default_factory=dict)
    """(text digest, body line, page source) -> rendered Markdown."""
    used_pages: set[tuple[str, str]] = field(default_factory=set)
    used_markdown: set[tuple[str, int, str]] = field(default_factory=set)
    hits: int = 0
    misses: int = 0

    def begin(self, config_key: str) -> None:
        """Start a build: forget everything when the configuration changed."""
        if config_key != self.config_key:
            self.pages.clear()
            self.markdown.clear()
            self.config_key = config_key
        self.used_pages.clear()
        self.used_markdown.clear()
        self.hits = self.misses = 0

    def finish(self) -> None:
        """End a build: drop entries it did not use, so memory follows the site."""
        self.pages = {k: v for k, v in self.pages.items() if k in self.used_pages}
        self.markdown = {k: v for k, v in self.markdown.items() if k in self.used_markdown}

    def page(self, rel: str, text: str, parse: Callable[[], Page]) -> Page:
        """The parsed page for this exact text (a fresh copy, since later steps may fill in fields)."""
        key = (rel, digest(text))
        self.used_pages.add(key)
        if key not in self.pages:
            self.misses += 1
            self.pages[key] = parse()
        else:
            self.hits += 1
        return copy.deepcopy(self.pages[key])

    def rendered(self, source: str, body: str, body_line: int, resolve: Callable[[str], str | None],
                 render: Callable[[Callable[[str], str | None]], Rendered]) -> Rendered:
        """Rendered Markdown, reused when every link it resolved still resolves the same way."""
        key = (digest(body), body_line, source)
        self.used_markdown.add(key)
        entry = self.markdown.get(key)
        if entry is not None and all(resolve(href) == result for href, result in entry.links):
            return entry.rendered
        seen: dict[str, str | None] = {}

        def recording(href: str) -> str | None:
            seen[href] = resolve(href)
            return seen[href]

        result = render(recording)
        self.markdown[key] = MarkdownEntry(result, tuple(sorted(seen.items(), key=lambda kv: kv[0])))
        return result

