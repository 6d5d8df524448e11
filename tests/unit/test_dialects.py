"""Dialects: a site folder's layout picks the reader; the pipeline only calls its interface."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import sitegen.dialects
from sitegen.config import SiteConfig
from sitegen.dialects import NATIVE, detect_dialect
from sitegen.errors import Diagnostic
from tests.conftest import build

MakeSite = Callable[..., Path]


@dataclass(frozen=True)
class Braces:
    """A toy dialect: `fake.toml` marks its sites, `{{year}}` expands, any other `{{...}}` is warned about."""

    name: str = "braces"

    def detect(self, site_dir: Path) -> bool:
        return (site_dir / "fake.toml").is_file()

    def load_config(self, site_dir: Path, errors: object = None) -> tuple[SiteConfig, list[Diagnostic]]:
        return SiteConfig(title="Braces site", base_url="https://example.org/"), []

    def date_and_slug(self, source: str) -> tuple[dt.datetime, str] | None:
        day, _, slug = source.rpartition("/")[2].removesuffix(".md").partition("_")
        return (dt.datetime.strptime(day, "%Y%m%d").replace(tzinfo=dt.UTC), slug) if slug else None

    def split_terms(self, text: str) -> list[str] | None:
        return None

    def term_slug(self, name: str) -> str:
        return name.lower()

    def expand(self, body: str, source: str, body_line: int, context: object = None) -> tuple[str, list[Diagnostic]]:
        notes = [Diagnostic("unknown tag", path=f"content/{source}", line=body_line + n)
                 for n, line in enumerate(body.splitlines()) if "{{" in line and "{{year}}" not in line]
        return body.replace("{{year}}", "2024"), notes

    def front_matter(self, source: str, data: dict[str, Any], config: SiteConfig) -> dict[str, Any]:
        return data

    def for_site(self, facts: Any) -> Braces:
        return self


def test_a_folder_without_another_tools_layout_is_read_as_sitegen(tmp_path: Path) -> None:
    assert detect_dialect(tmp_path) is NATIVE
    (tmp_path / "sitegen.yaml").write_text("title: T\n")
    assert detect_dialect(tmp_path) is NATIVE


def test_native_names_follow_jekylls_dated_file_names() -> None:
    assert NATIVE.date_and_slug("2024-03-10-hello.md") == (dt.datetime(2024, 3, 10, tzinfo=dt.UTC), "hello")
    assert NATIVE.date_and_slug("hello.md") is None
    assert NATIVE.expand("{{< x >}}", "a.md", 3) == ("{{< x >}}", [])


def test_adding_a_dialect_is_adding_a_module(make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sitegen.dialects, "DIALECTS", (Braces(), NATIVE))
    site = make_site({"fake.toml": "", "content/posts/20240102_first.md": "---\ntitle: First\n---\n"
                                                                           "Year {{year}}.\n\nAnd {{nope}}.\n"})
    result = build(site)
    page = result.files["posts/first/index.html"].decode()
    assert "Year 2024." in page and "{{year}}" not in page
    assert [(w.path, w.line) for w in result.warnings if w.message == "unknown tag"] == [
        ("content/posts/20240102_first.md", 6)]
    assert result.config.title == "Braces site"
