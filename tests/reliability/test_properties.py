"""Reliability matrix, properties (case 20): any front matter, Markdown or config either parses or raises a
SitegenError with a location; never another exception. (Long fuzz runs: bench/fuzz.py.)"""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.config import SiteConfig, parse_config
from sitegen.content.page import parse_page
from sitegen.content.sources import parse_data_file
from sitegen.errors import SitegenError
from sitegen.markdown import MarkdownRenderer, RenderContext

CFG = SiteConfig()
MD = MarkdownRenderer()
SETTINGS = settings(max_examples=200, deadline=2000, suppress_health_check=[HealthCheck.too_slow])

yaml_scalar = st.one_of(st.text(max_size=20), st.integers(), st.sampled_from(
    ["no", "yes", "on", "1.10", "010", "2024-13-01", "2024-02-30", "2023-02-03T16:49:14+08:00", "~", "null",
     "[unclosed", "{a: b}", "!!python/object/apply:os.system ['x']", "*alias", "&anchor x", "'", '"', ": :"]))
keys = st.sampled_from(["title", "date", "lastmod", "publishDate", "expiryDate", "draft", "summary", "slug", "url",
                        "aliases", "tags", "categories", "layout", "weight", "hidden", "toc", "math", "lang",
                        "images", "x", "url: y"])
front_matter = st.lists(st.tuples(keys, yaml_scalar), max_size=8).map(
    lambda pairs: "".join(f"{k}: {v}\n" for k, v in pairs))
markdown_text = st.text(alphabet=st.sampled_from(list(string.printable) + ["中", "文", "\u200b", "é", "𝔘", "\x00"]),
                        max_size=400)


def assert_located(exc: SitegenError) -> None:
    """Every error names a file (and, for syntax problems, a line)."""
    errors = getattr(exc, "errors", [exc])
    assert all(e.path for e in errors), exc.format()


@SETTINGS
@given(front_matter, markdown_text, st.sampled_from(["---", "+++", ""]))
def test_any_page_parses_or_fails_with_a_location(fm: str, body: str, fence: str) -> None:
    text = f"{fence}\n{fm}{fence}\n{body}" if fence else body
    try:
        parse_page("posts/x.md", text, CFG)
    except SitegenError as exc:
        assert_located(exc)


@SETTINGS
@given(markdown_text)
def test_any_markdown_renders(text: str) -> None:
    result = MD.render(text, RenderContext(source="a.md", resolve_link=lambda h: None if h.endswith(".md") else h))
    assert isinstance(result.html, str)


@SETTINGS
@given(front_matter)
def test_any_config_parses_or_fails_with_a_location(text: str) -> None:
    try:
        parse_config(text, "sitegen.yaml")
    except SitegenError as exc:
        assert_located(exc)


@SETTINGS
@given(front_matter, st.sampled_from(["a.yaml", "b.json", "c.toml"]))
def test_any_data_file_parses_or_fails_with_a_location(text: str, name: str) -> None:
    try:
        parse_data_file(name, text)
    except SitegenError as exc:
        assert_located(exc)
