"""Wall and CPU seconds of cold `sitegen build`s, this checkout against another, interleaved.

    python bench/cold_build.py SITE [--against OLD_CHECKOUT] [--pairs 3] [--jobs N]

Each run is `python -m sitegen build --source SITE --output <temporary folder> --quiet` in a fresh process,
with SITE's `.sitegen-cache/` and the output removed first (a cold build, as `sitegen build` into a new folder
does it: staged writes, the cache saved). With `--against`, a run of that checkout (a `git worktree add --detach
/tmp/old <commit>`, put first on PYTHONPATH) precedes each run of this one, A B A B, so that the noise of a
shared machine falls on both alike; the medians are printed at the end. Each checkout's bytecode is written first
(`run.compile_bytecode`), as an installed sitegen has it. CPU counts the build process and all of
its children (render workers, the staging writer, the cache saver). SITE itself is not changed otherwise.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run import compile_bytecode  # bench/run.py (this folder)

HERE = Path(__file__).resolve().parent.parent


def cold_build(site: Path, code: Path, jobs: int | None) -> tuple[float, float]:
    """(wall, CPU seconds) of one cold build of `site` by the sitegen in `code`."""
    shutil.rmtree(site / ".sitegen-cache", ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="sitegen-cold-") as tmp:
        command = [sys.executable, "-m", "sitegen", "build", "--source", str(site), "--output",
                   str(Path(tmp) / "out"), "--quiet", *(["--jobs", str(jobs)] if jobs else [])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code), os.environ.get("PYTHONPATH", "")])}
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, cwd=tmp)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"the build by {code} failed (exit {process.returncode})")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--against", type=Path, default=None, help="another checkout of sitegen, run first")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    codes = {"this": HERE, **({"against": args.against.resolve()} if args.against else {})}
    order = ["against", "this"] if args.against else ["this"]
    for code in codes.values():
        compile_bytecode(code / "sitegen")  # as an installed sitegen has it
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in order}
    for _ in range(args.pairs):
        for name in order:
            wall, cpu = cold_build(args.site.resolve(), codes[name], args.jobs)
            runs[name].append((wall, cpu))
            print(f"{name:8s} {wall:6.2f} s wall {cpu:6.2f} CPU s", flush=True)
    for name in order:
        walls, cpus = zip(*runs[name], strict=True)
        print(f"{name:8s} median {statistics.median(walls):6.2f} s wall {statistics.median(cpus):6.2f} CPU s "
              f"({len(walls)} runs, {codes[name]})")


if __name__ == "__main__":
    main()
