"""Landing pages of Hugo academic sites, written from Hugo Blox's and Wowchemy's documentation: the home page's
blocks (`sections:`) or widget files (`content/home/*.md`) become its sections, in order, with the author's profile,
the pages a collection selects and the text of Markdown blocks; a block sitegen has no section for keeps its title
and text and is warned about once, where it is written."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import html
from tests.dialects.hugo.site import build_hugo

HUGO_BLOX_CONFIG = {
    "config/_default/hugo.yaml": "title: Ada Lab\nbaseURL: https://ada.example.org/\n",
    "config/_default/params.yaml": "email: ada@example.org\n",
}
AUTHOR = """\
---
title: Ada Lovelace
role: Professor of Computing
organizations:
  - name: Analytical University
    url: https://analytical.example.edu/
profiles:
  - icon: brands/github
    url: https://github.com/ada
    label: GitHub
interests:
  - Difference engines
  - Poetical science
education:
  - area: PhD Mathematics
    institution: University of London
    date_start: 1835-09-01
    date_end: 1840-06-30
work:
  - position: Analyst
    company_name: Babbage & Co
    company_url: https://babbage.example.com/
    date_start: 1842-01-01
    summary: Wrote the *first* program.
---
Ada writes about {{< figure src="engine.png" alt="The engine" >}} engines.
"""


def _main(page: str) -> str:
    match = re.search(r"<main.*?</main>", page, re.S)
    assert match
    return match[0]


def test_hugo_blox_landing_page_renders_its_blocks_in_order(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        **HUGO_BLOX_CONFIG,
        "content/_index.md": """\
---
title: ''
type: landing
sections:
  - block: resume-biography-3
    content:
      username: admin
      text: ''
  - block: markdown
    content:
      title: Research
      subtitle: What we do
      text: We study **engines**.
  - block: collection
    id: papers
    content:
      title: Recent Publications
      count: 2
      filters:
        folders:
          - publication
        exclude_featured: true
  - block: github.octocat.slider
    content:
      title: Gallery
      text: Pictures of *looms*.
  - block: resume-experience
    content:
      username: admin
  - block: cta-card
    content:
      title: Join us
      text: We are hiring.
      button:
        text: Apply
        url: /contact/
  - block: contact
    content:
      title: Contact
---
""",
        "content/authors/_index.md": "---\ntitle: Authors\ncascade:\n  build:\n    render: never\n---\n",
        "content/authors/admin/_index.md": AUTHOR,
        "content/publication/notes/index.md": "---\ntitle: Notes on the engine\ndate: 1843-09-01\n---\nNotes.\n",
        "content/publication/sketch/index.md": "---\ntitle: Sketch of the engine\ndate: 1842-10-01\n---\nS.\n",
        "content/publication/letters/index.md": "---\ntitle: Letters\ndate: 1841-01-01\n---\nL.\n",
        "content/publication/star/index.md": "---\ntitle: Starred paper\ndate: 1844-01-01\nfeatured: true\n---\n",
        "content/contact.md": "---\ntitle: Contact\n---\nWrite.\n",
    })
    main = _main(html(result, "index.html"))
    order = ["Ada Lovelace", "Professor of Computing", "Analytical University", "Ada writes about", "Poetical science",
             "PhD Mathematics", "Research", "We study <strong>engines</strong>", "Recent Publications",
             "Notes on the engine", "Sketch of the engine", "Gallery", "Pictures of <em>looms</em>", "Analyst",
             "Babbage &amp; Co", "Wrote the <em>first</em> program", "Join us", "We are hiring.",
             '<a class="button" href="/contact/">Apply</a>', 'href="mailto:ada@example.org"']
    positions = [main.find(text) for text in order]
    assert -1 not in positions, [t for t, p in zip(order, positions, strict=True) if p == -1]
    assert positions == sorted(positions)
    assert "Letters" not in main and "Starred paper" not in main  # count: 2, exclude_featured
    assert 'id="papers"' in main and '<figure><img src="engine.png" alt="The engine">' in main
    assert "{{" not in main
    assert "authors/admin/index.html" not in result.files  # the profile is data, as in Hugo Blox
    notes = [w for w in result.warnings if "octocat" in w.message]
    assert len(notes) == 1 and notes[0].path == "content/_index.md" and notes[0].line == 23
    assert "title and text" in notes[0].message


def test_wowchemy_widget_files_make_the_home_page_by_weight(tmp_path: Path) -> None:
    widget = "---\nwidget: {w}\nheadless: true\nactive: {active}\nweight: {weight}\ntitle: {title}\n{extra}---\n{body}"
    result = build_hugo(tmp_path, {
        "config.yaml": "title: Sunny\nbaseurl: https://sunny.example.org/\nparams:\n  email: sunny@example.org\n",
        "content/home/index.md": "---\ntype: widget_page\nheadless: true\n---\n",
        "content/home/about.md": widget.format(w="about", active="true", weight=20, title='""',
                                               extra="author: admin\n", body=""),
        "content/home/demo.md": widget.format(w="blank", active="true", weight=15, title="Welcome", extra="",
                                              body="{{% callout note %}}\nA *callout*.\n{{% /callout %}}\n"),
        "content/home/experience.md": widget.format(
            w="experience", active="true", weight=40, title="Experience",
            extra=("experience:\n  - title: CEO\n    company: GenCoin\n    location: California\n"
                   "    date_start: '2017-01-01'\n    date_end: ''\n    description: Led *things*.\n"), body=""),
        "content/home/posts.md": widget.format(
            w="pages", active="true", weight=60, title="Recent Posts",
            extra="content:\n  page_type: post\n  count: 1\n  order: desc\n", body=""),
        "content/home/skills.md": widget.format(w="featurette", active="false", weight=30, title="Skills",
                                                extra="feature:\n  - name: R\n    description: 90%\n", body=""),
        "content/home/slider.md": widget.format(w="slider", active="true", weight=70, title="Slides", extra="",
                                                body="Slide text.\n"),
        "content/home/contact.md": widget.format(w="contact", active="true", weight=130, title="Contact",
                                                 extra="", body=""),
        "content/authors/admin/_index.md": ("---\ntitle: Sunny Lou\nrole: Assistant Professor\nbio: Anesthesiology\n"
                                            "education:\n  courses:\n  - course: MD, PhD\n    institution: Stanford\n"
                                            "    year: 2017\n---\nI study clinical informatics.\n"),
        "content/post/old.md": "---\ntitle: Old post\ndate: 2020-01-01\n---\nOld.\n",
        "content/post/new.md": "---\ntitle: New post\ndate: 2021-01-01\n---\nNew.\n",
    })
    main = _main(html(result, "index.html"))
    order = ['id="demo"', "Welcome", "A <em>callout</em>", 'id="about"', "Sunny Lou", "Assistant Professor",
             "I study clinical informatics.", "MD, PhD", "Stanford", "2017", "Experience", "CEO", "GenCoin",
             "Led <em>things</em>", "Recent Posts", "New post", "Slides", "Slide text.", 'id="contact"',
             "mailto:sunny@example.org"]
    positions = [main.find(text) for text in order]
    assert -1 not in positions, [t for t, p in zip(order, positions, strict=True) if p == -1]
    assert positions == sorted(positions)
    assert "Old post" not in main and "Skills" not in main and "{{" not in main
    assert not [p for p in result.files if p.startswith("home/")]  # widget files are not pages
    notes = [w for w in result.warnings if "slider" in w.message]
    assert len(notes) == 1 and notes[0].path == "content/home/slider.md" and notes[0].line == 2
    assert not [w for w in result.warnings if "featurette" in w.message]  # inactive: nothing to say


def test_a_profile_block_naming_no_author_is_warned_about(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/_index.md": "---\ntype: landing\nsections:\n  - block: about.biography\n    content:\n"
                             "      title: Biography\n      username: nobody\n---\n",
    })
    assert "Biography" in _main(html(result, "index.html"))
    notes = [w for w in result.warnings if "nobody" in w.message]
    assert len(notes) == 1 and notes[0].path == "content/_index.md" and notes[0].line == 4


def test_a_section_with_type_landing_shows_its_blocks(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/publication/_index.md": ("---\ntitle: Publications\ntype: landing\nsections:\n"
                                          "  - block: markdown\n    content:\n      text: Papers *by year*.\n"
                                          "  - block: collection\n    content:\n      title: Featured\n"
                                          "      filters:\n        folders: [publication]\n"
                                          "        featured_only: true\n---\n"),
        "content/publication/a.md": "---\ntitle: Paper A\ndate: 2020-01-01\nfeatured: true\n---\n",
        "content/publication/b.md": "---\ntitle: Paper B\ndate: 2021-01-01\n---\n",
        "content/about.md": "---\ntitle: About\ntype: landing\nsections:\n  - block: markdown\n"
                            "    content:\n      title: Hello\n      text: I am *here*.\n---\n",
    })
    section = _main(html(result, "publication/index.html"))
    assert "<h1>Publications</h1>" in section and "Papers <em>by year</em>." in section
    assert "Paper A" in section and "Paper B" not in section
    about = _main(html(result, "about/index.html"))
    assert "Hello" in about and "I am <em>here</em>." in about


def test_profile_from_data_authors_and_older_name_key(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/_index.md": ("---\ntype: landing\nsections:\n  - block: resume-biography-3\n    content:\n"
                              "      username: me\n  - block: resume-experience\n    content:\n      username: me\n"
                              "  - block: about.biography\n    content:\n      username: old\n---\n"),
        "data/authors/me.yaml": ("name:\n  display: Dr. Grace Hopper\nrole: Rear Admiral\nbio: Wrote *COBOL*.\n"
                                 "affiliations:\n  - name: US Navy\n    url: https://navy.example.mil\n"
                                 "experience:\n  - role: Programmer\n    org: Harvard\n    start: 1944-07-01\n"
                                 "    summary: Mark I.\neducation:\n  - degree: PhD Mathematics\n"
                                 "    institution: Yale\n    start: 1930-09-01\n    end: 1934-06-01\n"),
        "content/authors/old/_index.md": "---\nname: Ada Old\nrole: Analyst\n---\nOld profile.\n",
    })
    main = _main(html(result, "index.html"))
    order = ["Dr. Grace Hopper", "Rear Admiral", "US Navy", "Wrote <em>COBOL</em>.", "PhD Mathematics", "Yale",
             "Programmer", "Harvard", "Mark I.", "Ada Old", "Analyst", "Old profile."]
    positions = [main.find(text) for text in order]
    assert -1 not in positions, [t for t, p in zip(order, positions, strict=True) if p == -1]
    assert positions[:10] == sorted(positions[:10])
    assert not [w for w in result.warnings if "profile" in w.message]
