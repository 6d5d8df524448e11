"""The CV PDF is typeset with the fonts sitegen ships (rendercv-fonts), never the machine's, so it is the same
everywhere: Chinese in Noto Sans SC, Japanese in Noto Sans JP, whatever CJK fonts the system has or lacks."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sitegen.cv import pdf as cv_pdf
from sitegen.errors import SitegenError
from tests.conftest import REPO, build

MakeSite = Callable[..., Path]


def poppler(tool: str, pdf: bytes, tmp_path: Path) -> str:
    """The output of `pdffonts` or `pdftotext` for a PDF (skipped without poppler-utils, except in CI)."""
    if shutil.which(tool) is None:
        if os.environ.get("CI") == "true":
            pytest.fail("poppler-utils is required in CI")
        pytest.skip("poppler-utils not installed")
    path = tmp_path / "cv.pdf"
    path.write_bytes(pdf)
    args = [tool, str(path)] + (["-"] if tool == "pdftotext" else [])
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def typst_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every call to typst.compile, with its keyword arguments."""
    import typst

    calls: list[dict[str, Any]] = []
    real = typst.compile

    def spy(source: bytes, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(source, **kwargs)

    monkeypatch.setattr(typst, "compile", spy)
    return calls


def test_example_site_cvs_use_only_the_bundled_fonts(typst_calls: list[dict[str, Any]], tmp_path: Path) -> None:
    import rendercv_fonts

    files = build(REPO).files
    bundled = {str(p) for p in rendercv_fonts.paths_to_font_folders}
    assert typst_calls, "no PDF was typeset"
    for call in typst_calls:
        assert call["ignore_system_fonts"] is True
        assert set(call["font_paths"]) <= bundled
    fonts = poppler("pdffonts", files["zh/cv.pdf"], tmp_path)
    assert "NotoSansSC-Regular" in fonts and "NotoSansSC-Bold" in fonts
    assert "CJK" not in fonts and "JP" not in fonts
    assert "林雅" in poppler("pdftotext", files["zh/cv.pdf"], tmp_path)
    assert "Noto" not in poppler("pdffonts", files["cv.pdf"], tmp_path)  # the English CV is Libertinus only


def test_japanese_is_set_in_the_japanese_face(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site({"data/cv.yaml": "basics:\n  name: Ada Lin\n",
                      "data/cv.ja.yaml": "basics:\n  name: 林 雅\n  summary: 機械学習システムの研究者です。\n"},
                     layouts=False)
    files = build(site).files
    assert "NotoSansJP" in poppler("pdffonts", files["ja/cv.pdf"], tmp_path)
    assert "機械学習システム" in poppler("pdftotext", files["ja/cv.pdf"], tmp_path)


def test_document_language_and_region_follow_the_cv() -> None:
    assert cv_pdf.language_and_region("zh") == ("zh", "cn")
    assert cv_pdf.language_and_region("zh-TW") == ("zh", "tw")
    assert cv_pdf.language_and_region("zh-Hant-HK") == ("zh", "hk")
    assert cv_pdf.language_and_region("ja") == ("ja", "jp")
    assert cv_pdf.language_and_region("en") == ("en", None)


def test_a_named_bundled_font_keeps_system_fonts_out(make_site: MakeSite, typst_calls: list[dict[str, Any]],
                                                      tmp_path: Path) -> None:
    site = make_site({"data/cv.yaml": "basics:\n  name: Ada Lin\n",
                      "sitegen.yaml": "title: T\ncv:\n  pdf:\n    font: EB Garamond\n"}, layouts=False)
    pdf = build(site).files["cv.pdf"]
    assert "EBGaramond" in poppler("pdffonts", pdf, tmp_path)
    assert all(call["ignore_system_fonts"] is True for call in typst_calls)


def test_only_a_font_the_bundle_lacks_opens_the_system_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    families = {False: frozenset({"libertinus serif", "noto sans sc"}),
                True: frozenset({"libertinus serif", "noto sans sc", "my house font"})}
    monkeypatch.setattr(cv_pdf, "_families", lambda paths, system: families[system])
    monkeypatch.setattr(cv_pdf, "_display_families", lambda paths: ["Libertinus Serif", "Noto Sans SC"])
    assert cv_pdf.font_setup([], [])[1] is False
    assert cv_pdf.font_setup(["Noto Sans SC"], [])[1] is False
    assert cv_pdf.font_setup(["My House Font"], [])[1] is True
    with pytest.raises(SitegenError) as info:
        cv_pdf.font_setup(["Comic Sans"], [], "sitegen.yaml")
    assert "'Comic Sans'" in info.value.format() and "Noto Sans SC" in info.value.format()


def _hide_system_fonts_works() -> bool:
    if shutil.which("unshare") is None or not Path("/usr/share/fonts").is_dir():
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs none /usr/share/fonts"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(sys.platform != "linux" or not _hide_system_fonts_works(),
                    reason="needs a private mount namespace (unshare -rm) to hide the system's fonts")
def test_pdf_bytes_do_not_depend_on_system_fonts(tmp_path: Path) -> None:
    """The same build in a namespace where every system font folder is empty gives the same PDF bytes."""
    here = build(REPO).files
    hide = " && ".join(f"mount -t tmpfs none {d}" for d in
                       ("/usr/share/fonts", "/usr/local/share/fonts", str(Path.home() / ".fonts"))
                       if Path(d).is_dir())
    script = ("import datetime as dt, pathlib, sys; from sitegen.build import BuildOptions, build_site; "
              "r = build_site(BuildOptions(source=pathlib.Path(sys.argv[1]), "
              "now=dt.datetime(2030, 1, 1, tzinfo=dt.UTC))); "
              "[pathlib.Path(sys.argv[2], p.replace('/', '_')).write_bytes(r.files[p]) for p in sys.argv[3:]]")
    names = ["cv.pdf", "zh/cv.pdf", "zh/cv-short.pdf"]
    command = f"{hide} && fc-list | wc -l && exec \"$@\""
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", command, "sh", sys.executable, "-c", script,
                           str(REPO), str(tmp_path), *names], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr
    if shutil.which("fc-list"):
        assert proc.stdout.split()[0] == "0", "system fonts were still visible"
    for name in names:
        assert (tmp_path / name.replace("/", "_")).read_bytes() == here[name], name


def test_an_emoji_the_bundled_fonts_lack_is_a_warning_with_its_line(make_site: MakeSite) -> None:
    # System fonts are ignored, so an emoji no bundled font has prints as an empty box in the PDF: say so.
    site = make_site({"data/cv.yaml": "basics:\n  name: Ada Lin\n  summary: \"Won 🏆, then 🎉 and 🎉 again\"\n"},
                     layouts=False)
    messages = [w.format() for w in build(site).warnings]
    assert len(messages) == 1, messages  # 🏆 is in a bundled font; 🎉 is named once, where it first is
    assert messages[0].startswith("warning: data/cv.yaml:3:25: 🎉 (U+1F389) has no glyph in the fonts of the CV PDF")
    assert "font_paths" in messages[0]
