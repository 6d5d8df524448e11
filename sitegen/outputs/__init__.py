"""Outputs beyond pages: each generator takes the assembled, rendered site and returns more files.

A generator is `fn(ctx: OutputContext) -> dict[str, bytes]`; `GENERATORS` lists them in the order they run.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Mapping
from pathlib import Path

from sitegen.memo import BuildMemo, digest, stable
from sitegen.outputs import aliases, calendar, feeds, newsfeed, search, sitemap
from sitegen.outputs.context import Generator, OutputContext
from sitegen.views import SiteState

GENERATORS: tuple[tuple[Generator, bool], ...] = (
    (feeds.generate, True), (sitemap.generate, False), (aliases.generate, False), (search.generate, True),
    (calendar.generate, True), (newsfeed.generate, True))
"""Each generator in the order they run, and whether it reads page bodies (or only metadata and URLs)."""


def content_key(state: SiteState, memo: BuildMemo) -> str:
    """Digest of the config and every page's metadata and URL (not bodies)."""
    return digest(f"{memo.config_key}\x00{stable(state.build_date)}\x00{state.metadata_digest()}")


def generate_outputs(state: SiteState, site_dir: Path, themes: list[Path],
                     files: dict[str, bytes], memo: BuildMemo | None = None,
                     made_by: dict[str, str] | None = None, skip: frozenset[str] = frozenset(),
                     edited: frozenset[str] | None = None, previous: Mapping[str, bytes] | None = None,
                     jobs: int | None = 1) -> dict[str, bytes]:
    """Run every generator in order; later generators see earlier ones' files. `made_by`, when given, is
    filled with output path -> the generator's name (`feeds`, `sitemap`, `aliases`, `search`), for messages.

    A generator that reads only metadata is reused from the memo while every page's metadata and the names of
    the files produced so far are unchanged; feeds and search memoize their entries by page content. Generators
    named in `skip` (by module name) are left out. A quick rebuild names the `edited` pages and gives the
    `previous` build's files: a feed none of them is in is kept as it was. With `jobs` other than 1, a large
    site's search index is made in a forked copy of this process meanwhile, when it is not memoized
    (`search.start`): the same files and memo as made in its turn.
    """
    memo = memo or BuildMemo()
    meta_key = content_key(state, memo)
    ctx = OutputContext(state, site_dir, themes, dict(files), memo, meta_key, edited, previous or {})
    names = digest("\n".join(sorted(ctx.files)))
    started: search.Started | None = None
    try:
        if jobs != 1 and "search" not in skip:
            started = search.start(ctx, jobs)
        produced = _generate(ctx, skip, names, made_by, started)
    finally:
        if started is not None:
            started.cancel()
    return produced


def _generate(ctx: OutputContext, skip: frozenset[str], names: str, made_by: dict[str, str] | None,
              started: search.Started | None) -> dict[str, bytes]:
    memo, meta_key = ctx.memo, ctx.meta_key
    produced: dict[str, bytes] = {}
    for generator, reads_bodies in GENERATORS:
        if generator.__module__.rsplit(".", 1)[-1] in skip:
            continue
        if started is not None and generator is search.generate:
            out = started.files(memo)
        elif reads_bodies:  # feeds and search memoize each entry by page content themselves
            out = generator(ctx)
        else:
            name = f"{generator.__module__}.{generator.__qualname__}"
            out = pickle.loads(memo.blob(f"gen:{name}:{meta_key}:{names}",  # noqa: S301 - our own memo
                                         functools.partial(_pickled, generator, ctx)))
        produced.update(out)
        if made_by is not None:
            made_by.update(dict.fromkeys(out, generator.__module__.rsplit(".", 1)[-1]))
        ctx.files.update(out)
    return produced


def _pickled(generator: Generator, ctx: OutputContext) -> bytes:
    return pickle.dumps(generator(ctx))
