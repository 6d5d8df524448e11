"""The CV: validation, web page, PDF, JSON Resume, languages, variants and the `sitegen cv` command."""

from __future__ import annotations

import io
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from pypdf import PdfReader

from sitegen.cli import main
from sitegen.cv.model import build_cv
from sitegen.errors import SitegenError
from tests import searchindex as index
from tests.conftest import build, html

MakeSite = Callable[..., Path]
FIXTURES = Path(__file__).parent / "fixtures"
OFFICIAL_SCHEMA = json.loads((FIXTURES / "resume-schema-1.0.1.json").read_text())

FULL_CV = """\
basics:
  name: Ada Lin
  label: Researcher
  email: ada@example.org
  url: https://ada.example.org/
  summary: Builds **systems**.
  location: {city: Vienna, countryCode: AT}
  profiles: [{network: GitHub, username: ada, url: "https://github.com/ada"}]
work:
  - {name: Institute, position: Scientist, startDate: 2022-09, endDate: present, highlights: ["Led **remat**"],
     tags: [systems]}
  - {name: Other Lab, position: Intern, startDate: 2020-06, endDate: 2020-09, tags: [ml]}
volunteer: [{organization: Code Club, position: Mentor, startDate: 2019}]
education: [{institution: Uni, area: CS, studyType: PhD, startDate: 2017-09, endDate: 2022-06, courses: [Compilers]}]
awards: [{title: Best Paper, awarder: MLSys, date: 2024-05}]
certificates: [{name: Cloud Cert, issuer: Example, date: 2021-01-02}]
publications:
  - {name: Remat Paper, authors: [A. Lin, Bo Chen], venue: MLSys, releaseDate: 2024-05, doi: 10.1/x,
     arxiv: "2402.01234", award: oral, selected: true, type: conference}
  - {name: Fusion Paper, authors: [Bo Chen, Ada Lin], venue: ASPLOS, releaseDate: 2023, tags: [systems]}
skills: [{name: Systems, keywords: [Python, CUDA]}]
languages: [{language: English, fluency: Fluent}]
interests: [{name: Hiking, keywords: [Alps]}]
references: [{name: Prof. Rivera, reference: Ada is great.}]
projects: [{name: remat, description: Rematerialisation, url: "https://github.com/ada/remat", startDate: 2023}]
talks: [{title: Memory Talk, event: Workshop, location: Vienna, date: 2024-05-15}]
teaching: [{course: ML Systems, institution: Uni, role: TA, startDate: 2019-09, endDate: 2020-01}]
patents: [{number: US 1, title: Scheduling Patent, year: 2023, inventors: [Ada Lin]}]
open_source: [{repository: ada/remat, role: Maintainer, stars: 1240}]
service: [{role: Reviewer, organization: NeurIPS, date: 2024}]
reviewing:
  title: Editorial boards
  entries: [{title: Journal of Systems, date: 2024}]
"""


def site_with_cv(make_site: MakeSite, cv: str = FULL_CV, **extra: str) -> Path:
    return make_site({"data/cv.yaml": cv, "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\nIntro text.",
                      **extra}, layouts=False)


def pdf_text(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_full_cv_builds_to_html_pdf_and_json(make_site: MakeSite) -> None:
    result = build(site_with_cv(make_site))
    page = html(result, "cv/index.html")
    for needle in ("Intro text.", "Scientist", "Mentor", "PhD CS", "Best Paper", "Cloud Cert", "Remat Paper",
                   "Systems", "English", "Hiking", "Prof. Rivera", "remat", "Memory Talk", "ML Systems",
                   "Scheduling Patent", "ada/remat", "Reviewer", "Editorial boards", "Journal of Systems",
                   'href="/cv.pdf"', 'href="/cv.json"'):
        assert needle in page, needle
    assert '<strong class="author-self">A. Lin</strong>' not in page  # not a declared variant of the name
    assert '<strong class="author-self">Ada Lin</strong>' in page
    text = "\n".join(pdf_text(result.files["cv.pdf"]))
    for needle in ("Scientist", "Remat Paper", "Memory Talk", "Scheduling Patent", "Journal of Systems"):
        assert needle in text, needle
    jsonschema.Draft4Validator(OFFICIAL_SCHEMA).validate(json.loads(result.files["cv.json"]))


def test_json_resume_keeps_extensions_under_a_namespaced_key(make_site: MakeSite) -> None:
    data = json.loads(build(site_with_cv(make_site)).files["cv.json"])
    assert set(data["meta"]["sitegen"]) == {"talks", "teaching", "patents", "open_source", "service", "reviewing"}
    assert "endDate" not in data["work"][0]  # "present" means ongoing: no endDate
    assert data["publications"][1]["releaseDate"] == "2023"


def test_official_sample_resume_builds_unchanged(make_site: MakeSite) -> None:
    sample = (FIXTURES / "sample.resume.json").read_text()
    site = make_site({"data/cv.json": sample, "content/cv.md": "---\nlayout: cv\n---\n"}, layouts=False)
    result = build(site)
    name = json.loads(sample)["basics"]["name"]
    assert name in html(result, "cv/index.html")
    assert name in pdf_text(result.files["cv.pdf"])[0]
    jsonschema.Draft4Validator(OFFICIAL_SCHEMA).validate(json.loads(result.files["cv.json"]))


def test_seven_planted_mistakes_are_all_reported(make_site: MakeSite) -> None:
    bad = """\
basics:
  name: Ada
  email: not-an-email
  url: htp:/broken
work:
  - name: Lab
    stratDate: 2015-01
    endDate: 2013-13
  - name: [not, text]
publications:
  - name: P
    selected: maybe
awrds: []
"""
    site = site_with_cv(make_site, bad)
    with pytest.raises(SitegenError) as info:
        build(site)
    text = info.value.format()
    expected = [("3", "basics.email"), ("4", "basics.url"), ("7", "work[0].stratDate"), ("8", "work[0].endDate"),
                ("9", "work[1].name"), ("12", "publications[0].selected"), ("13", "awrds")]
    for line, path in expected:
        assert f"data/cv.yaml:{line}: {path}" in text, (line, path, text)
    assert "did you mean `startDate`?" in text and "did you mean `awards`?" in text
    assert text.count("data/cv.yaml:") == 7


def test_chinese_cv_languages_and_hreflang(make_site: MakeSite) -> None:
    zh = ("basics:\n  name: 林雅\nwork:\n"
          "  - {name: 研究所, position: 研究科学家, startDate: 2022-09, endDate: present}\n")
    result = build(site_with_cv(make_site, **{"data/cv.zh.yaml": zh}))
    page = html(result, "zh/cv/index.html")
    assert "工作经历" in page and "2022年9月 – 至今" in page and 'lang="zh"' in page
    assert 'hreflang="zh" href="/zh/cv/"' in html(result, "cv/index.html")
    assert 'hreflang="en" href="/cv/"' in page
    text = "\n".join(pdf_text(result.files["zh/cv.pdf"])).replace(" ", "")
    assert "林雅" in text and "研究科学家" in text and "至今" in text
    assert "\ufffd" not in text


def test_variants(make_site: MakeSite) -> None:
    site = site_with_cv(make_site, **{"sitegen.yaml": "cv:\n  variants:\n    short: {tags: [systems], "
                                                      "max_publications: 1, sections: [work, publications]}\n"})
    result = build(site)
    short = html(result, "cv/short/index.html")
    assert "Scientist" in short and "Intern" not in short and "Remat Paper" in short and "Fusion Paper" not in short
    assert "Education" not in short
    assert "cv-short.pdf" in result.files and "Intern" not in "\n".join(pdf_text(result.files["cv-short.pdf"]))


def test_markdown_cv_without_data_gets_cv_styling(make_site: MakeSite) -> None:
    site = make_site({"content/cv.md": "---\nlayout: cv\ntitle: CV\n---\n## Experience\n\n"
                                       '<div class="entry">**Job**</div>\n'}, layouts=False)
    page = html(build(site), "cv/index.html")
    assert 'class="cv"' in page and "css/cv.css" in page and '<div class="entry">' in page
    assert "cv.pdf" not in page


def test_pdf_is_deterministic_with_metadata(make_site: MakeSite) -> None:
    site = site_with_cv(make_site)
    one, two = build(site).files["cv.pdf"], build(site).files["cv.pdf"]
    assert one == two
    meta = PdfReader(io.BytesIO(one)).metadata
    assert meta is not None and meta.title == "Ada Lin — CV" and meta.author == "Ada Lin"
    assert any("/URI" in str(annot.get_object()) for page in PdfReader(io.BytesIO(one)).pages
               for annot in page.get("/Annots", []))


def test_long_cv_keeps_headings_with_entries_and_entries_whole(make_site: MakeSite) -> None:
    entries = "\n".join(f"  - {{name: Org {i}, position: Role-{i}-start, startDate: 2001, highlights: "
                        f"[\"first line of {i}\", \"second line of {i}\", \"Detail-{i}-end\"]}}" for i in range(30))
    pubs = "\n".join(f"  - {{name: Paper-{i}-start, authors: [Ada Lin], releaseDate: 2020, venue: Venue-{i}-end}}"
                     for i in range(12))
    cv = f"basics: {{name: Ada Lin}}\nwork:\n{entries}\npublications:\n{pubs}\nskills: [{{name: Skill-end}}]\n"
    pages = pdf_text(build(site_with_cv(make_site, cv)).files["cv.pdf"])
    assert len(pages) >= 3
    for i in range(30):
        assert [n for n, p in enumerate(pages) if f"Role-{i}-start" in p] == \
               [n for n, p in enumerate(pages) if f"Detail-{i}-end" in p], f"entry {i} split across pages"
    for page in pages[:-1]:
        lines = [line.strip() for line in page.splitlines() if line.strip()
                 and not re.fullmatch(r"\d+ / \d+", line.strip())]
        assert lines[-1] not in ("EXPERIENCE", "PUBLICATIONS", "SKILLS"), "a heading alone at the page bottom"


def test_sitegen_cv_command(make_site: MakeSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = site_with_cv(make_site)
    out = tmp_path / "cv.md"
    assert main(["cv", "--source", str(site), "--format", "md", "--output", str(out)]) == 0
    assert out.read_text().startswith("# Ada Lin") and "**Ada Lin**" in out.read_text()
    assert main(["cv", "--source", str(site), "--format", "pdf", "--output", str(tmp_path / "cv.pdf")]) == 0
    assert (tmp_path / "cv.pdf").read_bytes().startswith(b"%PDF")
    assert main(["cv", "--source", str(site), "--format", "json", "--output", str(tmp_path / "cv.json")]) == 0
    assert main(["cv", "--source", str(site), "--format", "html", "--output", str(tmp_path / "cv.html")]) == 0
    assert "Remat Paper" in (tmp_path / "cv.html").read_text()
    assert main(["cv", "--source", str(site), "--lang", "fr"]) == 1
    capsys.readouterr()
    assert main(["cv", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert "startDate" in json.dumps(schema)


def test_pdftotext_sees_every_chinese_glyph(make_site: MakeSite, tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None or shutil.which("pdffonts") is None:
        pytest.skip("poppler-utils not installed")
    import subprocess

    zh = "basics:\n  name: 林雅\n  summary: 显存优化与张量编译器\n"
    pdf = build(site_with_cv(make_site, zh)).files["cv.pdf"]
    (tmp_path / "cv.pdf").write_bytes(pdf)
    text = subprocess.run(["pdftotext", str(tmp_path / "cv.pdf"), "-"], capture_output=True, text=True).stdout
    assert "林雅" in text and "显存优化与张量编译器" in text
    fonts = subprocess.run(["pdffonts", str(tmp_path / "cv.pdf")], capture_output=True, text=True).stdout
    assert "NotoSansSC" in fonts and " no " not in fonts.split("\n", 2)[2]


def test_sitegen_cv_takes_the_format_from_the_output_name_and_refuses_a_mismatch(
        make_site: MakeSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = site_with_cv(make_site)
    assert main(["cv", "--source", str(site), "-o", str(tmp_path / "cv.json")]) == 0
    assert json.loads((tmp_path / "cv.json").read_text())["basics"]["name"] == "Ada Lin"
    assert main(["cv", "--source", str(site), "-o", str(tmp_path / "cv.md")]) == 0
    assert (tmp_path / "cv.md").read_text().startswith("# Ada Lin")
    assert main(["cv", "--source", str(site), "-o", str(tmp_path / "resume")]) == 0
    assert (tmp_path / "resume").read_bytes().startswith(b"%PDF")
    capsys.readouterr()
    assert main(["cv", "--source", str(site), "--format", "pdf", "-o", str(tmp_path / "x.json")]) == 1
    assert "--format pdf does not match the output file" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


def test_build_cv_model_formats_dates() -> None:
    cv = build_cv({"basics": {"name": "A"}, "work": [{"position": "X", "startDate": "2015-09",
                                                      "endDate": "2016"}]}, "en", [])
    assert cv.sections[0].entries[0].when == "Sep 2015 – 2016"


def test_the_contact_line_reads_as_separate_items_in_search_excerpts(make_site: MakeSite) -> None:
    """The contact items stand side by side by CSS alone; the page's text (what search excerpts show) keeps them
    apart, the link's screen and print labels too."""
    result = build(site_with_cv(make_site))
    meta = index.meta(result.files)
    cv = next(index.doc(result.files, i) for i in range(meta["n"]) if index.doc(result.files, i)["u"] == "/cv/")
    assert "ada@example.org Vienna, AT ada.example.org GitHub: ada github.com/ada" in cv["x"]
