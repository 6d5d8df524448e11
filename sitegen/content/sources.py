"""Discover a site's source files: content pages, bundle resources, static files and data files."""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sitegen.content.urls import nfc
from sitegen.errors import ContentError, SitegenError
from sitegen.inputlimits import InputLimitError, check_input, limit_error, located
from sitegen.yamlload import load_yaml

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


def walk_files(root: Path, site_root: Path, label: str, errors: list[SitegenError]) -> list[SourceFile]:
    """All regular files below `root`, sorted; symlinks are followed only when they stay inside `site_root`.

    Dotfiles and dot-folders (`.git`, `.DS_Store`) are skipped.
    """
    out: list[SourceFile] = []
    if not root.is_dir():
        return out
    site_real = site_root.resolve()
    seen: set[Path] = set()

    def visit(folder: Path, rel: str) -> None:
        real = folder.resolve()
        if real in seen:
            return
        seen.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            errors.append(ContentError(f"cannot read folder: {exc.strerror}", path=f"{label}/{rel}"))
            return
        for entry in entries:
            if entry.name.startswith(".") or entry.name.endswith("~"):
                continue
            child_rel = f"{rel}/{nfc(entry.name)}" if rel else nfc(entry.name)
            child = Path(entry.path)
            if entry.is_symlink():
                target = child.resolve()
                if not target.is_relative_to(site_real):
                    errors.append(ContentError(
                        f"symlink points outside the site (to {os.readlink(child)!r})", path=f"{label}/{child_rel}",
                        hint="copy the file into the site, or point the link at a file inside it"))
                    continue
                if not target.exists():
                    errors.append(ContentError("broken symlink", path=f"{label}/{child_rel}",
                                               hint="remove it or fix its target"))
                    continue
            if entry.is_dir(follow_symlinks=True):
                visit(child, child_rel)
            elif entry.is_file(follow_symlinks=True):
                out.append(SourceFile(child_rel, child))

    visit(root, "")
    return out


def discover_sources(site_dir: Path, theme_dirs: list[Path]) -> Sources:
    """Scan content/, static/ (site then themes) and data/ once."""
    sources = Sources()
    for f in walk_files(site_dir / "content", site_dir, "content", sources.errors):
        (sources.pages if f.rel.lower().endswith(MARKDOWN_EXTS) else sources.resources).append(f)
    static: dict[str, SourceFile] = {}
    for theme in reversed(theme_dirs):
        for f in walk_files(theme / "static", theme, "static", sources.errors):
            static[f.rel] = f
    for f in walk_files(site_dir / "static", site_dir, "static", sources.errors):
        static[f.rel] = f
    sources.static = [static[k] for k in sorted(static)]
    sources.data = [f for f in walk_files(site_dir / "data", site_dir, "data", sources.errors)
                    if f.rel.lower().endswith(DATA_EXTS)]
    return sources


def read_text(source: SourceFile, label: str) -> str:
    """Read a UTF-8 source file; an invalid byte is reported with its line and byte offset."""
    size = source.path.stat().st_size
    if size > MAX_TEXT_BYTES:
        raise ContentError(f"file is {size / 1048576:.1f} MB; sitegen refuses text files over "
                           f"{MAX_TEXT_BYTES // 1048576} MB", path=f"{label}/{source.rel}",
                           hint="split it into several pages, or move generated data out of the site")
    return decode_utf8(source.path.read_bytes(), f"{label}/{source.rel}")


_WIDE = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
         (b"\xfe\xff", "UTF-16"))


def decode_utf8(raw: bytes, path: str, kind: type[SitegenError] = ContentError) -> str:
    """A file's bytes as text; a UTF-16/32 file or an invalid byte is reported (with its line) as `kind`."""
    wide = next((name for bom, name in _WIDE if raw.startswith(bom)), None)
    if wide is None and len(raw) >= 2 and (raw[0] == 0) != (raw[1] == 0):
        wide = "UTF-16"  # ASCII text in UTF-16 without a byte-order mark: every other byte is zero
    if wide is not None:
        raise kind(f"the file is saved as {wide}; sitegen reads UTF-8", path=path, line=1, col=1,
                   hint="re-save it as UTF-8 (in most editors: Save with Encoding, or File > Save As > UTF-8)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise kind(f"invalid UTF-8 byte 0x{raw[exc.start]:02x} at byte offset {exc.start}", path=path,
                   line=line, col=col, hint="re-save the file as UTF-8") from None


def parse_data_file(rel: str, text: str) -> Any:
    """Parse one data file's text by its extension (YAML 1.2 scalars, JSON, TOML)."""
    label = f"data/{rel}"
    text = text.lstrip("\ufeff")
    fmt = "json" if rel.endswith(".json") else "toml" if rel.endswith(".toml") else "yaml"
    try:
        if fmt != "yaml":  # load_yaml checks its own input
            check_input(text, fmt)
        if fmt == "json":
            return json.loads(text)
        if fmt == "toml":
            return tomllib.loads(text)
        return load_yaml(text)
    except InputLimitError as exc:
        raise located(exc, label) from None
    except json.JSONDecodeError as exc:
        raise ContentError(f"invalid JSON: {exc.msg}", path=label, line=exc.lineno, col=exc.colno) from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"invalid TOML: {exc}", path=label) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ContentError(f"invalid YAML: {getattr(exc, 'problem', None) or exc}", path=label,
                           line=mark.line + 1 if mark else None, col=mark.column + 1 if mark else None,
                           hint="check indentation and quoting") from None
    except (ValueError, TypeError, RecursionError) as exc:
        limit = limit_error(text, exc)
        if limit is None:
            raise ContentError(f"cannot read this {fmt.upper()} file: {exc}", path=label) from None
        raise located(limit, label) from None


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
