"""Quick rebuilds (`sitegen.incremental`) driven directly: edit, rebuild in memory, compare with a cold build."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from sitegen.build import BuildOptions, build_site
from sitegen.incremental import rebuild_edited_pages
from sitegen.memo import BuildMemo
from sitegen.result import BuildResult

MakeSite = Callable[..., Path]
NOW = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
POSTS = {f"content/posts/p{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-{i + 1:02d}\ntags: [t{i % 3}, 共同]\n"
                                   f"---\nText {i} with [a link](p{(i + 1) % 6}.md).\n<!--more-->\nMore {i}.\n"
                                   for i in range(6)}


def cold(site: Path) -> BuildResult:
    return build_site(BuildOptions(source=site, now=NOW, jobs=1))


def warm(site: Path, memo: BuildMemo) -> BuildResult:
    return build_site(BuildOptions(source=site, now=NOW, jobs=1), memo)


def test_body_edits_rebuilt_in_memory_equal_a_cold_build(make_site: MakeSite) -> None:
    site = make_site(POSTS, layouts=False)  # the default theme: lists, feeds, search, related pages
    memo = BuildMemo()
    result = warm(site, memo)
    post = site / "content/posts/p2.md"
    for extra in ("\nA new paragraph with a [missing](nope.md) link.\n", "\n第二次修改。\n"):
        post.write_text(post.read_text() + extra)
        quick = rebuild_edited_pages(result, {post}, memo)
        assert quick is not None
        fresh = cold(site)
        assert quick.files == fresh.files
        assert sorted(w.format() for w in quick.warnings) == sorted(w.format() for w in fresh.warnings)
        result = quick
    assert result.files["posts/p2/index.html"] != b""
    assert "第二次修改" in result.files["posts/p2/index.html"].decode()


def test_two_pages_edited_at_once_equal_a_cold_build(make_site: MakeSite) -> None:
    site = make_site(POSTS, layouts=False)
    memo = BuildMemo()
    result = warm(site, memo)
    edited = {site / "content/posts/p1.md", site / "content/posts/p4.md"}
    for path in edited:
        path.write_text(path.read_text().replace("More", "Much more"))
    quick = rebuild_edited_pages(result, edited, memo)
    assert quick is not None and quick.files == cold(site).files


def test_edits_that_change_the_structure_need_a_full_build(make_site: MakeSite) -> None:
    site = make_site({**POSTS, "content/cv.md": "---\ntitle: Résumé\nurl: /resume/\n---\nIntro.\n",
                      "data/cv.yaml": "basics:\n  name: Ada\n"}, layouts=False)
    memo = BuildMemo()
    result = warm(site, memo)
    front = site / "content/posts/p3.md"
    front.write_text(front.read_text().replace("title: Post 3", "title: Renamed"))
    assert rebuild_edited_pages(result, {front}, memo) is None
    new = site / "content/posts/new.md"
    new.write_text("---\ntitle: New\n---\nNew.\n")
    assert rebuild_edited_pages(result, {new}, memo) is None
    # cv.md's text is also the introduction of the generated /cv/ page: a quick rebuild would leave it stale.
    intro = site / "content/cv.md"
    intro.write_text(intro.read_text().replace("Intro.", "A new intro."))
    assert rebuild_edited_pages(result, {intro}, memo) is None
    full = warm(site, memo)
    assert full.files == cold(site).files
    assert "A new intro." in full.files["cv/index.html"].decode()


def test_editing_a_talks_abstract_paragraph_updates_its_calendar_as_a_cold_build_does(make_site: MakeSite) -> None:
    talk = "content/talks/t.md"
    site = make_site({**POSTS, talk: "---\ntitle: T\ndate: 2031-01-01 09:00\ntimezone: Asia/Shanghai\n---\n"
                                          "Intro.\n\nAbstract:\nFirst version.\n"}, layouts=False)
    memo = BuildMemo()
    result = warm(site, memo)
    path = site / talk
    path.write_text(path.read_text().replace("First version.", "Second version."))
    quick = rebuild_edited_pages(result, {path}, memo)
    assert quick is not None and quick.files == cold(site).files
    assert b"Second version." in quick.files["talks/t/event.ics"]
