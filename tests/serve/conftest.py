"""A real dev server on 127.0.0.1 over a tiny site, per test."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from sitegen.build import BuildOptions
from sitegen.serve.session import ServeSession

SITE = {
    "sitegen.yaml": "title: Serve test\nbase_url: https://example.org/\n",
    "content/_index.md": "---\ntitle: Home\n---\nWelcome home.\n",
    "content/posts/first.md": "---\ntitle: First\ndate: 2024-01-01\n---\nOriginal text.\n",
    "content/posts/论文笔记.md": "---\ntitle: 论文\ndate: 2024-01-02\n---\n中文内容\n",
    "static/css/extra.css": "body { color: rgb(1, 2, 3); }\n",
    "layouts/base.html": "<!doctype html><html><head><title>{{ page.title }}</title>"
                         "<link rel=\"stylesheet\" href=\"{{ url('/css/extra.css') }}\"></head>"
                         "<body>{% block main %}{% endblock %}</body></html>\n",
}


@dataclass
class Running:
    """A started session and where it listens."""

    session: ServeSession
    site: Path
    url: str

    def wait_for_build(self, before: int, timeout: float = 10.0) -> None:
        """Block until a build after `before` finished (or failed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.session.builds > before or (self.session.hub.error and not self.session.last.ok):
                return
            time.sleep(0.02)
        raise AssertionError("no rebuild happened")


@pytest.fixture
def serve(make_site: Callable[..., Path]) -> Iterator[Callable[..., Running]]:
    sessions: list[ServeSession] = []

    def start(files: dict[str, str] | None = None, layouts: bool = True, **options: object) -> Running:
        site = make_site({**SITE, **(files or {})}, layouts=layouts)
        session = ServeSession(BuildOptions(source=site, **options), say=lambda _m: None)  # type: ignore[arg-type]
        host, port = session.start("127.0.0.1", 0, auto_port=False)
        sessions.append(session)
        return Running(session, site, f"http://{host}:{port}")

    yield start
    for session in sessions:
        session.stop()
