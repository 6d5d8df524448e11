"""al-folio's BibTeX files name their PDFs by file name (`pdf={paper.pdf}`): make those site paths.

al-folio serves `pdf`, `supp`, `poster` and `slides` from `/assets/pdf/` and `preview` from
`/assets/img/publication_preview/`; the importer copies `assets/` unchanged into `static/assets/`, so the same
paths keep working. Full URLs and site paths are left alone.
"""

from __future__ import annotations

import re

_FOLDERS = {"pdf": "/assets/pdf/", "supp": "/assets/pdf/", "poster": "/assets/pdf/", "slides": "/assets/pdf/",
            "preview": "/assets/img/publication_preview/"}
_FIELD = re.compile(r"^(?P<lead>[ \t]*(?P<name>pdf|supp|poster|slides|preview)[ \t]*=[ \t]*[{\"])"
                    r"(?P<value>[^}\"\n]*)(?P<end>[}\"])", re.M | re.I)


def alfolio_links(text: str) -> tuple[str, int]:
    """The .bib text with bare file names made site paths, and how many were rewritten."""
    count = 0

    def fix(match: re.Match[str]) -> str:
        nonlocal count
        value = match["value"].strip()
        if not value or "://" in value or value.startswith(("/", "mailto:", "#")):
            return match[0]
        count += 1
        return f"{match['lead']}{_FOLDERS[match['name'].lower()]}{value}{match['end']}"

    return _FIELD.sub(fix, text), count
