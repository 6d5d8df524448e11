"""A warm `sitegen build` after a template edit renders again only the pages whose templates changed (each
output records the templates its render loaded or looked for), and equals a cold build byte for byte."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.build import BuildOptions, build_site
from sitegen.cache import load_memo, save_memo
from sitegen.cli import main
from sitegen.memo import BuildMemo
from tests.conftest import MINIMAL_LAYOUTS

MakeSite = Callable[..., Path]

SITE = {**{f"content/posts/p{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-{i + 1:02d}\ntags: [t{i % 2}]\n---\n"
                                     f"Text {i}.\n" for i in range(4)},
        "content/about.md": "---\ntitle: About\n---\nAbout us.\n"}
POSTS = {f"posts/p{i}/index.html" for i in range(4)}
SINGLE = MINIMAL_LAYOUTS["layouts/single.html"]


def _warm(site: Path, memo: BuildMemo, **options: object) -> tuple[list[str], dict[str, bytes]]:
    """(outputs rendered, files) of a build from the memo as `sitegen build` keeps it (pickled to disk)."""
    save_memo(site, memo)
    loaded = load_memo(site)
    assert loaded is not None
    result = build_site(BuildOptions(source=site, **options), loaded)  # type: ignore[arg-type]
    memo.__dict__.update(loaded.__dict__)
    return result.rendered, result.files


def _cold(site: Path) -> dict[str, bytes]:
    return build_site(BuildOptions(source=site, jobs=1)).files


@pytest.fixture(autouse=True)
def _cache_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


EDITS: dict[str, tuple[Callable[[Path], object], set[str]]] = {
    "post layout": (lambda s: (s / "layouts/single.html").write_text(SINGLE.replace("</h1>", "</h1>edited")), POSTS),
    "404 page": (lambda s: (s / "layouts/404.html").write_text("gone"), {"404.html"}),
    "unused template": (lambda s: (s / "layouts/list.html").write_text("a list"), set()),
    "new layout for the posts section": (lambda s: (s / "layouts/posts").mkdir() or (
        s / "layouts/posts/single.html").write_text("{{ page.title }}"), POSTS),
    "deleted page layout, single.html takes over": (lambda s: (s / "layouts/page.html").unlink(),
                                                    {"about/index.html"}),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_warm_build_renders_only_the_pages_using_an_edited_template(make_site: MakeSite, edit: str) -> None:
    site = make_site(SITE)
    memo = BuildMemo()
    assert len(build_site(BuildOptions(source=site), memo).rendered) > len(POSTS)
    make, expected = EDITS[edit]
    make(site)
    rendered, files = _warm(site, memo)
    assert set(rendered) == expected
    assert files == _cold(site)


def test_a_theme_template_shadowed_by_the_site_and_back(make_site: MakeSite) -> None:
    theme = {f"themes/mine/{rel}": text for rel, text in MINIMAL_LAYOUTS.items()}
    site = make_site({**SITE, **theme, "sitegen.yaml": "title: T\nbase_url: https://example.org/\ntheme: mine\n"},
                     layouts=False)
    memo = BuildMemo()
    build_site(BuildOptions(source=site), memo)
    (site / "layouts").mkdir()
    (site / "layouts/base.html").write_text("<html><body>site-base{% block main %}{% endblock %}</body></html>")
    rendered, files = _warm(site, memo)
    assert set(rendered) == {k for k, v in files.items() if b"site-base" in v} >= {*POSTS, "index.html"}
    assert files == _cold(site)
    (site / "layouts/base.html").unlink()
    again, files = _warm(site, memo)
    assert set(again) == set(rendered)
    assert files == _cold(site)


def test_templates_used_in_worker_processes_are_recorded(make_site: MakeSite) -> None:
    # 130 posts: rendered by two forked workers, which must hand back the templates each page used.
    many = {f"content/posts/m{i:03d}.md": f"---\ntitle: M {i}\ndate: 2023-01-01\n---\nText {i}.\n" for i in range(130)}
    site = make_site({**SITE, **many})
    memo = BuildMemo()
    build_site(BuildOptions(source=site, jobs=2), memo)
    (site / "layouts/single.html").write_text(SINGLE.replace("</h1>", "</h1>edited"))
    rendered, files = _warm(site, memo, jobs=2)
    assert set(rendered) == POSTS | {f"posts/m{i:03d}/index.html" for i in range(130)}
    assert files == _cold(site)


def test_a_template_syntax_error_fails_the_build_once_located(make_site: MakeSite,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(SITE)
    assert main(["build", "--source", str(site), "-q"]) == 0
    before = (site / "public/posts/p1/index.html").read_bytes()
    (site / "layouts/single.html").write_text("{% extends 'base.html' %}\n{% block main %}\n{% if %}\n{% endblock %}\n")
    capsys.readouterr()
    assert main(["build", "--source", str(site), "-q"]) == 1
    err = capsys.readouterr().err
    assert "layouts/single.html:3: template syntax error" in err
    assert err.count("template syntax error") == 1 and "content/posts/p3.md" in err
    assert (site / "public/posts/p1/index.html").read_bytes() == before
    (site / "layouts/single.html").write_text(SINGLE.replace("</h1>", "</h1>fixed"))
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert b"fixed" in (site / "public/posts/p1/index.html").read_bytes()
