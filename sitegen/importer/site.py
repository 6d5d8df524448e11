"""`import_site`: read a Hugo or Jekyll site folder and write a clean sitegen site beside it, in order:

    check the folders -> read the config (the tool's reader) -> place every file -> convert pages, CV, config
    -> keep every page's URL (pin `url:` where sitegen's would differ) -> write a staging folder -> rename it
    into place -> the report

The source folder is only ever read. The destination must not exist or be empty; it is written as a staging
folder beside it and renamed into place at the end, so a failed import leaves nothing half-written.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml

from sitegen.config import MenuItem, SiteConfig, parse_config
from sitegen.content.frontmatter import normalize_text, split_front_matter
from sitegen.dialects import NATIVE
from sitegen.errors import ConfigError, Diagnostic, SitegenError
from sitegen.importer.bibtex import alfolio_links
from sitegen.importer.converters import KINDS, Converters, converters_for
from sitegen.importer.cv import alfolio_cv, json_resume_cv
from sitegen.importer.layout import Placement, excluded, place_files, settle_pages
from sitegen.importer.links import OriginalSite, broken_links
from sitegen.importer.menu import menu_from_navigation, menu_from_pages
from sitegen.importer.pages import convert_page, render_page
from sitegen.importer.report import ImportReport
from sitegen.importer.settings import author_from_params, config_text, with_moved_paths, without_theme_links
from sitegen.importer.urls import SiteReading, page_expander, page_urls, read_site
from sitegen.links import IMPORT_RECORD
from sitegen.yamlload import load_yaml


def import_site(kind: str, source: Path, dest: Path, converters: Converters | None = None) -> ImportReport:
    """Import the `kind` (`hugo` or `jekyll`) site in `source` into the new folder `dest`."""
    source, dest = _check_folders(kind, source, dest)
    converters = converters or converters_for(kind)
    report = ImportReport(kind, str(source), str(dest))
    config = _read_config(source, converters, report)
    paths = _site_files(source, report)
    if kind == "jekyll":
        patterns = _jekyll_excludes(source)
        paths = [rel for rel in paths if not excluded(rel, patterns)]
    placements = place_files(kind, paths, lambda rel: _has_front_matter(source / rel))
    placements = settle_pages(placements, _headless_bundles(source, placements))
    reading = read_site(source, config, converters.dialect)
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.importing-", dir=dest.parent))
    try:
        pages = _write_files(source, staging, placements, converters, config, reading, report)
        config = with_moved_paths(config, {p.source: p.dest for p in placements if p.dest})
        config, dropped = without_theme_links(author_from_params(config))
        report.notes.extend(dropped)
        _write_config(staging, config, report)
        _add_cv_pages(staging, pages, report)
        _keep_urls(staging, pages, reading.urls, report)
        if not config.menu:
            _add_menu(source, staging, config, pages, report)
        _write_record(staging, report)
        if dest.exists():
            dest.rmdir()  # empty (checked above)
        os.replace(staging, dest)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return report


def _check_folders(kind: str, source: Path, dest: Path) -> tuple[Path, Path]:
    if kind not in KINDS:
        raise ConfigError(f"cannot import {kind!r} sites", hint=f"name one of: {', '.join(KINDS)}")
    if not source.is_dir():
        raise ConfigError("the site folder to import does not exist", path=str(source),
                          hint="name the folder holding the Hugo or Jekyll site")
    src, out = source.resolve(), dest.resolve()
    if out == src or out.is_relative_to(src) or src.is_relative_to(out):
        raise ConfigError("the new site cannot be inside the site it is imported from (or hold it)",
                          path=str(dest), hint="name a folder outside it, e.g. ../mysite-sitegen")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError("the destination is not an empty folder: nothing was written", path=str(dest),
                          hint="name a new folder; sitegen import never writes over files")
    return src, out


def _read_config(source: Path, converters: Converters, report: ImportReport) -> SiteConfig:
    try:
        config, warnings = converters.read_config(source)
    except SitegenError as exc:
        report.notes.append(Diagnostic(f"the configuration could not be read: {exc.message}", path=exc.path,
                                       line=exc.line, hint="sitegen's defaults were used; edit sitegen.yaml"))
        return SiteConfig()
    report.notes.extend(warnings)
    if not converters.complete:
        report.notes.append(Diagnostic(f"no {converters.kind} config reader in this sitegen yet: the "
                                       "configuration was not translated", path=None,
                                       hint="set title, base_url, menu in sitegen.yaml"))
    return config


def _site_files(source: Path, report: ImportReport) -> list[str]:
    """Every file of the source folder (site-relative POSIX paths), without dot folders such as `.git`; a link
    out of the site, or to a folder, is left out with a note (never followed: docs/safety.md)."""
    out: list[str] = []
    for folder, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        rel = Path(folder).relative_to(source).as_posix()
        for name in [*sorted(files), *dirs]:
            if name.startswith(".") and name not in (".nojekyll", ".well-known"):
                continue
            path = Path(folder) / name
            site_path = name if rel == "." else f"{rel}/{name}"
            if path.is_symlink() and (path.is_dir() or not path.resolve().is_relative_to(source)):
                report.notes.append(Diagnostic(f"symbolic link to {os.readlink(path)} was not followed: left out",
                                               path=site_path, hint="copy what it points to into the new site"))
            elif path.is_file() and name in files:
                out.append(site_path)
    return out


def _jekyll_excludes(source: Path) -> list[str]:
    """`exclude:` of `_config.yml`: files Jekyll leaves out of the site, which the import leaves out too."""
    try:
        raw = load_yaml((source / "_config.yml").read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError, yaml.YAMLError):
        return []
    value = raw.get("exclude") if isinstance(raw, dict) else None
    return [str(v) for v in value] if isinstance(value, list) else []


def _has_front_matter(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            head = f.read(4)
    except OSError:
        return False
    return head.startswith((b"---", b"+++"))


def _headless_bundles(source: Path, placements: list[Placement]) -> set[str]:
    """Folders (source paths) of Hugo bundles whose `index.md` says `headless: true`."""
    out: set[str] = set()
    for p in placements:
        if p.action != "page" or not p.source.endswith("/index.md"):
            continue
        try:
            text = (source / p.source).read_bytes().decode("utf-8", errors="replace")
            front = split_front_matter(normalize_text(text), p.source).data
        except (SitegenError, OSError):
            continue
        if front.get("headless") is True:
            out.add(p.source.rsplit("/", 1)[0])
    return out


def _write_files(source: Path, staging: Path, placements: list[Placement], converters: Converters,
                 config: SiteConfig, reading: SiteReading, report: ImportReport) -> dict[str, str]:
    """Convert and copy; returns new page path -> source path."""
    pages: dict[str, str] = {}
    urls_written: dict[str, str] = {}
    original = _original_site(reading, config)
    for p in placements:
        if p.action == "skip":
            where = _skip_folder(p.source)
            what, count = report.skipped.get(where, (p.why, 0))
            report.skipped[where] = (what, count + 1)
        elif p.action == "copy" and p.source.endswith(".bib") and converters.kind == "jekyll":
            text, count = alfolio_links((source / p.source).read_bytes().decode("utf-8", errors="replace"))
            _put(staging / p.dest, text.encode())
            report.copied.append((p.source, p.dest))
            if count:
                report.written.append((p.dest, f"{count} file names in pdf/supp/poster/slides/preview made paths "
                                               "under /assets/ (where al-folio serves them)"))
        elif p.action == "copy":
            _put(staging / p.dest, (source / p.source).read_bytes())
            report.copied.append((p.source, p.dest))
        elif p.action == "cv":
            _convert_cv(source, staging, p, config, report)
        elif p.action == "page":
            if p.dest in pages:
                report.notes.append(Diagnostic(f"not converted: {p.dest} is already made from {pages[p.dest]}",
                                               path=p.source, hint="rename one of them"))
                continue
            text = (source / p.source).read_bytes().decode("utf-8", errors="replace")
            try:
                page = convert_page(p.source, text, converters, config, draft=p.draft,
                                    markdown_name=p.dest.removeprefix("content/"),
                                    expand=page_expander(reading, p.source, config))
            except SitegenError as exc:
                report.notes.append(Diagnostic(f"not converted: {exc.message}", path=p.source, line=exc.line,
                                               hint="copy the page over by hand and fix it"))
                continue
            dest = p.dest
            if page.front.get("url"):
                report.explicit_urls.add(p.source)
                first = urls_written.setdefault(str(page.front["url"]), p.source)
                if first != p.source and page.front["url"] != "/":
                    report.notes.append(Diagnostic(f"{first} has the URL {page.front['url']} too (the old site "
                                                   "wrote one over the other): this page keeps sitegen's URL",
                                                   path=p.source, hint="remove one of them, or give it a `url:`"))
                    page.front.pop("url")
                    page.text = render_page(page.front, page.body)
            if page.front.get("url") == "/" and not page.front.get("draft") and dest != "content/_index.md":
                # `permalink: /` (academicpages, al-folio's about.md) makes the page the home page.
                page.front.pop("url", None)
                page.text = render_page(page.front, page.body)
                if "content/_index.md" in pages:
                    report.notes.append(Diagnostic(f"{pages['content/_index.md']} is the home page already: this "
                                                   "page keeps its own URL", path=p.source,
                                                   hint="Jekyll published only one of them at /"))
                else:
                    dest = "content/_index.md"
            _put(staging / dest, page.text.encode())
            pages[dest] = p.source
            report.converted.append((p.source, dest))
            report.notes.extend(page.notes)
            if p.source in reading.urls:
                report.broken_links.extend(broken_links(dest, p.source, text, page.body_line, page.body,
                                                        reading.urls[p.source], original))
    return pages


def _original_site(reading: SiteReading, config: SiteConfig) -> OriginalSite:
    """What the site published before the import: its pages' URLs and its files (as read in place)."""
    urls = reading.tree.urls.values() if reading.tree is not None else reading.urls.values()
    return OriginalSite(frozenset(urls), reading.files, frozenset(config.taxonomies), config.base_path)


def _write_record(staging: Path, report: ImportReport) -> None:
    """The links broken in the original site, for `sitegen check` to say so (`sitegen.links.IMPORT_RECORD`)."""
    if report.broken_links:
        record = {"kind": report.kind, "source": report.source,
                  "broken_in_source": [{"page": b.page, "href": b.href, "where": b.source, "what_to_do": b.why}
                                       for b in report.broken_links]}
        _put(staging / IMPORT_RECORD, (json.dumps(record, indent=1, ensure_ascii=False) + "\n").encode())


def _skip_folder(rel: str) -> str:
    parts = rel.split("/")
    return "/".join(parts[:2]) + "/" if parts[0] == "assets" and len(parts) > 2 else (
        parts[0] + "/" if len(parts) > 1 else rel)


def _put(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _convert_cv(source: Path, staging: Path, p: Placement, config: SiteConfig, report: ImportReport) -> None:
    text = (source / p.source).read_bytes().decode("utf-8", errors="replace")
    try:
        data: Any = json.loads(text) if p.source.endswith(".json") else load_yaml(text)
    except (ValueError, yaml.YAMLError) as exc:
        report.notes.append(Diagnostic(f"not converted: the CV cannot be read ({exc})", path=p.source,
                                       hint="fix it, or write data/cv.yaml by hand"))
        return
    name = config.author.name
    cv, notes = json_resume_cv(data, p.source, name) if p.source.endswith(".json") else alfolio_cv(data, p.source,
                                                                                                    name)
    report.notes.extend(notes)
    header = f"# Converted from {p.source} by `sitegen import` (format: docs/cv.md).\n"
    _put(staging / p.dest, (header + yaml.safe_dump(cv, sort_keys=False, allow_unicode=True, width=1000)).encode())
    report.written.append((p.dest, f"the CV, converted from {p.source}"))


def _write_config(staging: Path, config: SiteConfig, report: ImportReport) -> None:
    text = config_text(config)
    parse_config(text, "sitegen.yaml")  # what was written must load (raises if the translation is wrong)
    _put(staging / "sitegen.yaml", text.encode())
    report.written.append(("sitegen.yaml", "the configuration"))


def _add_menu(source: Path, staging: Path, config: SiteConfig, pages: dict[str, str], report: ImportReport) -> None:
    """A menu from al-folio's `nav: true` pages or `_data/navigation.yml`, when the config gave none."""
    menu: tuple[MenuItem, ...] = ()
    navigation = source / "_data" / "navigation.yml"
    if navigation.is_file():
        try:
            menu = menu_from_navigation(load_yaml(navigation.read_text(encoding="utf-8", errors="replace")))
        except (ValueError, yaml.YAMLError):
            menu = ()
    how = "from _data/navigation.yml"
    if not menu:
        fronts = {rel: _front_of(staging / rel, rel) for rel in pages}
        new_config, _ = parse_config((staging / "sitegen.yaml").read_text(encoding="utf-8"), "sitegen.yaml")
        menu, how = menu_from_pages(fronts, page_urls(staging, new_config, NATIVE)), "from the pages with `nav: true`"
    if menu:
        (staging / "sitegen.yaml").write_text(config_text(dataclasses.replace(config, menu=menu)), encoding="utf-8")
        report.written.append(("sitegen.yaml", f"the menu, {how}"))


def _front_of(path: Path, rel: str) -> dict[str, Any]:
    try:
        return split_front_matter(normalize_text(path.read_text(encoding="utf-8")), rel).data
    except SitegenError:
        return {}


def _add_cv_pages(staging: Path, pages: dict[str, str], report: ImportReport) -> None:
    """A CV page when a CV was converted and no page shows it (al-folio's cv.md does; academicpages' is Liquid)."""
    if not (staging / "data/cv.yaml").is_file():
        return
    layouts = set()
    for rel in pages:
        front = split_front_matter(normalize_text((staging / rel).read_text(encoding="utf-8")), rel).data
        layouts.add(front.get("layout"))
    if "cv" not in layouts and not (staging / "content/cv.md").exists():
        _put(staging / "content/cv.md", render_page({"title": "CV", "layout": "cv"}, "").encode())
        report.written.append(("content/cv.md", "the CV page, showing data/cv.yaml"))


def _keep_urls(staging: Path, pages: dict[str, str], old_urls: dict[str, str], report: ImportReport) -> None:
    """Pin `url:` on each imported page whose URL under sitegen differs from the one it had."""
    config, _ = parse_config((staging / "sitegen.yaml").read_text(encoding="utf-8"), "sitegen.yaml")
    new_urls = page_urls(staging, config, NATIVE)
    unknown = sorted(src for src in pages.values() if src not in old_urls and src not in report.explicit_urls)
    moves = {new: (old_urls[src], new_urls[new]) for new, src in sorted(pages.items())
             if src in old_urls and new in new_urls and old_urls[src] != new_urls[new]}
    taken = {url for new, url in new_urls.items() if new not in moves}
    for new, (before, after) in moves.items():
        if before in taken:  # two pages had one URL (the tool wrote one over the other): keep them apart
            report.notes.append(Diagnostic(f"another page has the URL {before} this page had: it keeps "
                                           f"sitegen's URL {after}", path=pages[new],
                                           hint="the old site showed only one of them there; remove one"))
            taken.add(after)
            continue
        taken.add(before)
        path = staging / new
        fm = split_front_matter(normalize_text(path.read_text(encoding="utf-8")), new)
        front = dict(fm.data)
        front["url"] = before
        path.write_text(render_page(front, fm.body), encoding="utf-8")
        report.pinned.append((new, before, after))
    if unknown:
        report.notes.append(Diagnostic(
            f"the URL {len(unknown)} page(s) had could not be worked out (first: {unknown[0]}); they get "
            "sitegen's URLs", hint="compare with the old site, and write `url:` into a page whose URL must stay"))

