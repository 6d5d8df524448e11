"""A cold build of a large site parses its pages on two cores (`sitegen.parallel.map_in_two`): the same pages,
warnings and errors, in the same order, as parsing in one process."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import sitegen.build
from sitegen.build import BuildOptions, build_site
from sitegen.errors import SitegenError
from sitegen.parallel import Balance, map_in_two, worker_count

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


def _pages(chunk: Sequence[int]) -> list[object]:
    """Results with large and small bytes fields (pages, and a field too short to travel apart), and not tuples."""
    return [(i, bytes([i % 256]) * (5000 + i), b"small", os.getpid()) if i % 10 else [i] for i in chunk]


@pytest.mark.parametrize("shared", [1 << 20, 12_000, 0])
def test_the_copys_large_bytes_come_back_through_shared_memory_the_same_as_through_the_pipe(shared: int) -> None:
    """All of them fit, only the first two fit (the rest come through the pipe), or no shared memory at all."""
    results = map_in_two(_pages, list(range(40)), None, minimum=10, shared=shared)
    assert [r if isinstance(r, list) else r[:3] for r in results] == [
        r if isinstance(r, list) else r[:3] for r in _pages(range(40))]
    assert {r[3] for r in results[21:] if isinstance(r, tuple)} - {os.getpid()}, "made in the copy"
    sent = [len(r[1]) for r in results[20:] if isinstance(r, tuple)]
    assert sent == [5000 + i for i in range(20, 40) if i % 10]


def test_what_the_copy_pickles_for_the_pipe_leaves_its_pages_in_the_shared_memory() -> None:
    import pickle  # noqa: PLC0415 - only this test measures a pickle

    from sitegen.parallel import _into_region, _out_of_region, _shared_region  # noqa: PLC0415

    results = _pages(range(20, 40))
    region = _shared_region(1 << 20)
    assert region is not None
    sent = pickle.dumps(_into_region(results, region))
    assert len(sent) < 5000 < len(pickle.dumps(results))  # 18 pages of ~5 KB stayed out of the pipe
    assert _out_of_region(pickle.loads(sent), region) == results  # noqa: S301 - made just above


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


def _reaped(pid: int) -> bool:
    """Whether a child of this process has ended and been reaped (Linux /proc: a zombie keeps its entry)."""
    return not Path(f"/proc/{pid}").exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_copy_is_reaped_without_being_waited_for() -> None:
    """The results are whole once they unpickle; the copy's exit (unmapping a large copy) is reaped beside."""
    results = map_in_two(_pids, list(range(101)), None, minimum=10)
    assert [item for item, _ in results] == list(range(101))
    (copy,) = {pid for _, pid in results} - {os.getpid()}
    for _ in range(500):  # the reaping thread ends within moments; a zombie left would stay for good
        if _reaped(copy):
            break
        time.sleep(0.01)
    assert _reaped(copy)


@pytest.mark.parametrize("share", [0.25, 0.4, 0.5])
def test_a_balance_gives_the_copy_its_share_and_results_keep_their_order(share: float) -> None:
    """With a learned share, the copy takes the items from `first_of_copy` on; results are the same, in order."""
    balance = Balance(share)
    first = balance.first_of_copy(101)
    assert first == 101 - round(101 * share)
    results = map_in_two(_pids, list(range(101)), None, minimum=10, balance=balance)
    assert [item for item, _ in results] == list(range(101))
    assert {pid for _, pid in results[:first]} == {os.getpid()}
    assert os.getpid() not in {pid for _, pid in results[first:]}, "the rest was done in the copy"
    assert Balance.LEAST <= balance.copy_share <= Balance.MOST  # and it learned from this split's timings


def test_a_balance_moves_halfway_to_the_share_that_would_have_taken_as_long_on_both_sides() -> None:
    balance = Balance()
    balance.learn(500, 0.080, 500, 0.120)  # an item cost the copy 1.5 times as much: 40% would have been even
    assert balance.copy_share == pytest.approx((0.5 + 0.4) / 2)
    balance.learn(550, 0.088, 450, 0.108)  # the same costs again: it keeps moving towards 40%
    assert balance.copy_share == pytest.approx((0.45 + 0.4) / 2)
    for _ in range(20):  # a copy far slower (a busy machine) never leaves it less than a quarter
        balance.learn(500, 0.080, 500, 2.0)
    assert balance.copy_share == Balance.LEAST
    for _ in range(20):  # nor more than half, however slow this process was
        balance.learn(500, 2.0, 500, 0.080)
    assert balance.copy_share == Balance.MOST
    before = balance.copy_share
    balance.learn(0, 0.0, 1000, 0.1)  # nothing to learn from a one-sided split
    assert balance.copy_share == before
