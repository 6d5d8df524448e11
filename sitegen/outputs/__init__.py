"""Outputs beyond pages: each generator takes the assembled, rendered site and returns more files.

A generator is `fn(ctx: OutputContext) -> dict[str, bytes]`; `_generators()` lists them in the order they run.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sitegen.memo import BuildMemo, digest
from sitegen.views import SiteState


@dataclass(frozen=True)
class OutputContext:
    """What an output generator may read: the site state, where the site and theme are, and files so far."""

    state: SiteState
    site_dir: Path
    themes: list[Path]
    files: dict[str, bytes]
    memo: BuildMemo
    site_key: str
    """Digest of config, every page's metadata and body: generators' output is a function of it (and files)."""


Generator = Callable[[OutputContext], dict[str, bytes]]

def _generators() -> list[Generator]:
    from sitegen.outputs import aliases, feeds, search, sitemap

    return [feeds.generate, sitemap.generate, aliases.generate, search.generate]


def content_key(state: SiteState, memo: BuildMemo) -> str:
    """Digest of the config, every page's metadata and URL, and every page's body."""
    parts = [memo.config_key, repr(state.build_date)]
    parts += [f"{state.meta_key(s)}\x00{state.body_key(s)}" for s in sorted(state.tree.pages)]
    return digest("\n".join(parts))


def generate_outputs(state: SiteState, site_dir: Path, themes: list[Path],
                     files: dict[str, bytes], memo: BuildMemo | None = None) -> dict[str, bytes]:
    """Run every generator in order; later generators see earlier ones' files.

    A generator's result is reused from the memo while the site's content key and the names of the files
    produced so far are unchanged (generators read page data, and only check which files exist).
    """
    memo = memo or BuildMemo()
    key = content_key(state, memo)
    ctx = OutputContext(state, site_dir, themes, dict(files), memo, key)
    produced: dict[str, bytes] = {}
    names = digest("\n".join(sorted(ctx.files)))
    for generator in _generators():
        name = f"{generator.__module__}.{generator.__qualname__}"
        blob_key = f"gen:{name}:{key}:{names}"
        cached = memo.blobs.get(blob_key)
        if cached is not None:
            memo.used_blobs.add(blob_key)
            out = pickle.loads(cached)  # noqa: S301 - our own in-memory/signed data
        else:
            out = generator(ctx)
            memo.blob(blob_key, functools.partial(pickle.dumps, out))
        produced.update(out)
        ctx.files.update(out)
    return produced
