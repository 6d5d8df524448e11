"""Hugo shortcodes expanded before Markdown: each case as Hugo's documentation writes and renders it."""

from __future__ import annotations

import pytest

from sitegen.dialects.shortcodes import expand_shortcodes
from sitegen.markdown import MarkdownRenderer

PAGES = {"other.md": "/posts/other/", "/about": "/about/", "posts/other.md": "/posts/other/"}


def expand(body: str, **kw: object) -> tuple[str, list[str]]:
    kw.setdefault("resolve_ref", PAGES.get)
    text, notes = expand_shortcodes(body, "content/posts/x.md", 4, **kw)  # type: ignore[arg-type]
    return text, [f"{n.line}: {n.message}" for n in notes]


def render(body: str, **kw: object) -> tuple[str, list[str]]:
    text, notes = expand(body, **kw)
    return MarkdownRenderer().render(text).html, notes


def test_ref_and_relref_with_anchor_inside_a_markdown_link() -> None:
    html, notes = render('[a]({{< ref "other.md#part-2" >}}) [b]({{< relref "/about" >}}) [c]({{< ref "#top" >}})')
    assert '<a href="/posts/other/#part-2">a</a>' in html
    assert '<a href="/about/">b</a>' in html and '<a href="#top">c</a>' in html
    assert notes == []


def test_ref_named_path_argument() -> None:
    assert expand('{{< relref path="other.md" >}}')[0] == "/posts/other/"


def test_missing_ref_keeps_the_link_text_and_warns_on_its_line() -> None:
    html, notes = render('Intro\n\nSee [the post]({{< ref "gone.md" >}}).')
    assert "the post" in html and "{{" not in html
    assert notes == ["6: `ref` to missing page `gone.md`: its link goes nowhere"]


def test_figure_with_every_parameter() -> None:
    html, notes = render(
        '{{< figure src="/img/a.png" link="/img/big.png" target="_blank" rel="noopener" alt="A cat"'
        ' title="Cats" caption="A *sleepy* cat" attr="Ann" attrlink="https://ann.example" width="300"'
        ' height="200" class="wide" >}}\n\nAfter *text*.', site_url=lambda p: "/repo" + p)
    assert ('<figure class="wide"><a href="/repo/img/big.png" target="_blank" rel="noopener">'
            '<img src="/repo/img/a.png" alt="A cat" width="300" height="200"></a>'
            '<figcaption><h4>Cats</h4><p>A <em>sleepy</em> cat<a href="https://ann.example">Ann</a></p>'
            '</figcaption></figure>') in html
    assert "<p>After <em>text</em>.</p>" in html
    assert notes == []


def test_figure_caption_markdown_characters_are_not_read_twice() -> None:
    html, _ = render('A {{< figure src="a.png" title="2 * 3 = $6 <b>" >}} and {{< figure title="*b*" >}}')
    assert "<h4>2 * 3 = $6 &lt;b&gt;</h4>" in html and "<h4>*b*</h4>" in html
    block, _ = render('{{< figure src="a.png" title="2 * 3 = $6 <b>" >}}')
    assert "<h4>2 &#42; 3 = &#36;6 &lt;b&gt;</h4>" in block  # raw HTML: the browser reads the references


def test_highlight_body_is_code_never_live_html() -> None:
    html, notes = render('{{< highlight html "linenos=table,hl_lines=2 3" >}}\n<script>alert(1)</script>\n'
                         '\n<b>bold</b>\n{{< /highlight >}}\n\nafter')
    assert "<script>" not in html and "<b>bold" not in html
    assert "&lt;" in html and 'data-lang="html"' in html
    assert html.count('class="hll"') == 2
    assert "<p>after</p>" in html and notes == []


def test_highlight_keeps_the_line_count() -> None:
    body = '{{< highlight go >}}\nfunc main() {}\n{{< /highlight >}}\n[x](gone.md)'
    text, _ = expand(body)
    assert text.count("\n") == body.count("\n")


def test_youtube_positional_and_named_forms_use_the_privacy_enhanced_player() -> None:
    html, _ = render("{{< youtube w7Ft2ymGmfc >}}\n\n{{< youtube id=\"abc\" title=\"My talk\" autoplay=true >}}")
    assert 'src="https://www.youtube-nocookie.com/embed/w7Ft2ymGmfc"' in html
    assert 'src="https://www.youtube-nocookie.com/embed/abc?autoplay=1" title="My talk"' in html
    assert "youtube.com/" not in html.replace("youtube-nocookie.com/", "")


def test_vimeo_gist_tweet_x_and_instagram() -> None:
    html, notes = render('{{< vimeo 146022717 >}}\n{{< gist spf13 7896402 "img.html" >}}\n'
                         '{{< tweet user="SanDiegoZoo" id="1453110110599868418" >}}\n{{< x user="a" id="9" >}}\n'
                         "{{< tweet 877500564405444608 >}}\n{{< instagram BWNjjyYFxVx >}}")
    assert 'src="https://player.vimeo.com/video/146022717?dnt=1"' in html
    assert 'href="https://gist.github.com/spf13/7896402#file-img-html"' in html
    assert 'href="https://x.com/SanDiegoZoo/status/1453110110599868418"' in html
    assert 'href="https://x.com/a/status/9"' in html and 'href="https://x.com/i/status/877500564405444608"' in html
    assert 'href="https://www.instagram.com/p/BWNjjyYFxVx/"' in html
    assert "<script" not in html and notes == []


def test_param_reads_page_then_site_params_case_insensitively() -> None:
    text, notes = expand('By {{< param author >}}, {{< param "social.github" >}}.',
                         params={"Author": "Ann", "social": {"GitHub": "ann"}})
    assert text == "By Ann, ann." and notes == []
    assert expand("{{< param nope >}}", params={})[1] == ["4: `param nope`: no such parameter in the page's front "
                                                          "matter or the site's params"]


@pytest.mark.parametrize(("written", "kind", "title"), [
    ('{{< notice warning "Careful" >}}\nMind the **gap**.\n{{< /notice >}}', "warning", "Careful"),
    ("{{% notice tip %}}\nMind the **gap**.\n{{% /notice %}}", "tip", "Tip"),
    ('{{< admonition type=danger title="Stop" >}}\nMind the **gap**.\n{{< /admonition >}}', "danger", "Stop"),
    ("{{< callout note >}}\nMind the **gap**.\n{{< /callout >}}", "note", "Note"),
    ("{{% alert warning %}}\nMind the **gap**.\n{{% /alert %}}", "warning", "Warning"),
])
def test_theme_callouts_become_sitegen_callouts_with_markdown_inside(written: str, kind: str, title: str) -> None:
    html, notes = render(written + "\n\nAfter.")
    assert f'<div class="markdown-alert markdown-alert-{kind}">' in html
    assert f'<p class="markdown-alert-title">{title}</p>' in html
    assert "<p>Mind the <strong>gap</strong>.</p>" in html and "<p>After.</p>" in html
    assert notes == []


def test_details_is_a_closed_details_element_with_its_summary() -> None:
    html, _ = render('{{< details summary="See more" >}}\nHidden *text*.\n{{< /details >}}')
    assert "<details" in html and ">See more</summary>" in html and "<em>text</em>" in html and " open" not in html


def test_self_closing_and_nested_shortcodes() -> None:
    html, notes = render('{{< notice note >}}\nSee [x]({{< ref "other.md" >}}).\n\n'
                         '{{< figure src="a.png" />}}\n{{< /notice >}}')
    assert '<a href="/posts/other/">x</a>' in html and '<img src="a.png" alt="">' in html
    assert html.index("markdown-alert-note") < html.index("<figure>") and notes == []


def test_raw_string_and_escaped_quote_arguments() -> None:
    html, _ = render('{{< figure src=`a b.png` title="say \\"hi\\"" >}}')
    assert 'src="a%20b.png"' in html and "say &quot;hi&quot;" in html


def test_escaped_shortcodes_are_shown_as_hugo_shows_them() -> None:
    text, notes = expand('Write {{</* figure src="x.png" */>}} or {{%/* notice */%}}.')
    assert text == 'Write {{< figure src="x.png" >}} or {{% notice %}}.' and notes == []


def test_unknown_shortcode_keeps_its_inner_text_and_warns_once_per_name() -> None:
    html, notes = render("{{< mybox >}}\nInside *box*.\n{{< /mybox >}}\n\n{{< mybox />}}\n{{% other %}}")
    assert "<p>Inside <em>box</em>.</p>" in html and "{{" not in html
    assert [n.split(":")[0] for n in notes] == ["4", "9"]
    assert "`mybox`" in notes[0] and "layouts/shortcodes/mybox.html" in notes[0] and "`other`" in notes[1]


def test_markdown_inside_percent_form_of_an_unknown_shortcode() -> None:
    html, _ = render("{{% center %}}**bold**{{% /center %}}")
    assert "<strong>bold</strong>" in html


def test_unclosed_tag_is_warned_not_silently_shown() -> None:
    text, notes = expand('{{< figure src="a.png"')
    assert notes and "not closed" in notes[0]


def test_an_unclosed_tag_does_not_swallow_the_text_and_tag_after_it() -> None:
    text, notes = expand('{{< figure src="a.png"\nCCC\n\nDDD {{< details summary="S" >}}inner{{< /details >}}')
    assert "CCC" in text and "DDD" in text and "> [!NOTE]- S" in text, text
    assert len(notes) == 1 and "`figure` is not closed" in notes[0], notes


def test_a_page_without_shortcodes_is_returned_as_is() -> None:
    assert expand_shortcodes("{{ not a shortcode }} and {% liquid %}") == ("{{ not a shortcode }} and {% liquid %}",
                                                                           [])


def test_papermod_rawhtml_passes_its_html_through_and_figure_align_center() -> None:
    html, notes = render('{{< rawhtml >}}\n<video src="a.mp4" controls></video>\n{{< /rawhtml >}}\n\n'
                         '{{< figure src="img/a.jpg" align="center" >}}')
    assert '<video src="a.mp4" controls></video>' in html and '<figure class="align-center">' in html
    assert notes == []


def test_hugo_blox_spoiler_and_math() -> None:
    html, notes = render('{{< spoiler text="Show the answer" >}}\n**42**\n{{< /spoiler >}}\n\n'
                         "{{< math >}}\n$$\nx^2\n$$\n{{< /math >}}")
    assert ">Show the answer</summary>" in html and "<strong>42</strong>" in html
    assert '<div class="math block">' in html and notes == []


@pytest.mark.parametrize("body", ['{{< x "' * 20000, "{{< x `" * 20000, "{{<" * 50000, "{{< /a >}}" * 20000,
                                  "{{< a >}}x" * 10000 + "{{< /a >}}" * 10000, "{{</* " * 20000,
                                  "{{< a " * 20000 + '" >}}', "{{< a b= " * 20000])
def test_crafted_pages_expand_in_linear_time_with_few_warnings(body: str) -> None:
    text, notes = expand_shortcodes(body, "content/x.md")  # quadratic parsing would take minutes here
    assert 1 <= len(notes) <= 2


def test_highlight_inside_a_list_item_stays_in_it() -> None:
    html, _ = render("1. Run it:\n   {{< highlight bash >}}\n   echo hi\n   {{< /highlight >}}\n2. Done")
    assert html.count("<ol>") == 1 and "<li>Done</li>" in html
    assert html.index("<li>Run it:") < html.index('class="language-bash"') < html.index("</li>")


def test_hugo_blox_buttons_cards_and_steps() -> None:
    html, notes = render('{{< button url="/contact" >}}Contact Us{{< /button >}}\n\n{{< cards >}}\n'
                         '{{< card url="docs/a" title="Guide" subtitle="Start here" >}}\n{{< /cards >}}\n\n'
                         "{{% steps %}}\n### First\nDo it.\n{{% /steps %}}", site_url=lambda p: "/r" + p)
    assert '<a class="button" href="/r/contact">Contact Us</a>' in html
    assert '<a class="card" href="docs/a"><strong>Guide</strong> <span>Start here</span></a>' in html
    assert "<h3" in html and ">First</h3>" in html and notes == []


def test_without_a_site_refs_stay_the_paths_written() -> None:
    text, notes = expand_shortcodes('[a]({{< ref "posts/x.md#part" >}}) [b]({{< relref "y" >}})')
    assert text == "[a](posts/x.md#part) [b](y)" and notes == []


def test_highlight_without_its_closing_tag_is_a_located_warning() -> None:
    text, notes = expand_shortcodes("Intro\n\n{{< highlight go >}}\nfunc main() {}\n", "content/posts/x.md", 4)
    assert "func main() {}" in text
    assert [(n.line, "no closing" in n.message) for n in notes] == [(6, True)]


@pytest.mark.parametrize("name", ["youtube", "vimeo"])
def test_a_video_without_an_id_is_a_located_warning(name: str) -> None:
    _, notes = expand_shortcodes(f"{{{{< {name} >}}}}\n", "content/posts/x.md", 4)
    assert [(n.line, "without a video id" in n.message) for n in notes] == [(4, True)]
    _, fine = expand_shortcodes(f"{{{{< {name} abc >}}}}\n", "content/posts/x.md", 4)
    assert fine == []
