"""Pagination of list pages: page 1 at the list's own URL, page N at `<url>page/N/`."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Paginator:
    """One page of a paginated list, as templates see it (`paginator.pages`, `paginator.next_url`, ...)."""

    pages: Sequence[Any]
    """The items on this page (a lazy ViewList slice for page lists: views are made when rendered)."""
    number: int
    """1-based page number."""
    total_pages: int
    total: int
    """Items over all pages."""
    base_path: str
    """Site path of page 1 (`/posts/`)."""
    url_for: Any
    """Builds a URL (with base path) from a site path."""

    def path_of(self, number: int) -> str:
        """Site path of page `number`."""
        return self.base_path if number == 1 else f"{self.base_path}page/{number}/"

    @property
    def has_prev(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.total_pages

    @property
    def prev_url(self) -> str | None:
        return self.url_for(self.path_of(self.number - 1)) if self.has_prev else None

    @property
    def next_url(self) -> str | None:
        return self.url_for(self.path_of(self.number + 1)) if self.has_next else None

    @property
    def first_url(self) -> str:
        return self.url_for(self.path_of(1))

    @property
    def last_url(self) -> str:
        return self.url_for(self.path_of(self.total_pages))

    @property
    def numbers(self) -> list[int]:
        """Every page number (for a numbered pager)."""
        return list(range(1, self.total_pages + 1))

    def url_of(self, number: int) -> str:
        """URL of page `number`."""
        return self.url_for(self.path_of(number))


def paginate(items: Sequence[Any], per_page: int, base_path: str, url_for: Any,
             numbers: Collection[int] | None = None) -> list[Paginator]:
    """Split `items` into pages; an empty list still gives one (empty) page. With `numbers`, only those pages
    (that exist) are made."""
    total = max(1, -(-len(items) // per_page))
    wanted = range(1, total + 1) if numbers is None else sorted(n for n in set(numbers) if 1 <= n <= total)
    return [Paginator(items[(n - 1) * per_page:n * per_page] if items else [], n, total, len(items), base_path,
                      url_for) for n in wanted]
