"""Printing /cv/ from the browser gives the CV alone, as long as the Typst PDF beside it."""

from __future__ import annotations

import io
import urllib.request
from typing import Any

import pytest
from pypdf import PdfReader

pytestmark = pytest.mark.browser


def _pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


@pytest.mark.parametrize("path, pdf", [("/cv/", "/cv.pdf"), ("/cv/short/", "/cv-short.pdf")])
def test_printing_the_web_cv_matches_the_pdf(browser: Any, example_site_url: str, path: str, pdf: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(example_site_url + path)
    printed = _pages(page.pdf(format="A4", prefer_css_page_size=True))
    ctx.close()
    with urllib.request.urlopen(example_site_url + pdf) as response:  # noqa: S310 - the local test server
        typeset = _pages(response.read())
    assert len(printed) == len(typeset), (len(printed), len(typeset))
    text = "\n".join(printed)
    assert "Ada Lin" in printed[0] and "EXPERIENCE" in printed[0]  # the CV alone: no menu, intro or buttons
    for chrome in ("Skip to content", "Built with sitegen", "Posts", "generated from one source", "JSON Resume"):
        assert chrome not in text, chrome
    # Links print their targets, as in the PDF (paper has no hover).
    assert "doi:10.1234/mlsys.2024.0042" in text.replace("\n", "")
    assert "doi:10.1234/mlsys.2024.0042" in "".join(typeset).replace("\n", "")


def test_the_web_cv_has_one_h1_the_name_and_no_repeated_type(browser: Any, example_site_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 800})
    page = ctx.new_page()
    page.goto(example_site_url + "/cv/")
    headings = page.locator("h1").all_inner_texts()
    sizes = page.evaluate("""() => [...document.querySelectorAll('main h1, main h2, main h3')]
        .map(h => parseFloat(getComputedStyle(h).fontSize))""")
    thesis = page.locator(".cv-publications .cv-entry", has_text="Memory-Efficient Training of Deep").inner_text()
    ctx.close()
    assert headings == ["Ada Lin"]
    assert sizes[0] == max(sizes)
    assert thesis.lower().count("thesis") == 1, thesis  # "PhD thesis, University of Example", not also "· thesis"
