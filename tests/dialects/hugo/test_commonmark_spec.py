"""CommonMark 0.31.2 and GFM 0.29 spec examples through sitegen's Markdown renderer (Hugo's goldmark passes them
too). Every difference is listed below with its reason: an intended extension or a rendering choice, never a bug
left unexplained. Heading ids and the highlight wrapper are sitegen's additions and are removed before comparing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sitegen.config import MarkdownSettings
from sitegen.markdown import MarkdownRenderer

SPEC = Path(__file__).parent / "spec"
RENDERER = MarkdownRenderer(MarkdownSettings(highlight=False))

COMMONMARK_DIFFERENCES = {
    218: "an empty blockquote is `<blockquote></blockquote>` (markdown-it's rendering; the same document)",
    239: "an empty blockquote is `<blockquote></blockquote>` (markdown-it's rendering; the same document)",
    240: "an empty blockquote is `<blockquote></blockquote>` (markdown-it's rendering; the same document)",
    608: "GFM autolinks (extension): a bare https:// URL is a link",
    611: "GFM autolinks (extension): a bare https:// URL is a link",
    612: "GFM autolinks (extension): a bare e-mail address is a link",
}
GFM_DIFFERENCES = {
    199: "table cells are aligned with `style=\"text-align:…\"` (HTML5; `align` is obsolete)",
    279: "task lists carry markdown-it's classes and `disabled=\"disabled\"`",
    280: "task lists carry markdown-it's classes and `disabled=\"disabled\"`",
    491: "strikethrough is `<s>` (markdown-it), GitHub writes `<del>`",
    628: "`ftp://` is not autolinked (browsers no longer open FTP links)",
    631: "an e-mail address whose local part has `_` is linked from the `_` on (gfm_autolink: emphasis runs first)",
    653: "raw HTML is kept as written, `<title>`, `<style>` and `<xmp>` too (the author's HTML, as in Hugo with "
         "`unsafe = true`); GitHub filters those tags",
}


def _examples(name: str) -> list[dict[str, Any]]:
    return list(json.loads((SPEC / name).read_text(encoding="utf-8")))


def _normalized(html: str) -> str:
    """Without sitegen's own additions: heading ids and the `<div class="highlight">` around code."""
    html = re.sub(r'<(h[1-6]) id="[^"]*"', r"<\1", html)
    return re.sub(r'<div class="highlight"(?: data-lang="[^"]*")?>(<pre>.*?</pre>)</div>', r"\1", html, flags=re.S)


@pytest.mark.parametrize(("name", "differences"), [("commonmark-0.31.2.json", COMMONMARK_DIFFERENCES),
                                                   ("gfm-0.29-extensions.json", GFM_DIFFERENCES)])
def test_spec_examples_pass_or_differ_on_purpose(name: str, differences: dict[int, str]) -> None:
    failing = {ex["number"] for ex in _examples(name)
               if _normalized(RENDERER.render(ex["markdown"]).html) != ex["html"]}
    assert sorted(failing - differences.keys()) == [], "spec examples that fail without a documented reason"
    assert sorted(differences.keys() - failing) == [], "listed differences that now pass: remove them from the list"


def test_fence_info_strings_decode_escapes_and_entities_as_the_spec_says() -> None:
    assert 'class="language-foo+bar"' in RENDERER.render("``` foo\\+bar\nfoo\n```\n").html
    assert 'class="language-föö"' in RENDERER.render("``` f&ouml;&ouml;\nfoo\n```\n").html


def test_highlighted_code_keeps_its_language_class() -> None:
    html = MarkdownRenderer().render("```python\nx = 1\n```\n").html
    assert '<code class="language-python">' in html and 'class="n"' in html
