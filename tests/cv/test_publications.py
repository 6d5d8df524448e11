"""Publications from BibTeX, once, for the site and the CV: /publications/, /cv/, /cv.pdf, /cv.json, errors."""

from __future__ import annotations

import html as html_lib
import json
import re
import urllib.parse
from pathlib import Path

import jsonschema
import pytest

from sitegen.cli import main
from sitegen.errors import SitegenError
from tests.conftest import REPO, build, html
from tests.cv.test_cv import OFFICIAL_SCHEMA, MakeSite, pdf_text

CV = """\
basics: {name: Ada Lin, email: ada@example.org}
work: [{name: Lab, position: Scientist, startDate: 2022}]
publications:
  - {name: Written In The CV File, authors: [Ada Lin], venue: Workshop, releaseDate: 2019}
"""
BIB = r"""
@string{mlsys = {MLSys}}

@inproceedings{lin2024remat,
  title     = {{Remat}: Optimal Recomputation on {GPUs}},
  author    = {Lin, Ada and M{\"u}ller, J{\"o}rg and others},
  booktitle = mlsys # { 2024},
  year      = 2024,
  month     = may,
  doi       = {10.1234/mlsys.2024.0042},
  code      = {https://github.com/ada/remat},
  award     = {Best Paper},
  selected  = {true},
  keywords  = {systems},
}

@misc{lin2024quant,
  title         = {Quantised Optimiser States},
  author        = {Ada Lin and Garc{\'\i}a, Jos{\'e}},
  year          = {2024},
  month         = {November},
  eprint        = {2411.05678},
  archivePrefix = {arXiv},
  keywords      = {ml},
}

@article{chen2023fusion,
  title   = {Fusion in Tensor Compilers},
  author  = {Chen, Bo and Lin, A.},
  journal = {Journal of Systems},
  year    = {2023},
  pdf     = {/papers/fusion.pdf},
}
"""
PAGE = "---\ntitle: Papers\nlayout: publications\n---\nEverything I wrote, with **BibTeX**.\n"
CONFIG = "title: Test\nbase_url: https://example.org/\ncv: {name_variants: [A. Lin]}\n"


def bib_site(make_site: MakeSite, **files: str) -> Path:
    base = {"sitegen.yaml": CONFIG, "data/cv.yaml": CV, "data/papers.bib": BIB, "content/publications.md": PAGE,
            "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\n"}
    return make_site({**base, **files}, layouts=False)


def test_publications_page_groups_by_year_with_anchors_bold_owner_and_bibtex(make_site: MakeSite) -> None:
    page = html(build(bib_site(make_site)), "publications/index.html")
    assert "<h1>Papers</h1>" in page and "Everything I wrote, with <strong>BibTeX</strong>." in page
    years = re.findall(r'<h2 id="year-(\d{4})">', page)
    assert years == ["2024", "2023", "2019"]
    ids = re.findall(r'<div class="cv-entry pub[^"]*" id="([^"]+)"', page)
    assert ids == ["lin2024quant", "lin2024remat", "chen2023fusion", "pub-written-in-the-cv-file"]
    assert ('<strong class="author-self">Ada Lin</strong>, Jörg Müller, et al.' in page
            and "Bo Chen, <strong class=\"author-self\">A. Lin</strong>" in page and "José García" in page)
    assert "Remat: Optimal Recomputation on GPUs" in page and "MLSys 2024" in page
    assert '<span class="badge pub-award">Best Paper</span>' in page
    assert ">selected<" not in page  # the selected marker is a star (CSS), not a word in the entry's text
    assert 'class="pub-star" role="img" aria-label="Selected publication"' in page
    for link in ('href="https://doi.org/10.1234/mlsys.2024.0042">DOI', 'href="https://arxiv.org/abs/2411.05678">arXiv',
                 'href="/papers/fusion.pdf">PDF', 'href="https://github.com/ada/remat">Code'):
        assert link in page, link
    block = re.search(r'<div class="cv-entry pub[^"]*" id="lin2024remat".*?</div>', page, re.S)
    assert block is not None
    assert ('<details class="pub-bibtex"><summary class="pub-button">BibTeX</summary><pre><code>'
            "@inproceedings{lin2024remat,") in block[0]
    assert "booktitle = {MLSys 2024}," in block[0] and "selected" not in block[0].split("<pre>")[1]
    assert "<script" not in page.split("<main")[1]


def test_cv_page_pdf_and_json_resume_list_the_bibtex_entries(make_site: MakeSite) -> None:
    result = build(bib_site(make_site))
    cv = html(result, "cv/index.html")
    titles = ["Quantised Optimiser States", "Remat: Optimal Recomputation on GPUs", "Fusion in Tensor Compilers",
              "Written In The CV File"]
    assert [cv.index(t) for t in titles] == sorted(cv.index(t) for t in titles)  # newest first, own and BibTeX
    assert '<strong class="author-self">A. Lin</strong>' in cv and "Jörg Müller, et al." in cv
    text = "\n".join(pdf_text(result.files["cv.pdf"]))
    for needle in ("Quantised Optimiser States", "Jörg Müller", "MLSys 2024", "Journal of Systems"):
        assert needle in text, needle
    data = json.loads(result.files["cv.json"])
    jsonschema.Draft4Validator(OFFICIAL_SCHEMA).validate(data)
    assert [p["name"] for p in data["publications"]] == titles
    assert data["publications"][1] == {
        "name": "Remat: Optimal Recomputation on GPUs", "authors": ["Ada Lin", "Jörg Müller", "et al."],
        "publisher": "MLSys 2024", "type": "conference", "releaseDate": "2024-05", "doi": "10.1234/mlsys.2024.0042",
        "url": "https://doi.org/10.1234/mlsys.2024.0042", "code": "https://github.com/ada/remat",
        "award": "Best Paper", "selected": True, "tags": ["systems"]}


def test_an_entry_the_cv_file_lists_itself_is_not_repeated(make_site: MakeSite) -> None:
    zh = ("basics: {name: 林雅}\npublications:\n"
          "  - {name: 'Remat: optimal recomputation on GPUs', venue: MLSys 2024, award: 最佳论文奖}\n"
          "  - {name: 量化优化器状态, doi: 10.9/other}\n")
    result = build(bib_site(make_site, **{"data/cv.zh.yaml": zh}))
    names = [p["name"] for p in json.loads(result.files["zh/cv.json"])["publications"]]
    # Newest first; the translated Remat entry takes its date from BibTeX; the undated one goes last.
    assert names == ["Quantised Optimiser States", "Remat: optimal recomputation on GPUs",
                     "Fusion in Tensor Compilers", "量化优化器状态"]
    assert "最佳论文奖" in html(result, "zh/cv/index.html") and "代表作" not in html(result, "zh/cv/index.html")


def test_variant_tags_and_sections_apply_to_bibtex_entries(make_site: MakeSite) -> None:
    config = "title: T\nbase_url: https://example.org/\ncv: {variants: {short: {tags: [systems]}}}\n"
    cv = "basics: {name: Ada Lin}\nsections: [work, publications]\nwork: [{name: Lab, position: Scientist}]\n"
    result = build(bib_site(make_site, **{"sitegen.yaml": config, "data/cv.yaml": cv}))
    short = html(result, "cv/short/index.html")
    assert "Remat: Optimal" in short and "Quantised" not in short and "Fusion in Tensor" in short
    assert "Quantised" in html(result, "cv/index.html")


def test_three_broken_entries_in_two_files_are_reported_at_once_and_the_output_kept(make_site: MakeSite) -> None:
    site = bib_site(make_site)
    assert main(["build", "--source", str(site), "-q", "--no-cache"]) == 0
    before = (site / "public/publications/index.html").read_bytes()
    (site / "data/more.bib").write_text("% more\n@article{nameless, journal = {J}, year = 2020}\n")
    (site / "data/papers.bib").write_text(BIB.replace("month     = may", "month     = {13}").replace(
        "@article{chen2023fusion,", "@article{chen2023fusion,\n  title = {Unclosed,"))
    with pytest.raises(SitegenError) as info:
        build(site)
    text = info.value.format()
    assert "data/more.bib:2:1: entry `nameless`: no `title`" in text
    assert "data/papers.bib:9:3: entry `lin2024remat`: `month = {13}` is not a month" in text
    assert re.search(r"data/papers.bib:27:1: entry `chen2023fusion`: malformed BibTeX", text)
    assert "3 error(s)" in text and text.count("hint:") == 3
    assert main(["build", "--source", str(site), "-q", "--no-cache"]) == 1
    assert (site / "public/publications/index.html").read_bytes() == before


def test_bibtex_alone_makes_a_publications_page_and_site_publications(make_site: MakeSite) -> None:
    home = ("{% extends 'base.html' %}{% block main %}<ul>{% for p in site.publications.selected %}"
            "<li><a href=\"/publications/#{{ p.id }}\">{{ p.title }}</a> {{ p.authors }}</li>{% endfor %}</ul>"
            "{{ site.publications | length }} papers{% endblock %}")
    site = make_site({"sitegen.yaml": "title: T\nbase_url: https://example.org/repo/\nauthor: {name: Ada Lin}\n",
                      "data/papers.bib": BIB, "layouts/home.html": home}, layouts=False)
    result = build(site)
    assert "cv.pdf" not in result.files
    page = html(result, "publications/index.html")
    assert "<h1>Publications</h1>" in page and 'href="/repo/papers/fusion.pdf"' in page
    assert '<strong class="author-self">Ada Lin</strong>' in page
    index = html(result, "index.html")
    assert '<a href="/publications/#lin2024remat">Remat: Optimal Recomputation on GPUs</a>' in index
    assert "Quantised" not in index and "3 papers" in index


def test_a_page_at_publications_is_left_alone(make_site: MakeSite) -> None:
    site = make_site({"data/papers.bib": BIB, "content/publications/_index.md": "---\ntitle: My list\n---\n",
                      "content/publications/one.md": "---\ntitle: One\n---\n"}, layouts=True)
    page = html(build(site), "publications/index.html")
    assert "One" in page and "lin2024remat" not in page


def test_cv_bibtex_names_the_files_to_read(make_site: MakeSite) -> None:
    config = "title: T\nbase_url: https://example.org/\ncv:\n  bibtex: [data/mine.bib]\n"
    others = "@article{cited1999, title = {Someone Else's Paper}, journal = {J}, year = 1999}\n"
    site = bib_site(make_site, **{"sitegen.yaml": config, "data/mine.bib": BIB, "data/papers.bib": others})
    result = build(site)
    assert "Remat" in html(result, "publications/index.html")
    assert "Someone Else" not in html(result, "publications/index.html") + html(result, "cv/index.html")
    (site / "sitegen.yaml").write_text(config.replace("[data/mine.bib]", "[]"))
    none = build(site)
    assert "Remat" not in html(none, "cv/index.html") + html(none, "publications/index.html")
    assert "Written In The CV File" in html(none, "publications/index.html")
    (site / "sitegen.yaml").write_text(config.replace("data/mine.bib", "data/missing.bib"))
    with pytest.raises(SitegenError, match=r"`cv.bibtex`: `data/missing.bib` does not exist"):
        build(site)
    (site / "sitegen.yaml").write_text(config.replace("[data/mine.bib]", "[../outside.bib]"))
    with pytest.raises(SitegenError, match="in the site folder"):
        build(site)


def test_sitegen_cv_command_includes_bibtex_entries(make_site: MakeSite, tmp_path: Path) -> None:
    out = tmp_path / "cv.md"
    assert main(["cv", "--source", str(bib_site(make_site)), "--format", "md", "--output", str(out)]) == 0
    text = out.read_text()
    assert "**Quantised Optimiser States**" in text and "**A. Lin**" in text and "[Best Paper]" in text


def test_the_example_site_takes_its_papers_from_its_bib_file() -> None:
    result = build(REPO)
    page = html(result, "publications/index.html")
    assert re.findall(r'class="cv-entry pub[^"]*" id="([^"]+)"', page) == [
        "lin2024quantised", "lin2024remat", "chen2023fusion", "lin2022thesis"]
    assert "Kenji Satō" in page and 'href="https://arxiv.org/abs/2411.05678"' in page
    english = json.loads(result.files["cv.json"])["publications"]
    assert len(english) == 4 and english[1]["publisher"] == "MLSys 2024" and english[1]["award"] == "oral"
    zh = json.loads(result.files["zh/cv.json"])["publications"]
    chinese = [(p["name"], p.get("award"), p.get("publisher")) for p in zh]
    assert [name for name, _, _ in chinese] == [p["name"] for p in english] == [
        "Quantised Optimiser States for Fine-Tuning", "Remat: Optimal Activation Recomputation Under a Memory Budget",
        "What Tensor Compilers Get Wrong About Fusion", "Memory-Efficient Training of Deep Networks"]
    assert chinese[1][1] == "口头报告" and chinese[3][2] == "博士学位论文，示例大学"
    assert "oral" not in html(result, "zh/cv/index.html")


ALFOLIO = r"""
@inproceedings{lin2024remat,
  title     = {Remat: Optimal Recomputation},
  author    = {Lin, Ada and Chen, Bo},
  booktitle = {MLSys 2024},
  year      = {2024},
  month     = may,
  doi       = {10.1234/mlsys.2024.0042},
  pdf       = {/papers/remat.pdf},
  html      = {https://remat.example.org/paper},
  supp      = {https://example.org/supp.zip},
  code      = {https://github.com/ada/remat},
  slides    = {https://example.org/slides.pdf},
  poster    = {https://example.org/poster.pdf},
  video     = {https://example.org/video},
  website   = {https://remat.example.org/},
  arxiv     = {2402.01234},
  abbr      = {MLSys},
  award     = {Best Paper},
  note      = {Oral presentation},
  selected  = {true},
  abstract  = {We recompute activations & save memory.},
}

@article{chen2023fusion,
  title   = {Fusion in Tensor Compilers},
  author  = {Chen, Bo and Lin, Ada},
  journal = {Journal of Systems},
  year    = {2023},
}
"""


def test_every_al_folio_link_field_is_a_button_with_abbr_award_and_note(make_site: MakeSite) -> None:
    page = html(build(bib_site(make_site, **{"data/papers.bib": ALFOLIO})), "publications/index.html")
    block = re.search(r'id="lin2024remat".*?<span class="Z3988"', page, re.S)
    assert block is not None
    buttons = re.findall(r'<a class="pub-button" href="([^"]+)">([^<]+)</a>', block[0])
    assert [label for _, label in buttons] == ["DOI", "arXiv", "PDF", "Code", "Slides", "Video", "Poster",
                                               "Project page", "Supplementary"]
    assert ("/papers/remat.pdf", "PDF") in buttons
    assert '<span class="pub-abbr">MLSys</span>' in block[0]
    assert '<span class="pub-note">Oral presentation</span>' in block[0]
    assert '<a href="https://remat.example.org/paper">Remat: Optimal Recomputation</a>' in block[0]  # `html`
    bibtex = block[0].split("<pre><code>")[1]
    for site_only in ("abbr", "supp", "poster", "video", "website", "selected", "abstract"):
        assert not re.search(rf"^\s*{site_only}\s*=", bibtex, re.M), site_only
    assert "note" in bibtex and "doi" in bibtex


def test_each_publication_gets_a_page_with_citation_meta_tags(make_site: MakeSite) -> None:
    config = CONFIG + "publications: {pages: true}\n"
    result = build(bib_site(make_site, **{"data/papers.bib": ALFOLIO, "sitegen.yaml": config}))
    page = html(result, "publications/lin2024remat/index.html")
    head = page.split("</head>")[0]
    tags = re.findall(r'<meta name="(citation_[a-z_]+)" content="([^"]*)">', head)
    assert ("citation_title", "Remat: Optimal Recomputation") in tags
    assert [c for n, c in tags if n == "citation_author"] == ["Ada Lin", "Bo Chen"]
    assert ("citation_publication_date", "2024/05") in tags
    assert ("citation_conference_title", "MLSys 2024") in tags
    assert ("citation_pdf_url", "https://example.org/papers/remat.pdf") in tags  # absolute
    assert ("citation_doi", "10.1234/mlsys.2024.0042") in tags
    journal = html(result, "publications/chen2023fusion/index.html")
    assert '<meta name="citation_journal_title" content="Journal of Systems">' in journal
    listing = html(result, "publications/index.html")
    assert 'href="/publications/lin2024remat/">Remat' in listing
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)[1])
    assert data["@type"] == "ScholarlyArticle" and data["url"] == "https://example.org/publications/lin2024remat/"
    off = build(bib_site(make_site, **{"data/papers.bib": ALFOLIO}))
    assert "publications/lin2024remat/index.html" not in off.files  # pages only when asked for


def test_the_list_page_carries_scholarly_article_json_ld_for_every_entry(make_site: MakeSite) -> None:
    page = html(build(bib_site(make_site, **{"data/papers.bib": ALFOLIO})), "publications/index.html")
    scripts = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert len(scripts) == 1
    graph = json.loads(scripts[0])["@graph"]
    assert len(graph) == 3  # two from BibTeX, one written in the CV file
    remat = next(g for g in graph if g["name"] == "Remat: Optimal Recomputation")
    assert remat["@type"] == "ScholarlyArticle" and remat["url"] == "https://example.org/publications/#lin2024remat"
    assert [a["name"] for a in remat["author"]] == ["Ada Lin", "Bo Chen"]
    assert remat["abstract"] == "We recompute activations & save memory."
    assert "https://doi.org/10.1234/mlsys.2024.0042" in remat["sameAs"]


def test_home_page_lists_selected_publications(make_site: MakeSite) -> None:
    result = build(bib_site(make_site, **{"data/papers.bib": ALFOLIO, "content/_index.md": "---\ntitle: Hi\n---\n"}))
    home = html(result, "index.html")
    selected = home.split('id="selected-heading"')[1]
    assert 'href="/publications/#lin2024remat">Remat: Optimal Recomputation</a>' in selected
    assert "Fusion in Tensor Compilers" not in selected


def test_every_entry_carries_coins_for_zotero(make_site: MakeSite) -> None:
    page = html(build(bib_site(make_site, **{"data/papers.bib": ALFOLIO})), "publications/index.html")
    titles = re.findall(r'<span class="Z3988" title="([^"]+)"></span>', page)
    assert len(titles) == 3
    fields = urllib.parse.parse_qs(html_lib.unescape(titles[0]))
    assert fields["ctx_ver"] == ["Z39.88-2004"] and fields["rft.atitle"] == ["Remat: Optimal Recomputation"]
    assert fields["rft.au"] == ["Ada Lin", "Bo Chen"] and fields["rft.jtitle"] == ["MLSys 2024"]
    assert "info:doi/10.1234/mlsys.2024.0042" in fields["rft_id"] and fields["rft.date"] == ["2024-05"]


def test_search_text_names_title_coauthors_and_venue(make_site: MakeSite) -> None:
    result = build(bib_site(make_site, **{"data/papers.bib": ALFOLIO}))
    assert result.state is not None
    entry = next(e for e in result.state.plan.publications if e.key == "lin2024remat")
    assert entry.search_text.startswith("Remat: Optimal Recomputation Ada Lin, Bo Chen MLSys 2024 MLSys 2024")
    assert entry.search_text.endswith("We recompute activations & save memory.")
