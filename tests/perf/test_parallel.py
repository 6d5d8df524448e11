"""Rendering on every core: the same files and the same errors as rendering in one process."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import sitegen.build
from sitegen.build import BuildOptions, build_site
from sitegen.errors import SitegenError
from sitegen.parallel import fenced_code, fork_map

MakeSite = Callable[..., Path]

POSTS = {f"content/posts/p{i:03d}.md": f"---\ntitle: P{i}\ndate: 2023-01-{i % 28 + 1:02d}\ntags: [t{i % 7}]\n---\n"
                                       f"Words {i} and 中文 {i}.\n\n```python\nx = {i % 5}\n```\n" for i in range(240)}


def _errors(site: Path, jobs: int) -> list[str]:
    with pytest.raises(SitegenError) as info:
        build_site(BuildOptions(source=site, jobs=jobs))
    return sorted(info.value.format().splitlines())


def test_template_errors_found_in_workers_are_reported_like_in_one_process(make_site: MakeSite) -> None:
    broken = {
        "content/posts/p007.md": "---\ntitle: Broken\ndate: 2023-02-01\nlayout: broken\n---\nx\n",
        "content/posts/p123.md": "---\ntitle: Also broken\ndate: 2023-02-02\nlayout: broken\n---\ny\n",
        "layouts/broken.html": "line one\n{{ page.params.nothing.deeper }}\n",
    }
    site = make_site({**POSTS, **broken}, layouts=False)
    serial, parallel = _errors(site, 1), _errors(site, 2)
    assert serial == parallel
    text = "\n".join(parallel)
    assert "layouts/broken.html:2" in text
    assert "content/posts/p007.md" in text and "content/posts/p123.md" in text


def test_word_counts_and_reading_times_do_not_depend_on_workers(make_site: MakeSite) -> None:
    site = make_site(POSTS, layouts=False)
    serial = build_site(BuildOptions(source=site, jobs=1))
    parallel = build_site(BuildOptions(source=site, jobs=2))
    assert serial.files == parallel.files
    assert parallel.state is not None
    view = parallel.state.view("posts/p042.md")
    assert view is not None and view.word_count == 8 and view.reading_time == 1  # Words 42 and 42, 中文, x 2


def _chunks_seen(chunk: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    return [(item, tuple(chunk)) for item in chunk]


def test_items_of_one_group_share_chunks_so_a_worker_memo_serves_them() -> None:
    items = list(range(240))
    out = fork_map(_chunks_seen, items, 2, group=lambda i: f"{i % 5}")
    assert sorted(item for item, _ in out) == items
    chunks = {chunk for _, chunk in out}
    # 5 groups of 48 in chunks of 30: each group in at most 3 chunks (not in all 8, as dealt round-robin).
    assert max(sum(1 for chunk in chunks if any(i % 5 == key for i in chunk)) for key in range(5)) <= 3
    assert sorted(fork_map(_chunks_seen, items, 1, group=str)) == sorted((i, tuple(items)) for i in items)


def test_work_done_beside_the_workers_that_fails_is_done_again_in_its_place(
        make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(POSTS, layouts=False)
    expected = build_site(BuildOptions(source=site, jobs=1)).files

    def fail(*_args: object, **_kwargs: object) -> None:
        raise OSError("no head start")

    monkeypatch.setattr(sitegen.build, "compiled_templates", fail)
    assert build_site(BuildOptions(source=site, jobs=2)).files == expected


_MARKS: list[str] = []


def _pid_and_marks(chunk: Sequence[int]) -> list[tuple[int, int, tuple[str, ...]]]:
    return [(item, os.getpid(), tuple(_MARKS)) for item in chunk]


def test_work_beside_the_workers_runs_in_this_process_after_they_are_forked() -> None:
    calls: list[int] = []

    def beside() -> None:
        calls.append(os.getpid())
        _MARKS.append("compiled")

    try:
        out = fork_map(_pid_and_marks, list(range(240)), 2, beside=beside)
        assert calls == [os.getpid()]
        assert sorted(item for item, _, _ in out) == list(range(240))
        assert os.getpid() not in {pid for _, pid, _ in out}
        assert {marks for _, _, marks in out} == {()}, "the workers were forked before it ran"
        calls.clear()
        fork_map(_pid_and_marks, list(range(240)), 1, beside=beside)
        assert calls == [], "in one process there is no wait to fill"
    finally:
        _MARKS.clear()


def test_fenced_code_is_what_pages_are_grouped_by() -> None:
    body = "Intro\n\n```python {linenos=true}\nx = 1\n```\n\nMiddle\n\n  ~~~\ny\n  ~~~\nEnd\n"
    code = fenced_code(body)
    assert "x = 1" in code and "y" in code and "Intro" not in code and "Middle" not in code and "End" not in code
    assert fenced_code("No code ``here``.") == "" and fenced_code("") == ""
