"""Every error of a site in one run (issue 16, item 13): a bad config value, a template that does not compile and
bad pages are reported together, each with file:line:col, exit 1, and the previous output left as it was."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.cli import main
from sitegen.errors import SitegenError
from tests.conftest import build, write_files

MakeSite = Callable[..., Path]

BAD_PAGES = {
    "content/a.md": "---\ntitle: [unclosed\n---\nA\n",
    "content/b.md": "---\ntitle: B\ndate: not-a-date\n---\nB\n",
    "content/c.md": "---\ntitle: C\ndraft: maybe\n---\nC\n",
    "content/ok.md": "---\ntitle: Fine\n---\nFine\n",
}


def errors_of(site: Path) -> str:
    with pytest.raises(SitegenError) as info:
        build(site)
    return info.value.format()


def located(text: str) -> list[str]:
    """The `path:line[:col]` of each error block of a formatted error group."""
    return re.findall(r"^(\S+?:\d+(?::\d+)?): ", text, flags=re.MULTILINE)


def test_config_template_and_content_errors_come_in_one_run(make_site: MakeSite) -> None:
    site = make_site({
        "sitegen.yaml": "title: T\nbase_url: https://example.org/\npaginate: ten\n",
        "layouts/page.html": "{% extends 'base.html' %}\n{% block main %}{% if page.title %}{{ page.title }}"
                             "{% endblock %}\n",
        **BAD_PAGES,
    })
    text = errors_of(site)
    assert located(text) == ["content/a.md:3:1", "content/b.md:3:1", "content/c.md:3:1", "layouts/page.html:2",
                             "sitegen.yaml:3:1"], text
    assert "`paginate`: expected int" in text and "template syntax error" in text
    assert "5 error(s); nothing was written" in text


def test_one_run_exits_1_and_leaves_the_previous_output(make_site: MakeSite, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/ok.md": "---\ntitle: Fine\n---\nFine\n"})
    out = tmp_path / "public"
    assert main(["build", "--source", str(site), "--output", str(out), "--no-cache", "--quiet"]) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    write_files(site, {"sitegen.yaml": "title: T\nsummary_length: 0\n",
                       "layouts/single.html": "{{ page.title }\n", **BAD_PAGES})
    assert main(["build", "--source", str(site), "--output", str(out), "--no-cache"]) == 1
    err = capsys.readouterr().err
    for where in ("sitegen.yaml:2:1: `summary_length`", "layouts/single.html:1:", "content/a.md:3:1",
                  "content/b.md:3:1", "content/c.md:3:1"):
        assert where in err, err
    assert "Traceback" not in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_config_that_cannot_be_read_does_not_hide_the_content_errors(make_site: MakeSite) -> None:
    text = errors_of(make_site({"sitegen.yaml": "title: T\nmenu: [\n", **BAD_PAGES}))
    assert located(text)[:3] == ["content/a.md:3:1", "content/b.md:3:1", "content/c.md:3:1"], text
    assert re.search(r"^sitegen\.yaml:\d+:\d+: invalid YAML", text, flags=re.MULTILINE), text


def test_with_only_a_bad_config_value_the_templates_still_render_and_report(make_site: MakeSite) -> None:
    """Rendering with the default in place of the bad value finds a template's runtime error in the same run."""
    text = errors_of(make_site({"sitegen.yaml": "title: T\npaginate: 0\n",
                                "layouts/single.html": "{{ page.missing.deeper }}\n",
                                "content/posts/a.md": "---\ntitle: A\n---\nA\n"}))
    assert "sitegen.yaml:2:1: `paginate`: must be at least 1" in text
    assert "layouts/single.html:1: undefined variable" in text and "while rendering content/posts/a.md" in text


def test_a_template_error_found_early_still_names_the_page_that_uses_it(make_site: MakeSite) -> None:
    text = errors_of(make_site({"layouts/page.html": "ok\n{% for %}\n", "content/a.md": "A"}))
    assert text.count("layouts/page.html:2:") == 1 and "while rendering content/a.md" in text


def test_every_broken_template_of_the_site_is_reported_at_once(make_site: MakeSite) -> None:
    text = errors_of(make_site({"layouts/page.html": "{% if x %}\n", "layouts/partials/nav.html": "{{ }}\n",
                                "content/a.md": "A"}))
    assert "layouts/page.html:1:" in text and "layouts/partials/nav.html:1:" in text


def test_hugo_site_config_and_content_errors_in_one_run(tmp_path: Path) -> None:
    site = write_files(tmp_path / "hugo", {
        "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Blog\n',
        "content/posts/one.md": "+++\ntitle = 'One'\ndate = 2024-01-01\ndraft = \n+++\nOne\n",
        "content/posts/two.md": "---\ntitle: Two\ndate: 31/31/2024\n---\nTwo\n",
        "content/posts/three.md": "---\ntitle: Three\n---\nThree\n",
        "data/people.yaml": "- name: [x\n",
    })
    text = errors_of(site)
    where = located(text)
    assert "hugo.toml:2" in " ".join(where), text
    assert [w.rsplit(":", 2)[0] for w in where if w.startswith(("content/", "data/"))] == [
        "content/posts/one.md", "content/posts/two.md", "data/people.yaml"], text


def test_jekyll_site_config_and_content_errors_in_one_run(tmp_path: Path) -> None:
    site = write_files(tmp_path / "jekyll", {
        "_config.yml": "title: Me\nurl: https://me.github.io\nauthor: {name: [Me}\n",
        "_posts/2024-01-01-one.md": "---\ntitle: One\ntags: [a, b\n---\nOne\n",
        "_posts/2024-01-02-two.md": "---\ntitle: Two\ndate: 2024-13-45\n---\nTwo\n",
        "_posts/2024-01-03-three.md": "---\ntitle: Three\n---\nThree\n",
        "index.md": "---\ntitle: Home\n---\nHi\n",
    })
    text = errors_of(site)
    where = located(text)
    assert any(w.startswith("_config.yml:3:") for w in where), text
    assert [w.rsplit(":", 2)[0] for w in where if w.startswith("_posts/")] == [
        "_posts/2024-01-01-one.md", "_posts/2024-01-02-two.md"], text


def test_a_missing_theme_does_not_hide_the_content_errors(make_site: MakeSite) -> None:
    text = errors_of(make_site({"sitegen.yaml": "title: T\ntheme: nosuch\n", **BAD_PAGES}, layouts=False))
    assert "theme `nosuch` not found" in text
    assert located(text)[:3] == ["content/a.md:3:1", "content/b.md:3:1", "content/c.md:3:1"], text


def test_hugo_go_templates_left_in_layouts_are_not_compiled_as_jinja(make_site: MakeSite) -> None:
    """A Hugo site given a sitegen.yaml keeps its Go templates in layouts/_default/: no page picks them."""
    site = make_site({"layouts/_default/single.html": '{{ define "main" }}<h1>{{ .Title }}</h1>{{ end }}\n',
                      "content/a.md": "---\ntitle: A\n---\nA\n"})
    assert "<h1>A</h1>" in build(site).files["a/index.html"].decode()
