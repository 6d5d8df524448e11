"""Reliability, URL owners (issue 15, finding 6): every output path has exactly one owner. Two claims on one
path (a page and a generated file, a page and a static file, a file and a folder of the same name) are an error
naming both sources; no output path lies under a dot folder or outside the output root; nothing is silently
overwritten and the previous output stays as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.cli import main
from tests.integration.test_cli_and_output import tree_digest

MakeSite = Callable[..., Path]
POST = "---\ntitle: Post\ndate: 2024-01-01\ntags: [x]\n---\nbody\n"


def build_fails(site: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Build into site/public twice: a good build first is not needed; returns stderr of a failing build."""
    code = main(["build", "--source", str(site), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(("url", "generated"), [
    ("/sitemap.xml", "sitemap.xml"),
    ("/feed.xml", "feed.xml"),
    ("/css/main.css", "css/main.css"),
])
def test_a_page_cannot_take_a_generated_or_theme_file(url: str, generated: str, make_site: MakeSite,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/p.md": POST, "content/claim.md": f"---\ntitle: Claim\nurl: {url}\n---\nmine\n",
                      "static/css/main.css": "body{}"})
    err = build_fails(site, capsys)
    assert "content/claim.md" in err and generated in err


@pytest.mark.parametrize(("url", "path"), [("/tags/", "tags/index.html"), ("/tags/x/", "tags/x/index.html")])
def test_a_content_page_at_a_taxonomy_url_is_the_page_there(url: str, path: str, make_site: MakeSite) -> None:
    """A site may write its own /tags/ page: the content page wins over the generated list, and it is the one
    owner of that file (not overwritten by the generated list)."""
    site = make_site({"content/posts/p.md": POST, "content/claim.md": f"---\ntitle: Claim\nurl: {url}\n---\nmine\n"})
    assert main(["build", "--source", str(site), "--quiet"]) == 0
    assert "mine" in (site / "public" / path).read_text()


def test_a_page_cannot_take_a_static_file(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/robots.md": "---\ntitle: R\nurl: /robots.txt\n---\nx\n",
                      "static/robots.txt": "User-agent: *\n"})
    err = build_fails(site, capsys)
    assert "content/robots.md" in err and "static/robots.txt" in err


@pytest.mark.parametrize("url", ["/v1.0", "/old.site"])
def test_a_page_file_cannot_replace_a_static_folder(url: str, make_site: MakeSite,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    folder = url.strip("/")
    site = make_site({"content/v.md": f"---\ntitle: V\nurl: {url}\n---\nx\n",
                      f"static/{folder}/notes.txt": "keep me"})
    err = build_fails(site, capsys)
    assert "content/v.md" in err and f"static/{folder}/notes.txt" in err


def test_a_failed_claim_leaves_the_previous_output_as_it_was(make_site: MakeSite,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/p.md": POST, "static/v1.0/notes.txt": "keep me"})
    assert main(["build", "--source", str(site), "--quiet"]) == 0
    before = tree_digest(site / "public")
    (site / "content/v.md").write_text("---\ntitle: V\nurl: /v1.0\n---\nx\n")
    build_fails(site, capsys)
    assert tree_digest(site / "public") == before
    assert (site / "public/v1.0/notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("front", [
    "slug: index.html",
    "url: /.git/HEAD",
    "aliases: [/.git/HEAD]",
    "aliases: [/.github/workflows/x.yml]",
    "url: /../escape/",
    "aliases: ['/../../escape.html']",
])
def test_a_url_into_a_dot_folder_or_out_of_the_output_is_a_located_error(
        front: str, make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/p.md": f"---\ntitle: P\n{front}\n---\nx\n"})
    err = build_fails(site, capsys)
    assert "content/posts/p.md" in err
    assert not (site / "public/.git").exists() and not (site / "escape").exists()


def test_an_alias_cannot_take_another_pages_url(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/a.md": "---\ntitle: A\n---\nA\n",
                      "content/b.md": "---\ntitle: B\naliases: [/a/]\n---\nB\n"})
    err = build_fails(site, capsys)
    assert "content/a.md" in err and "content/b.md" in err


def test_well_known_static_files_are_still_published(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntitle: A\n---\nA\n", "static/.well-known/security.txt": "Contact: x\n"})
    assert main(["build", "--source", str(site), "--quiet"]) == 0
    assert (site / "public/.well-known/security.txt").read_text() == "Contact: x\n"


@pytest.mark.parametrize(("files", "first", "second"), [
    ({"content/about.md": "---\ntitle: A\n---\nA", "static/About/index.html": "x"},
     "static/About/index.html", "content/about.md"),
    ({"static/css/Main.css": "x"}, "css/Main.css", "css/main.css"),
    ({"static/Notes": "a file", "content/notes/n.md": "---\ntitle: N\n---\nN"}, "static/Notes", "notes/n/index.html"),
])
def test_paths_differing_only_in_case_are_an_error(files: dict[str, str], first: str, second: str,
                                                  make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    # On macOS and Windows (case-insensitive file systems) one would silently replace the other, or a file would
    # stand where a folder must go; the site must build the same everywhere.
    site = make_site(files)
    err = build_fails(site, capsys)
    assert first in err and second in err and "case" in err, err
