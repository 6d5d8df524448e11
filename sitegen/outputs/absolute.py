"""Make the links and images inside rendered HTML absolute, for feeds read outside the site."""

from __future__ import annotations

import re
from urllib.parse import urljoin

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
_ATTR = re.compile(r"""(\s(?:href|src)=)(["'])(.*?)\2""", re.I | re.S)


def absolutize(html: str, base: str, origin: str) -> str:
    """Rewrite `href`/`src` values: `/x` -> origin + `/x`, `img.png` -> resolved against `base` (page URL)."""

    def fix(match: re.Match[str]) -> str:
        value = match.group(3)
        if not value or value.startswith(("#", "//")) or _SCHEME.match(value):
            return match.group(0)
        new = origin + value if value.startswith("/") else urljoin(base, value)
        return f"{match.group(1)}{match.group(2)}{new}{match.group(2)}"

    return _ATTR.sub(fix, html)
