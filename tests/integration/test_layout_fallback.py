"""Issue 16 item 1: an unknown `layout:` falls back to the page kind's template, as Hugo and Jekyll do."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.cli import main
from tests.conftest import build, html

MakeSite = Callable[..., Path]


@pytest.mark.parametrize("layout", ["post", "single", "archive", "about", "page", "default"])
def test_unknown_layout_uses_the_kinds_template(make_site: MakeSite, layout: str) -> None:
    site = make_site({"content/posts/x.md": f"---\ntitle: X\ndate: 2024-01-01\nlayout: {layout}\n---\nBody text\n"})
    result = build(site)
    assert "Body text" in html(result, "posts/x/index.html")
    assert not [w for w in result.warnings if "layout" in str(w)]


def test_a_layout_the_site_has_is_still_used(make_site: MakeSite) -> None:
    site = make_site({"layouts/talk.html": "TALK {{ page.title }}",
                      "content/posts/x.md": "---\ntitle: X\ndate: 2024-01-01\nlayout: talk\n---\nBody\n"})
    assert html(build(site), "posts/x/index.html") == "TALK X"


def test_the_fallback_is_a_note_under_verbose_only(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/x.md": "---\ntitle: X\ndate: 2024-01-01\nlayout: post\n---\nBody\n"})
    out = site.parent / "out"
    assert main(["build", "--source", str(site), "--output", str(out)]) == 0
    assert "layout" not in capsys.readouterr().err
    assert main(["build", "--verbose", "--source", str(site), "--output", str(out)]) == 0
    assert "content/posts/x.md: note: no template for `layout: post`" in capsys.readouterr().err
