"""A publication, wherever it was written, and how BibTeX entries join a CV.

A BibTeX entry maps onto the CV's publication fields (`sitegen.cv.schema.PUBLICATION`): `title` -> `name`,
`author` -> `authors`, journal / booktitle / school / institution / publisher / howpublished -> `venue`, the
entry type -> `type`, year-month-day -> `releaseDate`, plus al-folio's custom fields (`selected`, `pdf`, `code`,
`slides`, `award`, `abstract` -> `summary`) and `keywords` / `tags` -> `tags`.

The merge rule (`merge_publications`): a CV's own publications and the BibTeX ones are listed together, newest
first (undated last; on the same date the CV file's entries first, in their order), leaving out a BibTeX entry
with the same DOI or the same normalised title as one the CV file writes. So a translated CV (data/cv.zh.yaml)
overrides an entry by writing it itself (the fields it leaves out, such as the date and the links, come
from the BibTeX entry: `FILLED_FROM_BIBTEX`), and its list is in the same order as the other languages'.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sitegen.content.urls import is_site_path

SITE_FIELDS = frozenset({"selected", "pdf", "code", "slides", "award", "award_name", "abstract", "tags", "html",
                         "abbr", "supp", "poster", "website", "video", "project", "bibtex_show", "preview",
                         "altmetric", "dimensions", "google_scholar_id", "additional_info", "annotation",
                         "inspirehep_id", "blog"})
"""Fields that only steer how sitegen shows an entry; left out of the BibTeX shown for citing it."""
FILLED_FROM_BIBTEX = ("releaseDate", "authors", "type", "doi", "arxiv", "url", "pdf", "code", "slides", "tags")
"""What a CV file's entry takes from the BibTeX entry of the same work when it leaves it out (not the words it
translates: name, venue, award, summary; nor `selected`, a choice made per CV)."""
TYPES = {
    "article": "journal", "inproceedings": "conference", "conference": "conference", "phdthesis": "thesis",
    "mastersthesis": "thesis", "thesis": "thesis", "book": "book", "booklet": "book", "proceedings": "book",
    "inbook": "chapter", "incollection": "chapter", "techreport": "report", "report": "report",
    "manual": "report", "patent": "patent", "unpublished": "preprint", "preprint": "preprint",
}
"""BibTeX entry type -> CV publication type (`@misc` and `@online` are preprints when they carry an arXiv id)."""
MORE_LINKS = ("video", "poster", "website", "project", "supp")
"""Link fields beyond url/pdf/code/slides (al-folio's names), in the order they are shown."""
_ARXIV_IN_TEXT = re.compile(r"arxiv[:\s]*(\d{4}\.\d{4,5}(?:v\d+)?)", re.IGNORECASE)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_TRUE, _FALSE = {"true", "yes", "1"}, {"false", "no", "0", ""}


@dataclass(frozen=True)
class Publication:
    """One publication with what the CV and the publications page show of it."""

    key: str
    """The BibTeX key (`lin2024remat`); empty for a publication written in a CV file."""
    title: str
    authors: tuple[str, ...] = ()
    """"First Last" each; `et al.` stands for BibTeX's `and others`."""
    venue: str = ""
    type: str = ""
    """journal, conference, preprint, thesis, book, chapter, report, patent (or empty)."""
    date: str = ""
    """`2024`, `2024-05` or `2024-05-12`."""
    doi: str = ""
    arxiv: str = ""
    url: str = ""
    pdf: str = ""
    code: str = ""
    slides: str = ""
    award: str = ""
    selected: bool = False
    summary: str = ""
    tags: tuple[str, ...] = ()
    publisher: str = ""
    abbr: str = ""
    """Venue abbreviation for a badge (al-folio's `abbr`: `MLSys`)."""
    note: str = ""
    """BibTeX `note` (`Oral presentation`, `To appear`)."""
    more_links: tuple[tuple[str, str], ...] = ()
    """(field, URL) of video, poster, project page (`website`/`project`) and supplementary (`supp`)."""
    bibtex: str = ""
    """The entry as others should cite it (see `sitegen.cv.bibtex.clean_bibtex`)."""
    path: str = ""
    """Where it was written (`data/papers.bib`), for messages."""
    line: int = 0
    extra: tuple[tuple[str, str], ...] = ()
    """al-folio's other fields, as written or made site paths (`abbr`, `bibtex_show`, `preview`, `html`, `supp`,
    `altmetric`, `dimensions`, `poster`, `website`...), for themes that show them."""

    @property
    def year(self) -> str:
        return self.date[:4]

    def cv_item(self) -> dict[str, Any]:
        """The entry as a CV file would write it (JSON Resume `publications` plus sitegen's extensions)."""
        item: dict[str, Any] = {
            "name": self.title, "authors": list(self.authors), "venue": self.venue, "type": self.type,
            "releaseDate": self.date, "doi": self.doi, "arxiv": self.arxiv, "url": self.url, "pdf": self.pdf,
            "code": self.code, "slides": self.slides, "award": self.award, "selected": self.selected,
            "summary": self.summary, "tags": list(self.tags), "publisher": self.publisher,
        }
        return {k: v for k, v in item.items() if v not in ("", [], False)}

    @classmethod
    def from_cv_item(cls, item: dict[str, Any], path: str = "") -> Publication:
        """A publication written in a CV file (already validated)."""
        text = {k: "" if v is None else str(v) for k, v in item.items() if not isinstance(v, list | bool)}
        return cls(key="", title=text.get("name", ""), authors=tuple(str(a) for a in item.get("authors") or []),
                   venue=text.get("venue") or text.get("publisher", ""), type=text.get("type", ""),
                   date=text.get("releaseDate", ""), doi=text.get("doi", ""), arxiv=text.get("arxiv", ""),
                   url=text.get("url", ""), pdf=text.get("pdf", ""), code=text.get("code", ""),
                   slides=text.get("slides", ""), award=text.get("award", ""), selected=item.get("selected") is True,
                   summary=text.get("summary", ""), tags=tuple(str(t) for t in item.get("tags") or []),
                   publisher=text.get("publisher", ""), path=path)


def map_entry(kind: str, key: str, title: str, authors: list[str], date: str, fields: dict[str, str],
              path: str, line: int, bibtex: str) -> tuple[Publication, list[tuple[str, str, str]]]:
    """A BibTeX entry (values already decoded) as a Publication; problems as (field, message, hint)."""
    problems: list[tuple[str, str, str]] = []
    get = fields.get
    arxiv = _arxiv(fields)
    kind_type = TYPES.get(kind, "preprint" if arxiv else "")
    journal = get("journal", "")
    if kind == "article" and arxiv and (not journal or "arxiv" in journal.lower() or journal.lower() == "corr"):
        kind_type = "preprint"
    doi = _DOI_PREFIX.sub("", get("doi", ""))
    if doi and not doi.startswith("10."):
        problems.append(("doi", f"`doi = {{{get('doi')}}}` is not a DOI",
                         "write the DOI alone, e.g. `doi = {10.1145/3600006.3613165}`"))
    links: dict[str, str] = {}
    al_folio = path.startswith("_bibliography/")  # jekyll-scholar's folder: al-folio's conventions apply
    for name in ("url", "pdf", "code", "slides", *MORE_LINKS):
        value = _al_folio_path(name, get(name, ""), al_folio) or (get("html", "") if name == "url" else "")
        if value and not (re.fullmatch(r"https?://\S+", value) or (is_site_path(value) and " " not in value)):
            problems.append((name, f"`{name} = {{{value}}}` is not a link",
                             "write a full URL (https://...) or a path on this site (/papers/remat.pdf)"))
        links[name] = value
    selected = get("selected", "").strip().lower()
    if selected not in _TRUE | _FALSE:
        problems.append(("selected", f"`selected = {{{get('selected')}}}` is neither true nor false",
                         "write `selected = {true}` (or leave the field out)"))
    tags = [t.strip() for t in re.split(r"[,;]", f"{get('keywords', '')},{get('tags', '')}") if t.strip()]
    publication = Publication(
        key=key, title=title, authors=tuple(authors), venue=_venue(kind, kind_type, fields, arxiv),
        type=kind_type, date=date, doi=doi, arxiv=arxiv, url=links["url"], pdf=links["pdf"],
        code=links["code"], slides=links["slides"], award=get("award_name") or get("award", ""),
        selected=selected in _TRUE, summary=get("abstract", ""), tags=tuple(dict.fromkeys(tags)),
        publisher=get("publisher", ""), abbr=get("abbr", ""), note=get("note", ""),
        more_links=tuple((name, links[name]) for name in MORE_LINKS if links[name]), bibtex=bibtex, path=path,
        line=line, extra=tuple((name, _al_folio_path(name, get(name, ""), al_folio))
                               for name in sorted(AL_FOLIO_EXTRA) if get(name)))
    return publication, problems


AL_FOLIO_FOLDERS = {"pdf": "/assets/pdf/", "supp": "/assets/pdf/", "poster": "/assets/pdf/", "slides": "/assets/pdf/",
                    "preview": "/assets/img/publication_preview/"}
"""Where al-folio keeps the files its BibTeX fields name by file name alone (`pdf = {paper.pdf}`)."""
AL_FOLIO_EXTRA = frozenset({"abbr", "bibtex_show", "preview", "html", "supp", "altmetric", "dimensions",
                            "google_scholar_id", "inspirehep_id", "website", "poster", "blog"})
"""al-folio's fields that sitegen keeps in `Publication.extra`."""


def _al_folio_path(name: str, value: str, al_folio: bool) -> str:
    """A file named alone in an al-folio field (`paper.pdf`, in a file of `_bibliography/`) as the site path
    al-folio gives it (`/assets/pdf/paper.pdf`); anything else as written."""
    value = value.strip()
    if al_folio and name in AL_FOLIO_FOLDERS and value and "/" not in value and ":" not in value and " " not in value:
        return AL_FOLIO_FOLDERS[name] + value
    return value


def _arxiv(fields: dict[str, str]) -> str:
    """The arXiv id: `arxiv = {...}`, `eprint` with `archivePrefix = {arXiv}` (or `eprinttype`), or the journal."""
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    value = fields.get("arxiv", "")
    if not value and fields.get("eprint") and prefix == "arxiv":
        value = fields["eprint"]
    if not value:
        match = _ARXIV_IN_TEXT.search(fields.get("journal", "") or fields.get("howpublished", ""))
        value = match.group(1) if match else ""
    return re.sub(r"^(?:https?://arxiv\.org/abs/|arxiv:)", "", value.strip(), flags=re.IGNORECASE)


def _venue(kind: str, kind_type: str, fields: dict[str, str], arxiv: str) -> str:
    """Where it appeared, worded for its type: `MLSys 2024`, `PhD thesis, University of Example`."""
    get = fields.get

    def join(*parts: str, sep: str = ", ") -> str:
        return sep.join(p for p in parts if p)

    if kind_type == "thesis":
        label = get("type") or {"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis"}.get(kind, "Thesis")
        return join(label, get("school") or get("institution", ""))
    if kind_type == "report":
        label = join(get("type") or "Technical report", get("number", ""), sep=" ")
        return join(label, get("institution") or get("organization") or get("publisher", ""))
    if kind_type == "patent":
        return join(get("type") or "Patent", get("number", ""), sep=" ")
    journal, howpublished = get("journal", ""), get("howpublished", "")
    if kind_type == "preprint" and arxiv and (not journal or "arxiv" in journal.lower() or journal.lower() == "corr"):
        return howpublished if howpublished and "arxiv" not in howpublished.lower() else "arXiv preprint"
    for name in ("journal", "booktitle", "school", "institution", "publisher", "howpublished"):
        if get(name):
            return fields[name]
    return ""


def normalize_title(title: str) -> str:
    """Letters and digits only, case-folded: `Remat: Optimal ...` equals `*Remat* -- optimal ...`."""
    return "".join(c for c in unicodedata.normalize("NFKC", title).casefold() if c.isalnum())


def work_keys(item: dict[str, Any]) -> set[str]:
    """What identifies a work across files: its DOI and its normalised title."""
    keys = set()
    doi = _DOI_PREFIX.sub("", str(item.get("doi") or "")).strip().lower()
    if doi:
        keys.add(f"doi:{doi}")
    title = normalize_title(str(item.get("name") or ""))
    if title:
        keys.add(f"title:{title}")
    return keys


def newest_first(publications: Iterable[Publication]) -> list[Publication]:
    """Newest first; the same date keeps file order."""
    return sorted(publications, key=lambda p: p.date, reverse=True)


def merge_publications(data: dict[str, Any], publications: list[Publication]) -> dict[str, Any]:
    """CV data with the BibTeX publications merged into its own, newest first (see the module docstring)."""
    if not publications:
        return data
    own = [p for p in data.get("publications") or [] if isinstance(p, dict)]
    owners = {key: i for i, p in enumerate(own) for key in work_keys(p)}
    taken: set[str] = set(owners)
    added = []
    for publication in newest_first(publications):
        item = publication.cv_item()
        keys = work_keys(item)
        if keys & taken:
            mine = next((owners[k] for k in keys if k in owners), None)
            if mine is not None:  # the CV file writes it: what it leaves out (date, links) comes from BibTeX
                own[mine] = {**{k: v for k, v in item.items() if k in FILLED_FROM_BIBTEX}, **own[mine]}
            continue
        taken |= keys
        added.append(item)
    # reverse=True keeps equal keys in their order (Python's sort is stable either way): own entries, then BibTeX.
    merged = sorted([*own, *added], key=lambda p: (bool(p.get("releaseDate")), str(p.get("releaseDate") or "")),
                    reverse=True)
    return {**data, "publications": merged}
