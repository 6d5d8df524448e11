"""Time `sitegen serve` from a cold start to its `Serving ...` line, and (with `--edits`) the edits around its
background work: one post saved while it runs, then, once the server is idle, the post and the post layout.

Usage: python bench/serve_start.py SITE [--code DIR ...] [--rounds 3] [--edits [--save-after 0.5]] [--port 8791]

Each `--code` is a sitegen checkout (`PYTHONPATH=DIR python -m sitegen serve`; default: this one); rounds run the
checkouts one after the other (A B A B ...), the site's cache and output removed before every start, as bench/run.py
does. Prints each start's wall seconds and the CPU seconds the server had used by then (Linux), each edit's seconds
from the save to the page served with it and the server's own figure ("Rebuilt in N ms"), and the medians.
SITE's `layouts/single.html` is written (a copy of the default theme's) and its files are put back after each start.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from run import REPO, compile_bytecode, get, restored, sitegen_edits, wait_for  # bench/run.py (this folder)


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process and its reaped children (0 where /proc is missing)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def wait_idle(pid: int, timeout: float = 600) -> float:
    """Seconds until the process uses under 3% of a core over a second (its background work done)."""
    started = time.perf_counter()
    before = cpu_seconds(pid)
    while time.perf_counter() - started < timeout:
        time.sleep(1)
        now = cpu_seconds(pid)
        if now - before < 0.03:
            return time.perf_counter() - started - 1
        before = now
    raise SystemExit("the server never went idle")


def one_start(code: Path, site: Path, port: int, edits: float | None, round_no: int) -> dict[str, float]:
    """Start, time, optionally edit, stop; the figures of this start."""
    for folder in (site / ".sitegen-cache", site / "public"):
        shutil.rmtree(folder, ignore_errors=True)
    env = dict(os.environ, PYTHONPATH=str(code))
    argv = [sys.executable, "-m", "sitegen", "serve", "--source", str(site), "--port", str(port)]
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True)
    figures: dict[str, float] = {}
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("Serving "):
                figures["ready s"] = time.perf_counter() - started
                figures["CPU s at ready"] = cpu_seconds(proc.pid)
                break
        else:
            raise SystemExit(f"sitegen serve ({code}) ended before serving")
        rebuilt: list[float] = []  # the server's own figure of each rebuild ("Rebuilt in N ms")
        threading.Thread(target=_rebuilds, args=(proc.stdout, rebuilt), daemon=True).start()
        if edits is not None:
            mine = sitegen_edits(site)
            post, template = mine["post"], mine["template"]
            plan = [(f"post saved after {edits:g} s", post, False), ("post saved when idle", post, True),
                    ("template saved when idle", template, True)]
            for name, edit, idle in plan:
                if idle:
                    figures.setdefault("idle after s", wait_idle(proc.pid))
                else:
                    time.sleep(edits)  # while the server works in the background (index, fragments)
                marker = f"serve-start-{round_no}-{name.replace(' ', '-')}"
                assert marker.encode() not in get(port, edit.url)[1], f"{edit.url} has {marker} before the save"
                before, saved = len(rebuilt), time.perf_counter()
                edit.path.write_text(edit.text(marker), encoding="utf-8")
                url, wanted = edit.url, marker.encode()
                wait_for(lambda: wanted in get(port, url)[1], 600, f"{url} with {marker}")  # noqa: B023 - called here
                figures[f"{name} s"] = time.perf_counter() - saved
                wait_for(lambda: len(rebuilt) > before, 10, "the server's rebuild line")  # noqa: B023 - called here
                figures[f"{name}: own ms"] = rebuilt[-1]
    finally:
        proc.terminate()
        proc.wait(60)
    return figures


def _rebuilds(stdout: IO[str], rebuilt: list[float]) -> None:
    for line in stdout:
        found = re.match(r"Rebuilt in (\d+) ms", line)
        if found:
            rebuilt.append(float(found[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--code", type=Path, action="append", help="a sitegen checkout (repeat to compare)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--edits", action="store_true", help="also time edits during and after background work")
    parser.add_argument("--save-after", type=float, default=0.5,
                        help="seconds after the start when the first post is saved (with --edits)")
    parser.add_argument("--port", type=int, default=8791)
    args = parser.parse_args()
    codes = [c.resolve() for c in args.code or [REPO]]
    for code in codes:
        compile_bytecode(code / "sitegen")  # as an installed sitegen has it
    site = args.site.resolve()
    single = (REPO / "themes" / "default" / "layouts" / "single.html").read_text(encoding="utf-8")
    layout = site / "layouts" / "single.html"
    mine = sitegen_edits(site) if args.edits else {}
    results: dict[Path, list[dict[str, float]]] = {code: [] for code in codes}
    for round_no in range(args.rounds):
        for code in codes:
            with restored(layout, *(e.path for e in mine.values())):  # every start sees the same site
                layout.parent.mkdir(exist_ok=True)
                layout.write_text(single, encoding="utf-8")
                figures = one_start(code, site, args.port, args.save_after if args.edits else None, round_no)
            results[code].append(figures)
            print(f"{code}: " + ", ".join(f"{k} {v:.2f}" for k, v in figures.items()), flush=True)
    for code, runs in results.items():
        print(f"median {code}: " + ", ".join(f"{k} {statistics.median(r[k] for r in runs):.2f}" for k in runs[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
