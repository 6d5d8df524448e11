"""Build a tiny Hugo site (no sitegen.yaml) from an inline file map, as Hugo's own tests do."""

from __future__ import annotations

from pathlib import Path

from sitegen.build import BuildResult
from tests.conftest import MINIMAL_LAYOUTS, build, write_files

HUGO_TOML = 'baseURL = "https://example.org/"\ntitle = "Hugo site"\n'


def hugo_site(root: Path, files: dict[str, str | bytes], *, layouts: bool = False) -> Path:
    """Write the files (a `hugo.toml` unless another config is given); sitegen's theme renders them (a Hugo
    site's own `layouts/` are Go templates, never used)."""
    merged: dict[str, str | bytes] = {k: v for k, v in MINIMAL_LAYOUTS.items()} if layouts else {}
    if not any(name.startswith(("hugo.", "config.", "config/")) for name in files):
        merged["hugo.toml"] = HUGO_TOML
    merged.update(files)
    return write_files(root, merged)


def build_hugo(root: Path, files: dict[str, str | bytes], **options: object) -> BuildResult:
    """Write and build a Hugo site in memory."""
    return build(hugo_site(root, files), **options)
