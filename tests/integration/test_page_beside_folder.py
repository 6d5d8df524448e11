"""Issue 16 items 7 and 13: a page beside a folder of the same name, and every problem of a site in one run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.errors import SitegenError
from tests.conftest import build, html

MakeSite = Callable[..., Path]


def test_a_page_beside_its_folder_becomes_the_folders_page(make_site: MakeSite) -> None:
    site = make_site({
        "content/publications.md": "---\ntitle: Publications\n---\nMy papers.\n",
        "content/publications/paper-one.md": "---\ntitle: Paper one\ndate: 2024-01-01\n---\nOne.\n",
    })
    result = build(site)
    assert "My papers." in html(result, "publications/index.html")  # Hugo: the page is the section's page
    assert "One." in html(result, "publications/paper-one/index.html")  # the folder's pages keep their URLs


def test_every_problem_of_a_site_is_reported_in_one_run(make_site: MakeSite) -> None:
    site = make_site({
        "content/a.md": "---\ntitle: [unclosed\n---\nA\n",
        "content/b.md": "---\ntitle: B\nurl: /same/\n---\nB\n",
        "content/c.md": "---\ntitle: C\nurl: /same/\n---\nC\n",
        "data/bad.yaml": "a: [\n",
    })
    with pytest.raises(SitegenError) as info:
        build(site)
    text = info.value.format()
    assert "content/a.md" in text and "data/bad.yaml" in text
    assert "two pages write the same output `same/index.html`: content/b.md and content/c.md" in text
