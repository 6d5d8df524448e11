"""Issue 16 item 4: only kramdown IALs are attributes; no `{...}` paragraph is dropped (kramdown syntax docs)."""

from __future__ import annotations

from sitegen.markdown.render import MarkdownRenderer


def render(text: str) -> str:
    return MarkdownRenderer().render(text).html


def test_liquid_and_brace_paragraphs_stay_visible() -> None:
    assert render("{% raw %}\n\ncode\n\n{% endraw %}\n") == "<p>{% raw %}</p>\n<p>code</p>\n<p>{% endraw %}</p>\n"
    assert "{% highlight python %}" in render("{% highlight python %}\nx = 1\n{% endhighlight %}\n")
    assert render("{foo}\n\npara\n") == "<p>{foo}</p>\n<p>para</p>\n"
    assert render("text\n\n{.warn}\n\nnext\n") == "<p>text</p>\n<p>{.warn}</p>\n<p>next</p>\n"


def test_kramdown_block_ial_after_and_before_a_block() -> None:
    assert render('para\n{: .lead #x key="v"}\n') == '<p class="lead" id="x" key="v">para</p>\n'
    assert render("{: .note}\npara after\n") == '<p class="note">para after</p>\n'
    assert render("- a\n{: .list}\n").startswith('<ul class="list">')
    assert "onclick" not in render('> q\n{: .b onclick="x"}\n')


def test_heading_attributes_still_work() -> None:
    assert render("## Title {#intro .c}\n") == '<h2 id="intro" class="c">Title</h2>\n'
