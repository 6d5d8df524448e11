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

BEFORE = Path(__file__).parent / "fixtures" / "theme-before"
"""The partials as they were (sitegen 622db2a) when Jinja made these values: the reference. The JSON-LD one imports
the other two as they were."""
COMPARE = (
    "{% import 'partials/share.html' as new with context %}"
    "{% import 'partials/share-before.html' as old with context %}"
    "{% import 'partials/social-links.html' as ns with context %}"
    "{% import 'partials/social-links-before.html' as os with context %}"
    "<pre>{{ [new.description, new.og_images, new.og_image, new.og_size, ns.social_links] | tojson }}</pre>"
    "<pre>{{ [old.description, old.og_images, old.og_image, old.og_size, os.social_links] | tojson }}</pre>"
    "<pre>{% include 'partials/jsonld.html' %}</pre><pre>{% include 'partials/jsonld-before.html' %}</pre>"
    "{% block main %}{% endblock %}")
LONG = " ".join(f"<b>word{i}</b> &amp; more" for i in range(80))


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (20, 80, 140)).save(out, "PNG")
    return out.getvalue()


def _pages(extra: dict[str, str | bytes]) -> dict[str, str | bytes]:
    return {
        "layouts/base.html": COMPARE,
        **{f"layouts/partials/{name}-before.html": (BEFORE / f"{name}.html").read_text(encoding="utf-8")
           for name in ("share", "social-links", "jsonld")},
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
        "content/posts/tagged.md": "---\ntitle: Tagged\ndate: 2024-01-08\nlastmod: 2024-02-01\ntags: [C++, 深度学习]\n"
                                   "categories: [x]\n---\nText.\n",
        "content/posts/undated.md": "---\ntitle: Undated\n---\nText.\n",
        "content/notes/n.md": "---\ntitle: Note\ndate: 2024-03-01\n---\nA note.\n",
        "content/card.md": "---\ntitle: Card\nauthor_card: true\n---\nx\n",
        "content/cv.md": "---\ntitle: CV\nlayout: cv\n---\nx\n",
        **extra,
    }


SETTINGS = {
    "author photo, every network": (
        "title: T\nbase_url: https://example.org/sub/\ndescription: The <i>site</i>\n"
        "author:\n  name: Ada\n  email: ada@example.org\n"
        "params:\n  author: {photo: /img/me.png, role: R, affiliation: Uni}\n  main_sections: [posts, notes]\n"
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
    made, ld = [], []
    for path in pages:
        text = result.files[path].decode()
        parts = [part.split("</pre>")[0] for part in text.split("<pre>")[1:5]]
        new, old = parts[0], parts[1]
        assert new == old, path
        assert parts[2] == parts[3], path  # the JSON-LD
        ld.extend(json.loads(line.split(">", 1)[1].split("</script>")[0]) for line in parts[2].splitlines() if line)
        made.append(json.loads(html.unescape(new)))
    assert any(description.endswith("...") for description, *_ in made)  # the long post's, cut
    assert any(images and image for _, images, image, *_ in made)  # a page's own image
    assert {"WebSite", "Person", "BlogPosting"} <= {item["@type"] for item in ld}


def test_a_template_that_changes_the_values_it_was_given_changes_them_for_itself_only(make_site: MakeSite) -> None:
    footer = ("{% import 'partials/social-links.html' as social with context %}{% set links = social.social_links %}"
              "{% set _ = links.append({'key': 'cv', 'label': 'CV', 'url': '/cv/'}) %}"
              "{% import 'partials/share.html' as share with context %}"
              "{% if share.og_size %}{% set _ = share.og_size.update({'width': share.og_size.width + 1}) %}{% endif %}"
              "{% set _ = share.og_images.append('/x.png') %}"
              "<ul>{% for l in links %}<li>{{ l.label }}</li>{% endfor %}</ul>"
              "<p>{{ share.og_images | length }} {{ share.og_size.width if share.og_size else '' }}</p>")
    site = make_site({**_pages({"sitegen.yaml": SETTINGS["author photo, every network"]}),
                      "layouts/base.html": "{% block main %}{% endblock %}{% include 'partials/footer.html' %}",
                      "layouts/partials/footer.html": footer}, layouts=False)
    result = build(site, jobs=1)
    pages = {p: result.files[p].decode() for p in result.files if p.endswith(".html") and "<ul>" in
             result.files[p].decode()}  # (not the redirects of page/1/)
    assert len(pages) > 12 and all(text.count("<li>CV</li>") == 1 for text in pages.values())
    shared = {path: text.split("<p>")[-1].split("</p>")[0] for path, text in pages.items()}
    assert shared["about/index.html"] == "1 1201"  # the author photo's 1200-wide share crop; 1 added, once
    assert all(value.split()[0] in ("1", "2", "3") for value in shared.values())  # never what earlier pages added
    again = build(site, jobs=1)
    assert {p: again.files[p].decode() for p in pages} == pages
