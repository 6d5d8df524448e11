"""Under the dev server, a template edit reuses what the included templates it did not change rendered last time
(`sitegen.templates.Fragments`): the head and header partials are not rendered again when only the post layout
changes, and every edit that changes what an include renders (the partial itself, a template it includes, a
variable it is given, a page it reads) renders it again. Every result equals a clean build, byte for byte."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.build import BuildOptions, build_site
from sitegen.incremental import prepare_quick_rebuilds, rebuild_edited_pages, rebuild_edited_templates
from sitegen.memo import BuildMemo
from sitegen.render_pages import FragmentRecorder
from sitegen.result import BuildResult
from sitegen.views import SiteView
from tests.conftest import MINIMAL_LAYOUTS

NOW = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
SINGLE = ("{% extends 'base.html' %}{% block main %}<h1>{{ page.title }}</h1>{% include 'partials/meta.html' %}"
          "{{ page.content }}{% endblock %}")
SITE = {
    **MINIMAL_LAYOUTS,
    **{f"content/posts/p{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-0{i + 1}\n---\nText {i}.\n" for i in range(3)},
    "content/about.md": "---\ntitle: About\n---\nAbout us.\n",
    "layouts/base.html": "<html><head>{% include 'partials/head.html' %}</head><body>"
                         "{% include 'partials/header.html' %}{% block main %}{% endblock %}</body></html>\n",
    "layouts/single.html": SINGLE,
    # The head reads another page's content: its text depends on about.md's body.
    "layouts/partials/head.html": "<title>{{ page.title }}</title><meta name=\"about\" "
                                  "content=\"{{ site.get_page('about.md').plain | trim }}\">",
    "layouts/partials/header.html": "<header>{% include 'partials/nav.html' %}</header>",
    "layouts/partials/nav.html": "<nav>{{ site.title }}</nav>",
    "layouts/partials/meta.html": "<p class=\"meta\">{{ page.date | isodate }}{{ flavour | default('') }}</p>",
}
POSTS = {f"posts/p{i}/index.html" for i in range(3)}


class Dev:
    """A site built as `sitegen serve` builds it (a full build, then the included templates' texts recorded as its
    background worker records them), then edited."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.options = BuildOptions(source=site, now=NOW, defer_search=True)
        self.memo = BuildMemo()
        self.lookups: list[str] = []
        """Every `site.get_page` call (the head partial makes one per render), when counted (`page_lookups`)."""
        self.quick_lookups: list[str] = []
        """Those of the last quick rebuild."""
        self.result = build_site(self.options, self.memo)
        prepare_quick_rebuilds(self.result, self.memo)
        self.record()
        self.memo.fragments = True  # as the server's quick rebuilds record and reuse them

    def record(self) -> None:
        """Record what the last build's units have not (as the server's background worker does while idle)."""
        assert self.result.state is not None and self.result.basis is not None
        recorder = FragmentRecorder(self.result.state, self.result.basis.rendering, self.memo)
        while not recorder.done:
            recorder.record_one()

    def edit(self, rel: str, text: str) -> BuildResult:
        """Write a file and rebuild it the dev server's quick way; the result must equal a clean build."""
        path = self.site / rel
        path.write_text(text, encoding="utf-8")
        quick = (rebuild_edited_pages(self.result, {path}, self.memo) if rel.startswith("content/")
                 else rebuild_edited_templates(self.result, {path}, self.memo))
        assert quick is not None, "not a quick rebuild"
        self.quick_lookups = list(self.lookups)
        self.result = quick
        clean = build_site(self.options, BuildMemo()).files
        assert {k for k in clean.keys() | quick.files.keys() if clean.get(k) != quick.files.get(k)} == set()
        self.record()
        self.lookups.clear()
        return quick

    def page(self, path: str) -> str:
        return self.result.files[path].decode()


def named_files(**files: str) -> dict[str, str]:
    """Files given as keyword arguments, `a__b_html` for `a/b.html` (the sites of tests/serve's edit tests)."""
    return {name.replace("__", "/").replace("_html", ".html"): text for name, text in files.items()}


@pytest.fixture
def dev(make_site: Callable[..., Path]) -> Dev:
    return Dev(make_site(SITE))


@pytest.fixture
def counted(dev: Dev, monkeypatch: pytest.MonkeyPatch) -> Dev:
    """The site, counting `site.get_page` calls (`Dev.quick_lookups`)."""
    original = SiteView.get_page

    def get_page(self: SiteView, source: str) -> object:
        dev.lookups.append(source)
        return original(self, source)

    monkeypatch.setattr(SiteView, "get_page", get_page)
    return dev


def test_a_post_layout_edit_reuses_the_head_and_header_it_did_not_change(counted: Dev) -> None:
    dev = counted
    dev.edit("layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
    assert dev.quick_lookups == []  # recorded after the server's first build: the first edit reuses them too
    result = dev.edit("layouts/single.html", SINGLE.replace("<h1>", "<h1 class='two'>"))
    assert set(result.rendered or []) == POSTS
    assert dev.quick_lookups == []  # the posts' head partial (which looks about.md up) was not rendered again
    assert "<h1 class='two'>" in dev.page("posts/p1/index.html")
    assert '<meta name="about" content="About us.">' in dev.page("posts/p1/index.html")


def test_the_first_template_edit_after_the_servers_start_reuses_what_its_build_recorded(counted: Dev) -> None:
    dev = counted
    result = dev.edit("layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
    assert set(result.rendered or []) == POSTS
    assert dev.quick_lookups == []  # no post's head partial rendered again, and the files equal a clean build
    assert "<h1 class='one'>" in dev.page("posts/p1/index.html")
    assert '<meta name="about" content="About us.">' in dev.page("posts/p1/index.html")


def test_a_one_off_build_records_no_fragments(make_site: Callable[..., Path]) -> None:
    memo = BuildMemo()
    build_site(BuildOptions(source=make_site(SITE), now=NOW), memo)
    assert not any(entry.fragments for entry in memo.outputs.values())


def test_editing_an_included_partial_renders_it_again(dev: Dev) -> None:
    dev.edit("layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
    dev.edit("layouts/partials/head.html", SITE["layouts/partials/head.html"] + "<meta name=\"new-head\">")
    assert all('<meta name="new-head">' in dev.page(p) for p in POSTS)


def test_editing_a_template_an_include_includes_renders_the_include_again(dev: Dev) -> None:
    dev.edit("layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
    dev.edit("layouts/partials/nav.html", "<nav class=\"new-nav\">{{ site.title }}</nav>")
    assert all('<nav class="new-nav">' in dev.page(p) for p in [*POSTS, "about/index.html"])


def test_a_variable_the_edited_layout_gives_an_include_renders_it_again(dev: Dev) -> None:
    dev.edit("layouts/single.html", "{% set flavour = ' mild' %}" + SINGLE)
    assert "mild</p>" in dev.page("posts/p0/index.html")
    dev.edit("layouts/single.html", "{% set flavour = ' hot' %}" + SINGLE)
    assert "hot</p>" in dev.page("posts/p0/index.html")


def test_a_local_variable_given_to_an_include_renders_it_again_when_it_changes(dev: Dev) -> None:
    local = SINGLE.replace("{% block main %}", "{% block main %}{% set flavour = ' mild' %}")
    dev.edit("layouts/single.html", local)
    assert "mild</p>" in dev.page("posts/p0/index.html")
    dev.edit("layouts/single.html", local.replace("mild", "hot"))
    assert "hot</p>" in dev.page("posts/p0/index.html")


def test_a_page_an_include_read_renders_it_again_when_its_text_changes(counted: Dev) -> None:
    dev = counted
    dev.edit("layouts/single.html", SINGLE.replace("<h1>", "<h1 class='one'>"))
    dev.edit("content/about.md", "---\ntitle: About\n---\nAbout them.\n")
    assert len(dev.quick_lookups) >= 3  # the heads that read about.md were rendered again
    assert all('<meta name="about" content="About them.">' in dev.page(p) for p in POSTS)
    dev.edit("layouts/single.html", SINGLE.replace("<h1>", "<h1 class='two'>"))
    assert all('<meta name="about" content="About them.">' in dev.page(p) for p in POSTS)


def test_an_include_captured_and_changed_by_the_layout_is_not_reused_wrongly(dev: Dev) -> None:
    captured = ("{% extends 'base.html' %}{% block main %}{% set meta %}{% include 'partials/meta.html' %}{% endset %}"
                "{{ meta | upper }}{{ page.content }}{% endblock %}")
    dev.edit("layouts/single.html", captured)
    dev.edit("layouts/single.html", captured.replace("{{ meta | upper }}", "{{ meta }}"))
    assert '<p class="meta">2024-01-02' in dev.page("posts/p1/index.html")


TALK = ("{% extends 'base.html' %}{% block main %}<h1>{{ page.title }}</h1>{% include 'partials/tj.html' %}"
        "{% endblock %}")
TALK_PAGE = "---\ntitle: T\ndate: 2024-05-01\n---\n{}\n"


def test_a_talk_partial_renders_again_when_the_talk_text_changes(make_site: Callable[..., Path]) -> None:
    """`page.talk` is made once per view, and the views outlive a template edit: reading it must still record the
    page's text as read, or a reused fragment keeps the talk's old description."""
    dev = Dev(make_site({**SITE, "content/talks/t.md": TALK_PAGE.format("Old abstract."), "layouts/talk.html": TALK,
                         "layouts/partials/tj.html": "<script>{{ page.talk.jsonld | tojson }}</script>"}))
    dev.edit("layouts/talk.html", TALK.replace("<h1>", "<h1 class='one'>"))
    dev.edit("content/talks/t.md", TALK_PAGE.format("New abstract."))
    assert "New abstract." in dev.page("talks/t/index.html")


@pytest.mark.parametrize("fragments", [True, False])
def test_a_list_of_talks_renders_again_when_a_talk_text_changes(make_site: Callable[..., Path],
                                                               fragments: bool) -> None:
    """A page listing talks' bodies depends on them after a template edit too (with or without fragments)."""
    home = ("{% extends 'base.html' %}{% block main %}{% set n = site.talks.past|length %}{{ n }}"
            "{% include 'partials/talks.html' %}{% endblock %}")
    dev = Dev(make_site({**SITE, "content/talks/t.md": TALK_PAGE.format("Old abstract."),
                         "content/_index.md": "---\ntitle: Home\n---\nhi\n", "layouts/home.html": home,
                         "layouts/partials/talks.html":
                             "{% for t in site.talks.past %}<div>{{ t.talk.body }}</div>{% endfor %}"}))
    dev.memo.fragments = fragments
    dev.edit("layouts/home.html", home.replace("{{ n }}", "<b>{{ n }}</b>"))
    dev.edit("content/talks/t.md", TALK_PAGE.format("New abstract."))
    assert "New abstract." in dev.page("index.html")


def test_an_includes_key_is_the_key_of_what_it_is_given_also_when_a_list_it_is_given_changed() -> None:
    """`Fragments.include_key` keys the variables of a context's parent once per parent; it must give what
    `context_key` gives for the variables Jinja merges, and see a list that an earlier include appended to."""
    from types import SimpleNamespace  # noqa: PLC0415 - only this test fakes a context

    from jinja2.utils import missing  # noqa: PLC0415

    from sitegen.templates import Fragments  # noqa: PLC0415
    from sitegen.views import context_key  # noqa: PLC0415

    url = object()
    env = SimpleNamespace(globals={"url": url, "title": "Site", "lang": "en"})
    shown: list[str] = []
    parent = {"url": url, "title": "Site", "lang": "zh", "page": "p", "shown": shown, "n": 3}
    fragments = Fragments(env, None, context_key, str)  # type: ignore[arg-type]

    def both(own: dict[str, object], local: dict[str, object]) -> tuple[object, object]:
        context = SimpleNamespace(parent=parent, vars=own)
        return (fragments.include_key(context, local),  # type: ignore[arg-type]
                fragments.context_key({**parent, **own}, local))

    for own, local in [({}, {}), ({"n": 4}, {}), ({"title": "Other"}, {"n": missing}), ({}, {"url": 1}),
                       ({"lang": "en"}, {}), ({}, {"lang": "en", "page": "q"}), ({"x": object()}, {})]:
        new, old = both(own, local)
        assert new == old, (own, local)
    first, _ = both({}, {})
    shown.append("a post")  # an include appended to it
    second, expected = both({}, {})
    assert second == expected and second != first


def test_an_includes_key_holds_only_the_render_variables_it_can_read_and_the_page() -> None:
    """With `read_names`, a variable of the render's (the context's parent) counts in an include's key only if
    the included template can read it, `page` always (`i18n`, `date` and `number` read it): a large one it does
    not read (a term list's `taxonomy`) is neither keyed again for every include nor a reason to render it again."""
    from types import SimpleNamespace  # noqa: PLC0415 - only this test fakes a context

    from sitegen.templates import Fragments  # noqa: PLC0415
    from sitegen.views import context_key  # noqa: PLC0415

    env = SimpleNamespace(globals={})
    taxonomy: list[str] = ["a"]
    parent = {"page": "p", "taxonomy": taxonomy, "n": 3}
    reads = {"cloud.html": frozenset({"taxonomy"}), "footer.html": frozenset({"n"}), "badge.html": frozenset()}
    fragments = Fragments(env, None, context_key, str, read_names=reads.get)  # type: ignore[arg-type]
    context = SimpleNamespace(parent=parent, vars={})

    def key(name: str) -> dict[str, object]:
        found = fragments.include_key(context, {}, name)  # type: ignore[arg-type]
        assert found is not None
        return dict(found)

    assert set(key("cloud.html")) == {"page", "taxonomy"}
    assert set(key("footer.html")) == {"page", "n"}
    assert set(key("badge.html")) == {"page"}
    assert set(key("unknown.html")) == {"page", "taxonomy", "n"}, "names not known: every variable counts"
    cloud, badge = key("cloud.html"), key("badge.html")
    taxonomy.append("b")  # a list the render gave changed (an earlier include appended to it)
    assert key("cloud.html") != cloud, "the include that reads it is keyed anew"
    assert key("badge.html") == badge


SECTION = ("{% extends 'base.html' %}{% block main %}{% with pages = page.pages %}{% include 'partials/list.html' %}"
           "{% endwith %}{% endblock %}")


def test_a_list_of_a_sections_pages_given_to_an_include_is_reused_and_renders_again_when_a_page_changes(
        make_site: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A list page's pages (`ViewList`) are keyed by name: the include that lists them is reused by a base-layout
    edit, and rendered again when the text of a page it shows changes (each result equals a clean build)."""
    from sitegen.views import PageView  # noqa: PLC0415 - what is counted

    dev = Dev(make_site({**SITE, "layouts/section.html": SECTION,
                         "layouts/partials/list.html": "<ul>{% for p in pages %}<li>{{ p.title }}: {{ p.summary }}</li>"
                                                       "{% endfor %}</ul>"}))
    shown: list[str] = []
    quick: list[bool] = []
    summary, rebuild = PageView.summary, rebuild_edited_templates
    assert isinstance(summary, property) and summary.fget is not None

    def counted_summary(self: PageView) -> object:
        if quick:
            shown.append(self.source)
        return summary.fget(self)  # type: ignore[misc]

    def counted_rebuild(*args: object) -> object:  # only what the quick rebuild renders is counted
        quick.append(True)
        try:
            return rebuild(*args)  # type: ignore[arg-type]
        finally:
            quick.clear()

    monkeypatch.setattr(PageView, "summary", property(counted_summary))
    monkeypatch.setattr(sys.modules[__name__], "rebuild_edited_templates", counted_rebuild)
    base = SITE["layouts/base.html"]
    dev.edit("layouts/base.html", base.replace("<body>", "<body class='one'>"))
    assert shown == [], "the section's list was reused"
    assert "<li>Post 1: <p>Text 1.</p></li>" in dev.page("posts/index.html")
    dev.edit("content/posts/p1.md", "---\ntitle: Post 1\ndate: 2024-01-02\n---\nNew text 1.\n")
    assert "<li>Post 1: <p>New text 1.</p></li>" in dev.page("posts/index.html")
    dev.edit("layouts/base.html", base.replace("<body>", "<body class='two'>"))
    assert shown == [], "recorded again with the page's new text, and reused"
    assert "<li>Post 1: <p>New text 1.</p></li>" in dev.page("posts/index.html")
