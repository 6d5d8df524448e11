"""`sitegen new`: write a complete starter site, or a new page from the theme's archetype."""

from __future__ import annotations

import datetime as dt
import functools
import importlib.metadata
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sitegen
from sitegen.content.dates import build_time
from sitegen.errors import Diagnostic, SitegenError
from sitegen.theme import theme_dirs

SKELETON = Path(__file__).parent / "site"
_RENAMES = {"gitignore": ".gitignore"}
KINDS = ("page", "post", "talk", "project")


@dataclass(frozen=True)
class NewSite:
    """What a new site says about itself."""

    title: str = "My Site"
    author: str = "Your Name"
    base_url: str = "https://example.org/"
    requirement: str = ""
    """The line of `requirements.txt` that installs sitegen for deploys (GitHub Actions, Netlify): by default
    this very version from PyPI (`sitegen-cv==0.1.0`); `sitegen new --requirement` puts a fork's VCS URL, a
    path or a wheel here instead."""


def default_requirement() -> str:
    """The distribution and version that is running, pinned: what a deploy must install to build the same."""
    return f"{sitegen.DISTRIBUTION}=={sitegen.__version__}"


def install_origin() -> dict[str, Any] | None:
    """Where the running sitegen was installed from when not from a package index: the PEP 610
    `direct_url.json` of its distribution (`{"url": "file:///src/sitegen", "dir_info": {"editable": true}}`,
    or a `vcs_info` for `pip install git+...`); None for an install from PyPI (or when unknown)."""
    try:
        text = importlib.metadata.distribution(sitegen.DISTRIBUTION).read_text("direct_url.json")
        origin = json.loads(text) if text else None
    except (importlib.metadata.PackageNotFoundError, ValueError, OSError):
        return None
    return origin if isinstance(origin, dict) and isinstance(origin.get("url"), str) else None


def requirement_warning(origin: dict[str, Any] | None, requirements: Path) -> Diagnostic | None:
    """A word for `sitegen new` when the default pin may not be installable: this sitegen came from a clone,
    a path or a VCS URL, so `sitegen-cv==VERSION` from PyPI may not exist (an unreleased version, a fork)."""
    pin = default_requirement()
    try:
        lines = requirements.read_text("utf-8").splitlines()
    except OSError:
        return None
    if origin is None or pin not in (line.strip() for line in lines):
        return None  # from PyPI, or a requirements.txt of the author's own (kept by --force)
    url = origin["url"]
    vcs = origin.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str) and isinstance(vcs.get("commit_id"), str):
        example = f"{sitegen.DISTRIBUTION} @ {vcs['vcs']}+{url}@{vcs['commit_id']}"
    else:
        example = f"{sitegen.DISTRIBUTION} @ git+https://github.com/you/sitegen@main"
    return Diagnostic(
        f"this sitegen was installed from {url}, not from PyPI, but the new site's deploys (GitHub Actions, "
        f"Netlify) install `{pin}` from PyPI: they fail if that version is not published there",
        path=str(requirements), line=[line.strip() for line in lines].index(pin) + 1,
        hint=f"if so, replace that line with one your deploys can install, e.g. `{example}` "
             "(`sitegen new --requirement SPEC` writes it for you)")


def check_requirement(spec: str) -> str:
    """A requirements.txt line as given on the command line, or a SitegenError saying what is wrong."""
    spec = spec.strip()
    if not spec or "\n" in spec or "\r" in spec or spec.startswith("#"):
        raise SitegenError(f"--requirement {spec!r} is not one requirements.txt line",
                           hint=f"for example `{default_requirement()}`, "
                                f"`{sitegen.DISTRIBUTION} @ git+https://github.com/you/sitegen@main`, "
                                "or a path to a wheel")
    return spec


def skeleton_files(site: NewSite, today: dt.date) -> dict[str, str]:
    """The starter site as `{relative path: text}` with the placeholders filled in."""
    values = {"TITLE": site.title, "AUTHOR": site.author, "BASE_URL": site.base_url,
              "VERSION": sitegen.__version__, "DATE": today.isoformat(),
              "REQUIREMENT": check_requirement(site.requirement or default_requirement()),
              "PROJECT_URL": sitegen.PROJECT_URL, "DISTRIBUTION": sitegen.DISTRIBUTION}
    files: dict[str, str] = {}
    for path in sorted(SKELETON.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            rel = path.relative_to(SKELETON).as_posix()
            rel = _RENAMES.get(rel, rel)
            text = path.read_text("utf-8")
            files[rel] = re.sub(r"@@([A-Z_]+)@@", functools.partial(_fill, values, rel), text)
    return files


def _fill(values: dict[str, str], rel: str, match: re.Match[str]) -> str:
    return _escape(values[match.group(1)], rel)


def _escape(value: str, rel: str) -> str:
    """Values land inside double-quoted YAML strings in .yaml files."""
    return value.replace("\\", "\\\\").replace('"', '\\"') if rel.endswith((".yaml", ".md")) else value


@dataclass(frozen=True)
class Scaffolded:
    """What `new_site` did: the files it wrote, and the existing ones it left as they were."""

    written: list[Path]
    kept: list[Path]


def new_site(target: Path, site: NewSite, *, force: bool = False, today: dt.date | None = None) -> Scaffolded:
    """Write the starter site into `target`. Refuses a non-empty folder unless `force`; never overwrites a file
    (the ones it keeps are returned, so that the user is told)."""
    if target.exists() and not target.is_dir():
        raise SitegenError(f"{target} exists and is not a folder", hint="choose another name")
    if target.exists() and any(target.iterdir()) and not force:
        raise SitegenError(f"{target} is not empty", hint="choose an empty folder, or pass --force to add the "
                           "missing files (existing files are never overwritten)")
    today = today or build_time().date()
    done = Scaffolded([], [])
    for rel, text in skeleton_files(site, today).items():
        path = target / rel
        if path.exists() or path.is_symlink() or not _inside(path.parent, target):
            done.kept.append(path)  # a folder linked out of the new site is not written through either
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        _create(path, text)
        done.written.append(path)
    return done


def _inside(folder: Path, root: Path) -> bool:
    """Whether the deepest existing part of `folder` is, after resolving links, inside `root`."""
    existing = next((p for p in (folder, *folder.parents) if p.is_relative_to(root) and p.exists()), None)
    return existing is None or existing.resolve().is_relative_to(root.resolve())


def _create(path: Path, text: str) -> None:
    """Write a new file; an existing file (or a link) at `path` is an error, never overwritten."""
    with open(path, "x", encoding="utf-8") as f:
        f.write(text)


def archetype_for(kind: str, rel: str) -> str:
    """The archetype name for `sitegen new <kind> <path>`: posts/... pages use the `post` archetype."""
    if kind != "page":
        return kind
    return "post" if rel.split("/")[0] == "posts" else "default"


def new_content(site_dir: Path, kind: str, rel: str, *, theme: str = "default",
                today: dt.datetime | None = None, allow_outside: bool = False) -> Path:
    """Create `content/<rel>` from the archetype, with title, today's date and `draft: true` filled in."""
    if kind not in KINDS:
        raise SitegenError(f"unknown kind `{kind}`", hint=f"use one of: {', '.join(KINDS)}")
    rel = rel.removeprefix("content/")
    if kind == "post" and "/" not in rel:
        rel = f"posts/{rel}"  # a post named without a folder belongs to the blog, not to the site's top
    if not rel.endswith(".md"):
        rel += ".md"
    if rel.startswith("/") or ".." in rel.split("/"):
        raise SitegenError(f"{rel!r} must be a path inside content/", hint="for example posts/my-title.md")
    path = site_dir / "content" / rel
    if path.exists() or path.is_symlink():
        raise SitegenError(f"content/{rel} already exists", hint="choose another file name")
    if not allow_outside and not _inside(path.parent, site_dir):
        raise SitegenError(f"content/{rel}: a folder on the way is a link to outside the site",
                           hint="create the page in a folder inside the site")
    today = today or build_time()
    stem = path.stem if path.stem != "index" else path.parent.name
    title = re.sub(r"^\d{4}-\d{2}-\d{2}-", "", stem).replace("-", " ").replace("_", " ").strip().capitalize()
    candidates = [site_dir / "archetypes", *(t / "archetypes" for t in theme_dirs(site_dir, theme))]
    name = archetype_for(kind, rel)
    for folder in candidates:
        for candidate in (folder / f"{name}.md", folder / "default.md"):
            if candidate.is_file():
                text = candidate.read_text("utf-8")
                break
        else:
            continue
        break
    else:
        text = "---\ntitle: \"@@TITLE@@\"\ndate: @@DATE@@\ndraft: true\n---\n"
    text = (text.replace("@@TITLE@@", title.replace('"', '\\"'))
            .replace("@@DATE@@", today.replace(microsecond=0).isoformat()))
    path.parent.mkdir(parents=True, exist_ok=True)
    _create(path, text)
    return path
