"""Links written as URLs relative to the page (`../other-post/`, common in Hugo blogs) are checked the way the
browser resolves them, against the page's own URL, and are not reported as missing when they lead somewhere."""

from __future__ import annotations

from pathlib import Path

from sitegen.check import check_build
from tests.dialects.hugo.site import build_hugo

SITE = {
    "content/about.md": "---\ntitle: About\n---\nMe.\n",
    "content/posts/a.md": "---\ntitle: A\n---\nSee [b](../b/), [b2](../b), [about](../../about/), "
                          "[pic](../b/pic.png) and [gone](../gone/).\n",
    "content/posts/b/index.md": "---\ntitle: B\n---\nB.\n",
    "content/posts/b/pic.png": b"PNG",
}


def test_relative_url_links_that_resolve_in_the_browser_are_not_missing(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, SITE)
    missing = [w.message for w in result.warnings if "missing content" in w.message]
    assert missing == ["link to missing content `../gone/`"]
    assert 'href="../b/"' in result.files["posts/a/index.html"].decode()


def test_sitegen_check_agrees_with_the_browser(tmp_path: Path) -> None:
    report = check_build(build_hugo(tmp_path, SITE))
    assert [(p.page, p.url) for p in report.errors] == [("posts/a/index.html", "../gone/")]
