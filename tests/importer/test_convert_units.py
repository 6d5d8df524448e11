"""Unit tests of the importer's pure parts: where files go, CV conversion, BibTeX links, leftover syntax."""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from sitegen.build import BuildOptions, build_site
from sitegen.config import MenuItem, SiteConfig
from sitegen.cv.validate import validate_cv
from sitegen.dialects import NATIVE
from sitegen.importer import converters_for, import_site
from sitegen.importer.bibtex import alfolio_links
from sitegen.importer.cv import alfolio_cv, json_resume_cv
from sitegen.importer.layout import place_files
from sitegen.importer.pages import leftover_syntax, parse_leniently
from sitegen.importer.urls import page_urls
from tests.importer.conftest import write_tree


@pytest.mark.parametrize(("kind", "path", "action", "dest"), [
    ("jekyll", "_posts/2020-01-02-a.md", "page", "content/posts/2020-01-02-a.md"),
    ("jekyll", "_drafts/idea.md", "page", "content/posts/idea.md"),
    ("jekyll", "_pages/about.md", "page", "content/about.md"),
    ("jekyll", "_talks/2019-x.md", "page", "content/talks/2019-x.md"),
    ("jekyll", "index.html", "page", "content/_index.md"),
    ("jekyll", "blog/index.html", "page", "content/blog/_index.md"),
    ("jekyll", "_data/cv.yml", "cv", "data/cv.yaml"),
    ("jekyll", "_data/venues.yml", "copy", "data/venues.yml"),
    ("jekyll", "_bibliography/papers.bib", "copy", "data/papers.bib"),
    ("jekyll", "assets/img/me.png", "copy", "static/assets/img/me.png"),
    ("jekyll", "files/paper.pdf", "copy", "static/files/paper.pdf"),
    ("jekyll", "CNAME", "copy", "static/CNAME"),
    ("jekyll", "_layouts/post.html", "skip", ""),
    ("jekyll", "assets/css/main.scss", "skip", ""),
    ("jekyll", "Gemfile", "ignore", ""),
    ("jekyll", "README.md", "ignore", ""),
    ("hugo", "content/posts/a.md", "page", "content/posts/a.md"),
    ("hugo", "content/posts/b/pic.jpg", "copy", "content/posts/b/pic.jpg"),
    ("hugo", "static/img/x.png", "copy", "static/img/x.png"),
    ("hugo", "assets/img/avatar.jpg", "copy", "static/img/avatar.jpg"),
    ("hugo", "data/links.json", "copy", "data/links.json"),
    ("hugo", "layouts/partials/head.html", "skip", ""),
    ("hugo", "themes/stack/theme.toml", "skip", ""),
    ("hugo", "hugo.toml", "ignore", ""),
])
def test_where_each_file_goes(kind: str, path: str, action: str, dest: str) -> None:
    front = {"_drafts/idea.md", "index.html", "blog/index.html", "assets/css/main.scss"}
    [placement] = place_files(kind, [path], lambda rel: rel in front)
    assert (placement.action, placement.dest) == (action, dest)
    assert placement.draft == (path == "_drafts/idea.md")


def test_first_cv_file_wins() -> None:
    placements = place_files("jekyll", ["_data/cv.yml", "assets/json/resume.json"], lambda rel: False)
    assert [p.action for p in placements] == ["skip", "cv"] or [p.action for p in placements] == ["cv", "skip"]
    assert {p.source for p in placements if p.action == "cv"} == {"_data/cv.yml"}


def test_json_resume_extra_keys_are_dropped_with_a_note() -> None:
    resume = {"basics": {"name": "Ada", "pronouns": "she/her", "profiles": [{"network": "X", "url": "https://x.org",
                                                                              "followers": 10}]},
              "work": [{"name": "Lab", "startDate": "2020-01", "x-private": True}],
              "x_extension": {"anything": 1}}
    cv, notes = json_resume_cv(resume, "resume.json")
    assert validate_cv(cv, "cv.yaml", {}) == []
    assert cv["work"] == [{"name": "Lab", "startDate": "2020-01"}]
    assert cv["basics"]["profiles"] == [{"network": "X", "url": "https://x.org"}]
    dropped = sorted(n.message.split("`")[1] for n in notes)
    assert dropped == ["basics.profiles[0].followers", "basics.pronouns", "work[0].x-private", "x_extension"]
    assert resume["work"][0]["x-private"] is True  # the input is not changed


def test_alfolio_cv_dates_and_unknown_section_types() -> None:
    cv, notes = alfolio_cv([
        {"title": "Teaching", "type": "time_table", "contents": [{"title": "TA", "institution": "Uni",
                                                                  "year": "2018 – 2020"}]},
        {"title": "Skills", "type": "list", "contents": ["Python", "C++"]},
        {"title": "Work", "type": "time_table", "contents": [{"title": "Dev", "year": "sometime"}]},
    ], "_data/cv.yml", name="Ada")
    assert validate_cv(cv, "cv.yaml", {}) == []
    assert cv["teaching_"]["entries"] == [{"title": "TA", "startDate": "2018", "endDate": "2020",
                                           "subtitle": "Uni"}]
    assert cv["skills_"]["entries"] == [{"title": "Python"}, {"title": "C++"}]
    assert cv["work"] == [{"name": "", "position": "Dev"}]
    assert cv["basics"]["name"] == "Ada" and not notes


def test_alfolio_pdf_file_names_become_asset_paths() -> None:
    text, count = alfolio_links("@a{k,\n  pdf={p.pdf},\n  html={https://x.org},\n  supp = {/files/s.pdf},\n"
                                "  preview={p.png}\n}\n")
    assert count == 2
    assert "pdf={/assets/pdf/p.pdf}" in text and "preview={/assets/img/publication_preview/p.png}" in text
    assert "supp = {/files/s.pdf}" in text


def test_leftover_syntax_is_located_and_code_is_left_alone() -> None:
    body = "Text {{ site.title }}\n\n```liquid\n{% if x %}\n```\n\n{{< gist a b >}}\n"
    notes = leftover_syntax(body, "content/a.md", 5)
    assert [(n.line, n.col) for n in notes] == [(5, 6), (11, 1)]


def test_json_resume_file_becomes_the_cv_page(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "resume.json": '{"basics": {"name": "Ada Lin", "nickname": "A"}, "skills": [{"name": "Python"}]}',
    })
    report = import_site("jekyll", source, tmp_path / "new")
    cv = yaml.safe_load((tmp_path / "new/data/cv.yaml").read_text())
    assert cv == {"basics": {"name": "Ada Lin"}, "skills": [{"name": "Python"}]}
    assert ("content/cv.md", "the CV page, showing data/cv.yaml") in report.written
    assert b"Python" in build_site(BuildOptions(source=tmp_path / "new")).files["cv/index.html"]


def test_a_redirect_to_the_page_itself_is_dropped(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "_pages/projects.md": "---\ntitle: Projects\npermalink: /projects/\nredirect_from:\n  - /projects\n"
                              "  - /work/\n---\nText.\n",
    })
    import_site("jekyll", source, tmp_path / "new")
    front = yaml.safe_load((tmp_path / "new/content/projects.md").read_text().split("---\n")[1])
    assert front["aliases"] == ["/work/"]
    assert "work/index.html" in build_site(BuildOptions(source=tmp_path / "new")).files


def test_a_page_beside_its_folder_becomes_the_folder_index(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "_pages/news.md": "---\ntitle: News\npermalink: /news/\n---\nAll news.\n",
        "_news/first.md": "---\ntitle: First\npermalink: /news/first/\n---\nHello.\n",
    })
    import_site("jekyll", source, tmp_path / "new")
    files = build_site(BuildOptions(source=tmp_path / "new")).files
    assert b"All news." in files["news/index.html"] and b"Hello." in files["news/first/index.html"]


def test_a_liquid_listing_page_keeps_its_url_but_not_its_template(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "_pages/year-archive.md": "---\ntitle: Posts\npermalink: /year-archive/\n---\n\n"
                                  "{% for post in site.posts %}\n  {{ post.title }}\n{% endfor %}\n",
    })
    report = import_site("jekyll", source, tmp_path / "new")
    assert [n.line for n in report.notes if "Liquid `{% for %}`" in n.message] == [6]
    page = build_site(BuildOptions(source=tmp_path / "new")).files["year-archive/index.html"]
    assert b"{%" not in page and b"{{" not in page


def test_menu_from_alfolio_nav_pages(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "_pages/cv.md": "---\ntitle: cv\nlayout: cv\npermalink: /cv/\nnav: true\nnav_order: 3\n---\n",
        "_pages/publications.md": "---\ntitle: publications\npermalink: /publications/\nnav: true\n"
                                  "nav_order: 1\n---\n",
        "_pages/secret.md": "---\ntitle: secret\n---\n",
    })
    import_site("jekyll", source, tmp_path / "new")
    config = yaml.safe_load((tmp_path / "new/sitegen.yaml").read_text())
    assert config["menu"] == [{"name": "publications", "url": "/publications/", "weight": 1},
                              {"name": "cv", "url": "/cv/", "weight": 3}]


def test_menu_from_academicpages_navigation(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "_data/navigation.yml": "main:\n  - title: Talks\n    url: /talks/\n  - title: CV\n    url: /cv/\n",
        "_pages/talks.md": "---\ntitle: Talks\npermalink: /talks/\n---\n",
    })
    import_site("jekyll", source, tmp_path / "new")
    config = yaml.safe_load((tmp_path / "new/sitegen.yaml").read_text())
    assert [m["name"] for m in config["menu"]] == ["Talks", "CV"]


def test_hugo_weight_false_means_no_weight(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "h", {"content/post/a.md": "---\ntitle: A\nweight: false\n---\nA.\n",
                                         "content/post/b.md": "---\ntitle: B\nweight: yes\n---\nB.\n"})
    report = import_site("hugo", source, tmp_path / "new")
    assert "weight" not in (tmp_path / "new/content/post/a.md").read_text()
    assert [n.path for n in report.notes if "weight" in n.message] == ["content/post/b.md"]
    assert "post/b/index.html" in build_site(BuildOptions(source=tmp_path / "new")).files


def test_a_link_out_of_the_site_is_not_followed(tmp_path: Path) -> None:
    secret = write_tree(tmp_path / "outside", {"secret.txt": "private\n"})
    source = write_tree(tmp_path / "j", {"_config.yml": "title: T\n", "assets/ok.txt": "fine\n"})
    (source / "assets/leak.txt").symlink_to(secret / "secret.txt")
    import_site("jekyll", source, tmp_path / "new")
    assert (tmp_path / "new/static/assets/ok.txt").is_file()
    assert not (tmp_path / "new/static/assets/leak.txt").exists()


def test_an_html_page_stays_html(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "projects.html": "---\ntitle: Projects\npermalink: /projects/\n---\n<p>One *star*</p>\n\n"
                         "    <p>indented after a blank line</p>\n",
    })
    import_site("jekyll", source, tmp_path / "new")
    page = build_site(BuildOptions(source=tmp_path / "new")).files["projects/index.html"]
    assert b"<p>One *star*</p>" in page and b"    <p>indented after a blank line</p>" in page
    assert b"<code>" not in page


def test_jekyll_exclude_is_honoured(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\nexclude:\n  - notes/\n  - \"*.sh\"\n  - drafts.md\n",
        "notes/todo.txt": "x\n", "deploy.sh": "echo\n", "drafts.md": "---\ntitle: D\n---\n",
        "tools/run.sh": "echo\n", "keep.txt": "k\n",
    })
    import_site("jekyll", source, tmp_path / "new")
    made = sorted(p.relative_to(tmp_path / "new").as_posix() for p in (tmp_path / "new").rglob("*") if p.is_file())
    assert made == ["sitegen.yaml", "static/keep.txt"]


def test_pages_whose_old_url_is_unknown_are_named(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "_posts/2020-01-02-hello.md": "---\ntitle: Hello\n---\nHi.\n",
        "_pages/about.md": "---\ntitle: About\npermalink: /about/\n---\nMe.\n",
    })
    converters = converters_for("jekyll")
    config, _ = converters.read_config(source)
    known = page_urls(source, config, converters.dialect)
    report = import_site("jekyll", source, tmp_path / "new")
    notes = [n.message for n in report.notes if "could not be worked out" in n.message]
    if "_posts/2020-01-02-hello.md" in known:  # a Jekyll reader that places posts: the URL is kept
        assert not notes
    else:
        assert notes == ["the URL 1 page(s) had could not be worked out (first: _posts/2020-01-02-hello.md); "
                         "they get sitegen's URLs"]


def test_config_paths_follow_the_files(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {"_config.yml": "title: T\n", "_bibliography/papers.bib": "@misc{a,\n}\n"})
    converters = converters_for("jekyll")
    config, _ = converters.read_config(source)
    reader = replace(converters, read_config=lambda site: (dataclasses.replace(
        config, cv={"bibtex": ["_bibliography/papers.bib"]}), []))
    import_site("jekyll", source, tmp_path / "new", reader)
    assert yaml.safe_load((tmp_path / "new/sitegen.yaml").read_text())["cv"] == {"bibtex": ["data/papers.bib"]}


def test_two_pages_with_one_url_both_import_and_build(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: T\n",
        "_posts/2015-08-14-blog-post-4.md": "---\ntitle: Four\npermalink: /posts/2012/08/blog-post-4/\n---\nA.\n",
        "_posts/2199-01-01-future-post.md": "---\ntitle: Future\npermalink: /posts/2012/08/blog-post-4/\n---\nB.\n",
    })
    report = import_site("jekyll", source, tmp_path / "new")
    assert [n.path for n in report.notes if "too" in n.message] == ["_posts/2199-01-01-future-post.md"]
    files = build_site(BuildOptions(source=tmp_path / "new", future=True)).files
    assert b"A." in files["posts/2012/08/blog-post-4/index.html"]


def test_a_refused_value_is_dropped_and_the_page_still_read() -> None:
    front = {"title": "Distill", "toc": "left", "weight": "heavy", "url": "/blog/2021/distill/"}
    page, dropped, _ = parse_leniently("posts/distill.md", front, "Text.\n", SiteConfig(), NATIVE)
    assert page is not None and page.url == "/blog/2021/distill/"
    assert sorted(key for key, _, _ in dropped) == ["toc", "weight"]


def test_menu_links_to_the_old_themes_home_sections_are_left_out(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "h", {"content/_index.md": "---\ntitle: Home\n---\n"})
    converters = converters_for("hugo")
    config, _ = converters.read_config(source)
    menu = (MenuItem("Publications", "#featured", 1), MenuItem("Posts", "/post/", 2))
    reader = replace(converters, read_config=lambda site: (dataclasses.replace(config, menu=menu), []))
    report = import_site("hugo", source, tmp_path / "new", reader)
    assert yaml.safe_load((tmp_path / "new/sitegen.yaml").read_text())["menu"] == [
        {"name": "Posts", "url": "/post/", "weight": 2}]
    assert any("`#featured`" in n.message for n in report.notes)
