"""Markdown rendering: GFM extensions, anchors, math, highlighting, raw HTML, summaries, links."""

from __future__ import annotations

import random
import re

from markdown_it.common.normalize_url import normalizeLink

from sitegen.config import MarkdownSettings
from sitegen.markdown import MarkdownRenderer, RenderContext
from sitegen.markdown.render import _plain_line

MD = MarkdownRenderer()


def render(text: str) -> str:
    return MD.render(text).html


def test_gfm_tables_strikethrough_autolinks_tasks() -> None:
    out = render("| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~ https://example.org\n\n- [x] done\n- [ ] todo\n")
    assert "<table>" in out and "<s>gone</s>" in out
    assert '<a href="https://example.org">https://example.org</a>' in out
    assert out.count('type="checkbox"') == 2 and 'checked="checked"' in out


def test_footnotes_deflists_attrs() -> None:
    out = render("Text[^1]\n\nTerm\n: Definition\n\n![x](a.png){.wide}\n\n[^1]: Note\n")
    assert 'class="footnote-ref"' in out and "<dl>" in out and "<dd>Definition</dd>" in out
    assert 'class="wide"' in out


def test_heading_ids_are_stable_unique_and_cjk_safe() -> None:
    result = MD.render("## Intro\n## Intro\n## 深度 学习\n## Custom {#mine}\n")
    assert [t.id for t in result.toc] == ["intro", "intro-1", "深度-学习", "mine"]
    assert '<h2 id="深度-学习">' in result.html
    assert [t.title for t in result.toc][-1] == "Custom"


def test_math_is_kept_intact_for_katex() -> None:
    result = MD.render("Inline $a<b$ and\n\n$$\n\\sum_i x_i\n$$\n\nprice $5 and $10")
    assert "\\(a&lt;b\\)" in result.html and "\\[" in result.html and "\\sum_i x_i" in result.html
    assert "$5 and $10" in result.html
    assert result.has_math


def test_code_is_highlighted_with_css_classes() -> None:
    out = render("```python\ndef f():\n    return 1\n```\n")
    assert '<div class="highlight" data-lang="python">' in out and '<span class="k">def</span>' in out


def test_unknown_language_is_escaped() -> None:
    out = render("```nosuchlang\n<b>x</b>\n```\n")
    assert "&lt;b&gt;x&lt;/b&gt;" in out and 'class="language-nosuchlang"' in out


def test_hugo_code_options() -> None:
    out = render("```python {linenos=true hl_lines=[2]}\na = 1\nb = 2\n```\n")
    assert 'class="linenos"' in out and 'class="hll"' in out


def test_raw_html_is_kept_by_default_and_dropped_when_unsafe_html_is_off() -> None:
    text = '<div id="contact">Mail me</div>\n\n<a href="x"><img src="https://img.shields.io/badge/a-b-c"></a> ok\n'
    kept = render(text)
    assert '<div id="contact">' in kept and "img.shields.io" in kept
    dropped = MarkdownRenderer(MarkdownSettings(unsafe_html=False)).render(text).html
    assert "<div" not in dropped and "<img" not in dropped and "ok" in dropped


def test_jekyll_emphasis() -> None:
    out = render("__bold__ and ***__both__***")
    assert "<strong>bold</strong>" in out and "<em><strong><strong>both</strong></strong></em>" in out


def test_kramdown_markdown_attribute_parses_the_inside_of_an_html_block() -> None:
    text = ('<div id="contact" markdown="1">\n**Email**: [me](mailto:a@b.c)\n<div class="in" markdown="1">\n'
            "## Phone\n</div>\n</div>\n\n<div id=\"raw\">\n**kept**\n</div>\n")
    out = render(text)
    assert out.startswith('<div id="contact">\n<p><strong>Email</strong>: <a href="mailto:a@b.c">me</a></p>\n'
                          '<div class="in">\n<h2 id="phone">Phone</h2>\n</div>\n</div>\n')
    assert '<div id="raw">\n**kept**\n</div>' in out
    assert "markdown=" not in out


def test_more_marker_gives_summary() -> None:
    result = MD.render("First para.\n\n<!--more-->\n\nRest.")
    assert result.summary_html == "<p>First para.</p>"
    assert "<!--more-->" not in result.html and "Rest." in result.html


def test_links_are_recorded_with_file_lines_and_rewritten() -> None:
    ctx = RenderContext(source="a.md", body_line=4, resolve_link=lambda h: None if h == "gone.md" else "/x/")
    result = MD.render("para\n\n[a](a.md) and [g](gone.md)\n", ctx)
    assert 'href="/x/"' in result.html
    assert [(link.href, link.line) for link in result.broken_links] == [("gone.md", 6)]


def test_javascript_links_are_not_linked() -> None:
    assert "href=\"javascript" not in render("[x](javascript:alert(1))")


def test_unsafe_html_off_drops_style_event_attributes_and_script_or_data_links() -> None:
    safe = MarkdownRenderer(MarkdownSettings(unsafe_html=False))
    text = ('[a](https://ok.example/){style="position:fixed;inset:0" data-x="1" .note}\n'
            "[b](data:text/html;base64,PHNjcmlwdD4=) [c](DATA:text/html,x) ![p](data:image/png;base64,AAAA)\n\n"
            "| l | r |\n|:--|--:|\n| 1 | 2 |\n\n- [x] done\n")
    out = safe.render(text).html
    assert "position:fixed" not in out and "data-x" not in out and 'class="note"' in out
    assert "data:text" not in out.lower() and '<img src="data:image/png;base64,AAAA"' in out
    assert '<td style="text-align:right">2</td>' in out  # table alignment is Markdown's own style
    assert '<input class="task-list-item-checkbox" checked="checked" disabled="disabled" type="checkbox">' in out
    trusted = MarkdownRenderer(MarkdownSettings(unsafe_html=True)).render(text).html
    assert "position:fixed" in trusted  # the author's own HTML and attributes, when allowed


TRICKY = ["*x*", "a<b", "&amp;", "[l](u)", "a\\*b\\", "深度 学习，**粗体**。", "trailing  \nspaces",
          "two\n\nparagraphs",
          "www.example.com and (www.example.org/x) awww.example.com wwww.example.com WWW.example.com www.",
          "[www.example.com](/x) *www.example.com* `www.example.com` <www.example.com> www.ex_ample.com",
          "mail me@example.com, http://example.com/a?b=c, www.exa\\mple.com w\nww.example.com w", "wow w ww www"]


def test_text_stops_only_where_www_can_start_with_the_same_output() -> None:
    """The inline text rule stops at `www.`, not at every `w` (gfm_autolink's terminator): same tokens."""
    every_w = MarkdownRenderer()
    every_w.md.inline.terminator_re = re.compile(
        "[" + re.escape("".join(c for c in map(chr, range(128)) if MD.md.inline.terminator_re.fullmatch(c))) + "w]")
    assert not MD.md.inline.terminator_re.fullmatch("w") and every_w.md.inline.terminator_re.fullmatch("w")
    for text in TRICKY:
        assert MD.render(text).html == every_w.render(text).html, text
    assert '<a href="http://www.example.com">www.example.com</a>' in render(TRICKY[8])


def test_plain_summaries_skip_the_parse_with_the_same_html() -> None:
    """`render_summary` writes a line of plain words itself: exactly what the full render makes of it, on tricky
    lines and on random mixes of every ASCII character and some others."""
    assert _plain_line("A simple cache spends most of its time in the type system!")
    assert _plain_line("对于小规模输入，读书会依赖于一个下午的调试！")
    assert _plain_line("Why: it's \"fast\" (mostly) -- 2% + 3 = 5#")
    for text in [*TRICKY, "1. one", "# Title", "- item", "> quote", "A\n===", "Ab\n: def", "a  b", "a ", " a",
                 "a\u3000", "www.example.com", "see www.x.com", "see HTTP://x.com", "mail: a@b.c", "x\\", "a\tb",
                 "A <!--more--> b", "A [^1] b", "A ^[x] b", "A $x$ b", "A \\(x\\) b", "A {.c} b", "A | b", "A ~~b~~",
                 "A &copy;", "A !x", "A ![i](x.png)"]:
        assert MD.render_summary(text) == MD.render(text).html, text
    rnd = random.Random(1)
    pieces = [*map(chr, range(32, 127)), " ", " ", "\t", "\n", "é", "中", "，", "\u3000", "\u00a0", "\u200b", "www.",
              "http:", "Mailto:", "ab", "cd"]
    fast = 0
    for _ in range(4000):
        text = rnd.choice("aZé中") + "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12)))
        fast += _plain_line(text)
        assert MD.render_summary(text) == MD.render(text).html, text
    assert fast > 200  # the fast path was tried on many of them


def test_link_normalization_is_memoized_with_the_same_urls() -> None:
    urls = ["https://例子.com/a b?q=1#x", "/posts/x/", "../a%20b.md", "mailto:Me@Example.COM", "HTTP://X.com/%zz",
            "https://example.com/a b"]
    for url in urls * 2:
        assert MD.md.normalizeLink(url) == normalizeLink(url)
    from sitegen.markdown.render import _PLAIN_URL

    cached = MD.md.normalizeLink.__wrapped__  # type: ignore[attr-defined]  # a plain URL skips it
    assert cached.cache_info().hits >= len([url for url in urls if not _PLAIN_URL.fullmatch(url)])


def test_plain_urls_are_what_normalize_link_gives() -> None:
    """The URLs `_PLAIN_URL` lets skip markdown-it-py's `normalizeLink` are the ones it gives back unchanged."""
    from sitegen.markdown.render import _PLAIN_URL, plain_urls_as_they_are

    rnd = random.Random(11)
    starts = ["", "http://", "https://", "HTTP://", "//", "/", "./", "../", "mailto:", "ftp://"]
    hosts = ["", "example.com", "a-b.c0", "xn--bcher-kva.ch", "Example.COM", "b\u00fccher.de", "-x.y", "a..b", "h"]
    pieces = ["a", "Z", "0", "-", "_", ".", "~", "/", "?", "=", "&", "#", "%20", "%", ":", "@", " ", "\u00e9",
              "[", "]", "'", "(", "!", "*", "+", ",", ";", "$", "..", "//"]
    matched = with_host = 0
    normalize = plain_urls_as_they_are(normalizeLink)
    for _ in range(40_000):
        url = rnd.choice(starts) + rnd.choice(hosts) + "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 8)))
        assert normalize(url) == normalizeLink(url), url
        if _PLAIN_URL.fullmatch(url):
            matched += 1
            with_host += url.startswith("http")
    assert matched > 2_000 and with_host > 500, (matched, with_host)
