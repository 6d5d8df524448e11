"""One owner per output path: who claims each file of the built site, and every claim that cannot stand.

The build gathers claims in order (static files, content resources, pages, CV files, generated files such as
feeds, the sitemap and alias redirects) and checks them here before anything is written:

- two claims on one path (a page at `/sitemap.xml`, a page and `static/robots.txt`) are an error naming both,
  instead of the later one silently replacing the earlier;
- a file and a folder of the same name (`url: /v1.0` beside `static/v1.0/`, `slug: index.html` beside the
  home page) are an error naming both: one of them could only be written by deleting the other;
- two paths that differ only in case (`About/index.html`, `about/index.html`; a file `Notes` and a folder
  `notes/`) are an error naming both: on macOS and Windows one would replace the other;
- a path that is not a plain relative path inside the output, or lies under a dot folder other than
  `.well-known/` (`url: /.git/HEAD`), is an error naming its owner.

The writer refuses such paths too, as the last line of defence; here they are reported with their sources,
all of them at once, while the previous output is still untouched.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sitegen.errors import OutputError, SitegenError
from sitegen.writer import path_problem


@dataclass
class OutputOwners:
    """Output path -> the source that claimed it (a site-relative file such as `content/a.md`, or a description
    of a generated file), and the errors found while claiming."""

    owners: dict[str, str] = field(default_factory=dict)
    errors: list[SitegenError] = field(default_factory=list)

    def claim(self, paths: Iterable[str], owner: str | dict[str, str]) -> None:
        """Claim `paths` for `owner` (one label for all, or a label per path); a path claimed twice is an error
        naming both owners (the first claim keeps the path)."""
        for path in paths:
            label = owner if isinstance(owner, str) else owner.get(path, "a generated page")
            other = self.owners.get(path)
            if other is None:
                self.owners[path] = label
            elif other != label:
                self.errors.append(OutputError(
                    f"two sources write the output file `{path}`: {other} and {label}",
                    path=_located(label) or _located(other),
                    hint="give one of them another url/slug/alias, or rename or remove the other file"))

    def check(self) -> list[SitegenError]:
        """Every error: double claims (found while claiming), paths differing only in case, unsafe paths, and
        files standing where another claim needs a folder."""
        errors = list(self.errors)
        paths = sorted(self.owners)
        folded: dict[str, str] = {}
        for path in paths:
            other = folded.setdefault(path.casefold(), path)
            if other != path:
                errors.append(OutputError(
                    f"the output files `{other}` (from {self.owners[other]}) and `{path}` (from {self.owners[path]}) "
                    "differ only in case: on macOS and Windows one would replace the other",
                    path=_located(self.owners[path]) or _located(self.owners[other]),
                    hint="rename one of them (or give the page another url/slug) so that the names differ in "
                         "more than case"))
        for path in paths:
            problem = path_problem(path)
            if problem is not None:
                errors.append(OutputError(f"cannot write the output file `{path}`: {problem}",
                                          path=_located(self.owners[path]),
                                          hint="change the page's url, slug or aliases (or rename the file)"))
        for path in paths:
            parts = path.split("/")
            for depth in range(1, len(parts)):
                folder = folded.get("/".join(parts[:depth]).casefold())
                if folder is not None:
                    other = self.owners[folder]
                    case = "" if folder == "/".join(parts[:depth]) else \
                        " (the names differ only in case, the same name on macOS and Windows)"
                    errors.append(OutputError(
                        f"`{folder}` would be both a file (from {other}) and a folder holding `{path}` "
                        f"(from {self.owners[path]}){case}", path=_located(other) or _located(self.owners[path]),
                        hint="give one of them another url/slug (a page's url ending in `/` is a folder)"))
                    break
        return errors


def _located(label: str) -> str | None:
    """The file to name at the start of the message: a site file's path, not a description or the key of a
    generated page (`_taxonomies/tags`)."""
    first = label.split(" ", 1)[0]
    return first if "/" in first and not label.startswith(("the ", "a ", "_")) else None
