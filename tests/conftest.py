"""Shared fixtures: build tiny sites from inline file maps."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sitegen.build import BuildOptions, BuildResult, build_site

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]

MINIMAL_LAYOUTS = {
    "layouts/base.html": (
        "<!doctype html><html lang=\"{{ page.lang }}\"><head><title>{% block title %}{{ page.title }}"
        "{% endblock %}</title></head><body>{% block main %}{% endblock %}</body></html>\n"),
    "layouts/page.html": "{% extends 'base.html' %}{% block main %}<h1>{{ page.title }}</h1>"
                         "{{ page.content }}{% endblock %}",
    "layouts/single.html": "{% extends 'base.html' %}{% block main %}<h1>{{ page.title }}</h1>"
                           "{{ page.content }}{% endblock %}",
    "layouts/home.html": "{% extends 'base.html' %}{% block main %}{{ page.content }}<ul>"
                         "{% for p in site.pages if not p.hidden %}<li><a href=\"{{ p.url }}\">{{ p.title }}</a></li>"
                         "{% endfor %}</ul>{% endblock %}",
    "layouts/section.html": "{% extends 'base.html' %}{% block main %}<ul>{% for p in page.pages %}"
                            "<li><a href=\"{{ p.url }}\">{{ p.title }}</a></li>{% endfor %}</ul>{% endblock %}",
    "layouts/taxonomy.html": "{% for t in taxonomy.terms %}<a href=\"{{ t.url }}\">{{ t.name }} ({{ t.count }})</a>"
                             "{% endfor %}",
    "layouts/term.html": "<h1>{{ term.name }}</h1>{% for p in page.pages %}<a href=\"{{ p.url }}\">{{ p.title }}</a>"
                         "{% endfor %}",
    "layouts/404.html": "not found",
}


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `{relative path: text or bytes}` under `root` (folders made as needed); returns `root`."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def make_site(tmp_path: Path) -> Callable[..., Path]:
    """Write `{relative path: text or bytes}` into a fresh site folder and return it.

    With `layouts=True` (the default) a minimal set of layouts is added first, so tests assert on sitegen's
    behaviour rather than on the default theme's markup; pass `layouts=False` to use the default theme.
    """

    def make(files: dict[str, str | bytes], layouts: bool = True, name: str = "site") -> Path:
        root = tmp_path / name
        root.mkdir(parents=True, exist_ok=True)
        merged: dict[str, str | bytes] = dict(MINIMAL_LAYOUTS) if layouts else {}
        merged.update(files)
        merged.setdefault("sitegen.yaml", "title: Test\nbase_url: https://example.org/\n")
        return write_files(root, merged)

    return make


def build(site: Path, **options: object) -> BuildResult:
    """Build a site in memory with fixed time (2030-01-01) unless `now` is given."""
    import datetime as dt

    options.setdefault("now", dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    return build_site(BuildOptions(source=site, **options))  # type: ignore[arg-type]


def html(result: BuildResult, path: str) -> str:
    """One output file as text."""
    return result.files[path].decode("utf-8")


def chromium_available() -> bool:
    """Whether browser tests can run (in CI they must)."""
    return Path(CHROMIUM).exists() and shutil.which("chromium") is not None


def require_chromium() -> None:
    """Skip a browser test when Chromium is missing, except in CI where that is a failure."""
    if not chromium_available():
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is required in CI (/usr/bin/chromium)")
        pytest.skip("Chromium not installed (apt-get install chromium)")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium (Debian's) for the whole run; Playwright gives it a fresh temporary profile."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()
