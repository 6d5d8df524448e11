"""The default theme held to what audits check, on every page kind of the example site in headless Chromium.

At 360, 768 and 1280 px, light and dark: no horizontal scroll; axe-core (npm, from .ci/node_modules, injected into
the page) finds no violation; every request the theme makes stays on the site. Also: the light/dark choice
persists across reloads and is applied before the body is parsed; print CSS hides the chrome and prints link URLs;
tap targets are at least 44×44 px on a phone; the home page's HTML + CSS + JS stay under 60 KB with no
render-blocking script; and the Nu HTML Checker (npm vnu-jar, on Java) finds no error in any page.

The npm tools are installed by `.ci/run` (`npm ci --prefix .ci`); without them these tests skip, except under
CI=true where they fail.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from sitegen.build import BuildOptions, build_site
from sitegen.writer import write_output
from tests.browser.conftest import PagesHandler
from tests.conftest import REPO

pytestmark = pytest.mark.browser

NODE_MODULES = REPO / ".ci" / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
WIDTHS = [360, 768, 1280]
# One page of every kind the example site has.
PAGES = ["/", "/about/", "/posts/", "/posts/profiling-dataloaders/", "/posts/论文笔记/", "/cv/", "/publications/",
         "/talks/", "/talks/memory-efficient-training/", "/projects/", "/projects/remat/", "/tags/",
         "/categories/paper-summary/", "/search/", "/no/such/page/", "/news/", "/talks/seminar-memory-walls/",
         "/publications/lin2024remat/"]
# Images the author put in about.md (remote badges): content, not the theme.
AUTHORS_REMOTE_IMAGES = "https://img.shields.io/"
TAP_TARGETS = (".site-title, .theme-toggle, .nav-toggle-label, .site-nav a, .social a, .terms a, .pagination a, "
               ".pager a, .term-cloud a, .post-list .meta a, .toc summary, .latest .more a")


def _need(path: Path, what: str) -> None:
    """Skip when an npm tool is missing, except in CI where that is a failure."""
    if not path.exists():
        message = f"{what} missing ({path.relative_to(REPO)}): run `npm ci --prefix .ci` (.ci/run does)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


_Quiet = PagesHandler


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The example site built into a temp folder and served on 127.0.0.1: (root URL, output folder)."""
    out = tmp_path_factory.mktemp("quality") / "public"
    write_output(build_site(BuildOptions(source=REPO, base_url="/")).files, out, REPO)
    server = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", out
    server.shutdown()
    server.server_close()


def _context(browser: Any, root: str, width: int, scheme: str, requests: list[tuple[str, str]]) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
    page = ctx.new_page()

    def route(r: Any) -> None:
        requests.append((r.request.resource_type, r.request.url))
        r.continue_() if r.request.url.startswith(root + "/") else r.abort()

    page.route("**/*", route)
    return ctx, page


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_kind_fits_passes_axe_and_stays_on_the_site(browser: Any, built: tuple[str, Path], width: int,
                                                               scheme: str) -> None:
    _need(AXE, "axe-core")
    root, _ = built
    requests: list[tuple[str, str]] = []
    ctx, page = _context(browser, root, width, scheme, requests)
    overflow: dict[str, int] = {}
    violations: dict[str, list[str]] = {}
    for path in PAGES:
        page.goto(root + path, wait_until="load")
        sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if sideways > 0:
            overflow[path] = sideways
        page.add_script_tag(path=str(AXE))
        found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + n.failureSummary
            .replace(/\\s+/g, ' ')).join(' | '))""")
        if found:
            violations[path] = found
    ctx.close()
    assert overflow == {}
    assert not violations, "\n".join(f"{path}: {v}" for path, found in violations.items() for v in found)
    assert [u for kind, u in requests if not u.startswith(root + "/")
            and not (kind == "image" and u.startswith(AUTHORS_REMOTE_IMAGES))] == []


def test_the_theme_choice_persists_across_reloads_without_a_flash(browser: Any, built: tuple[str, Path]) -> None:
    root, _ = built
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="light")
    page = ctx.new_page()
    # Record the theme at the moment <body> is first parsed, before any deferred script has run.
    page.add_init_script("""new MutationObserver(function (m, o) { if (document.body) {
        window.themeAtBody = document.documentElement.getAttribute('data-theme') || 'none'; o.disconnect(); } })
        .observe(document, {childList: true, subtree: true});""")
    background = "getComputedStyle(document.body).backgroundColor"
    page.goto(root + "/posts/profiling-dataloaders/")
    light = page.evaluate(background)
    assert page.get_attribute(".theme-toggle", "aria-pressed") == "false"
    page.click(".theme-toggle")
    dark = page.evaluate(background)
    page.reload()
    after_reload = (page.evaluate("window.themeAtBody"), page.evaluate(background),
                    page.get_attribute(".theme-toggle", "aria-pressed"))
    page.goto(root + "/about/")
    elsewhere = page.evaluate(background)
    page.click(".theme-toggle")
    page.reload()
    back = (page.evaluate("window.themeAtBody"), page.evaluate(background))
    ctx.close()
    assert light != dark
    assert after_reload == ("dark", dark, "true") and elsewhere == dark
    assert back == ("light", light)


def test_print_css_hides_the_chrome_and_prints_link_urls(browser: Any, built: tuple[str, Path]) -> None:
    root, _ = built
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    page = ctx.new_page()
    page.goto(root + "/projects/remat/")
    page.emulate_media(media="print")
    hidden = page.evaluate("""() => ['.site-header', '.site-footer', '.theme-toggle', '.nav-toggle-label', '.skip-link']
        .map(s => getComputedStyle(document.querySelector(s)).display)""")
    after = page.evaluate("""() => [...document.querySelectorAll('.prose a[href^="http"]')]
        .map(a => getComputedStyle(a, '::after').content)""")
    colours = page.evaluate("[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]")
    ctx.close()
    assert hidden == ["none"] * 5
    assert after and all(c.startswith('" (http') for c in after), after
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]


def test_tap_targets_are_at_least_44_px_on_a_phone(browser: Any, built: tuple[str, Path]) -> None:
    root, _ = built
    ctx = browser.new_context(viewport={"width": 360, "height": 800})
    page = ctx.new_page()
    small: dict[str, list[str]] = {}
    for path in ["/", "/posts/", "/posts/profiling-dataloaders/", "/tags/", "/categories/paper-summary/",
                 "/about/"]:
        page.goto(root + path)
        page.click(".nav-toggle-label")
        found = page.evaluate("""sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim().slice(0, 20) || e.getAttribute('aria-label'), e.getBoundingClientRect()])
            .filter(([n, r]) => r.width < 44 || r.height < 43.9).map(([n, r]) => n + ' ' + Math.round(r.width)
            + 'x' + Math.round(r.height))""", TAP_TARGETS)
        if found:
            small[path] = found
    ctx.close()
    assert small == {}


def test_home_page_weighs_under_60_kb_with_no_render_blocking_script(browser: Any, built: tuple[str, Path]) -> None:
    root, out = built
    requests: list[tuple[str, str]] = []
    ctx, page = _context(browser, root, 1280, "light", requests)
    page.goto(root + "/", wait_until="networkidle")
    blocking = page.evaluate("""() => [...document.querySelectorAll('script[src]')]
        .filter(s => !s.defer && !s.async && s.type !== 'module').map(s => s.src)""")
    inline = page.evaluate("[...document.querySelectorAll('script:not([src]):not([type])')].map(s => s.text.length)")
    ctx.close()
    # Everything counts, KaTeX included: the home page lists posts by title, so no summary's math loads it.
    own = [u for kind, u in requests if kind in ("document", "stylesheet", "script")]
    files = [out / (unquote(u.removeprefix(root + "/").split("?")[0]) or ".") for u in own]
    size = sum((f / "index.html" if f.is_dir() else f).stat().st_size for f in files)
    assert blocking == [] and all(n < 300 for n in inline)
    assert size < 60_000, (size, own)


def test_every_page_is_valid_html(built: tuple[str, Path]) -> None:
    _need(VNU, "vnu-jar")
    if shutil.which("java") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("java missing: apt-get install openjdk-17-jre-headless")
        pytest.skip("java missing: apt-get install openjdk-17-jre-headless")
    _, out = built
    pages = sorted(str(p) for p in out.rglob("*.html"))
    run = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json", *pages],
                         capture_output=True, text=True, timeout=300)
    messages = json.loads(run.stderr or run.stdout)["messages"]
    errors = [f"{m.get('url', '').split('/public/')[-1]}:{m.get('lastLine')}: {m['message']}" for m in messages]
    assert errors == []
