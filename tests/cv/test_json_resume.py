"""JSON Resume in and out: the official schema (vendored, two versions), standard fields, extra keys, variants."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pypdf import PdfReader

from sitegen.cli import main
from sitegen.cv.schema import json_schema
from sitegen.errors import SitegenError
from tests.conftest import REPO, build

MakeSite = Callable[..., Path]
FIXTURES = Path(__file__).parent / "fixtures"
SCHEMA_1_0 = json.loads((FIXTURES / "resume-schema-1.0.1.json").read_text())
SCHEMA_1_3 = json.loads((FIXTURES / "jsonresume-schema-1.3.1.json").read_text())


def validate_official(document: dict[str, Any]) -> None:
    """Valid against npm `resume-schema` 1.0.1 (closed top level) and `@jsonresume/schema` 1.3.1, formats too."""
    jsonschema.Draft4Validator(SCHEMA_1_0).validate(document)
    jsonschema.Draft7Validator(SCHEMA_1_3, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER).validate(document)


@pytest.fixture(scope="module")
def example() -> dict[str, bytes]:
    return build(REPO).files


@pytest.mark.parametrize("path", ["cv.json", "zh/cv.json", "cv-short.json", "zh/cv-short.json"])
def test_the_example_json_resumes_validate_against_the_official_schema(example: dict[str, bytes], path: str) -> None:
    validate_official(json.loads(example[path]))


def test_publications_use_the_standard_json_resume_fields(example: dict[str, bytes]) -> None:
    data = json.loads(example["cv.json"])
    for publication in data["publications"]:
        assert "venue" not in publication
        assert publication["publisher"] and publication["url"].startswith("https://"), publication
        assert publication["releaseDate"][:2] == "20"
    remat = next(p for p in data["publications"] if p["name"].startswith("Remat"))
    assert remat["publisher"] == "MLSys 2024" and remat["url"] == "https://doi.org/10.1234/mlsys.2024.0042"
    assert data["basics"]["location"]["countryCode"] == "AT"
    assert [p["network"] for p in data["basics"]["profiles"]] == ["GitHub", "Scholar"]
    assert data["work"][0]["startDate"] == "2022-09" and "endDate" not in data["work"][0]


def test_variant_json_differs_from_the_full_cv_as_the_variant_says(example: dict[str, bytes]) -> None:
    # sitegen.yaml: short: {tags: [systems], max_publications: 2, sections: [work, education, publications, awards]}
    full, short = json.loads(example["cv.json"]), json.loads(example["cv-short.json"])
    assert full != short
    assert set(short) - {"$schema", "meta"} == {"basics", "work", "education", "publications", "awards"}
    assert "talks" in full["meta"]["sitegen"] and "talks" not in short["meta"]["sitegen"]
    assert short["meta"]["sitegen"]["sections"] == ["work", "education", "publications", "awards"]
    assert len(full["publications"]) == 4 and len(short["publications"]) == 2
    assert all("systems" in p.get("tags", ["systems"]) for p in short["publications"])
    assert [w["name"] for w in short["work"]] == [w["name"] for w in full["work"] if "systems" in w.get("tags", [])]
    short_pdf = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(example["cv-short.pdf"])).pages)
    assert "TALKS" not in short_pdf
    short_pdf = short_pdf.split("PUBLICATIONS")[1].split("AWARDS")[0]  # (the thesis title is in Education too)
    page = example["cv/short/index.html"].decode().split('class="cv-section cv-publications"')[1]
    for publication in full["publications"]:
        shown = publication in short["publications"]
        assert (publication["name"] in page) == shown, publication["name"]
        assert (publication["name"][:25] in short_pdf.replace("\n", " ")) == shown, publication["name"]
    assert "Talks" not in page


def test_a_variant_filters_json_web_and_pdf_alike(make_site: MakeSite) -> None:
    cv = ("basics: {name: Ada Lin}\n"
          "work:\n  - {name: Lab A, position: Tagged-Systems, tags: [systems]}\n"
          "  - {name: Lab B, position: Tagged-Web, tags: [web]}\n  - {name: Lab C, position: Untagged}\n"
          "publications:\n  - {name: Paper-One, releaseDate: 2020}\n  - {name: Paper-Two, releaseDate: 2021, "
          "selected: true}\n  - {name: Paper-Three, releaseDate: 2022}\n"
          "skills: [{name: Skill-X}]\n")
    site = make_site({"data/cv.yaml": cv, "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\n",
                      "sitegen.yaml": "cv:\n  variants:\n    focus: {tags: [systems], max_publications: 1, "
                                      "sections: [publications, work]}\n"}, layouts=False)
    files = build(site).files
    data = json.loads(files["cv-focus.json"])
    validate_official(data)
    assert [w["position"] for w in data["work"]] == ["Tagged-Systems", "Untagged"]
    assert [p["name"] for p in data["publications"]] == ["Paper-Two"]  # selected first
    assert "skills" not in data
    page = files["cv/focus/index.html"].decode()
    pdf = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(files["cv-focus.pdf"])).pages)
    for text in (page, pdf):
        assert "Tagged-Systems" in text and "Untagged" in text and "Paper-Two" in text
        assert "Tagged-Web" not in text and "Paper-One" not in text and "Skill-X" not in text
        assert text.index("Paper-Two") < text.index("Tagged-Systems")  # the variant's section order
    full = json.loads(files["cv.json"])
    assert len(full["work"]) == 3 and len(full["publications"]) == 3 and "skills" in full
    out = site / "focus.json"
    assert main(["cv", "--source", str(site), "--variant", "focus", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == data  # `sitegen cv` filters as the build does


def test_the_editor_schema_accepts_json_resume_dates_and_yaml_years() -> None:
    validator = jsonschema.Draft202012Validator(json_schema())
    for date in (2019, "2019", "2019-05", "2019-05-01"):
        assert validator.is_valid({"basics": {"name": "A"}, "awards": [{"title": "T", "date": date}]}), date
        assert validator.is_valid({"work": [{"startDate": date, "endDate": "present"}]}), date
    for bad in ("May 2019", "19", 19):
        assert not validator.is_valid({"awards": [{"title": "T", "date": bad}]}), bad


RESUME_WITH_EXTRAS = {
    "$schema": "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json",
    "x-theme": {"color": "blue"},
    "basics": {"name": "Ada Lin", "pronouns": "she/her",
               "location": {"city": "Vienna", "country": "Austria", "timezone": "Europe/Vienna"},
               "profiles": [{"network": "Mastodon", "username": "ada", "url": "https://example.social/@ada",
                             "verified": True}]},
    "work": [{"name": "Lab", "position": "Scientist", "startDate": "2020-01", "x-team": "Compilers"}],
    "publications": [{"name": "A Paper", "publisher": "ACM", "releaseDate": "2021-03", "isbn": "123"}],
    "meta": {"theme": "elegant"},
}


@pytest.mark.parametrize("name", ["data/cv.json", "data/resume.json"])
def test_json_resume_input_with_extra_keys_builds_and_keeps_them(make_site: MakeSite, name: str) -> None:
    site = make_site({name: json.dumps(RESUME_WITH_EXTRAS), "content/cv.md": "---\nlayout: cv\n---\n"},
                     layouts=False)
    files = build(site).files
    page = files["cv/index.html"].decode()
    assert "Ada Lin" in page and "Scientist" in page and "A Paper" in page
    assert "Vienna, Austria" in page
    out = json.loads(files["cv.json"])
    validate_official(out)
    assert out["basics"]["pronouns"] == "she/her" and out["basics"]["location"]["country"] == "Austria"
    assert "countryCode" not in out["basics"]["location"]  # no code the author did not write
    assert out["basics"]["profiles"][0]["verified"] is True
    assert out["work"][0]["x-team"] == "Compilers" and out["publications"][0]["isbn"] == "123"
    assert out["meta"]["theme"] == "elegant" and out["meta"]["sitegen"]["x-theme"] == {"color": "blue"}


def test_a_resume_json_beside_a_cv_yaml_is_left_to_templates(make_site: MakeSite) -> None:
    site = make_site({"data/cv.yaml": "basics: {name: From YAML}\n", "data/resume.json": '{"basics": {"name": "J"}}',
                      "content/cv.md": "---\nlayout: cv\n---\n"}, layouts=False)
    files = build(site).files
    assert json.loads(files["cv.json"])["basics"]["name"] == "From YAML"


def test_a_json_key_that_looks_mistyped_is_kept_with_a_warning(make_site: MakeSite) -> None:
    resume = '{"basics": {"name": "Ada"},\n "work": [{"name": "Lab", "stratDate": "2015", "x-team": "C"}]}'
    site = make_site({"data/resume.json": resume, "content/cv.md": "---\nlayout: cv\n---\n"}, layouts=False)
    result = build(site)
    assert [(w.path, w.line, w.hint) for w in result.warnings if "stratDate" in w.message] == [
        ("data/resume.json", 2, "did you mean `startDate`?")]
    assert not any("x-team" in w.message for w in result.warnings)  # clearly the author's own key: no warning
    assert json.loads(result.files["cv.json"])["work"][0]["stratDate"] == "2015"


def test_yaml_cvs_still_name_a_mistyped_key(make_site: MakeSite) -> None:
    site = make_site({"data/cv.yaml": "basics: {name: A}\nwork: [{name: Lab, stratDate: 2015}]\n",
                      "content/cv.md": "---\nlayout: cv\n---\n"}, layouts=False)
    with pytest.raises(SitegenError, match="did you mean `startDate`"):
        build(site)


def test_a_mistyped_variant_option_is_an_error_not_a_silent_full_cv(make_site: MakeSite) -> None:
    site = make_site({"data/cv.yaml": "basics: {name: A}\n", "content/cv.md": "---\nlayout: cv\n---\n",
                      "sitegen.yaml": "cv:\n  variants:\n    short: {max_pubs: 3, tags: systems, "
                                      "max_publications: many}\n"}, layouts=False)
    with pytest.raises(SitegenError) as info:
        build(site)
    text = info.value.format()
    assert "`cv.variants.short.max_pubs`: unknown key" in text
    assert "`cv.variants.short.tags`: expected a list of tags" in text
    assert "`cv.variants.short.max_publications`: expected a whole number" in text
