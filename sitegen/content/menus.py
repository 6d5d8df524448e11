"""Menu entries written in a page's front matter, as Hugo reads them:

    menu: main                     menu: [main, footer]           menu:
                                                                    main: {name: Home, weight: 2}

Each page that names the `main` menu joins the site's menu at its own URL, with the entry's `name` (else the
page's `linkTitle`, else its title) and `weight` (else the page's weight).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sitegen.config import MenuItem
from sitegen.content.page import Page

MAIN = "main"


def _main_entry(value: Any) -> Mapping[str, Any] | None:
    """The `main` entry of a page's `menu` value (`{}` when named without settings), or None."""
    if isinstance(value, str):
        return {} if value == MAIN else None
    if isinstance(value, list):
        return {} if MAIN in value else None
    if isinstance(value, Mapping) and MAIN in value:
        entry = value[MAIN]
        return entry if isinstance(entry, Mapping) else {}
    return None


def page_menu_items(pages: Mapping[str, Page], urls: Mapping[str, str]) -> list[MenuItem]:
    """The main-menu entries of published pages (`urls`: source -> site path), in source order."""
    items = []
    for source in sorted(pages):
        page = pages[source]
        entry = _main_entry(page.params.get("menu", page.params.get("menus")))
        if entry is None or source not in urls:
            continue
        name = entry.get("name") or page.params.get("linkTitle") or page.title
        weight = entry.get("weight", page.weight)
        items.append(MenuItem(str(name), urls[source], weight if isinstance(weight, int) else page.weight))
    return items
