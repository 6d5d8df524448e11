"""Under the dev server, a layout edit inside some blocks renders only those blocks of each page again and keeps the
rest of the page's last text (`sitegen.blockedits`); an edit where that would not give the same page renders the
page whole. Every result equals a clean build, byte for byte (`Dev.edit`), and the tests say which way each page
was made, so that a check that let a page be made the quick way wrongly fails here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import jinja2
import pytest

from sitegen.blockedits import Splice, render_recorded, template_facts
from sitegen.errors import TemplateError
from sitegen.incremental import rebuild_edited_templates
from sitegen.templates import BlockCalls, Fragments, TrackingEnvironment
from tests.conftest import MINIMAL_LAYOUTS
from tests.serve.test_fragments import Dev, named_files

BASE = ("<html><head><meta name=\"lang\" content=\"中文·ü\">"
        "<title>{% block title %}{{ page.title }}{% endblock %}</title>"
        "{% include 'partials/head.html' %}{% block head %}<meta name=\"x\">{% endblock %}</head><body>"
        "{% block header %}<header>{{ site.title }}</header>{% endblock %}"
        "<main>{% block main %}{% endblock %}</main>{% block footer %}<footer>f</footer>{% endblock %}</body></html>\n")
SINGLE = ("{% extends 'base.html' %}{% block main %}<h1>{{ page.title }}</h1>{% block inner %}<p>inner</p>"
          "{% endblock %}{% include 'partials/meta.html' %}{{ page.content }}{% endblock %}")
SITE = {
    **MINIMAL_LAYOUTS,
    **{f"content/posts/p{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-0{i + 1}\n---\nText {i}.\n" for i in range(3)},
    "content/about.md": "---\ntitle: About\n---\nAbout us.\n",
    "layouts/base.html": BASE,
    "layouts/single.html": SINGLE,
    "layouts/partials/head.html": "<link rel=\"x\" href=\"{{ page.url }}\">",
    "layouts/partials/meta.html": "<p class=\"meta\">{{ page.date | isodate }}</p>",
}
POSTS = {f"posts/p{i}/index.html" for i in range(3)}


class Counted(Dev):
    """`Dev`, counting the posts made by rendering only their edited blocks (`spliced`) in the last edit, and
    those rendered whole around the last texts of their unchanged blocks (`kept`)."""

    spliced = 0
    kept = 0


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> Callable[[dict[str, str]], Counted]:
    """A site (SITE with these files over it) built as the server builds it, counting spliced pages."""

    def make(files: dict[str, str], make_site: Callable[..., Path]) -> Counted:
        dev = Counted(make_site({**SITE, **files}))
        original = Splice.render

        def render(self: Splice, *args: object) -> str:
            if self.entry.source.startswith("posts/p"):
                Counted.spliced += 1
            return original(self, *args)  # type: ignore[arg-type]

        original_kept = Splice.render_kept

        def render_kept(self: Splice, *args: object) -> str:
            if self.entry.source.startswith("posts/p"):
                Counted.kept += 1
            return original_kept(self, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(Splice, "render", render)
        monkeypatch.setattr(Splice, "render_kept", render_kept)
        # These tests make the pages by rendering blocks; an edit of literal texts alone, which most of their edits
        # are, is made in the page's text instead (`Splice.patch`: tests/serve/test_literal_edits.py).
        monkeypatch.setattr(Splice, "patch", lambda self, env, leaf, variables: None)
        return dev

    return make  # type: ignore[return-value]


@pytest.fixture
def site(made: Callable[..., Counted], make_site: Callable[..., Path]) -> Callable[..., Counted]:
    def build(**files: str) -> Counted:
        return made(named_files(**files), make_site)

    return build


def edit(dev: Counted, rel: str, text: str) -> int:
    """Edit a layout, rebuild quickly (equal to a clean build, or `Dev.edit` fails); how many posts were spliced."""
    Counted.spliced = Counted.kept = 0
    result = dev.edit(rel, text)
    assert POSTS <= set(result.rendered or [])
    return Counted.spliced


def test_an_edit_inside_the_post_layouts_main_block_renders_only_that_block(site: Callable[..., Counted]) -> None:
    dev = site()
    assert edit(dev, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>")) == 3
    assert "<h1 class='one'>Post 1</h1>" in dev.page("posts/p1/index.html")


def test_edits_one_after_another_keep_every_blocks_place(site: Callable[..., Counted]) -> None:
    # Texts get longer and shorter, nested and outer blocks, the layout and its parent: each result equals a clean
    # build, which it cannot if one edit recorded a block's place wrongly for the next.
    dev = site()
    single = SINGLE
    # (Non-ASCII text before and in the blocks: places are in characters, the file is UTF-8.)
    for old, new in [("<p>inner</p>", "<p>a much longer inner text, 更长的文字</p>"), ("<h1>", "<h1 class='x'>"),
                     ("a much longer inner text, 更长的文字", "i"), ("<h1 class='x'>", "<h2>")]:
        single = single.replace(old, new)
        assert edit(dev, "layouts/single.html", single) == 3
    base = BASE
    for old, new in [("<footer>f</footer>", "<footer>a longer footer ©</footer>"),
                     ("<meta name=\"x\">", ""), ("<header>", "<header class='h'>")]:
        base = base.replace(old, new)
        assert edit(dev, "layouts/base.html", base) == 3
    assert "<p>i</p>" in dev.page("posts/p2/index.html")
    assert "<footer>a longer footer ©</footer>" in dev.page("posts/p2/index.html")


def test_an_edit_outside_the_blocks_renders_the_page_around_the_blocks_last_texts(
        site: Callable[..., Counted]) -> None:
    dev = site()
    assert edit(dev, "layouts/base.html", BASE.replace("<main>", "<main class='m'>")) == 0
    assert Counted.kept == 3, "every block's text kept, the page rendered around them"
    assert "<main class='m'><h1>Post 0</h1><p>inner</p>" in dev.page("posts/p0/index.html")


def test_edits_outside_and_inside_blocks_one_after_another(site: Callable[..., Counted]) -> None:
    """Blocks moved, added, edited in the same save as the text around them, one save after another (each result
    equals a clean build: a kept text or include put in the wrong place, or kept when it changed, fails it)."""
    dev = site()
    base = BASE
    for old, new in [("<main>", "<main class='m'>"),  # around the blocks only: all kept
                     ("<footer>f</footer>", "<footer>a longer footer ©</footer>"),  # inside one: spliced
                     ("{% block footer %}<footer>a longer footer ©</footer>{% endblock %}</body>",  # moved, and edited
                      "</body>{% block footer %}<footer>g</footer>{% endblock %}"),
                     ("<main class='m'>", "{% block extra %}<aside>{{ page.title }}</aside>{% endblock %}<main>"),
                     ("<title>", "<title lang=\"en\">")]:
        base = base.replace(old, new)
        edit(dev, "layouts/base.html", base)
        assert Counted.spliced + Counted.kept == 3, (old, new)
    page = dev.page("posts/p1/index.html")
    assert "<aside>Post 1</aside><main><h1>Post 1</h1>" in page and page.endswith("</body><footer>g</footer></html>\n")
    single = SINGLE.replace("<h1>", "<h1 class='x'>")
    assert edit(dev, "layouts/single.html", single) == 3
    assert edit(dev, "layouts/base.html", base.replace("<main>", "<main id='m'>")) == 0 and Counted.kept == 3
    assert "<main id='m'><h1 class='x'>Post 2</h1>" in dev.page("posts/p2/index.html")


def test_an_edit_of_a_variable_set_at_the_top_that_a_block_reads_renders_the_page_whole(
        site: Callable[..., Counted]) -> None:
    base = BASE.replace("<html>", "{% set tagline = 'one' %}<html>")
    single = SINGLE.replace("<h1>", "<h1>{{ tagline | default('none') }}")
    dev = site(layouts__base_html=base, layouts__single_html=single)
    edit(dev, "layouts/base.html", base.replace("'one'", "'two'"))
    assert Counted.kept == 0 and "<h1>twoPost 0</h1>" in dev.page("posts/p0/index.html")
    edit(dev, "layouts/base.html", BASE)  # the variable gone: the blocks' last texts were made with it
    assert Counted.kept == 0 and "<h1>nonePost 0</h1>" in dev.page("posts/p0/index.html")


def test_a_block_whose_include_changed_is_made_again_around_kept_blocks(site: Callable[..., Counted]) -> None:
    dev = site()
    edit(dev, "layouts/base.html", BASE.replace("<main>", "<main class='m'>"))
    dev.edit("layouts/partials/meta.html", "<p class=\"meta\">{{ page.date | isodate }} (new)</p>")
    assert "(new)</p>" in dev.page("posts/p0/index.html")
    edit(dev, "layouts/base.html", BASE.replace("<main>", "<main class='n'>"))
    assert Counted.kept == 3 and "(new)</p>" in dev.page("posts/p0/index.html")


def test_a_block_that_reads_a_variable_set_at_the_top_of_a_layout_is_not_made_alone(
        site: Callable[..., Counted]) -> None:
    base = BASE.replace("<html>", "{% set tagline = 'from the top' %}<html>")
    single = SINGLE.replace("<h1>", "<h1>{{ tagline | default('none') }}")
    dev = site(layouts__base_html=base, layouts__single_html=single)
    assert edit(dev, "layouts/single.html", single.replace("<h1>", "<h1 class='e'>")) == 0
    assert "<h1 class='e'>from the top" in dev.page("posts/p0/index.html")


def test_an_include_in_the_block_that_reads_a_top_level_variable_keeps_the_page_whole(
        site: Callable[..., Counted]) -> None:
    base = BASE.replace("<html>", "{% set tagline = 'from the top' %}<html>")
    dev = site(layouts__base_html=base,
               layouts__partials__meta_html="<p class=\"meta\">{{ tagline | default('none') }}</p>")
    assert edit(dev, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='e'>")) == 0
    assert '<p class="meta">from the top</p>' in dev.page("posts/p0/index.html")


def test_a_block_used_through_self_elsewhere_keeps_the_page_whole(site: Callable[..., Counted]) -> None:
    base = BASE.replace("{% include 'partials/head.html' %}", "<meta name=\"og\" content=\"{{ self.title() }}\">")
    single = SINGLE + "{% block title %}T {{ page.title }}{% endblock %}"
    dev = site(layouts__base_html=base, layouts__single_html=single)
    assert edit(dev, "layouts/single.html", single.replace("T {{", "New {{")) == 0
    assert '<meta name="og" content="New Post 0">' in dev.page("posts/p0/index.html")


def test_a_parent_block_edit_reaches_the_childs_super_call(site: Callable[..., Counted]) -> None:
    single = SINGLE + "{% block head %}{{ super() }}<link rel=\"child\">{% endblock %}"
    dev = site(layouts__single_html=single)
    assert edit(dev, "layouts/base.html", BASE.replace("<meta name=\"x\">", "<meta name=\"y\">")) == 3
    assert '<meta name="y"><link rel="child">' in dev.page("posts/p0/index.html")


def test_a_block_captured_by_a_set_keeps_the_page_whole(site: Callable[..., Counted]) -> None:
    base = BASE.replace("<main>", "{% set shout %}{% block shout %}quiet{% endblock %}{% endset %}"
                                  "{{ shout | upper }}<main>")
    single = SINGLE + "{% block shout %}post {{ page.title }}{% endblock %}"
    dev = site(layouts__base_html=base, layouts__single_html=single)
    assert edit(dev, "layouts/single.html", single.replace("post {{", "edited {{")) == 0
    assert "EDITED POST 0<main>" in dev.page("posts/p0/index.html")


@pytest.mark.parametrize(("scoped", "shows", "spliced", "shown"),
                         [("", "page.title", 3, "(Post 0](Post 0]"), (" scoped", "n", 0, "(0](1]")],
                         ids=["made-again-at-each-call", "scoped-keeps-the-page-whole"])
def test_a_block_called_in_a_loop(site: Callable[..., Counted], scoped: str, shows: str, spliced: int,
                                  shown: str) -> None:
    # A scoped block sees the loop's variable, which a fresh context does not have.
    base = BASE.replace("<main>", f"{{% for n in range(2) %}}{{% block rep{scoped} %}}r{{% endblock %}}"
                                  "{% endfor %}<main>")
    single = SINGLE + f"{{% block rep{scoped} %}}[{{{{ {shows} }}}}]{{% endblock %}}"
    dev = site(layouts__base_html=base, layouts__single_html=single)
    assert edit(dev, "layouts/single.html", single.replace("[{{", "({{")) == spliced
    assert f"{shown}<main>" in dev.page("posts/p0/index.html")


def test_an_edited_template_the_block_includes_keeps_the_page_whole(site: Callable[..., Counted]) -> None:
    box = "{% block box %}<div>box</div>{% endblock %}"
    dev = site(layouts__single_html=SINGLE.replace("{{ page.content }}", "{% include 'partials/box.html' %}"
                                                                          "{{ page.content }}"),
               layouts__partials__box_html=box)
    assert edit(dev, "layouts/partials/box.html", box.replace("box</div>", "new box</div>")) == 0
    assert "<div>new box</div>" in dev.page("posts/p0/index.html")


def test_a_layout_that_now_extends_another_keeps_the_page_whole(site: Callable[..., Counted]) -> None:
    dev = site(layouts__other_html=BASE.replace("<html>", "<html class='other'>"))
    assert edit(dev, "layouts/single.html", SINGLE.replace("'base.html'", "'other.html'")) == 0
    assert "<html class='other'>" in dev.page("posts/p0/index.html")


def test_a_layout_that_includes_the_layout_it_extends_keeps_the_page_whole(site: Callable[..., Counted]) -> None:
    base = "<div>{% block box %}box1{% endblock %}{% block main %}{% endblock %}</div>\n"
    dev = site(layouts__base_html=base, layouts__single_html="{% extends 'base.html' %}{% block main %}["
                                                             "{% include 'base.html' %}]{% endblock %}")
    assert edit(dev, "layouts/base.html", base.replace("box1", "box2")) == 0
    assert "<div>box2[<div>box2</div>\n]</div>" in dev.page("posts/p0/index.html")


def test_a_macro_imported_from_the_parent_layout_keeps_the_page_whole(site: Callable[..., Counted]) -> None:
    base = ("<html>{% macro badge() %}<b>{% block badge %}B1{% endblock %}</b>{% endmacro %}{% block main %}"
            "{% endblock %}</html>\n")
    dev = site(layouts__base_html=base, layouts__single_html="{% extends 'base.html' %}{% block main %}"
                                                             "{% from 'base.html' import badge %}{{ badge() }}"
                                                             "<h1>{{ page.title }}</h1>{% endblock %}")
    assert edit(dev, "layouts/base.html", base.replace("B1", "B2")) == 0
    assert "<b>B2</b>" in dev.page("posts/p0/index.html")


def test_a_block_called_before_the_extends_keeps_the_page_whole(site: Callable[..., Counted]) -> None:
    base = BASE.replace("<main>", "{% block pre %}BASEPRE{% endblock %}<main>")
    single = ("{% block pre %}[{% if super is defined %}{{ super() }}{% else %}none{% endif %}]{% endblock %}"
              + SINGLE)
    dev = site(layouts__base_html=base, layouts__single_html=single)
    assert edit(dev, "layouts/single.html", single.replace("[{%", "({%")) == 0
    assert dev.page("posts/p0/index.html").startswith("(none]")


def test_block_calls_record_where_each_blocks_text_is() -> None:
    env = TrackingEnvironment(loader=jinja2.DictLoader({
        "base.html": "<t>{% block title %}T{% endblock %}</t>{% set c %}{% block cap %}C{% endblock %}{% endset %}"
                     "{{ c }}{% block main %}{% endblock %}!",
        "page.html": "{% extends 'base.html' %}{% block main %}A{% block inner %}I{% endblock %}B{% endblock %}"}))
    env.block_calls = BlockCalls()
    text = render_recorded(env, env.get_template("page.html"), {})
    assert text == "<t>T</t>CAIB!"
    assert env.block_calls.found == (("title", 3, 4, 0), ("cap", -1, -1, 0), ("main", 9, 12, 0), ("inner", 10, 11, 1))
    for name, start, end, _ in env.block_calls.found:
        if start >= 0:
            assert text[start:end] == {"title": "T", "main": "AIB", "inner": "I"}[name]


def test_template_facts_tell_the_skeleton_from_the_blocks() -> None:
    env = TrackingEnvironment()
    one = template_facts(env, "a.html", "{% extends 'b.html' %}{% set x = 1 %}{% block m %}<p>{{ y }}</p>"
                                        "{% include 'c.html' %}{% endblock %}")
    two = template_facts(env, "a.html", "{% extends 'b.html' %}{% set x = 1 %}{% block m %}<p>{{ z }}!</p>"
                                        "{% include 'c.html' %}{% endblock %}")
    three = template_facts(env, "a.html", "{% extends 'b.html' %}{% set x = 2 %}{% block m %}{% endblock %}")
    assert one.extends == "b.html" and one.plain
    assert one.skeleton == two.skeleton != three.skeleton
    assert one.bodies["m"] != two.bodies["m"]
    assert one.assigned == {"x"} and one.block_reads == {"y"} and one.block_refs == {"c.html"}
    assert template_facts(env, "d.html", "{% include name %}").refs is None
    assert not template_facts(env, "e.html", "{% if a %}{% extends 'b.html' %}{% endif %}").plain
    assert not template_facts(env, "f.html", "{{ self.m() }}{% block m %}{% endblock %}").plain


def test_a_page_rendered_whole_leaves_its_places_to_the_idle_recorder(site: Callable[..., Counted]) -> None:
    # Recording places costs a whole render ~10%: only a page made from its blocks records them at once.
    dev = site()
    path = dev.site / "layouts/base.html"
    path.write_text(BASE.replace("<main>", "<main class='m'>"), encoding="utf-8")
    quick = rebuild_edited_templates(dev.result, {path}, dev.memo)
    assert quick is not None
    entry = dev.memo.outputs["posts/p0.md"]
    assert entry.blocks is None and not entry.recorded and entry.fragments
    dev.result = quick
    dev.record()
    entry = dev.memo.outputs["posts/p0.md"]
    assert entry.recorded and entry.blocks and [name for name, *_ in entry.blocks][:2] == ["title", "head"]
    assert edit(dev, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='after'>")) == 3


def test_an_include_in_a_block_made_alone_is_reused_from_a_whole_render_and_back(
        site: Callable[..., Counted], monkeypatch: pytest.MonkeyPatch) -> None:
    # The layout sets a variable at its top level, which a block made alone does not have: an include that cannot
    # read it is keyed without it, so that its text is reused both ways (after the idle recorder's whole renders,
    # and by a whole render after a splice).
    rendered: list[str] = []
    original = Fragments._record

    def record(self: Fragments, template: jinja2.Template, name: str, *args: object) -> Iterator[str]:
        rendered.append(name)
        return original(self, template, name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Fragments, "_record", record)
    base = BASE.replace("<html>", "{% set tagline = 'from the top' %}<html>")
    dev = site(layouts__base_html=base)
    rendered.clear()
    assert edit(dev, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>")) == 3
    assert "partials/meta.html" not in rendered
    rendered.clear()
    path = dev.site / "layouts/base.html"
    path.write_text(base.replace("<main>", "<main class='m'>"), encoding="utf-8")
    assert rebuild_edited_templates(dev.result, {path}, dev.memo) is not None
    assert "partials/meta.html" not in rendered


def test_a_layout_that_extends_another_layout_now_renders_the_page_whole(site: Callable[..., Counted]) -> None:
    other = BASE.replace("<header>{{ site.title }}</header>", "<header class='other'>{{ site.title }}</header>")
    dev = site(layouts__other_html=other)
    edit(dev, "layouts/single.html", SINGLE.replace("'base.html'", "'other.html'"))
    assert Counted.kept == 0 and "<header class='other'>" in dev.page("posts/p0/index.html")


def test_a_block_also_called_scoped_inside_a_block_made_again_is_made_again_too(
        site: Callable[..., Counted]) -> None:
    """Its call at the top would be kept, but its scoped calls in `main` (made again: an inner block changed) see
    the loop's variable: every call of it is made (found by a helper session's review)."""
    base = BASE.replace("<main>", "{% block tag %}{% endblock %}<main>")
    single = SINGLE.replace("<h1>", "{% for t in ['a', 'b'] %}{% block tag scoped %}[{{ t | default('') }}]"
                                    "{% endblock %}{% endfor %}<h1>")
    dev = site(layouts__base_html=base, layouts__single_html=single)
    edit(dev, "layouts/single.html", single.replace("<p>inner</p>", "<p>inner2</p>") + " ")
    assert "[a][b]<h1>Post 0</h1><p>inner2</p>" in dev.page("posts/p0/index.html")


@pytest.mark.parametrize("around", [("{% for _ in [0] %}", "{% endfor %}", "1"),
                                    ("{% call(x) m() %}", "{% endcall %}", "5")], ids=["loop", "call"])
def test_a_block_an_edit_makes_scoped_is_made_again(site: Callable[..., Counted], around: tuple[str, str, str]
                                                    ) -> None:
    opening, closing, shown = around
    base = "{% macro m() %}{{ caller(5) }}{% endmacro %}" + BASE.replace(
        "<main>", "{% block extra %}<i>{{ loop.index if loop is defined else x if x is defined else 'no' }}</i>"
                  "{% endblock %}<main>")
    dev = site(layouts__base_html=base)
    edit(dev, "layouts/base.html", base.replace("{% block extra %}", opening + "{% block extra scoped %}")
         .replace("</i>{% endblock %}", "</i>{% endblock %}" + closing))
    assert f"<i>{shown}</i><main>" in dev.page("posts/p0/index.html")


def test_a_block_an_edit_makes_required_fails_as_a_clean_build_does(site: Callable[..., Counted]) -> None:
    base = BASE.replace("<main>", "{% block extra %}{% endblock %}<main>")
    dev = site(layouts__base_html=base)
    path = dev.site / "layouts" / "base.html"
    path.write_text(base.replace("{% block extra %}", "{% block extra required %}"), encoding="utf-8")
    with pytest.raises(TemplateError, match="Required block 'extra' not found"):
        rebuild_edited_templates(dev.result, {path}, dev.memo)  # (not made of the block's last, empty text)
