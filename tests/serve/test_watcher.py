"""What the dev server's watcher reacts to: a burst of saves is one rebuild; its own output never is."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import watchfiles.main

from sitegen.build import BuildResult
from sitegen.config import SourceLayout
from sitegen.serve.session import _wait_until
from sitegen.serve.watcher import InputWatch, SourceFilter, input_folders, watch_in_thread
from tests.serve.conftest import Running
from tests.serve.test_server import get

Serve = Callable[..., Running]


def settled(run: Running, seconds: float = 1.5) -> tuple[int, int]:
    """(builds, reload events) once the watcher has had time to act on everything written so far."""
    time.sleep(seconds)
    return run.session.builds, run.session.hub._seq


def test_a_burst_of_200_files_and_a_temp_then_rename_save_give_one_rebuild_and_one_reload(serve: Serve) -> None:
    run = serve()
    builds, events = settled(run, 0.3)
    posts = run.site / "content/posts"
    for i in range(200):  # a `git checkout` touching 200 files
        (posts / f"bulk-{i:03d}.md").write_text(f"---\ntitle: Bulk {i}\ndate: 2024-02-01\n---\nx\n")
    temp = posts / "first.md.tmp"  # an editor's atomic save
    temp.write_text("---\ntitle: First\ndate: 2024-01-01\n---\nSaved.\n")
    os.replace(temp, posts / "first.md")
    run.wait_for_build(builds)
    assert settled(run) == (builds + 1, events + 1)
    assert "posts/bulk-199/index.html" in run.session.state.snapshot.files


def test_output_cache_dotfiles_and_editor_temp_files_never_trigger_a_rebuild(serve: Serve) -> None:
    run = serve()
    builds, events = settled(run, 0.3)
    for rel in ("public/index.html", ".sitegen-cache/memo", ".git/index", "content/.#first.md",
                "content/posts/.first.md.swp", "content/posts/first.md~", "content/posts/4913", "README.md"):
        path = run.site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    assert settled(run) == (builds, events)


def test_deleting_renaming_and_replacing_files_by_folders_never_stops_the_watcher(serve: Serve) -> None:
    run = serve()
    posts = run.site / "content/posts"
    home = run.site / "content/_index.md"

    def edit_rebuilds(text: str) -> None:
        builds = run.session.builds
        home.write_text(f"---\ntitle: Home\n---\n{text}\n")
        run.wait_for_build(builds)
        assert text.encode() in run.session.state.snapshot.files["index.html"]

    def change(action: Callable[[], None]) -> None:
        builds = run.session.builds
        action()
        run.wait_for_build(builds)

    change(lambda: (posts / "first.md").unlink())  # a page deleted: FileNotFoundError killed the watcher
    edit_rebuilds("after a delete")
    change(lambda: os.replace(posts / "论文笔记.md", posts / "renamed.md"))
    edit_rebuilds("after a rename")
    change(lambda: (posts / "new/deep").mkdir(parents=True))
    change(lambda: (posts / "new/deep/x.md").write_text("---\ntitle: X\n---\nX\n"))
    edit_rebuilds("after new folders")
    (posts / "renamed.md").unlink()
    (posts / "renamed.md").mkdir()
    change(lambda: (posts / "renamed.md/inner.md").write_text("---\ntitle: Inner\n---\nI\n"))
    edit_rebuilds("after a file became a folder")
    assert "posts/renamed.md/inner/index.html" in run.session.state.snapshot.files


def test_an_unexpected_exception_in_a_rebuild_is_shown_and_the_next_save_rebuilds(serve: Serve) -> None:
    run = serve()
    real = run.session._build
    calls = []

    def failing_once(changes: set[Path] | None) -> BuildResult:
        calls.append(changes)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return real(changes)

    run.session._build = failing_once  # type: ignore[method-assign]
    home = run.site / "content/_index.md"
    builds = run.session.builds
    home.write_text("---\ntitle: Home\n---\nFirst save.\n")
    run.wait_for_build(builds)
    assert "RuntimeError: boom" in (run.session.hub.error or "")
    home.write_text("---\ntitle: Home\n---\nSecond save.\n")
    deadline = time.monotonic() + 10
    while run.session.builds == builds and time.monotonic() < deadline:
        time.sleep(0.02)
    assert b"Second save." in run.session.state.snapshot.files["index.html"]
    assert not run.session.hub.error


def test_published_static_dotfiles_rebuild_and_are_served(serve: Serve) -> None:
    """static/.well-known/ and .nojekyll reach the output, so the dev server watches and serves them like
    any static file (other dot paths stay 404)."""
    run = serve({"static/.well-known/security.txt": "Contact: a@example.org\n"})
    assert get(run.url, "/.well-known/security.txt")[:1] == (200,)
    builds = run.session.builds
    (run.site / "static/.well-known/security.txt").write_text("Contact: b@example.org\n")
    run.wait_for_build(builds)
    status, _, body = get(run.url, "/.well-known/security.txt")
    assert status == 200 and body == b"Contact: b@example.org\n"
    builds = run.session.builds
    (run.site / "static/.nojekyll").write_text("")
    run.wait_for_build(builds)
    assert ".nojekyll" in run.session.state.snapshot.files
    assert get(run.url, "/.nojekyll")[0] == 404
    assert get(run.url, "/.well-known/../.nojekyll")[0] == 404


def test_a_translation_file_edit_rebuilds_and_is_shown(serve: Serve) -> None:
    """`i18n/*.yaml` is an input like `data/`: saving it rebuilds (it was not watched: the page kept the old text)."""
    run = serve({"layouts/404.html": "<!doctype html><title>404</title><p>{{ i18n('older') }}</p>",
                 "i18n/en.yaml": "older: Earlier words\n"})
    assert b"Earlier words" in get(run.url, "/404.html")[2]
    builds, _ = settled(run, 0.3)
    (run.site / "i18n/en.yaml").write_text("older: Later words\n")
    run.wait_for_build(builds)
    assert b"Later words" in get(run.url, "/404.html")[2]


def test_the_watcher_is_ready_only_once_watchfiles_has_registered_every_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`watch_in_thread` returns when watchfiles first asks whether to stop. That must come after its notifier has
    registered the folders (a save made before would be missed), as watchfiles 1.x does it: its notifier is made
    slow here, so that a watcher that said it was ready sooner, or a watchfiles that asked sooner, fails. A save
    made right then is seen."""
    events: list[str] = []
    real = watchfiles.main.RustNotify

    def slow_notifier(*args: object) -> object:
        events.append("registering")
        time.sleep(0.3)
        made = real(*args)
        events.append("registered")
        return made

    monkeypatch.setattr(watchfiles.main, "RustNotify", slow_notifier)
    deep = tmp_path / "content" / "a" / "b"
    deep.mkdir(parents=True)
    got, stop = threading.Event(), threading.Event()
    thread = watch_in_thread([tmp_path], SourceFilter(tmp_path, []), lambda _paths: got.set(), stop)
    try:
        assert events == ["registering", "registered"]
        (deep / "post.md").write_text("# saved at once\n")
        assert got.wait(10)
    finally:
        stop.set()
        thread.join(5)


def test_only_input_folders_are_watched_never_the_output(tmp_path: Path) -> None:
    """A large `public/` (15,000 folders at 10,000 posts) would spend the system's inotify watches (8,192 on many
    systems): watchfiles then fails and no edit is seen. Only the input folders are watched with their subfolders."""
    for folder in ("content/posts", "layouts/partials", "data", "public/posts/a", ".sitegen-cache", ".git/objects",
                   "node_modules/x", "notes", "config/_default"):
        (tmp_path / folder).mkdir(parents=True)
    ignore = [tmp_path / "public", tmp_path / ".sitegen-cache"]
    assert [p.name for p in input_folders(tmp_path, SourceLayout(), ignore)] == ["config", "content", "data",
                                                                                   "layouts"]
    # Read in place (Jekyll): every folder but dot folders, the `exclude` patterns, Jekyll's _site and an output.
    for folder in ("_posts", "_layouts", "assets/css", "vendor/bundle", "_site/x", "built"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / "built" / ".sitegen-manifest.json").write_text("{}")
    jekyll = SourceLayout(content_dir="", exclude=("vendor", "node_modules"))
    assert [p.name for p in input_folders(tmp_path, jekyll, ignore)] == [
        "_layouts", "_posts", "assets", "config", "content", "data", "layouts", "notes"]


def test_a_site_served_after_a_build_watches_its_inputs_and_not_public(serve: Serve) -> None:
    run = serve({**{f"public/p{i}/index.html": "x" for i in range(300)}})
    assert run.session._inputs is not None
    watched = {p.name for p in run.session._inputs.watching}
    assert "content" in watched and "public" not in watched and not any("public" in str(p) for p in watched)


def test_a_top_folder_removed_made_again_or_swapped_while_serving_is_watched_where_it_now_is(serve: Serve) -> None:
    """`layouts/` removed and made again at once (`rm -rf && cp -r`), then swapped for another by two renames
    (what rsync and build tools do): each time its files count at once, and later edits in it too."""
    run = serve()
    layouts = run.site / "layouts"
    base = (layouts / "base.html").read_text()
    page = "posts/first/index.html"

    def single(word: str) -> str:
        return '{% extends "base.html" %}{% block main %}' + word + " {{ page.title }}{% endblock %}\n"

    def shown(word: str) -> bool:
        return wait_for(lambda: f"{word} First".encode() in run.session.state.snapshot.files.get(page, b""))

    shutil.rmtree(layouts)
    layouts.mkdir()
    (layouts / "base.html").write_text(base)
    (layouts / "single.html").write_text(single("OVERRIDE"))
    assert shown("OVERRIDE")
    (layouts / "single.html").write_text(single("AGAIN"))
    assert shown("AGAIN")
    swap = run.site / "layouts_new"
    shutil.copytree(layouts, swap)
    (swap / "single.html").write_text(single("SWAPPED"))
    layouts.rename(run.site / "layouts_old")
    swap.rename(layouts)
    assert shown("SWAPPED")
    (layouts / "single.html").write_text(single("LATER"))
    assert shown("LATER")
    builds, _ = settled(run, 0.5)
    (run.site / "layouts_old" / "single.html").write_text(single("OLD"))  # the old folder is no input
    assert settled(run, 0.5)[0] == builds


def test_two_notifiers_watch_a_site_of_many_top_folders(tmp_path: Path) -> None:
    """One notifier (inotify instance) for all input folders and one for the site folder: a Jekyll site read in
    place with 150 top folders must not spend one each (128 per user on many systems)."""
    for i in range(150):
        (tmp_path / f"sec{i:03d}").mkdir()
        (tmp_path / f"sec{i:03d}" / "index.md").write_text("x")
    before = sum(t.name == "sitegen-watch" for t in threading.enumerate())
    seen: list[set[Path]] = []
    stop = threading.Event()
    layout = SourceLayout(content_dir="")
    watch = InputWatch(tmp_path, layout, SourceFilter(tmp_path, [], in_place=True), [], seen.append, stop)
    try:
        watch.start()
        assert len(watch.watching) == 150
        assert sum(t.name == "sitegen-watch" for t in threading.enumerate()) == before + 2
        (tmp_path / "sec149" / "index.md").write_text("edited")
        assert wait_for(lambda: any(tmp_path / "sec149" / "index.md" in batch for batch in seen))
        (tmp_path / "newsec").mkdir()  # a top folder made while serving: watched from then on
        (tmp_path / "newsec" / "index.md").write_text("new")
        assert wait_for(lambda: any(tmp_path / "newsec" in batch for batch in seen))
        assert wait_for(lambda: tmp_path / "newsec" in watch.watching)
        time.sleep(0.2)
        seen.clear()
        (tmp_path / "newsec" / "index.md").write_text("edited later")
        assert wait_for(lambda: any(tmp_path / "newsec" / "index.md" in batch for batch in seen))
    finally:
        stop.set()


def wait_for(check: Callable[[], bool], seconds: float = 10) -> bool:
    """Whether `check` holds within `seconds` (the server's own poll)."""
    return _wait_until(check, seconds)


def test_a_top_folder_made_during_a_rebuild_is_built_once_registered_and_never_after_stop(tmp_path: Path) -> None:
    """A top folder made while a rebuild holds the folders' notifier: its own rebuild waits for the notifier to
    register it (so the folder is watched when it is read), and, once the server stops, never comes."""
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "a.md").write_text("x")
    stop = threading.Event()
    calls: list[tuple[set[Path], list[Path], bool]] = []
    watch: InputWatch

    def rebuild(changes: set[Path]) -> None:
        calls.append((changes, list(watch.watching), stop.is_set()))
        if len(calls) == 1:
            time.sleep(1)  # a long rebuild in the notifier's thread

    watch = InputWatch(tmp_path, SourceLayout(), SourceFilter(tmp_path, []), [], rebuild, stop)
    watch.start()
    (tmp_path / "content" / "a.md").write_text("edited")
    assert wait_for(lambda: len(calls) == 1)
    (tmp_path / "static").mkdir()
    assert wait_for(lambda: len(calls) == 2)
    changes, watching, _ = calls[1]
    assert changes == {tmp_path / "static"} and tmp_path / "static" in watching
    calls.clear()
    (tmp_path / "content" / "a.md").write_text("edited again")  # the next long rebuild
    assert wait_for(lambda: len(calls) == 1)
    (tmp_path / "data").mkdir()
    time.sleep(0.3)
    stop.set()
    time.sleep(5.5)
    assert [c for c in calls if tmp_path / "data" in c[0]] == []
