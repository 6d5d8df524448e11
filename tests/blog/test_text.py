"""Summaries, word counts and reading times for English, Chinese and mixed text; toc; math assets."""

from __future__ import annotations

import html as html_module
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from sitegen.content.text import (
    count_words,
    index_terms,
    minutes_to_read,
    packed_term_weights,
    plain_text,
    plain_words,
    search_text,
    term_weights,
    text_stats,
    truncate_words,
    unpack_term_weights,
)
from tests.conftest import build, html

MakeSite = Callable[..., Path]


def test_mixed_paragraph_word_count_is_pinned() -> None:
    text = "PyTorch 的 DataLoader 很快。We measured it twice, 结果一致。"
    assert count_words(text) == (6, 7)
    assert sum(count_words(text)) == 13


def test_reading_time() -> None:
    assert minutes_to_read(*count_words("word " * 440)) == 2
    assert minutes_to_read(*count_words("字" * 800)) == 2
    assert minutes_to_read(*count_words("")) == 1


def test_truncate_counts_cjk_characters_as_words() -> None:
    assert truncate_words("一二三四五六", 3) == "一二三…"
    assert truncate_words("one two three four", 2) == "one two…"
    assert truncate_words("short", 5) == "short"


def test_summaries_front_matter_more_and_automatic(make_site: MakeSite) -> None:
    site = make_site({
        "sitegen.yaml": "summary_length: 5\n",
        "content/posts/fm.md": "---\nsummary: Given *here*\n---\nbody",
        "content/posts/more.md": "Before.\n\n<!--more-->\n\nAfter.",
        "content/posts/auto.md": "one two three four five six seven &amp; <b>bold</b>",
        "content/posts/zh.md": "这是一个很长的中文句子用来测试摘要",
        "layouts/single.html": "{{ page.summary }}",
    })
    result = build(site)
    assert html(result, "posts/fm/index.html") == "<p>Given <em>here</em></p>\n"
    assert html(result, "posts/more/index.html") == "<p>Before.</p>"
    assert html(result, "posts/auto/index.html") == "<p>one two three four five…</p>"
    assert html(result, "posts/zh/index.html") == "<p>这是一个很…</p>"


def test_summary_never_cuts_an_entity(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "summary_length: 2\n", "content/a.md": "a &amp; b &lt; c",
                      "layouts/page.html": "{{ page.summary }}"})
    assert html(build(site), "a/index.html") == "<p>a &amp;…</p>"


def test_more_marker_inside_a_paragraph_leaves_no_tag_open(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "Intro *stressed <!--more--> words* go on.\n\nMore.\n",
                      "content/b.md": "<div class=\"box\">\n\nBoxed <!--more--> text\n\n</div>\n",
                      "layouts/page.html": "{{ page.summary }}|{{ page.content }}"})
    result = build(site)
    assert html(result, "a/index.html").startswith("<p>Intro <em>stressed</em></p>|<p>Intro <em>stressed  words")
    assert html(result, "b/index.html").startswith('<div class="box">\n<p>Boxed</p></div>|')


def test_reading_time_of_chinese_english_and_mixed_posts(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/en.md": "word " * 660,
        "content/posts/zh.md": "字" * 1200,
        "content/posts/mix.md": "word " * 220 + "字" * 400,
        "layouts/single.html": "{{ page.word_count }}/{{ page.reading_time }}",
    })
    result = build(site)
    assert html(result, "posts/en/index.html") == "660/3"
    assert html(result, "posts/zh/index.html") == "1200/3"
    assert html(result, "posts/mix/index.html") == "620/2"


def test_toc_from_h2_to_h4_with_anchor_ids(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntoc: true\n---\n# Top\n## Two\n### Three\n#### Four\n##### Five\n",
                      "layouts/page.html": "{{ page.toc_enabled }}:{% for h in page.toc %}{{ h.level }}#{{ h.id }} "
                                           "{% endfor %}{{ page.content }}"})
    out = html(build(site), "a/index.html")
    assert out.startswith("True:2#two 3#three 4#four ")
    assert '<h2 id="two">' in out


def test_config_toc_default_applies_unless_a_page_says_no(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "toc: true\n", "content/a.md": "## One\n",
                      "content/b.md": "---\ntoc: false\n---\n## One\n", "layouts/page.html": "{{ page.toc_enabled }}"})
    result = build(site)
    assert (html(result, "a/index.html"), html(result, "b/index.html")) == ("True", "False")


def test_math_pages_load_katex_and_others_do_not(make_site: MakeSite) -> None:
    site = make_site({"content/m.md": "---\nmath: true\n---\n$x$", "content/p.md": "plain"}, layouts=False)
    result = build(site)
    assert "katex.min.js" in html(result, "m/index.html")
    assert "katex" not in html(result, "p/index.html")
    assert "katex/katex.min.js" in result.files and "katex/fonts/KaTeX_Main-Regular.woff2" in result.files


def test_auto_math_detection_from_config(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "markdown: {math: true}\n", "content/m.md": "$x$", "content/p.md": "$5"},
                     layouts=False)
    result = build(site)
    assert "katex.min.js" in html(result, "m/index.html") and "katex" not in html(result, "p/index.html")


def test_dates_formatted_for_the_page_language(make_site: MakeSite) -> None:
    site = make_site({"content/posts/zh.md": "---\ndate: 2024-03-10\nlang: zh\n---\n",
                      "content/posts/en.md": "---\ndate: 2024-03-10\n---\n"}, layouts=False)
    result = build(site)
    assert "2024年3月10日" in html(result, "posts/zh/index.html")
    assert "March 10, 2024" in html(result, "posts/en/index.html")


_PIECES = ["ab", "_", "1", " ", "\t", "\n", ".", ",", "!", "-", "'", '"', "(", "*", "<", ">", "/", "&", ";", "你", "好",
           "。", "，", "\u3000", "Ａ", "é", "e\u0301", "٣", "<p>", "</P>", "<span class=\"k\">", "</span>", "<br/>",
           "<hr>", "<td>", "<th x>", "<dt>", "<dl>", "<ol>", "<h7>", "<h2 id=a>", "<figure>", "<figcaption>", "<pre>",
           "<tbody>", "<dfn>", "<tr>", "<DIV class=x>", "<section>", "<sup>", "&amp;", "&lt;", "&#20320;", "x" * 45,
           "<d\u0130v>", "<\u017fection>", "<bloc\u212aquote>", "<l\u0131>", "<Figcaption>", "<\u017fpan>", "!!", "--"]


def _old_plain_text(fragment: str) -> str:
    tags = re.compile(r"<[^>]*>", re.S)
    block = re.compile(r"</?(?:p|div|li|ul|ol|dl|dt|dd|h[1-6]|pre|blockquote|table|tr|td|th|section|br|hr|figure|"
                       r"figcaption)\b[^>]*>", re.I)
    end = fragment.rfind(">") + 1
    return html_module.unescape(tags.sub("", block.sub(" ", fragment[:end])) + fragment[end:])


def _old_term_weights(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for term in index_terms(text):
        counts[term] = counts.get(term, 0) + 1
    return {term: min(count, 7) for term, count in counts.items()}


def test_plain_text_words_and_terms_match_their_plain_definitions() -> None:
    """The faster tag patterns and counting give what the plain definitions give (old code kept here as the
    reference), on random mixes of tags, entities, punctuation, CJK and long words."""
    rnd = random.Random(20)
    texts = ["".join(rnd.choice(_PIECES) for _ in range(rnd.randint(0, 40))) for _ in range(3000)]
    for text in texts:
        assert plain_text(text) == _old_plain_text(text), text
        words = re.findall(r"[^\s\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
                           r"\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]+", text)
        assert count_words(text)[0] == sum(1 for w in words if not re.match(r"^\W+$", w)), text
        assert count_words(text)[1] == len(re.findall(r"[\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3190-\u31ff"
                                                      r"\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
                                                      r"\U00020000-\U0003134f]", text)), text
        weights = _old_term_weights(text)
        assert term_weights(text) == weights and list(term_weights(text)) == list(weights), text
        assert packed_term_weights(text) == " ".join(f"{term}{weight}" for term, weight in weights.items()), text
        assert unpack_term_weights(packed_term_weights(text)) == weights


def test_text_stats_are_plain_words_and_the_packed_search_terms() -> None:
    """The render workers' one pass (`text_stats`, the CJK runs found once) gives what `plain_words` and the packed
    weights of the search text give, math or none."""
    rnd = random.Random(21)
    pieces = [*_PIECES, "\\(x\\)", "\\[中文\\]", "中文字", "字", "ÀB", "\u0130"]
    for _ in range(3000):
        fragment = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 40)))
        text, words = plain_words(fragment)
        assert text_stats(fragment) == (text, words, packed_term_weights(search_text(text, collapsed=True))), fragment
        assert text_stats(fragment, terms=False) == (text, words, None), fragment


def test_lowercasing_changes_no_cjk_character_and_makes_none() -> None:
    """`text_stats` finds the CJK runs of the text and uses them as the lowercased text's: the same over all of
    Unicode."""
    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    cjk = re.compile(r"[\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
                     r"\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]+")
    assert cjk.findall(every.lower()) == cjk.findall(every)


def test_a_long_run_of_punctuation_is_counted_in_linear_time() -> None:
    """The word pattern starts only where a run of non-space characters does: 200,000 `!` took it 0.02 s (from each
    `!` it would read to the run's end: hours). Run apart, so that a relapse fails instead of hanging."""
    code = "from sitegen.content.text import count_words\nassert count_words('!' * 200_000 + ' a') == (1, 0)\n"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_collapsed_text_without_math_is_its_own_search_text() -> None:
    """The render workers skip `search_text` on a page's plain text (whitespace collapsed) when it has no math."""
    rnd = random.Random(7)
    pieces = [*_PIECES, "\\(x\\)", "\\[", "\u2003", "\u00a0"]
    for _ in range(2000):
        text = " ".join("".join(rnd.choice(pieces) for _ in range(12)).split())
        assert search_text(text, collapsed=True) == search_text(text), text
        if "\\(" not in text and "\\[" not in text:
            assert search_text(text) == text, text
        else:
            assert search_text(search_text(text)) == search_text(text)
