"""Reading a built search index as search.js does: a shard from the pack that holds it, a page's result from its
bundle (see sitegen/outputs/search.py)."""

from __future__ import annotations

import json
from typing import Any

from sitegen.outputs.search import shard_name


def meta(files: dict[str, bytes]) -> dict[str, Any]:
    """The index's meta.json."""
    return json.loads(files["searchindex/meta.json"])  # type: ignore[no-any-return]


def pack_path(files: dict[str, bytes], key: str) -> str:
    """The output path of the pack that holds the shard `key`."""
    m, at = meta(files), 0
    for digit in m["packs"]:
        count = int(digit, 36)
        if key in m["keys"][at:at + count]:
            return f"searchindex/t/{shard_name(m['keys'][at])}.json"
        at += count
    raise KeyError(key)


def shard(files: dict[str, bytes], key: str) -> dict[str, str]:
    """The terms of the shard `key` and their postings."""
    return json.loads(files[pack_path(files, key)])[key]  # type: ignore[no-any-return]


def shards(files: dict[str, bytes]) -> dict[str, dict[str, str]]:
    """Every shard, by key."""
    out: dict[str, dict[str, str]] = {}
    for path, data in files.items():
        if path.startswith("searchindex/t/"):
            out.update(json.loads(data))
    return out


def doc(files: dict[str, bytes], page: int) -> dict[str, str]:
    """The result file of page id `page`: its URL, title, date, language and text."""
    first = 0
    for digit in meta(files)["docs"]:
        count = int(digit, 36)
        if page < first + count:
            return json.loads(files[f"searchindex/p/{first}.json"])[page - first]  # type: ignore[no-any-return]
        first += count
    raise KeyError(page)
