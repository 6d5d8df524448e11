#!/usr/bin/env python3
"""sitegen benchmarks: cold, warm and one-edit builds, the dev server's save-to-reload time, peak memory,
and (with --peers) the same corpus built by Hugo, Pelican, ... from ../shared/bench, as ratios from one run.

    python bench/run.py                          # 1,000 and 10,000 pages, sitegen only
    python bench/run.py --sizes 1000 --peers hugo pelican --runs 3

Figures are printed, never asserted: this machine is shared and noisy; compare ratios from one run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "bench"
CONFIG = "title: Bench Site\nbase_url: https://example.org/\nlanguage: en\nauthor:\n  name: Bench Author\n"


def make_site(pages: int, work: Path) -> Path:
    """Generate the shared corpus (or a small fallback) and lay it out as a sitegen site."""
    corpus = work / f"corpus-{pages}"
    if not (corpus / "MANIFEST.json").exists():
        generator = SHARED / "make_corpus.py"
        if generator.exists():
            subprocess.run([sys.executable, str(generator), "--pages", str(pages), "--out", str(corpus)], check=True,
                           stdout=subprocess.DEVNULL)
        else:
            (corpus / "posts").mkdir(parents=True)
            (corpus / "pages").mkdir()
            for i in range(pages):
                (corpus / f"posts/post-{i:05d}.md").write_text(
                    f"---\ntitle: Post {i}\ndate: 2020-01-01\ntags: [t{i % 40}]\ncategories: [c{i % 8}]\n---\n"
                    + ("Some *text* with `code`.\n\n" * 60))
            (corpus / "pages/about.md").write_text("---\ntitle: About\n---\nAbout.\n")
            (corpus / "MANIFEST.json").write_text("{}")
    site = work / f"site-{pages}"
    shutil.rmtree(site, ignore_errors=True)
    (site / "content").mkdir(parents=True)
    shutil.copytree(corpus / "posts", site / "content/posts")
    for page in (corpus / "pages").glob("*.md"):
        shutil.copy(page, site / "content" / page.name)
    if (corpus / "static").exists():
        shutil.copytree(corpus / "static", site / "static")
    (site / "sitegen.yaml").write_text(CONFIG)
    return site


def timed_build(site: Path, *extra: str) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of one `sitegen build` process."""
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M", sys.executable, "-m", "sitegen", "build", "-q",
                          "--source", str(site), *extra], capture_output=True, text=True, check=True)
    wall, rss = out.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss) / 1024


def build_figures(site: Path, runs: int) -> dict[str, float]:
    """Median cold, warm and one-edit build times and the cold build's peak RSS."""
    cold, warm, edit, rss = [], [], [], []
    post = sorted((site / "content/posts").glob("*.md"))[len(list((site / "content/posts").glob("*.md"))) // 2]
    original = post.read_text()
    for i in range(runs):
        shutil.rmtree(site / "public", ignore_errors=True)
        shutil.rmtree(site / ".sitegen-cache", ignore_errors=True)
        wall, mem = timed_build(site)
        cold.append(wall)
        rss.append(mem)
        warm.append(timed_build(site)[0])
        post.write_text(original + f"\n\nEdited paragraph {i}.\n")
        edit.append(timed_build(site)[0])
        post.write_text(original)
        timed_build(site)
    return {"cold": statistics.median(cold), "warm": statistics.median(warm), "edit": statistics.median(edit),
            "rss": max(rss)}


def version_ms(runs: int = 7) -> float:
    """Median wall milliseconds of `sitegen --version` (the console script, as a user runs it)."""
    exe = shutil.which("sitegen") or "sitegen"
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([exe, "--version"], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def _sse_wait(port: int, event: str, ready: threading.Event, seen: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/__sitegen/events")
    response = conn.getresponse()
    ready.set()
    while not seen.is_set():
        line = response.fp.readline()
        if not line:
            return
        if line.decode().strip() == f"event: {event}":
            seen.set()
    conn.close()


TEMPLATE_EDITS = {
    "template": ("404.html", None),
    "layout": ("single.html", "</article>"),
    "base": ("base.html", "</body>"),
}
"""Figures of template saves: (file under layouts/, where the marker goes into the theme's text). `404.html` is
used by one page, the post layout `single.html` by every post, `base.html` by every page; the last two are site
overrides of the theme's file (the first save adds the override, the next ones edit it)."""


def _template_text(theme_layouts: Path, name: str, anchor: str | None, marker: str) -> str:
    if anchor is None:
        return f"<!doctype html><title>404</title><p>{marker}</p>"
    original = (theme_layouts / name).read_text()
    assert anchor in original, (name, anchor)
    return original.replace(anchor, f"<!-- {marker} -->{anchor}", 1)


def serve_figures(site: Path, runs: int) -> dict[str, float]:
    """Save-to-new-content and template-save-to-reload times of `sitegen serve` (404.html, the post layout,
    the base template), and its RSS."""
    sys.path.insert(0, str(REPO))
    from sitegen.build import BuildOptions
    from sitegen.parallel import tune_gc_for_builds
    from sitegen.serve.session import ServeSession
    from sitegen.theme import theme_dirs

    tune_gc_for_builds()  # as `sitegen serve` does

    session = ServeSession(BuildOptions(source=site), say=lambda _m: None)
    started = time.perf_counter()
    _, port = session.start("127.0.0.1", 0, auto_port=False)
    ready_s = time.perf_counter() - started  # built in memory, listening (the search index follows in the background)
    session.wait_for_index(600)
    indexed = time.perf_counter() - started
    post = sorted((site / "content/posts").glob("*.md"))[3]
    slug = None
    original = post.read_text()
    results: dict[str, list[float]] = {"post": [], "post_rebuild": [], **{k: [] for k in TEMPLATE_EDITS}}
    rendered: dict[str, int] = {}
    layouts = site / "layouts"
    layouts.mkdir(exist_ok=True)
    theme_layouts = theme_dirs(site, "default")[0] / "layouts"
    for i in range(runs):
        for kind in ("post", *TEMPLATE_EDITS):
            ready, seen = threading.Event(), threading.Event()
            thread = threading.Thread(target=_sse_wait, args=(port, "reload", ready, seen), daemon=True)
            thread.start()
            ready.wait(5)
            session.wait_for_index(600)  # the last edit's background indexing is over (it shares the GIL)
            time.sleep(0.3)
            marker = f"bench-marker-{kind}-{i}"
            builds = session.builds
            started = time.perf_counter()
            if kind == "post":
                post.write_text(original + f"\n\n{marker}\n")
            else:
                name, anchor = TEMPLATE_EDITS[kind]
                (layouts / name).write_text(_template_text(theme_layouts, name, anchor, marker))
            seen.wait(600)
            while session.builds == builds and time.perf_counter() - started < 600:  # a slow save: wait it out
                time.sleep(0.01)
            if kind == "post":
                # the browser then fetches the page: include that request
                snapshot = session.state.snapshot.files
                slug = slug or next(k for k, v in snapshot.items() if marker.encode() in v and k.endswith(".html"))
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("GET", "/" + slug.removesuffix("index.html"))
                body = conn.getresponse().read()
                assert marker.encode() in body
                results["post_rebuild"].append(session.last.seconds)
            results[kind].append(time.perf_counter() - started)
            rendered[kind] = len(getattr(session.result, "rendered", ()) or ())
    post.write_text(original)
    for name, _ in TEMPLATE_EDITS.values():
        (layouts / name).unlink()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    session.stop()
    print(f"pages re-rendered by the last save of each kind: {rendered}", file=sys.stderr)
    return {**{kind: statistics.median(times) for kind, times in results.items()}, "rss": rss, "ready": ready_s,
            "indexed": indexed}


def run_peers(sizes: list[int], peers: list[str], runs: int, work: Path) -> Path | None:
    """Run ../shared/bench/run_peers.sh for the peers and sitegen in one interleaved run."""
    if not (SHARED / "run_peers.sh").exists():
        print("../shared/bench not found: no peer comparison", file=sys.stderr)
        return None
    bench = work / "peerbench"
    shutil.rmtree(bench, ignore_errors=True)
    shutil.copytree(SHARED, bench, ignore=shutil.ignore_patterns("work", "results", ".venv-*", "node_modules"))
    script = bench / "run_peers.sh"  # the machine summary asks every toolchain's version; not all are installed
    script.write_text(script.read_text().replace("ruby --version;", "ruby --version 2>/dev/null || true;")
                      .replace('echo "node $(node --version)";', 'echo "node $(node --version 2>/dev/null)";'))
    env = dict(os.environ, SIZES=" ".join(map(str, sizes)), RUNS=str(runs),
               SITEGEN=shutil.which("sitegen") or "sitegen", IDLE_WAIT=os.environ.get("IDLE_WAIT", "60"))
    subprocess.run(["bash", "run_peers.sh", *peers, "sitegen"], cwd=bench, env=env, check=True)
    return bench / "results"


def peer_table(results: Path) -> str:
    """Median wall time per peer and size, and sitegen's ratio to each."""
    rows: dict[tuple[str, int], tuple[float, float]] = {}
    for file in results.glob("*-*.time"):
        peer, size = file.stem.rsplit("-", 1)
        lines = [line.split() for line in file.read_text().splitlines() if line.strip() and line.split()[0] != "0"]
        if lines:
            rows[(peer, int(size))] = (statistics.median(float(x[1]) for x in lines),
                                       max(int(x[2]) for x in lines) / 1024)
    out = ["| generator | pages | median wall s | peak RSS MB | sitegen / generator |", "|---|--:|--:|--:|--:|"]
    for (peer, size), (wall, rss) in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[1][0])):
        mine = rows.get(("sitegen", size))
        ratio = f"{mine[0] / wall:.2f}" if mine else "-"
        out.append(f"| {peer} | {size:,} | {wall:.2f} | {rss:.0f} | {ratio} |")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--peers", nargs="*", default=None, help="also run these ../shared/bench adapters")
    parser.add_argument("--work", type=Path, default=None, help="work folder (default: a temp folder)")
    parser.add_argument("--no-serve", action="store_true", help="skip the dev-server figures")
    parser.add_argument("--serve-only", action="store_true", help="only the dev-server figures")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="sitegen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"load: {os.getloadavg()[0]:.1f} (1-minute average, {os.cpu_count()} cores); "
          f"`sitegen --version`: {version_ms():.0f} ms")
    print("| pages | cold s | warm s | one edit s | peak RSS MB | serve: ready s | serve: search index s "
          "| serve: save→new page s | serve: of which rebuild s | serve: 404.html→reload s "
          "| serve: post layout→reload s | serve: base.html→reload s | serve RSS MB |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for size in args.sizes:
        site = make_site(size, work)
        figures = ({"cold": float("nan"), "warm": float("nan"), "edit": float("nan"), "rss": float("nan")}
                   if args.serve_only else build_figures(site, args.runs))
        serve = (dict.fromkeys(("post", "post_rebuild", *TEMPLATE_EDITS, "rss", "ready", "indexed"), float("nan"))
                 if args.no_serve else serve_figures(site, args.runs))
        print(f"| {size:,} | {figures['cold']:.2f} | {figures['warm']:.2f} | {figures['edit']:.2f} | "
              f"{figures['rss']:.0f} | {serve['ready']:.2f} | {serve['indexed']:.2f} |"
              f" {serve['post']:.3f} | {serve['post_rebuild']:.3f} | {serve['template']:.3f} | "
              f"{serve['layout']:.3f} | {serve['base']:.3f} | {serve['rss']:.0f} |", flush=True)
    if args.peers is not None:
        results = run_peers(args.sizes, args.peers, args.runs, work)
        if results is not None:
            print()
            print(peer_table(results))
            (work / "peers.json").write_text(json.dumps(str(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
