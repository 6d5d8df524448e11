"""A main menu for an imported site whose config has none, from where Jekyll themes keep theirs (pure).

al-folio marks menu pages in their front matter (`nav: true`, `nav_order: 2`); academicpages and Minimal
Mistakes list them in `_data/navigation.yml` (`main: [{title, url}]`).
"""

from __future__ import annotations

from typing import Any

from sitegen.config import MenuItem


def menu_from_pages(fronts: dict[str, dict[str, Any]], urls: dict[str, str]) -> tuple[MenuItem, ...]:
    """Pages with `nav: true`, ordered by `nav_order` (then title): `fronts` and `urls` are keyed by page path."""
    items: list[MenuItem] = []
    for path, front in sorted(fronts.items()):
        url = urls.get(path)
        if front.get("nav") is not True or url is None:
            continue
        order = front.get("nav_order")
        weight = order if isinstance(order, int) and not isinstance(order, bool) else 100
        items.append(MenuItem(str(front.get("nav_title") or front.get("title") or url), url, weight))
    return tuple(sorted(items, key=lambda m: (m.weight, m.name)))


def menu_from_navigation(navigation: Any) -> tuple[MenuItem, ...]:
    """`_data/navigation.yml`'s `main:` entries, in their order."""
    main = navigation.get("main") if isinstance(navigation, dict) else None
    items: list[MenuItem] = []
    for i, entry in enumerate(main if isinstance(main, list) else []):
        if isinstance(entry, dict) and entry.get("title") and isinstance(entry.get("url"), str):
            items.append(MenuItem(str(entry["title"]), entry["url"], i + 1))
    return tuple(items)
