"""A cold build of a large site makes its search index in a forked copy of the build process while it makes its
feeds, sitemap and redirects (`sitegen.parallel.InCopy`, `sitegen.outputs.search.start`): the same files,
and the same memo, as made in its turn in one process."""

from __future__ import annotations

import os
import pickle
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import sitegen.outputs
from sitegen.build import BuildOptions, build_site
from sitegen.memo import BuildMemo
from sitegen.outputs import search
from sitegen.parallel import InCopy, worker_count

MakeSite = Callable[..., Path]
pytestmark = pytest.mark.skipif(worker_count(1000, None) < 2 or not hasattr(os, "fork"),
                                reason="one core, or no fork: everything is done in-process")

FILLER = "Notes on compilers, memory layouts and the reading group's long afternoons. " * 5
SITE = {
    "sitegen.yaml": "title: Copy Test\nbase_url: https://example.org/\nlanguage: en\n",
    "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\n",
    "content/posts/zh.md": "---\ntitle: 笔记\ndate: 2024-01-04\nlang: zh\n---\n我们研究了量子纠缠的实验。\n",
    **{f"content/posts/p{i:02d}.md": f"---\ntitle: Post {i}\ndate: 2024-02-{i % 28 + 1:02d}\ntags: [t{i % 3}]\n"
       f"aliases: [/old/p{i}/]\n---\n{FILLER}\n\nA word of its own: unique{i}word.\n" for i in range(24)},
}


def _pid() -> int:
    return os.getpid()


def _reaped(pid: int) -> bool:
    """Whether a child of this process has ended and been reaped (Linux /proc: a zombie keeps its entry)."""
    return not Path(f"/proc/{pid}").exists()


def _wait_reaped(pid: int) -> bool:
    for _ in range(500):  # the reaping thread ends within moments; a zombie left would stay for good
        if _reaped(pid):
            return True
        time.sleep(0.01)
    return False


def test_the_task_runs_in_a_copy_and_its_result_comes_back() -> None:
    copy = InCopy(_pid)
    assert copy.forked
    pid = copy.result()
    assert pid != os.getpid()
    assert not copy.forked
    if Path("/proc/self/stat").exists():
        assert _wait_reaped(pid), "the copy's exit is reaped without being waited for"


def test_the_heap_stays_off_the_collector_here_until_the_result_is_taken() -> None:
    """A full collection here while the copy shares the heap would copy every page it writes to."""
    import gc  # noqa: PLC0415 - only this test reads the collector

    before = gc.get_freeze_count()
    kept = [[i] for i in range(1000)]  # objects alive at the fork
    copy = InCopy(_pid)
    assert gc.get_freeze_count() >= before + len(kept)
    copy.result()
    assert gc.get_freeze_count() == before
    InCopy(_pid).cancel()
    assert gc.get_freeze_count() == before


def test_a_task_that_fails_in_the_copy_is_run_here() -> None:
    parent = os.getpid()

    def fails_in_a_copy() -> str:
        if os.getpid() != parent:
            raise RuntimeError("a bug seen only in the copy")
        return "made here"

    assert InCopy(fails_in_a_copy).result() == "made here"

    runs: list[int] = []

    def fails_everywhere() -> str:
        runs.append(os.getpid())
        raise ValueError("bad input")

    with pytest.raises(ValueError, match="bad input"):  # the error is raised here, as without a copy, once
        InCopy(fails_everywhere).result()
    assert runs == [parent]


def _slow_copy(tmp_path: Path) -> tuple[InCopy[int], int]:
    """A copy whose task takes a minute, once it runs, and its process id."""
    marker = tmp_path / "pid"

    def slow() -> int:
        marker.write_text(str(os.getpid()))
        time.sleep(60)
        return 0

    copy = InCopy(slow)
    for _ in range(500):
        if marker.exists() and marker.read_text():
            break
        time.sleep(0.01)
    return copy, int(marker.read_text())


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_cancelled_copy_is_ended_and_reaped(tmp_path: Path) -> None:
    copy, pid = _slow_copy(tmp_path)
    copy.cancel()
    assert not copy.forked
    assert _wait_reaped(pid)


def _running(pid: int) -> bool:
    """Whether a process runs (is neither gone nor a zombie waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class _Interrupted(BaseException):
    """What Ctrl-C or SIGTERM raise (`sitegen.cli` turns SIGTERM into KeyboardInterrupt)."""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_an_interrupt_while_waiting_ends_the_copy(tmp_path: Path) -> None:
    def interrupt(*_: object) -> None:
        raise _Interrupted

    copy, pid = _slow_copy(tmp_path)
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(_Interrupted):
            copy.result()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert not copy.forked
    for _ in range(500):
        if not _running(pid):
            break
        time.sleep(0.01)
    assert not _running(pid), "the copy was ended, not left to make a result nobody reads"
    assert _wait_reaped(pid)


def test_a_copy_killed_while_it_writes_its_result_has_it_made_here() -> None:
    parent = os.getpid()
    big = b"x" * (8 << 20)

    def task() -> tuple[int, bytes]:
        return os.getpid(), big

    copy = InCopy(task)
    time.sleep(0.5)  # it has its result, and waits on the full pipe to write the rest
    os.kill(copy._pid, signal.SIGKILL)  # noqa: SLF001 - the copy dies as a killed process would
    assert copy.result() == (parent, big)


def _memo_state(memo: BuildMemo) -> tuple[object, ...]:
    return list(memo.blobs.items()), sorted(memo.used_blobs), dict(memo.memory_only), memo.dirty


@pytest.fixture
def copies(monkeypatch: pytest.MonkeyPatch) -> list[InCopy[object]]:
    """The copies `search.start` starts (from 2 pages on, not 300)."""
    made: list[InCopy[object]] = []

    class Recorded(InCopy[object]):
        def __init__(self, task: Callable[[], object]) -> None:
            super().__init__(task)
            made.append(self)

    monkeypatch.setattr(search, "IN_COPY_PAGES", 2)
    monkeypatch.setattr(search, "InCopy", Recorded)
    return made


def test_an_index_made_in_a_copy_is_the_index_and_memo_made_in_one_process(
        make_site: MakeSite, copies: list[InCopy[object]], monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(SITE)
    serial_memo, copy_memo = BuildMemo(), BuildMemo()
    serial = build_site(BuildOptions(source=site, jobs=1), serial_memo)
    assert not copies
    result = build_site(BuildOptions(source=site, jobs=2), copy_memo)
    assert len(copies) == 1, "the index was made in a copy"
    assert result.files == serial.files
    assert any(path.startswith("searchindex/t/") for path in result.files)
    assert b"unique7word" in b"".join(v for k, v in result.files.items() if k.startswith("searchindex/"))
    assert _memo_state(copy_memo) == _memo_state(serial_memo)
    assert pickle.dumps(copy_memo) == pickle.dumps(serial_memo), "the same build cache"
    assert len(copies) == 1
    # A second build finds the whole index memoized: no copy, the same files, the pages listed once.
    listed: list[int] = []
    real = search._doc_makers
    monkeypatch.setattr(search, "_doc_makers", lambda *args: listed.append(1) or real(*args))
    again = build_site(BuildOptions(source=site, jobs=2), copy_memo)
    assert len(copies) == 1 and listed == [1]
    assert again.files == serial.files


def test_a_changed_page_makes_the_index_in_a_copy_again_from_the_other_pages_memoized_parts(
        make_site: MakeSite, copies: list[InCopy[object]]) -> None:
    site = make_site(SITE)
    memo, serial_memo = BuildMemo(), BuildMemo()
    build_site(BuildOptions(source=site, jobs=2), memo)
    build_site(BuildOptions(source=site, jobs=1), serial_memo)
    page = site / "content/posts/p03.md"
    page.write_text(page.read_text(encoding="utf-8").replace("unique3word", "changed3word"), encoding="utf-8")
    result = build_site(BuildOptions(source=site, jobs=2), memo)
    assert len(copies) == 2
    fresh = build_site(BuildOptions(source=site, jobs=1), BuildMemo())
    assert result.files == fresh.files
    serial = build_site(BuildOptions(source=site, jobs=1), serial_memo)
    assert serial.files == result.files
    assert pickle.dumps(memo) == pickle.dumps(serial_memo), "the same build cache after the edit"
    index = b"".join(v for k, v in result.files.items() if k.startswith("searchindex/"))
    assert b"changed3word" in index and b"unique3word" not in index


def test_too_few_pages_or_one_job_make_the_index_in_its_turn(make_site: MakeSite,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(SITE)
    started: list[object] = []
    real = search.start

    def spy(*args: object, **kwargs: object) -> object:
        begun = real(*args, **kwargs)  # type: ignore[arg-type]
        started.append(begun)
        return begun

    monkeypatch.setattr(search, "start", spy)
    build_site(BuildOptions(source=site, jobs=2), BuildMemo())  # 34 pages, under IN_COPY_PAGES
    build_site(BuildOptions(source=site, jobs=1), BuildMemo())  # --jobs 1: not even asked
    assert started == [None]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_an_error_of_another_generator_ends_the_copy(make_site: MakeSite, copies: list[InCopy[object]],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(SITE)
    pids: list[int] = []
    real = os.fork

    def fork() -> int:
        pid = real()
        if pid:
            pids.append(pid)
        return pid

    def broken(ctx: object) -> dict[str, bytes]:
        raise RuntimeError("a generator's bug")

    generators = [(broken if g is sitegen.outputs.sitemap.generate else g, b) for g, b in sitegen.outputs.GENERATORS]
    monkeypatch.setattr(sitegen.outputs, "GENERATORS", tuple(generators))
    monkeypatch.setattr(os, "fork", fork)
    with pytest.raises(RuntimeError, match="a generator's bug"):
        build_site(BuildOptions(source=site, jobs=2), BuildMemo())
    assert len(copies) == 1 and not copies[0].forked  # cancelled
    assert pids and all(_wait_reaped(pid) for pid in pids)


ML_CONFIG = ("title: T\nbase_url: https://example.org/\nlanguages:\n  en: {name: English, weight: 1}\n"
             "  fr: {name: Francais, weight: 2}\n")


def test_each_language_makes_its_index_in_a_copy_of_its_own_with_its_own_memo(
        make_site: MakeSite, copies: list[InCopy[object]]) -> None:
    files = {"sitegen.yaml": ML_CONFIG, "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\n"}
    for i in range(12):
        body = f"---\ntitle: Post {i}\ndate: 2024-02-{i % 28 + 1:02d}\ntags: [t{i % 3}]\n---\nword{i} commun\n"
        files[f"content/posts/p{i}.md"] = body
        files[f"content/posts/p{i}.fr.md"] = body.replace("Post", "Billet").replace("commun", "mot")
    site = make_site(files)
    serial_memo, copy_memo = BuildMemo(), BuildMemo()
    serial = build_site(BuildOptions(source=site, jobs=1), serial_memo)
    result = build_site(BuildOptions(source=site, jobs=2), copy_memo)
    assert len(copies) == 2
    assert result.files == serial.files
    assert set(copy_memo.languages) == {"fr"}
    assert _memo_state(copy_memo.languages["fr"]) == _memo_state(serial_memo.languages["fr"])
    assert pickle.dumps(copy_memo) == pickle.dumps(serial_memo)


def test_only_the_pages_the_index_lists_count_for_a_copy(make_site: MakeSite, copies: list[InCopy[object]],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree's list, section and term pages are not indexed: 26 pages are listed, of 34 in the tree."""
    site = make_site(SITE)
    monkeypatch.setattr(search, "IN_COPY_PAGES", 27)
    build_site(BuildOptions(source=site, jobs=2), BuildMemo())
    assert not copies
    monkeypatch.setattr(search, "IN_COPY_PAGES", 26)
    build_site(BuildOptions(source=site, jobs=2), BuildMemo())
    assert len(copies) == 1
