"""A Hugo site's [languages] read in place: the same two-language site as `languages:` in sitegen.yaml."""

from __future__ import annotations

import re
from pathlib import Path

from tests.dialects.hugo.site import build_hugo

HUGO = """\
baseURL = "https://example.org/"
title = "Site"
defaultContentLanguage = "en"
[languages.en]
languageName = "English"
weight = 1
[languages.fr]
languageName = "Français"
languageCode = "fr-FR"
weight = 2
title = "Le site"
contentDir = "content/fr"
[[languages.fr.menus.main]]
name = "À propos"
pageRef = "/about"
"""


def test_hugo_languages_build_each_language_with_translations_linked(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {"hugo.toml": HUGO, "content/about.md": "---\ntitle: About\n---\nHi",
                                   "content/fr/about.md": "---\ntitle: À propos\n---\nSalut",
                                   "content/posts/x/index.md": "---\ntitle: X\ndate: 2024-01-01\n---\nx",
                                   "content/posts/x/index.fr.md": "---\ntitle: X fr\ndate: 2024-01-01\n---\nx"})
    files = result.files
    assert "fr/about/index.html" in files and "fr/posts/x/index.html" in files and "about/index.html" in files
    page = files["fr/about/index.html"].decode()
    assert '<html lang="fr-FR">' in page and "Le site" in page
    assert '<link rel="alternate" hreflang="en" href="https://example.org/about/">' in page
    assert '<link rel="alternate" hreflang="x-default" href="https://example.org/about/">' in page
    assert re.search(r'<a href="/fr/about/"[^>]*>À propos</a>', page)
    assert "<sitemapindex" in files["sitemap.xml"].decode()


def test_hugo_translation_files_without_languages_are_left_out_not_fatal(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {"content/about.md": "---\ntitle: About\n---\nHi",
                                   "content/about.fr.md": "---\ntitle: À propos\n---\nSalut",
                                   "content/_index.fr.md": "---\ntitle: Accueil\n---\n"})
    assert "about/index.html" in result.files and "about.fr/index.html" not in result.files
    assert [w for w in result.warnings if "`fr`" in w.message and "left out" in w.message]
