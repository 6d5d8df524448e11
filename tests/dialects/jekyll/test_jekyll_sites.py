"""Issue 16: Jekyll sites build in place, unedited, with the pages, URLs and text Jekyll gives them.

Fixtures written from Jekyll's documentation (permalinks, collections, front-matter defaults, drafts, Liquid tags)
and from the layouts of al-folio, academicpages and minima blogs (what was learnt building real forks of them).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.errors import SitegenError
from tests.conftest import build, html

MakeSite = Callable[..., Path]

ACADEMICPAGES_CONFIG = """\
title: "Ada Lovelace"
description: "Engines and notes"
url: https://ada.github.io
baseurl: ""
author:
  name: Ada Lovelace
  email: ada@example.org
permalink: /:categories/:title/
paginate: 5
repository: ada/ada.github.io
include: [_pages]
exclude: [markdown_generator, Gemfile]
collections:
  talks:
    output: true
    permalink: /:collection/:path/
  publications:
    output: true
    permalink: /:collection/:path/
  notes:
    output: false
defaults:
  - scope: {path: "", type: talks}
    values: {layout: talk, author_profile: true, venue_type: Talk}
  - scope: {path: "", type: pages}
    values: {layout: single, author_profile: true}
"""


def jekyll(make_site: MakeSite, files: dict[str, str], config: str = ACADEMICPAGES_CONFIG,
           name: str = "site") -> Path:
    """A site laid out for Jekyll: `_config.yml` and no sitegen.yaml."""
    site = make_site({"_config.yml": config, **files}, name=name)
    (site / "sitegen.yaml").unlink()
    return site


def academicpages(make_site: MakeSite) -> Path:
    return jekyll(make_site, {
        "_pages/about.md": "---\npermalink: /\ntitle: About me\nredirect_from: [/about/]\n---\nI study engines.\n",
        "_pages/cv.md": "---\npermalink: /cv/\ntitle: CV\n---\nMy CV.\n",
        "_pages/talks.html": "---\nlayout: archive\npermalink: /talks/\ntitle: Talks and presentations\n---\n"
                             "{% for post in site.talks %}{% endfor %}\n",
        "_pages/year-archive.html": "---\npermalink: /year-archive/\ntitle: Blog posts\nredirect_from: [/old-blog/]\n"
                                    "---\n{% for post in site.posts %}{% include archive-single.html %}{% endfor %}\n",
        "_talks/2012-03-01-talk-1.md": "---\ntitle: Talk 1\ncollection: talks\npermalink: /talks/2012-03-01-talk-1\n"
                                       "date: 2012-03-01\n---\nA talk.\n",
        "_talks/2013-tutorial.md": "---\ntitle: Tutorial\ndate: 2013-03-01\n---\nA tutorial.\n",
        "_publications/2014-paper.md": "---\ntitle: A paper\npermalink: /publication/2014-paper\n---\nAbstract.\n",
        "_notes/hidden.md": "---\ntitle: Not output\n---\nx\n",
        "_posts/2017-05-09-GSoC-proposal.md": "---\ntitle: Proposal\ntags: [GSoC]\n---\nA post.\n",
        "_data/navigation.yml": "main:\n  - title: Talks\n    url: /talks/\n  - title: CV\n    url: /cv/\n",
        "_includes/head.html": "<meta>\n",
        "_layouts/single.html": "{{ content }}\n",
        "images/profile.png": b"\x89PNG".decode("latin-1"),
        "files/cv.pdf": "%PDF",
        "README.md": "# A readme without front matter\n",
        "Gemfile": "source 'https://rubygems.org'\n",
        "markdown_generator/x.md": "---\ntitle: tool\n---\n",
    })


def test_academicpages_pages_collections_and_posts_get_jekylls_urls(make_site: MakeSite) -> None:
    result = build(academicpages(make_site))
    assert "I study engines." in html(result, "index.html")  # `permalink: /` makes the about page the home
    assert "about/index.html" in result.files  # redirect_from: an alias
    assert "My CV." in html(result, "cv/index.html")
    assert "A talk." in html(result, "talks/2012-03-01-talk-1.html")  # Jekyll writes `.html` for such permalinks
    assert "A tutorial." in html(result, "talks/2013-tutorial/index.html")  # the collection's /:collection/:path/
    assert "Abstract." in html(result, "publication/2014-paper.html")
    assert "A post." in html(result, "GSoC-proposal/index.html")  # /:categories/:title/ with no categories
    assert not any(p.startswith(("notes/", "_notes/", "markdown_generator/", "_includes/")) for p in result.files)
    assert "images/profile.png" in result.files and "files/cv.pdf" in result.files
    assert result.files["README.md"] == b"# A readme without front matter\n"  # no front matter: a static file
    assert "Gemfile" not in result.files
    assert result.config.title == "Ada Lovelace" and result.config.base_url == "https://ada.github.io/"
    assert [(m.name, m.url) for m in result.config.menu] == [("Talks", "/talks/"), ("CV", "/cv/")]


def test_liquid_archive_pages_lead_to_sitegens_lists(make_site: MakeSite) -> None:
    result = build(academicpages(make_site))
    assert "Talks and presentations" in html(result, "talks/index.html")  # the list takes the archive's title
    assert "Blog posts" in html(result, "posts/index.html")
    for old in ("year-archive/index.html", "old-blog/index.html"):  # the archive's URLs redirect to the list
        assert 'href="/posts/"' in html(result, old), html(result, old)


def test_what_is_not_read_is_said_once(make_site: MakeSite) -> None:
    result = build(academicpages(make_site))
    notes = [w for w in result.warnings if w.message.startswith("not read:")]
    assert len(notes) == 1 and notes[0].path == "_config.yml"
    for name in ("_includes/", "_layouts/", "_notes/", "_pages/talks.html"):
        assert name in notes[0].message
    assert "_data" not in notes[0].message and "_config.yml" not in notes[0].message
    unmapped = [w for w in result.warnings if "no sitegen equivalent" in w.message]
    assert len(unmapped) == 1 and "`repository`" in unmapped[0].message


def test_front_matter_defaults_apply_by_type(make_site: MakeSite) -> None:
    result = build(academicpages(make_site))
    assert result.state is not None
    talk = result.state.plan.tree.pages["talks/2013-tutorial.md"]
    assert talk.params["venue_type"] == "Talk" and talk.params["author_profile"] is True
    about = result.state.plan.tree.pages["about.md"]
    assert about.params["author_profile"] is True and "venue_type" not in about.params


def test_messages_name_the_file_in_the_site_folder(make_site: MakeSite) -> None:
    site = jekyll(make_site, {"_posts/2020-01-01-bad.md": "---\ntitle: [unclosed\n---\nx\n"})
    with pytest.raises(SitegenError) as info:
        build(site)
    assert info.value.format().startswith("_posts/2020-01-01-bad.md:"), info.value.format()


MINIMA_CONFIG = "title: Notes\nurl: https://example.org\nbaseurl: /blog\n"


@pytest.mark.parametrize("style, expected", [
    ("", "jekyll/update/2024/01/02/Welcome.html"),  # Jekyll's default style, `date`; `:title` keeps its case
    ("permalink: pretty\n", "jekyll/update/2024/01/02/Welcome/index.html"),
    ("permalink: ordinal\n", "jekyll/update/2024/002/Welcome.html"),
    ("permalink: none\n", "jekyll/update/Welcome.html"),
    ("permalink: /:year/:i_month/:short_year-:name:output_ext\n", "2024/1/24-2024-01-02-welcome.html"),
    ("permalink: /:title/\n", "Welcome/index.html"),
    ("permalink: /blog/:slug/\n", "blog/welcome/index.html"),
])
def test_site_permalink_styles(make_site: MakeSite, style: str, expected: str) -> None:
    site = jekyll(make_site, {"_posts/2024-01-02-Welcome.md": "---\ntitle: Hi\ncategories: jekyll update\n---\nW\n"},
                  MINIMA_CONFIG + style)
    result = build(site)
    assert expected in result.files, sorted(result.files)


def test_pages_follow_the_site_style(make_site: MakeSite) -> None:
    plain = build(jekyll(make_site, {"about.md": "---\ntitle: About\n---\nA\n", "docs/index.md": "---\n---\nD\n"},
                         MINIMA_CONFIG))
    assert "about.html" in plain.files and "docs/index.html" in plain.files
    pretty = build(jekyll(make_site, {"about.md": "---\ntitle: About\n---\nA\n"}, MINIMA_CONFIG + "permalink: pretty\n",
                          name="pretty"))
    assert "about/index.html" in pretty.files


def test_drafts_only_with_drafts(make_site: MakeSite) -> None:
    site = jekyll(make_site, {"_drafts/idea.md": "---\ntitle: Idea\n---\nSoon\n"},
                  MINIMA_CONFIG + "permalink: /:title/\n")
    assert "idea/index.html" not in build(site).files
    assert "Soon" in html(build(site, drafts=True), "idea/index.html")


def test_liquid_in_a_post(make_site: MakeSite) -> None:
    site = jekyll(make_site, {
        "_posts/2024-01-02-welcome.md": (
            "---\ntitle: Welcome\n---\n"
            "In {{ page.title }} of {{ site.title }}: [about]({% link about.md %}), "
            "[next]({% post_url 2024-02-03-next %}), ![x]({{ '/assets/x.png' | relative_url }})\n\n"
            "{% highlight ruby linenos %}\ndef f = '<b>bold</b>'\n{% endhighlight %}\n\n"
            "{% raw %}{{ kept }}{% endraw %}\n\n"
            "{% for n in site.data.people %}- {{ n.name }}\n{% endfor %}\n"
            "{% include figure.liquid path=\"assets/img/a.jpg\" class=\"img-fluid\" caption=\"A figure\" %}\n\n"
            "{% include youtube.html id=\"dQw4\" %}\n\n"
            "{% include custom.html %} and {% gist 123 %}\n"),
        "_posts/2024-02-03-next.md": "---\ntitle: Next\n---\nN\n",
        "about.md": "---\ntitle: About\npermalink: /about/\n---\nA\n",
        "_data/people.yml": "- name: Ada\n- name: Bo\n",
    }, MINIMA_CONFIG + "permalink: /:year/:title/\n")
    result = build(site)
    page = html(result, "2024/welcome/index.html")
    assert "In Welcome of Notes:" in page
    assert 'href="/blog/about/"' in page and 'href="/blog/2024/next/"' in page and 'src="/blog/assets/x.png"' in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page and "<b>bold</b>" not in page  # escaped code, never live HTML
    assert "{{ kept }}" in page
    assert "<li>Ada</li>" in page and "<li>Bo</li>" in page
    assert '<figure><img src="/blog/assets/img/a.jpg" alt="A figure" class="img-fluid"' in page
    assert "<figcaption>A figure</figcaption>" in page
    assert 'href="https://www.youtube.com/watch?v=dQw4"' in page
    assert "<p>{% include custom.html %} and {% gist 123 %}</p>" in page  # visible as text
    located = sorted((w.path, w.line) for w in result.warnings if "not run by sitegen" in w.message)
    assert located == [("_posts/2024-01-02-welcome.md", 18), ("_posts/2024-01-02-welcome.md", 18)]


def test_al_folio_publications_page_and_citations(make_site: MakeSite) -> None:
    bib = "@article{lovelace1843,\n  title={Notes},\n  author={Lovelace, Ada},\n  year={1843},\n" \
          "  journal={Memoirs},\n  abbr={Mem.},\n  bibtex_show={true},\n  selected={true},\n  pdf={notes.pdf},\n" \
          "  preview={engine.png},\n  altmetric={true},\n  html={https://example.org/notes},\n  supp={supp.pdf}\n}\n"
    site = jekyll(make_site, {
        "_bibliography/papers.bib": bib,
        "_pages/publications.md": "---\nlayout: page\npermalink: /publications/\ntitle: publications\nnav: true\n"
                                  "nav_order: 2\n---\nMy papers, by year.\n\n{% bibliography %}\n",
        "_pages/about.md": "---\nlayout: about\npermalink: /\ntitle: About\n---\nSee {% cite lovelace1843 %}.\n",
    }, "title: Ada\nurl: https://ada.github.io\nbaseurl: /site\nscholar:\n  source: /_bibliography/\n")
    result = build(site)
    pubs = html(result, "publications/index.html")
    assert "My papers, by year." in pubs  # the author's text, then the list (merged, not replaced)
    assert pubs.index("My papers, by year.") < pubs.index("Memoirs")
    assert "/site/assets/pdf/notes.pdf" in pubs
    about = html(result, "index.html")
    assert 'href="/site/publications/#lovelace1843"' in about
    assert [(m.name, m.url) for m in result.config.menu] == [("publications", "/publications/")]  # nav: true
    assert not [w for w in result.warnings if "bib" in (w.path or "")], result.warnings


def test_al_folio_bibtex_fields_are_kept_without_warnings() -> None:
    from sitegen.cv.bibtex import parse_bibtex  # bibtexparser is loaded lazily by sitegen too

    text = ("@article{a2020,\n  title={T},\n  author={Lovelace, Ada},\n  year={2020},\n  journal={J},\n"
            "  abbr={ICML},\n  bibtex_show={true},\n  selected={true},\n  pdf={paper.pdf},\n  preview={p.png},\n"
            "  html={https://example.org/p},\n  supp={supp.pdf},\n  altmetric={248277}\n}\n")
    (publication,), problems = parse_bibtex(text, "_bibliography/papers.bib")
    assert problems == []
    assert publication.pdf == "/assets/pdf/paper.pdf" and publication.selected
    assert dict(publication.extra) == {"abbr": "ICML", "bibtex_show": "true",
                                       "preview": "/assets/img/publication_preview/p.png", "html": "https://example.org/p",
                                       "supp": "/assets/pdf/supp.pdf", "altmetric": "248277"}
    assert "abbr" not in publication.bibtex and "bibtex_show" not in publication.bibtex


def test_what_jekyll_builds_past_is_a_warning_not_a_stop(make_site: MakeSite) -> None:
    bib = ("@article{a1,\n  title={One},\n  author={Lovelace, Ada},\n  year={2020},\n  journal={J}\n}\n"
           "@article{a1,\n  title={Again},\n  author={Lovelace, Ada},\n  year={2021},\n  journal={J}\n}\n")
    site = jekyll(make_site, {
        "_bibliography/papers.bib": bib,
        "_news/announcement_1.md": "---\nlayout: post\ndate: 2022-4-7 15:59:00-0400\n---\nWe moved.\n",
        "_pages/people.md": "---\npermalink: /people/\ntitle: People\n---\n{{ 'Ada' | personfilter: 1 }} leads.\n",
    }, "title: Lab\ncollections:\n  news:\n    output: true\n")
    result = build(site)
    assert "Ada leads." in html(result, "people/index.html")
    assert result.state is not None
    assert result.state.plan.tree.pages["news/announcement_1.md"].date is not None  # Ruby's Time.parse reads it
    assert [(w.path, w.line) for w in result.warnings if "personfilter" in w.message] == [("_pages/people.md", 5)]
    assert [w.line for w in result.warnings if "used twice" in w.message] == [7]


def test_a_posts_excerpt_is_its_first_paragraph(make_site: MakeSite) -> None:
    site = jekyll(make_site, {
        "_posts/2024-01-02-a.md": "---\ntitle: A\n---\nFirst *para*\ngoes on.\n\nSecond para.\n",
        "_posts/2024-01-03-b.md": "---\ntitle: B\nexcerpt_separator: <!-- cut -->\n---\n"
                                  "One.\n\nTwo. <!-- cut -->Three.\n",
    }, MINIMA_CONFIG)
    result = build(site)
    assert result.state is not None
    rendered = result.state.rendered
    assert "Second" not in (rendered["posts/2024-01-02-a.md"].summary_html or "")
    assert "First <em>para</em>" in (rendered["posts/2024-01-02-a.md"].summary_html or "")
    assert "Two." in (rendered["posts/2024-01-03-b.md"].summary_html or "")
    assert "Three" not in (rendered["posts/2024-01-03-b.md"].summary_html or "")


def test_a_jekyll_sites_files_are_watched_and_its_output_is_not_read(make_site: MakeSite) -> None:
    import watchfiles

    from sitegen.serve.watcher import SourceFilter

    site = academicpages(make_site)
    watched = SourceFilter(site, [site / "public"], in_place=True)
    assert watched(watchfiles.Change.modified, str(site / "_posts" / "2017-05-09-GSoC-proposal.md"))
    assert watched(watchfiles.Change.modified, str(site / "_config.yml"))
    assert not watched(watchfiles.Change.modified, str(site / "public" / "index.html"))
    (site / "out").mkdir()
    (site / "out" / ".sitegen-manifest.json").write_text("{}")
    (site / "out" / "x.md").write_text("---\ntitle: X\n---\n")
    assert not any(p.startswith("out/") for p in build(site).files)


def test_errors_in_data_and_pages_name_their_jekyll_paths_in_one_run(make_site: MakeSite) -> None:
    site = jekyll(make_site, {"_data/people.yml": "a: [\n", "_pages/x.md": "---\ntitle: [\n---\n",
                              "_talks/t.md": "---\ndate: not a date\n---\n"})
    with pytest.raises(SitegenError) as info:
        build(site)
    text = info.value.format()
    assert "_data/people.yml:" in text and "_pages/x.md:" in text and "_talks/t.md:2:" in text, text
    assert "content/" not in text and "data/people" not in text.replace("_data/people", ""), text


def test_theme_front_matter_shapes_are_accepted_without_warnings(make_site: MakeSite) -> None:
    site = jekyll(make_site, {"_posts/2024-01-02-a.md": (
        "---\ntitle: A\nlayout: distill\ntoc:\n  sidebar: left\nhidden: true\nheader:\n  teaser: t.png\n"
        "author_profile: true\nread_time: true\nshare: true\nrelated: true\ngiscus_comments: true\n---\nA\n")},
        MINIMA_CONFIG)
    result = build(site)
    assert result.state is not None
    page = result.state.plan.tree.pages["posts/2024-01-02-a.md"]
    assert page.toc is True and page.hidden and page.params["header"] == {"teaser": "t.png"}
    assert [w for w in result.warnings if w.path == "_posts/2024-01-02-a.md"] == []


def test_a_page_in_pages_and_one_at_the_root_of_the_same_name_are_both_named(make_site: MakeSite) -> None:
    site = jekyll(make_site, {"about.md": "---\ntitle: A\n---\nA\n", "_pages/about.md": "---\ntitle: B\n---\nB\n"})
    with pytest.raises(SitegenError) as info:
        build(site)
    assert "`_pages/about.md` and `about.md` are read as the same page" in info.value.format() or \
        "`about.md` and `_pages/about.md` are read as the same page" in info.value.format(), info.value.format()


def test_link_names_a_page_of_pages_by_its_path(make_site: MakeSite) -> None:
    site = jekyll(make_site, {"_pages/cv.md": "---\ntitle: CV\npermalink: /cv/\n---\nCV\n",
                              "_posts/2024-01-02-a.md": "---\ntitle: A\n---\n[cv]({% link _pages/cv.md %})\n"},
                  MINIMA_CONFIG)
    result = build(site)
    assert 'href="/blog/cv/"' in html(result, "2024/01/02/a.html")


def test_sitegen_check_names_a_jekyll_file_by_its_path(make_site: MakeSite) -> None:
    from sitegen.check import check_build

    site = jekyll(make_site, {"_posts/2024-01-02-a.md": "---\ntitle: A\n---\n[gone](/nowhere/)\n"}, MINIMA_CONFIG)
    report = check_build(build(site))
    assert "(_posts/2024-01-02-a.md:4)" in report.format(), report.format()


def test_distill_toc_as_a_list_is_a_table_of_contents(make_site: MakeSite) -> None:
    """al-folio's distill posts write `toc:` as a list of `{name: ...}` sections (issue 16): not an error."""
    site = jekyll(make_site, {
        "_posts/2018-12-22-distill.md": ("---\nlayout: distill\ntitle: Distill\ntoc:\n  - name: Equations\n"
                                         "  - name: Citations\n---\n## Equations\n\nText.\n"),
    })
    result = build(site)
    assert any(path.endswith("distill/index.html") for path in result.files)


def test_two_pages_at_one_url_warn_as_jekyll_does(make_site: MakeSite) -> None:
    """al-folio forks keep two `permalink: /` pages (issue 16): Jekyll warns "Conflict: destination shared" and
    writes one; sitegen keeps the one that sorts first by path and names both files in a warning."""
    site = jekyll(make_site, {
        "_pages/about.md": "---\npermalink: /\ntitle: About\n---\nFirst.\n",
        "_pages/about_paloma.md": "---\npermalink: /\ntitle: Paloma\n---\nSecond.\n",
    })
    result = build(site)
    assert "First." in html(result, "index.html") and "Second." not in html(result, "index.html")
    conflicts = [w for w in result.warnings if "shared by multiple files" in str(w)]
    assert len(conflicts) == 1 and "about_paloma.md" in str(conflicts[0]) and "_pages/about.md" in str(conflicts[0])


def test_redirect_from_the_pages_own_url_is_no_redirect(make_site: MakeSite) -> None:
    """academicpages forks write `redirect_from: [/projects]` on `permalink: /projects/` (issue 16): no error."""
    site = jekyll(make_site, {
        "_pages/projects.md": "---\npermalink: /projects/\ntitle: Projects\nredirect_from:\n  - /projects\n---\nP.\n",
    })
    assert "P." in html(build(site), "projects/index.html")
