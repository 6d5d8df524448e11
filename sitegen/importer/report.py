"""What `sitegen import` did: every file converted or copied, and every construct it could not convert."""

from __future__ import annotations

from dataclasses import dataclass, field

from sitegen.errors import Diagnostic
from sitegen.importer.links import BrokenLink


@dataclass
class ImportReport:
    """The report printed at the end of an import (and returned to tests)."""

    kind: str
    source: str
    dest: str
    converted: list[tuple[str, str]] = field(default_factory=list)
    """(source path, new path) of each page converted."""
    copied: list[tuple[str, str]] = field(default_factory=list)
    """(source path, new path) of each file copied as it is."""
    written: list[tuple[str, str]] = field(default_factory=list)
    """(new path, why) of files the importer made (sitegen.yaml, data/cv.yaml, cv.md...)."""
    pinned: list[tuple[str, str, str]] = field(default_factory=list)
    """(new path, old URL, URL sitegen would give) of pages that keep their old URL with `url:`."""
    explicit_urls: set[str] = field(default_factory=set)
    """Source pages whose URL is written in their front matter (`permalink:`, `url:`)."""
    notes: list[Diagnostic] = field(default_factory=list)
    """What could not be converted, with file:line and what to do."""
    skipped: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Folder or file not imported -> (what it is, number of files)."""
    broken_links: list[BrokenLink] = field(default_factory=list)
    """Links of the pages that lead nowhere in the original site either (kept as written)."""

    def format(self, verbose_copies: bool = False) -> str:
        """The text report: converted files, made files, then everything left for the user to do."""
        lines = [f"Imported the {self.kind} site {self.source} into {self.dest}:"]
        lines += [f"  wrote {new} (converted from {src})" for src, new in self.converted]
        lines += [f"  wrote {new} ({why})" for new, why in self.written]
        lines += [f"  kept {url} for {new} with `url:` (sitegen's own rule gives {other})"
                  for new, url, other in self.pinned]
        if verbose_copies:
            lines += [f"  copied {src} -> {new}" for src, new in self.copied]
        else:
            lines.append(f"  copied {len(self.copied)} static, data and resource files as they are")
        for where, (what, count) in sorted(self.skipped.items()):
            files = f"{count} file{'s' if count != 1 else ''}"
            lines.append(f"  not converted {where} ({files}): {what}")
            lines.append("      what to do: sitegen uses its default theme; recreate what you need as Jinja2 "
                         "templates in layouts/ (docs/importing.md)")
        for note in self.notes:
            where = note.path or ""
            if note.line:
                where += f":{note.line}"
            where = f" {where}" if where else ""
            lines.append(f"  not converted{where}: {note.message}".replace(": not converted:", ":"))
            if note.hint:
                lines.append(f"      what to do: {note.hint}")
        for broken in self.broken_links:
            lines.append(f"  broken in the original {broken.source}: a link to {broken.href} (kept as written in "
                         f"{broken.page})")
            lines.append(f"      what to do: {broken.why}")
        lines.append(f"{len(self.converted)} pages converted, {len(self.copied)} files copied, "
                     f"{len(self.notes)} constructs and {len(self.skipped)} folders not converted"
                     + (f", {len(self.broken_links)} links broken in the original site" if self.broken_links
                        else "") + ".")
        lines.append(f"Next: sitegen check --source {self.dest}")
        return "\n".join(lines)
