"""`sitegen import hugo`: a PaperMod / Stack shaped Hugo site becomes a sitegen site with the same URLs."""

from __future__ import annotations

from pathlib import Path

import yaml

from sitegen.build import BuildOptions, build_site
from sitegen.check import check_build
from sitegen.dialects import detect_dialect
from sitegen.importer import import_site
from sitegen.importer.urls import page_urls
from tests.importer.conftest import digest, write_tree

HUGO_CONTENT: dict[str, str | bytes] = {
    "config.toml": 'baseURL = "https://blog.example.org/"\ntitle = "Blog"\ntheme = "PaperMod"\n',
    "content/_index.md": "+++\ntitle = \"Home\"\n+++\nWelcome.\n",
    "content/posts/first.md": (
        "+++\ntitle = \"First\"\ndate = 2023-03-21T10:00:00Z\ntags = [\"C++\", \"paper_summary\"]\n"
        "slug = \"hello-world\"\naliases = [\"/old/first/\"]\n+++\nSee [the bundle](../bundle/).\n"),
    "content/posts/bundle/index.md": "---\ntitle: Bundle\ndate: 2023-04-01\n---\n![a chart](chart.png)\n",
    "content/posts/bundle/chart.png": b"\x89PNG\r\n\x1a\n",
    "content/posts/widget.md": "---\ntitle: Widget\n---\nIntro.\n\n{{< mywidget id=\"7\" >}}\n",
    "content/about.md": "---\ntitle: About\nurl: /about-me/\n---\nAbout text.\n",
    "static/favicon.ico": b"\0\0\1\0",
    "data/links.yaml": "- name: Friend\n  url: https://friend.example.org/\n",
}
HUGO_THEME: dict[str, str | bytes] = {
    "layouts/_default/single.html": "{{ define \"main\" }}{{ .Content }}{{ end }}\n",
    "layouts/shortcodes/mywidget.html": "<div>{{ .Get \"id\" }}</div>\n",
    "themes/PaperMod/layouts/index.html": "{{ .Content }}\n",
    "assets/css/extended/custom.css": "body { margin: 0; }\n",
    "assets/scss/main.scss": "$c: red;\n",
    "archetypes/default.md": "---\ntitle: x\n---\n",
}


def _content_urls(site: Path) -> set[str]:
    """The URLs of a folder's pages as sitegen reads it (the Hugo reader for the source, sitegen's own after)."""
    dialect = detect_dialect(site)
    config, _ = dialect.load_config(site)
    return set(page_urls(site, config, dialect).values())


def test_page_urls_stay_the_same(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "hugo", HUGO_CONTENT)
    import_site("hugo", source, tmp_path / "new")
    before, after = _content_urls(source), _content_urls(tmp_path / "new")
    assert "/posts/hello-world/" in after and "/about-me/" in after and "/posts/bundle/" in after
    assert before == after


def test_imported_hugo_site_builds_checks_clean_and_keeps_the_source(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "hugo", {**HUGO_CONTENT, **HUGO_THEME})
    before = digest(source)
    report = import_site("hugo", source, tmp_path / "new")
    assert digest(source) == before
    result = build_site(BuildOptions(source=tmp_path / "new"))
    assert not check_build(result).errors, check_build(result).format()
    files = result.files
    assert files["posts/bundle/chart.png"] == b"\x89PNG\r\n\x1a\n"
    assert "old/first/index.html" in files  # aliases kept
    assert "favicon.ico" in files
    assert (tmp_path / "new/static/css/extended/custom.css").is_file()  # assets/ are served from the root
    assert (tmp_path / "new/data/links.yaml").is_file()
    text = report.format()
    for folder in ("layouts/", "themes/", "archetypes/", "assets/scss/"):
        assert f"not converted {folder}" in text


def test_front_matter_is_rewritten_as_yaml_with_the_same_values(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "hugo", HUGO_CONTENT)
    import_site("hugo", source, tmp_path / "new")
    text = (tmp_path / "new/content/posts/first.md").read_text()
    front = yaml.safe_load(text.split("---\n")[1])
    assert front == {"title": "First", "date": "2023-03-21T10:00:00+00:00", "tags": ["C++", "paper_summary"],
                     "slug": "hello-world", "aliases": ["/old/first/"]}


def test_a_shortcode_left_is_reported_with_its_line(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "hugo", {**HUGO_CONTENT, **HUGO_THEME})
    report = import_site("hugo", source, tmp_path / "new")
    assert any(n.path and n.path.endswith("posts/widget.md") and n.line == 6 for n in report.notes), report.format()


def test_hugo_permalinks_and_title_come_from_the_config(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "h", {
        "hugo.toml": 'baseURL = "https://b.example.org/"\ntitle = "Blog"\n[permalinks]\npost = "/p/:slug/"\n',
        "content/post/hello.md": "---\ntitle: Hello\nslug: hi\n---\nSee {{< ref \"post/other.md\" >}}.\n",
        "content/post/other.md": "---\ntitle: Other\n---\n{{< youtube abc >}}\n",
    })
    report = import_site("hugo", source, tmp_path / "new")
    result = build_site(BuildOptions(source=tmp_path / "new"))
    assert "p/hi/index.html" in result.files and "p/other/index.html" in result.files
    assert "title: Blog" in (tmp_path / "new/sitegen.yaml").read_text()
    assert b"{{&lt;" not in result.files["p/hi/index.html"] and b"{{<" not in result.files["p/hi/index.html"]
    assert not check_build(result).errors
    assert not [n for n in report.notes if "not converted" in n.message]


def test_hugo_dated_file_keeps_its_whole_name_in_the_url(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "h", {
        "hugo.toml": 'title = "Blog"\n',
        "content/posts/2024-03-10-trip.md": "---\ntitle: Trip\ndate: 2024-03-10\n---\nText.\n",
    })
    report = import_site("hugo", source, tmp_path / "new")
    assert "posts/2024-03-10-trip/index.html" in build_site(BuildOptions(source=tmp_path / "new")).files
    assert [p[1] for p in report.pinned] == ["/posts/2024-03-10-trip/"]


def test_hugo_page_with_a_refused_value_keeps_its_url(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "h", {
        "hugo.toml": 'title = "Blog"\n',
        "content/posts/2024-03-10-trip.md": "---\ntitle: Trip\ndate: 2024-03-10\nweight: heavy\n---\nText.\n",
    })
    import_site("hugo", source, tmp_path / "new")
    assert "posts/2024-03-10-trip/index.html" in build_site(BuildOptions(source=tmp_path / "new")).files


def test_a_theme_author_name_in_params_becomes_the_sites_author(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "h", {
        "config.yml": "title: Blog\nparams:\n  author: Jesse Wei\n  ShowShareButtons: false\n",
        "content/posts/a.md": "---\ntitle: A\n---\nText.\n",
    })
    import_site("hugo", source, tmp_path / "new")
    config = yaml.safe_load((tmp_path / "new/sitegen.yaml").read_text())
    assert config["author"]["name"] == "Jesse Wei" and "author" not in config.get("params", {})
    assert "posts/a/index.html" in build_site(BuildOptions(source=tmp_path / "new")).files


def test_multilingual_hugo_site_imports_with_a_languages_mapping(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "hugo", {
        "hugo.toml": 'title = "H"\n[languages.en]\nweight = 1\nlanguageName = "English"\n'
                     '[languages.fr]\nweight = 2\nlanguageName = "Français"\n',
        "content/_index.md": "---\ntitle: Home\n---\nhi\n",
        "content/_index.fr.md": "---\ntitle: Accueil\n---\nsalut\n"})
    import_site("hugo", source, tmp_path / "new")
    written = yaml.safe_load((tmp_path / "new" / "sitegen.yaml").read_text(encoding="utf-8"))
    assert written["languages"] == {"en": {"name": "English", "weight": 1}, "fr": {"name": "Français", "weight": 2}}
    assert "weight_first" not in written  # not a key sitegen.yaml accepts
    result = build_site(BuildOptions(source=tmp_path / "new"))
    assert not check_build(result).errors
