"""Site dialects: how a site folder laid out for one tool is read, behind one small interface.

    detect the layout of a site folder -> read its config into SiteConfig -> its naming and URL rules
    -> expand its in-content syntax before Markdown

`detect_dialect(site_dir)` picks the first dialect of `DIALECTS` that recognises the folder, else sitegen's
own. The rest of the pipeline never asks which tool a site came from: it calls the `Dialect` it was given.
Adding a reader for Hugo or Jekyll sites means adding a module here (`hugo.py`, `jekyll.py`, or a package
for a large one) and listing it in `DIALECTS` before `NATIVE`.
"""

from __future__ import annotations

from pathlib import Path

from sitegen.config import SiteConfig
from sitegen.dialects.base import Dialect, SiteFacts
from sitegen.dialects.hugo import HUGO
from sitegen.dialects.jekyll import JEKYLL
from sitegen.dialects.native import NATIVE
from sitegen.errors import Diagnostic

DIALECTS: tuple[Dialect, ...] = (HUGO, JEKYLL, NATIVE)
"""Every dialect, most specific first; the last one (sitegen's own) accepts any folder."""


def detect_dialect(site_dir: Path) -> Dialect:
    """The dialect of a site folder: the first one that recognises its layout, else sitegen's own."""
    for dialect in DIALECTS:
        if dialect.detect(site_dir):
            return dialect
    return NATIVE


def load_site_config(site_dir: Path) -> tuple[SiteConfig, list[Diagnostic]]:
    """The configuration of a site folder, read by its dialect (defaults when there is no config file)."""
    return detect_dialect(site_dir).load_config(site_dir)


__all__ = ["DIALECTS", "HUGO", "JEKYLL", "NATIVE", "Dialect", "SiteFacts", "detect_dialect", "load_site_config"]
