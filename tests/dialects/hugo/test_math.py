"""Math found in a page's content is rendered, and KaTeX loaded, without `math: true` (PaperMod and al-folio
authors write `$$...$$`, `\\[...\\]` and `\\(...\\)` and expect formulas); prices are never math."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.markdown import MarkdownRenderer
from tests.conftest import html
from tests.dialects.hugo.site import build_hugo


@pytest.mark.parametrize(("text", "expected"), [
    ("Euler: \\(e^{i\\pi} + 1 = 0\\).", '<span class="math inline">\\(e^{i\\pi} + 1 = 0\\)</span>'),
    ("\\[\n\\int_0^1 x\\,dx\n\\]", '<span class="math display">\\[\\int_0^1 x\\,dx\\]</span>'),
    ("$$\na^2 + b^2 = c^2\n$$", '<div class="math block">\n\\[a^2 + b^2 = c^2\\]\n</div>'),
    ("Inline $$x^2$$ here.", '<span class="math display">\\[x^2\\]</span>'),
])
def test_latex_delimiters_are_math(text: str, expected: str) -> None:
    rendered = MarkdownRenderer().render(text)
    assert expected in rendered.html and rendered.has_math


@pytest.mark.parametrize("text", ["It costs $5 and $10.", "Prices: $20/$30, and $HOME or $PATH.",
                                  "See \\[1\\] and \\[citation needed\\].", "`\\(x\\)` is code"])
def test_prices_escaped_brackets_and_code_are_not_math(text: str) -> None:
    rendered = MarkdownRenderer().render(text)
    assert not rendered.has_math and "math" not in rendered.html


def test_katex_is_loaded_only_by_pages_with_math(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/posts/euler.md": "---\ntitle: Euler\n---\nWe have \\(e^{i\\pi}=-1\\) and\n\n$$\nx^2\n$$\n",
        "content/posts/shop.md": "---\ntitle: Shop\n---\nIt costs $5 and $10.\n",
        "content/posts/off.md": "---\ntitle: Off\nmath: false\n---\n$$\nx\n$$\n",
    })
    assert "katex.min.js" in html(result, "posts/euler/index.html")
    shop = html(result, "posts/shop/index.html")
    assert "katex" not in shop and "$5 and $10" in shop
    assert "katex.min.js" not in html(result, "posts/off/index.html")
