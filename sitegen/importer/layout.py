"""Where each file of a Hugo or Jekyll site goes in the sitegen site (pure: paths in, a plan out).

Hugo keeps sitegen's own layout (`content/`, `static/`, `data/`), so most files keep their path; Jekyll's
`_posts/`, `_pages/`, collections (`_talks/`...), `_data/` and `_bibliography/` move to `content/` and `data/`.
Theme templates, includes, Sass and plugins cannot be read by sitegen: they are listed as not converted.
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass

PAGE_EXTS = (".md", ".markdown", ".html", ".htm")
"""Files that are pages when they carry front matter (Jekyll renders `.html` with front matter too)."""
CV_SOURCES = ("_data/cv.yml", "_data/cv.yaml", "_data/resume.json", "resume.json", "assets/json/resume.json")
"""CV files converted into `data/cv.yaml`, the first one found winning."""

_JEKYLL_SKIP = {
    "_layouts": "Jekyll layouts (Liquid templates)", "_includes": "Jekyll includes (Liquid templates)",
    "_sass": "Sass partials", "_plugins": "Jekyll plugins (Ruby)", "_site": "Jekyll's build output",
    "_scripts": "scripts of the theme", "node_modules": "npm packages", "vendor": "bundled gems",
    ".jekyll-cache": "Jekyll's cache", ".sass-cache": "Sass cache", "bin": "scripts",
}
_HUGO_SKIP = {
    "layouts": "Hugo templates (Go templates)", "themes": "Hugo themes (Go templates)",
    "archetypes": "Hugo archetypes", "i18n": "the theme's translations", "resources": "Hugo's generated resources",
    "public": "Hugo's build output", "node_modules": "npm packages", "assets/scss": "Sass sources",
    "assets/sass": "Sass sources",
}
_ROOT_SKIP = {
    "Gemfile", "Gemfile.lock", "_config.yml", "_config.yaml", "package.json", "package-lock.json", "Dockerfile",
    "docker-compose.yml", "Rakefile", "LICENSE", "LICENSE.md", "LICENSE.txt", "README.md", "README",
    "CONTRIBUTING.md", "CHANGELOG.md", "CUSTOMIZE.md", "FAQ.md", "INSTALL.md", "netlify.toml", "go.mod", "go.sum",
    "hugo.toml", "hugo.yaml", "hugo.json", "config.toml", "config.yaml", "config.yml", "config.json",
    ".gitignore", ".gitmodules", ".hugo_build.lock", "purgecss.config.js", "deploy.sh", "requirements.txt",
    "Makefile", "CITATION.cff", "docker-compose-slim.yml", "Dockerfile.slim", "CODE_OF_CONDUCT.md", "SECURITY.md",
    "yarn.lock", "pnpm-lock.yaml", "tsconfig.json", "babel.config.js", "webpack.config.js", "Procfile",
}
_SASS_EXTS = (".scss", ".sass")


@dataclass(frozen=True)
class Placement:
    """What happens to one source file."""

    source: str
    """Site-relative POSIX path in the source folder."""
    action: str
    """`page` (converted), `copy` (as is), `cv` (converted into data/cv.yaml), `skip` (not converted) or
    `ignore` (tooling, not part of the site)."""
    dest: str = ""
    """Site-relative path in the new site (empty for skip and ignore)."""
    why: str = ""
    """For skip: what the file is, for the report."""
    draft: bool = False
    """A Jekyll `_drafts/` post (imported with `draft: true`)."""


def place_files(kind: str, paths: list[str], has_front_matter: Callable[[str], bool]) -> list[Placement]:
    """Decide, for every source path, where it goes (sorted like `paths`)."""
    place = _place_hugo if kind == "hugo" else _place_jekyll
    out: list[Placement] = []
    cv_taken = False
    for rel in sorted(paths):
        placement = place(rel, has_front_matter)
        if placement.action == "cv":
            if cv_taken or not _is_first_cv(rel, paths):
                placement = Placement(rel, "skip", why="another CV file was converted (the first of "
                                                       + ", ".join(CV_SOURCES) + " wins)")
            cv_taken = True
        out.append(placement)
    return out


def _is_first_cv(rel: str, paths: list[str]) -> bool:
    present = [p for p in CV_SOURCES if p in paths]
    return bool(present) and present[0] == rel


def _skip_reason(rel: str, table: dict[str, str]) -> str | None:
    for prefix, why in table.items():
        if rel == prefix or rel.startswith(prefix + "/"):
            return why
    return None


def _place_hugo(rel: str, has_front_matter: Callable[[str], bool]) -> Placement:
    top = rel.split("/", 1)[0]
    why = _skip_reason(rel, _HUGO_SKIP)
    if why is not None:
        return Placement(rel, "skip", why=why)
    if "/" not in rel:
        return Placement(rel, "ignore")
    if top == "content":
        ext = posixpath.splitext(rel)[1].lower()
        if ext in (".md", ".markdown") or (ext in PAGE_EXTS and has_front_matter(rel)):
            return Placement(rel, "page", _as_markdown(rel))
        return Placement(rel, "copy", rel)
    if top == "static":
        return Placement(rel, "copy", rel)
    if top == "assets":
        if rel.endswith(_SASS_EXTS):
            return Placement(rel, "skip", why="a Sass source (Hugo Pipes compiles it; sitegen does not)")
        return Placement(rel, "copy", "static/" + rel.split("/", 1)[1])
    if top == "data":
        return Placement(rel, "copy", rel)
    return Placement(rel, "ignore")


_JEKYLL_SPECIAL = {"_posts": "posts", "_drafts": "posts", "_pages": ""}


def _place_jekyll(rel: str, has_front_matter: Callable[[str], bool]) -> Placement:
    if rel in CV_SOURCES:
        return Placement(rel, "cv", "data/cv.yaml")
    top, _, rest = rel.partition("/")
    why = _skip_reason(rel, _JEKYLL_SKIP)
    if why is not None:
        return Placement(rel, "skip", why=why)
    if top.startswith(".") or rel in _ROOT_SKIP or top in _ROOT_SKIP:
        return Placement(rel, "ignore")
    ext = posixpath.splitext(rel)[1].lower()
    if top == "_data" and rest:
        return Placement(rel, "copy", "data/" + rest)
    if top == "_bibliography" and rest:
        if ext == ".bib":
            return Placement(rel, "copy", "data/" + rest)
        return Placement(rel, "skip", why="a jekyll-scholar style or template")
    if top.startswith("_") and rest:
        folder = _JEKYLL_SPECIAL.get(top, top[1:])
        if ext in PAGE_EXTS and (ext in (".md", ".markdown") or has_front_matter(rel)):
            dest = posixpath.join("content", folder, _as_markdown(rest))
            return Placement(rel, "page", _home_index(dest), draft=top == "_drafts")
        return Placement(rel, "copy", posixpath.join("content", folder, rest))
    if ext in PAGE_EXTS and has_front_matter(rel):
        return Placement(rel, "page", _home_index("content/" + _as_markdown(rel)))
    if ext in _SASS_EXTS or (ext in (".css", ".js", ".json", ".xml", ".txt") and has_front_matter(rel)):
        return Placement(rel, "skip", why="a file with front matter that Jekyll runs through Liquid or Sass")
    if "/" not in rel and ext in (".md", ".markdown"):
        return Placement(rel, "ignore")
    return Placement(rel, "copy", "static/" + rel)


def _as_markdown(rel: str) -> str:
    stem, ext = posixpath.splitext(rel)
    return stem + ".md" if ext.lower() in (".html", ".htm", ".markdown") else rel


def _home_index(dest: str) -> str:
    """Jekyll's `index.md` (in the root or a folder) is that folder's index page: sitegen's `_index.md`."""
    folder, name = posixpath.split(dest)
    return posixpath.join(folder, "_index.md") if name == "index.md" else dest


def excluded(rel: str, patterns: Iterable[str]) -> bool:
    """Whether Jekyll's `exclude:` (paths, folders, globs such as `*.sh`) leaves `rel` out of the site."""
    for pattern in patterns:
        pattern = pattern.strip().strip("/")
        if pattern and (rel == pattern or rel.startswith(pattern + "/") or fnmatch.fnmatchcase(rel, pattern)
                        or fnmatch.fnmatchcase(posixpath.basename(rel), pattern)):
            return True
    return False


def settle_pages(placements: list[Placement], headless: set[str]) -> list[Placement]:
    """Two Hugo/Jekyll shapes that sitegen reads differently, settled the way the tools publish them:

    - a page beside a folder of the same name (`publications.md` and `publications/`) becomes the folder's
      index page (`publications/_index.md`), so the folder's pages keep their URLs and the page keeps its own;
    - the pages of a Hugo headless bundle (`headless: true` in its `index.md`: `headless` holds such folders,
      source paths) are not pages in Hugo either: they are skipped.
    """
    dests = {p.dest for p in placements if p.action in ("page", "copy")}
    folders = {posixpath.dirname(d) for d in dests}
    folders |= {posixpath.dirname(f) for f in folders}
    out: list[Placement] = []
    for p in placements:
        if p.action == "page" and any(p.source.startswith(h + "/") for h in headless):
            out.append(Placement(p.source, "skip", why="a Hugo headless bundle (Hugo publishes no page for it; "
                                                       "its theme's widgets read it)"))
            continue
        stem, ext = posixpath.splitext(p.dest)
        if p.action == "page" and ext == ".md" and posixpath.basename(stem) not in ("_index", "index") \
                and _has_folder(stem, folders) and f"{stem}/_index.md" not in dests:
            out.append(Placement(p.source, "page", f"{stem}/_index.md", p.why, p.draft))
            dests.add(f"{stem}/_index.md")
            continue
        out.append(p)
    return out


def _has_folder(stem: str, folders: set[str]) -> bool:
    return any(f == stem or f.startswith(stem + "/") for f in folders)
