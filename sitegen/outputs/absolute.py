"""Make the links and images inside rendered HTML absolute, for feeds read outside the site."""

from __future__ import annotations

import re
from urllib.parse import urljoin

_ATTR = re.compile(r"""(\s(?:href|src)=)(["'])(.*?)\2""", re.I | re.S)


def absolutize(html: str, base: str, origin: str) -> str:
    """Rewrite `href`/`src` values: `/x` -> origin + `/x`, `img.png` -> resolved against `base` (page URL)."""

    def fix(match: re.Match[str]) -> str:
        value = match.group(3)
        if not value or value.startswith(("#", "mailto:", "tel:", "data:")) or re.match(r"^[a-z][a-z0-9+.-]*:", value, re.I):
            return match.group(0)
        if value.startswith("//"):
            return match.group(0)
        new = origin + value if value.startswith("/") else urljoin(base, value)
        return f"{match.group(1)}{match.group(2)}{new}{match.group(2)}"

    return _ATTR.sub(fix, html)
