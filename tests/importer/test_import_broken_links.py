"""A link broken in the original site already: `sitegen import` names it (original file:line, what to do), keeps it
as written, and `sitegen check` on the new site says it was broken in the original, not by the import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitegen.cli import main
from sitegen.importer import import_site
from sitegen.importer.links import page_links
from sitegen.links import IMPORT_RECORD
from tests.importer.conftest import write_tree

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16

# An al-folio shaped site (as its docs lay it out): a sample post whose images were deleted, a news item with a
# relative link (fine on the home page that shows it inline, broken on its own page /news/paper/), and links
# that do lead somewhere: another post, a static file, a taxonomy page, links in comments and code.
JEKYLL_SITE: dict[str, str | bytes] = {
    "_config.yml": ("title: Ada\nurl: https://ada.example.org\nbaseurl: \"\"\n"
                    "collections:\n  news:\n    output: true\n    permalink: /:collection/:title/\n"),
    "_pages/about.md": "---\nlayout: about\ntitle: About\npermalink: /\n---\nHello. [Other](/blog/2016/other/)\n",
    "_posts/2015-05-15-images.md": (
        "---\nlayout: post\ntitle: Images\n---\n"
        "Some text.\n\n"
        '{% include figure.liquid loading="eager" path="assets/img/9.jpg" class="img-fluid" %}\n\n'
        "![kept](/assets/img/me.png) and [the other post](/blog/2016/other/) and [tag](/tags/llvm/)\n\n"
        "<!-- <img src=\"/assets/img/commented.png\"> -->\n\n"
        "```html\n<img src=\"/assets/img/in-code.png\">\n```\n\n"
        "Note[^1].\n\n[^1]: See the appendix.\n"),
    "_posts/2016-01-01-other.md": ("---\ntitle: Other\ntags: llvm\npermalink: /blog/2016/other/\n---\n"
                                   "[paper](/assets/pdf/paper.pdf) and [typo](/assets/pdf/papr.pdf)\n"),
    "_news/paper.md": ("---\ndate: 2022-04-12\ninline: true\n---\n"
                       "Our [paper](assets/pdf/paper.pdf) was accepted.\n"),
    "assets/img/me.png": PNG,
    "assets/pdf/paper.pdf": b"%PDF-1.4\n",
}


@pytest.fixture
def imported(tmp_path: Path) -> tuple[Path, object]:
    src = write_tree(tmp_path / "src", JEKYLL_SITE)
    dest = tmp_path / "new"
    return dest, import_site("jekyll", src, dest)


def test_links_broken_in_the_original_are_named_with_their_file_and_line(imported: tuple[Path, object]) -> None:
    _, report = imported
    found = {(b.href, b.source) for b in report.broken_links}  # type: ignore[attr-defined]
    assert found == {("/assets/img/9.jpg", "_posts/2015-05-15-images.md:7"),
                     ("/assets/pdf/papr.pdf", "_posts/2016-01-01-other.md:6"),
                     ("assets/pdf/paper.pdf", "_news/paper.md:5")}, found
    text = report.format()  # type: ignore[attr-defined]
    assert "broken in the original _posts/2016-01-01-other.md:6: a link to /assets/pdf/papr.pdf" in text
    assert "what to do: the site has /assets/pdf/paper.pdf: correct the link's name" in text
    assert ("what to do: the link is relative: from this page it leads to /news/paper/assets/pdf/paper.pdf; "
            "write /assets/pdf/paper.pdf") in text
    assert "3 links broken in the original site" in text
    assert ("/assets/img/9.jpg (kept as written in content/posts/2015-05-15-images.md)\n      what to do: the "
            "original site has no page or file there either") in text  # not "did you mean me.png"


def test_a_broken_link_is_kept_as_written(imported: tuple[Path, object]) -> None:
    dest, _ = imported
    assert "(assets/pdf/paper.pdf)" in (dest / "content/news/paper.md").read_text(encoding="utf-8")


def test_check_says_the_link_was_broken_in_the_original(imported: tuple[Path, object],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    dest, _ = imported
    record = json.loads((dest / IMPORT_RECORD).read_text(encoding="utf-8"))
    assert {e["href"] for e in record["broken_in_source"]} == {"/assets/img/9.jpg", "/assets/pdf/papr.pdf",
                                                               "assets/pdf/paper.pdf"}
    # The import made nothing worse: the check passes, and says what was broken before it.
    assert main(["check", "--source", str(dest)]) == 0
    out = capsys.readouterr().out
    assert "warning: missing page /assets/pdf/papr.pdf (content/posts/2016-01-01-other.md:" in out
    assert "broken in the original site already (_posts/2016-01-01-other.md:6; named by `sitegen import`)" in out
    assert "links: 0 broken, " in out and " warnings (3 of them links broken in the original site already" in out
    assert main(["check", "--source", str(dest), "--fail-inherited"]) == 1
    assert "3 broken (3 of them broken in the original site already)" in capsys.readouterr().err


def test_check_of_a_site_not_imported_says_nothing_of_an_original(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    site = write_tree(tmp_path / "site", {"sitegen.yaml": "title: T\n", "content/a.md": "[x](/nowhere.pdf)\n"})
    assert main(["check", "--source", str(site)]) == 1
    err = capsys.readouterr().err
    assert "missing page /nowhere.pdf" in err and "original" not in err


def test_hugo_link_whose_case_differs_from_the_lowercased_url(tmp_path: Path) -> None:
    """Hugo lowercases URLs: `/resources/DLT_sizing` works only on a host that ignores case (Netlify)."""
    src = write_tree(tmp_path / "src", {
        "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Notes"\n',
        "content/resources/_index.md": "---\ntitle: Resources\n---\n- [DLT](/resources/DLT_sizing)\n",
        "content/resources/dlt_sizing/index.md": "---\ntitle: DLT sizing\n---\nText.\n",
        "content/posts/setup/index.md": ("---\ntitle: Setup\n---\nSee [diff](../papermod_diff) and "
                                         "[image](shot.png) and [home](/).\n"),
        "content/posts/setup/shot.png": PNG,
    })
    report = import_site("hugo", src, tmp_path / "new")
    found = {b.href: (b.source, b.why) for b in report.broken_links}
    assert set(found) == {"/resources/DLT_sizing", "../papermod_diff"}, found
    assert found["/resources/DLT_sizing"] == (
        "content/resources/_index.md:4", "only the letter case differs from /resources/dlt_sizing/ (which works "
        "only on hosts that ignore case); write /resources/dlt_sizing/")
    assert found["../papermod_diff"][0] == "content/posts/setup/index.md:4"


def test_links_are_read_from_markdown_and_html_outside_code_and_comments() -> None:
    body = ("[a](/a) ![b](/b.png \"t\") <a href='/c'>c</a> `[d](/d)`\n<!-- [e](/e)\n[f](/f) -->\n"
            "~~~\n[g](/g)\n~~~\n[h]: /h\n[^1]: [i](/i) footnote\n")
    assert list(page_links(body)) == [(0, "/a"), (0, "/b.png"), (0, "/c"), (6, "/h"), (7, "/i")]


def test_build_check_says_it_too(imported: tuple[Path, object], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    dest, _ = imported
    assert main(["build", "--source", str(dest), "--output", str(tmp_path / "out"), "--check", "--no-cache"]) == 0
    assert "broken in the original site already (_news/paper.md:5" in capsys.readouterr().err
    assert (tmp_path / "out/index.html").exists()


def test_a_link_that_is_no_url_is_named_not_a_traceback(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {
        "_config.yml": "title: Ada\n",
        "_posts/2016-01-01-bad.md": "---\ntitle: Bad\n---\nSee [a](http://[bad) here.\n"})
    report = import_site("jekyll", src, tmp_path / "new")
    found = [(b.href, b.source) for b in report.broken_links]  # type: ignore[attr-defined]
    assert found == [("http://[bad", "_posts/2016-01-01-bad.md:4")]
    assert "cannot be read as a URL" in report.format()  # type: ignore[attr-defined]
