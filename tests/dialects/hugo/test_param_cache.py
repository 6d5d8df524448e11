"""Issue 16: `{{< param >}}` shows the parameters as they are now, after an edit of hugo.toml's `[params]` or of
the page's front matter (its text unchanged), in a warm build and under the dev server (Hugo's `param`
shortcode: "Gets a value from the current page's params set in front matter, with a fallback to the site param
value")."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from sitegen.build import BuildOptions, build_site
from sitegen.memo import BuildMemo
from sitegen.serve.session import ServeSession
from tests.conftest import html
from tests.dialects.hugo.site import HUGO_TOML, hugo_site
from tests.serve.conftest import Running

FILES = {
    "hugo.toml": HUGO_TOML + '[params]\nemail = "old@example.org"\n',
    "content/about.md": "---\ntitle: About\n---\nWrite to {{< param email >}}.\n",
    "content/plain.md": "---\ntitle: Plain\n---\nNo parameters here.\n",
    "content/own.md": "---\ntitle: Own\nemail: page@example.org\n---\nWrite to {{< param email >}}.\n",
}


def _edit_params(site: Path) -> None:
    config = site / "hugo.toml"
    config.write_text(config.read_text().replace("old@example.org", "new@example.org"))


def _edit_front_matter(site: Path) -> None:
    page = site / "content/own.md"
    page.write_text(page.read_text().replace("page@example.org", "mine@example.org"))


def test_a_warm_build_shows_edited_params(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, FILES)
    memo = BuildMemo()
    first = build_site(BuildOptions(source=site), memo)
    assert "Write to old@example.org." in html(first, "about/index.html")
    _edit_params(site)
    warm = build_site(BuildOptions(source=site), memo)
    assert "Write to new@example.org." in html(warm, "about/index.html")
    assert "Write to page@example.org." in html(warm, "own/index.html")  # the page's own value wins
    assert warm.files == build_site(BuildOptions(source=site)).files  # the same as a cold build
    _edit_front_matter(site)  # the page's text is the same: only the value `param` reads changed
    again = build_site(BuildOptions(source=site), memo)
    assert "Write to mine@example.org." in html(again, "own/index.html")


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - the test's own server on 127.0.0.1
        return str(response.read().decode())


def test_the_dev_server_shows_edited_params(tmp_path: Path) -> None:
    site = hugo_site(tmp_path, FILES)
    session = ServeSession(BuildOptions(source=site), say=lambda _m: None)
    host, port = session.start("127.0.0.1", 0, auto_port=False)
    try:
        assert "Write to old@example.org." in _get(f"http://{host}:{port}/about/")
        running = Running(session, site, f"http://{host}:{port}")
        before = session.builds
        _edit_params(site)
        running.wait_for_build(before, 15)
        assert "Write to new@example.org." in _get(f"http://{host}:{port}/about/")
        before = session.builds
        _edit_front_matter(site)
        running.wait_for_build(before, 15)
        assert "Write to mine@example.org." in _get(f"http://{host}:{port}/own/")
    finally:
        session.stop()
