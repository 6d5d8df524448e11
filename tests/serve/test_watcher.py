"""What the dev server's watcher reacts to: a burst of saves is one rebuild; its own output never is."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from tests.serve.conftest import Running

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
