"""`lastmod` from git history: `lastmod: git` per page or `enable_git_info` for the site, one `git log` per build."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import sitegen.content.gitinfo
from tests.conftest import build, html

MakeSite = Callable[..., Path]


def commit(repo: Path, when: str) -> None:
    """Commit everything in `repo` with a fixed author and committer date."""
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "-c", "commit.gpgsign=false", "commit", "-q", "-m", when], cwd=repo, check=True, env=env)


@pytest.fixture
def git_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every command sitegen's git lookup starts."""
    runs: list[list[str]] = []
    real = subprocess.run

    def run(args: list[str], **kwargs: Any) -> Any:
        runs.append(list(args))
        return real(args, **kwargs)

    monkeypatch.setattr(sitegen.content.gitinfo.subprocess, "run", run)
    return runs


def test_lastmod_git_takes_the_newest_commit_with_one_git_log(make_site: MakeSite,
                                                              git_runs: list[list[str]]) -> None:
    layout = "{{ page.lastmod.isoformat() if page.lastmod else '-' }}"
    site = make_site({
        "content/posts/a.md": "---\ndate: 2024-01-01\nlastmod: git\n---\nfirst\n",
        "content/posts/b.md": "---\ndate: 2024-01-01\nlastmod: git\n---\n",
        "content/posts/c.md": "---\ndate: 2024-01-01\n---\n",
        "content/posts/d.md": "---\ndate: 2024-01-01\n---\n",
        "layouts/single.html": layout,
    })
    subprocess.run(["git", "init", "-q"], cwd=site, check=True)
    commit(site, "2024-05-06T07:08:09+02:00")
    (site / "content/posts/a.md").write_text("---\ndate: 2024-01-01\nlastmod: git\n---\nedited\n")
    commit(site, "2024-06-01T12:00:00+02:00")
    result = build(site)
    assert html(result, "posts/a/index.html") == "2024-06-01T12:00:00+02:00"
    assert html(result, "posts/b/index.html") == "2024-05-06T07:08:09+02:00"
    assert html(result, "posts/c/index.html") == "-"
    assert "<lastmod>2024-06-01</lastmod>" in html(result, "sitemap.xml")
    assert sum(1 for run in git_runs if "log" in run) == 1


def test_enable_git_info_dates_every_page_of_a_site_in_a_subfolder(make_site: MakeSite,
                                                                    git_runs: list[list[str]]) -> None:
    site = make_site({
        "site/sitegen.yaml": "title: T\nenable_git_info: true\n",
        "site/content/posts/a.md": "---\ndate: 2024-01-01\n---\n",
        "site/content/posts/b.md": "---\ndate: 2024-01-01\nlastmod: 2024-02-02\n---\n",
        "site/content/posts/论文.md": "---\ndate: 2024-01-01\n---\n",
        "site/layouts/single.html": "{{ page.lastmod.isoformat() }}",
    }, layouts=False)
    subprocess.run(["git", "init", "-q"], cwd=site, check=True)
    commit(site, "2024-05-06T07:08:09+00:00")
    result = build(site / "site")
    assert html(result, "posts/a/index.html") == "2024-05-06T07:08:09+00:00"
    assert html(result, "posts/论文/index.html") == "2024-05-06T07:08:09+00:00"
    assert html(result, "posts/b/index.html").startswith("2024-02-02")
    assert sum(1 for run in git_runs if "log" in run) == 1
