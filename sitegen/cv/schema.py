"""The CV format: JSON Resume 1.0 plus sitegen's extensions, declared once.

The same declaration drives validation (every problem with its line and path, typos with "did you mean")
and `sitegen cv schema` (a JSON Schema for editors).
"""

from __future__ import annotations

from typing import Any

import sitegen

STRING, DATE, URL, EMAIL, INTEGER, BOOLEAN, STRINGS, SCALAR = (
    "string", "date", "url", "email", "integer", "boolean", "strings", "scalar")

Spec = Any  # a type name above, ("object", {field: Spec}) or ("array", Spec)


def obj(**fields: Spec) -> tuple[str, dict[str, Spec]]:
    """An object with these fields (and no others)."""
    return ("object", fields)


def arr(item: Spec) -> tuple[str, Spec]:
    """A list of `item`."""
    return ("array", item)


TAGS = {"tags": STRINGS}
LOCATION = obj(address=STRING, postalCode=STRING, city=STRING, countryCode=STRING, region=STRING, country=STRING)
"""`country` (the name as written, shown instead of the ISO `countryCode`) is sitegen's; JSON Resume allows it."""
PROFILE = obj(network=STRING, username=STRING, url=URL)
BASICS = obj(name=STRING, label=STRING, image=STRING, email=EMAIL, phone=STRING, url=URL, summary=STRING,
             location=LOCATION, profiles=arr(PROFILE))
WORK = obj(name=STRING, location=STRING, description=STRING, position=STRING, url=URL, startDate=DATE,
           endDate=DATE, summary=STRING, highlights=STRINGS, **TAGS)
VOLUNTEER = obj(organization=STRING, position=STRING, url=URL, startDate=DATE, endDate=DATE, summary=STRING,
                highlights=STRINGS, **TAGS)
EDUCATION = obj(institution=STRING, url=URL, area=STRING, studyType=STRING, startDate=DATE, endDate=DATE,
                score=STRING, courses=STRINGS, summary=STRING, **TAGS)
AWARD = obj(title=STRING, date=DATE, awarder=STRING, summary=STRING, url=URL, **TAGS)
CERTIFICATE = obj(name=STRING, date=DATE, url=URL, issuer=STRING, **TAGS)
PUBLICATION = obj(name=STRING, publisher=STRING, releaseDate=DATE, url=URL, summary=STRING, authors=STRINGS,
                  venue=STRING, type=STRING, doi=STRING, arxiv=STRING, pdf=URL, code=URL, slides=URL,
                  award=STRING, selected=BOOLEAN, **TAGS)
SKILL = obj(name=STRING, level=STRING, keywords=STRINGS, **TAGS)
LANGUAGE = obj(language=STRING, fluency=STRING)
INTEREST = obj(name=STRING, keywords=STRINGS)
REFERENCE = obj(name=STRING, reference=STRING)
PROJECT = obj(name=STRING, description=STRING, highlights=STRINGS, keywords=STRINGS, startDate=DATE,
              endDate=DATE, url=URL, roles=STRINGS, entity=STRING, type=STRING, **TAGS)
TALK = obj(title=STRING, event=STRING, location=STRING, date=DATE, url=URL, slides=URL, video=URL,
           summary=STRING, **TAGS)
TEACHING = obj(course=STRING, institution=STRING, role=STRING, startDate=DATE, endDate=DATE, url=URL,
               summary=STRING, **TAGS)
PATENT = obj(number=STRING, title=STRING, year=SCALAR, date=DATE, url=URL, inventors=STRINGS, status=STRING,
             **TAGS)
OPEN_SOURCE = obj(repository=STRING, url=URL, role=STRING, stars=INTEGER, description=STRING,
                  highlights=STRINGS, **TAGS)
SERVICE = obj(role=STRING, organization=STRING, date=DATE, startDate=DATE, endDate=DATE, summary=STRING,
              url=URL, **TAGS)
FREE_ENTRY = obj(title=STRING, subtitle=STRING, date=DATE, startDate=DATE, endDate=DATE, location=STRING,
                 url=URL, summary=STRING, highlights=STRINGS, **TAGS)
META = obj(canonical=URL, version=STRING, lastModified=STRING)
SECTION_REF = obj(key=STRING, title=STRING)

JSON_RESUME_SECTIONS: dict[str, Spec] = {
    "work": arr(WORK), "volunteer": arr(VOLUNTEER), "education": arr(EDUCATION), "awards": arr(AWARD),
    "certificates": arr(CERTIFICATE), "publications": arr(PUBLICATION), "skills": arr(SKILL),
    "languages": arr(LANGUAGE), "interests": arr(INTEREST), "references": arr(REFERENCE),
    "projects": arr(PROJECT),
}
EXTENSION_SECTIONS: dict[str, Spec] = {
    "talks": arr(TALK), "teaching": arr(TEACHING), "patents": arr(PATENT), "open_source": arr(OPEN_SOURCE),
    "service": arr(SERVICE),
}
TOP_LEVEL: dict[str, Spec] = {
    "$schema": STRING, "basics": BASICS, **JSON_RESUME_SECTIONS, **EXTENSION_SECTIONS,
    "sections": arr(SCALAR), "meta": META,
}
OPEN_OBJECTS = {"meta"}
"""Objects whose unknown keys are allowed (JSON Resume leaves `meta` open)."""


def json_schema() -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of the format, for editors."""

    def convert(spec: Spec) -> dict[str, Any]:
        if isinstance(spec, tuple) and spec[0] == "object":
            return {"type": "object", "additionalProperties": False,
                    "properties": {k: convert(v) for k, v in spec[1].items()}}
        if isinstance(spec, tuple) and spec[0] == "array":
            return {"type": "array", "items": convert(spec[1])}
        scalars: dict[str, dict[str, Any]] = {
            STRING: {"type": "string"},
            # JSON Resume's iso8601 (2019, 2019-05, 2019-05-01); a bare year in YAML is a number, so that too.
            DATE: {"anyOf": [
                {"type": "string", "pattern": r"^([1-2][0-9]{3}(-[0-1][0-9](-[0-3][0-9])?)?|present)$"},
                {"type": "integer", "minimum": 1000, "maximum": 2999}],
                   "description": "2015, 2015-09 or 2015-09-01; `present` for an ongoing endDate"},
            URL: {"type": "string", "format": "uri"},
            EMAIL: {"type": "string", "format": "email"},
            INTEGER: {"type": "integer"},
            BOOLEAN: {"type": "boolean"},
            STRINGS: {"type": "array", "items": {"type": "string"}},
            SCALAR: {"type": ["string", "integer", "object"]},
        }
        return scalars[spec]

    properties = {k: convert(v) for k, v in TOP_LEVEL.items()}
    properties["meta"]["additionalProperties"] = True
    properties["sections"] = {"type": "array", "items": {"anyOf": [
        {"type": "string"}, {"type": "object", "properties": {"key": {"type": "string"},
                                                              "title": {"type": "string"}}}]}}
    free = convert(FREE_ENTRY)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{sitegen.PROJECT_URL}{sitegen.__version__}/cv.schema.json",
        "title": "sitegen CV (JSON Resume 1.0 + extensions)",
        "type": "object",
        "properties": properties,
        "additionalProperties": {"anyOf": [
            {"type": "array", "items": free},
            {"type": "object", "required": ["title", "entries"],
             "properties": {"title": {"type": "string"}, "entries": {"type": "array", "items": free}}},
        ]},
    }
