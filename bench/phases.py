"""A cold `sitegen build`'s steps on a timeline, and how busy the machine's cores were meanwhile.

    python bench/phases.py SITE [--output DIR] [--jobs N]

Runs `sitegen build --no-cache` on SITE in this process (into a temporary folder unless `--output`), with each
step of the pipeline timed from the moment the command started (imports first), and samples `/proc/stat` every
0.1 s: the strip under the timeline is how many of the cores were busy (` ` none, `-` about one, `#` all), so
the steps that leave a core idle show. It is the machine's whole load: run it when nothing else runs.

The steps are those of `sitegen.build` (parse, Markdown, images, templates, outputs) and of the writer (staging,
the manifest, the swap into place); the build ends without the interpreter's teardown (`sitegen.cli.exit_now`),
after the cache is saved. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from run import machine_ticks  # bench/run.py (this folder), before the clock starts

STARTED = time.perf_counter()

import sitegen.build as build  # noqa: E402 - imported after the clock starts: the imports are a step
import sitegen.cli as cli  # noqa: E402
import sitegen.commands.build as build_command  # noqa: E402
import sitegen.images as images  # noqa: E402
import sitegen.writer as writer  # noqa: E402

IMPORTED = time.perf_counter()
STEPS: list[tuple[str, float, float]] = []


def timed(owner: Any, name: str, label: str) -> None:
    """Record when each call of `owner.name` starts and ends, as `label`."""
    original: Callable[..., Any] | None = getattr(owner, name, None)
    if original is None:  # a step renamed since: left out, not an error
        print(f"(no {getattr(owner, '__name__', owner)}.{name}: {label} left out)", file=sys.stderr)
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            STEPS.append((label, start - STARTED, time.perf_counter() - STARTED))

    setattr(owner, name, wrapper)


class CoreSampler:
    """The share of all cores busy, every `step` seconds (from `/proc/stat`, as `top` reads it)."""

    def __init__(self, step: float = 0.1) -> None:
        self.step = step
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        last = machine_ticks()
        while not self._stop.wait(self.step):
            now = machine_ticks()
            busy, idle = now[0] - last[0], now[1] - last[1]
            self.samples.append(busy / (busy + idle) if busy + idle else 0.0)
            last = now

    def start(self) -> None:
        """Start sampling."""
        self._thread.start()

    def stop(self) -> list[float]:
        """Stop sampling; the samples (0 to 1: the share of all cores busy)."""
        self._stop.set()
        self._thread.join()
        return self.samples


def strip(samples: list[float], cores: int) -> str:
    """One character per sample: ` ` idle, `-` about one core busy, `#` all of them (`=` between)."""
    marks = " .-=#" if cores <= 2 else " .-:=+#"
    return "".join(marks[min(len(marks) - 1, round(share * (len(marks) - 1)))] for share in samples)


def main() -> int:
    """Build SITE once with its steps timed; print the timeline and the cores' use."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path)
    parser.add_argument("--output", type=Path, default=None, help="output folder (default: a temporary one)")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    for owner, name, label in ((build, "_parse_sources", "parse front matter"),
                               (build, "_render_markdown", "Markdown"),
                               (images.ImageCatalog, "add_share_crops", "images: share crops"),
                               (build, "_image_warnings", "images: checks"),
                               (build, "render_pages", "templates"),
                               (build, "cv_files", "CV files"),
                               (build, "generate_outputs", "outputs (feeds, search, sitemap)"),
                               (writer.Staging, "put", "writer: pages staged (forked)"),
                               (writer.Staging, "wait", "writer: wait for the staging copy"),
                               (writer, "_finish_staged", "writer: the rest, manifest, swap"),
                               (build_command, "_build_and_write", "whole build")):
        timed(owner, name, label)
    cli.exit_now = lambda code: None  # (the report below comes after the build)
    with tempfile.TemporaryDirectory(prefix="sitegen-phases-") as temp:
        output = args.output or Path(temp) / "public"
        argv = ["build", "--source", str(args.site), "--output", str(output), "--no-cache", "--quiet"]
        if args.jobs:
            argv += ["--jobs", str(args.jobs)]
        sampler = CoreSampler()
        sampler.start()
        code = cli.main(argv)
        ended = time.perf_counter() - STARTED
        samples = sampler.stop()
    cores = os.cpu_count() or 1
    print(f"{'imports':38s} {0:6.2f} -> {IMPORTED - STARTED:6.2f}  ({IMPORTED - STARTED:5.2f} s)")
    for label, start, end in sorted(STEPS, key=lambda step: step[1]):
        print(f"{label:38s} {start:6.2f} -> {end:6.2f}  ({end - start:5.2f} s)")
    print(f"{'ended':38s} {ended:6.2f}  (exit {code})")
    print(f"\ncores busy, one mark per 0.1 s from the first step (' ' none, '-' one of {cores}, '#' all):")
    offset = round((IMPORTED - STARTED) / 0.1)
    print(" " * offset + "|" + strip(samples, cores) + "|")
    if samples:
        print(f"mean: {sum(samples) / len(samples) * cores:.2f} of {cores} cores over the build")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
