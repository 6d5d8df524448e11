"""Template lookup, context and template errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.errors import SitegenError
from tests.conftest import build, html

MakeSite = Callable[..., Path]


def test_layout_front_matter_finds_its_template(make_site: MakeSite) -> None:
    site = make_site({"content/cv.md": "---\nlayout: cv\n---\n", "layouts/cv.html": "CV {{ page.title }}"})
    assert html(build(site), "cv/index.html") == "CV cv"


def test_section_template_before_kind_default(make_site: MakeSite) -> None:
    site = make_site({
        "content/talks/t.md": "---\ntitle: T\n---\n",
        "content/posts/p.md": "---\ntitle: P\n---\n",
        "layouts/talks/single.html": "talk {{ page.title }}",
        "layouts/talks/list.html": "talks list",
    })
    result = build(site)
    assert html(result, "talks/t/index.html") == "talk T"
    assert html(result, "talks/index.html") == "talks list"
    assert "<h1>P</h1>" in html(result, "posts/p/index.html")


def test_missing_layout_falls_back_to_the_kinds_template(make_site: MakeSite) -> None:
    # Was an error; Hugo and Jekyll fall back to the default layout (issue 16 item 1).
    site = make_site({"content/a.md": "---\nlayout: nope\n---\nText\n"})
    assert "Text" in html(build(site), "a/index.html")


def test_template_syntax_error_names_template_line(make_site: MakeSite) -> None:
    site = make_site({"layouts/page.html": "line1\n{% if %}\n", "content/a.md": "x"})
    with pytest.raises(SitegenError) as info:
        build(site)
    assert "layouts/page.html:2" in info.value.format()


def test_undefined_variable_names_template_line_and_page(make_site: MakeSite) -> None:
    site = make_site({"layouts/page.html": "ok\n{{ page.nosuch.deeper }}\n", "content/a.md": "x"})
    with pytest.raises(SitegenError) as info:
        build(site)
    text = info.value.format()
    assert "layouts/page.html:2" in text and "content/a.md" in text and "undefined" in text


def test_filter_exception_names_template(make_site: MakeSite) -> None:
    site = make_site({"layouts/page.html": "\n{{ 'x' | date }}", "content/a.md": "x"})
    with pytest.raises(SitegenError) as info:
        build(site)
    assert "layouts/page.html:2" in info.value.format()


def test_errors_of_all_pages_reported_together(make_site: MakeSite) -> None:
    site = make_site({"layouts/page.html": "{{ page.params.must.x }}", "content/a.md": "x", "content/b.md": "y",
                      "content/c.md": "---\nmust: {x: 1}\n---\n"})
    with pytest.raises(SitegenError) as info:
        build(site)
    text = info.value.format()
    assert "content/a.md" in text and "content/b.md" in text and "content/c.md" not in text


def test_autoescape_is_on(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntitle: <script>x</script>\n---\n", "layouts/page.html": "{{ page.title }}"})
    assert html(build(site), "a/index.html") == "&lt;script&gt;x&lt;/script&gt;"


def test_page_context(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01\ntags: [X]\n---\n## One\n## Two\n\n"
                              + "word " * 300,
        "content/posts/b.md": "---\ntitle: B\ndate: 2024-02-01\n---\n中文" * 1,
        "layouts/single.html": "{{ page.title }}|{{ page.section }}|{{ page.toc | map(attribute='id') | join(',') }}|"
                               "{{ page.word_count }}|{{ page.reading_time }}|"
                               "{{ page.next.title if page.next else '-' }}|"
                               "{{ page.prev.title if page.prev else '-' }}|"
                               "{{ page.tags | map(attribute='name') | join(',') }}|{{ page.permalink }}",
    })
    result = build(site)
    assert html(result, "posts/a/index.html") == "A|posts|one,two|302|2|B|-|X|https://example.org/posts/a/"
    assert html(result, "posts/b/index.html").startswith("B|posts||2|1|-|A|")


def test_home_lists_pages_but_not_hidden_ones(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntitle: Shown\n---\n",
                      "content/b.md": "---\ntitle: Hidden\nhiddenFromHomePage: true\n---\n"})
    home = html(build(site), "index.html")
    assert "Shown" in home and "Hidden" not in home


def test_built_in_methods_called_in_loops_and_blocks_are_called_directly(
        make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    import jinja2.runtime  # noqa: PLC0415 - the class whose slow path is counted

    slow: list[object] = []
    original = jinja2.runtime.Context.call
    monkeypatch.setattr(jinja2.runtime.Context, "call",
                        lambda self, obj, *a, **k: slow.append(obj) or original(self, obj, *a, **k))
    site = make_site({
        "sitegen.yaml": "params:\n  names: {a: Ada, b: Bo}\n",
        "content/a.md": "---\nlayout: t\n---\n",
        "layouts/t.html": (
            "{% set seen = [] %}{% block main %}{% for k in ['a', 'b', 'c'] %}"
            "{{ site.params.names.get(k, '-') }}{% set _ = seen.append(k | upper) %}{% endfor %}{% endblock %}"
            "|{{ seen | join(',') }}|{{ 'x-y'.split('-') | join }}|{{ '+'.join(['p', 'q']) }}"),
    })
    assert html(build(site), "a/index.html") == "AdaBo-|A,B,C|xy|p+q"
    assert not [obj for obj in slow if type(obj).__name__ == "builtin_function_or_method"]


def test_a_character_utf8_cannot_write_names_the_page_and_line(make_site: MakeSite) -> None:
    # A lone surrogate (a template's escape) has no UTF-8 bytes: an error naming the page, not a traceback.
    site = make_site({"layouts/page.html": "ok\n{{ page.title ~ '\\udc80' }}\n", "content/a.md": "x"})
    with pytest.raises(SitegenError) as raised:
        build(site)
    text = raised.value.format()
    assert "content/a.md" in text and "U+DC80" in text and "line 2 of its output" in text
