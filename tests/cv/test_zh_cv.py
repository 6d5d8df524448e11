"""The Chinese CV: every word sitegen prints is Chinese, and publications are in date order with BibTeX's."""

from __future__ import annotations

import io
import json
import re

from pypdf import PdfReader

from sitegen.cv.i18n import LABELS
from tests.conftest import build, html
from tests.cv.test_cv import MakeSite

ZH = """\
basics:
  name: 林雅
  email: ada@example.org
  url: https://ada.example.org/
  location: {city: 维也纳, country: 奥地利, countryCode: AT}
  profiles: [{network: 代码托管, username: 林雅, url: "https://github.com/ada"}]
work:
  - {name: 研究所, position: 研究科学家, location: 维也纳, startDate: 2022-09, endDate: present, url: "https://lab.example.org/"}
publications:
  - {name: 自己写的论文, authors: [林雅, 陈博], venue: 研讨会, releaseDate: 2023-01, doi: 10.1/zh, arxiv: "2301.00001",
     pdf: "https://example.org/p.pdf", code: "https://github.com/ada/x", slides: "https://example.org/s.pdf",
     award: 最佳论文, selected: true, type: conference}
  - {name: 一篇专著, authors: [林雅], venue: 出版社, releaseDate: 2018, type: book}
talks:
  - {title: 报告, event: 会议, date: 2024-05-15, slides: "https://example.org/t.pdf", video: "https://example.org/v"}
open_source: [{repository: ada/remat, url: "https://github.com/ada/remat", stars: 12}]
"""
BIB = r"""
@phdthesis{t, title = {学位论文题目}, author = {林雅}, school = {示例大学}, year = {2022}, month = jun}
@misc{p, title = {预印本题目}, author = {林雅 and others}, year = {2024}, month = nov, eprint = {2411.05678},
      archivePrefix = {arXiv}}
@techreport{r, title = {报告题目}, author = {林雅}, institution = {研究所}, number = {42}, year = {2020}}
@inproceedings{c, title = {会议论文题目}, author = {林雅}, booktitle = {会议}, year = {2023}, month = may,
               url = {https://example.org/c}}
"""
ALLOWED = {"DOI", "arXiv", "PDF", "JSON", "English"}
"""Names, not words: the same in a Chinese CV (`English` is the link to the English CV, in English)."""


def _english_words(text: str) -> list[str]:
    """Latin-letter words left once addresses, DOIs, arXiv ids and e-mails (tokens with . / : @) are removed."""
    kept = [t for t in re.split(r"[\s，、·（）()\[\]|]+", text) if not re.search(r"[./:@]", t)]
    return [w for t in kept for w in re.findall(r"[A-Za-z]+", t) if w not in ALLOWED]


def test_every_label_of_the_chinese_cv_is_chinese(make_site: MakeSite) -> None:
    site = make_site({"data/cv.zh.yaml": ZH, "data/cv.yaml": "basics: {name: Ada Lin}\n", "data/p.bib": BIB,
                      "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\n"}, layouts=False)
    result = build(site)
    page = html(result, "zh/cv/index.html")
    section = page[page.index('<section class="cv-data"'):page.index("</article>")]
    web = re.sub(r"<[^>]+>", " ", section)
    pdf = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(result.files["zh/cv.pdf"])).pages)
    for name, text in (("web", web), ("pdf", pdf)):
        assert _english_words(text) == [], name
    for needle in ("代码", "幻灯片", "视频", "链接", "博士学位论文，示例大学", "arXiv 预印本", "技术报告 42，研究所",
                   "林雅, 等", "专著", "奥地利维也纳", "2024年11月"):
        squeezed = needle.replace(" ", "")
        assert squeezed in re.sub(r"\s+", "", web) and squeezed in re.sub(r"\s+", "", pdf), needle
    assert "PDF 版" in web and "JSON 简历" in web
    assert PdfReader(io.BytesIO(result.files["zh/cv.pdf"])).metadata.title == "林雅 — 简历"


def test_zh_order_merges_own_and_bibtex_entries_by_date(make_site: MakeSite) -> None:
    site = make_site({"data/cv.zh.yaml": ZH, "data/cv.yaml": "basics: {name: Ada Lin}\n", "data/p.bib": BIB,
                      "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\n"}, layouts=False)
    result = build(site)
    names = [p["name"] for p in json.loads(result.files["zh/cv.json"])["publications"]]
    assert names == ["预印本题目", "会议论文题目", "自己写的论文", "学位论文题目", "报告题目", "一篇专著"]
    page = html(result, "zh/cv/index.html")
    assert [page.index(n) for n in names] == sorted(page.index(n) for n in names)
    pdf = "".join(p.extract_text() for p in PdfReader(io.BytesIO(result.files["zh/cv.pdf"])).pages).replace(" ", "")
    assert [pdf.index(n) for n in names] == sorted(pdf.index(n) for n in names)


def test_the_label_tables_have_the_same_keys() -> None:
    assert set(LABELS["zh"]) == set(LABELS["en"])
