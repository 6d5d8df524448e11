"""The one place where `sitegen import` finds what reads the other tool's config and converts its content.

The in-place readers of Hugo and Jekyll sites (`sitegen.dialects`) already know how to read a site's
configuration into a `SiteConfig` and how to expand its in-content syntax (shortcodes, Liquid) into Markdown;
the importer reuses exactly those, so a site imported and a site read in place agree. A dialect is found by
name in `DIALECTS`; until a reader for a tool exists, its config reads as sitegen's defaults, its content is
copied as written, and the report says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sitegen.config import SiteConfig, load_config
from sitegen.dialects import DIALECTS, NATIVE, Dialect
from sitegen.dialects.base import ExpandContext
from sitegen.errors import Diagnostic

KINDS = ("hugo", "jekyll")
"""The tools `sitegen import` reads."""

ConfigReader = Callable[[Path], tuple[SiteConfig, list[Diagnostic]]]
ContentConverter = Callable[[str, str, int, ExpandContext | None], tuple[str, list[Diagnostic]]]


@dataclass(frozen=True)
class Converters:
    """What turns one tool's site into sitegen's: its config reader and its content converter."""

    kind: str
    """`hugo` or `jekyll`."""
    read_config: ConfigReader
    """Site folder -> (SiteConfig, warnings for keys that could not map)."""
    convert_content: ContentConverter
    """(body, site-relative source path, file line of the body, what it may look up) -> (Markdown, warnings
    with file:line)."""
    dialect: Dialect
    """The in-place reader these come from (its naming rules give in-place URLs)."""
    complete: bool
    """False when no in-place reader for this tool exists yet (defaults and text as written are used)."""


def converters_for(kind: str) -> Converters:
    """The converters of `kind` (`hugo` or `jekyll`), from the dialect of that name."""
    dialect = next((d for d in DIALECTS if d.name == kind), None)
    if dialect is None:
        return Converters(kind, _defaults_only, _content_of(NATIVE), NATIVE, complete=False)
    return Converters(kind, dialect.load_config, _content_of(dialect), dialect, complete=True)


def _content_of(dialect: Dialect) -> ContentConverter:
    """The dialect's `expand`, given the page's path as the build gives it (Hugo's: relative to content/)."""

    def convert(body: str, source: str, body_line: int, context: ExpandContext | None
                ) -> tuple[str, list[Diagnostic]]:
        name = source.removeprefix("content/") if dialect.name == "hugo" else source
        return dialect.expand(body, name, body_line, context)

    return convert


def _defaults_only(site_dir: Path) -> tuple[SiteConfig, list[Diagnostic]]:
    """sitegen's defaults, for a tool whose config no reader understands yet."""
    return load_config(site_dir)
