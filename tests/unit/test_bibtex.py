"""BibTeX parsing and mapping, on strings: accents, braces, macros, names, months, types, arXiv, errors."""

from __future__ import annotations

import copy

import pytest

from sitegen.cv.bibtex import format_authors, latex_to_text, parse_bibtex, parse_month
from sitegen.cv.publication import Publication, merge_publications, normalize_title


def one(entry: str, path: str = "data/p.bib") -> Publication:
    publications, errors = parse_bibtex(entry, path)
    assert errors == [], [e.format() for e in errors]
    assert len(publications) == 1
    return publications[0]


def problems(text: str) -> list[str]:
    return [e.format() for e in parse_bibtex(text, "data/p.bib")[1]]


@pytest.mark.parametrize(("latex", "text"), [
    (r"M{\"u}ller", "Müller"),
    (r"J{\'e}r{\^o}me", "Jérôme"),
    (r"Jos\'e Garc\'{\i}a", "José García"),
    (r"{GPU} Kernels: {A} Study", "GPU Kernels: A Study"),
    (r"{{Remat}}: Optimal", "Remat: Optimal"),
    (r"Stra{\ss}e \& {\o}ystein", "Straße & øystein"),
    (r"\textit{Fast} and   \emph{small}", "Fast and small"),
    (r"50\% faster -- on~GPUs", "50% faster – on GPUs"),
    ("Plain title", "Plain title"),
    ("Science & Technology: 50% Less", "Science & Technology: 50% Less"),  # no comments inside BibTeX values
    (r"$\alpha$-Nets and x\_y", "α-Nets and x_y"),
])
def test_latex_is_decoded_to_text(latex: str, text: str) -> None:
    assert latex_to_text(latex) == text


@pytest.mark.parametrize(("authors", "names"), [
    ("Lin, Ada and Chen, Bo", ["Ada Lin", "Bo Chen"]),
    ("Ada Lin and Bo Chen", ["Ada Lin", "Bo Chen"]),
    ("Lin, Ada and Bo Chen and others", ["Ada Lin", "Bo Chen", "et al."]),
    (r"M{\"u}ller, J{\"o}rg", ["Jörg Müller"]),
    ("de la Fontaine, Jean and Ludwig van Beethoven", ["Jean de la Fontaine", "Ludwig van Beethoven"]),
    ("Smith, Jr., John", ["John Smith Jr."]),
    ("{Barnes and Noble}", ["Barnes and Noble"]),
    ("Lin, A.", ["A. Lin"]),
])
def test_author_names_come_out_first_name_first(authors: str, names: list[str]) -> None:
    assert format_authors(authors) == names


@pytest.mark.parametrize(("value", "month"), [
    ("jan", 1), ("January", 1), ("{March}", 3), ("Mar.", 3), ("3", 3), ("03", 3), ("sep", 9), ("Sept", 9),
    ("december", 12),
])
def test_months_in_every_spelling(value: str, month: int) -> None:
    assert parse_month(value) == month


@pytest.mark.parametrize("value", ["13", "0", "Smarch", "ma", ""])
def test_impossible_months_are_refused(value: str) -> None:
    with pytest.raises(ValueError):
        parse_month(value)


def test_string_macros_month_macros_and_concatenation() -> None:
    p = one('@string{conf = "Proceedings of MLSys"}\n@String{YEAR = {2024}}\n'
            "@inproceedings{k, title = {T}, booktitle = conf # { } # year, year = year, month = may}\n")
    assert p.venue == "Proceedings of MLSys 2024" and p.date == "2024-05"
    assert "booktitle = {Proceedings of MLSys 2024}" in p.bibtex and "month     = may," in p.bibtex


@pytest.mark.parametrize(("entry", "kind", "venue"), [
    ("@article{k, title={T}, journal={Journal of Systems}, year=2024}", "journal", "Journal of Systems"),
    ("@inproceedings{k, title={T}, booktitle={ASPLOS 2023}, year=2023}", "conference", "ASPLOS 2023"),
    ("@conference{k, title={T}, booktitle={OSDI}, year=2023}", "conference", "OSDI"),
    ("@phdthesis{k, title={T}, school={University of Example}, year=2022}", "thesis",
     "PhD thesis, University of Example"),
    ("@mastersthesis{k, title={T}, school={ETH}, year=2018}", "thesis", "Master's thesis, ETH"),
    ("@book{k, title={T}, publisher={MIT Press}, year=2020}", "book", "MIT Press"),
    ("@incollection{k, title={T}, booktitle={Handbook of Systems}, publisher={Springer}, year=2021}", "chapter",
     "Handbook of Systems"),
    ("@techreport{k, title={T}, institution={Example Lab}, number={TR-7}, year=2019}", "report",
     "Technical report TR-7, Example Lab"),
    ("@patent{k, title={T}, number={US 11,234,567}, year=2023}", "patent", "Patent US 11,234,567"),
    ("@misc{k, title={T}, howpublished={Blog post}, year=2020}", "", "Blog post"),
])
def test_entry_types_map_to_cv_types_and_venues(entry: str, kind: str, venue: str) -> None:
    p = one(entry)
    assert (p.type, p.venue) == (kind, venue)


@pytest.mark.parametrize("entry", [
    "@misc{k, title={T}, year=2024, eprint={2411.05678}, archivePrefix={arXiv}, primaryClass={cs.LG}}",
    "@misc{k, title={T}, year=2024, eprint={2411.05678}, eprinttype={arxiv}}",
    "@article{k, title={T}, year=2024, journal={arXiv preprint arXiv:2411.05678}}",
    "@article{k, title={T}, year=2024, journal={CoRR}, eprint={2411.05678}, archivePrefix={arXiv}}",
    "@misc{k, title={T}, year=2024, arxiv={arXiv:2411.05678}}",
])
def test_arxiv_preprints_in_every_form(entry: str) -> None:
    p = one(entry)
    assert (p.arxiv, p.type, p.venue) == ("2411.05678", "preprint", "arXiv preprint")


def test_published_paper_with_an_arxiv_version_stays_a_conference_paper() -> None:
    p = one("@inproceedings{k, title={T}, booktitle={MLSys}, year=2024, eprint={2402.01234}, archivePrefix={arXiv}}")
    assert (p.type, p.venue, p.arxiv) == ("conference", "MLSys", "2402.01234")


def test_al_folio_fields_map_onto_the_cv_entry() -> None:
    p = one(r"""@inproceedings{lin2024remat,
  title = {{Remat}: Optimal Recomputation},
  author = {Lin, Ada and Chen, Bo},
  booktitle = {MLSys 2024},
  year = {2024}, month = {May}, day = {14},
  doi = {https://doi.org/10.1234/mlsys.2024.0042},
  url = {https://example.org/remat_v2%20final},
  pdf = {/papers/remat.pdf}, code = {https://github.com/ada/remat}, slides = {https://example.org/s.pdf},
  award = {Best Paper}, selected = {true},
  abstract = {We make \emph{training} cheaper.},
  keywords = {systems; ml}, tags = {ml, compilers},
}""")
    assert p.cv_item() == {
        "name": "Remat: Optimal Recomputation", "authors": ["Ada Lin", "Bo Chen"], "venue": "MLSys 2024",
        "type": "conference", "releaseDate": "2024-05-14", "doi": "10.1234/mlsys.2024.0042",
        "url": "https://example.org/remat_v2%20final", "pdf": "/papers/remat.pdf",
        "code": "https://github.com/ada/remat", "slides": "https://example.org/s.pdf", "award": "Best Paper",
        "selected": True, "summary": "We make training cheaper.", "tags": ["systems", "ml", "compilers"],
    }
    assert p.key == "lin2024remat" and p.line == 1
    assert p.bibtex.startswith("@inproceedings{lin2024remat,\n")
    for private in ("selected", "award", "pdf", "code", "slides", "abstract"):
        assert f"  {private} " not in p.bibtex, private
    assert "doi       = {https://doi.org/10.1234/mlsys.2024.0042}," in p.bibtex


def test_bibtex_is_case_insensitive_and_keeps_the_file_spelling() -> None:
    p = one("@ARTICLE{K1, TITLE = {T}, Journal = {J}, YEAR = 2020, archivePrefix = {arXiv}, EPRINT = {2001.00001}}")
    assert (p.type, p.venue, p.arxiv) == ("journal", "J", "2001.00001")
    assert p.bibtex.startswith("@article{K1,\n  TITLE         = {T},")


def test_every_problem_of_a_file_is_reported_with_line_column_key_and_fix() -> None:
    text = """\
@article{ok2024, title = {Fine}, journal = {J}, year = 2024}

@article{notitle, journal = {J}, year = 2024}
@article{noyear, title = {No Year}}
@article{badmonth,
  title = {Bad Month}, year = 2024,
  month = {Smarch},
}
@inproceedings{macro, title = {T}, booktitle = undefinedconf, year = 2020}
@inprocedings{typo, title = {T}, year = 2020}
@misc{badlink, title = {T}, year = 2020, pdf = {remat.pdf}, selected = {maybe}}
@article{ok2024, title = {Again}, year = 2021}
"""
    found = problems(text)
    expected = [
        "data/p.bib:3:1: entry `notitle`: no `title`",
        "data/p.bib:4:1: entry `noyear`: no `year`",
        "data/p.bib:7:3: entry `badmonth`: `month = {Smarch}` is not a month",
        "data/p.bib:9:36: entry `macro`: field `booktitle`: `undefinedconf` is not a defined @string macro",
        "data/p.bib:10:1: entry `typo`: unknown entry type `@inprocedings`",
        "data/p.bib:11:42: entry `badlink`: `pdf = {remat.pdf}` is not a link",
        "data/p.bib:11:61: entry `badlink`: `selected = {maybe}` is neither true nor false",
        "data/p.bib:12:1: entry `ok2024`: the key is used twice (first on line 1)",
    ]
    assert [f.split("\n")[0] for f in found] == expected
    assert "did you mean `@inproceedings`?" in found[4]
    assert all("\n  hint: " in f for f in found)


def test_a_syntax_error_names_the_entry_and_reading_goes_on() -> None:
    text = ("@article{broken,\n  title = {Missing brace,\n  year = 2020\n}\n\n"
            "@misc{after, title = {After}, year = 2021}\n")
    publications, errors = parse_bibtex(text, "data/p.bib")
    assert [p.key for p in publications] == ["after"]
    assert len(errors) == 1 and errors[0].location == "data/p.bib:1:1"
    assert "entry `broken`: malformed BibTeX" in errors[0].message and "`{`" in (errors[0].hint or "")


def test_an_unreadable_field_does_not_hide_the_entry_s_other_problems() -> None:
    found = problems("@inproceedings{k, title = {T}, booktitle = nips, year = 2020, month = smarch}")
    assert [f.split("\n")[0] for f in found] == [
        "data/p.bib:1:32: entry `k`: field `booktitle`: `nips` is not a defined @string macro",
        "data/p.bib:1:63: entry `k`: field `month`: `smarch` is not a defined @string macro"]
    assert "`@string{nips = {...}}`" in found[0] and "`{nips}`" in found[0]


def test_impossible_day_is_an_error() -> None:
    assert problems("@misc{k, title={T}, year=2023, month=feb, day={30}}")[0].startswith(
        "data/p.bib:1:43: entry `k`: 2023-02-30 is not a date")


def test_biblatex_date_field_gives_the_release_date() -> None:
    assert one("@online{k, title={T}, date={2021-07-04}}").date == "2021-07-04"


def test_cv_file_entries_merge_newest_first_and_same_doi_or_title_is_not_repeated() -> None:
    bib, _ = parse_bibtex("""\
@article{a, title = {Same DOI}, journal = {J}, year = 2020, doi = {10.1/X}}
@article{b, title = {Remat: Optimal  Recomputation}, journal = {J}, year = 2021}
@article{c, title = {Older}, journal = {J}, year = 2019}
@article{d, title = {Newer}, journal = {J}, year = 2024, month = jan}
""", "data/p.bib")
    data = {"basics": {"name": "Ada"}, "publications": [
        {"name": "Written in the CV", "doi": "https://doi.org/10.1/x"},
        {"name": "*Remat* -- optimal recomputation", "award": "口头报告"}]}
    before = copy.deepcopy(data)
    merged = merge_publications(data, bib)
    # The CV file's entries take their dates from the BibTeX entries they override, and all sort newest first.
    assert [(p["name"], p.get("releaseDate")) for p in merged["publications"]] == [
        ("Newer", "2024-01"), ("*Remat* -- optimal recomputation", "2021"), ("Written in the CV", "2020"),
        ("Older", "2019")]
    assert merged["publications"][1]["award"] == "口头报告" and "venue" not in merged["publications"][1]
    assert data == before  # the CV's own data is not changed in place
    assert normalize_title("Remat: Optimal Recomputation") == normalize_title("*Remat* — optimal recomputation")
