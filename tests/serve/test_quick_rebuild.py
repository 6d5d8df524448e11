"""The dev server's quick rebuilds of edited page texts equal a clean build, and fall back when they must."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sitegen.build import BuildOptions, build_site
from tests import searchindex as index
from tests.serve.conftest import Running

Serve = Callable[..., Running]

POSTS = {f"content/posts/p{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-{i + 1:02d}\ntags: [t{i % 3}, 共同]\n"
                                   f"categories: [c{i % 2}]\n---\nText {i} with [a link](p{(i + 1) % 8}.md).\n"
                                   for i in range(8)}


def _settle(run: Running, edit: Callable[[], object]) -> None:
    before = run.session.builds
    edit()
    run.wait_for_build(before)


def _assert_clean(run: Running) -> None:
    assert run.session.hub.error is None
    assert run.session.wait_for_index()
    assert run.session.state.snapshot.files == build_site(BuildOptions(source=run.site)).files


def test_edited_texts_are_rebuilt_quickly_and_equal_a_clean_build(serve: Serve) -> None:
    run = serve(POSTS, layouts=False)
    post = run.site / "content/posts/p3.md"
    text = post.read_text()
    _settle(run, lambda: post.write_text(text + "\nA new paragraph, **bold**, and a [missing](nope.md) link.\n"))
    assert run.session.quick_builds == 1
    _assert_clean(run)
    assert any("nope.md" in w.format() for w in run.session.result.warnings)  # type: ignore[union-attr]
    # The same page again, then another page: each time only those texts change.
    _settle(run, lambda: post.write_text(text + "\nSecond edit, 中文段落.\n"))
    other = run.site / "content/posts/p6.md"
    _settle(run, lambda: other.write_text(other.read_text().replace("Text 6", "Changed text 6")))
    assert run.session.quick_builds == 3
    _assert_clean(run)
    assert not any("nope.md" in w.format() for w in run.session.result.warnings)  # type: ignore[union-attr]


def test_front_matter_new_files_and_templates_take_the_full_build(serve: Serve) -> None:
    run = serve(POSTS, layouts=False)
    site: Path = run.site
    _settle(run, lambda: (site / "content/posts/p2.md").write_text(
        "---\ntitle: Renamed\ndate: 2024-01-03\ntags: [t9]\n---\nText 2.\n"))
    _settle(run, lambda: (site / "content/posts/p9.md").write_text("---\ntitle: New\ndate: 2024-02-01\n---\nNew.\n"))
    # A new template name may change which layout a page picks (edits are quick: test_template_edits.py).
    _settle(run, lambda: (site / "layouts/partials").mkdir(parents=True) or (site / "layouts/posts").mkdir()
            or (site / "layouts/posts/single.html").write_text("<!doctype html><title>Lost</title><p>Lost</p>"))
    assert run.session.quick_builds == 0
    _assert_clean(run)


def test_after_a_failed_build_the_next_one_is_full(serve: Serve) -> None:
    run = serve(POSTS, layouts=False)
    post = run.site / "content/posts/p1.md"
    good = post.read_text()
    _settle(run, lambda: post.write_text("---\ntitle: [broken\n---\nx\n"))
    assert run.session.hub.error
    before = run.session.builds
    post.write_text(good.replace("Text 1", "Fixed text 1"))
    deadline = time.monotonic() + 10
    while run.session.builds == before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert run.session.quick_builds == 0
    _assert_clean(run)


def test_config_edits_between_text_edits_leave_no_stale_search_entries(serve: Serve) -> None:
    run = serve(POSTS, layouts=False)
    post = run.site / "content/posts/p4.md"
    _settle(run, lambda: post.write_text(post.read_text() + "\nFirst edit.\n"))
    config = run.site / "sitegen.yaml"
    _settle(run, lambda: config.write_text(config.read_text() + "search: {content_chars: 12}\n"))
    _settle(run, lambda: post.write_text(post.read_text() + "\nSecond edit.\n"))
    assert run.session.quick_builds == 2
    _assert_clean(run)


def test_the_memo_does_not_grow_with_each_quick_rebuild(make_site: Callable[..., Path]) -> None:
    # The server's memory grew ~150 KB a save: quick rebuilds added the edited page's new parse, rendering,
    # feed and search entries to the memo, and only full builds dropped old ones.
    from sitegen.serve.session import ServeSession

    site = make_site(POSTS, layouts=False)
    session = ServeSession(BuildOptions(source=site), say=lambda _m: None)
    assert session.build_once()
    post = site / "content/posts/p3.md"
    text = post.read_text()
    sizes = []
    for n in range(12):
        post.write_text(text + f"\nEdit number {n}.\n")
        assert session.build_once({post})
        memo = session.memo
        sizes.append((len(memo.pages), len(memo.markdown), len(memo.blobs)))
    assert session.quick_builds == 12
    assert sizes[-1] == sizes[2], sizes
    assert session.wait_for_index()
    assert session.state.snapshot.files == build_site(BuildOptions(source=site)).files


def test_an_edit_is_served_while_the_search_index_is_still_being_made(serve: Serve, monkeypatch: Any) -> None:
    # The dev server indexes for search after a build is served, in the background: a slow index must never
    # hold up the edited page (nor the build after it), and the index catches up with the last build.
    from sitegen.outputs.search import Indexer

    release = threading.Event()
    real = Indexer.files

    def slow(self: Indexer, state: Any, files: dict[str, bytes]) -> dict[str, bytes]:
        release.wait(20)
        return real(self, state, files)

    run = serve(POSTS, layouts=False)
    assert run.session.wait_for_index()
    monkeypatch.setattr(Indexer, "files", slow)
    post = run.site / "content/posts/p3.md"
    for word in ("firstzebra", "secondzebra"):
        _settle(run, lambda w=word: post.write_text(post.read_text() + f"\n{w} appears.\n"))  # type: ignore[misc]
        assert word.encode() in run.session.state.snapshot.files["posts/p3/index.html"]
    assert not any(b"secondzebra" in v for k, v in run.session.state.snapshot.files.items()
                   if k.startswith("searchindex/"))
    release.set()
    assert run.session.wait_for_index()
    assert "secondzebra" in index.shard(run.session.state.snapshot.files, "se")
    _assert_clean(run)


def _png(width: int, height: int) -> bytes:
    import io  # noqa: PLC0415 - only these tests make images

    from PIL import Image  # noqa: PLC0415

    out = io.BytesIO()
    Image.new("RGB", (width, height), (30, 90, 150)).save(out, "PNG")
    return out.getvalue()


def test_a_text_edit_that_changes_the_first_image_of_a_page_makes_its_share_image_too(serve: Serve) -> None:
    """Link previews show a page's first image, cropped to 1200×630 by the full build: an edit that shows another
    image first needs that crop (and the old one is gone), as a clean build makes them."""
    run = serve({**POSTS, "static/img/a.png": _png(1400, 900), "static/img/b.png": _png(1300, 800),
                 "content/posts/p3.md": "---\ntitle: Post 3\ndate: 2024-01-04\n---\n![a](/img/a.png)\n"},
                layouts=False)
    post = run.site / "content/posts/p3.md"
    assert "img/a.share.jpg" in run.session.state.snapshot.files
    _settle(run, lambda: post.write_text(post.read_text().replace("/img/a.png", "/img/b.png")))
    _assert_clean(run)
    _settle(run, lambda: post.write_text(post.read_text() + "\nMore text, the same first image.\n"))
    assert run.session.quick_builds >= 1  # an edit that keeps the first image stays quick
    _assert_clean(run)
