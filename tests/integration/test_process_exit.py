"""How the `sitegen` process ends: a one-shot verb skips the interpreter's teardown (`sitegen.cli.exit_now`), yet
its exit code, its last line of output (to a pipe or to a file), its `atexit` handlers and what its forked
children write all survive."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from sitegen.cli import main

MakeSite = Callable[..., Path]

PAGES = {"content/a.md": "---\ntitle: A\n---\nHello.\n", "content/b.md": "---\ntitle: B\n---\n"}


def sitegen(*args: str, stdout: int | object = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """`python -m sitegen ARGS` as its own process (stdout to a pipe, or to the file object given)."""
    return subprocess.run([sys.executable, "-m", "sitegen", *args], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, check=False)


def test_build_exit_code_and_last_line_reach_a_pipe(make_site: MakeSite) -> None:
    site = make_site(PAGES)
    proc = sitegen("build", "--source", str(site))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("Built 6 pages, ")
    assert (site / "public/a/index.html").read_text().count("Hello.") == 1  # written by the forked staging writer
    assert [p.name for p in site.iterdir() if p.name.startswith(".")] == [".sitegen-cache"]  # no staging left
    assert (site / ".sitegen-cache/build.pickle").is_file()  # saved by the forked memo saver before the exit


def test_build_last_line_reaches_a_file(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site(PAGES)
    log = tmp_path / "log.txt"
    with log.open("w") as f:
        proc = sitegen("build", "--source", str(site), stdout=f)
    assert proc.returncode == 0, proc.stderr
    assert log.read_text().splitlines()[-1].startswith("Built 6 pages, ")


def test_failed_build_exit_code_and_error_survive(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntitle: [unclosed\n---\n"})
    proc = sitegen("build", "--source", str(site))
    assert proc.returncode == 1
    assert "content/a.md:3:" in proc.stderr and "Traceback" not in proc.stderr


def test_build_runs_atexit_handlers_but_skips_the_teardown(make_site: MakeSite) -> None:
    site = make_site(PAGES)
    script = (
        "import atexit, sys\n"
        "from sitegen.cli import main\n"
        "class Freed:\n"
        "    def __del__(self):\n"
        "        print('torn down', flush=True)\n"
        "kept = Freed()\n"
        "atexit.register(print, 'atexit ran')\n"
        f"sys.argv = ['sitegen', 'build', '-q', '--source', {str(site)!r}]\n"
        "sys.exit(main())\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["atexit ran"]  # no object freed one by one after it


def test_main_with_arguments_returns(make_site: MakeSite) -> None:
    """Called from Python with its arguments (tests, tools), main returns the code instead of ending the process."""
    site = make_site({"content/a.md": "---\ntitle: [unclosed\n---\n"})
    assert main(["build", "-q", "--source", str(site)]) == 1
