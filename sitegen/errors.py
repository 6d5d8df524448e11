"""The error hierarchy: every user-facing failure is a SitegenError with a location and a hint."""

from __future__ import annotations

from dataclasses import dataclass, field


class SitegenError(Exception):
    """A user-facing error: where (path, line, col), what (message), and how to fix it (hint)."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        col: int | None = None,
        hint: str | None = None,
        causes: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.col = col
        self.hint = hint
        self.causes = list(causes or [])

    @property
    def location(self) -> str:
        """`path:line:col`, omitting the parts that are unknown."""
        parts = [self.path or "<site>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def sort_key(self) -> tuple[str, int, int, str]:
        """Order errors by path, then position, then message."""
        return (self.path or "", self.line or 0, self.col or 0, self.message)

    def format(self) -> str:
        """Render as `path:line:col: message`, then `Reason:` lines, then the hint."""
        lines = [f"{self.location}: {self.message}"]
        lines.extend(f"  Reason: {cause}" for cause in self.causes)
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


class ConfigError(SitegenError):
    """Invalid site configuration (`sitegen.yaml`, CV options, ...)."""


class ContentError(SitegenError):
    """Invalid content: front matter, dates, URLs, links, data files."""


class TemplateError(SitegenError):
    """A template that cannot be found, compiled or rendered."""


class OutputError(SitegenError):
    """An output directory that is unsafe to write, or a write that failed."""


class ErrorGroup(SitegenError):
    """All the errors of one build phase, reported together (sorted by path and position)."""

    def __init__(self, errors: list[SitegenError]) -> None:
        flat: list[SitegenError] = []
        self.errors: list[SitegenError]
        for err in errors:
            flat.extend(err.errors if isinstance(err, ErrorGroup) else [err])
        self.errors = sorted(flat, key=lambda e: e.sort_key())  # type: ignore[misc]
        super().__init__(f"{len(self.errors)} error(s)")

    def format(self) -> str:
        """Every error, one block each, then a count."""
        blocks = [e.format() for e in self.errors]
        blocks.append(f"Error: {len(self.errors)} error(s); nothing was written.")
        return "\n".join(blocks)


@dataclass(frozen=True)
class Diagnostic:
    """A warning: something suspicious that does not stop the build (an error under `--strict`)."""

    message: str
    path: str | None = None
    line: int | None = None
    col: int | None = None
    hint: str | None = None
    causes: tuple[str, ...] = field(default_factory=tuple)

    def to_error(self) -> SitegenError:
        """The same diagnostic as an error, for `--strict`."""
        return SitegenError(self.message, path=self.path, line=self.line, col=self.col,
                            hint=self.hint, causes=list(self.causes))

    def format(self) -> str:
        """`path:line:col: warning: message`."""
        return "warning: " + self.to_error().format()


def raise_if_any(errors: list[SitegenError]) -> None:
    """Raise the collected errors of a phase as one ErrorGroup (or the single error itself)."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ErrorGroup(errors)
