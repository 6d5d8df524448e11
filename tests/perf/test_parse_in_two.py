"""A cold build of a large site parses its pages on two cores (`sitegen.parallel.map_in_two`): the same pages,
warnings and errors, in the same order, as parsing in one process."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import sitegen.build
from sitegen.build import BuildOptions, build_site
from sitegen.errors import SitegenError
from sitegen.parallel import map_in_two, worker_count

MakeSite = Callable[..., Path]
pytestmark = pytest.mark.skipif(worker_count(1000, None) < 2, reason="one core: everything is done in-process")

POSTS = {f"content/posts/p{i:03d}.md": f"---\ntitle: P{i}\ndate: 2023-01-{i % 28 + 1:02d}\ntags: [t{i % 7}]\n"
                                       f"tittle: typo {i}\n---\nWords {i}.\n" for i in range(40)}


def _pids(chunk: Sequence[int]) -> list[tuple[int, int]]:
    return [(item, os.getpid()) for item in chunk]


def test_the_second_half_is_done_by_a_copy_and_results_keep_their_order() -> None:
    results = map_in_two(_pids, list(range(101)), None, minimum=10)
    assert [item for item, _ in results] == list(range(101))
    assert {pid for _, pid in results[:50]} == {os.getpid()}
    assert {pid for _, pid in results[50:]} - {os.getpid()}, "the second half was parsed in another process"
    assert map_in_two(_pids, list(range(101)), 1, minimum=10) == _pids(range(101))  # --jobs 1: in-process
    assert map_in_two(_pids, list(range(9)), None, minimum=10) == _pids(range(9))  # too few to fork


def test_a_copy_that_fails_has_its_half_done_here() -> None:
    parent = os.getpid()

    def fails_in_a_copy(chunk: Sequence[int]) -> list[int]:
        if os.getpid() != parent:
            raise RuntimeError("a bug seen only in the copy")
        return [item * 2 for item in chunk]

    assert map_in_two(fails_in_a_copy, list(range(20)), None, minimum=2) == [i * 2 for i in range(20)]


def test_pages_parsed_on_two_cores_build_the_same_site(make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(POSTS)
    serial = build_site(BuildOptions(source=site, jobs=1))
    monkeypatch.setattr(sitegen.build, "PARSE_IN_TWO", 2)
    parallel = build_site(BuildOptions(source=site))
    assert parallel.files == serial.files
    assert [w.format() for w in parallel.warnings] == [w.format() for w in serial.warnings]
    assert any("did you mean `title`" in w.message for w in parallel.warnings)


def test_errors_of_pages_parsed_on_two_cores_are_reported_as_in_one_process(
        make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site({**POSTS, "content/posts/p003.md": "---\ntitle: [unclosed\n---\n",
                      "content/posts/p037.md": "---\ndate: 2024-13-01\n---\n"})
    messages = []
    for jobs, threshold in ((1, 10_000), (None, 2)):
        monkeypatch.setattr(sitegen.build, "PARSE_IN_TWO", threshold)
        with pytest.raises(SitegenError) as info:
            build_site(BuildOptions(source=site, jobs=jobs))
        messages.append(info.value.format())
    assert messages[0] == messages[1]
    assert "content/posts/p003.md:3:" in messages[1] and "content/posts/p037.md:2:" in messages[1]
