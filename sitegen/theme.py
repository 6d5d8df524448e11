"""Where the active theme lives: the site's own `themes/<name>/`, else the themes shipped with sitegen."""

from __future__ import annotations

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
