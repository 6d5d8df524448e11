"""The CLI (exit codes, messages) and the writer's safety rules (staging, refusals, foreign files)."""

from __future__ import annotations

import ast
import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import sitegen
from sitegen.cli import COMMANDS, main

MakeSite = Callable[..., Path]


def tree_digest(root: Path) -> str:
    """A digest of every file path and content below root."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def test_build_writes_public_and_prints_summary(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/a.md": "---\ntitle: A\n---\n"})
    assert main(["build", "--source", str(site)]) == 0
    assert (site / "public/a/index.html").is_file()
    out = capsys.readouterr().out
    assert out.startswith("Built ") and "pages" in out and "files" in out


def test_version_and_module_entry_point() -> None:
    proc = subprocess.run([sys.executable, "-m", "sitegen", "--version"], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == f"sitegen {sitegen.__version__} (sitegen-cv=={sitegen.__version__})"


def test_version_loads_no_module_a_command_needs() -> None:
    """`sitegen --version` imports the package and its command line only: argparse, traceback, signal and the rest
    load when a verb runs. Run with `-I -S` (no site-packages' `.pth` files to import them first)."""
    package_root = str(Path(sitegen.__file__).resolve().parent.parent)
    script = ("import sys\nsys.path.insert(0, sys.argv[1])\nbefore = set(sys.modules)\nfrom sitegen.cli import main\n"
              "main(['--version'])\nprint(sorted(set(sys.modules) - before))")
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", script, package_root], capture_output=True, text=True,
                          check=True)
    version, loaded = proc.stdout.strip().splitlines()
    assert version.startswith("sitegen ")
    assert ast.literal_eval(loaded) == ["__future__", "sitegen", "sitegen.cli"]


def test_a_command_imports_only_its_own_module_and_help_lists_every_command() -> None:
    script = ("import sys\nfrom sitegen.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "print(sorted(m for m in sys.modules if m.startswith('sitegen.commands.')))")
    proc = subprocess.run([sys.executable, "-c", script, "-q", "build", "--help"], capture_output=True, text=True,
                          check=True)
    assert "--output OUTPUT" in proc.stdout and proc.stdout.splitlines()[-1] == "['sitegen.commands.build']"
    listed = subprocess.run([sys.executable, "-m", "sitegen", "--help"], capture_output=True, text=True).stdout
    assert all(f"    {name} " in listed for name in COMMANDS)


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--no-such-flag"]) == 2
    assert main([]) == 2


def test_build_error_exits_1_with_location_and_no_traceback(make_site: MakeSite,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/a.md": "---\ntitle: [unclosed\n---\n", "content/b.md": "---\ndate: 2024-13-01\n---\n"})
    assert main(["build", "--source", str(site)]) == 1
    err = capsys.readouterr().err
    assert "content/a.md:3:" in err and "started on line 2" in err
    assert "content/b.md:2:1" in err and "hint:" in err
    assert "Traceback" not in err


def test_debug_shows_traceback(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/b.md": "---\ndate: 2024-13-01\n---\n"})
    assert main(["build", "--debug", "--source", str(site)]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_failed_build_leaves_previous_output_intact(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntitle: A\n---\n"})
    assert main(["build", "--source", str(site), "--quiet"]) == 0
    before = tree_digest(site / "public")
    (site / "content/b.md").write_text("---\ntitle: [\n---\n")
    assert main(["build", "--source", str(site), "--quiet"]) == 1
    assert tree_digest(site / "public") == before
    assert not [p for p in site.iterdir() if "staging" in p.name]


@pytest.mark.parametrize("output", [".", "content", "content/posts", "static", "layouts", "data", "..", "/"])
def test_dangerous_output_folders_are_refused(make_site: MakeSite, output: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/a.md": "x", "content/posts/b.md": "y", "static/s.txt": "s", "data/d.yaml": "a: 1"})
    before = tree_digest(site)
    target = output if output == "/" else str(site / output)
    assert main(["build", "--source", str(site), "--output", target]) == 1
    assert "refusing" in capsys.readouterr().err
    assert tree_digest(site) == before


def test_empty_output_and_home_are_refused(make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site({"content/a.md": "x"})
    assert main(["build", "--source", str(site), "--output", ""]) == 1
    home = site.parent / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert main(["build", "--source", str(site), "--output", str(home)]) == 1


def test_symlink_to_site_root_is_refused(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "x"})
    link = site.parent / "link"
    link.symlink_to(site)
    before = tree_digest(site)
    assert main(["build", "--source", str(site), "--output", str(link)]) == 1
    assert tree_digest(site) == before


def test_foreign_files_and_dotfiles_are_kept(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "x", "content/b.md": "y"})
    out = site.parent / "out"
    (out / ".git").mkdir(parents=True)
    (out / ".git/config").write_text("keep")
    (out / "CNAME").write_text("example.org")
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 0
    assert (out / "b/index.html").exists()
    (site / "content/b.md").unlink()
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 0
    assert not (out / "b/index.html").exists(), "a file the previous build wrote is removed"
    assert (out / "CNAME").read_text() == "example.org"
    assert (out / ".git/config").read_text() == "keep"
    assert main(["build", "--source", str(site), "--output", str(out), "-q", "--clean-output"]) == 0
    assert not (out / "CNAME").exists()
    assert (out / ".git/config").read_text() == "keep"


def test_unchanged_files_are_not_rewritten(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "x"})
    assert main(["build", "--source", str(site), "-q"]) == 0
    page = site / "public/a/index.html"
    os.utime(page, (1, 1))
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert page.stat().st_mtime == 1


def test_output_is_deterministic_across_hash_seeds(make_site: MakeSite) -> None:
    site = make_site({
        "content/posts/a.md": "---\ntags: [b, a, c]\ndate: 2024-01-01\n---\n",
        "content/posts/b.md": "---\ntags: [c, a]\ndate: 2024-01-01\n---\n",
        "content/posts/c.md": "---\ntags: [a]\ndate: 2024-01-01\n---\n",
    })
    digests = set()
    for seed in ("0", "1", "random"):
        out = site.parent / f"out-{seed}"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run([sys.executable, "-m", "sitegen", "build", "-q", "--source", str(site), "--output", str(out)],
                       check=True, env=env)
        digests.add(tree_digest(out))
    assert len(digests) == 1
