"""Hugo sites: `hugo.toml|yaml|json`, `config.toml|yaml|json` or `config/_default/` (and no `sitegen.yaml`).

Read in place: the configuration (`load_hugo_config`: one small function per config section in `SECTIONS`,
so a reader of another section, such as `languages`, is one more entry), Hugo's naming rules (no dates from
file names, a bundle folder keeps its whole name, a taxonomy term's URL is Hugo's `urlize`), and shortcodes
in content (`sitegen.dialects.shortcodes`). Keys that cannot map are listed once, in one warning.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from sitegen.config import Author, BuildSettings, MarkdownSettings, MenuItem, SiteConfig, find_config
from sitegen.dialects.base import ExpandContext, SiteFacts, read_or_defaults
from sitegen.dialects.hugo_languages import hugo_languages, single_language
from sitegen.dialects.native import hugo_urlize
from sitegen.dialects.shortcodes import expand_shortcodes
from sitegen.dialects.timezones import DATE_KEYS, in_zone, zone_named
from sitegen.errors import ConfigError, Diagnostic, SitegenError
from sitegen.inputlimits import decode_utf8, toml_error
from sitegen.yamlload import Yaml12Loader, yaml_error

ROOT_FILES = ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml",
              "config.json")
"""Hugo's site configuration files, in the order Hugo looks for them (the first found is read)."""
CONFIG_DIR = Path("config") / "_default"
_EXTENSIONS = (".toml", ".yaml", ".yml", ".json")
_HUGO_SLUG = re.compile(r":slug(?![a-z])")
ACCEPTED = frozenset({
    "baseurl", "relativeurls", "canonifyurls", "outputs", "outputformats", "mediatypes", "module",
    "enablerobotstxt", "enableemoji", "minify", "pygmentsusecss", "pygmentscodefences", "pygmentsstyle",
    "pluralizelisttitles", "capitalizelisttitles", "timeout", "archetypedir", "layoutdir",
    "assetdir", "resourcedir", "publishdir", "datadir", "themesdir", "sectionpagesmenu", "related",
    "enableinlineshortcodes", "uglyurls", "removepathaccents", "disablepathtolower", "hascjklanguage",
    "defaultcontentlanguage", "defaultcontentlanguageinsubdir", "security", "build", "caches", "imaging",
    "frontmatter", "sitemap", "cascade", "permalinks", "disablekinds", "notfound",
})
"""Hugo keys read elsewhere, or about Hugo's own machinery (output formats, asset pipes, caches) with nothing
for sitegen to do: not listed as unmapped."""


@dataclass
class HugoConfigReader:
    """Turns Hugo's configuration (keys lowercased, as Hugo reads them) into SiteConfig fields."""

    raw: dict[str, Any]
    path: str
    values: dict[str, Any] = field(default_factory=dict)
    unmapped: list[str] = field(default_factory=list)
    build: dict[str, bool] = field(default_factory=dict)
    markdown: dict[str, bool] = field(default_factory=dict)
    notes: list[Diagnostic] = field(default_factory=list)
    """Warnings of a section reader (a language left out, a value of the wrong type), reported with the unmapped
    keys."""
    texts: list[tuple[str, str]] = field(default_factory=list)
    """The config files as written, (path, text), the one read last first: where warnings find their line."""

    def run(self) -> tuple[SiteConfig, list[Diagnostic]]:
        """Every section through its reader in `SECTIONS`; other keys are listed once as not mapped."""
        for key, value in self.raw.items():
            reader = SECTIONS.get(key)
            if reader is not None:
                reader(self, value)
            elif key not in ACCEPTED:
                self.unmapped.append(key)
        self.values["build"] = BuildSettings(**self.build)
        self.values["markdown"] = MarkdownSettings(**self.markdown)
        warnings = list(self.notes)
        if self.unmapped:
            warnings.append(Diagnostic(
                f"Hugo settings sitegen does not use: {'; '.join(sorted(self.unmapped))}", path=self.path,
                hint="the site builds without them; see docs/hugo.md for what is read"))
        return SiteConfig(**self.values, path=self.path), warnings

    def invalid(self, key: str, value: Any, expected: str) -> None:
        """A value sitegen cannot use as Hugo would (wrong type, unknown name): a warning at its line."""
        shown = json.dumps(value, ensure_ascii=False, default=str)
        path, line = self.place_of(key)
        self.notes.append(Diagnostic(
            f"`{key} = {shown[:60]}`: expected {expected}; the value is ignored", path=path, line=line,
            hint="fix the value (see Hugo's configuration docs), or remove it"))

    def place_of(self, key: str) -> tuple[str, int | None]:
        """The file and line where `key` (its last dotted part) is set, if it can be found; else the config."""
        name = re.escape(key.rsplit(".", 1)[-1])
        for path, text in self.texts:
            found = re.search(rf"^\s*[\"']?{name}[\"']?\s*[=:]", text, re.MULTILINE | re.IGNORECASE)
            if found:
                return path, text.count("\n", 0, found.start()) + 1
        return self.path, None

    def text(self, value: Any, key: str) -> str | None:
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            return str(value)
        self.invalid(key, value, "a string")
        return None

    def flag(self, target: dict[str, bool], name: str, value: Any, key: str) -> None:
        if isinstance(value, bool):
            target[name] = value
        else:
            self.invalid(key, value, "true or false")

    def positive(self, value: Any, name: str, key: str) -> None:
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            self.values[name] = value
        else:
            self.invalid(key, value, "a whole number above 0")


def _title(r: HugoConfigReader, value: Any) -> None:
    if (text := r.text(value, "title")) is not None:
        r.values["title"] = text


def _base_url(r: HugoConfigReader, value: Any) -> None:
    """`baseURL`; an empty one or a bare host (`example.org`) is served from `/`."""
    text = str(value or "").strip()
    parts = urlsplit(text)
    if parts.scheme in ("http", "https") or text.startswith("/"):
        r.values["base_url"] = text if text.endswith("/") else text + "/"
    elif text:
        r.unmapped.append("baseURL")


def _language(r: HugoConfigReader, value: Any) -> None:
    if (text := r.text(value, "languageCode")) is not None and "languages" not in r.values:
        r.values["language"] = text


def _languages(r: HugoConfigReader, value: Any) -> None:
    """`[languages]`: a site in several languages (`sitegen.dialects.hugo_languages`), the default first."""
    if not isinstance(value, dict):
        r.invalid("languages", value, "a table of languages (`[languages.en]`)")
        return
    disabled = r.raw.get("disablelanguages")
    languages, notes = hugo_languages(value, str(r.raw.get("defaultcontentlanguage") or "en"),
                                      [str(d) for d in disabled] if isinstance(disabled, list) else [], r.path)
    r.notes.extend(notes)
    if len(languages) > 1:
        r.values["languages"] = languages
        r.values["language"] = languages[0].tag
        r.values["default_language_in_subdir"] = r.raw.get("defaultcontentlanguageinsubdir") is True
    else:  # one language: its title, menu and params are the site's
        r.values.update(single_language(languages))
        if languages and languages[0].params:
            r.values["params"] = {**r.values.get("params", {}), **languages[0].params}


def _author(r: HugoConfigReader, value: Any) -> None:
    if isinstance(value, str):
        r.values["author"] = Author(name=value)
    elif isinstance(value, dict):
        name = value.get("name") or value.get("Name") or ""
        email = value.get("email") or value.get("Email") or ""
        r.values["author"] = Author(name=str(name), email=str(email))


def _params(r: HugoConfigReader, value: Any) -> None:
    """`[params]`: free parameters for templates; the theme-wide ones sitegen knows fill the site's fields."""
    if not isinstance(value, dict):
        r.invalid("params", value, "a table of parameters (`[params]`)")
        return
    lowered = {str(k).lower(): v for k, v in value.items()}
    sections = lowered.get("mainsections")
    if isinstance(sections, str):
        sections = [sections]
    if isinstance(sections, list) and "main_sections" not in value:  # the sections the home page and archives list
        value = {**value, "main_sections": [str(s) for s in sections]}
    r.values["params"] = value
    if isinstance(lowered.get("description"), str):
        r.values.setdefault("description", lowered["description"])
    if "author" in lowered and "author" not in r.values:
        _author(r, lowered["author"])
    if lowered.get("math") is True or lowered.get("katex") is True:
        r.markdown["math"] = True


def _menus(r: HugoConfigReader, value: Any) -> None:
    """`[[menu.main]]` (or `menus.main`): name, url or pageRef, weight; other menus are not shown."""
    if not isinstance(value, dict):
        r.invalid("menu", value, "a table of menus (`[[menu.main]]`)")
        return
    items: list[MenuItem] = []
    for i, entry in enumerate(value.get("main") or []):
        if not isinstance(entry, dict):
            continue
        entry = {str(k).lower(): v for k, v in entry.items()}
        url = entry.get("url") or _page_ref_url(str(entry.get("pageref") or ""))
        if isinstance(url, str) and url.startswith("#"):  # Wowchemy: `#contact` is the home page's section
            url = "/" + url
        name = entry.get("name") or entry.get("identifier") or ""
        if not url or not name:
            r.unmapped.append(f"menu.main[{i}]")
            continue
        weight = entry.get("weight", 0)
        items.append(MenuItem(str(name), str(url), weight if isinstance(weight, int) else 0))
    r.unmapped.extend(f"menu.{k}" for k in value if k != "main")
    r.values["menu"] = tuple(sorted(items, key=lambda m: m.weight))


def _page_ref_url(ref: str) -> str:
    """A menu's `pageRef` (`/posts`, `about.md`, `/posts/_index.md`) as the site path Hugo gives it."""
    if not ref:
        return ""
    path = "/" + ref.strip("/")
    for suffix in ("/_index.md", "/index.md", ".md", ".markdown"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
            break
    return path.rstrip("/") + "/"


def _taxonomies(r: HugoConfigReader, value: Any) -> None:
    if isinstance(value, dict):  # a key under [taxonomies] that is no name (TOML order slip) is not a taxonomy
        r.values["taxonomies"] = tuple(dict.fromkeys(v for v in value.values() if isinstance(v, str)))
        r.unmapped.extend(f"taxonomies.{k}" for k, v in value.items() if not isinstance(v, str))
    else:
        r.invalid("taxonomies", value, 'a table of singular = "plural" names (`tag = "tags"`)')


def _permalinks(r: HugoConfigReader, value: Any) -> None:
    """`[permalinks]` section patterns (`posts = "/:year/:slug/"`), and the newer `[permalinks.page]`."""
    if not isinstance(value, dict):
        r.invalid("permalinks", value, 'a table of section = "pattern" (`posts = "/:year/:slug/"`)')
        return
    patterns = {str(k): str(v) for k, v in value.items() if isinstance(v, str)}
    if isinstance(value.get("page"), dict):
        patterns.update({str(k): str(v) for k, v in value["page"].items() if isinstance(v, str)})
    # Hugo's `:slug` falls back to the title, not to the file name as sitegen's does.
    r.values["permalinks"] = {k: _HUGO_SLUG.sub(":slugortitle", v) for k, v in patterns.items()}


def _paginate(r: HugoConfigReader, value: Any) -> None:
    r.positive(value, "paginate", "paginate")


def _pagination(r: HugoConfigReader, value: Any) -> None:
    if isinstance(value, dict) and "pagersize" in {str(k).lower() for k in value}:
        size = next(v for k, v in value.items() if str(k).lower() == "pagersize")
        r.positive(size, "paginate", "pagination.pagerSize")


def _time_zone(r: HugoConfigReader, value: Any) -> None:
    """`timeZone`: front-matter dates without an offset are in it (`sitegen.dialects.timezones`)."""
    if isinstance(value, str) and zone_named(value) is not None:
        r.values["dialect_settings"] = {**r.values.get("dialect_settings", {}), "timezone": value.strip()}
    elif not (isinstance(value, str) and not value.strip()):
        r.invalid("timeZone", value, "an IANA time zone such as `Europe/Oslo` (dates are read as UTC)")


def _summary_length(r: HugoConfigReader, value: Any) -> None:
    r.positive(value, "summary_length", "summaryLength")


def _folder(name: str, default: str) -> Callable[[HugoConfigReader, Any], None]:
    def read(r: HugoConfigReader, value: Any) -> None:
        if str(value).strip("/") != default:
            r.unmapped.append(f"{name} (only `{default}/` is read)")
    return read


def _markup(r: HugoConfigReader, value: Any) -> None:
    """`[markup.highlight] codeFences = false` turns highlighting off; Goldmark's other knobs have sitegen
    equivalents that are always on (attributes, typographic ids) or are rendering details: accepted silently."""
    highlight = value.get("highlight") if isinstance(value, dict) else None
    if isinstance(highlight, dict):
        fences = {str(k).lower(): v for k, v in highlight.items()}.get("codefences")
        if isinstance(fences, bool):
            r.markdown["highlight"] = fences


def _theme(r: HugoConfigReader, value: Any) -> None:
    r.unmapped.append(f"theme (the Hugo theme {value!r} cannot run: sitegen's own theme is used)")


SECTIONS: dict[str, Callable[[HugoConfigReader, Any], None]] = {
    "title": _title,
    "baseurl": _base_url,
    "languagecode": _language,
    "languages": _languages,
    "author": _author,
    "params": _params,
    "menu": _menus,
    "menus": _menus,
    "taxonomies": _taxonomies,
    "permalinks": _permalinks,
    "paginate": _paginate,
    "pagination": _pagination,
    "summarylength": _summary_length,
    "timezone": _time_zone,
    "builddrafts": lambda r, v: r.flag(r.build, "drafts", v, "buildDrafts"),
    "buildfuture": lambda r, v: r.flag(r.build, "future", v, "buildFuture"),
    "buildexpired": lambda r, v: r.flag(r.build, "expired", v, "buildExpired"),
    "enablegitinfo": lambda r, v: r.values.__setitem__("enable_git_info", v is True),
    "contentdir": _folder("contentDir", "content"),
    "staticdir": _folder("staticDir", "static"),
    "theme": _theme,
    "markup": _markup,
}
"""Hugo config key (lowercased) -> its reader. Add an entry to read one more section."""


def parse_hugo_file(text: str, path: str) -> dict[str, Any]:
    """One Hugo config file (TOML, YAML or JSON by its extension) as a mapping; ConfigError naming the line."""
    try:
        if path.endswith(".toml"):
            data = tomllib.loads(text)
        elif path.endswith(".json"):
            data = json.loads(text)
        else:
            data = yaml.load(text, Loader=Yaml12Loader) or {}  # noqa: S506
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, "TOML", path, hint="check quoting and [section] headers", kind=ConfigError) from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"cannot read the JSON: {exc.msg}", path=path, line=exc.lineno, col=exc.colno) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, ConfigError, "YAML", path, hint="check indentation and quoting") from None
    if not isinstance(data, dict):
        raise ConfigError("the configuration must be a mapping of keys to values", path=path)
    return data


def _lower_keys(data: dict[str, Any]) -> dict[str, Any]:
    """Top-level keys as Hugo reads them (case-insensitively); values as written."""
    return {str(k).lower(): v for k, v in data.items()}


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """`extra` over `base`, mappings merged key by key."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def read_hugo_config(site_dir: Path) -> tuple[dict[str, Any], str]:
    """Hugo's configuration of a site folder as one mapping (top-level keys lowercased) and the file to name in
    messages: `config/_default/*` (a `hugo.*`/`config.*` file there at the top level, `menus.toml` under
    `menus`, `params.toml` under `params`...), then the root file over it."""
    merged: dict[str, Any] = {}
    shown = ""
    folder = site_dir / CONFIG_DIR
    if folder.is_dir():
        for file in sorted(folder.iterdir()):
            if file.suffix not in _EXTENSIONS or not file.is_file():
                continue
            data = _lower_keys(parse_hugo_file(_read(file, site_dir), file.relative_to(site_dir).as_posix()))
            stem = file.stem.lower()
            merged = _merge(merged, data if stem in ("hugo", "config") else {stem: data})
            shown = shown or CONFIG_DIR.as_posix() + "/"
    for name in ROOT_FILES:
        if (site_dir / name).is_file():
            merged = _merge(merged, _lower_keys(parse_hugo_file(_read(site_dir / name, site_dir), name)))
            shown = name
            break
    return merged, shown or "hugo.toml"


def _read(file: Path, site_dir: Path) -> str:
    label = file.relative_to(site_dir).as_posix()
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read the file: {exc.strerror or exc}", path=label) from None
    return decode_utf8(raw, label, ConfigError).lstrip("\ufeff")


def load_hugo_config(site_dir: Path) -> tuple[SiteConfig, list[Diagnostic]]:
    """A Hugo site's configuration as a SiteConfig, with one warning listing the keys that cannot map."""
    raw, path = read_hugo_config(site_dir)
    reader = HugoConfigReader(raw, path, texts=_texts_of(site_dir))
    reader.values["site_layouts"] = False  # Go templates: sitegen's theme renders the pages
    reader.values["weight_first"] = True  # Hugo lists weighted (pinned) pages first
    reader.values["dialect_settings"] = {"taxonomy_pages": "content"}  # content/tags/_index.md is /tags/'s text
    if (site_dir / "layouts").is_dir():
        reader.unmapped.append("layouts/ (Hugo templates cannot run: sitegen's theme renders the pages)")
    return reader.run()


def _texts_of(site_dir: Path) -> list[tuple[str, str]]:
    """The config files' texts, for the lines of warnings: the root file, then `config/_default/`'s (last first,
    as the later ones win)."""
    files = [site_dir / name for name in ROOT_FILES if (site_dir / name).is_file()][:1]
    folder = site_dir / CONFIG_DIR
    if folder.is_dir():
        files += sorted((f for f in folder.iterdir() if f.suffix in _EXTENSIONS and f.is_file()), reverse=True)
    texts = []
    for file in files:
        try:
            texts.append((file.relative_to(site_dir).as_posix(), file.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue  # read (and reported) with the configuration itself
    return texts


def is_hugo_site(site_dir: Path) -> bool:
    """`hugo.toml|yaml|json` or `config/_default/`, or `config.toml|yaml|json` beside a `content/` folder (a
    `config.json` alone belongs to many tools), and no `sitegen.yaml` (a converted site follows sitegen's rules)."""
    if find_config(site_dir) is not None:
        return False
    if any((site_dir / name).is_file() for name in ROOT_FILES[:4]) or (site_dir / CONFIG_DIR).is_dir():
        return True
    return (site_dir / "content").is_dir() and any((site_dir / name).is_file() for name in ROOT_FILES[4:])


@dataclass(frozen=True)
class HugoDialect:
    """A site laid out for Hugo."""

    name: str = "hugo"

    def detect(self, site_dir: Path) -> bool:
        """See `is_hugo_site`."""
        return is_hugo_site(site_dir)

    def load_config(self, site_dir: Path, errors: list[SitegenError] | None = None
                    ) -> tuple[SiteConfig, list[Diagnostic]]:
        """See `load_hugo_config`; with `errors`, a configuration that cannot be read is reported there and the
        site is read with Hugo's defaults."""
        return read_or_defaults(
            lambda: load_hugo_config(site_dir),
            lambda exc: HugoConfigReader({}, exc.path or "hugo.toml",
                                         values={"site_layouts": False, "weight_first": True}).run()[0], errors)

    def date_and_slug(self, source: str) -> tuple[dt.datetime, str] | None:
        """Hugo takes no date from a file or folder name (by default): `2024-03-10-title.md` is published at
        `/2024-03-10-title/` and dated by its front matter."""
        return None

    def split_terms(self, text: str) -> list[str] | None:
        """Hugo reads `tags: "a b"` as one term."""
        return [text.strip()] if text.strip() else []

    def term_slug(self, name: str) -> str:
        """Hugo's `urlize` (`C++` -> `c++`, `paper_summary` stays)."""
        return hugo_urlize(name)

    def expand(self, body: str, source: str, body_line: int,
               context: ExpandContext | None = None) -> tuple[str, list[Diagnostic]]:
        """Shortcodes, rendered before Markdown (`sitegen.dialects.shortcodes`); warnings name content/<file>."""
        if context is None:  # no built site to look in (`sitegen import`): refs stay paths, params unknown
            return expand_shortcodes(body, f"content/{source}", body_line)
        return expand_shortcodes(body, f"content/{source}", body_line, resolve_ref=context.resolve_ref,
                                 params=context.params, site_url=context.site_url)

    def front_matter(self, source: str, data: dict[str, Any], config: SiteConfig) -> dict[str, Any]:
        """Hugo's front matter is read as written; with `timeZone`, its dates without an offset are in that zone."""
        zone = zone_named(str(config.dialect_settings.get("timezone") or ""))
        if zone is None or not any(key in data for key in DATE_KEYS):
            return data
        return {k: in_zone(v, zone, convert=False) if k in DATE_KEYS else v for k, v in data.items()}

    def for_site(self, facts: SiteFacts) -> HugoDialect:
        """Shortcodes look pages up through the `ExpandContext` each page gets: nothing to bind."""
        return self


HUGO = HugoDialect()
"""The one instance."""
