"""Reliability, files (issue 15, part A): what sitegen reads, writes and deletes. Sentinel files outside the
output (and outside the site) must survive every build, `--clean-output` and `clean`; links never carry a read
or a write out of the site; crashes and hangs run in a subprocess with a timeout."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sitegen import writer
from sitegen.build import BuildOptions, build_site
from sitegen.cli import main
from sitegen.errors import OutputError
from sitegen.outdir import real_path
from sitegen.writer import MANIFEST, Staging, write_output
from tests.integration.test_cli_and_output import tree_digest

MakeSite = Callable[..., Path]
PAGES = {"content/a.md": "---\ntitle: A\n---\nA", "content/b.md": "---\ntitle: B\n---\nB"}


def sitegen(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a subprocess (a crash or a hang cannot take the test run with it)."""
    return subprocess.run([sys.executable, "-m", "sitegen", *args], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2])))


@pytest.fixture
def outside(tmp_path: Path) -> Iterator[Path]:
    """A folder outside site and output, holding a sentinel that must survive; checked after the test."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "precious.txt").write_text("precious")
    (folder / "index.html").write_text("not yours")
    yield folder
    assert (folder / "precious.txt").read_text() == "precious"
    assert (folder / "index.html").read_text() == "not yours"


# Finding 1: the manifest is checked entry by entry; links are never followed when deleting or writing.

@pytest.mark.parametrize("command", [["build"], ["build", "--clean-output"], ["clean"]])
def test_manifest_entries_leaving_the_output_are_ignored_with_a_warning(
        make_site: MakeSite, outside: Path, command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(PAGES)
    out = site / "public"
    assert main(["build", "--source", str(site), "-q"]) == 0
    (out / "link").symlink_to(outside, target_is_directory=True)
    manifest = json.loads((out / MANIFEST).read_text())
    planted = [str(outside / "precious.txt"), f"../../{outside.name}/precious.txt", "a/../../../elsewhere/index.html",
               "link/precious.txt", "link/index.html", "./a/../link/index.html"]
    files = manifest["files"]
    manifest["files"] = {**files, **dict.fromkeys(planted, "0" * 32)} if isinstance(files, dict) else files + planted
    (out / MANIFEST).write_text(json.dumps(manifest))
    capsys.readouterr()
    assert main([*command, "--source", str(site)]) == 0
    err = capsys.readouterr().err
    assert "ignored" in err and MANIFEST in err, err
    assert (out / "link").is_symlink()


def test_a_file_changed_after_the_build_is_kept(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(PAGES)
    out = site / "public"
    assert main(["build", "--source", str(site), "-q"]) == 0
    (out / "b/index.html").write_text("my own notes")
    (site / "content/b.md").unlink()
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert (out / "b/index.html").read_text() == "my own notes"
    assert "kept b/index.html: it changed after sitegen wrote it" in capsys.readouterr().err
    (site / "content/a.md").unlink()
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert not (out / "a").exists(), "an unchanged file of the previous build is removed"


def test_a_linked_folder_in_the_output_is_never_written_through(make_site: MakeSite, outside: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({**PAGES, "content/posts/p.md": "---\ntitle: P\n---\n"})
    out = site / "public"
    out.mkdir()
    (out / "posts").symlink_to(outside, target_is_directory=True)
    (out / MANIFEST).symlink_to(outside / "precious.txt")
    before = tree_digest(outside)
    assert main(["build", "--source", str(site), "-q"]) == 1
    err = capsys.readouterr().err
    assert "posts is a link" in err and "Traceback" not in err, err
    assert tree_digest(outside) == before
    (out / "posts").unlink()
    assert main(["build", "--source", str(site), "-q"]) == 0, "a linked manifest is replaced, not written through"
    assert not (out / MANIFEST).is_symlink()


def test_a_folder_in_the_way_of_a_file_is_an_error_not_a_deletion(make_site: MakeSite,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({**PAGES, "static/notes.txt": "published"})
    out = site / "public"
    (out / "notes.txt").mkdir(parents=True)
    (out / "notes.txt/mine.txt").write_text("mine")
    assert main(["build", "--source", str(site), "-q"]) == 1
    assert "notes.txt is a folder holding files sitegen did not write" in capsys.readouterr().err
    assert (out / "notes.txt/mine.txt").read_text() == "mine"


# Finding 6 (the writer's part): no output path under a dot folder (but .well-known/) or outside the output.

@pytest.mark.parametrize("rel", [".git/HEAD", "a/.git/config", "x/.hidden/y.html", MANIFEST, "a/../../x",
                                 "/etc/x", "a//b", "a\\..\\b"])
def test_the_writer_refuses_paths_under_dot_folders_or_outside(tmp_path: Path, rel: str) -> None:
    site = tmp_path / "site"
    site.mkdir()
    with pytest.raises(OutputError, match="refusing to write"):
        write_output({"index.html": b"ok", rel: b"x"}, site / "public", site)
    assert not (site / "public").exists()
    assert write_output({".well-known/security.txt": b"x", ".nojekyll": b""}, site / "public", site).written == 2


# Finding 7: dangerous output folders.

@pytest.mark.parametrize("target", [".git", ".git/x", ".github", ".sitegen-cache", "archetypes", "archetypes/x",
                                    "themes", "other/.git", "repos"])
def test_dangerous_output_folders_are_refused(make_site: MakeSite, target: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({**PAGES, ".git/HEAD": "ref: refs/heads/main\n", ".github/workflows/x.yml": "on: push\n",
                      ".sitegen-cache/keep": "k", "archetypes/post.md": "---\n---\n",
                      "themes/t/layouts/x.html": "x"})
    (site.parent / "other/.git").mkdir(parents=True)
    (site.parent / "repos/project/.git").mkdir(parents=True)
    (site.parent / "repos/project/main.py").write_text("print()")
    path = str(site.parent / target) if target in ("other/.git", "repos") else str(site / target)
    before = tree_digest(site.parent)
    assert main(["build", "--source", str(site), "--output", path, "--clean-output"]) == 1
    err = capsys.readouterr().err
    assert "refusing to write the site into" in err and "hint:" in err, err
    assert tree_digest(site.parent) == before


def test_sitegen_own_folders_are_refused_as_output(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    import sitegen

    site = make_site(PAGES)
    theme = Path(sitegen.__file__).resolve().parent.parent / "themes/default"
    for target in (theme, theme / "static", Path(sitegen.__file__).resolve().parent):
        assert main(["build", "--source", str(site), "--output", str(target), "--clean-output"]) == 1
        assert "sitegen's own files" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["/usr", "/etc", "/tmp", "/var", "/home", "HOME-PARENT"])
def test_system_folders_and_the_home_folders_parent_are_refused(tmp_path: Path, target: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # check_output_dir only: on code without the rule, a test build into /usr would be a disaster.
    from sitegen.writer import check_output_dir

    monkeypatch.setenv("HOME", str(tmp_path / "people/me"))
    (tmp_path / "site").mkdir()
    out = tmp_path / "people" if target == "HOME-PARENT" else Path(target)
    with pytest.raises(OutputError, match="system folder|holds your home folder"):
        check_output_dir(out, tmp_path / "site")


def test_a_pages_checkout_is_a_fine_output_and_its_git_is_never_touched(make_site: MakeSite,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(PAGES)
    out = site.parent / "gh-pages"
    (out / ".git").mkdir(parents=True)
    (out / ".git/HEAD").write_text("ref: refs/heads/gh-pages\n")
    (out / "old.html").write_text("from another tool")
    assert main(["build", "--source", str(site), "--output", str(out), "--clean-output"]) == 1
    assert "has not built into" in capsys.readouterr().err
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 0
    assert main(["build", "--source", str(site), "--output", str(out), "-q", "--clean-output"]) == 0
    assert not (out / "old.html").exists() and (out / "a/index.html").is_file()
    assert (out / ".git/HEAD").read_text() == "ref: refs/heads/gh-pages\n"


def test_clean_output_refuses_a_folder_sitegen_never_built_into(make_site: MakeSite,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # `--output ../thesis --clean-output` (a typo, a sibling project without .git): no manifest, no proof.
    site = make_site(PAGES)
    out = site.parent / "thesis"
    out.mkdir()
    (out / "thesis.tex").write_text("three years of work")
    (out / ".nojekyll").write_text("")
    before = tree_digest(out)
    assert main(["build", "--source", str(site), "--output", str(out), "--clean-output"]) == 1
    err = capsys.readouterr().err
    assert "has not built into" in err and "thesis.tex" in err, err
    assert tree_digest(out) == before
    empty = site.parent / "fresh"
    (empty / ".nojekyll").parent.mkdir()
    (empty / ".nojekyll").write_text("")
    assert main(["build", "--source", str(site), "--output", str(empty), "-q", "--clean-output"]) == 0
    assert main(["build", "--source", str(site), "--output", str(out), "-q"]) == 0
    assert (out / "thesis.tex").read_text() == "three years of work"


def test_an_output_inside_a_file_is_a_message(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(PAGES)
    assert main(["build", "--source", str(site), "--output", str(site / "sitegen.yaml/out")]) == 1
    assert main(["build", "--source", str(site), "--output", str(site / "sitegen.yaml")]) == 1
    err = capsys.readouterr().err
    assert "is a file" in err and "is not a folder" in err and "Traceback" not in err


# Finding 8: links out of the site are refused for every read and write, unless the site allows them.

def test_links_out_of_the_site_are_refused_unless_allowed(make_site: MakeSite, outside: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    (outside / "papers.bib").write_text("@article{k1, title={Secret Paper}, author={Doe, J.}, year={2020}}\n")
    (outside / "cv.yaml").write_text("basics:\n  name: Secret Person\n")
    (outside / "base.html").write_text("SECRET-TEMPLATE {% block main %}{% endblock %}")
    (outside / "cache").mkdir()
    site = make_site(PAGES)
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "k")
    (site / ".sitegen-cache").symlink_to(outside / "cache", target_is_directory=True)
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert list((outside / "cache").iterdir()) == [], "nothing is written through a linked cache folder"
    (site / "sitegen.yaml").write_text("title: T\ncv: {bibtex: [refs/papers.bib]}\n")
    (site / "refs").mkdir()
    (site / "refs/papers.bib").symlink_to(outside / "papers.bib")
    (site / "data").mkdir()
    (site / "data/cv.yaml").symlink_to(outside / "cv.yaml")
    (site / "layouts/base.html").unlink()
    (site / "layouts/base.html").symlink_to(outside / "base.html")
    capsys.readouterr()
    assert main(["build", "--source", str(site)]) == 1
    err = capsys.readouterr().err
    assert "refs/papers.bib: a symbolic link to outside the site" in err, err
    assert "data/cv.yaml: " in err and "allow_symlinks_outside" in err, err
    assert main(["cv", "--source", str(site), "--format", "json"]) == 1
    assert "data/cv.yaml: a symbolic link to outside the site" in capsys.readouterr().err
    (site / "data/cv.yaml").unlink()
    (site / "refs/papers.bib").unlink()
    (site / "sitegen.yaml").write_text("title: T\n")
    assert main(["build", "--source", str(site)]) == 1
    assert "base.html: a symbolic link to outside the site" in capsys.readouterr().err
    assert "SECRET" not in (site / "public/a/index.html").read_text()
    (site / "data/cv.yaml").symlink_to(outside / "cv.yaml")
    (site / "refs/papers.bib").symlink_to(outside / "papers.bib")
    (site / "sitegen.yaml").write_text("title: T\nallow_symlinks_outside: true\ncv: {bibtex: [refs/papers.bib]}\n")
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert "SECRET-TEMPLATE" in (site / "public/a/index.html").read_text()
    assert main(["cv", "--source", str(site), "--format", "json"]) == 0


def test_a_linked_gitignore_in_the_cache_is_never_overwritten(make_site: MakeSite,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site({**PAGES, ".gitignore": "public/\n"})
    (site / ".sitegen-cache").mkdir()
    (site / ".sitegen-cache/.gitignore").symlink_to("../.gitignore")
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "k")
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert (site / ".gitignore").read_text() == "public/\n"
    assert (site / ".sitegen-cache/build.pickle").is_file()
    assert main(["clean", "--source", str(site), "-q"]) == 0
    assert (site / ".gitignore").read_text() == "public/\n"


def test_a_source_folder_linked_out_of_the_site_is_refused(make_site: MakeSite, outside: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"sitegen.yaml": "title: T\n"})
    (outside / "post.md").write_text("---\ntitle: Secret\n---\n")
    (site / "content").symlink_to(outside, target_is_directory=True)
    assert main(["build", "--source", str(site), "-q"]) == 1
    assert "content/: a symbolic link to outside the site" in capsys.readouterr().err


def test_a_theme_linked_out_of_the_site_is_refused(make_site: MakeSite, outside: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (outside / "layouts").mkdir()
    (outside / "layouts/page.html").write_text("SECRET-THEME")
    (outside / "static").mkdir()
    (outside / "static/secret.txt").write_text("SECRET-FILE")
    site = make_site({**PAGES, "sitegen.yaml": "title: T\ntheme: t\n"}, layouts=False)
    (site / "themes").mkdir()
    (site / "themes/t").symlink_to(outside, target_is_directory=True)
    assert main(["build", "--source", str(site), "-q"]) == 1
    assert "a symbolic link to outside the site" in capsys.readouterr().err
    assert not (site / "public").exists()


def test_the_external_link_cache_is_not_written_through_a_link(tmp_path: Path, outside: Path) -> None:
    from sitegen.check.external import check_external

    cache = tmp_path / "site/.sitegen-cache/external-links.json"
    cache.parent.mkdir(parents=True)
    cache.with_suffix(".tmp").symlink_to(outside / "precious.txt")
    check_external([], cache)
    assert json.loads(cache.read_text()) == {}


def test_sitegen_cv_never_writes_its_default_file_through_a_link(tmp_path: Path, outside: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    (tmp_path / "cv.pdf").symlink_to(outside / "precious.txt")
    assert main(["cv", "--source", str(tmp_path)]) == 1
    assert "cv.pdf is a link" in capsys.readouterr().err


def test_new_never_writes_through_a_link(tmp_path: Path, outside: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "content").symlink_to(outside, target_is_directory=True)
    before = tree_digest(outside)
    assert main(["new", str(site), "--force", "-q"]) == 0
    assert tree_digest(outside) == before
    assert main(["new", "post", "posts/x.md", "--source", str(site), "-q"]) == 1
    assert "link to outside the site" in capsys.readouterr().err
    assert tree_digest(outside) == before


# Finding 9: messages instead of tracebacks.

@pytest.mark.parametrize("where", ["content/loop.md", "content/dir", "static/loop.css", "layouts/loop.html"])
def test_a_loop_of_links_is_a_message(make_site: MakeSite, where: str) -> None:
    site = make_site(PAGES)
    (site / where).parent.mkdir(parents=True, exist_ok=True)
    (site / where).symlink_to(site / where)
    proc = sitegen("build", "--source", str(site), "-q")
    assert "Traceback" not in proc.stderr, proc.stderr
    if where.startswith("layouts/"):
        assert proc.returncode == 0  # a template nobody uses is never read
    else:
        assert proc.returncode == 1 and f"{where}: a loop of symbolic links" in proc.stderr, proc.stderr


@pytest.mark.parametrize("victim", ["content/a.md", "static/s.css", "content/img.png", "layouts/page.html",
                                    "data/d.yaml", "sitegen.yaml"])
def test_an_unreadable_file_is_a_message(make_site: MakeSite, victim: str, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # Tests run as root, where chmod 000 does not stop a read: make the read fail instead.
    site = make_site({**PAGES, "static/s.css": "x", "content/img.png": b"\x89PNG", "data/d.yaml": "a: 1"})
    real_read, real_open = pathlib.Path.read_bytes, open
    path = str(site / victim)

    def read_bytes(self: Path) -> bytes:
        if str(self) == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_read(self)

    def fake_open(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == path:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)
    monkeypatch.setattr("builtins.open", fake_open)
    assert main(["build", "--source", str(site), "-q"]) == 1
    err = capsys.readouterr().err
    assert "Permission denied" in err and victim.rsplit("/", 1)[-1] in err and "Traceback" not in err, err


def test_a_folder_where_a_file_is_expected_is_a_message(make_site: MakeSite, capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    site = make_site(PAGES)
    (site / "sitegen.yaml").unlink()
    (site / "sitegen.yaml").mkdir()
    assert main(["build", "--source", str(site), "-q"]) == 1
    assert "sitegen.yaml: not a readable file" in capsys.readouterr().err


def test_two_builds_into_one_output_the_second_names_the_first(make_site: MakeSite,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(PAGES)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom pathlib import Path\nfrom sitegen.outdir import output_lock\n"
         "with output_lock(Path(sys.argv[1])):\n    print('locked', flush=True)\n    time.sleep(60)\n",
         str((site / "public").resolve())], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        assert main(["build", "--source", str(site), "-q"]) == 1
        err = capsys.readouterr().err
        assert f"another sitegen (process {holder.pid}) is writing into" in err and f"kill {holder.pid}" in err, err
        assert main(["clean", "--source", str(site), "-q"]) == 1
    finally:
        holder.kill()
        holder.wait()
    assert main(["build", "--source", str(site), "-q"]) == 0, "a lock whose owner died never blocks a build"
    assert not [p for p in site.iterdir() if "lock" in p.name]


# Finding 10: kill -9 leaves neither workers nor staging folders that a later build keeps.

def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_workers_exit_when_the_build_is_killed(make_site: MakeSite) -> None:
    pages = {f"content/p{i:04d}.md": f"---\ntitle: P{i}\n---\n" + "Some *text* and `code`.\n\n" * 200
             for i in range(600)}
    site = make_site(pages)
    proc = subprocess.Popen([sys.executable, "-m", "sitegen", "build", "-q", "--no-cache", "--jobs", "2",
                             "--source", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while not workers and proc.poll() is None and time.monotonic() < deadline:
        workers = _children(proc.pid)
        time.sleep(0.02)
    if not workers:
        proc.kill()
        pytest.skip("the build finished before its workers could be seen")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while any(_running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = [w for w in workers if _running(w)]
    for w in alive:
        os.kill(w, signal.SIGKILL)
    assert not alive, "workers outlived the killed build"


def test_a_build_removes_the_staging_folders_of_killed_builds_of_its_output(make_site: MakeSite) -> None:
    site = make_site(PAGES)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    pid = int(dead.stdout)
    stale = site / f".public.sitegen-staging-{pid}-0123abcd"
    (stale / "posts").mkdir(parents=True)
    (stale / "posts/index.html").write_text("half")
    other_output = site / f".public-old.sitegen-staging-{pid}-0123abcd"
    not_ours = site / ".public.sitegen-staging-notes"
    for folder in (other_output, not_ours):
        folder.mkdir()
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert not stale.exists()
    assert other_output.is_dir() and not_ours.is_dir()


def test_an_output_on_its_own_file_system_is_staged_inside_it(make_site: MakeSite,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # A container's volume mounted as the output: a rename from beside it would cross file systems (EXDEV).
    site = make_site(PAGES)
    assert main(["build", "--source", str(site), "-q"]) == 0
    import sitegen.writer

    monkeypatch.setattr(sitegen.writer, "same_device", lambda a, b: False)
    real_replace = os.replace

    def replace(src: str | Path, dst: str | Path) -> None:
        if Path(dst).is_relative_to(site / "public"):
            assert Path(src).is_relative_to(site / "public"), f"{src} -> {dst} crosses file systems"
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    (site / "content/c.md").write_text("---\ntitle: C\n---\n")
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert (site / "public/c/index.html").is_file()
    assert not [p for p in (site / "public").iterdir() if "staging" in p.name]


# Finding 11: static dotfiles are published; only git, Finder and editor leftovers are not.

def test_static_dotfiles_reach_the_output(make_site: MakeSite) -> None:
    site = make_site({**PAGES, "static/.well-known/security.txt": "Contact: mailto:a@example.org\n",
                      "static/.nojekyll": "", "static/_headers": "/*\n", "static/_redirects": "/a /b\n",
                      "static/CNAME": "example.org\n", "static/.htaccess": "x",
                      "static/.DS_Store": "x", "static/.git": "gitdir: x", "static/.git-folder/.git/HEAD": "x",
                      "static/s.css~": "x", "static/.s.css.swp": "x", "static/#s.css#": "x",
                      "static/.vscode/settings.json": "{}"})
    assert main(["build", "--source", str(site), "-q"]) == 0
    out = site / "public"
    for name in (".well-known/security.txt", ".nojekyll", "_headers", "_redirects", "CNAME", ".htaccess"):
        assert (out / name).is_file(), name
    for name in (".DS_Store", ".git", ".git-folder", "s.css~", ".s.css.swp", "#s.css#", ".vscode"):
        assert not (out / name).exists(), name
    (site / "static/.well-known/security.txt").unlink()
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert not (out / ".well-known").exists(), "a dotfile sitegen wrote is removed like any other of its files"


def test_a_new_site_publishes_nojekyll_for_github_pages(tmp_path: Path) -> None:
    site = tmp_path / "new"
    assert main(["new", str(site), "-q"]) == 0
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert (site / "public/.nojekyll").is_file()


# A first build's files are staged while it goes on (sitegen.writer.Staging): what is published is still exactly
# the build's files, swapped in at once, and a staging folder never outlives its build.

def _published(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_staged_files_changed_or_left_out_later_are_published_as_the_build_ends(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    staging = Staging(real_path(site / "public"))
    staging.put({"index.html": b"home", "a/b/c.html": b"old", "gone/x/y.txt": b"left out", ".git/HEAD": b"no"})
    assert staging.folder is not None and not (site / "public").exists()
    final = {"index.html": b"home", "a/b/c.html": b"new", "feed.xml": b"<feed/>"}
    assert write_output(final, site / "public", site, staging=staging).written == 3
    published = _published(site / "public")
    assert json.loads(published.pop(MANIFEST))["files"].keys() == final.keys()
    assert published == final
    assert not (site / "public/gone").exists()
    assert [p.name for p in site.iterdir()] == ["public"]


def test_the_manifest_of_a_staged_build_is_the_manifest_of_an_unstaged_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writing copy digests the files it wrote; the build process digests only the others."""
    site = tmp_path / "site"
    site.mkdir()
    staged = {"index.html": b"home", "a/b/c.html": b"old", "kept.css": b"body {}"}
    final = {"index.html": staged["index.html"], "a/b/c.html": b"new", "kept.css": staged["kept.css"],
             "feed.xml": b"<feed/>"}
    staging = Staging(real_path(site / "public"))
    staging.put(staged)
    assert staging.wait()
    assert staging.digests == {rel: writer.digest(data) for rel, data in staged.items()}
    digested: list[bytes] = []
    real_digest = writer.digest
    monkeypatch.setattr(writer, "digest", lambda data: digested.append(data) or real_digest(data))
    write_output(final, site / "public", site, staging=staging)
    assert sorted(digested) == [b"<feed/>", b"new"]  # the two files the writing copy did not write as they are
    monkeypatch.undo()
    write_output(final, tmp_path / "unstaged", site)
    assert (site / "public" / MANIFEST).read_bytes() == (tmp_path / "unstaged" / MANIFEST).read_bytes()


def test_staging_is_dropped_when_the_output_appeared_meanwhile_or_the_build_failed(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    staging = Staging(real_path(site / "public"))
    staging.put({"index.html": b"staged", "old.html": b"staged"})
    (site / "public").mkdir()
    (site / "public/mine.txt").write_text("kept")
    write_output({"index.html": b"final"}, site / "public", site, staging=staging)
    assert _published(site / "public") == {"index.html": b"final", "mine.txt": b"kept",
                                           MANIFEST: (site / "public" / MANIFEST).read_bytes()}
    failed = Staging(real_path(tmp_path / "other"))
    failed.put({"index.html": b"x"})
    failed.discard()
    assert sorted(p.name for p in site.iterdir()) == ["public"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_first_build_through_the_cli_publishes_exactly_the_build(make_site: MakeSite) -> None:
    site = make_site({**PAGES, **{f"content/posts/p{i}.md": f"---\ntitle: P{i}\ndate: 2024-01-01\n---\nText {i}\n"
                                  for i in range(130)}})
    assert main(["build", "--source", str(site), "-q", "--no-cache"]) == 0
    published = _published(site / "public")
    assert json.loads(published.pop(MANIFEST))["files"].keys() == published.keys()
    assert published == build_site(BuildOptions(source=site)).files
    assert not [p for p in site.iterdir() if "staging" in p.name]


def test_a_large_output_is_written_by_threads_whole_and_a_failure_in_one_is_raised(tmp_path: Path) -> None:
    files = {f"posts/p{i}/index.html": f"<p>{i}</p>".encode() for i in range(200)}
    files |= {"index.html": b"home", "search/shard-1.json": b"{}"}
    root = tmp_path / "a"
    root.mkdir()
    writer._write_all(root, files.items())
    assert {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()} == files
    # A file already there (a new file is never written over one) fails its thread; the writer raises it.
    again = tmp_path / "b"
    (again / "posts" / "p151").mkdir(parents=True)
    (again / "posts" / "p151" / "index.html").write_bytes(b"someone else's")
    with pytest.raises(FileExistsError):
        writer._write_all(again, files.items())
    assert (again / "posts" / "p151" / "index.html").read_bytes() == b"someone else's"
