"""Outputs beyond pages: each generator takes the assembled, rendered site and returns more files.

A generator is `fn(ctx: OutputContext) -> dict[str, bytes]`; `_generators()` lists them in the order they run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sitegen.views import SiteState


@dataclass(frozen=True)
class OutputContext:
    """What an output generator may read: the site state, where the site and theme are, and files so far."""

    state: SiteState
    site_dir: Path
    themes: list[Path]
    files: dict[str, bytes]


Generator = Callable[[OutputContext], dict[str, bytes]]

def _generators() -> list[Generator]:
    from sitegen.outputs import aliases, feeds, search, sitemap

    return [feeds.generate, sitemap.generate, aliases.generate, search.generate]


def generate_outputs(state: SiteState, site_dir: Path, themes: list[Path],
                     files: dict[str, bytes]) -> dict[str, bytes]:
    """Run every generator in order; later generators see earlier ones' files."""
    ctx = OutputContext(state, site_dir, themes, dict(files))
    produced: dict[str, bytes] = {}
    for generator in _generators():
        out = generator(ctx)
        produced.update(out)
        ctx.files.update(out)
    return produced
