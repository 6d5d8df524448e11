"""Reliability matrix, output directory (cases 14-17): nothing the user has is ever lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.cli import main
from tests.integration.test_cli_and_output import tree_digest

MakeSite = Callable[..., Path]


# 14
@pytest.mark.parametrize("target", [".", "content", "..", "content/posts", "/", "~", "", "link-to-site",
                                    "assets", "_posts", "_data/sub"])
def test_unsafe_output_folders_are_refused_before_anything_is_deleted(
        make_site: MakeSite, target: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/a.md": "x", "content/posts/b.md": "y", "data/d.yaml": "a: 1"})
    monkeypatch.setenv("HOME", str(site))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    (tmp_path / "link-to-site").symlink_to(site)
    before = tree_digest(site)
    output = {"~": "~", "": "", "/": "/", "link-to-site": str(tmp_path / "link-to-site")}.get(target,
                                                                                               str(site / target))
    assert main(["build", "--source", str(site), "--output", output, "--clean-output"]) == 1
    assert tree_digest(site) == before
    err = capsys.readouterr().err
    assert ("refusing to write the site into" in err or "output folder is empty" in err) and "hint:" in err, err


# 15
def test_foreign_files_dotfiles_and_siblings_survive(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "x", "content/b.md": "y"})
    out = site.parent / "public"
    (out / ".git").mkdir(parents=True)
    (out / ".git/HEAD").write_text("ref")
    (out / "notes.txt").write_text("mine")
    sibling = site.parent / "public-old"
    sibling.mkdir()
    (sibling / "index.html").write_text("old site")
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 0
    (site / "content/b.md").unlink()
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 0
    assert not (out / "b").exists()
    assert (out / "notes.txt").read_text() == "mine" and (out / ".git/HEAD").read_text() == "ref"
    assert (sibling / "index.html").read_text() == "old site"



def test_a_file_sitegen_did_not_write_is_never_overwritten(make_site: MakeSite,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """`--output` at a folder holding the user's own index.html: refused, named, kept (it was overwritten)."""
    site = make_site({"content/a.md": "x"})
    out = site.parent / "mine"
    out.mkdir()
    (out / "index.html").write_text("my own page")
    (out / "notes.txt").write_text("mine")
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert "over files sitegen did not write: index.html" in err and "move them out" in err, err
    assert (out / "index.html").read_text() == "my own page" and sorted(p.name for p in out.iterdir()) == [
        "index.html", "notes.txt"]
    (out / "index.html").rename(site.parent / "index.html")  # the user moves it away, as the hint says
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 0
    assert (out / "notes.txt").read_text() == "mine"
    (site / "content/a.md").write_text("changed")  # sitegen's own files are replaced by later builds
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 0
    assert "changed" in (out / "a/index.html").read_text()

# 16
def test_template_error_on_page_500_of_1000_keeps_the_previous_site(make_site: MakeSite) -> None:
    pages = {f"content/p{i:04d}.md": f"---\ntitle: P{i}\n---\n" for i in range(1000)}
    site = make_site({**pages, "layouts/page.html": "{{ page.title }}"})
    assert main(["build", "--source", str(site), "-q"]) == 0
    before = tree_digest(site / "public")
    (site / "content/p0500.md").write_text("---\ntitle: P500\nboom: true\n---\n")
    (site / "layouts/page.html").write_text("{{ page.title }}{% if page.params.boom %}{{ 1 // 0 }}{% endif %}")
    assert main(["build", "--source", str(site), "-q"]) == 1
    assert tree_digest(site / "public") == before
    assert not [p for p in site.iterdir() if "staging" in p.name]


# 17
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("delay", [0.3, 0.8, 1.5])
def test_interrupted_build_leaves_old_or_new_output_and_no_staging(make_site: MakeSite, sig: int,
                                                                   delay: float) -> None:
    pages = {f"content/p{i:04d}.md": f"---\ntitle: P{i}\n---\n" + "Some *text*.\n\n" * 30 for i in range(1500)}
    site = make_site({**pages, "layouts/page.html": "{{ page.title }} v1 {{ page.content }}"})
    assert main(["build", "--source", str(site), "-q", "--no-cache"]) == 0
    old = tree_digest(site / "public")
    (site / "layouts/page.html").write_text("{{ page.title }} v2 {{ page.content }}")
    proc = subprocess.Popen([sys.executable, "-m", "sitegen", "build", "-q", "--no-cache", "--jobs", "1",
                             "--source", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ))
    time.sleep(delay)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    assert not [p for p in site.iterdir() if "staging" in p.name]
    after = tree_digest(site / "public")
    pages_v2 = [p for p in (site / "public").glob("p*/index.html") if " v2 " in p.read_text()]
    assert after == old or len(pages_v2) == 1500, "a partial site was left"
