"""`sitegen theme`: copy a theme template into the site to change it, and list the site's overriding templates."""

from __future__ import annotations

import argparse
from pathlib import Path

from sitegen.config import load_config
from sitegen.errors import ConfigError
from sitegen.theme import copied_template, find_overrides, theme_dirs

_STATUS = {
    "current": "theme original unchanged since the copy",
    "changed": "THEME ORIGINAL CHANGED since the copy: review yours against",
    "unknown": "no copy record: compare with the theme's file by hand",
    "gone": "the theme no longer has this template",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen theme`."""
    parser.add_argument("action", choices=["overrides", "copy"],
                        help="overrides: list the site's templates that replace the theme's; "
                             "copy NAME: copy the theme's layouts/NAME into the site's layouts/ to change it")
    parser.add_argument("name", nargs="?", help="for copy: a template under layouts/, e.g. partials/footer.html")
    parser.add_argument("--source", "-s", type=Path, default=Path("."), help="site folder (default: .)")


def run(args: argparse.Namespace) -> int:
    """List overrides, or copy one template (never over an existing file)."""
    config, _ = load_config(args.source)
    [theme] = theme_dirs(args.source, config.theme)
    site_layouts, theme_layouts = args.source / "layouts", theme / "layouts"
    if args.action == "overrides":
        found = find_overrides(site_layouts, theme_layouts)
        if not found:
            print(f"no template of the site's layouts/ replaces one of theme `{config.theme}`")
        for item in found:
            where = f" {theme_layouts / item.name}" if item.status == "changed" else ""
            print(f"layouts/{item.name}: {_STATUS[item.status]}{where}")
        return 1 if any(item.status == "changed" for item in found) else 0
    if not args.name:
        raise ConfigError("`sitegen theme copy` needs the template's name",
                          hint="e.g. sitegen theme copy partials/footer.html")
    name = args.name.removeprefix("layouts/")
    original = theme_layouts / name
    if ".." in Path(name).parts or not original.is_file():
        raise ConfigError(f"theme `{config.theme}` has no template layouts/{name}",
                          hint=f"its templates are under {theme_layouts}")
    target = site_layouts / name
    if target.exists():
        raise ConfigError(f"layouts/{name} exists already; sitegen does not overwrite it", path=str(target),
                          hint="rename or remove it first, then copy again")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(copied_template(config.theme, name, original.read_text(encoding="utf-8")), encoding="utf-8")
    if not args.quiet:
        print(f"copied {original} to {target}; `sitegen theme overrides` will tell you when the theme's changes")
    return 0
