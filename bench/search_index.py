#!/usr/bin/env python3
"""Search index figures: sitegen's sharded index beside Pagefind's (PyPI `pagefind[extended]`), on the shared
benchmark corpus: indexing time, files and bytes on disk, and the bytes the browser fetches for a first query
(measured in headless Chromium: the real search page for sitegen, Pagefind's own JS API for Pagefind).

    python bench/search_index.py --sizes 1000 10000
    python bench/search_index.py --sizes 1000 --no-pagefind

Figures are printed, never asserted (the machine is shared: say `uptime` beside them).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Bench  # noqa: E402 - the bench folder is not a package

from sitegen.build import BuildOptions, build_site  # noqa: E402
from sitegen.outputs.search import INDEX_DIR, Indexer  # noqa: E402
from sitegen.writer import write_output  # noqa: E402

QUERIES = ("cache", "transf", "profler", "显存")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


async def _pagefind(out: Path) -> float:
    """Index the written site with Pagefind's Python API (`add_directory`, as its CLI does) into out/pagefind;
    the seconds it took. (`add_html_file` + `get_files`, which would hand the files to sitegen's writer, took
    184 s at 1,000 pages here and `get_files` hangs from about 1,000 pages: the service's 2 MiB stream limit.)"""
    from pagefind.index import PagefindIndex

    started = time.perf_counter()
    async with PagefindIndex(config={"output_path": str(out / "pagefind")}) as index:
        await index.add_directory(str(out))
    return time.perf_counter() - started


def _browser_bytes(url: str, script: str, prefix: tuple[str, ...]) -> int:
    """Bytes of the responses under `prefix` while `script` runs on a fresh page of `url`."""
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM, CHROMIUM_ARGS

    sizes: dict[str, int] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()

        def seen(response: Any) -> None:
            path = response.url.split("//", 1)[1].split("/", 1)[1]
            if path.startswith(prefix):
                try:
                    sizes[response.url] = len(response.body())
                except Exception:  # noqa: BLE001 - a redirect has no body
                    pass

        page.on("response", seen)
        page.goto(url)
        page.evaluate(script)
        page.wait_for_timeout(300)
        browser.close()
    return sum(sizes.values())


OURS_JS = """async (q) => {
  const input = document.getElementById('search-input');
  input.value = q; input.dispatchEvent(new Event('input'));
  for (let i = 0; i < 600; i++) {
    await new Promise(r => setTimeout(r, 50));
    const s = document.getElementById('search-status').textContent;
    if (s && document.querySelectorAll('#search-results li').length === Math.min(10, parseInt(s))) return s;
  }
}"""
PAGEFIND_JS = """async (q) => {
  const pf = await import('/pagefind/pagefind.js');
  const r = await pf.search(q);
  await Promise.all(r.results.slice(0, 10).map(x => x.data()));
  return r.results.length;
}"""


def measure(size: int, bench: Bench, pagefind: bool) -> None:
    site = bench.lay_out("sitegen", size)
    work = bench.work
    (site / "content/search.md").write_text("---\ntitle: Search\nlayout: search\nsearch: false\n---\n")
    result = build_site(BuildOptions(source=site))
    assert result.state is not None
    started = time.perf_counter()
    ours = Indexer().files(result.state, result.files)
    ours_seconds = time.perf_counter() - started
    out = work / f"public-{size}"
    shutil.rmtree(out, ignore_errors=True)
    write_output(result.files, out, site)
    server, url = _serve(out)
    try:
        search_page = url + "/search/"
        shards = [v for k, v in ours.items() if k.startswith(INDEX_DIR + "t/")]
        print(f"| sitegen | {size:,} | {ours_seconds:.2f} | {len(ours):,} | {sum(map(len, ours.values())) / 1e6:.1f} "
              f"| {max(map(len, shards)) / 1e3:.0f} |", end="", flush=True)
        for query in QUERIES:
            script = f"() => ({OURS_JS})({query!r})"
            fetched = _browser_bytes(search_page, script, (INDEX_DIR, "js/search.js", "css/search.css"))
            print(f" {query}: {fetched / 1e3:.0f} |", end="", flush=True)
        print()
        if pagefind:
            seconds = asyncio.run(_pagefind(out))
            written = [p for p in (out / "pagefind").rglob("*") if p.is_file()]
            chunks = [p.stat().st_size for p in written if p.suffix == ".pf_index"]
            print(f"| Pagefind | {size:,} | {seconds:.2f} | {len(written):,} | "
                  f"{sum(p.stat().st_size for p in written) / 1e6:.1f} | {max(chunks) / 1e3:.0f} |", end="", flush=True)
            for query in QUERIES:
                script = f"() => ({PAGEFIND_JS})({query!r})"
                print(f" {query}: {_browser_bytes(url + '/404.html', script, ('pagefind/',)) / 1e3:.0f} |", end="",
                      flush=True)
            print()
    finally:
        server.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--no-pagefind", action="store_true")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="sitegen-search-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    bench = Bench(work.resolve())
    bench.install()
    print(f"load: {os.getloadavg()[0]:.1f} (1-minute average, {os.cpu_count()} cores)")
    print("| index | pages | indexing s | files | MB | largest shard KB | first query KB (index + search JS/CSS) → |")
    print("|---|--:|--:|--:|--:|--:|--|")
    for size in args.sizes:
        measure(size, bench, not args.no_pagefind)
    return 0


if __name__ == "__main__":
    sys.exit(main())
