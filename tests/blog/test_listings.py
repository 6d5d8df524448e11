"""Taxonomies, pagination, ordering, prev/next, related posts and series."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import build, html

MakeSite = Callable[..., Path]


def posts(n: int, **extra: str) -> dict[str, str]:
    """n posts dated one day apart (post-0 oldest)."""
    return {f"content/posts/post-{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-{i + 1:02d}\n---\nbody {i}\n"
            for i in range(n)} | extra


def test_term_pages_with_cjk_and_spaced_names(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "---\ncategories: [深度学习]\ntags: [Deep Learning, PyTorch]\ndate: 2024-01-01\n---\n",
        "content/posts/b.md": "---\ncategories: [paper_summary]\ntags: [pytorch]\ndate: 2024-01-02\n---\n",
    })
    result = build(site)
    assert "categories/深度学习/index.html" in result.files
    assert "tags/deep-learning/index.html" in result.files
    assert "categories/paper_summary/index.html" in result.files  # Hugo keeps `_` (issue 16)
    tags = html(result, "tags/index.html")
    assert "Deep Learning (1)" in tags and "PyTorch (2)" in tags and tags.count("pytorch") == 1
    assert 'href="/categories/%E6%B7%B1%E5%BA%A6%E5%AD%A6%E4%B9%A0/"' in html(result, "categories/index.html")


@pytest.mark.parametrize("count, pages", [(0, 1), (1, 1), (3, 1), (4, 2)])
def test_pagination_edges(make_site: MakeSite, count: int, pages: int) -> None:
    files = posts(count, **{"content/posts/_index.md": "---\ntitle: Posts\n---\n"})
    site = make_site({**files, "sitegen.yaml": "paginate: 3\n",
                      "layouts/section.html": "{{ paginator.number }}/{{ paginator.total_pages }}:"
                                              "{% for p in paginator.pages %}{{ p.title }},{% endfor %}"
                                              "{{ paginator.prev_url }}|{{ paginator.next_url }}"})
    result = build(site)
    listing = [p for p in result.files if p.startswith("posts/") and (p == "posts/index.html" or "/page/" in p)]
    assert "posts/index.html" in listing
    assert len([p for p in listing if p != "posts/page/1/index.html"]) == pages
    first = html(result, "posts/index.html")
    assert first.startswith(f"1/{pages}:")
    if count == 4:
        assert first == "1/2:Post 3,Post 2,Post 1,None|/posts/page/2/"
        assert html(result, "posts/page/2/index.html") == "2/2:Post 0,/posts/|None"
    assert 'http-equiv="refresh" content="0; url=/posts/"' in html(result, "posts/page/1/index.html")


def test_term_pages_are_paginated(make_site: MakeSite) -> None:
    files = {f"content/posts/p{i}.md": f"---\ntags: [x]\ndate: 2024-02-{i + 1:02d}\n---\n" for i in range(5)}
    site = make_site({**files, "sitegen.yaml": "paginate: 2\n",
                      "layouts/term.html": "{{ paginator.number }}:{{ paginator.pages | length }}"})
    result = build(site)
    assert html(result, "tags/x/index.html") == "1:2"
    assert html(result, "tags/x/page/3/index.html") == "3:1"


def test_order_is_newest_first_then_weight_title_path(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/b.md": "---\ntitle: Same\ndate: 2024-01-01\n---\n",
        "content/posts/a.md": "---\ntitle: Same\ndate: 2024-01-01\n---\n",
        "content/posts/z.md": "---\ntitle: Alpha\ndate: 2024-01-01\n---\n",
        "content/posts/w.md": "---\ntitle: Zed\ndate: 2024-01-01\nweight: -1\n---\n",
        "content/posts/new.md": "---\ntitle: New\ndate: 2024-05-01\n---\n",
        "layouts/section.html": "{% for p in paginator.pages %}{{ p.source }} {% endfor %}",
    })
    assert html(build(site), "posts/index.html") == "posts/new.md posts/w.md posts/z.md posts/a.md posts/b.md "


def test_prev_next_within_section(make_site: MakeSite) -> None:
    site = make_site({**posts(3), "content/other/x.md": "---\ndate: 2024-01-02\n---\n",
                      "layouts/single.html": "{{ page.prev.title if page.prev else '-' }}<"
                                             "{{ page.title }}>{{ page.next.title if page.next else '-' }}"})
    result = build(site)
    assert html(result, "posts/post-1/index.html") == "Post 0<Post 1>Post 2"
    assert html(result, "posts/post-0/index.html") == "-<Post 0>Post 1"
    assert html(result, "other/x/index.html") == "-<x>-"


def test_related_posts_by_shared_terms(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "---\ntags: [x, y]\ncategories: [c]\ndate: 2024-01-01\n---\n",
        "content/posts/b.md": "---\ntags: [x]\ndate: 2024-01-02\n---\n",
        "content/posts/c.md": "---\ntags: [x, y]\ncategories: [c]\ndate: 2024-01-03\n---\n",
        "content/posts/d.md": "---\ntags: [z]\ndate: 2024-01-04\n---\n",
        "layouts/single.html": "{% for p in page.related %}{{ p.title }} {% endfor %}",
    })
    assert html(build(site), "posts/a/index.html") == "c b "


def test_related_posts_best_score_first_then_newest_among_many_ties(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "---\ntags: [x]\ncategories: [c]\ndate: 2024-01-01\n---\n",
        **{f"content/posts/t{i}.md": f"---\ntags: [x]\ndate: 2024-02-0{i}\n---\n" for i in range(1, 9)},
        "content/posts/old.md": "---\ntags: [x]\ncategories: [c]\ndate: 2023-01-01\n---\n",
        "content/posts/new.md": "---\ntags: [x]\ncategories: [c]\ndate: 2023-06-01\n---\n",
        "layouts/single.html": "{% for p in page.related %}{{ p.stem }} {% endfor %}",
    })
    # Sharing the category and the tag (3) before the tag alone (1); among equals, newest first.
    assert html(build(site), "posts/a/index.html") == "new old t8 t7 t6 "


def test_related_posts_of_a_large_term_look_within_its_date_window_finding_each_page_once_per_term(
        make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    import sitegen.views  # noqa: PLC0415 - the module whose helper is counted

    made: list[str] = []
    original = sitegen.views.term_positions
    monkeypatch.setattr(sitegen.views, "term_positions", lambda term: made.append(term.slug) or original(term))
    site = make_site({
        **{f"content/posts/p{i:03d}.md": f"---\ntags: [x]\ndate: 2024-01-01T00:{i // 60:02d}:{i % 60:02d}\n---\n"
           for i in range(120)},
        "content/posts/p000.md": "---\ntags: [x]\ncategories: [c]\ndate: 2024-01-01T00:00:00\n---\n",
        "content/posts/p119.md": "---\ntags: [x]\ncategories: [c]\ndate: 2024-01-01T00:01:59\n---\n",
        "layouts/single.html": "{% for p in page.related %}{{ p.stem }} {% endfor %}",
    })
    result = build(site, jobs=1)
    # The oldest post shares `x` with 119 others, but only the 50 nearest in date order count through it; the
    # newest, far outside that window, shares the category `c` too (which counts 2) and comes first.
    assert html(result, "posts/p000/index.html") == "p119 p050 p049 p048 p047 "
    assert html(result, "posts/p119/index.html") == "p000 p118 p117 p116 p115 "
    assert sorted(made) == ["c", "x"]  # once per term, not once per page


def test_series_navigation(make_site: MakeSite) -> None:
    site = make_site({
        "sitegen.yaml": "taxonomies: [categories, tags, series]\n",
        "content/posts/one.md": "---\nseries: [Notes]\ndate: 2024-01-01\n---\n",
        "content/posts/two.md": "---\nseries: [Notes]\ndate: 2024-01-02\n---\n",
        "content/posts/three.md": "---\nseries: [Notes]\ndate: 2024-01-03\n---\n",
        "layouts/single.html": "{% for s in page.series %}{{ s.name }} {{ s.number }}/{{ s.total }}:"
                               "{% for p in s.pages %}{{ p.title }},{% endfor %}{% endfor %}",
    })
    assert html(build(site), "posts/two/index.html") == "Notes 2/3:one,two,three,"


def test_home_leaves_out_hidden_pages_in_default_theme(make_site: MakeSite) -> None:
    site = make_site({"content/posts/a.md": "---\ntitle: Visible post\ndate: 2024-01-01\n---\n",
                      "content/posts/b.md": "---\ntitle: Secret post\ndate: 2024-01-02\n"
                                            "hiddenFromHomePage: true\n---\n"},
                     layouts=False)
    result = build(site)
    assert "Visible post" in html(result, "index.html") and "Secret post" not in html(result, "index.html")
    assert "Secret post" in html(result, "posts/index.html")


def test_term_slugs_keep_inner_dots_as_hugo_does(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01\ntags: [\"1.10\", Python 3.12, ..hidden]\n---\nA\n",
        "content/posts/b.md": "---\ntitle: B\ndate: 2024-01-02\ntags: [\"11.0\"]\n---\nB\n",
    })
    files = build(site).files
    for path in ("tags/1.10/index.html", "tags/11.0/index.html", "tags/python-3.12/index.html",
                 "tags/hidden/index.html"):
        assert path in files, path
