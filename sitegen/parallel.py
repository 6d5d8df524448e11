"""Render on every core for large builds: Markdown, then templates. The result never depends on the number
of workers: each item is rendered by the same pure function, in whatever process, and results are keyed.

Workers are forked once the data they need is complete (the content tree for Markdown, the rendered
Markdown for templates), so they inherit it (no pickling of the site); only keys go out and results come
back. Small builds and platforms without fork render in-process.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import gc
import mmap
import multiprocessing
import os
import pickle
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Generic, NamedTuple, NoReturn, TypeVar

from sitegen.content.text import text_stats
from sitegen.content.tree import ContentTree
from sitegen.content.urls import UrlHelper
from sitegen.dialects import Dialect
from sitegen.dialects.base import ExpandContext
from sitegen.links import REF, LinkResolver
from sitegen.markdown import MarkdownRenderer, RenderContext, Rendered
from sitegen.memo import key_of

MIN_PAGES_PER_WORKER = 60
"""Below this many pages per extra process, forking costs more than it saves."""

LinkDecisions = tuple[tuple[str, str | None], ...]
PARAMS = "\0params"
"""Recorded among a page's link decisions when its expansion read the parameters (Hugo's `{{< param >}}`): its
result is a digest of the page's and the site's params, so a cached rendering is redone when they change."""
Item = TypeVar("Item")
Result = TypeVar("Result")
_WORKER_TASK: list[Callable[[Sequence[Any]], list[Any]]] = []
"""In a forked worker only: the task its pool was made for (installed by `_adopt`; the parent never sets it,
so two pools in one process, e.g. two builds on two threads, cannot see each other's task)."""


class _ReadParams(Mapping[str, Any]):
    """The parameters in-content syntax reads, telling `on_read` when it reads any of them."""

    def __init__(self, params: Mapping[str, Any], on_read: Callable[[], None]) -> None:
        self._params, self._on_read = params, on_read

    def __getitem__(self, key: str) -> Any:
        self._on_read()
        return self._params[key]

    def __iter__(self) -> Iterator[str]:
        self._on_read()
        return iter(self._params)

    def __len__(self) -> int:
        self._on_read()
        return len(self._params)


def params_digest(page_params: Mapping[str, Any], site_params: Mapping[str, Any] | None) -> str:
    """What a page's expansion could read of the parameters, as one digest (the result recorded for `PARAMS`)."""
    return key_of("params", dict(page_params), dict(site_params or {}))


def with_params(decide: Callable[[str], str | None], page_params: Mapping[str, Any],
                site_params: Mapping[str, Any] | None) -> Callable[[str], str | None]:
    """A page's link decisions that also answer `PARAMS` with the current parameters' digest (to validate a cached
    rendering)."""
    return lambda href: params_digest(page_params, site_params) if href == PARAMS else decide(href)


def render_one(tree: ContentTree, renderer: MarkdownRenderer, resolver: LinkResolver, dialect: Dialect,
               source: str, site_params: Mapping[str, Any] | None = None, *, summary: bool = False,
               terms: bool = True) -> tuple[Rendered, LinkDecisions]:
    """Expand the dialect's in-content syntax, then render the Markdown, recording every link decision (for
    cache validation); with `summary`, the front-matter summary too (`Rendered.front_summary`); without `terms`,
    not the search index's term weights (its indexer makes them from the plain text)."""
    page = tree.pages[source]
    decide = resolver.decisions_for_page(source)
    seen: dict[str, str | None] = {}

    def recording(href: str) -> str | None:
        seen[href] = decide(href)
        return seen[href]

    def read_params() -> None:
        if PARAMS not in seen:
            seen[PARAMS] = params_digest(page.params, site_params)

    context = ExpandContext(resolve_ref=lambda path: recording(REF + path),
                            params=_ReadParams(collections.ChainMap(page.params, dict(site_params or {})), read_params),
                            site_url=resolver.urls.url)
    body, notes = dialect.expand(page.body, source, page.body_line, context)
    rendered = renderer.render(body, RenderContext(source=source, body_line=page.body_line, resolve_link=recording))
    # Here, on every core, not in templates: the plain text and word counts, and the search index's share of the work.
    rendered.plain, rendered.words, rendered.terms = text_stats(rendered.html, terms, rendered.plain)
    rendered.warnings = tuple(notes)
    if summary and page.summary is not None:  # here, on every core, rather than one by one in the build process
        rendered.front_summary = renderer.render_summary(page.summary)
    return rendered, tuple(sorted(seen.items()))


def _start_worker(parent: int, task: Callable[[Sequence[Any]], list[Any]]) -> None:
    """Worker initializer: die with the build process, and keep the pool's task (a fork passes it without
    pickling, closures included)."""
    _die_with_parent(parent)
    _WORKER_TASK[:] = [task]


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when the build process ends, even by `kill -9` (a worker waiting
    on its queue would otherwise live on, holding memory and the output's lock). Linux: the kernel sends
    SIGKILL (prctl PR_SET_PDEATHSIG); elsewhere a thread watches the parent's id."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # 1 = PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent died before the call: nobody will send the signal
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_watch_parent, args=(parent,), name="sitegen-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _run_task(chunk: Sequence[Any]) -> list[Any]:
    return _WORKER_TASK[0](chunk)


def tune_gc_for_builds() -> None:
    """Collect less often: a build allocates millions of short-lived objects (tokens, nodes, strings) over a
    large long-lived heap (pages, rendered HTML), and the default thresholds spend a tenth of a build, and
    most of a dev server's quick rebuild, walking that heap."""
    gc.set_threshold(50_000, 50, 100)


def collect_if_due(share: float = 0.5) -> bool:
    """A full collection now, when the collector's next one is due within `share` of its interval (the number of
    younger collections since the last full one, against the threshold `tune_gc_for_builds` sets); whether it ran.
    The dev server calls this once its background work is done: a full collection walks the whole site (1.8 s at
    10,000 posts), and it would otherwise come wherever the allocations tip it over, an edit included."""
    threshold = gc.get_threshold()[2]
    if threshold <= 0 or gc.get_count()[2] < share * threshold:
        return False
    gc.collect()
    return True


def cores(jobs: int | None) -> int:
    """The cores this process may use (its CPU affinity), or `jobs` when the user gave `--jobs`."""
    if jobs is not None:
        return max(1, jobs)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def worker_count(pages: int, jobs: int | None) -> int:
    """How many processes to use for `pages` pages (`jobs` caps it; 1 means in-process)."""
    wanted = cores(jobs)
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(wanted, pages // MIN_PAGES_PER_WORKER))


def fork_map(task: Callable[[Sequence[Item]], list[Any]], items: Sequence[Item], jobs: int | None,
             group: Callable[[Item], str] | None = None, beside: Callable[[], object] | None = None) -> list[Any]:
    """`task` over chunks of `items`, in forked workers when there are enough items; results concatenated
    in an order that depends on the number of workers, so results must carry their own keys. Items of one
    `group` key go to one chunk where they can (each worker process keeps its own memos: highlighted code).

    `beside` is work for this process while the workers run (it would otherwise only wait for them): called
    once the workers are forked, so they never see what it does; not called when everything runs here."""
    workers = worker_count(len(items), jobs)
    if workers <= 1:
        return task(items)
    if group is None:
        chunks = [items[i::workers * 4] for i in range(workers * 4)]
    else:
        ordered = sorted(items, key=group)
        size = -(-len(ordered) // (workers * 4))
        chunks = [ordered[i:i + size] for i in range(0, len(ordered), size)]
    # Everything alive now is shared read-only with the workers: keep the collector off it (fewer
    # copy-on-write pages, shorter collections).
    gc.freeze()
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_start_worker, initargs=(os.getpid(), task)) as pool:
            results = pool.map(_run_task, chunks)  # the workers are forked here, before `beside` runs
            if beside is not None:
                try:
                    beside()
                except BaseException:
                    pool.shutdown(cancel_futures=True)
                    raise
            return [item for chunk in results for item in chunk]
    finally:
        gc.unfreeze()


def _copy_main(read_fd: int, write_fd: int, make: Callable[[], object]) -> NoReturn:
    """What a forked copy does (`InCopy`, `map_in_two`): `make()`, its result pickled into the pipe whole, then
    leave without the parent's exit handlers or buffered output (exit status 1, and nothing written, if it fails).
    The copy dies with its parent."""
    code = 1
    try:
        os.close(read_fd)
        _die_with_parent(os.getppid())
        data = pickle.dumps(make(), protocol=pickle.HIGHEST_PROTOCOL)
        with open(write_fd, "wb") as pipe:
            pipe.write(data)
        code = 0
    finally:
        os._exit(code)


def _reap(pid: int) -> None:
    """Reap a copy's exit on a thread of its own (unmapping a large copy takes ~50 ms at 10,000 pages): not waited
    for, and no zombie left."""
    threading.Thread(target=os.waitpid, args=(pid, 0), name="sitegen-reap", daemon=True).start()


class InCopy(Generic[Result]):
    """`task()` in a forked copy of this process, while this process goes on with other work; `result()` waits for
    it (pickled back through a pipe). For a step that needs nothing the next steps make and that would otherwise
    leave the second core idle (a cold build's search index, beside its feeds, sitemap and the staged writes).

    `task` must be pure: should the copy fail, or fork be missing, `result()` runs it here (so an error is raised
    here, as without the copy). Everything alive at the fork is kept off the collector, in the copy and here until
    the result is taken (as `fork_map` does for its pool): a full collection in either would write to every object of
    the site's heap, and each page of it written while the two share it is copied. `cancel()` ends a copy whose
    result is no longer wanted (an error elsewhere), which would otherwise wait on its pipe until this process
    ends."""

    def __init__(self, task: Callable[[], Result]) -> None:
        self._task = task
        self._pid = 0
        self._fd = -1
        if not hasattr(os, "fork"):
            return
        read_fd, write_fd = os.pipe()
        gc.freeze()
        try:
            pid = os.fork()
        except OSError:
            gc.unfreeze()
            os.close(read_fd)
            os.close(write_fd)
            return
        if pid == 0:
            _copy_main(read_fd, write_fd, task)
        self._pid, self._fd = pid, read_fd  # (still frozen here: `_end` thaws it)
        os.close(write_fd)

    @property
    def forked(self) -> bool:
        """Whether a copy was started and its result not yet taken (nor cancelled)."""
        return self._pid != 0

    def result(self) -> Result:
        """The task's result, from the copy (its exit reaped, not waited for), or made here if it failed."""
        if not self._pid:
            return self._task()
        pid, fd = self._pid, self._fd
        try:
            with open(fd, "rb") as pipe:
                data = pipe.read()
        except BaseException:  # interrupted (Ctrl-C, SIGTERM): the copy is not left to finish for nobody
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            raise
        finally:
            self._end(pid)
        if not data:  # the copy failed before its result (an error here is raised here, once)
            return self._task()
        try:  # the copy writes its result once it has it whole, then the pipe ends
            result: Result = pickle.loads(data)  # noqa: S301 - made by this process's copy
        except Exception:  # noqa: BLE001 - cut short: the copy was killed while it wrote it
            return self._task()
        return result

    def cancel(self) -> None:
        """End the copy, if one runs (nothing is waited for)."""
        if not self._pid:
            return
        pid, fd = self._pid, self._fd
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        try:
            os.close(fd)
        finally:
            self._end(pid)

    def _end(self, pid: int) -> None:
        """Forget the copy, reap its exit beside (not waited for), and let the collector back onto the heap."""
        self._pid, self._fd = 0, -1
        _reap(pid)
        gc.unfreeze()


def split_in_two(task: Callable[[Sequence[Item]], list[Any]], items: Sequence[Item], jobs: int | None,
                 shared: int = 0, balance: Balance | None = None) -> list[Any]:
    """`map_in_two` for a process that holds a large site (the dev server): part here, part in one forked copy,
    with the collector kept off everything alive (fewer copy-on-write pages in the copy, no full collection of
    the site's heap in either). Against a pool of workers it pickles back half the results, forks once, and uses
    the core this process would otherwise wait on. `shared`, `balance`: see `map_in_two`."""
    gc.freeze()
    try:
        return map_in_two(task, items, jobs, 2 * MIN_PAGES_PER_WORKER, shared, balance)
    finally:
        gc.unfreeze()


class Balance:
    """How many of `map_in_two`'s items its copy takes, learned from the splits before (a step that runs again and
    again: a template edit under `sitegen serve`). An item costs the copy more than it costs this process: the
    copy starts by forking, pays a copy-on-write fault for each page of memory it writes to, and sends its
    results back, which this process then reads. Halves leave this process waiting for its copy (a fifth of its
    time for a template edit at 1,000 and at 10,000 posts); shares that make both take as long do not."""

    LEAST, MOST = 0.25, 0.5
    """The copy's share stays within these: never more than half (a copy costs more per item, not less), never so
    little that one slow measurement on a busy machine leaves the second core idle for long."""

    def __init__(self, copy_share: float = 0.5) -> None:
        self.copy_share = copy_share
        """The part of the items the copy takes next time."""

    def first_of_copy(self, count: int) -> int:
        """The index of the first item of `count` that the copy takes."""
        return count - round(count * self.copy_share)

    def learn(self, here: int, here_seconds: float, there: int, there_seconds: float) -> None:
        """Take a split's timings into account: this process did `here` items in `here_seconds`, the copy
        `there` items in `there_seconds` (from the fork to its results read here). The share that would have made
        both take as long, if each item costs each side what it cost this time, is averaged with the last one
        (a busy moment of this shared machine moves it halfway, not all the way)."""
        if here <= 0 or there <= 0 or here_seconds <= 0 or there_seconds <= 0:
            return
        per_here, per_there = here_seconds / here, there_seconds / there
        even = per_here / (per_here + per_there)
        self.copy_share = min(self.MOST, max(self.LEAST, (self.copy_share + even) / 2))


def render_many(tree: ContentTree, renderer: MarkdownRenderer, urls: UrlHelper, dialect: Dialect, sources: list[str],
                jobs: int | None, site_params: Mapping[str, Any] | None = None, *, summaries: bool = False,
                terms: bool = True, beside: Callable[[], object] | None = None
                ) -> dict[str, tuple[Rendered, LinkDecisions]]:
    """Render these pages' Markdown, in parallel when it pays; the same result for any number of workers
    (`site_params`: what in-content syntax such as Hugo's `param` shortcode may read; `summaries`: render
    front-matter summaries too; `terms`: the search index's term weights, unless it is made later; `beside`: see
    `fork_map`)."""

    def task(chunk: Sequence[str]) -> list[tuple[str, Rendered, LinkDecisions]]:
        resolver = LinkResolver(tree, urls)
        return [(s, *render_one(tree, renderer, resolver, dialect, s, site_params, summary=summaries, terms=terms))
                for s in chunk]

    def code_of(source: str) -> str:
        return fenced_code(tree.pages[source].body)

    return {source: (rendered, links) for source, rendered, links in fork_map(task, sources, jobs, code_of, beside)}


_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.M)


def fenced_code(body: str) -> str:
    """The fenced code blocks of a Markdown text, roughly (what lies between fence lines), to send pages that show
    the same code to the same worker: it highlights the code once, where two workers would each highlight it."""
    return "".join(_FENCE.split(body)[1::2]) if "```" in body or "~~~" in body else ""


def map_in_two(task: Callable[[Sequence[Item]], list[Any]], items: Sequence[Item], jobs: int | None,
               minimum: int, shared: int = 0, balance: Balance | None = None) -> list[Any]:
    """`task` over `items` (results in order): the second half in a forked copy of this process, its results
    pickled back through a pipe, while this process does the first half. For serial steps too short for a pool
    (parsing 10,000 pages: ~1.3 s); in-process below `minimum` items, with one core or `jobs=1`, or without fork.
    `task` must be pure; if the copy fails, its half is done here (so an error is raised here, as without it).
    With `shared` (bytes, about what the results' large `bytes` fields add up to: rendered pages), those fields of
    the copy's result tuples come back through that much shared memory instead: the copy neither pickles them
    nor waits for this process to read them from the pipe (84 MB, 0.3 s, for half of 10,000 posts). With
    `balance`, the copy takes the items from `balance.first_of_copy` on (not half), and `balance` learns from how
    long each side took."""
    if len(items) < minimum or worker_count(2 * MIN_PAGES_PER_WORKER, jobs) < 2:  # one core, or `jobs=1`
        return task(items)
    half = len(items) // 2 if balance is None else balance.first_of_copy(len(items))
    read_fd, write_fd = os.pipe()
    region = _shared_region(shared)  # (made once the pipe is: nothing left open should it fail)
    started = time.monotonic()  # (the system's clock, the same in the copy)
    try:
        pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        if region is not None:
            region.close()
        return task(items)
    if pid == 0:  # its half, put in the shared region before the parent reads
        _copy_main(read_fd, write_fd, lambda: (_into_region(task(items[half:]), region), time.monotonic()))
    os.close(write_fd)
    try:
        with open(read_fd, "rb") as pipe:
            try:
                first = task(items[:half])
                done_here = time.monotonic()
                data = pipe.read()
            except BaseException:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise
        # The copy writes its results once it has them all, then the pipe ends: they are whole when they unpickle.
        _reap(pid)
        try:
            theirs, done_there = pickle.loads(data) if data else (None, 0.0)  # noqa: S301 - made by this process's copy
        except Exception:  # noqa: BLE001 - cut short: the copy was killed while it wrote them
            theirs = None
        if theirs is None:  # the copy failed: its half is done here
            return first + task(items[half:])
        read_at = time.monotonic()
        out = first + _out_of_region(theirs, region)
        if balance is not None:  # the copy's time: until it had its results, then what reading them cost here
            balance.learn(half, done_here - started, len(items) - half,
                          done_there - started + time.monotonic() - read_at)
        return out
    finally:
        if region is not None:
            region.close()


_IN_REGION = 4096
"""A `bytes` field at least this long comes back from `map_in_two`'s copy through its shared memory."""


class _InRegion(NamedTuple):
    """Where a `bytes` field of a result is in `map_in_two`'s shared memory."""

    start: int
    length: int


def _shared_region(size: int) -> mmap.mmap | None:
    """Anonymous memory shared with a forked copy (only the pages written to are used), or None."""
    if size <= 0:
        return None
    try:
        return mmap.mmap(-1, size)
    except (OSError, ValueError, OverflowError):  # too large for this machine: the pipe carries everything
        return None


def _into_region(results: list[Any], region: mmap.mmap | None) -> list[Any]:
    """The results, their tuples' large `bytes` fields written to `region` (in order, while they fit) and
    replaced by where they are."""
    if region is None:
        return results
    at, size = 0, len(region)
    out: list[Any] = []
    for result in results:
        if type(result) is tuple:
            fields: list[Any] = []
            for value in result:
                if type(value) is bytes and _IN_REGION <= len(value) <= size - at:
                    region[at:at + len(value)] = value
                    fields.append(_InRegion(at, len(value)))
                    at += len(value)
                else:
                    fields.append(value)
            result = tuple(fields)
        out.append(result)
    return out


def _out_of_region(results: list[Any], region: mmap.mmap | None) -> list[Any]:
    """`_into_region` undone (in the process that made `region`, after the copy wrote it)."""
    if region is None:
        return results
    return [tuple(region[v.start:v.start + v.length] if type(v) is _InRegion else v for v in result)
            if type(result) is tuple else result for result in results]
