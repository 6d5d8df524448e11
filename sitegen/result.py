"""What a build produces (`BuildResult`) and what the dev server's quick rebuilds reuse (`RebuildBasis`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from sitegen.config import SiteConfig
from sitegen.content.sources import SourceFile
from sitegen.content.urls import nfc
from sitegen.errors import Diagnostic
from sitegen.render_pages import PageRendering
from sitegen.templates import TrackingEnvironment
from sitegen.views import SiteState


@dataclass
class BuildResult:
    """The whole site in memory: output path -> bytes, plus what the build noticed."""

    files: dict[str, bytes]
    config: SiteConfig
    warnings: list[Diagnostic] = field(default_factory=list)
    pages: int = 0
    """HTML pages rendered."""
    seconds: float = 0.0
    sources: dict[str, str] = field(default_factory=dict)
    """Output path -> the source file it came from (for messages and `sitegen check`)."""
    state: SiteState | None = None
    basis: RebuildBasis | None = None
    """What the dev server's quick rebuilds reuse (`sitegen.incremental`)."""
    touched: frozenset[str] | None = None
    """A quick rebuild's files made again (the others are the build's before it); None: any may have changed."""
    labels: dict[str, str] = field(default_factory=dict)
    """How messages name files read in place from another tool's layout (`content/posts/x.md` -> `_posts/x.md`)."""
    rendered: list[str] = field(default_factory=list)
    """Output paths this build rendered through their templates (the others were reused from the memo)."""


@dataclass
class RebuildBasis:
    """What a quick rebuild reuses from the build before it."""

    rendering: PageRendering
    """Templates, Markdown renderer and the site-wide key (data, CVs, publications): unchanged by a quick
    rebuild."""
    page_sources: list[SourceFile]
    """Every Markdown file under content/."""
    before_generators: dict[str, bytes]
    """The files the output generators saw (assets, pages, CV files)."""
    full_build_sizes: tuple[int, int, int] | None = None
    """How many parsed pages, Markdown renderings and blobs the last full build left in the memo (taken at the
    first quick rebuild after it): entries after them are quick rebuilds' own (`sitegen.incremental._prune`)."""
    skip: frozenset[str] = frozenset()
    """Output generators the build left out (`search` under the dev server, which indexes in the background)."""
    templates: frozenset[str] | None = None
    """Every template name that existed when the pages were rendered (site, theme and `theme/` names): while the
    same names exist, which template each page picks cannot change, only their texts (`sitegen.incremental`)."""
    environment: TrackingEnvironment | None = field(default=None, compare=False, repr=False)
    """The Jinja environment the pages were rendered with (`render_pages.page_environment` of `rendering` and the
    build's memo), its templates loaded: a quick rebuild of page texts renders with it (no template changed),
    rather than read and load every template again."""

    @cached_property
    def by_rel(self) -> dict[str, SourceFile]:
        """Content-relative path -> source."""
        return {s.rel: s for s in self.page_sources}

    def source_of(self, path: Path) -> SourceFile | None:
        """The Markdown source at this file path (as the watcher reports it), if it is one."""
        try:
            rel = nfc(path.resolve().relative_to((self.rendering.site_dir / "content").resolve()).as_posix())
        except (OSError, ValueError):
            return None
        source = self.by_rel.get(rel)
        return source if source is not None and source.path.resolve() == path.resolve() else None
