"""A post edited under `sitegen serve` at scale: the post, the lists and feeds that show it are made again, the
later pages of those lists and every other feed are left as they were, and nothing walks every page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import sitegen.outputs.feeds
import sitegen.render_pages
import sitegen.views
from sitegen.build import BuildOptions, build_site
from tests.serve.conftest import Running

Serve = Callable[..., Running]

POSTS = {f"content/posts/p{i:02d}.md": f"---\ntitle: Post {i}\ndate: 2024-01-{i + 1:02d}\ntags: [common, t{i % 2}]\n"
                                       f"---\nText of post {i}.\n" for i in range(25)}


def test_an_edited_post_updates_its_page_lists_and_feeds_and_leaves_later_list_pages_alone(
        serve: Serve, monkeypatch: pytest.MonkeyPatch) -> None:
    run = serve(POSTS, layouts=False)
    session = run.session
    assert session.wait_for_index()
    assert session.wait_for_fragments()  # the background's renders are not the edit's (counted below)
    before = dict(session.state.snapshot.files)
    # The newest post (p24) is on page 1 of the section and tag lists; pages 2 and 3 show older posts.
    later = ["posts/page/2/index.html", "posts/page/3/index.html", "tags/common/page/2/index.html",
             "tags/common/page/3/index.html", "tags/t0/page/2/index.html"]
    assert all(path in before for path in later)
    calls: dict[str, int] = {"menus": 0, "feeds": 0, "list pages": 0}

    def counted(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)
        return wrapper

    # What a quick rebuild must not do again: walk every page for the menu, or list every feed's pages.
    monkeypatch.setattr(sitegen.views, "page_menu_items", counted("menus", sitegen.views.page_menu_items))
    monkeypatch.setattr(sitegen.outputs.feeds, "feed_paths", counted("feeds", sitegen.outputs.feeds.feed_paths))
    real_paginate = sitegen.render_pages.paginate

    def paginate(*args: Any, **kwargs: Any) -> Any:
        pages = real_paginate(*args, **kwargs)
        calls["list pages"] += len(pages)
        return pages

    # ... or make every page of a list it renders one page of.
    monkeypatch.setattr(sitegen.render_pages, "paginate", paginate)
    post = run.site / "content/posts/p24.md"
    builds = session.builds
    post.write_text(post.read_text().replace("Text of post 24.", "Text of post 24, a zebracorn."))
    run.wait_for_build(builds)
    assert session.quick_builds == 1 and session.hub.error is None
    after = dict(session.state.snapshot.files)
    for path in ("posts/p24/index.html", "posts/index.html", "tags/common/index.html",
                 "tags/t0/index.html", "feed.xml", "posts/feed.xml", "tags/common/feed.xml", "tags/t0/feed.xml"):
        assert b"zebracorn" in after[path], path
    for path in [*later, "index.html", "tags/t1/index.html", "tags/t1/feed.xml", "posts/p23/index.html"]:
        assert after[path] is before[path], f"{path} was made again"
    assert calls == {"menus": 0, "feeds": 0, "list pages": 3}  # page 1 of posts/, tags/common/ and tags/t0/
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k) and "searchindex/" not in k}
    assert session.last.changed_outputs == len(changed)
    assert session.wait_for_index()
    assert dict(session.state.snapshot.files) == build_site(BuildOptions(source=run.site)).files
