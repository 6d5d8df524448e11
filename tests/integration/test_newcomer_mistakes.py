"""A newcomer's silent mistakes get a word, with file:line: a misspelt key, a future date, an empty summary,
a CV without a name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.errors import SitegenError
from sitegen.scaffold import NewSite, new_content, new_site
from tests.conftest import build

MakeSite = Callable[..., Path]


def test_build_warns_about_misspelt_keys_and_comma_tags_with_file_and_line(make_site: MakeSite) -> None:
    site = make_site({"content/posts/a.md": "---\ntittle: Hello\ndate: 2024-01-01\ntags: hello, world\n---\nx\n"})
    result = build(site)
    messages = [w.format() for w in result.warnings]
    assert any(m.startswith("warning: content/posts/a.md:2:1: unknown front matter key `tittle`: did you mean "
                            "`title`?") for m in messages), messages
    assert any("content/posts/a.md:4:1: `tags: hello, world` is one text" in m for m in messages), messages
    assert "tags/hello/index.html" in result.files and "tags/world/index.html" in result.files
    with pytest.raises(SitegenError, match="tittle"):
        build(site, strict=True)


def test_a_future_dated_page_or_section_left_out_is_named_with_its_date(make_site: MakeSite) -> None:
    site = make_site({"content/posts/soon.md": "---\ntitle: Soon\ndate: 2031-05-01\n---\nx\n",
                      "content/posts/now.md": "---\ntitle: Now\ndate: 2024-05-01\n---\nx\n",
                      "content/talks/_index.md": "---\ntitle: Talks\npublishDate: 2031-01-01T09:30:00+02:00\n---\n",
                      "content/talks/t.md": "---\ntitle: T\ndate: 2024-01-01\n---\n",
                      "content/posts/2032-01-01-named.md": "---\ntitle: Named\n---\nx\n",
                      "content/posts/wip.md": "---\ntitle: WIP\ndraft: true\n---\nx\n"})
    result = build(site)  # built "now" = 2030-01-01
    messages = "\n".join(w.format() for w in result.warnings)
    assert ("content/posts/soon.md:3:1: `date: 2031-05-01` is after the build time (2030-01-01): this page is "
            "left out") in messages
    assert "--future" in messages
    # The section's own page is left out, not the section: its pages are published, under a plain list.
    assert ("content/talks/_index.md:3:1: `publishDate: 2031-01-01T09:30:00+02:00` is after the build time "
            "(2030-01-01): this section's own title and text are left out; /talks/ is a plain list of its "
            "pages until then") in messages
    assert "talks/t/index.html" in result.files and "talks/index.html" in result.files
    assert "content/posts/2032-01-01-named.md: the date in its file name (2032-01-01)" in messages
    assert "wip.md" not in messages and "now.md" not in messages  # drafts are left out on purpose
    assert "posts/soon/index.html" not in result.files
    assert build(site, future=True).warnings == []


def test_an_empty_summary_does_not_disable_more(make_site: MakeSite) -> None:
    site = make_site({"content/posts/a.md": "---\ntitle: A\nsummary: \"\"\n---\nOpening.\n\n<!--more-->\n\nRest.\n",
                      "layouts/home.html": "{% for p in site.pages %}[{{ p.summary }}]{% endfor %}"})
    home = build(site).files["index.html"].decode()
    assert "Opening." in home and "Rest." not in home


def test_a_new_post_from_the_archetype_has_no_empty_summary(tmp_path: Path) -> None:
    new_site(tmp_path / "s", NewSite())
    text = new_content(tmp_path / "s", "page", "posts/my-post.md").read_text()
    assert "summary" not in text and "<!--more-->" in text


def test_a_cv_without_a_name_is_an_error_with_its_line(make_site: MakeSite) -> None:
    site = make_site({"data/cv.yaml": "basics:\n  name: \"\"\n  label: Researcher\n",
                      "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\n"}, layouts=False)
    with pytest.raises(SitegenError) as info:
        build(site)
    assert "data/cv.yaml:2: basics.name: the CV has no name" in info.value.format()
