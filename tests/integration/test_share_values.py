"""The default theme's share and social-link values (`partials/share.html`, `partials/social-links.html`) are made
once per page and build in Python (`PageView.share`, `SiteView.social_links`): they must equal what the partials
made with Jinja filters before, for every kind of page and setting. The partials as they were are the reference."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import build

MakeSite = Callable[..., Path]

# The partials as they were before sitegen made their values (their doc comments left out).
OLD_SHARE = """\
{% set summary_text = page.summary | striptags | trim if page.kind == "page" else "" %}
{% set description = page.description or summary_text or site.description %}
{% set description = description | striptags | trim | truncate(300) if description else "" %}
{% set author_params = site.params.author if site.params.author is mapping else {} %}
{% set fallback = site.params.og_image if site.params.og_image is string else author_params.get("photo") %}
{% set fallback = fallback if fallback is string else "" %}
{% set og_images = page.images if page.kind != "404" else [] %}
{% set og_path = site.share_image(og_images[0] if og_images else fallback) if (og_images or fallback) else "" %}
{% set og_size = site.image(og_path) if og_path else none %}
{% set og_image = (og_path if og_path.startswith(("http://", "https://"))
                   else absurl(og_path)) if og_path else "" %}
"""
OLD_SOCIAL = """\
{% set social = site.params.social if site.params.social is mapping else {} %}
{% set networks = [
  ("github", "GitHub", "https://github.com/"),
  ("gitlab", "GitLab", "https://gitlab.com/"),
  ("linkedin", "LinkedIn", "https://www.linkedin.com/in/"),
  ("scholar", "Google Scholar", "https://scholar.google.com/citations?user="),
  ("orcid", "ORCID", "https://orcid.org/"),
  ("mastodon", "Mastodon", ""),
  ("twitter", "X (Twitter)", "https://x.com/"),
  ("email", "Email", "mailto:"),
] %}
{% set social_links = [] %}
{% for key, label, prefix in networks %}
  {% set value = social.get(key) or (site.author.email if key == "email" else none) %}
  {% if value %}
    {% set value = value | string %}
    {% set link = value if ("://" in value or value.startswith("mailto:")) else prefix ~ value %}
    {% set _ = social_links.append({"key": key, "label": label, "url": link}) %}
  {% endif %}
{% endfor %}
"""
COMPARE = (
    "{% import 'partials/share.html' as new with context %}{% import 'partials/share_old.html' as old with context %}"
    "{% import 'partials/social-links.html' as ns with context %}"
    "{% import 'partials/social_old.html' as os with context %}"
    "<pre>{{ [new.description, new.og_images, new.og_image, new.og_size, ns.social_links] | tojson }}</pre>"
    "<pre>{{ [old.description, old.og_images, old.og_image, old.og_size, os.social_links] | tojson }}</pre>"
    "{% block main %}{% endblock %}")
LONG = " ".join(f"<b>word{i}</b> &amp; more" for i in range(80))


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (20, 80, 140)).save(out, "PNG")
    return out.getvalue()


def _pages(extra: dict[str, str | bytes]) -> dict[str, str | bytes]:
    return {
        "layouts/base.html": COMPARE,
        "layouts/partials/share_old.html": OLD_SHARE,
        "layouts/partials/social_old.html": OLD_SOCIAL,
        "static/img/me.png": _png(400, 400),
        "static/img/og.png": _png(1600, 900),
        "content/_index.md": "---\ntitle: Home\n---\nWelcome <em>home</em>.\n",
        "content/about.md": "---\ntitle: About\ndescription: 'About <b>me</b> & \"you\"'\n---\nText.\n",
        "content/posts/long.md": f"---\ntitle: Long\ndate: 2024-01-01\n---\n{LONG}\n",
        "content/posts/more.md": "---\ntitle: More\ndate: 2024-01-02\n---\nBefore *the* fold.\n\n<!--more-->\n\n"
                                 "After.\n",
        "content/posts/pics.md": "---\ntitle: Pics\ndate: 2024-01-03\nimages: [shot.png, https://cdn.example/x.jpg]\n"
                                 "---\nx\n",
        "content/posts/pics/shot.png": _png(800, 600),
        "content/posts/one.md": "---\ntitle: One\ndate: 2024-01-04\nimages: https://cdn.example/y.jpg\n---\nx\n",
        "content/posts/inline.md": "---\ntitle: Inline\ndate: 2024-01-05\ntags: [a]\n---\n![alt](/img/og.png)\n",
        "content/posts/svg.md": "---\ntitle: Svg\ndate: 2024-01-06\n---\n![logo](/img/logo.svg) ![r](https://x.org/r.png)\n",
        "content/posts/empty.md": "---\ntitle: Empty\ndate: 2024-01-07\ndescription: ''\n---\n",
        **extra,
    }


SETTINGS = {
    "author photo, every network": (
        "title: T\nbase_url: https://example.org/sub/\ndescription: The <i>site</i>\n"
        "author:\n  name: Ada\n  email: ada@example.org\n"
        "params:\n  author: {photo: /img/me.png, role: R}\n"
        "  social: {github: octo, gitlab: 'https://gitlab.com/full', linkedin: 12345, scholar: abc, orcid: 0000-0001,"
        " mastodon: 'https://m.social/@a', twitter: '', email: 'mailto:x@example.org'}\n"),
    "site image, email from the author": (
        "title: T\nbase_url: https://example.org/\nauthor:\n  email: a@b.c\nparams:\n  og_image: /img/og.png\n"
        "  social: {github: ''}\n"),
    "remote site image, social not a mapping": (
        "title: T\nbase_url: https://example.org/\nparams:\n  og_image: https://cdn.example/og.png\n"
        "  author: {photo: /img/me.png}\n  social: [github]\n"),
    "nothing": "title: T\n",
    "author not a mapping, image processing off": (
        "title: T\nbase_url: https://example.org/\nparams:\n  author: Ada\n  images: {process: false}\n"
        "  og_image: 5\n"),
}


@pytest.mark.parametrize("settings", sorted(SETTINGS))
def test_share_and_social_values_equal_what_the_partials_made(make_site: MakeSite, settings: str) -> None:
    site = make_site(_pages({"sitegen.yaml": SETTINGS[settings]}), layouts=False)
    result = build(site)
    pages = [p for p in result.files if p.endswith(".html") and b"<pre>" in result.files[p]]
    assert len(pages) > 12  # posts, lists, home, 404
    made = []
    for path in pages:
        text = result.files[path].decode()
        new, old = text.split("<pre>")[1].split("</pre>")[0], text.split("<pre>")[2].split("</pre>")[0]
        assert new == old, path
        made.append(json.loads(html.unescape(new)))
    assert any(description.endswith("...") for description, *_ in made)  # the long post's, cut
    assert any(images and image for _, images, image, *_ in made)  # a page's own image
