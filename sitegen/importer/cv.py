"""Convert al-folio's `_data/cv.yml` and JSON Resume files into sitegen's CV data (pure: data in, data out).

al-folio's CV is a list of sections (`type: map | time_table | nested_list | list`); Education, Experience and
Awards become the JSON Resume sections of the same meaning, other sections become sitegen's free sections
(`{title, entries}`). A JSON Resume file is sitegen's format already; keys sitegen does not know (JSON Resume
allows extras) and values it would refuse are dropped, each with a note. Either way the result is validated by
sitegen's own CV validator, so it always loads.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from sitegen.content.urls import slugify
from sitegen.cv.schema import TOP_LEVEL
from sitegen.cv.validate import validate_cv
from sitegen.errors import Diagnostic

_RANGE = re.compile(r"-|–|—|\bto\b")  # parts are stripped after the split (a leading \s* would be quadratic)
_WHEN = re.compile(r"^(\d{4})(?:[.\-/](\d{1,2}))?$")
_NOW = {"now", "present", "current", "today", "ongoing"}
_KINDS = (("education", "education"), ("experience", "work"), ("employment", "work"), ("work", "work"),
          ("award", "awards"), ("honor", "awards"), ("honour", "awards"))


def alfolio_cv(sections: Any, path: str, name: str = "") -> tuple[dict[str, Any], list[Diagnostic]]:
    """al-folio's list of CV sections -> sitegen CV data (`name`: the owner, when the CV does not say)."""
    notes: list[Diagnostic] = []
    cv: dict[str, Any] = {"basics": {"name": name}}
    if not isinstance(sections, list):
        notes.append(Diagnostic("not converted: the CV is not a list of sections", path=path,
                                hint="write data/cv.yaml by hand (see docs/cv.md)"))
        return clean_cv(cv, path, notes)
    for section in sections:
        if not isinstance(section, dict):
            continue
        title = str(section.get("title") or "").strip()
        kind = str(section.get("type") or "")
        contents = section.get("contents") or []
        if kind == "map" and title.lower().startswith("general"):
            _basics(cv["basics"], contents, path, notes)
            continue
        target = next((k for word, k in _KINDS if word in title.lower()), None) if kind == "time_table" else None
        if target is not None and target not in cv:
            cv[target] = [e for item in contents for e in _resume_entries(target, item)]
            continue
        key = slugify(title).replace("-", "_") or "section"
        while key in TOP_LEVEL or key in cv:
            key += "_"
        entries = [e for item in (contents if isinstance(contents, list) else []) for e in _free_entries(kind, item)]
        cv[key] = {"title": title or key, "entries": entries}
    return clean_cv(cv, path, notes)


def _basics(basics: dict[str, Any], contents: Any, path: str, notes: list[Diagnostic]) -> None:
    for item in contents if isinstance(contents, list) else []:
        if not isinstance(item, dict):
            continue
        label, value = str(item.get("name") or "").lower(), item.get("value")
        if "name" in label and value:
            basics["name"] = str(value)
        elif "mail" in label and value:
            basics["email"] = str(value)
        elif ("phone" in label or "tel" in label) and value:
            basics["phone"] = str(value)
        elif value:
            notes.append(Diagnostic(f"not converted: General Information `{item.get('name')}`", path=path,
                                    hint="add it under `basics:` in data/cv.yaml if it belongs there"))


def _dates(year: Any) -> dict[str, str]:
    """`2017 - 2021`, `2021 - Now`, `2025.02 - Now`, `2019` -> startDate / endDate (or nothing)."""
    parts = [p.strip() for p in _RANGE.split(str(year).strip()) if p.strip()] if year is not None else []
    out: dict[str, str] = {}
    for key, part in zip(("startDate", "endDate"), parts, strict=False):
        if part.lower() in _NOW:
            out[key] = "present"
            continue
        match = _WHEN.match(part)
        if match:
            out[key] = match[1] + (f"-{int(match[2]):02d}" if match[2] else "")
    if out.get("startDate") == "present":
        out.pop("startDate")
    return out


def _texts(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, str | int | float)]
    return [str(value)] if isinstance(value, str | int | float) else []


def _resume_entries(target: str, item: Any) -> list[dict[str, Any]]:
    if not isinstance(item, dict):
        return []
    dates = _dates(item.get("year"))
    lines = _texts(item.get("description"))
    title, place = str(item.get("title") or ""), str(item.get("institution") or "")
    if target == "education":
        entry: dict[str, Any] = {"institution": place, "studyType": title, **dates}
        if lines:
            entry["summary"] = " ".join(lines)
        return [entry]
    if target == "work":
        entry = {"name": place, "position": title, **dates}
        if lines:
            entry["highlights"] = lines
        return [entry]
    date = dates.get("startDate")
    items = _texts(item.get("items")) or ([title] if title else [])
    return [{"title": text, **({"date": date} if date else {})} for text in items]


def _free_entries(kind: str, item: Any) -> list[dict[str, Any]]:
    if isinstance(item, str | int | float):
        return [{"title": str(item)}]
    if not isinstance(item, dict):
        return []
    if kind == "map":
        return [{"title": str(item.get("name") or ""), "summary": str(item.get("value") or "")}]
    entry: dict[str, Any] = {"title": str(item.get("title") or item.get("name") or ""), **_dates(item.get("year"))}
    if item.get("institution"):
        entry["subtitle"] = str(item["institution"])
    highlights = _texts(item.get("items")) + _texts(item.get("description"))
    if highlights:
        entry["highlights"] = highlights
    return [entry]


def json_resume_cv(data: Any, path: str, name: str = "") -> tuple[dict[str, Any], list[Diagnostic]]:
    """A JSON Resume document -> sitegen CV data (extra keys dropped with a note)."""
    notes: list[Diagnostic] = []
    if not isinstance(data, dict):
        notes.append(Diagnostic("not converted: a JSON Resume is one object", path=path))
        data = {}
    cv = copy.deepcopy(data)
    if not isinstance(cv.get("basics"), dict):
        cv["basics"] = {"name": name}
    elif not str(cv["basics"].get("name") or "").strip():
        cv["basics"] = {**cv["basics"], "name": name}
    return clean_cv(cv, path, notes)


def clean_cv(cv: dict[str, Any], path: str, notes: list[Diagnostic]) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Drop each value sitegen's CV validator refuses (with a note) until the CV validates."""
    for _ in range(200):
        errors = validate_cv(cv, path, {})
        removable = [e for e in errors if not e.message.startswith("basics.name:")]
        if not removable:
            break
        where = removable[0].message.split(": ", 1)[0]
        if not _remove(cv, where):
            break
        notes.append(Diagnostic(f"not converted: CV value `{where}` ({removable[0].message.split(': ', 1)[1]})",
                                path=path, hint="add it to data/cv.yaml in a form sitegen reads (docs/cv.md)"))
    if not str(cv.get("basics", {}).get("name") or "").strip():
        cv.setdefault("basics", {})["name"] = "Your Name"
        notes.append(Diagnostic("the CV names no owner: `basics.name` set to `Your Name`", path=path,
                                hint="write your name under `basics:` in data/cv.yaml"))
    return cv, notes


_STEP = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]")


def _remove(root: dict[str, Any], where: str) -> bool:
    """Delete the value at `work[2].startDate` (or `a.b`); False when the path does not lead anywhere."""
    steps: list[str | int] = [m[1] if m[1] is not None else int(m[2]) for m in _STEP.finditer(where)]
    node: Any = root
    for step in steps[:-1]:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return False
    last = steps[-1] if steps else None
    if isinstance(node, dict) and last in node:
        del node[last]
        return True
    if isinstance(node, list) and isinstance(last, int) and last < len(node):
        del node[last]
        return True
    return False
