"""Map a request path onto the in-memory build, refusing everything that is not plainly a file of the site."""

from __future__ import annotations

import unicodedata
from collections.abc import Container
from dataclasses import dataclass
from urllib.parse import unquote


@dataclass(frozen=True)
class Resolved:
    """What a request path means: a file, a redirect to the folder URL, or nothing (404) / bad (400)."""

    status: int
    """200, 301 (add the trailing slash), 400 or 404."""
    key: str = ""
    """The output path of the file to serve (for 200)."""
    location: str = ""
    """Where to redirect (for 301)."""


def resolve_request(raw_path: str, files: Container[str], base_path: str = "/") -> Resolved:
    """Resolve `raw_path` (as sent, percent-encoded, query included) within `base_path`."""
    path = raw_path.split("?", 1)[0].split("#", 1)[0]
    if "\x00" in path or "%00" in path.lower():
        return Resolved(400)
    try:
        decoded = unquote(path, errors="strict")
    except UnicodeDecodeError:
        return Resolved(400)
    decoded = unicodedata.normalize("NFC", decoded.replace("\\", "/"))
    if not decoded.startswith("/") or decoded.startswith("//") or ":" in decoded.split("/")[1]:
        return Resolved(404)
    if not decoded.startswith(base_path):
        return Resolved(404)
    rel = decoded[len(base_path):]
    segments = rel.split("/")
    dotted = segments[1:] if segments[0] == ".well-known" else segments  # published, as on real hosts
    if any(seg in (".", "..") for seg in segments) or any(seg.startswith(".") for seg in dotted if seg) \
            or "//" in rel:
        return Resolved(404)
    if rel == "" or rel.endswith("/"):
        key = rel + "index.html"
        return Resolved(200, key) if key in files else Resolved(404)
    if rel in files:
        return Resolved(200, rel)
    if f"{rel}/index.html" in files:
        return Resolved(301, location=path + "/")
    return Resolved(404)
