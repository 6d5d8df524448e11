"""Browser fixtures: the example site built once, served on 127.0.0.1, and a headless Chromium."""

from __future__ import annotations

import functools
import http.server
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitegen.build import BuildOptions, build_site
from sitegen.writer import write_output
from tests.conftest import REPO


class PagesHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a built site quietly and answers unknown paths with its /404.html, as GitHub Pages does."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.exists():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="session")
def example_site_url() -> Iterator[str]:
    """Build the repository's example site into a temp folder and serve it; yields the base URL."""
    out = Path(tempfile.mkdtemp(prefix="sitegen-example-"))
    result = build_site(BuildOptions(source=REPO, base_url="/"))
    write_output(result.files, out / "public", REPO)
    handler = functools.partial(_QuietHandler, directory=str(out / "public"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    shutil.rmtree(out, ignore_errors=True)
