"""`sitegen theme copy` and `sitegen theme overrides`: what a site replaces, and what to review after an upgrade."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.cli import main
from sitegen.theme import copied_template, find_overrides
from tests.conftest import REPO, build, html

MakeSite = Callable[..., Path]
THEME_LAYOUTS = REPO / "themes" / "default" / "layouts"


def test_a_copied_partial_renders_and_is_reported_current(make_site: MakeSite,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/a.md": "---\ntitle: A\n---\nbody"}, layouts=False)
    assert main(["theme", "copy", "partials/footer.html", "--source", str(site)]) == 0
    copy = site / "layouts/partials/footer.html"
    text = copy.read_text(encoding="utf-8").replace('{{ i18n("built_with") }}', "Made by hand")
    copy.write_text(text, encoding="utf-8")
    page = html(build(site), "a/index.html")
    assert "Made by hand" in page and "sitegen theme copy" not in page
    capsys.readouterr()
    assert main(["theme", "overrides", "--source", str(site)]) == 0
    assert capsys.readouterr().out == "layouts/partials/footer.html: theme original unchanged since the copy\n"


def test_overrides_flag_a_copy_whose_theme_original_changed(make_site: MakeSite, tmp_path: Path) -> None:
    theme = tmp_path / "theme"
    (theme / "partials").mkdir(parents=True)
    (theme / "partials/footer.html").write_text("<p>v1</p>\n", encoding="utf-8")
    (theme / "base.html").write_text("base\n", encoding="utf-8")
    site = make_site({}, layouts=False)
    (site / "layouts/partials").mkdir(parents=True)
    (site / "layouts/partials/footer.html").write_text(copied_template("t", "partials/footer.html", "<p>v1</p>\n"))
    (site / "layouts/base.html").write_text("my own base, written by hand\n")
    (site / "layouts/extra.html").write_text("a template the theme does not have\n")
    assert [(o.name, o.status) for o in find_overrides(site / "layouts", theme)] == [
        ("base.html", "unknown"), ("partials/footer.html", "current")]
    (theme / "partials/footer.html").write_text("<p>v2</p>\n", encoding="utf-8")
    assert [(o.name, o.status) for o in find_overrides(site / "layouts", theme)] == [
        ("base.html", "unknown"), ("partials/footer.html", "changed")]


def test_copy_never_overwrites_and_names_unknown_templates(make_site: MakeSite,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"layouts/partials/footer.html": "mine"}, layouts=False)
    assert main(["theme", "copy", "partials/footer.html", "--source", str(site)]) == 1
    assert (site / "layouts/partials/footer.html").read_text() == "mine"
    assert main(["theme", "copy", "partials/nope.html", "--source", str(site)]) == 1
    assert main(["theme", "copy", "../sitegen.yaml", "--source", str(site)]) == 1
    err = capsys.readouterr().err
    assert "exists already" in err and "has no template layouts/partials/nope.html" in err
    assert "Traceback" not in err
