"""`sitegen import hugo|jekyll SRC DEST`: a Hugo or Jekyll site converted into a clean sitegen site.

For what cannot be read in place (theme templates, plugins): the config is translated by the tool's config
reader, pages are copied with shortcodes and Liquid converted by the tool's content converter (both found in
`converters.py`, from `sitegen.dialects`), static files, data and BibTeX are copied, and al-folio or JSON Resume
CVs become `data/cv.yaml`. The report lists every file converted and every construct left for the user.
"""

from __future__ import annotations

from sitegen.importer.converters import KINDS, Converters, converters_for
from sitegen.importer.report import ImportReport
from sitegen.importer.site import import_site

__all__ = ["KINDS", "Converters", "ImportReport", "converters_for", "import_site"]
