"""Find, read and validate the CV sources of a site: `data/cv.yaml` (or .json/.toml, or JSON Resume's own
`data/resume.json`), `data/cv.<lang>.yaml` and the BibTeX files of publications (`data/*.bib`, or the files
`cv.bibtex` names)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from sitegen.config import SiteConfig
from sitegen.confine import check_inside
from sitegen.content.sources import SourceFile, parse_by_extension, read_text
from sitegen.cv.publication import Publication
from sitegen.cv.validate import key_lines, validate_cv
from sitegen.errors import ConfigError, ContentError, Diagnostic, SitegenError, raise_if_any

BibResult = tuple[list[Publication], list[SitegenError]]
_NAME = re.compile(r"^(?:cv(?:\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)?))?\.(?:yaml|yml|json|toml)"
                   r"|resume(?:\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)?))?\.json)$")


@dataclass(frozen=True)
class CVSource:
    """One CV document: its language, its file and its validated data."""

    lang: str
    path: str
    """Site-relative path, for messages (`data/cv.zh.yaml`)."""
    data: dict[str, Any]
    notes: tuple[Diagnostic, ...] = ()
    """Warnings: keys of a JSON CV that look like a mistyped known key (kept, as JSON Resume allows them)."""


@dataclass(frozen=True)
class CVOptions:
    """The `cv:` section of sitegen.yaml."""

    name_variants: list[str]
    paper: str
    font_paths: list[str]
    variants: dict[str, dict[str, Any]]
    bibtex: list[str] | None = None
    """Site-relative .bib files of publications; None: every `data/*.bib`, by name."""
    fonts: list[str] = field(default_factory=list)
    """`cv.pdf.font`: font families to set the PDF in, before the bundled ones (a family neither bundled nor
    in `font_paths` is looked up among the system's fonts, and the PDF then depends on the machine)."""


def cv_options(config: SiteConfig) -> CVOptions:
    """Validate the `cv:` config section."""
    raw = config.cv
    errors: list[SitegenError] = []
    allowed = {"name_variants", "pdf", "variants", "enabled", "bibtex"}
    for key in raw:
        if key not in allowed:
            errors.append(ConfigError(f"`cv.{key}`: unknown key", path=config.path,
                                      hint=f"known keys: {', '.join(sorted(allowed))}"))
    pdf = raw.get("pdf") or {}
    if not isinstance(pdf, dict):
        errors.append(ConfigError(f"`cv.pdf`: expected a mapping, got {pdf!r}", path=config.path,
                                  hint="e.g. pdf: {paper: letter, font_paths: [fonts]}"))
        pdf = {}
    names = raw.get("name_variants") or []
    if not isinstance(names, list):
        errors.append(ConfigError(f"`cv.name_variants`: expected a list of names, got {names!r}", path=config.path,
                                  hint="e.g. name_variants: [A. Lin, Lin, A.]"))
        names = []
    font_paths = pdf.get("font_paths") or []
    if not isinstance(font_paths, list):
        errors.append(ConfigError(f"`cv.pdf.font_paths`: expected a list of folders, got {font_paths!r}",
                                  path=config.path, hint="e.g. font_paths: [fonts]"))
        font_paths = []
    paper = str(pdf.get("paper", "a4")).lower()
    if paper not in ("a4", "letter"):
        errors.append(ConfigError(f"`cv.pdf.paper`: {paper!r} is not a4 or letter", path=config.path))
    variants = raw.get("variants") or {}
    if not isinstance(variants, dict):
        errors.append(ConfigError("`cv.variants`: expected a mapping of variant name to options", path=config.path))
        variants = {}
    for name, options in variants.items():
        if not re.match(r"^[a-z0-9][a-z0-9_-]*$", str(name)) or not isinstance(options, dict):
            errors.append(ConfigError(f"`cv.variants.{name}`: a variant needs a simple name and a mapping",
                                      path=config.path, hint="e.g. short: {tags: [systems], max_publications: 10}"))
            continue
        errors.extend(_variant_errors(str(name), options, config.path))
    font = pdf.get("font") or []
    font = [font] if isinstance(font, str) else font
    if not isinstance(font, list) or not all(isinstance(f, str) and f.strip() for f in font):
        errors.append(ConfigError("`cv.pdf.font`: expected a font family name or a list of them", path=config.path,
                                  hint='e.g. font: "EB Garamond" (the bundled fonts are listed in the README)'))
        font = []
    bibtex = raw.get("bibtex")
    if bibtex is not None and (not isinstance(bibtex, list) or not all(
            isinstance(p, str) and _inside_site(p) for p in bibtex)):
        errors.append(ConfigError("`cv.bibtex`: expected a list of .bib files in the site folder", path=config.path,
                                  hint="e.g. bibtex: [data/papers.bib] (leave it out to read every data/*.bib)"))
        bibtex = None
    if errors:
        raise_if_any(errors)
    return CVOptions(name_variants=[str(n) for n in names], paper=paper,
                     font_paths=[str(p) for p in font_paths],
                     variants={str(k): v for k, v in variants.items() if isinstance(v, dict)},
                     bibtex=[PurePosixPath(p).as_posix() for p in bibtex] if bibtex is not None else None,
                     fonts=[f.strip() for f in font])


VARIANT_KEYS = {"sections": "a list of section keys, e.g. [work, publications]",
                "tags": "a list of tags, e.g. [systems]",
                "max_publications": "a whole number, e.g. 10"}
"""What a variant may say (`sitegen.cv.variant.apply_variant` applies it)."""


def _variant_errors(name: str, options: dict[str, Any], path: str) -> list[SitegenError]:
    """Every problem of one `cv.variants` entry: unknown keys (a typo would silently give the full CV) and
    values of the wrong kind."""
    errors: list[SitegenError] = []
    for key, value in options.items():
        where = f"`cv.variants.{name}.{key}`"
        if key not in VARIANT_KEYS:
            errors.append(ConfigError(f"{where}: unknown key", path=path,
                                      hint=f"a variant takes {', '.join(VARIANT_KEYS)}"))
        elif key == "max_publications":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                errors.append(ConfigError(f"{where}: expected {VARIANT_KEYS[key]}, got {value!r}", path=path))
        elif not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            errors.append(ConfigError(f"{where}: expected {VARIANT_KEYS[key]}, got {value!r}", path=path))
    return errors


def _inside_site(path: str) -> bool:
    """A relative path that stays in the site folder (`data/papers.bib`, not `../x.bib` or `/etc/x.bib`)."""
    pure = PurePosixPath(path.replace("\\", "/"))
    return bool(path) and not pure.is_absolute() and ".." not in pure.parts and not path.startswith("~")


def load_cv_file(file: Path, label: str, lang: str) -> tuple[CVSource | None, list[SitegenError]]:
    """Read, parse and validate one CV file; returns the source or the errors."""
    folder, _, name = label.rpartition("/")
    try:
        text = read_text(SourceFile(name, file), folder or ".")
        data = parse_by_extension(text, label)
    except SitegenError as exc:
        return None, [exc]
    # JSON is the JSON Resume format, which allows keys of its own anywhere: they are kept, never an error;
    # one that looks like a mistyped known key (`stratDate`) is a warning, since it is not shown.
    lines = key_lines(text)
    json_resume = label.endswith(".json")
    errors = validate_cv(data, label, lines, allow_extra=json_resume)
    if errors:
        return None, errors
    notes = tuple(Diagnostic(e.message.replace("unknown key", "not a key sitegen shows (kept in the JSON Resume "
                                                                "output)"), path=e.path, line=e.line, hint=e.hint)
                  for e in (validate_cv(data, label, lines) if json_resume else [])
                  if "unknown key" in e.message and (e.hint or "").startswith("did you mean"))
    return CVSource(lang, label, _plain(data), notes), []


def _plain(value: Any) -> Any:
    """Dates as ISO text, so every output reads them the same way."""
    import datetime as dt

    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def discover_cvs(site_dir: Path, default_lang: str, *, allow_outside: bool = False
                 ) -> tuple[list[CVSource], list[SitegenError]]:
    """Every CV in data/, the default-language one first; all errors of all files. A CV file that is a link out
    of the site is an error unless `allow_outside`."""
    data_dir = site_dir / "data"
    found: list[CVSource] = []
    errors: list[SitegenError] = []
    if not data_dir.is_dir():
        return found, errors
    seen: set[str] = set()
    for file in sorted(data_dir.iterdir()):
        match = _NAME.match(file.name)
        if not match or not (file.is_file() or file.is_symlink()):
            continue
        try:
            check_inside(file, site_dir, f"data/{file.name}", allow=allow_outside)
        except SitegenError as exc:
            errors.append(exc)
            continue
        lang = match.group(1) or match.group(2) or default_lang
        if lang in seen and file.name.startswith("resume."):
            continue  # data/cv.* is the CV (sorted first); a resume.json beside it stays a data file for templates
        if lang in seen:
            errors.append(ContentError(f"a second CV for language `{lang}`", path=f"data/{file.name}",
                                       hint="keep one of cv.yaml / cv.json / cv.toml per language"))
            continue
        seen.add(lang)
        source, problems = load_cv_file(file, f"data/{file.name}", lang)
        errors.extend(problems)
        if source:
            found.append(source)
    found.sort(key=lambda s: (s.lang != default_lang, s.lang))
    return found, errors


def discover_bibtex(site_dir: Path, paths: list[str] | None, config_path: str = "sitegen.yaml",
                    parse: Callable[[str, str], BibResult] | None = None, *,
                    allow_outside: bool = False) -> BibResult:
    """The publications of every .bib file (`paths`, else `data/*.bib` by name); all errors of all files.
    A file whose links lead out of the site is an error unless `allow_outside`.

    `parse(text, path)` is `parse_bibtex` (the default), or a memoized version of it (the build's).
    """
    if paths is None:
        data_dir = site_dir / "data"
        paths = sorted(f"data/{f.name}" for f in data_dir.iterdir()
                       if f.suffix.lower() == ".bib" and (f.is_file() or f.is_symlink())) if data_dir.is_dir() else []
    publications: list[Publication] = []
    errors: list[SitegenError] = []
    first: dict[str, Publication] = {}
    if parse is None:
        if not paths:
            return publications, errors
        from sitegen.cv.bibtex import parse_bibtex  # bibtexparser is loaded only for sites with .bib files

        parse = parse_bibtex
    for label in paths:
        folder, _, name = label.rpartition("/")
        try:
            check_inside(site_dir / label, site_dir, label, allow=allow_outside)
        except SitegenError as exc:
            errors.append(exc)
            continue
        if not (site_dir / label).is_file():
            what = "is not a file" if (site_dir / label).exists() else "does not exist"
            errors.append(ConfigError(f"`cv.bibtex`: `{label}` {what}", path=config_path,
                                      hint="give paths relative to the site folder, e.g. data/papers.bib"))
            continue
        try:
            text = read_text(SourceFile(name, site_dir / label), folder or ".")
        except SitegenError as exc:
            errors.append(exc)
            continue
        found, problems = parse(text, label)
        errors.extend(problems)
        for publication in found:
            earlier = first.setdefault(publication.key.casefold(), publication)
            if earlier is not publication:
                errors.append(ContentError(f"entry `{publication.key}`: the key is also used in {earlier.path}:"
                                           f"{earlier.line}", path=label, line=publication.line,
                                           hint="give each entry its own key"))
                continue
            publications.append(publication)
    return publications, errors
