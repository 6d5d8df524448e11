"""Where the active theme lives: the site's own `themes/<name>/`, else the themes shipped with sitegen."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import sitegen
from sitegen.errors import ConfigError


def theme_dirs(site_dir: Path, theme: str) -> list[Path]:
    """The folders of the active theme, most specific first: `<site>/themes/<name>`, then sitegen's own."""
    package = Path(sitegen.__file__).parent
    candidates = [site_dir / "themes" / theme, package / "themes" / theme, package.parent / "themes" / theme]
    for candidate in candidates:
        if (candidate / "layouts").is_dir():
            return [candidate]
    raise ConfigError(f"theme `{theme}` not found", path="sitegen.yaml",
                      hint=f"looked in {', '.join(str(c) for c in candidates[:1])} and sitegen's themes; "
                           "create themes/<name>/layouts/ or set `theme: default`")


COPY_MARK = "sitegen theme copy:"
"""Opens the comment `sitegen theme copy` puts on the first line of a copied template."""
_COPY_LINE = re.compile(r"\{#-? *sitegen theme copy: (?P<theme>[\w.-]+)/(?P<name>\S+) "
                        r"sha256:(?P<digest>[0-9a-f]{64}) *-?#\}")


@dataclass(frozen=True)
class Override:
    """A site template that replaces the theme's template of the same name."""

    name: str
    """Path under layouts/ (`partials/footer.html`)."""
    status: str
    """`current` (the theme's original is unchanged since the copy), `changed` (it changed: review the copy),
    `unknown` (no copy record: compare by hand) or `gone` (the theme no longer has it)."""


def template_digest(text: str) -> str:
    """The digest recorded for a theme template (of its text, so line endings or a reinstall do not matter)."""
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8")).hexdigest()


def copied_template(theme: str, name: str, original: str) -> str:
    """The text `sitegen theme copy` writes: a first-line comment naming the original and its digest, then the
    original. The comment renders as nothing."""
    return f"{{#- {COPY_MARK} {theme}/{name} sha256:{template_digest(original)} -#}}\n{original}"


def find_overrides(site_layouts: Path, theme_layouts: Path) -> list[Override]:
    """Every template under the site's layouts/ that shadows one of the theme, with what changed upstream."""
    out: list[Override] = []
    if not site_layouts.is_dir():
        return out
    for path in sorted(p for p in site_layouts.rglob("*") if p.is_file()):
        name = path.relative_to(site_layouts).as_posix()
        original = theme_layouts / name
        first = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
        mark = _COPY_LINE.search(first)
        if not original.is_file():
            if mark:
                out.append(Override(name, "gone"))
            continue
        if not mark:
            out.append(Override(name, "unknown"))
            continue
        same = mark.group("digest") == template_digest(original.read_text(encoding="utf-8"))
        out.append(Override(name, "current" if same else "changed"))
    return out
