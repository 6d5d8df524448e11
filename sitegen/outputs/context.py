"""What an output generator reads (`OutputContext`) and what it is (`Generator`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.memo import BuildMemo
from sitegen.views import SiteState


@dataclass(frozen=True)
class OutputContext:
    """What an output generator may read: the site state, where the site and theme are, and files so far."""

    state: SiteState
    site_dir: Path
    themes: list[Path]
    files: dict[str, bytes]
    memo: BuildMemo
    meta_key: str
    """Digest of the config and every page's metadata and URL (not bodies): it stays put while only page
    texts change."""
    edited: frozenset[str] | None = None
    """In a quick rebuild (`sitegen.incremental`): the pages whose text changed, nothing else having changed."""
    previous: Mapping[str, bytes] = field(default_factory=dict)
    """In a quick rebuild: the files of the build before, which a generator may keep when no edited page is in
    them."""


Generator = Callable[[OutputContext], dict[str, bytes]]
