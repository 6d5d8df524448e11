"""Export a CV as JSON Resume 1.0: valid against the official schema, with sitegen's extensions under
`meta.sitegen` so that other JSON Resume tools accept the file."""

from __future__ import annotations

import json
from typing import Any

from sitegen.cv.schema import JSON_RESUME_SECTIONS
from sitegen.cv.validate import parse_cv_date

SCHEMA_URL = "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json"
_DATE_KEYS = {"startDate", "endDate", "date", "releaseDate"}


def _iso(value: Any) -> str | None:
    parsed = parse_cv_date(value)
    if parsed is None:
        return None
    year, month, day = parsed
    return f"{year:04d}" + (f"-{month:02d}" if month else "") + (f"-{day:02d}" if month and day else "")


def _clean(value: Any) -> Any:
    """Dates in the schema's ISO form; `endDate: present` becomes an absent endDate (ongoing)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in _DATE_KEYS:
                iso = _iso(v)
                if iso is not None:
                    out[k] = iso
                continue
            out[k] = _clean(v)
        return out
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def to_json_resume(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON Resume document for raw (validated) CV data."""
    out: dict[str, Any] = {"$schema": SCHEMA_URL}
    extensions: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("$schema", "meta"):
            continue
        if key == "basics" or key in JSON_RESUME_SECTIONS:
            out[key] = _clean(value)
        else:
            extensions[key] = _clean(value)
    meta = dict(data.get("meta") or {})
    if extensions:
        meta["sitegen"] = extensions
    if meta:
        out["meta"] = meta
    return out


def json_resume_bytes(data: dict[str, Any]) -> bytes:
    """Deterministic UTF-8 JSON."""
    return (json.dumps(to_json_resume(data), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
