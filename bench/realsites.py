#!/usr/bin/env python3
"""Build real Hugo and Jekyll site folders unedited, as a user would, and print one table row per site.

    python bench/realsites.py /tmp/real/*            # build each folder in place (output in a temp folder)
    python bench/realsites.py --import /tmp/real/*   # also `sitegen import` each into a temp folder and check it
    python bench/realsites.py --original blog=/tmp/blog-public /tmp/real/blog   # compare with the tool's output

Each folder is built with `sitegen build --no-cache --output <temp>` (the output is never inside the source) and
a digest of the folder is taken before and after: a build that changed the source is reported. Columns: pages
built, warnings (count and the most frequent kinds), the fatal error if the build stopped. With `--import`:
the files the importer wrote, the constructs it could not convert, the links it found broken in the original site
already, and what `sitegen check` says of the result (which counts those apart).

Nothing here is asserted: the folders are other people's sites, fetched outside the repository, never committed.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

_WARNING = re.compile(r"^(?:(?P<path>[^\s:][^:]*?)(?::\d+)?(?::\d+)?: )?warning: (?P<message>.*)$")
_BUILT = re.compile(r"^Built (\d+) pages")
_QUOTED = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|\d+")


def digest_tree(root: Path) -> str:
    """One digest of every file name and content under `root` (symbolic links by their target)."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            h.update(str(path.relative_to(root)).encode() + b"\0")
            if path.is_symlink():
                h.update(os.readlink(path).encode())
            else:
                try:
                    h.update(path.read_bytes())
                except OSError:
                    h.update(b"<unreadable>")
    return h.hexdigest()


def warning_kind(message: str) -> str:
    """A warning's message with names and numbers blanked, so that warnings of one kind group together."""
    return _QUOTED.sub("_", message)[:60]


def run_sitegen(args: list[str], timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """`python -m sitegen ARGS` from this checkout, output captured."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    return subprocess.run([sys.executable, "-m", "sitegen", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, check=False)


def summarize(proc: subprocess.CompletedProcess[str]) -> tuple[str, int, str, str]:
    """(pages, warning count, top warning kinds, fatal error) of one sitegen run."""
    pages = "-"
    for line in proc.stdout.splitlines():
        match = _BUILT.match(line)
        if match:
            pages = match[1]
    kinds: collections.Counter[str] = collections.Counter()
    for line in proc.stderr.splitlines():
        match = _WARNING.match(line)
        if match:
            kinds[warning_kind(match["message"])] += 1
    top = "; ".join(f"{n}x {kind}" for kind, n in kinds.most_common(3))
    fatal = ""
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.splitlines() if ln.strip() and not _WARNING.match(ln)]
        fatal = (lines[0] if lines else f"exit {proc.returncode}")[:140]
    return pages, sum(kinds.values()), top, fatal


def html_pages(root: Path) -> set[str]:
    """The HTML pages of a built site, as URL paths (`posts/x/index.html` -> `/posts/x/`)."""
    out: set[str] = set()
    for path in root.rglob("*.html"):
        rel = path.relative_to(root).as_posix()
        out.add("/" + (rel[:-len("index.html")] if rel.endswith("index.html") else rel))
    return out


def compare_row(site: str, built: Path, original: Path) -> dict[str, str]:
    """Pages the original tool published that sitegen did not, and the other way round."""
    ours, theirs = html_pages(built), html_pages(original)
    missing, extra = sorted(theirs - ours), sorted(ours - theirs)
    return {"site": site, "both": str(len(ours & theirs)), "only original": f"{len(missing)}: {', '.join(missing[:6])}",
            "only sitegen": f"{len(extra)}: {', '.join(extra[:6])}"}


def build_row(site: Path, tmp: Path) -> dict[str, str]:
    """Build one site folder unedited into a temporary output."""
    before = digest_tree(site)
    proc = run_sitegen(["build", "--source", str(site), "--output", str(tmp / f"{site.name}-out"), "--no-cache"])
    pages, count, top, fatal = summarize(proc)
    if digest_tree(site) != before:
        fatal = ("SOURCE CHANGED; " + fatal).strip("; ")
    return {"site": site.name, "pages": pages, "warnings": str(count), "top": top, "fatal": fatal}


def import_row(site: Path, tmp: Path) -> dict[str, str]:
    """`sitegen import` one site folder into a temporary folder, then build and check the result."""
    dest = tmp / f"{site.name}-imported"
    before = digest_tree(site)
    kind = "jekyll" if (site / "_config.yml").is_file() else "hugo"
    proc = run_sitegen(["import", kind, str(site), str(dest)])
    unconverted = sum(1 for ln in proc.stdout.splitlines() if ln.startswith("  not converted"))
    written = sum(1 for ln in proc.stdout.splitlines() if ln.startswith("  wrote"))
    inherited = sum(1 for ln in proc.stdout.splitlines() if ln.startswith("  broken in the original"))
    row = {"site": site.name, "written": str(written), "unconverted": str(unconverted),
           "broken in original": str(inherited), "check": ""}
    if proc.returncode != 0:
        row["check"] = "import failed: " + (proc.stderr.strip().splitlines() or ["?"])[0][:120]
    else:
        run_sitegen(["build", "--source", str(dest), "--output", str(tmp / f"{site.name}-imported-out"),
                     "--no-cache", "--quiet"])
        check = run_sitegen(["check", "--source", str(dest)])
        pages, count, top, fatal = summarize(check)
        checked = [ln for ln in (check.stdout + check.stderr).splitlines() if ln.startswith("Checked ")]
        last = checked[-1] if checked else ""
        row["check"] = (f"exit {check.returncode}, {count} build warnings; " + (last or fatal)).strip()
    if digest_tree(site) != before:
        row["check"] = "SOURCE CHANGED; " + row["check"]
    return row


def print_table(rows: list[dict[str, str]], columns: list[str]) -> None:
    """A Markdown table of the rows."""
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(row.get(c, "").replace("|", "\\|") for c in columns) + " |")


def main() -> None:
    """Build (and with --import, import) every folder given; print the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--import", dest="do_import", action="store_true",
                        help="also run `sitegen import` on each and `sitegen check` the result")
    parser.add_argument("--original", action="append", default=[], metavar="SITE=FOLDER",
                        help="the original tool's output of SITE (a folder name given), to compare page URLs")
    args = parser.parse_args()
    originals = dict(item.split("=", 1) for item in args.original)
    sites = [s.resolve() for s in args.sites if s.is_dir()]
    with tempfile.TemporaryDirectory(prefix="realsites-") as tmp_name:
        tmp = Path(tmp_name)
        print_table([build_row(s, tmp) for s in sites], ["site", "pages", "warnings", "top", "fatal"])
        compared = [compare_row(s.name, tmp / f"{s.name}-out", Path(originals[s.name])) for s in sites
                    if s.name in originals and (tmp / f"{s.name}-out").is_dir()]
        if compared:
            print()
            print_table(compared, ["site", "both", "only original", "only sitegen"])
        if args.do_import:
            print()
            print_table([import_row(s, tmp) for s in sites],
                        ["site", "written", "unconverted", "broken in original", "check"])
            compared = [compare_row(s.name, tmp / f"{s.name}-imported-out", Path(originals[s.name])) for s in sites
                        if s.name in originals and (tmp / f"{s.name}-imported-out").is_dir()]
            if compared:
                print()
                print_table(compared, ["site", "both", "only original", "only sitegen"])


if __name__ == "__main__":
    main()
