"""A Jekyll site's `_config.yml`, read in place into a SiteConfig (and the layout of its folders).

What maps: title, description, author, url + baseurl, lang/locale, permalink, timezone, paginate,
excerpt_separator, future, show_drafts, include/exclude, defaults, collections (`output: true`, `permalink`),
`_data/navigation.yml` (academicpages' menu), `_bibliography/*.bib` (jekyll-scholar) as sitegen's publications.
Every other key is kept for `site.*` in Liquid and listed once in ONE warning.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

import yaml

from sitegen.config import Author, BuildSettings, MenuItem, SiteConfig, SourceLayout
from sitegen.dialects.timezones import zone_named
from sitegen.errors import ConfigError, Diagnostic
from sitegen.inputlimits import InputLimitError, decode_utf8, located
from sitegen.yamlload import load_yaml, yaml_error

CONFIG = "_config.yml"
DEFAULT_EXCLUDE = (".sass-cache", ".jekyll-cache", "gemfiles", "Gemfile", "Gemfile.lock", "node_modules",
                   "vendor", "package.json", "package-lock.json", "yarn.lock", "*.gemspec", "Rakefile", "Dockerfile",
                   "docker-compose.yml", "bin", "CNAME.bak", "requirements.txt", "*.py", "*.ipynb")
"""Jekyll's own default `exclude` (and files of a site's tooling that are never pages)."""
READ = frozenset({"title", "description", "author", "url", "baseurl", "lang", "locale", "permalink", "timezone",
                  "paginate", "excerpt_separator", "future", "show_drafts", "include", "exclude", "defaults",
                  "collections", "collections_dir", "scholar", "name"})
"""Top-level keys this reader maps onto sitegen's configuration."""
MACHINERY = frozenset({"plugins", "gems", "whitelist", "markdown", "highlighter", "kramdown", "sass", "encoding",
                       "markdown_ext", "incremental", "keep_files", "safe", "lsi", "source", "destination",
                       "theme", "remote_theme", "compress_html", "jekyll-archives", "webrick", "livereload",
                       "imagemagick", "jekyll_tabs", "jekyll-minifier", "unicode", "liquid", "strict_front_matter"})
"""Keys about Jekyll's own machinery (plugins, converters, its theme): nothing of sitegen's changes with them."""
NOT_PAGES = {"_layouts", "_includes", "_sass", "_plugins", "_site", "_data", "_bibliography"}


def read_config(site_dir: Path) -> tuple[SiteConfig, list[Diagnostic]]:
    """`_config.yml` of a Jekyll site as a SiteConfig; warnings for what cannot map (one for all such keys)."""
    path = site_dir / CONFIG
    try:
        text = decode_utf8(path.read_bytes(), CONFIG, ConfigError)
    except OSError as exc:
        raise ConfigError(f"cannot read the file: {exc.strerror or exc}", path=CONFIG) from None
    try:
        raw = load_yaml(text.lstrip("\ufeff"))
    except InputLimitError as exc:
        raise located(exc, CONFIG, kind=ConfigError) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, ConfigError, "YAML", CONFIG) from None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError("the configuration must be a mapping of keys to values", path=CONFIG, line=1)
    return parse_jekyll_config(raw, site_dir, text)


def _text(value: Any, default: str = "") -> str:
    return default if value is None or isinstance(value, dict | list) else str(value)


def key_line(text: str, key: str) -> int | None:
    """The line of a top-level `key:` in the YAML text (for messages), if it is written at a line's start."""
    found = re.search(rf"^['\"]?{re.escape(key)}['\"]?\s*:", text, re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else None


def parse_jekyll_config(raw: dict[str, Any], site_dir: Path, text: str = "") -> tuple[SiteConfig, list[Diagnostic]]:
    """The mapping of `_config.yml` as a SiteConfig (pure but for looking which folders and .bib files exist);
    `text` is the file as written, for the lines of warnings."""
    warnings: list[Diagnostic] = []
    timezone = _text(raw.get("timezone")).strip()
    if timezone and zone_named(timezone) is None:
        warnings.append(Diagnostic(
            f"`timezone: {timezone}` is not a known time zone: dates are read as UTC", path=CONFIG,
            line=key_line(text, "timezone"), hint="write an IANA zone name such as `America/New_York`"))
        timezone = ""
    url = _text(raw.get("url")).rstrip("/")
    baseurl = _text(raw.get("baseurl")).strip("/")
    base_url = (url + "/" + baseurl).rstrip("/") + "/" if url else ("/" + baseurl + "/" if baseurl else "/")
    author = raw.get("author")
    if isinstance(author, dict):
        who = Author(name=_text(author.get("name")), email=_text(author.get("email")))
    else:
        who = Author(name=_text(author or raw.get("name")))
    language = _text(raw.get("lang") or raw.get("locale"), "en").replace("_", "-")
    collections = _collections(raw.get("collections"))
    permalink = _text(raw.get("permalink"), "date") or "date"
    # `collections_dir`: the collections, `_posts` and `_drafts` are in that folder (`_pages` is no collection).
    where = _text(raw.get("collections_dir")).strip("/")
    where = where + "/" if where and where != "." else ""
    renames = [(f"{where}_posts", "posts"), (f"{where}_drafts", "posts/drafts"), ("_pages", "")]
    renames += [(f"{where}_{name}", name) for name, meta in collections.items()
                if meta.get("output") and name != "posts"]
    exclude = tuple(DEFAULT_EXCLUDE) + tuple(str(x) for x in _listed(raw, "exclude", text, warnings)
                                             if isinstance(x, str | int))
    bibs = _bibliography(raw.get("scholar"), site_dir)
    paginate = raw.get("paginate")
    settings: dict[str, Any] = {
        "permalink": permalink,
        "collections": collections,
        "defaults": [d for d in _listed(raw, "defaults", text, warnings) if isinstance(d, dict)],
        "excerpt_separator": _text(raw.get("excerpt_separator"), "\n\n"),
        "timezone": timezone,
        "archives": _archives(raw, _listed(raw, "plugins", text, warnings) + _listed(raw, "gems", text, warnings)),
        "renames": dict(renames),
        "in_pages": _in_pages(site_dir),
        "list_pages": _list_pages(site_dir, {name for name, meta in collections.items() if meta.get("output")}),
        # jekyll-scholar (bibtex-ruby) builds past a malformed entry or a repeated key: so does sitegen, with a
        # warning for each (the entry is left out, or its field ignored) instead of stopping the build.
        "bibtex_problems": "warn",
        # Two pages at one URL: Jekyll writes one with a "Conflict: destination shared" warning; so does sitegen.
        "shared_destination": "warn",
        "site": {k: v for k, v in raw.items() if isinstance(k, str)},
    }
    params = {k: v for k, v in raw.items() if isinstance(k, str) and k not in READ}
    unmapped = sorted(k for k in params if k not in MACHINERY)
    if unmapped:
        warnings.append(Diagnostic(
            f"{len(unmapped)} keys of _config.yml have no sitegen equivalent and only reach `site.*` in Liquid: "
            + ", ".join(f"`{k}`" for k in unmapped), path=CONFIG,
            hint="theme settings of the Jekyll theme are not used by sitegen's theme; run `sitegen import jekyll` "
                 "to convert the site if you need them"))
    cfg = SiteConfig(
        title=_text(raw.get("title"), "My Site"),
        description=_text(raw.get("description")),
        base_url=base_url,
        language=language,
        author=who,
        menu=_navigation(site_dir),
        params=params,
        paginate=paginate if isinstance(paginate, int) and not isinstance(paginate, bool) and paginate > 0 else 10,
        build=_build(raw),
        cv={"bibtex": bibs} if bibs else {},
        path=CONFIG,
        layout=SourceLayout(content_dir="", renames=tuple(renames), exclude=exclude, front_matter_only=True,
                            data_dir="_data"),
        dialect_settings=settings,
    )
    return cfg, warnings


ARCHIVE_PERMALINKS = {"year": "/:year/", "month": "/:year/:month/", "day": "/:year/:month/:day/",
                      "tag": "/tag/:name/", "category": "/category/:name/"}
"""jekyll-archives' default permalinks, by archive type."""
_ARCHIVE_TYPES = {"year": "year", "month": "month", "day": "day", "tags": "tag", "categories": "category"}
"""What `enabled:` names -> the archive type its `permalinks:` and `layouts:` name."""


V2_PERMALINKS = {"year": "/:collection/:year/", "month": "/:collection/:year/:month/",
                 "day": "/:collection/:year/:month/:day/", "tags": "/:collection/:type/:name/",
                 "categories": "/:collection/:type/:name/"}
"""jekyll-archives-v2's defaults (al-folio since 2024), by what `enabled:` names."""


def _listed(raw: dict[str, Any], key: str, text: str, warnings: list[Diagnostic]) -> list[Any]:
    """`raw[key]` when it is a list (or missing: `[]`); another value is left out with a warning at its line."""
    value = raw.get(key)
    if value is None or isinstance(value, list):
        return value or []
    warnings.append(Diagnostic(f"`{key}: {value}` should be a list: it is ignored", path=CONFIG,
                               line=key_line(text, key), hint=f"write `{key}:` as a list, one entry a line"))
    return []


def _archives(raw: dict[str, Any], plugin_list: list[Any]) -> dict[str, str]:
    """jekyll-archives (or al-folio's jekyll-archives-v2, configured per collection: `posts:`), when the site
    loads the plugin: what sitegen's archives take (`year`, `month`, `day`, `tags`, `categories`) -> the URL
    pattern of their pages (`permalinks:` over the plugin's defaults; `:type` and `:collection` filled in)."""
    plugins = {p for p in plugin_list if isinstance(p, str)}
    config = raw.get("jekyll-archives")
    config = config if isinstance(config, dict) else {}
    if "jekyll-archives-v2" in plugins:  # keyed by collection; sitegen's archives are the posts'
        config, defaults, key_of = config.get("posts"), V2_PERMALINKS, {name: name for name in _ARCHIVE_TYPES}
        config = config if isinstance(config, dict) else {}
    elif "jekyll-archives" in plugins:
        defaults = {name: ARCHIVE_PERMALINKS[kind] for name, kind in _ARCHIVE_TYPES.items()}
        key_of = _ARCHIVE_TYPES
    else:
        return {}
    enabled = config.get("enabled")
    if enabled is True or enabled == "all":
        chosen = list(_ARCHIVE_TYPES)
    else:
        chosen = [str(e) for e in enabled if str(e) in _ARCHIVE_TYPES] if isinstance(enabled, list) else []
    permalinks = config.get("permalinks")
    permalinks = permalinks if isinstance(permalinks, dict) else {}
    patterns = {name: str(permalinks.get(key_of[name]) or defaults[name]) for name in chosen}
    # `:type` is the archive's type (`tag`, `category`, `year`), `:collection` the posts' collection.
    return {name: pattern.replace(":collection", "posts").replace(":type", _ARCHIVE_TYPES[name])
            for name, pattern in patterns.items()}


def _build(raw: dict[str, Any]) -> BuildSettings:
    return BuildSettings(drafts=raw.get("show_drafts") is True, future=raw.get("future") is True)


def _collections(value: Any) -> dict[str, dict[str, Any]]:
    """`collections:` as a mapping name -> metadata (Jekyll also accepts a list of names, with no output)."""
    if isinstance(value, list):
        return {str(name): {} for name in value}
    if not isinstance(value, dict):
        return {}
    return {str(name): (meta if isinstance(meta, dict) else {}) for name, meta in value.items()}


def _bibliography(scholar: Any, site_dir: Path) -> list[str]:
    """jekyll-scholar's .bib files: `scholar.source` (default `_bibliography`), every .bib file in it."""
    source = "_bibliography"
    if isinstance(scholar, dict) and isinstance(scholar.get("source"), str):
        source = scholar["source"].strip("/") or "."
    folder = site_dir / source
    if not folder.is_dir():
        return []
    return sorted(posixpath.join(source, f.name) for f in folder.iterdir()
                  if f.suffix.lower() == ".bib" and f.is_file())


def _navigation(site_dir: Path) -> tuple[MenuItem, ...]:
    """academicpages' (minimal-mistakes') menu: `main:` of `_data/navigation.yml`, `{title, url}` each; else
    al-folio's: the pages of `_pages/` with `nav: true`, by `nav_order`."""
    path = site_dir / "_data" / "navigation.yml"
    if not path.is_file():
        return _nav_pages(site_dir)
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError, InputLimitError):
        return ()  # the data file itself is read (and its errors reported) with the rest of _data/
    main = data.get("main") if isinstance(data, dict) else None
    items = []
    for i, item in enumerate(main if isinstance(main, list) else []):
        if isinstance(item, dict) and item.get("title") and item.get("url"):
            items.append(MenuItem(str(item["title"]), str(item["url"]), i))
    return tuple(items)


def _nav_pages(site_dir: Path) -> tuple[MenuItem, ...]:
    """al-folio's menu: `nav: true` pages of `_pages/` (title, permalink), in `nav_order`, then by title."""
    folder = site_dir / "_pages"
    items: list[tuple[float, str, str]] = []
    for page in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        try:
            text = page.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        head = text.split("\n---", 1)[0] if text.startswith("---") else ""
        try:
            data = load_yaml(head[3:]) if head else None
        except (yaml.YAMLError, InputLimitError):
            continue  # the page itself is parsed (and its errors reported) with the other pages
        if isinstance(data, dict) and data.get("nav") is True and data.get("permalink") and data.get("title"):
            order = data.get("nav_order")
            weight = float(order) if isinstance(order, int | float) and not isinstance(order, bool) else 1e9
            items.append((weight, str(data["title"]), str(data["permalink"])))
    items.sort(key=lambda item: (item[0], item[1].casefold()))
    # The weight is `nav_order` as written (pages without one after the rest, in title order).
    return tuple(MenuItem(title, url, int(order) if order < 1e9 else 1000 + i)
                 for i, (order, title, url) in enumerate(items))


def _in_pages(site_dir: Path) -> list[str]:
    """The pages of `_pages/` (read as the site's root), by content path (`sub/x.md`): Jekyll gives them
    `_pages/` paths (a page there without a `permalink` is at `/_pages/x/`, a `defaults` scope `_pages` holds it)."""
    folder = site_dir / "_pages"
    if not folder.is_dir():
        return []
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.suffix.lower() in
                  (".md", ".markdown") and p.is_file())


_LOOP = re.compile(r"\{%-?\s*for\s+\w+\s+in\s+site\.(\w+)")


def _list_pages(site_dir: Path, collections: set[str]) -> dict[str, dict[str, Any]]:
    """Archive pages written in Liquid HTML (academicpages' `_pages/year-archive.html` loops over `site.posts`):
    sitegen's list of that folder takes their title, and their URL (and `redirect_from`) redirect to it, so
    that menus and links to them keep working. Folder -> {title, aliases}."""
    found: dict[str, dict[str, Any]] = {}
    for page in sorted([*site_dir.glob("_pages/*.html"), *site_dir.glob("*.html")]):
        try:
            text = page.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if not text.startswith("---"):
            continue
        head, _, body = text[3:].partition("\n---")
        loop = _LOOP.search(body)
        if loop is None or (loop.group(1) != "posts" and loop.group(1) not in collections):
            continue
        try:
            data = load_yaml(head)
        except (yaml.YAMLError, InputLimitError):
            continue
        if not isinstance(data, dict):
            continue
        folder = loop.group(1)
        aliases = [str(data["permalink"])] if data.get("permalink") else []
        redirects = data.get("redirect_from")
        aliases += [str(r) for r in (redirects if isinstance(redirects, list) else [redirects] if redirects else [])]
        entry = found.setdefault(folder, {"title": "", "aliases": []})
        entry["title"] = entry["title"] or str(data.get("title") or "")
        entry["aliases"] += [a for a in aliases if a.strip("/") != folder]
    return found
