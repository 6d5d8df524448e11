"""`sitegen import jekyll`: an al-folio / academicpages shaped site becomes a sitegen site that builds, checks
clean and keeps its URLs; the source folder is never changed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sitegen.build import BuildOptions, build_site
from sitegen.check import check_build
from sitegen.cli import main
from sitegen.importer import import_site
from tests.importer.conftest import digest, write_tree

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16

JEKYLL_SITE: dict[str, str | bytes] = {
    "_config.yml": "title: Ada Lin\nurl: https://ada.example.org\nbaseurl: \"\"\n",
    "Gemfile": "source 'https://rubygems.org'\n",
    "_pages/about.md": (
        "---\nlayout: about\ntitle: About\npermalink: /\nredirect_from:\n  - /about/\n  - /about.html\n---\n"
        "I study compilers. See [my CV](/cv/) and the [talk](/talks/2019-vienna/).\n\n"
        "![me](/assets/img/me.png)\n"),
    "_pages/publications.md": (
        "---\nlayout: page\ntitle: Publications\npermalink: /publications/\n---\n"
        "Papers, newest first.\n\n{% bibliography %}\n"),
    "_pages/cv.md": "---\nlayout: cv\ntitle: CV\npermalink: /cv/\n---\n",
    "_posts/2020-01-02-hello.md": (
        "---\nlayout: post\ntitle: Hello\ntags: compilers llvm\ncategories: notes\n"
        "permalink: /blog/hello/\n---\nFirst post.\n"),
    "_posts/2020-02-02-hidden.md": "---\ntitle: Not yet\npublished: false\n---\nDraft text.\n",
    "_talks/2019-vienna.md": ("---\ntitle: Vienna talk\ndate: 2019-03-01\nvenue: Uni Wien\n"
                              "permalink: /talks/2019-vienna/\n---\nSlides soon.\n"),
    "_data/cv.yml": (
        "- title: General Information\n  type: map\n  contents:\n    - name: Full Name\n      value: Ada Lin\n"
        "    - name: Languages\n      value: English\n"
        "- title: Education\n  type: time_table\n  contents:\n    - title: PhD\n      institution: Uni\n"
        "      year: 2017 - 2021\n      description:\n        - Thesis on compilers.\n"
        "- title: Experience\n  type: time_table\n  contents:\n    - title: Researcher\n      institution: Lab\n"
        "      year: 2021.09 - Now\n"
        "- title: Honors and Awards\n  type: time_table\n  contents:\n    - year: 2022\n      items:\n"
        "        - Best paper\n"
        "- title: Academic Interests\n  type: nested_list\n  contents:\n    - title: Compilers\n      items:\n"
        "        - Register allocation\n"),
    "_data/socials.yml": "github_username: ada\n",
    "_bibliography/papers.bib": (
        "@inproceedings{lin2021,\n  title={Fast Register Allocation},\n  author={Lin, Ada and Doe, John},\n"
        "  booktitle={PLDI},\n  year={2021},\n  pdf={lin2021.pdf},\n  selected={true}\n}\n"),
    "assets/img/me.png": PNG,
    "assets/pdf/lin2021.pdf": b"%PDF-1.4\n",
    "_layouts/default.html": "<html>{{ content }}</html>\n",
    "_includes/figure.liquid": "<figure></figure>\n",
    "_sass/_base.scss": "body { color: red; }\n",
}


@pytest.fixture
def imported(tmp_path: Path) -> tuple[Path, Path, object]:
    source = write_tree(tmp_path / "jekyll", JEKYLL_SITE)
    dest = tmp_path / "new"
    return source, dest, import_site("jekyll", source, dest)


def test_import_never_changes_the_source(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "jekyll", JEKYLL_SITE)
    before = digest(source)
    assert main(["import", "jekyll", str(source), str(tmp_path / "new")]) == 0
    assert digest(source) == before


def test_imported_site_builds_and_checks_clean(imported: tuple[Path, Path, object]) -> None:
    _, dest, _ = imported
    result = build_site(BuildOptions(source=dest))
    report = check_build(result)
    assert not report.errors, report.format()
    assert "index.html" in result.files


def test_urls_and_redirects_are_kept(imported: tuple[Path, Path, object]) -> None:
    _, dest, _ = imported
    files = build_site(BuildOptions(source=dest)).files
    assert b"I study compilers" in files["index.html"]  # `permalink: /` made it the home page
    assert b"First post." in files["blog/hello/index.html"]
    assert b"Slides soon." in files["talks/2019-vienna/index.html"]
    for alias in ("about/index.html", "about.html"):  # redirect_from: became aliases
        assert alias in files and b"http-equiv=\"refresh\"" in files[alias].replace(b"http-equiv=refresh",
                                                                                   b"http-equiv=\"refresh\"")
    assert not any("hidden" in path for path in files)  # published: false stays out


def test_space_separated_tags_become_lists(imported: tuple[Path, Path, object]) -> None:
    _, dest, _ = imported
    front = yaml.safe_load((dest / "content/posts/2020-01-02-hello.md").read_text().split("---")[1])
    assert front["tags"] == ["compilers", "llvm"]
    assert "layout" not in front  # `post` is not a sitegen layout: the kind's template is used


def test_alfolio_cv_becomes_cv_data(imported: tuple[Path, Path, object]) -> None:
    _, dest, report = imported
    cv = yaml.safe_load((dest / "data/cv.yaml").read_text())
    assert cv["basics"]["name"] == "Ada Lin"
    assert cv["education"] == [{"institution": "Uni", "studyType": "PhD", "startDate": "2017",
                                "endDate": "2021", "summary": "Thesis on compilers."}]
    assert cv["work"][0]["startDate"] == "2021-09" and cv["work"][0]["endDate"] == "present"
    assert cv["awards"] == [{"title": "Best paper", "date": "2022"}]
    assert cv["academic_interests"]["entries"][0]["highlights"] == ["Register allocation"]
    files = build_site(BuildOptions(source=dest)).files
    assert b"Register allocation" in files["cv/index.html"]
    assert any("Languages" in n.message for n in report.notes)  # type: ignore[attr-defined]


def test_bibliography_becomes_the_publications_page(imported: tuple[Path, Path, object]) -> None:
    _, dest, _ = imported
    assert (dest / "data/papers.bib").is_file()
    files = build_site(BuildOptions(source=dest)).files
    page = files["publications/index.html"]
    assert b"Fast Register Allocation" in page and b"{% bibliography" not in page


def test_static_files_and_data_are_copied(imported: tuple[Path, Path, object]) -> None:
    _, dest, _ = imported
    assert (dest / "static/assets/img/me.png").read_bytes() == PNG
    assert (dest / "data/socials.yml").is_file()
    assert not (dest / "static/Gemfile").exists() and not (dest / "static/_config.yml").exists()


def test_report_names_what_was_not_converted(imported: tuple[Path, Path, object]) -> None:
    _, _, report = imported
    text = report.format()  # type: ignore[attr-defined]
    assert "wrote content/posts/2020-01-02-hello.md (converted from _posts/2020-01-02-hello.md)" in text
    for folder in ("_layouts/", "_includes/", "_sass/"):
        assert f"not converted {folder}" in text
    assert "what to do:" in text


def test_a_non_empty_destination_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_tree(tmp_path / "jekyll", JEKYLL_SITE)
    dest = write_tree(tmp_path / "taken", {"notes.txt": "mine\n"})
    assert main(["import", "jekyll", str(source), str(dest)]) == 1
    assert "not an empty folder" in capsys.readouterr().err
    assert sorted(p.name for p in dest.iterdir()) == ["notes.txt"]


def test_a_destination_inside_the_source_is_refused(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "jekyll", JEKYLL_SITE)
    before = digest(source)
    assert main(["import", "jekyll", str(source), str(source / "sitegen")]) == 1
    assert digest(source) == before


def test_links_out_of_the_source_are_left_out_with_a_note(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"secret.txt": "private\n", "dir/x.txt": "x\n"})
    source = write_tree(tmp_path / "jekyll", {"_config.yml": "title: T\n", "index.md": "---\ntitle: Home\n---\nhi\n"})
    (source / "assets").mkdir()
    (source / "assets" / "secret.txt").symlink_to(outside / "secret.txt")
    (source / "_data").symlink_to(outside / "dir")
    report = import_site("jekyll", source, tmp_path / "new")
    assert not (tmp_path / "new" / "static" / "assets" / "secret.txt").exists()
    assert not any("private" in p.read_text(errors="replace") for p in (tmp_path / "new").rglob("*") if p.is_file())
    noted = {n.path for n in report.notes if "symbolic link" in n.message}
    assert noted == {"assets/secret.txt", "_data"}, report.notes
