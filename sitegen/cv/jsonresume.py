"""Export a CV as JSON Resume 1.0: valid against the official schema, with sitegen's extensions under
`meta.sitegen` so that other JSON Resume tools accept the file.

Publications use the standard fields (`publisher` for where it appeared, `releaseDate`, `url`, `summary`);
sitegen's own ones (`authors`, `doi`, `type`, ...) stay beside them, as JSON Resume allows. Dates are ISO 8601
(`2019`, `2019-05`, `2019-05-01`). Keys an author added that JSON Resume does not know are kept as written.
"""

from __future__ import annotations

import json
from typing import Any

from sitegen.cv.schema import JSON_RESUME_SECTIONS
from sitegen.cv.validate import normalize_url, parse_cv_date
from sitegen.cv.variant import apply_variant

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
                elif not (isinstance(v, str) and v.strip().lower() == "present"):
                    out[k] = v  # not a date sitegen knows (an author's own key): kept as written
                continue
            out[k] = _clean(v)
        return out
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _publication(item: Any) -> Any:
    """A publication with the standard fields filled: `publisher` (sitegen's `venue`), `url` (else the PDF,
    DOI or arXiv page)."""
    if not isinstance(item, dict):
        return item
    out = dict(item)
    venue = out.pop("venue", None)
    if venue and not out.get("publisher"):
        out["publisher"] = venue
    elif venue and venue != out.get("publisher"):
        out["venue"] = venue  # both written and different: keep the author's words
    if not out.get("url"):
        doi, arxiv, pdf = (str(out.get(k) or "") for k in ("doi", "arxiv", "pdf"))
        url = (f"https://doi.org/{doi}" if doi else f"https://arxiv.org/abs/{arxiv}" if arxiv
               else pdf if pdf.startswith(("http://", "https://")) else "")
        if url:
            out["url"] = url
    elif isinstance(out["url"], str):
        out["url"] = normalize_url(out["url"])
    return out


def to_json_resume(data: dict[str, Any], variant: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Resume document for raw (validated) CV data, filtered as `variant` says."""
    data = apply_variant(data, variant)
    out: dict[str, Any] = {"$schema": SCHEMA_URL}
    extensions: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("$schema", "meta"):
            continue
        if key == "publications" and isinstance(value, list):
            out[key] = _clean([_publication(item) for item in value])
        elif key == "basics" or key in JSON_RESUME_SECTIONS:
            out[key] = _clean(value)
        else:
            extensions[key] = _clean(value)
    meta = dict(data.get("meta") or {})
    if extensions:
        meta["sitegen"] = extensions
    if meta:
        out["meta"] = meta
    return out


def json_resume_bytes(data: dict[str, Any], variant: dict[str, Any] | None = None) -> bytes:
    """Deterministic UTF-8 JSON of `to_json_resume`."""
    return (json.dumps(to_json_resume(data, variant), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
