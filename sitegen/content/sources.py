"""Discover a site's source files: content pages, bundle resources, static files and data files."""

from __future__ import annotations

import fnmatch
import json
import os
import posixpath
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sitegen.config import SourceLayout
from sitegen.confine import ALLOW_HINT, is_link_loop, outside
from sitegen.content.urls import nfc
from sitegen.errors import ContentError, SitegenError
from sitegen.inputlimits import InputLimitError, check_input, decode_utf8, limit_error, located, toml_error
from sitegen.outdir import MANIFEST
from sitegen.yamlload import load_yaml, yaml_error

MARKDOWN_EXTS = (".md", ".markdown")
MAX_TEXT_BYTES = 8 * 1024 * 1024
"""Pages and data files larger than this are refused: nobody writes 8 MB by hand, and parsing it would stall."""
DATA_EXTS = (".yaml", ".yml", ".json", ".toml")


@dataclass(frozen=True)
class SourceFile:
    """A file of the site: its NFC POSIX path relative to its root folder, and where it is on disk."""

    rel: str
    path: Path


@dataclass
class Sources:
    """Everything discovered under the site folder, sorted by path."""

    pages: list[SourceFile] = field(default_factory=list)
    """Markdown files under content/."""
    resources: list[SourceFile] = field(default_factory=list)
    """Non-Markdown files under content/ (bundle resources, images next to pages)."""
    static: list[SourceFile] = field(default_factory=list)
    """Files under static/ (site) and the theme's static/, site winning."""
    data: list[SourceFile] = field(default_factory=list)
    """Files under data/."""
    errors: list[SitegenError] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    """How messages name a file read in place from another tool's layout: `content/posts/x.md` ->
    `_posts/x.md`, `data/nav.yml` -> `_data/nav.yml` (empty for sitegen's own folders)."""
    skipped: list[str] = field(default_factory=list)
    """Site paths of another tool's layout that are not read (its templates, plugins, Liquid HTML pages)."""


def ignored_name(name: str, *, dotfiles: bool = False) -> bool:
    """Files a walk never picks up: `.git`, `.DS_Store`, editor leftovers (`x~`, `.x.swp`, `#x#`, `.#x`), and
    with `dotfiles=False` every name starting with a dot."""
    if name in (".git", ".DS_Store") or name.endswith("~") or name.startswith(".#"):
        return True
    if (name.startswith("#") and name.endswith("#")) or (name.startswith(".") and name.endswith((".swp", ".swo"))):
        return True
    return name.startswith(".") and not dotfiles


def walk_files(root: Path, site_root: Path, label: str, errors: list[SitegenError], *,
               allow_outside: bool = False, dotfiles: bool = False,
               prune: Callable[[str], bool] | None = None) -> list[SourceFile]:
    """All regular files below `root`, sorted; links are followed only when they stay inside `site_root`
    (anywhere with `allow_outside`), and each folder is visited once (a loop of links ends there).

    Dotfiles and dot folders (`.git`, `.DS_Store`) are skipped; with `dotfiles` (static/) dotfiles and
    `.well-known/` are kept, and only `.git`, `.DS_Store` and editor leftovers are skipped. `prune(rel)` says
    which folders are not entered at all.
    """
    out: list[SourceFile] = []
    if not root.is_dir():
        return out
    site_real = site_root.resolve()
    seen: set[Path] = set()
    leads_to = None if allow_outside else outside(root, site_root)
    if leads_to is not None:
        errors.append(ContentError(f"a symbolic link to outside the site ({leads_to})", path=f"{label}/",
                                   hint=ALLOW_HINT))
        return out

    def visit(folder: Path, rel: str) -> None:
        real = Path(os.path.realpath(folder))
        if real in seen:
            return
        seen.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            errors.append(ContentError(f"cannot read folder: {exc.strerror}", path=f"{label}/{rel}"))
            return
        for entry in entries:
            if ignored_name(entry.name, dotfiles=dotfiles):
                continue
            child_rel = f"{rel}/{nfc(entry.name)}" if rel else nfc(entry.name)
            child = Path(entry.path)
            if entry.is_symlink():
                if is_link_loop(child):
                    errors.append(ContentError("a loop of symbolic links", path=f"{label}/{child_rel}",
                                               hint="remove the link, or point it at a file"))
                    continue
                target = Path(os.path.realpath(child))
                if not allow_outside and not target.is_relative_to(site_real):
                    errors.append(ContentError(
                        f"symlink points outside the site (to {os.readlink(child)!r})", path=f"{label}/{child_rel}",
                        hint=ALLOW_HINT))
                    continue
                if not target.exists():
                    errors.append(ContentError("broken symlink", path=f"{label}/{child_rel}",
                                               hint="remove it or fix its target"))
                    continue
            try:
                is_dir = entry.is_dir(follow_symlinks=True)
            except OSError:
                is_dir = False
            if is_dir:
                if dotfiles and entry.name.startswith(".") and entry.name != ".well-known":
                    continue  # only .well-known/ of the dot folders is published
                if prune is not None and prune(child_rel):
                    continue
                visit(child, child_rel)
            elif entry.is_file(follow_symlinks=True):
                out.append(SourceFile(child_rel, child))

    visit(root, "")
    return out


def discover_sources(site_dir: Path, theme_dirs: list[Path], *, allow_outside: bool = False,
                     layout: SourceLayout | None = None) -> Sources:
    """Scan content/, static/ (site then themes) and data/ once. Links may leave the site with `allow_outside`
    (`allow_symlinks_outside` in sitegen.yaml). Another tool's `layout` (a Jekyll site) is read in place."""
    sources = Sources()
    layout = layout or SourceLayout()
    in_place: list[SourceFile] = []
    if layout.content_dir:
        for f in walk_files(site_dir / layout.content_dir, site_dir, layout.content_dir, sources.errors,
                            allow_outside=allow_outside):
            (sources.pages if f.rel.lower().endswith(MARKDOWN_EXTS) else sources.resources).append(f)
    else:
        in_place = discover_in_place(site_dir, layout, sources, allow_outside)
    static: dict[str, SourceFile] = {}
    for theme in reversed(theme_dirs):
        # A theme inside the site must stay inside the site; one shipped with sitegen inside its own folder.
        root = site_dir if theme.is_relative_to(site_dir) else theme
        for f in walk_files(theme / "static", root, "static", sources.errors, allow_outside=allow_outside,
                            dotfiles=True):
            static[f.rel] = f
    for f in walk_files(site_dir / "static", site_dir, "static", sources.errors, allow_outside=allow_outside,
                        dotfiles=True):
        static[f.rel] = f
    for f in in_place:
        static[f.rel] = f
    sources.static = [static[k] for k in sorted(static)]
    sources.data = [f for f in walk_files(site_dir / layout.data_dir, site_dir, layout.data_dir, sources.errors,
                                          allow_outside=allow_outside)
                    if f.rel.lower().endswith(DATA_EXTS)]
    if layout.data_dir != "data":
        sources.labels.update({f"data/{f.rel}": f"{layout.data_dir}/{f.rel}" for f in sources.data})
    return sources


def discover_in_place(site_dir: Path, layout: SourceLayout, sources: Sources, allow_outside: bool
                      ) -> list[SourceFile]:
    """A site whose root holds everything (Jekyll): Markdown pages (with front matter, when the tool asks for it)
    under their content path (`_posts/x.md` -> `posts/x.md`), the other files as static files at their own path.
    Folders starting with `_` are the tool's own (templates, plugins) unless renamed into content; they and
    template pages (HTML with front matter) are listed in `sources.skipped`. Returns the static files."""
    renames = dict(layout.renames)
    static: list[SourceFile] = []
    skipped: set[str] = set()

    def prune(rel: str) -> bool:
        if rel == layout.data_dir or excluded(rel, layout.exclude) or (site_dir / rel / MANIFEST).is_file():
            return True  # data is read as data; a folder sitegen built into (`public/`) is output, not input
        if posixpath.basename(rel).startswith("_") and rel not in renames:
            skipped.add(rel + "/")
            return True
        return False

    for f in walk_files(site_dir, site_dir, ".", sources.errors, allow_outside=allow_outside, prune=prune):
        top, rest = _renamed_folder(f.rel, renames)
        if excluded(f.rel, layout.exclude):
            continue
        if posixpath.basename(f.rel).startswith("_"):
            skipped.add(f.rel)
            continue
        has_front = _starts_with_front_matter(f.path)
        if f.rel.lower().endswith(MARKDOWN_EXTS) and (has_front or not layout.front_matter_only):
            into = renames.get(top) if rest else None
            rel = f.rel if into is None else (f"{into}/{rest}" if into else rest)
            if f"content/{rel}" in sources.labels:  # `_pages/about.md` beside `about.md`: one would vanish
                sources.errors.append(ContentError(
                    f"`{sources.labels[f'content/{rel}']}` and `{f.rel}` are read as the same page `{rel}`",
                    path=f.rel, hint="rename or remove one of them"))
                continue
            sources.pages.append(SourceFile(rel, f.path))
            sources.labels[f"content/{rel}"] = f.rel
        elif has_front and layout.front_matter_only:
            skipped.add(f.rel)  # a page written in the tool's template language (`index.html` with a Liquid loop)
        elif rest and top in renames:
            continue  # a file beside a post in _posts/: Jekyll does not publish it either
        else:
            static.append(f)
    sources.pages.sort(key=lambda f: f.rel)
    sources.skipped = sorted(skipped)
    return static


def _renamed_folder(rel: str, renames: dict[str, str]) -> tuple[str, str]:
    """A file's path split after the renamed folder it is in (`cols/_posts/x.md` -> `cols/_posts`, `x.md`, for a
    Jekyll `collections_dir`), else after its top folder."""
    parts = rel.split("/")
    for depth in range(len(parts) - 1, 1, -1):
        folder = "/".join(parts[:depth])
        if folder in renames:
            return folder, "/".join(parts[depth:])
    top, _, rest = rel.partition("/")
    return top, rest


def excluded(rel: str, patterns: tuple[str, ...]) -> bool:
    """Whether a site path, or a folder on its way, matches one of the patterns (`Gemfile`, `vendor`, `*.lock`)."""
    parts = rel.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return any(fnmatch.fnmatchcase(p, pat.strip("/")) or fnmatch.fnmatchcase(p.rsplit("/", 1)[-1], pat.strip("/"))
               for p in prefixes for pat in patterns)


def _starts_with_front_matter(path: Path) -> bool:
    """Whether a file begins with a `---` line (Jekyll renders only such files)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(8)
    except OSError:
        return False
    return head.lstrip(b"\xef\xbb\xbf").startswith((b"---\n", b"---\r", b"--- "))


def read_bytes(source: SourceFile, label: str) -> bytes:
    """A source file's bytes; a file that cannot be read (permissions, vanished, a folder) is a located error."""
    try:
        return source.path.read_bytes()
    except OSError as exc:
        raise ContentError(f"cannot read the file: {exc.strerror or exc}", path=f"{label}/{source.rel}",
                           hint="check that it is a readable file") from None


def read_text(source: SourceFile, label: str) -> str:
    """Read a UTF-8 source file; an invalid byte is reported with its line and byte offset."""
    try:
        size = source.path.stat().st_size
    except OSError as exc:
        raise ContentError(f"cannot read the file: {exc.strerror or exc}", path=f"{label}/{source.rel}",
                           hint="check that it is a readable file") from None
    if size > MAX_TEXT_BYTES:
        raise ContentError(f"file is {size / 1048576:.1f} MB; sitegen refuses text files over "
                           f"{MAX_TEXT_BYTES // 1048576} MB", path=f"{label}/{source.rel}",
                           hint="split it into several pages, or move generated data out of the site")
    return decode_utf8(read_bytes(source, label), f"{label}/{source.rel}")



def parse_by_extension(text: str, path: str) -> Any:
    """Parse a data or CV file's text by its extension (`.json`, `.toml`, else YAML 1.2 scalars), within the
    input limits; errors name `path` (site-relative) with line and column."""
    text = text.lstrip("\ufeff")
    fmt = "json" if path.endswith(".json") else "toml" if path.endswith(".toml") else "yaml"
    try:
        if fmt != "yaml":  # load_yaml checks its own input
            check_input(text, fmt)
        if fmt == "json":
            return json.loads(text)
        if fmt == "toml":
            return tomllib.loads(text)
        return load_yaml(text)
    except InputLimitError as exc:
        raise located(exc, path) from None
    except json.JSONDecodeError as exc:
        raise ContentError(f"invalid JSON: {exc.msg}", path=path, line=exc.lineno, col=exc.colno) from None
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, "TOML", path) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, ContentError, "YAML", path) from None
    except (ValueError, TypeError, RecursionError) as exc:
        limit = limit_error(text, exc)
        if limit is None:
            raise ContentError(f"cannot read this {fmt.upper()} file: {exc}", path=path) from None
        raise located(limit, path) from None


def parse_data_file(rel: str, text: str) -> Any:
    """Parse one data file's text (`rel` is relative to data/)."""
    return parse_by_extension(text, f"data/{rel}")


def _data_clash(key: tuple[str, ...], label: str, by_file: dict[tuple[str, ...], str],
                by_folder: dict[tuple[str, ...], str]) -> ContentError | None:
    """The error when a data file's key is also another file's (`x.yaml`, `x.json`) or a folder's (`x/`)."""
    hint = "rename or remove one of them: sitegen would otherwise merge or overwrite them depending on file order"
    name = "data." + ".".join(key)
    if key in by_file:
        return ContentError(f"`{by_file[key]}` and `{label}` both define `{name}`", path=label, hint=hint)
    if key in by_folder:
        return ContentError(f"`{label}` and the folder `{by_folder[key]}` both define `{name}`", path=label,
                            hint=hint)
    for i in range(1, len(key)):
        if key[:i] in by_file:
            folder = "data/" + "/".join(key[:i]) + "/"
            return ContentError(f"`{by_file[key[:i]]}` and the folder `{folder}` both define "
                                f"`data.{'.'.join(key[:i])}`", path=by_file[key[:i]], hint=hint)
    return None


def load_data(files: list[SourceFile], errors: list[SitegenError]) -> dict[str, Any]:
    """`data/a/b.yaml` becomes `data["a"]["b"]`; errors are appended, not raised."""
    data: dict[str, Any] = {}
    by_file: dict[tuple[str, ...], str] = {}  # the key path a file defines -> that file
    by_folder: dict[tuple[str, ...], str] = {}  # the key path a folder defines -> the folder
    for f in files:
        *folders, name = f.rel.split("/")
        key = (*folders, name.rsplit(".", 1)[0])
        label = f"data/{f.rel}"
        clash = _data_clash(key, label, by_file, by_folder)
        if clash is not None:
            if not any(e.message == clash.message for e in errors):  # once, not once per file in the folder
                errors.append(clash)
            continue
        by_file[key] = label
        for i in range(1, len(key)):
            by_folder.setdefault(key[:i], "data/" + "/".join(key[:i]) + "/")
        try:
            value = parse_data_file(f.rel, read_text(f, "data"))
        except SitegenError as exc:
            errors.append(exc)
            continue
        node = data
        for folder in folders:
            node = node.setdefault(folder, {})
        node[key[-1]] = value
    return data
