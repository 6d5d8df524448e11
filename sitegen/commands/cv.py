"""`sitegen cv`: make one CV (html, pdf, json, md) without building the site; `sitegen cv schema`."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from sitegen.build import BuildOptions, build_site
from sitegen.content.dates import source_date_epoch
from sitegen.cv.jsonresume import json_resume_bytes
from sitegen.cv.markdown import render_markdown_cv
from sitegen.cv.model import build_cv
from sitegen.cv.pdf import render_pdf
from sitegen.cv.publication import merge_publications
from sitegen.cv.schema import json_schema
from sitegen.cv.source import cv_options, discover_bibtex, discover_cvs
from sitegen.dialects import load_site_config
from sitegen.errors import ContentError, raise_if_any

FORMATS = ("html", "pdf", "json", "md")


def output_format(requested: str | None, output: Path | None) -> str:
    """The CV format: `--format`, else the output file's extension, else pdf; a format that contradicts a
    known extension (`-o cv.json --format pdf`) is refused rather than written under the wrong name."""
    suffix = output.suffix.lower().lstrip(".") if output is not None else ""
    implied = {"htm": "html", "markdown": "md"}.get(suffix, suffix)
    if requested is None:
        return implied if implied in FORMATS else "pdf"
    if implied in FORMATS and implied != requested:
        raise ContentError(f"--format {requested} does not match the output file {output}",
                           hint=f"use --format {implied}, or name the file *.{requested}")
    return requested


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen cv`."""
    parser.add_argument("action", nargs="?", choices=["make", "schema"], default="make",
                        help="`schema` prints the JSON Schema of the CV format")
    parser.add_argument("--source", "-s", type=Path, default=Path("."), help="site folder (default: .)")
    parser.add_argument("--format", "-f", choices=FORMATS, default=None,
                        help="default: from the -o file's extension (.html, .pdf, .json, .md), else pdf")
    parser.add_argument("--variant", default="", help="a variant from cv.variants in sitegen.yaml")
    parser.add_argument("--lang", default=None, help="language of the CV (data/cv.<lang>.yaml)")
    parser.add_argument("--output", "-o", type=Path, default=None, help="file to write (default: stdout)")


def run(args: argparse.Namespace) -> int:
    """Write the requested CV."""
    if args.action == "schema":
        data = (json.dumps(json_schema(), indent=2) + "\n").encode()
        return _emit(data, args.output)
    args.format = output_format(args.format, args.output)
    if args.format == "pdf" and args.output is None and sys.stdout.isatty():
        args.output = Path(f"cv{'-' + args.variant if args.variant else ''}.pdf")
        if args.output.is_symlink() or (args.output.exists() and not args.output.is_file()):
            # A file name nobody typed: never follow a link there (a cloned folder could hold `cv.pdf -> ~/x`).
            raise ContentError(f"{args.output} is a link or not a plain file; not writing the CV there",
                               hint="remove it, or name the file with -o")
    config, _ = load_site_config(args.source)
    options = cv_options(config)
    allow = config.allow_symlinks_outside
    sources, errors = discover_cvs(args.source, config.language, allow_outside=allow)
    publications, bib_errors = discover_bibtex(args.source, options.bibtex, config.path, allow_outside=allow)
    raise_if_any(errors + bib_errors)
    sources = [dataclasses.replace(s, data=merge_publications(s.data, publications)) for s in sources]
    lang = args.lang or config.language
    source = next((s for s in sources if s.lang == lang), None)
    if source is None:
        raise ContentError(f"no CV for language `{lang}`", path="data/",
                           hint=f"create data/cv.yaml (or data/cv.{lang}.yaml); found: "
                                f"{', '.join(s.lang for s in sources) or 'none'}")
    if args.variant and args.variant not in options.variants:
        raise ContentError(f"no CV variant `{args.variant}`", path=config.path,
                           hint=f"variants in cv.variants: {', '.join(options.variants) or 'none'}")
    names = options.name_variants + [str((s.data.get("basics") or {}).get("name") or "") for s in sources]
    cv = build_cv(source.data, lang, names, options.variants.get(args.variant), args.variant)
    if args.format == "pdf":
        data = render_pdf(cv, paper=options.paper, font_paths=options.font_paths, fonts=options.fonts,
                          source_label=source.path, date=source_date_epoch())
    elif args.format == "json":
        data = json_resume_bytes(source.data, options.variants.get(args.variant))
    elif args.format == "md":
        data = render_markdown_cv(cv).encode()
    else:
        result = build_site(BuildOptions(source=args.source))
        prefix = "" if lang == sources[0].lang else f"{lang}/"
        page = f"{prefix}cv/{args.variant + '/' if args.variant else ''}index.html"
        data = result.files[page]
    return _emit(data, args.output)


def _emit(data: bytes, output: Path | None) -> int:
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        output.write_bytes(data)
        print(f"Wrote {output}", file=sys.stderr)
    return 0
