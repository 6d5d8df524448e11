"""Milliseconds from a file's save to the dev server's watcher reporting it, for a few watcher steps.

    python bench/watch_latency.py [--saves 40] [--steps 20 10 5]

For each step, `sitegen.serve.watcher.watch_in_thread` watches a new temporary folder; a file in it is written
`--saves` times, at random intervals (so that saves fall anywhere within a step), each once the last was reported.
Prints the median, quartiles and range of save -> reported, and the process's CPU time per idle second with the
watcher running (its Rust loop wakes every step). The dev server's own step is `watch_in_thread`'s default.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import watchfiles

from sitegen.serve.watcher import watch_in_thread


def latencies(step: int, saves: int) -> tuple[list[float], float]:
    """(save -> reported ms for each save, idle CPU ms per second) with a watcher of this step."""
    with tempfile.TemporaryDirectory(prefix="sitegen-watch-") as tmp:
        folder = Path(tmp)
        reported: list[float] = []
        seen, stop = threading.Event(), threading.Event()

        def on_change(_: set[Path]) -> None:
            reported.append(time.perf_counter())
            seen.set()

        watch_in_thread([folder], watchfiles.DefaultFilter(), on_change, stop, step_ms=step)
        cpu = time.process_time()
        time.sleep(2)
        idle = (time.process_time() - cpu) / 2 * 1000
        rng = random.Random(step)
        out: list[float] = []
        for i in range(saves):
            time.sleep(0.03 + rng.random() * 0.05)
            seen.clear()
            saved = time.perf_counter()
            (folder / "post.md").write_text(f"# save {i}\n", encoding="utf-8")
            if seen.wait(5):
                out.append((reported[-1] - saved) * 1000)
        stop.set()
        time.sleep(0.1)
        return out, idle


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=40)
    parser.add_argument("--steps", type=int, nargs="+", default=[20, 10, 5])
    args = parser.parse_args()
    print("step ms | save -> reported ms: median (quartiles) [range] | idle CPU ms/s")
    for step in args.steps:
        times, idle = latencies(step, args.saves)
        q1, _, q3 = statistics.quantiles(times, n=4)
        print(f"{step:7d} | {statistics.median(times):6.1f} ({q1:.1f}-{q3:.1f}) [{min(times):.1f}-{max(times):.1f}]"
              f" | {idle:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
