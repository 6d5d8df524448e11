"""Issue 16 item 17: GitHub alerts and Obsidian callouts render as GitHub renders them (GitHub docs: "Alerts";
Obsidian help: "Callouts", foldable `-`/`+`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.markdown.render import MarkdownRenderer

THEME_CSS = Path(__file__).parents[2] / "themes/default/static/css/main.css"


def render(text: str) -> str:
    return MarkdownRenderer().render(text).html


@pytest.mark.parametrize("kind", ["NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"])
def test_github_alerts(kind: str) -> None:
    assert render(f"> [!{kind}]\n> Useful *information*.\n") == (
        f'<div class="markdown-alert markdown-alert-{kind.lower()}">\n'
        f'<p class="markdown-alert-title">{kind.capitalize()}</p>\n<p>Useful <em>information</em>.</p>\n</div>\n')
    assert f".markdown-alert-{kind.lower()}" in THEME_CSS.read_text(encoding="utf-8")


def test_custom_title_and_foldable_callouts() -> None:
    assert '<p class="markdown-alert-title">Read <code>this</code></p>\n<p>Text</p>\n<p>More</p>' in render(
        "> [!IMPORTANT] Read `this`\n> Text\n>\n> More\n")
    assert render("> [!warning]-\n> hidden\n") == (
        '<details class="markdown-alert markdown-alert-warning">\n'
        '<summary class="markdown-alert-title">Warning</summary>\n<p>hidden</p>\n</details>\n')
    assert render("> [!TIP]+ Open\n> x\n").startswith('<details class="markdown-alert markdown-alert-tip" open="">')


def test_other_blockquotes_stay_blockquotes() -> None:
    assert render("> [!NOPE]\n> x\n") == "<blockquote>\n<p>[!NOPE]\nx</p>\n</blockquote>\n"
    assert render("> quote\n") == "<blockquote>\n<p>quote</p>\n</blockquote>\n"
