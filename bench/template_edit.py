"""Time a template edit as `sitegen serve` rebuilds it: the layout of every post (`layouts/single.html`).

Usage: python bench/template_edit.py SITE [--runs 5] [--jobs N] [--check] [--code]

SITE is copied to a temporary folder (never changed); `layouts/single.html` there starts as a copy of the default
theme's. A full build runs first (as `sitegen serve` starts), then the included templates' texts are recorded as the
server's background worker records them (`FragmentRecorder`; timed), then each run edits the layout (a marker
paragraph before `</article>`, made in each page's last file; with `--code`, an expression in that paragraph, which
renders each page's block again) and times `rebuild_edited_templates`, the dev server's quick path for template
edits. Prints each run's milliseconds and the median. With `--inline`, the texts are recorded by the full build
instead (as the server did before); with `--no-fragments`, not at all. With `--check`, the last rebuild's files are
compared byte for byte with a clean build of the edited site.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from run import REPO, with_marker  # bench/run.py (this folder): the same edit the full benchmark makes

from sitegen.build import BuildOptions, build_site
from sitegen.incremental import prepare_quick_rebuilds, rebuild_edited_templates
from sitegen.memo import BuildMemo
from sitegen.parallel import tune_gc_for_builds
from sitegen.render_pages import FragmentRecorder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--no-fragments", action="store_true", help="render every include again (as before)")
    parser.add_argument("--inline", action="store_true", help="record included templates' texts in the full build")
    parser.add_argument("--check", action="store_true", help="compare the last rebuild with a clean build")
    parser.add_argument("--code", action="store_true",
                        help="edit an expression (the pages' block is rendered again), not the markup")
    args = parser.parse_args()
    tune_gc_for_builds()  # as `sitegen serve` does
    single = (REPO / "themes" / "default" / "layouts" / "single.html").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        shutil.copytree(args.site, site, ignore=shutil.ignore_patterns("public", ".sitegen-cache"))
        layout = site / "layouts" / "single.html"
        layout.parent.mkdir(exist_ok=True)
        layout.write_text(with_marker(single, "bench-start"), encoding="utf-8")
        options = BuildOptions(source=site, jobs=args.jobs, defer_search=True)
        memo = BuildMemo()
        memo.fragments = args.inline  # `sitegen serve`'s full builds record none (sitegen.serve.session)
        started = time.perf_counter()
        result = build_site(options, memo)
        prepare_quick_rebuilds(result, memo)
        print(f"full build: {time.perf_counter() - started:.2f} s, {len(result.files)} files")
        if not args.no_fragments and not args.inline and result.state is not None and result.basis is not None:
            started, cpu = time.perf_counter(), time.process_time()
            recorder = FragmentRecorder(result.state, result.basis.rendering, memo)  # the server's idle time
            while not recorder.done:
                recorder.record_one()
            print(f"fragments recorded: {time.perf_counter() - started:.2f} s ({time.process_time() - cpu:.2f} CPU s)")
        memo.fragments = not args.no_fragments  # a quick rebuild records and reuses them (sitegen.serve.session)
        times = []
        for run in range(args.runs):
            marker = f"{{{{ page.title ~ ' bench-{run}' }}}}" if args.code else f"bench-{run}"
            layout.write_text(with_marker(single, marker), encoding="utf-8")
            started = time.perf_counter()
            quick = rebuild_edited_templates(result, {layout}, memo)
            elapsed = time.perf_counter() - started
            if quick is None:
                print("the template edit was not a quick rebuild", file=sys.stderr)
                return 1
            times.append(elapsed * 1000)
            print(f"run {run + 1}: {elapsed * 1000:.0f} ms, {len(quick.rendered or [])} files rendered")
            result = quick
        print(f"median: {statistics.median(times):.0f} ms over {len(times)} runs")
        if args.check:
            clean = build_site(options, BuildMemo()).files
            differ = sorted(k for k in clean.keys() | result.files.keys() if clean.get(k) != result.files.get(k))
            print("same files as a clean build" if not differ else f"{len(differ)} files differ: {differ[:5]}")
            return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
