"""What machines read of a publication: Highwire Press `citation_*` meta tags (Google Scholar, Zotero),
COinS (OpenURL in a `span.Z3988`: Zotero picks every entry of a list page) and schema.org JSON-LD
(`ScholarlyArticle`, `Thesis`, `Book`, `Chapter`, `Report`).

Both are pure functions of a `Publication` and a function making its links absolute.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from sitegen.cv.publication import Publication

LINK_LABELS = {"video": "Video", "poster": "Poster", "website": "Project page", "project": "Project page",
               "supp": "Supplementary"}
"""Button label of each extra link field."""
SCHEMA_TYPES = {"thesis": "Thesis", "book": "Book", "chapter": "Chapter", "report": "Report"}
"""Publication type -> schema.org type; every other type is a `ScholarlyArticle`."""


def highwire_date(date: str) -> str:
    """`2024-05-12` -> `2024/05/12` (the form Google Scholar documents); `2024` stays."""
    return date.replace("-", "/")


def citation_tags(p: Publication, absolute: Callable[[str], str]) -> list[tuple[str, str]]:
    """(name, content) of each `citation_*` meta tag, one `citation_author` per author, in the documented order."""
    tags: list[tuple[str, str]] = [("citation_title", p.title)]
    tags += [("citation_author", author) for author in p.authors if author != "et al."]
    if p.date:
        tags.append(("citation_publication_date", highwire_date(p.date)))
    venue_tag = {"journal": "citation_journal_title", "conference": "citation_conference_title",
                 "thesis": "citation_dissertation_institution", "report": "citation_technical_report_institution",
                 "chapter": "citation_inbook_title", "book": "citation_publisher"}.get(p.type)
    if venue_tag and p.venue:
        tags.append((venue_tag, p.venue))
    elif p.type == "preprint" and p.venue:
        tags.append(("citation_journal_title", p.venue))
    if p.publisher and venue_tag != "citation_publisher":
        tags.append(("citation_publisher", p.publisher))
    if p.doi:
        tags.append(("citation_doi", p.doi))
    if p.arxiv:
        tags.append(("citation_arxiv_id", p.arxiv))
    if p.pdf:
        tags.append(("citation_pdf_url", absolute(p.pdf)))
    elif p.arxiv:
        tags.append(("citation_pdf_url", f"https://arxiv.org/pdf/{p.arxiv}"))
    if p.summary:
        tags.append(("citation_abstract", " ".join(p.summary.split())))
    if p.tags:
        tags.append(("citation_keywords", "; ".join(p.tags)))
    return tags


def scholarly_jsonld(p: Publication, permalink: str, abstract: str,
                     absolute: Callable[[str], str]) -> dict[str, Any]:
    """The schema.org record of one publication (no `@context`: the page wraps every entry in one `@graph`)."""
    data: dict[str, Any] = {
        "@type": SCHEMA_TYPES.get(p.type, "ScholarlyArticle"), "@id": permalink, "url": permalink,
        "headline": p.title[:110], "name": p.title,
        "author": [{"@type": "Person", "name": a} for a in p.authors if a != "et al."],
    }
    if p.date:
        data["datePublished"] = p.date
    if p.venue:
        data["isPartOf"] = {"@type": "Periodical" if p.type == "journal" else "CreativeWork", "name": p.venue}
    if abstract:
        data["abstract"] = abstract
    if p.tags:
        data["keywords"] = ", ".join(p.tags)
    same = [f"https://doi.org/{p.doi}" if p.doi else "", f"https://arxiv.org/abs/{p.arxiv}" if p.arxiv else "",
            absolute(p.url) if p.url else ""]
    if any(same):
        data["sameAs"] = [s for s in same if s]
    if p.doi:
        data["identifier"] = {"@type": "PropertyValue", "propertyID": "DOI", "value": p.doi}
    if p.pdf:
        data["encoding"] = {"@type": "MediaObject", "encodingFormat": "application/pdf", "contentUrl": absolute(p.pdf)}
    return data


def coins(p: Publication, permalink: str) -> str:
    """The OpenURL ContextObject (Z39.88-2004, KEV) of COinS: what `<span class="Z3988" title="...">` holds."""
    book = p.type in ("book", "chapter", "thesis", "report")
    pairs: list[tuple[str, str]] = [
        ("ctx_ver", "Z39.88-2004"),
        ("rft_val_fmt", "info:ofi/fmt:kev:mtx:" + ("book" if book else "journal")),
    ]
    if p.doi:
        pairs.append(("rft_id", f"info:doi/{p.doi}"))
    pairs.append(("rft_id", permalink))
    genre = {"journal": "article", "conference": "proceeding", "preprint": "preprint", "book": "book",
             "chapter": "bookitem", "report": "report", "thesis": "book"}.get(p.type, "article")
    pairs.append(("rft.genre", genre))
    pairs.append(("rft.atitle" if not book or p.type == "chapter" else "rft.btitle", p.title))
    if p.venue:
        pairs.append(("rft.btitle" if p.type == "chapter" else "rft.pub" if book else "rft.jtitle", p.venue))
    pairs += [("rft.au", a) for a in p.authors if a != "et al."]
    if p.date:
        pairs.append(("rft.date", p.date))
    return urlencode(pairs)
