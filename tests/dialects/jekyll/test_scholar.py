"""Issue 16: jekyll-scholar's `{% bibliography %}` options, as its README documents them.

`{% bibliography --file secondary %}` lists `_bibliography/secondary.bib`; `--query @*[year=2013]` (bibtex-ruby's
filters: `@book`, `@article[year>=2003]`, `@*[url]`, `@*[status!=review]`, `author ^= Poe`, `!@book`); `--cited`
and `--cited_in_order` the entries the page cites; `--max 5` the first five ("disabled if grouping is active");
`group_by: year` / `group_order: descending` in `scholar:` group the list under year headings. The list is an
`<ol class="bibliography">`; an option sitegen does not read is a warning with the page's file and line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.conftest import build, html
from tests.dialects.jekyll.test_jekyll_sites import jekyll

MakeSite = Callable[..., Path]

PAPERS = """\
@article{lovelace2020,
  title={Notes on the Engine},
  author={Lovelace, Ada and Babbage, Charles},
  year={2020},
  journal={Memoirs},
  keywords={engines, notes},
  selected={true}
}
@inproceedings{babbage2021,
  title={Difference Engines},
  author={Babbage, Charles},
  year={2021},
  booktitle={Proc. Engines}
}
@article{somerville2013,
  title={On Molecular Forces},
  author={Somerville, Mary},
  year={2013},
  journal={Phil. Trans.}
}
"""
BOOKS = "@book{menabrea1842,\n  title={Sketch of the Analytical Engine},\n  author={Menabrea, Luigi},\n" \
        "  year={1842},\n  publisher={Bibliotheque}\n}\n"
CONFIG = "title: Lab\nscholar:\n  source: /_bibliography/\n"


def _titles(page: str) -> list[str]:
    return re.findall(r'<li>[^<]*<a href="[^"]*">([^<]+)</a>', page)


def _site(make_site: MakeSite, body: str, config: str = CONFIG) -> Path:
    return jekyll(make_site, {
        "_bibliography/papers.bib": PAPERS,
        "_bibliography/books.bib": BOOKS,
        "_pages/publications.md": "---\npermalink: /publications/\ntitle: Publications\n---\nAll of them.\n\n"
                                  "{% bibliography %}\n",
        "_pages/reading.md": f"---\npermalink: /reading/\ntitle: Reading\n---\n{body}",
    }, config)


def test_file_and_query_select_entries(make_site: MakeSite) -> None:
    result = build(_site(make_site, "Books:\n\n{% bibliography --file books %}\n\nArticles of 2020 on:\n\n"
                                    "{% bibliography -f papers -q @article[year>=2020] %}\n\n"
                                    "Keyword and author:\n\n{% bibliography --query @*[keywords ~= engines] %}\n\n"
                                    "{% bibliography --query \"@*[author ~= Babbage && year=2021]\" %}\n\n"
                                    "{% bibliography --query !@article %}\n\n"
                                    "Count: {% bibliography_count -f papers --query @article[year <= 2020] %}.\n"))
    page = html(result, "reading/index.html")
    lists = re.findall(r'<ol class="bibliography">.*?</ol>', page)
    assert [_titles(x) for x in lists] == [
        ["Sketch of the Analytical Engine"], ["Notes on the Engine"], ["Notes on the Engine"],
        ["Difference Engines"], ["Difference Engines", "Sketch of the Analytical Engine"]]
    assert "Count: 2." in page  # `bibliography_count` takes the same options
    assert 'href="/publications/#lovelace2020"' in page  # each entry links to its place on the publications page
    assert "Ada Lovelace, Charles Babbage. " in page and "<em>Memoirs</em>, 2020." in page
    assert "All of them." in html(result, "publications/index.html")
    assert not [w for w in result.warnings if "bibliography" in w.message], [str(w) for w in result.warnings]


def test_cited_entries_in_order_and_max(make_site: MakeSite) -> None:
    result = build(_site(make_site, "See {% cite somerville2013 %} and {% cite lovelace2020 %}.\n\n"
                                    "{% bibliography --cited_in_order %}\n\n{% bibliography --cited %}\n\n"
                                    "{% bibliography --max 2 %}\n"))
    lists = re.findall(r'<ol class="bibliography">.*?</ol>', html(result, "reading/index.html"))
    assert [_titles(x) for x in lists] == [
        ["On Molecular Forces", "Notes on the Engine"],  # as cited
        ["Notes on the Engine", "On Molecular Forces"],  # the list's order: newest first
        ["Difference Engines", "Notes on the Engine"]]


def test_group_by_year_from_the_config(make_site: MakeSite) -> None:
    config = CONFIG + "  group_by: year\n  group_order: descending\n"
    result = build(_site(make_site, "{% bibliography --file papers --max 1 %}\n", config))
    page = html(result, "reading/index.html")
    years = re.findall(r'<h2 class="bibliography">(\d+)</h2>', page)
    assert years == ["2021", "2020", "2013"]  # grouped, newest year first; `--max` is off when grouping
    assert page.index("Difference Engines") < page.index("Notes on the Engine") < page.index("On Molecular")


def test_an_unsupported_option_is_a_located_warning_and_the_list_stays(make_site: MakeSite) -> None:
    result = build(_site(make_site, "Intro.\n\n{% bibliography --file books --template bib2 --prefix x %}\n"))
    notes = sorted((w.path, w.line, w.message.split("`")[3]) for w in result.warnings if "option" in w.message)
    assert notes == [("_pages/reading.md", 7, "--prefix"), ("_pages/reading.md", 7, "--template")], notes
    assert _titles(html(result, "reading/index.html")) == ["Sketch of the Analytical Engine"]


def test_a_publications_page_with_its_own_selection_shows_only_it(make_site: MakeSite) -> None:
    site = jekyll(make_site, {
        "_bibliography/papers.bib": PAPERS,
        "_pages/publications.md": "---\npermalink: /publications/\ntitle: Publications\n---\nSelected:\n\n"
                                  "{% bibliography --query @*[selected=true] %}\n",
    }, CONFIG)
    page = html(build(site), "publications/index.html")
    assert "Selected:" in page and "Notes on the Engine" in page
    assert "Difference Engines" not in page and "On Molecular Forces" not in page
