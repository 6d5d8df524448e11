"""Template edits under `sitegen serve` render again only the pages that used the template, and equal a clean
build: an edit of the post layout reaches every post and nothing else, 404.html only the 404 page, the base
template every page that extends it; a site override added over the theme's file and removed, a new template
that changes the layout pages pick, and a syntax error that is reported once and recovered from."""

from __future__ import annotations

import time
from collections.abc import Callable

from sitegen.build import BuildOptions, build_site
from tests.conftest import MINIMAL_LAYOUTS
from tests.serve.conftest import Running

Serve = Callable[..., Running]

POSTS = {f"content/posts/p{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-{i + 1:02d}\ntags: [t{i % 2}]\n---\n"
                                   f"Text {i}.\n" for i in range(5)}
SITE = {**POSTS, "content/about.md": "---\ntitle: About\n---\nAbout us.\n"}
POST_PAGES = {f"posts/p{i}/index.html" for i in range(5)} | {"posts/first/index.html", "posts/论文笔记/index.html"}
"""With the two posts of every serve test's site (tests/serve/conftest.py)."""
THEME = {f"themes/mine/{rel}": text for rel, text in MINIMAL_LAYOUTS.items()}
"""The minimal layouts as a theme of the site's own (`theme: mine`), so that the site can override them."""


def _edit(run: Running, path: str, text: str | None) -> set[str]:
    """Write (or with None, delete) a file, wait for the rebuild (good or failed); the output paths the last good
    build rendered."""
    before = run.session.last
    target = run.site / path
    if text is None:
        target.unlink()
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    deadline = time.monotonic() + 30
    while run.session.last is before:  # (`wait_for_build` returns at once while an error is shown)
        assert time.monotonic() < deadline, "no rebuild happened"
        time.sleep(0.02)
    assert run.session.result is not None
    return set(run.session.result.rendered)


def _assert_clean(run: Running) -> None:
    assert run.session.hub.error is None
    assert run.session.wait_for_index()
    assert run.session.state.snapshot.files == build_site(BuildOptions(source=run.site)).files


def _html_pages(run: Running) -> set[str]:
    return {k for k in run.session.state.snapshot.files if k.endswith(".html")}


def test_editing_the_post_layout_renders_every_post_and_nothing_else(serve: Serve) -> None:
    run = serve(SITE)
    quick = run.session.quick_builds
    rendered = _edit(run, "layouts/single.html", MINIMAL_LAYOUTS["layouts/single.html"].replace(
        "</h1>", "</h1><p>new-post-layout</p>"))
    assert rendered == POST_PAGES
    assert run.session.quick_builds == quick + 1
    files = run.session.state.snapshot.files
    assert {k for k, v in files.items() if b"new-post-layout" in v} == POST_PAGES
    _assert_clean(run)


def test_editing_404_renders_only_the_404_page(serve: Serve) -> None:
    run = serve(SITE)
    assert _edit(run, "layouts/404.html", "<p>lost-and-not-found</p>") == {"404.html"}
    assert run.session.state.snapshot.files["404.html"] == b"<p>lost-and-not-found</p>"
    _assert_clean(run)


def test_editing_the_base_template_reaches_every_page_that_extends_it(serve: Serve) -> None:
    run = serve(SITE)
    rendered = _edit(run, "layouts/base.html", MINIMAL_LAYOUTS["layouts/base.html"].replace(
        "<body>", "<body><header>new-base</header>"))
    files = run.session.state.snapshot.files
    extending = {k for k, v in files.items() if b"new-base" in v}
    # Home, section, posts and the about page extend base.html; the taxonomy, term and 404 layouts do not.
    assert extending >= {"index.html", "posts/index.html", "about/index.html", *POST_PAGES}
    assert rendered == extending
    assert "tags/index.html" not in rendered and "404.html" not in rendered
    _assert_clean(run)


def test_a_site_override_of_a_theme_template_added_then_removed(serve: Serve) -> None:
    run = serve({**SITE, **THEME, "sitegen.yaml": "title: T\nbase_url: https://example.org/\ntheme: mine\n"},
                layouts=False)
    quick = run.session.quick_builds
    rendered = _edit(run, "layouts/single.html", "{% extends 'base.html' %}{% block main %}override-of-single"
                                                 "{{ page.content }}{% endblock %}")
    assert rendered == POST_PAGES
    assert all(b"override-of-single" in run.session.state.snapshot.files[p] for p in POST_PAGES)
    _assert_clean(run)
    assert _edit(run, "layouts/single.html", None) == POST_PAGES
    assert not any(b"override-of-single" in v for v in run.session.state.snapshot.files.values())
    assert run.session.quick_builds == quick + 2
    _assert_clean(run)


def test_a_new_template_that_changes_the_layout_pages_pick(serve: Serve) -> None:
    # posts/single.html comes before single.html for pages of the posts section: adding it is a change of the
    # layout those pages pick (a full build, which still renders only them), and so is deleting it.
    run = serve(SITE)
    quick = run.session.quick_builds
    assert _edit(run, "layouts/posts/single.html", "<p>posts-own-layout {{ page.title }}</p>") == POST_PAGES
    assert run.session.state.snapshot.files["posts/p1/index.html"] == b"<p>posts-own-layout Post 1</p>"
    _assert_clean(run)
    assert _edit(run, "layouts/posts/single.html", None) == POST_PAGES
    assert b"posts-own-layout" not in run.session.state.snapshot.files["posts/p1/index.html"]
    assert run.session.quick_builds == quick
    _assert_clean(run)


def test_an_edited_partial_reaches_only_the_pages_that_include_it(serve: Serve) -> None:
    layouts = {"layouts/partials/byline.html": "<p>by someone</p>",
               "layouts/single.html": "{% extends 'base.html' %}{% block main %}{% include 'partials/byline.html' %}"
                                      "{{ page.content }}{% endblock %}",
               "layouts/page.html": "{% extends 'base.html' %}{% block main %}{% set p = 'partials/' + 'byline.html' %}"
                                    "{% if page.title == 'About' %}{% include p %}{% endif %}{{ page.content }}"
                                    "{% endblock %}"}
    run = serve({**SITE, **layouts})
    rendered = _edit(run, "layouts/partials/byline.html", "<p>by-new-author</p>")
    # The about page includes it through a name computed at render time: it is recorded all the same.
    assert rendered == {*POST_PAGES, "about/index.html"}
    _assert_clean(run)


def test_a_template_syntax_error_is_reported_once_and_the_fix_recovers(serve: Serve) -> None:
    run = serve(SITE)
    good = _html_pages(run)
    served = dict(run.session.state.snapshot.files)
    before = run.session.builds
    (run.site / "layouts/single.html").write_text("{% extends 'base.html' %}\n{% block main %}\n{{ page.title }\n"
                                                  "{% endblock %}\n")
    run.wait_for_build(before)
    error = run.session.hub.error
    assert error is not None and error.startswith("layouts/single.html:3: template syntax error")
    assert error.count("template syntax error") == 1 and "6 more pages" in error
    assert run.session.state.snapshot.files == served  # the previous site is still served
    quick = run.session.quick_builds
    rendered = _edit(run, "layouts/single.html", MINIMAL_LAYOUTS["layouts/single.html"].replace(
        "</h1>", "</h1>fixed-layout"))
    assert rendered == POST_PAGES and _html_pages(run) == good
    assert run.session.quick_builds == quick + 1  # the fix is a quick rebuild too
    _assert_clean(run)


def test_after_a_failed_template_edit_other_changes_take_the_full_build(serve: Serve) -> None:
    run = serve(SITE)
    before = run.session.builds
    (run.site / "layouts/404.html").write_text("{% if %}")
    run.wait_for_build(before)
    assert run.session.hub.error is not None and "layouts/404.html:1" in run.session.hub.error
    quick = run.session.quick_builds
    _edit(run, "content/posts/p1.md", "---\ntitle: Post 1\ndate: 2024-01-02\ntags: [t1]\n---\nEdited text.\n")
    assert run.session.hub.error is not None  # 404.html is still broken: the full build says so
    assert _edit(run, "layouts/404.html", "fixed 404") == {"404.html"}
    assert run.session.quick_builds == quick
    _assert_clean(run)


def test_a_post_saved_after_a_layout_edit_renders_with_the_edited_layout(serve: Serve) -> None:
    # Quick rebuilds of page texts render with the templates the last build loaded: after a layout edit, those
    # are the edited layout's, not the ones the server started with.
    run = serve(SITE)
    quick = run.session.quick_builds
    _edit(run, "layouts/single.html", MINIMAL_LAYOUTS["layouts/single.html"].replace(
        "</h1>", "</h1><p>new-post-layout</p>"))
    rendered = _edit(run, "content/posts/p1.md", POSTS["content/posts/p1.md"] + "\nA saved paragraph.\n")
    assert "posts/p1/index.html" in rendered
    assert run.session.quick_builds == quick + 2
    page = run.session.state.snapshot.files["posts/p1/index.html"]
    assert b"new-post-layout" in page and b"A saved paragraph." in page
    _assert_clean(run)
