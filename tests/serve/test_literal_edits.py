"""Under the dev server, an edit of a layout that changes only its literal text (markup, not `{{ }}` or `{% %}`)
is made in each page's last text, at the places where the render put that text (`sitegen.blockedits.Splice.patch`),
without rendering. Every result equals a clean build byte for byte (`Dev.edit`), and each test says how many posts
were made that way, so that a check that lets a page be patched wrongly, or never, fails here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import pytest

from sitegen.blockedits import Splice, template_facts
from sitegen.errors import SitegenError
from sitegen.incremental import rebuild_edited_templates
from sitegen.templates import Literal, TrackingEnvironment
from tests.conftest import MINIMAL_LAYOUTS
from tests.serve.test_fragments import Dev, named_files

BASE = ("<html><head><meta name=\"lang\" content=\"中文·ü\">"
        "<title>{% block title %}{{ page.title }}{% endblock %}</title>"
        "{% include 'partials/head.html' %}{% block head %}<meta name=\"x\">{% endblock %}</head><body>"
        "{% block header %}<header>{{ site.title }}</header>{% endblock %}"
        "<main>{% block main %}{% endblock %}</main>{% block footer %}<footer>f</footer>{% endblock %}</body></html>\n")
SINGLE = ("{% extends 'base.html' %}{% block main %}<h1>{{ page.title }}</h1>{% block inner %}<p>inner</p>"
          "{% endblock %}{% include 'partials/meta.html' %}"
          "<ul>{% for tag in page.tags %}<li class=\"tag\">{{ tag.name }}</li>{% endfor %}</ul>"
          "{% if page.params.get('note') %}<aside>note</aside>{% endif %}{{ page.content }}{% endblock %}")
SITE = {
    **MINIMAL_LAYOUTS,
    # Posts with zero, one and two tags (a literal text in a loop is output that many times), one with a note.
    **{f"content/posts/p{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-0{i + 1}\ntags: {['a', 'b'][:i]}\n"
                                 f"{'note: yes' if i == 1 else ''}\n---\nText {i} ünïcode.\n" for i in range(3)},
    "content/about.md": "---\ntitle: About\n---\nAbout us.\n",
    "layouts/base.html": BASE,
    "layouts/single.html": SINGLE,
    "layouts/partials/head.html": "<link rel=\"x\" href=\"{{ page.url }}\">",
    "layouts/partials/meta.html": "<p class=\"meta\">{{ page.date | isodate }}</p>",
}
POSTS = {f"posts/p{i}/index.html" for i in range(3)}


class Counts:
    """How the posts of the last edit were made: patched, or by rendering their edited blocks."""

    patched = 0
    spliced = 0


@pytest.fixture
def site(make_site: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Dev]:
    """A site (SITE with these files over it, `a__b_html` for `a/b.html`) built as the server builds it."""
    patch, render = Splice.patch, Splice.render

    def counted_patch(self: Splice, env: TrackingEnvironment, leaf: str, variables: dict[str, object]
                      ) -> bytes | None:
        text = patch(self, env, leaf, variables)
        if text is not None and self.entry.source.startswith("posts/p"):
            Counts.patched += 1
        return text

    def counted_render(self: Splice, *args: object) -> str:
        if self.entry.source.startswith("posts/p"):
            Counts.spliced += 1
        return render(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Splice, "patch", counted_patch)
    monkeypatch.setattr(Splice, "render", counted_render)

    def build(**files: str) -> Dev:
        return Dev(make_site({**SITE, **named_files(**files)}))

    return build


def edit(dev: Dev, rel: str, text: str) -> int:
    """Edit a layout, rebuild quickly (equal to a clean build, or `Dev.edit` fails); how many posts were patched."""
    Counts.patched = Counts.spliced = 0
    result = dev.edit(rel, text)
    assert POSTS <= set(result.rendered or [])
    return Counts.patched


def edits_in_turn(dev: Dev, steps: list[tuple[str, Any, Any, int]]) -> Dev:
    """Make each edit (layout, text or texts, new text or texts, how many posts are patched), SINGLE and BASE the
    layouts' first texts: each result equals a clean build, and the other posts are made from their blocks."""
    texts = {"layouts/single.html": SINGLE, "layouts/base.html": BASE}
    for rel, old, new, patched in steps:
        for one, other in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,))), strict=True):
            texts[rel] = texts[rel].replace(one, other)
        assert edit(dev, rel, texts[rel]) == patched, (old, new)
        assert Counts.spliced == 3 - patched, (old, new)
    return dev


def test_an_edit_of_literal_text_in_a_block_is_made_in_the_pages_text(site: Callable[..., Dev]) -> None:
    dev = site()
    assert edit(dev, "layouts/single.html", SINGLE.replace("<h1>", "<h1 class=\"title\">")) == 3
    assert Counts.spliced == 0
    assert "<h1 class=\"title\">Post 2</h1>" in dev.page("posts/p2/index.html")


def test_edits_one_after_another_keep_every_place(site: Callable[..., Dev]) -> None:
    # Longer and shorter, before and after non-ASCII text (places are in characters, the file is UTF-8), in a
    # loop (each of its outputs), in a branch some pages take, in the parent layout outside its blocks, in a
    # nested block; each result equals a clean build, which it cannot if one edit moved a place wrongly.
    dev = site()
    single = SINGLE
    for old, new in [("<li class=\"tag\">", "<li class=\"tag t\">«"), ("</li>", "»</li>"),
                     ("<aside>note</aside>", "<aside class=\"n\">a longer note, 更长</aside>"),
                     ("<p>inner</p>", "<p>i</p>"), ("<li class=\"tag t\">«", "<li>")]:
        single = single.replace(old, new)
        assert edit(dev, "layouts/single.html", single) == 3, (old, new)
    base = BASE
    for old, new in [("<main>", "<main class=\"m\">"), ("</head><body>", "</head>\n<body class=\"b\">"),
                     ("<footer>f</footer>", "<footer>a longer footer ©</footer>")]:
        base = base.replace(old, new)
        assert edit(dev, "layouts/base.html", base) == 3, (old, new)
    page = dev.page("posts/p2/index.html")
    assert "<ul><li>a»</li><li>b»</li></ul>" in page and "<main class=\"m\"><h1>Post 2</h1><p>i</p>" in page
    assert "<aside class=\"n\">a longer note, 更长</aside>" in dev.page("posts/p1/index.html")


def test_literal_edits_and_rendered_blocks_alternate(site: Callable[..., Dev]) -> None:
    # A block made again by an edit of its code records the places of its literal texts and moves the others; the
    # next literal edit uses them (inside the block, after it, between two blocks made again), and the other way.
    dev = edits_in_turn(site(), [
            ("layouts/single.html", "<h1>", "<h1 class=\"a\">", 3),
            ("layouts/single.html", "<p>inner</p>", "<p>«{{ page.title | upper }}{{ page.title * 3 }}</p>", 0),
            ("layouts/single.html", "</ul>", "</ul>\n", 3),  # after the block made again, inside its parent
            ("layouts/single.html", "* 3 }}</p>", "* 3 }}</p> ", 3),  # in it, after what it made longer
            ("layouts/base.html", "<footer>f</footer>", "<footer>g</footer>", 3),  # after it, in the parent layout
            ("layouts/base.html", ("<meta name=\"x\">", "<footer>g</footer>"),  # two blocks in one save
             ("<meta name=\"{{ page.title }}\">", "<footer>{{ page.title }}</footer>"), 0),
            ("layouts/base.html", "<main>", "<main class=\"m\">", 3),  # between two blocks made again
            ("layouts/base.html", "</body>", "</body>\n", 3),
            ("layouts/single.html", "{{ page.title }}</h1>", "{{ page.title }}!</h1>", 3),
            ("layouts/single.html", "<ul>", "<ul data-n=\"{{ page.tags | length }}\">", 0),
            ("layouts/single.html", "</h1>", "</h1>\n", 3)])
    page = dev.page("posts/p0/index.html")
    assert "<main class=\"m\"><h1 class=\"a\">Post 0!</h1>\n<p>«POST 0Post 0Post 0Post 0</p> " in page
    assert page.endswith("<footer>Post 0</footer></body>\n</html>\n")


def test_edits_that_are_not_of_literal_texts_and_expressions_alone_render(site: Callable[..., Dev]) -> None:
    dev = site()
    single = SINGLE
    # An expression added (the output tag's code changes), a constant in an expression (folded into the literal
    # text around it by Jinja): the blocks are rendered.
    for old, new in [("{{ page.title }}</h1>", "{{ 'x' }}{{ page.title }}</h1>"), ("{{ 'x' }}", "{{ 'y' }}")]:
        single = single.replace(old, new)
        assert edit(dev, "layouts/single.html", single) == 0, (old, new)
        assert Counts.spliced == 3, (old, new)
    assert "<h1>yPost 1</h1>" in dev.page("posts/p1/index.html")
    # An included template's text is not a layout's: rendered (its include made again, the rest kept).
    assert edit(dev, "layouts/partials/meta.html", "<p class=\"meta m\">{{ page.date | isodate }}</p>") == 0
    assert "<p class=\"meta m\">" in dev.page("posts/p0/index.html")


def test_an_edit_of_an_expression_between_literal_texts_is_made_in_the_pages_text(site: Callable[..., Dev]
                                                                                  ) -> None:
    # Each expression is rendered alone with the page's variables and put where the last one's text was: in a
    # block, in a branch some pages take (p1 has a note), in the parent layout outside its blocks, with non-ASCII
    # text before and after it (places in characters, the file in UTF-8), two in one output tag, one after
    # another; each result equals a clean build.
    dev = edits_in_turn(site(), [
            ("layouts/single.html", "{{ page.title }}</h1>", "{{ page.title | upper }}</h1>", 3),
            ("layouts/single.html", "{{ page.title | upper }}", "{{ page.title ~ ' «ü»' }}", 3),
            ("layouts/single.html", "<aside>note</aside>", "<aside>{{ page.params.get('note') }} 更</aside>", 0),
            ("layouts/single.html", "{{ page.params.get('note') }}", "{{ page.params.get('note') | upper }}", 3),
            ("layouts/base.html", "<header>{{ site.title }}</header>",
             "<header>{{ site.title }}, {{ page.title }}</header>", 0),
            ("layouts/base.html", "{{ site.title }}, {{ page.title }}", "{{ site.title | length }}, {{ page.url }}",
             3),
            ("layouts/base.html", ("<header>", "{{ page.url }}"), ("<header class=\"h\">", "{{ page.url | upper }}"),
             3),
            ("layouts/single.html", "{{ page.title ~ ' «ü»' }}", "{{ '' if page.title == 'Post 1' else page.title }}",
             3),
            ("layouts/single.html", "{{ '' if page.title == 'Post 1' else page.title }}", "{{ page.title }}", 3)])
    page = dev.page("posts/p1/index.html")
    assert "<aside>YES 更</aside>" in page and ", /POSTS/P1/</header>" in page and "<h1>Post 1</h1>" in page


@pytest.mark.parametrize("layout, old, new", [
    # A loop's variable; a name the layout sets (in the block, or at its top level); a macro's.
    ("{% extends 'base.html' %}{% block main %}{% for t in page.tags %}<i>{{ t.name }}</i>{% endfor %}"
     "{% endblock %}", "{{ t.name }}", "{{ t.name | upper }}"),
    ("{% extends 'base.html' %}{% block main %}<i>{{ loop is defined }}</i>{% endblock %}",
     "{{ loop is defined }}", "{{ loop is not defined }}"),
    ("{% extends 'base.html' %}{% block main %}{% set x = page.title %}<i>{{ x }}</i>{% endblock %}",
     "{{ x }}", "{{ x | upper }}"),
    ("{% extends 'base.html' %}{% set x = 'top' %}{% block main %}<i>{{ x }}</i>{% endblock %}",
     "{{ x }}", "{{ x | upper }}"),
    ("{% extends 'base.html' %}{% macro m(v) %}<i>{{ v }}</i>{% endmacro %}{% block main %}{{ m(1) }}{% endblock %}",
     "{{ v }}", "{{ v + 1 }}"),
    # `with`, a filter block, a call block: another scope, or a captured text.
    ("{% extends 'base.html' %}{% block main %}{% with y = 2 %}<i>{{ page.title }}</i>{% endwith %}{% endblock %}",
     "{{ page.title }}", "{{ page.title | upper }}"),
    ("{% extends 'base.html' %}{% block main %}{% filter upper %}<i>{{ page.title }}</i>{% endfilter %}"
     "{% endblock %}", "{{ page.title }}", "{{ page.title ~ '!' }}"),
    # Not between two literal texts of its output tag.
    ("{% extends 'base.html' %}{% block main %}<i>{{ page.title }}{% endblock %}", "{{ page.title }}",
     "{{ page.title | upper }}"),
    ("{% extends 'base.html' %}{% block main %}{{ page.title }}<i></i>{% endblock %}", "{{ page.title }}",
     "{{ page.title | upper }}"),
])
def test_expressions_that_depend_on_where_they_are_render(site: Callable[..., Dev], layout: str, old: str,
                                                          new: str) -> None:
    dev = site(layouts__single_html=layout)
    assert edit(dev, "layouts/single.html", layout.replace(old, new)) == 0


def test_an_expression_edit_that_reads_another_page_follows_its_edits(site: Callable[..., Dev]) -> None:
    # The pages read by the expression made alone are the page's reads: an edit of the page it names makes it again.
    layout = "{% extends 'base.html' %}{% block main %}<p>{{ page.title }}</p>{% endblock %}"
    dev = site(layouts__single_html=layout)
    assert edit(dev, "layouts/single.html", layout.replace(
        "{{ page.title }}", "{{ page.prev.content if page.prev else '-' }}")) == 3
    dev.edit("content/posts/p0.md", SITE["content/posts/p0.md"].replace("Text 0", "New text"))
    assert "New text" in dev.page("posts/p1/index.html")


def test_an_expression_that_fails_on_a_page_is_reported_as_a_render_reports_it(site: Callable[..., Dev]) -> None:
    layout = "{% extends 'base.html' %}{% block main %}<p>{{ page.title }}</p>{% endblock %}"
    dev = site(layouts__single_html=layout)
    (dev.site / "layouts/single.html").write_text(layout.replace("page.title", "page.params.nothing.x"),
                                                  encoding="utf-8")
    with pytest.raises(SitegenError) as raised:
        rebuild_edited_templates(dev.result, {dev.site / "layouts/single.html"}, dev.memo)
    assert "layouts/single.html:1: undefined variable: 'None' has no attribute 'x'" in str(raised.value)


@pytest.mark.parametrize("layout, old, new", [
    # Literal text in a macro, a `{% set %}` block or a filter block is captured, not output straight.
    ("{% extends 'base.html' %}{% macro m() %}<b>m</b>{% endmacro %}{% block main %}{{ m() }}{% endblock %}",
     "<b>m</b>", "<b>n</b>"),
    ("{% extends 'base.html' %}{% block main %}{% set x %}<b>s</b>{% endset %}{{ x }}{{ x }}{% endblock %}",
     "<b>s</b>", "<b>t</b>"),
    ("{% extends 'base.html' %}{% block main %}{% filter upper %}<b>f</b>{% endfilter %}{% endblock %}",
     "<b>f</b>", "<b>g</b>"),
    # A block whose text a `{% set %}` captures, then outputs twice.
    ("{% extends 'base.html' %}{% block main %}{% set x %}{% block inner %}<b>c</b>{% endblock %}{% endset %}"
     "{{ x }}{{ x }}{% endblock %}", "<b>c</b>", "<b>d</b>"),
    # A block that outputs its parent's text with `super()`: the parent's literal text is captured.
    ("{% extends 'base.html' %}{% block footer %}{{ super() }}<b>s</b>{% endblock %}", "<b>s</b>", "<b>u</b>"),
])
def test_literal_text_that_is_captured_is_rendered(site: Callable[..., Dev], layout: str, old: str, new: str
                                                   ) -> None:
    dev = site(layouts__single_html=layout)
    assert edit(dev, "layouts/single.html", layout.replace(old, new)) == 0
    page = dev.page("posts/p0/index.html")
    assert new in page or new.upper() in page  # (the filter block's is upper case)


def test_an_edit_of_the_parent_layout_used_with_super_renders(site: Callable[..., Dev]) -> None:
    layout = "{% extends 'base.html' %}{% block footer %}{{ super() }}<b>s</b>{% endblock %}"
    dev = site(layouts__single_html=layout)
    assert edit(dev, "layouts/base.html", BASE.replace("<footer>f</footer>", "<footer>g</footer>")) == 0
    assert "<footer>g</footer><b>s</b>" in dev.page("posts/p1/index.html")


def test_the_code_generator_yields_literal_texts_it_outputs_straight() -> None:
    source = "<p>{{ x }}</p>{% for i in y %}<i>{{ i }}</i>{% endfor %}{% set s %}<s>{% endset %}"
    env = TrackingEnvironment(loader=jinja2.DictLoader({"a.html": source}))
    template = env.get_template("a.html")
    parts = list(template.root_render_func(template.new_context({"x": 1, "y": [2, 3]})))
    literals = [(part, part.key) for part in parts if type(part) is Literal]
    assert literals == [("<p>", ("a.html", 0)), ("</p>", ("a.html", 1)), ("<i>", ("a.html", 2)),
                        ("</i>", ("a.html", 3)), ("<i>", ("a.html", 2)), ("</i>", ("a.html", 3))]
    facts = template_facts(env, "a.html", source)
    assert facts.literal_runs == (("<p>", True, None), ("</p>", True, None), ("<i>", True, None),
                                  ("</i>", True, None), ("<s>", False, None))
    other = template_facts(env, "a.html", "<p class='x'>{{ x }}</p>{% for i in y %}<i>{{ i }}</i>{% endfor %}"
                                          "{% set s %}<s>{% endset %}")
    assert other.outputs == facts.outputs and other.literal_runs != facts.literal_runs
    assert template_facts(env, "a.html", "<p>{{ x }}!</p>").outputs != facts.outputs


def test_a_quick_rebuild_patching_pages_makes_them_in_this_process(site: Callable[..., Dev],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Forking a copy of the dev server costs more than patching the pages it would take (`render_pages`): jobs=1
    # for an edit of literal texts alone; an edit of a partial's literal text, or of an expression, renders pages
    # and shares them with a copy as before.
    import sitegen.render_pages as render_pages

    jobs: list[int | None] = []
    split = render_pages.split_in_two

    def counted(task: Callable[..., list[object]], items: object, given: int | None, *args: object) -> list[object]:
        jobs.append(given)
        return split(task, items, given, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(render_pages, "split_in_two", counted)
    dev = site()
    for rel, old, new, forked in [("layouts/single.html", "<h1>", "<h1 class=\"a\">", False),
                                  ("layouts/partials/meta.html", "<p class=\"meta\">", "<p>", True),
                                  ("layouts/base.html", "<main>", "<main>{{ page.title }}", True)]:
        jobs.clear()
        source = SITE[rel] if rel != "layouts/single.html" else SINGLE
        edit(dev, rel, source.replace(old, new))
        assert jobs and (jobs[-1] != 1) is forked, (rel, jobs)


def test_an_include_found_inside_a_changed_literal_text_is_not_moved(site: Callable[..., Dev]) -> None:
    # An include's text is found in the page by its text: a partial that outputs "\n" is found inside the
    # layout's literal "<div>\n<p>hello</p>..." before it. A literal edit that changes that text renders the page,
    # and the include's place stays right for the edits after (a post edit reuses its text from there).
    layout = ("{% extends 'base.html' %}{% block main %}<div>\n<p>hello</p>\n</div>"
              "{% include 'partials/analytics.html' %}<i>{{ page.title }}</i>{{ page.content }}{% endblock %}")
    dev = site(layouts__single_html=layout, layouts__partials__analytics_html="{{ page.params.get('ga', '') }}\n")
    edit(dev, "layouts/single.html", layout.replace("<p>hello</p>", "<p>hello world</p>"))
    dev.edit("content/posts/p0.md", SITE["content/posts/p0.md"].replace("Text 0", "New text"))
    assert "</div>\n<i>Post 0</i>" in dev.page("posts/p0/index.html")


THEMED = {**{f"themes/mine/layouts/{name}": "{% extends 'base.html' %}{% block main %}<h1>{{ page.title }}</h1>"
             "{% endblock %}" for name in ("single.html", "page.html", "home.html", "section.html")},
          "themes/mine/layouts/404.html": "nf", "sitegen.yaml": "title: T\ntheme: mine\n",
          "content/posts/p0.md": "---\ntitle: Post 0\ndate: 2024-01-01\n---\nx\n"}


@pytest.mark.parametrize("edited, theme_base, site_base, old, new", [
    # The theme's layout, reached as `theme/base.html` by the site's: compiled as `base.html`.
    ("themes/mine/layouts/base.html", "<main>{% block main %}{% endblock %}</main>{% block footer %}{% endblock %}\n",
     "{% extends 'theme/base.html' %}{% block footer %}<p>f</p>{% endblock %}", "<main>", "<main class='m'>"),
    # The site's layout, whose literal text is the theme's too (their literal texts' keys would be the same).
    ("layouts/base.html", "<div>{% block main %}{% endblock %}</div>{% block footer %}{% endblock %}\n",
     "{% extends 'theme/base.html' %}{% block footer %}<div>{{ page.title }}</div>{% endblock %}", "<div>",
     "<div class='f'>"),
])
def test_a_layout_reached_with_the_theme_prefix_renders(make_site: Callable[..., Path], edited: str, theme_base: str,
                                                        site_base: str, old: str, new: str) -> None:
    dev = Dev(make_site({**THEMED, "themes/mine/layouts/base.html": theme_base, "layouts/base.html": site_base},
                        layouts=False))
    text = theme_base if edited.startswith("themes/") else site_base
    dev.edit(edited, text.replace(old, new))  # (equal to a clean build)
    assert new in dev.page("posts/p0/index.html")


def test_a_block_inside_a_scoped_block_whose_text_is_captured_renders(site: Callable[..., Dev]) -> None:
    # `inner` is called with `outer`'s own context: its call is noted as one whose text cannot be placed.
    layout = ("{% extends 'base.html' %}{% block main %}{% set x %}{% block outer scoped %}{% block inner %}<b>c</b>"
              "{% endblock %}{% endblock %}{% endset %}{{ x }}{{ x }}{% endblock %}")
    dev = site(layouts__single_html=layout)
    assert edit(dev, "layouts/single.html", layout.replace("<b>c", "<b>d")) == 0
    assert edit(dev, "layouts/single.html", layout.replace("<b>c</b>", "<b>{{ page.title }}</b>")) == 0
    assert "<b>Post 1</b><b>Post 1</b>" in dev.page("posts/p1/index.html")


@pytest.mark.parametrize("files, old, new", [
    # `date` reads the page's language from the context, where a layout set `page` (at the top of the post layout,
    # or of the base layout): made alone, the expression would see the post.
    ({"layouts__single_html": "{% extends 'base.html' %}{% set page = site.get_page('about.md') %}{% block main %}"
                              "<p>{{ site.get_page('posts/p0.md').date | isodate }}</p>{% endblock %}"},
     "| isodate", "| date"),
    ({"layouts__base_html": "{% set page = site.get_page('about.md') if page.section == 'posts' else page %}"
                            "<html><body>{% block main %}{% endblock %}</body></html>\n",
      "layouts__single_html": "{% extends 'base.html' %}{% block main %}"
                              "<p>{{ site.get_page('posts/p0.md').date | isodate }}</p>{% endblock %}"},
     "| isodate", "| date"),
    # `i18n` reads it too, where the block set it.
    ({"layouts__single_html": "{% extends 'base.html' %}{% block main %}{% set page = site.get_page('about.md') %}"
                              "<p>{{ site.title }}</p>{% endblock %}"},
     "{{ site.title }}", "{{ i18n('read_more') }}"),
])
def test_a_function_that_reads_the_page_from_the_context_sees_the_layouts_page(
        site: Callable[..., Dev], files: dict[str, str], old: str, new: str) -> None:
    dev = site(**{"content/about.md": "---\ntitle: About\nlang: zh\n---\nAbout us.\n"}, **files)
    rel = "layouts/single.html"
    assert edit(dev, rel, (dev.site / rel).read_text(encoding="utf-8").replace(old, new)) == 0
    assert "Jan" not in dev.page("posts/p1/index.html") and "Read more" not in dev.page("posts/p1/index.html")


def test_runs_numbered_otherwise_by_a_block_edit_are_renumbered_in_the_kept_text(site: Callable[..., Dev]) -> None:
    # An edit rendered by blocks that changes how many runs of literal text a block has (a constant folded into
    # them, an expression added) numbers the later runs otherwise; the next markup or expression edit is made in
    # the pages' text at the right places.
    layout = ("{% extends 'base.html' %}{% block inner %}<b>{{ page.title[:0] }}</b>{% endblock %}"
              "{% block main %}<p>{{ page.title }}<p>{{ page.url }}<p>{% endblock %}")
    dev = site(layouts__single_html=layout)
    for old, new, patched in [("{{ page.title[:0] }}", "{{ 1 + 1 }}", 0), ("{{ page.url }}<p>", "{{ page.url }}<q>", 3),
                              ("<b>", "<b>{{ page.url }}x", 0), ("{{ page.title }}", "{{ page.title | upper }}", 3)]:
        layout = layout.replace(old, new)
        assert edit(dev, "layouts/single.html", layout) == patched, (old, new)
    assert "<p>POST 0<p>/posts/p0/<q>" in dev.page("posts/p0/index.html")


def test_constants_of_another_type_are_another_expression(site: Callable[..., Dev]) -> None:
    layout = "{% extends 'base.html' %}{% block main %}<p>{{ page.date.year + 1 }}</p>{% endblock %}"
    dev = site(layouts__single_html=layout)
    edit(dev, "layouts/single.html", layout.replace("+ 1 }}", "+ 1.0 }}"))
    assert "<p>2025.0</p>" in dev.page("posts/p0/index.html")
