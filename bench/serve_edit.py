"""Time one post (or the layout of every post) saved under a real `sitegen serve`: from the save to the edited page
served after the live-reload event (as bench/run.py measures it), beside the server's own "Rebuilt in N ms".

Usage: python bench/serve_edit.py SITE [--runs 10] [--code DIR ...] [--cold] [--edit post|template]

SITE is copied to a temporary folder per server (never changed; its `.sitegen-cache`, if any, is copied too, so
that a server starts warm: `sitegen build --source SITE` once makes it; with `--cold` it is left out, and the
server starts as bench/run.py starts it, with no cache). Each `--code DIR` starts one server with
`PYTHONPATH=DIR` (a checkout of another version of sitegen, to compare; default: the sitegen this Python
imports). Rounds go round-robin over the servers, each edit made once every server is idle again (no server
used CPU for half a second: the search index is made in the background after a build). The edit appends a
marker paragraph to the middle post (`--edit template`: puts one before `</article>` in `layouts/single.html`, a
copy of the default theme's made before the server starts, as bench/run.py does); the post's page is polled every
5 ms until it holds the marker. Prints each server's median and range of save -> served ms and of its own
rebuild ms.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from run import (  # bench/run.py (this folder)
    REPO,
    descendants,
    free_port,
    middle_post,
    save_and_wait_for_reload,
    stop_process,
    wait_for,
    wait_quiet,
    with_marker,
)


class Served:
    """One `sitegen serve` on its own copy of the site."""

    def __init__(self, site: Path, code: str | None, work: Path, number: int, *, cold: bool, template: bool) -> None:
        self.label = code or "this checkout"
        self.site = work / f"site-{number}"
        shutil.copytree(site, self.site, ignore=shutil.ignore_patterns("public", *([".sitegen-cache"] if cold else [])))
        post = middle_post(self.site)
        self.url = f"/posts/{post.stem}/"
        if template:
            self.saved = self.site / "layouts" / "single.html"
            self.saved.parent.mkdir(exist_ok=True)
            self.original = (REPO / "themes" / "default" / "layouts" / "single.html").read_text(encoding="utf-8")
            self.saved.write_text(with_marker(self.original, "bench-start"), encoding="utf-8")
            self.text = lambda marker: with_marker(self.original, marker)
        else:
            self.saved = post
            self.original = post.read_text(encoding="utf-8")
            self.text = lambda marker: f"{self.original}\n\n{marker}\n"
        self.port = free_port()
        self.logfile = work / f"server-{number}.log"
        env = dict(os.environ)
        if code:
            env["PYTHONPATH"] = code
        with self.logfile.open("w") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "sitegen", "serve", "--source", str(self.site),
                                          "--port", str(self.port)], env=env, stdout=out, stderr=subprocess.STDOUT)
        self.wall: list[float] = []
        self.own: list[float] = []

    def log(self) -> str:
        """Everything the server printed (fails when it ended)."""
        if self.proc.poll() is not None:
            raise SystemExit(f"{self.label}: sitegen serve ended; see {self.logfile}")
        return self.logfile.read_text(errors="replace")

    def rebuilds(self) -> list[float]:
        """Every "Rebuilt in N ms" the server logged."""
        return [float(m) for m in re.findall(r"Rebuilt in (\d+) ms", self.log())]

    def edit(self, marker: str) -> None:
        """Save the post with `marker`; record save -> page served with it, and the server's own ms."""
        before = len(self.rebuilds())
        self.wall.append(save_and_wait_for_reload(self.port, self.saved, self.text(marker), self.url, marker) * 1000)
        wait_for(lambda: len(self.rebuilds()) > before, 10, "the rebuild line")
        self.own.append(self.rebuilds()[-1])

    def pids(self) -> list[int]:
        """The server process and its children (bench/run.py's `wait_quiet` watches their CPU)."""
        return descendants(self.proc.pid)

    def stop(self) -> None:
        """Stop the server."""
        stop_process(self.proc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--code", action="append", default=[],
                        help="a sitegen checkout to run the server from (PYTHONPATH); repeat to compare")
    parser.add_argument("--cold", action="store_true", help="start without the site's build cache")
    parser.add_argument("--edit", choices=["post", "template"], default="post")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="serve-edit-") as tmp:
        servers = [Served(args.site, code, Path(tmp), n, cold=args.cold, template=args.edit == "template")
                   for n, code in enumerate(args.code or [None])]
        try:
            for server in servers:
                wait_for(lambda s=server: "Serving " in s.log(), 900, f"{server.label} to start", 0.05)  # type: ignore[misc]
            for round_no in range(args.runs):
                for server in servers:
                    wait_quiet(servers)  # (Served has the pids() it reads)
                    server.edit(f"serve-edit-marker-{round_no}")
                    print(f"{server.label}: run {round_no + 1}: {server.wall[-1]:.0f} ms served "
                          f"({server.own[-1]:.0f} ms rebuild)", flush=True)
        finally:
            for server in servers:
                server.stop()
        for server in servers:
            print(f"{server.label}: save -> served median {statistics.median(server.wall):.0f} ms "
                  f"({min(server.wall):.0f}-{max(server.wall):.0f}), own rebuild median "
                  f"{statistics.median(server.own):.0f} ms ({min(server.own):.0f}-{max(server.own):.0f}), "
                  f"{len(server.wall)} saves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
