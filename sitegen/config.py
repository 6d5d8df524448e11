"""SiteConfig: the typed site configuration, parsed from `sitegen.yaml` with every problem reported at once."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from sitegen.errors import ConfigError, Diagnostic, SitegenError, raise_if_any
from sitegen.inputlimits import InputLimitError, check_input, decode_utf8, limit_error, located
from sitegen.yamlload import Yaml12Loader, check_size, yaml_error

CONFIG_NAMES = ("sitegen.yaml", "sitegen.yml")
LANGUAGE_KEY = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
"""A language name under `languages:` (`en`, `zh`, `pt-br`, `zh-Hans`)."""


@dataclass(frozen=True)
class Author:
    """The site's author."""

    name: str = ""
    """Full name, shown in the footer, feeds and CV."""
    email: str = ""
    """Contact e-mail (optional)."""


@dataclass(frozen=True)
class MenuItem:
    """One entry of the main menu."""

    name: str
    """The label shown."""
    url: str
    """Site-relative path (`/about/`) or an absolute URL."""
    weight: int = 0
    """Lower weights come first; ties keep the order of the file."""


@dataclass(frozen=True)
class BuildSettings:
    """What the build publishes."""

    drafts: bool = False
    """Publish pages with `draft: true`."""
    future: bool = False
    """Publish pages dated in the future (relative to SOURCE_DATE_EPOCH or the build time)."""
    expired: bool = False
    """Publish pages whose `expiryDate` has passed."""


@dataclass(frozen=True)
class MarkdownSettings:
    """Markdown rendering options."""

    unsafe_html: bool = True
    """Keep raw HTML written in Markdown (`false` drops it)."""
    highlight: bool = True
    """Highlight fenced code with Pygments at build time."""
    math: bool = False
    """Kept for older configurations: math (`$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]`) is found in every page anyway,
    and a page's `math: false` turns it off."""


@dataclass(frozen=True)
class SourceLayout:
    """Where a site's files are: sitegen's own folders, or another tool's layout read in place (a Jekyll site's
    root holds its pages, `_posts/`, `_data/` and static files side by side)."""

    content_dir: str = "content"
    """The folder of the pages (`""`: the site root, where non-page files are static files at their own path)."""
    renames: tuple[tuple[str, str], ...] = ()
    """Top folders read as other content folders (`("_posts", "posts")`, `("_pages", "")`)."""
    exclude: tuple[str, ...] = ()
    """Site paths (or glob patterns) that are not part of the site."""
    front_matter_only: bool = False
    """A Markdown file without front matter is a static file, not a page (Jekyll's rule)."""
    data_dir: str = "data"
    """The folder of data files (`site.data`)."""


@dataclass(frozen=True)
class Language:
    """One language of a multilingual site (`languages:` in sitegen.yaml, `[languages]` in a Hugo config)."""

    key: str
    """The name under `languages:` (`zh`): the suffix of translation files (`about.zh.md`), the folder of its
    content (`content/zh/`), its translation table (`i18n/zh.yaml`) and its URL prefix (`/zh/`)."""
    code: str = ""
    """BCP 47 tag for `<html lang>` and `hreflang` (`zh-CN`); the key when empty."""
    name: str = ""
    """Shown in the language switcher (`中文`); the key when empty."""
    weight: int = 0
    """Order in the switcher (and which language is the default when `default_language` is not set)."""
    title: str | None = None
    """The site's title in this language (else the site-wide one)."""
    description: str | None = None
    """The site's description in this language."""
    menu: tuple[MenuItem, ...] | None = None
    """The main menu in this language (else the default language's, its URLs taken in this language)."""
    params: dict[str, Any] = field(default_factory=dict)
    """Merged over the site-wide `params:` for this language."""
    date_format: str | None = None
    """strftime format of dates shown in this language (`%Y年%-m月%-d日`); else its translation table's."""
    content_dir: str | None = None
    """A folder of the site holding only this language's pages (Hugo's `contentDir`, e.g. `content/zh`)."""
    url_prefix: str | None = None
    """Where its pages live (`/zh/`); the default language lives at `/` unless `default_language_in_subdir`."""

    @property
    def tag(self) -> str:
        """`code`, else the key."""
        return self.code or self.key


@dataclass(frozen=True)
class SiteConfig:
    """The whole site configuration. Feature sections (`feeds`, `search`, `cv`, ...) are validated by their owners."""

    title: str = "My Site"
    """The site's title."""
    base_url: str = "/"
    """Where the site is deployed, e.g. `https://user.github.io/repo/`; its path becomes every URL's prefix."""
    language: str = "en"
    """BCP 47 language tag of the site (`en`, `zh-CN`)."""
    author: Author = field(default_factory=Author)
    """The site's author."""
    description: str = ""
    """Default meta description."""
    theme: str = "default"
    """Theme name: `themes/<name>/` in the site, else a theme shipped with sitegen."""
    menu: tuple[MenuItem, ...] = ()
    """Main menu entries."""
    taxonomies: tuple[str, ...] = ("categories", "tags")
    """Taxonomy names, as used in front matter."""
    permalinks: dict[str, str] = field(default_factory=dict)
    """Per-section URL patterns, e.g. `posts: /posts/:year/:slug/` (`:year :month :day :slug :section :title`)."""
    params: dict[str, Any] = field(default_factory=dict)
    """Free parameters for themes (`site.params`)."""
    build: BuildSettings = field(default_factory=BuildSettings)
    """Drafts, future and expired pages."""
    markdown: MarkdownSettings = field(default_factory=MarkdownSettings)
    """Markdown options."""
    paginate: int = 10
    """Pages per list page."""
    summary_length: int = 70
    """Words in an automatic summary (each CJK character counts as a word)."""
    toc: bool = False
    """Show a table of contents on every page unless the page says `toc: false`."""
    enable_git_info: bool = False
    """Take `lastmod` from git history."""
    allow_symlinks_outside: bool = False
    """Follow symbolic links that lead out of the site folder (content/, static/, data/, layouts/, BibTeX and CV
    files, the build cache). Off by default: a cloned site could otherwise publish or overwrite files anywhere."""
    feeds: dict[str, Any] = field(default_factory=dict)
    """Feed options (`limit`, `full_content`)."""
    search: dict[str, Any] = field(default_factory=dict)
    """Search options."""
    cv: dict[str, Any] = field(default_factory=dict)
    """CV options (validated by sitegen.cv)."""
    publications: dict[str, Any] = field(default_factory=dict)
    """Publications page options (`pages: true` gives each publication a page of its own)."""
    news: dict[str, Any] = field(default_factory=dict)
    """News options (`home_limit`: items on the home page, default 5)."""
    languages: tuple[Language, ...] = ()
    """The languages of a multilingual site, the default first (empty: a site in one language)."""
    default_language_in_subdir: bool = False
    """Put the default language under `/<lang>/` too (then `/` redirects there)."""
    date_format: str | None = None
    """strftime format of dates shown by the theme; else the language's translation table's."""
    path: str = "sitegen.yaml"
    """The file this configuration came from (for messages)."""
    site_layouts: bool = True
    """Use the site's own `layouts/` (set by a dialect: a Hugo site's are Go templates sitegen cannot run)."""
    weight_first: bool = False
    """Lists put pages with a `weight` first, lightest first, then the others newest first (Hugo's default
    order, set for Hugo sites); otherwise newest first, weight only breaking ties."""
    layout: SourceLayout = field(default_factory=SourceLayout)
    """Where the site's files are (set by the site's dialect, never by sitegen.yaml)."""
    dialect_settings: dict[str, Any] = field(default_factory=dict)
    """What the site's dialect keeps of its tool's configuration for its own rules (Jekyll's permalink style,
    collections, front-matter defaults); sitegen.yaml never sets it."""
    language_prefix: str = ""
    """Set by the build for one language of a multilingual site: the URL prefix of its pages (`/zh/`)."""

    @property
    def base_path(self) -> str:
        """The path part of `base_url`, always starting and ending with `/` (`/repo/` or `/`)."""
        path = urlsplit(self.base_url).path or "/"
        return path if path.endswith("/") else path + "/"

    @property
    def site_origin(self) -> str:
        """`scheme://host` of `base_url`, or `""` when it is a bare path."""
        parts = urlsplit(self.base_url)
        return f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""


_KNOWN = {f.name for f in fields(SiteConfig)} - {"path", "site_layouts", "weight_first", "layout",
                                                  "dialect_settings", "language_prefix"} | {
    "baseURL", "languageCode", "default_language"}
_LANGUAGE_KEYS = {"code", "name", "weight", "title", "description", "menu", "params", "date_format",
                  "content_dir", "url_prefix"}


def _key_lines(node: yaml.Node, prefix: str = "") -> dict[str, tuple[int, int]]:
    """Map dotted key paths to their 1-based (line, col) in the file."""
    out: dict[str, tuple[int, int]] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = f"{prefix}{key_node.value}"
            out[key] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out.update(_key_lines(value_node, key + "."))
    elif isinstance(node, yaml.SequenceNode):
        # List items are `menu.0`, `menu.0.name`, ... so that a bad entry is reported on its own line.
        for i, item in enumerate(node.value):
            out[f"{prefix}{i}"] = (item.start_mark.line + 1, item.start_mark.column + 1)
            out.update(_key_lines(item, f"{prefix}{i}."))
    return out


def parse_config(text: str, path: str = "sitegen.yaml", errors: list[SitegenError] | None = None
                 ) -> tuple[SiteConfig, list[Diagnostic]]:
    """Parse and validate configuration text; raises ConfigError/ErrorGroup listing every problem.

    With `errors`, the problems are appended there instead, and the configuration is returned as far as it could
    be read: the default in place of each bad value, every default when the text cannot be read at all. A build
    goes on with it to find the site's other errors in the same run, then stops without writing anything.
    """
    if errors is None:
        return _parse_config(text, path)
    try:
        return _parse_config(text, path, errors)
    except SitegenError as exc:
        errors.append(exc)
        return SiteConfig(path=path), []


def _parse_config(text: str, path: str, errors: list[SitegenError] | None = None
                  ) -> tuple[SiteConfig, list[Diagnostic]]:
    text = text.lstrip("\ufeff")
    try:
        check_input(text, "yaml")
        node = yaml.compose(text, Loader=Yaml12Loader)  # noqa: S506
        raw = yaml.load(text, Loader=Yaml12Loader) if node is not None else {}  # noqa: S506
        check_size(raw)
    except InputLimitError as exc:
        raise located(exc, path, kind=ConfigError) from None
    except (ValueError, TypeError, RecursionError) as exc:
        limit = limit_error(text, exc)
        if limit is None:
            raise ConfigError(f"cannot read the configuration: {exc}", path=path) from None
        raise located(limit, path, kind=ConfigError) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, ConfigError, "YAML", path,
                         hint="check indentation and quoting; values with `: ` or `#` need quotes") from None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError("the configuration must be a mapping of keys to values", path=path, line=1,
                          hint="write `title: My Site` and other `key: value` lines")
    lines = _key_lines(node) if node is not None else {}
    return _Validator(raw, lines, path).run(errors)


class _Validator:
    """Builds a SiteConfig from raw data, collecting every error and warning with its line."""

    def __init__(self, raw: dict[str, Any], lines: dict[str, tuple[int, int]], path: str) -> None:
        self.raw, self.lines, self.path = raw, lines, path
        self.errors: list[SitegenError] = []
        self.warnings: list[Diagnostic] = []

    def _loc(self, key: str) -> dict[str, Any]:
        line, col = self.lines.get(key, (None, None))
        return {"path": self.path, "line": line, "col": col}

    def error(self, key: str, message: str, hint: str | None = None) -> None:
        self.errors.append(ConfigError(f"`{key}`: {message}", hint=hint, **self._loc(key)))

    def warn_unknown(self, key: str, value: dict[Any, Any], allowed: set[str]) -> None:
        """A warning for each key of the mapping at `key` that is not in `allowed`, on that key's line."""
        for name in value:
            if str(name) not in allowed:
                self.warnings.append(Diagnostic(f"unknown key `{key}.{name}`",
                                                hint=f"known keys: {', '.join(sorted(allowed))}",
                                                **self._loc(f"{key}.{name}")))

    def get(self, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = self.raw.get(key, default)
        if value is default:
            return default
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.error(key, f"expected {names}, got {type(value).__name__} {value!r}")
            return default
        return value

    def run(self, errors: list[SitegenError] | None = None) -> tuple[SiteConfig, list[Diagnostic]]:
        """The configuration; its errors raised together, or with `errors` appended there (see parse_config)."""
        for key in self.raw:
            if str(key) not in _KNOWN:
                close = difflib.get_close_matches(str(key), sorted(_KNOWN), n=1)
                self.warnings.append(Diagnostic(
                    f"unknown configuration key `{key}`", hint=f"did you mean `{close[0]}`?" if close
                    else "remove it, or put theme settings under `params:`", **self._loc(str(key))))
        cfg = SiteConfig(
            title=str(self.get("title", (str, int, float), "My Site")),
            base_url=self._base_url(),
            language=str(self.get("language", str, self.raw.get("languageCode", "en"))),
            author=self._author(),
            description=str(self.get("description", str, "")),
            theme=self._theme(),
            menu=self._menu(),
            taxonomies=self._taxonomies(),
            permalinks={str(k): str(v) for k, v in self.get("permalinks", dict, {}).items()},
            params=self.get("params", dict, {}),
            build=self._flags("build", BuildSettings),
            markdown=self._flags("markdown", MarkdownSettings),
            paginate=self._positive("paginate", 10),
            summary_length=self._positive("summary_length", 70),
            toc=bool(self.get("toc", bool, False)),
            enable_git_info=bool(self.get("enable_git_info", bool, False)),
            allow_symlinks_outside=bool(self.get("allow_symlinks_outside", bool, False)),
            feeds=self.get("feeds", dict, {}),
            search=self.get("search", dict, {}),
            cv=self.get("cv", dict, {}),
            date_format=self._optional_text("date_format"),
            publications=self._section("publications", {"pages"}),
            news=self._section("news", {"home_limit"}),
            path=self.path,
        )
        languages = self._languages(cfg.language)
        if languages:
            cfg = replace(cfg, languages=languages, language=languages[0].tag,
                          default_language_in_subdir=bool(self.get("default_language_in_subdir", bool, False)))
        if errors is None:
            raise_if_any(self.errors)
        else:
            errors.extend(self.errors)
        return cfg, self.warnings

    def _optional_text(self, key: str) -> str | None:
        value = self.get(key, str, None)
        return str(value) if value is not None else None

    def _languages(self, language: str) -> tuple[Language, ...]:
        """`languages:`, the default language first: `default_language`, else `language`, else the lowest
        weight."""
        raw = self.get("languages", dict, {})
        if not raw:
            return ()
        out: list[Language] = []
        for key, value in raw.items():
            name = str(key)
            where = f"languages.{name}"
            if not LANGUAGE_KEY.match(name):
                self.error(where, f"`{name}` is not a language name",
                           hint="use a language code such as `en`, `zh` or `pt-br`")
                continue
            value = {} if value is None else value
            if not isinstance(value, dict):
                self.error(where, "expected a mapping (`title:`, `name:`, `menu:`, ...)")
                continue
            self.warn_unknown(where, value, _LANGUAGE_KEYS)
            out.append(self._language(name, value, where))
        default = str(self.raw.get("default_language") or "")
        if default and default not in {lang.key for lang in out}:
            self.error("default_language", f"`{default}` is not one of `languages:`",
                       hint=f"name one of {', '.join(lang.key for lang in out)}")
        if not default:
            keys = {lang.key for lang in out}
            default = language if language in keys else language.split("-")[0] if language.split("-")[0] in keys \
                else min(out, key=lambda lang: lang.weight).key if out else ""
        out.sort(key=lambda lang: (lang.key != default, lang.weight, lang.key))
        prefixes: dict[str, str] = {}
        for lang in out:
            prefix = lang.url_prefix or f"/{lang.key}/"
            if prefix in prefixes:
                self.error(f"languages.{lang.key}", f"`{lang.key}` and `{prefixes[prefix]}` share the URL prefix "
                           f"{prefix}", hint="give each language its own `url_prefix`")
            prefixes[prefix] = lang.key
        return tuple(out)

    def _language(self, key: str, value: dict[str, Any], where: str) -> Language:
        weight = value.get("weight", 0)
        if not isinstance(weight, int) or isinstance(weight, bool):
            self.error(f"{where}.weight", f"expected a whole number, got {weight!r}")
            weight = 0
        params = value.get("params") or {}
        if not isinstance(params, dict):
            self.error(f"{where}.params", "expected a mapping")
            params = {}
        menu = None
        if "menu" in value:
            menu = self._menu_items(value.get("menu") or [], f"{where}.menu")
        prefix = value.get("url_prefix")
        if prefix is not None:
            prefix = "/" + "/".join(p for p in str(prefix).split("/") if p) + "/"
            if prefix == "/" or ".." in prefix.split("/"):
                self.error(f"{where}.url_prefix", f"{value.get('url_prefix')!r} is not a folder",
                           hint="write a path such as `/cn/`")
                prefix = None
        text = {k: (str(value[k]) if value.get(k) is not None else None)
                for k in ("code", "name", "title", "description", "date_format", "content_dir")}
        return Language(key=key, code=text["code"] or "", name=text["name"] or "", weight=weight,
                        title=text["title"], description=text["description"], menu=menu, params=params,
                        date_format=text["date_format"], content_dir=text["content_dir"], url_prefix=prefix)

    def _base_url(self) -> str:
        value = str(self.get("base_url", str, self.raw.get("baseURL", "/")))
        parts = urlsplit(value)
        if parts.scheme and parts.scheme not in ("http", "https"):
            self.error("base_url", f"unsupported scheme in {value!r}", hint="use https://host/path/")
        if not parts.scheme and not value.startswith("/"):
            self.error("base_url", f"{value!r} is neither an absolute URL nor a path",
                       hint="write `https://user.github.io/repo/` or `/`")
        return value if value.endswith("/") else value + "/"

    def _author(self) -> Author:
        value = self.raw.get("author", {})
        if isinstance(value, str):
            return Author(name=value)
        if not isinstance(value, dict):
            self.error("author", "expected a mapping with `name` and `email`")
            return Author()
        self.warn_unknown("author", value, {"name", "email"})
        return Author(name=str(value.get("name", "")), email=str(value.get("email", "")))

    def _theme(self) -> str:
        theme = str(self.get("theme", str, "default"))
        if "/" in theme or "\\" in theme or theme.startswith("."):
            self.error("theme", f"{theme!r} is not a theme name", hint="name a folder under themes/")
            return "default"
        return theme

    def _menu(self) -> tuple[MenuItem, ...]:
        return self._menu_items(self.get("menu", list, []), "menu")

    def _menu_items(self, items: Any, where: str) -> tuple[MenuItem, ...]:
        if not isinstance(items, list):
            self.error(where, "expected a list of `{name, url, weight}` entries")
            return ()
        out: list[MenuItem] = []
        for i, item in enumerate(items):
            if not isinstance(item, dict) or "name" not in item or "url" not in item:
                self.error(f"{where}.{i}", f"entry {i + 1} needs `name` and `url`")
                continue
            self.warn_unknown(f"{where}.{i}", item, {"name", "url", "weight"})
            weight = item.get("weight", 0)
            if not isinstance(weight, int) or isinstance(weight, bool):
                self.error(f"{where}.{i}.weight", f"expected a whole number, got {weight!r}")
                weight = 0
            out.append(MenuItem(str(item["name"]), str(item["url"]), weight))
        return tuple(sorted(out, key=lambda m: m.weight))

    def _taxonomies(self) -> tuple[str, ...]:
        value = self.raw.get("taxonomies", ["categories", "tags"])
        if isinstance(value, dict):
            names = [str(v) for v in value.values()]
        elif isinstance(value, list):
            names = [str(v) for v in value]
        else:
            self.error("taxonomies", "expected a list of names or a mapping singular: plural")
            names = ["categories", "tags"]
        return tuple(dict.fromkeys(names))

    def _flags(self, key: str, cls: type[Any]) -> Any:
        value = self.get(key, dict, {})
        allowed = {f.name for f in fields(cls)}
        kwargs: dict[str, bool] = {}
        self.warn_unknown(key, value, allowed)
        for name, flag in value.items():
            if name not in allowed:
                continue
            if not isinstance(flag, bool):
                self.error(f"{key}.{name}", f"expected true or false, got {flag!r}")
            else:
                kwargs[name] = flag
        return cls(**kwargs)

    def _section(self, key: str, allowed: set[str]) -> dict[str, Any]:
        """A small mapping of options, unknown keys warned about."""
        value: dict[str, Any] = self.get(key, dict, {})
        self.warn_unknown(key, value, allowed)
        return value

    def _positive(self, key: str, default: int) -> int:
        value = self.get(key, int, default)
        if value < 1:
            self.error(key, f"must be at least 1, got {value}")
            return default
        return int(value)


def find_config(site_dir: Path) -> Path | None:
    """The configuration file of a site folder, if any."""
    for name in CONFIG_NAMES:
        if (site_dir / name).is_file():
            return site_dir / name
    return None


def load_config(site_dir: Path, errors: list[SitegenError] | None = None) -> tuple[SiteConfig, list[Diagnostic]]:
    """Read and parse the site's configuration file (defaults when there is none); `errors` as in
    `parse_config`."""
    found = find_config(site_dir)
    try:
        if found is None:
            for name in CONFIG_NAMES:
                if (site_dir / name).exists() or (site_dir / name).is_symlink():
                    raise ConfigError("not a readable file", path=name, hint="make it a plain file (or remove it)")
            return SiteConfig(), []
        try:
            raw = found.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read the file: {exc.strerror or exc}", path=found.name,
                              hint="check that it is a readable file") from None
        text = decode_utf8(raw, found.name, ConfigError)
    except SitegenError as exc:
        if errors is None:
            raise
        errors.append(exc)
        return SiteConfig(), []
    return parse_config(text, found.name, errors)
