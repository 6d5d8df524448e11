"""Small sites in the shapes real Hugo personal sites have (PaperMod, Stack, Hugo Blox, hugo-resume), written from
those themes' documentation: each builds unedited, with the URLs and text Hugo gives them."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import html
from tests.dialects.hugo.site import build_hugo

PAPERMOD_YAML = """\
baseURL: "https://ann.netlify.app"
languageCode: en-us
title: Ann Lee
theme: PaperMod
paginate: 5
buildDrafts: false
googleAnalytics: G-XXXX
minify:
  disableXML: true
params:
  env: production
  description: "Student and tinkerer"
  author: "Ann Lee"
  ShowReadingTime: true
  math: true
menu:
  main:
    - identifier: posts
      name: Posts
      url: /posts/
      weight: 10
    - name: Search
      url: search/
      weight: 30
"""


def test_papermod_site_with_a_yaml_config_bundles_and_theme_shortcodes(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config.yml": PAPERMOD_YAML,
        "layouts/shortcodes/excursion.html": '<details><summary>{{ .Get "title" }}</summary>{{ .Inner }}</details>',
        "content/posts/setup/index.md": (
            '---\ntitle: "Setting up"\ndate: 2023-05-14T20:13:59-04:00\ncover:\n  image: img/logo.svg\n'
            'tags: ["Hugo", "PaperMod"]\n---\nIntro.\n\n<!--more-->\n\n'
            '{{< figure src="img/logo.svg" caption="Hugo logo" align="center" >}}\n\n'
            '{{< youtube eTbEvDOiIdI >}}\n\n{{< gist ann 0b2472f0 >}}\n\n'
            '{{< rawhtml >}}\n<p class="note">raw</p>\n{{< /rawhtml >}}\n\n'
            '{{< excursion title="Aside" >}}\nSide *note*.\n{{< /excursion >}}\n'),
        "content/posts/setup/img/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
        "content/about.md": "---\ntitle: About\n---\nHi, I'm Ann.\n",
    })
    page = html(result, "posts/setup/index.html")
    assert '<figure class="align-center"><img src="img/logo.svg" alt="Hugo logo">' in page
    assert "posts/setup/img/logo.svg" in result.files
    assert "youtube-nocookie.com/embed/eTbEvDOiIdI" in page and 'href="https://gist.github.com/ann/0b2472f0"' in page
    assert '<p class="note">raw</p>' in page and "<em>note</em>" in page and "{{" not in page
    assert "tags/papermod/index.html" in result.files and "tags/hugo/index.html" in result.files
    messages = [w.message for w in result.warnings]
    assert [m for m in messages if "excursion" in m] and not [m for m in messages if "rawhtml" in m]
    assert "Intro." in html(result, "posts/index.html")  # the summary before <!--more-->


def test_stack_site_with_a_split_config_folder_and_menu_in_front_matter(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config/_default/config.toml": ('baseurl = "https://www.example.com"\ntitle = "Shane\'s Blog"\n'
                                        "[taxonomies]\n  tag = \"tags\"\n  category = \"categories\"\n"
                                        "hasCJKLanguage = true\n"),
        "config/_default/permalinks.toml": 'post = "/p/:slug/"\npage = "/:slug/"\n',
        "config/_default/params.toml": 'mainSections = ["post"]\n[sidebar]\nsubtitle = "Notes"\n',
        "config/_default/menu.toml": '[[social]]\nidentifier = "github"\nurl = "https://github.com/x"\n',
        "content/_index.md": "---\nmenu:\n  main:\n    name: Home\n    weight: 2\n---\n",
        "content/page/about/index.md": ("---\ntitle: About Me\nslug: about-me\nmenu:\n  main:\n    weight: 1\n"
                                        "---\nMe.\n"),
        "content/post/react_hooks/index.md": ("---\ntitle: React Hooks, Deeply\nslug: react-hooks-deep-dive\n"
                                              "date: 2024-06-01\ncategories: [Web]\n---\nHooks.\n"),
        "content/post/no_slug/index.md": "---\ntitle: A Post Without Slug\ndate: 2024-06-02\n---\nText.\n",
    })
    assert "p/react-hooks-deep-dive/index.html" in result.files and "about-me/index.html" in result.files
    assert "p/a-post-without-slug/index.html" in result.files
    assert "categories/web/index.html" in result.files and "true/index.html" not in result.files
    home = html(result, "index.html")
    assert home.index('href="/about-me/"') < home.index(">Home<")


def test_hugo_blox_site_with_callouts_spoilers_and_math(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config/_default/hugo.yaml": "title: Dr. Lee\nbaseURL: https://lee.github.io/\n",
        "config/_default/params.yaml": "appearance:\n  theme_day: minimal\n",
        "config/_default/menus.yaml": "main:\n  - name: Bio\n    url: /#about\n    weight: 10\n",
        "content/blog/get-started/index.md": (
            "---\ntitle: Get started\ndate: 2024-01-01\n---\n{{< toc >}}\n\n"
            "{{< callout note >}}\nThis is **important**.\n{{< /callout >}}\n\n"
            '{{< spoiler text="Click to view the answer" >}}\nIt is 42.\n{{< /spoiler >}}\n\n'
            "{{< math >}}\n$$\n\\gamma_{n} = \\frac{1}{2}\n$$\n{{< /math >}}\n\nInline \\(x^2\\).\n"),
    })
    page = html(result, "blog/get-started/index.html")
    assert '<div class="markdown-alert markdown-alert-note">' in page and "<strong>important</strong>" in page
    assert ">Click to view the answer</summary>" in page and '<div class="math block">' in page
    assert "katex.min.js" in page and "{{" not in page
    assert [w.line for w in result.warnings if "`toc`" in w.message] == [5]


def test_hugo_resume_site_with_data_files_and_project_pages(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config.toml": ('baseURL = "https://example.org/"\ntitle = "Eddie Webb"\ntheme = "hugo-resume"\n'
                        "[params]\n  firstName = \"Eddie\"\n  showSkills = true\n"
                        "[[params.handles]]\n  name = \"GitHub\"\n  link = \"https://github.com/x\"\n"),
        "data/skills.json": '[{"grouping": "Languages", "skills": ["Python", "Go"]}]',
        "content/_index.md": "---\ntitle: Eddie Webb\n---\nPlatform engineer.\n",
        "content/projects/creations/tool.md": ("---\ntitle: A Tool\ndate: 2019-01-01\nlink: https://x.org\n"
                                               "tags: [Go]\nfeatured: true\n---\nWhat it does.\n"),
    })
    assert "Platform engineer." in html(result, "index.html")
    assert "What it does." in html(result, "projects/creations/tool/index.html")


def test_hugo_resume_home_page_shows_the_sections_its_params_switch_on(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config.toml": ('baseURL = "https://example.org/"\ntitle = "Eddie Webb"\ntheme = "hugo-resume"\n'
                        "[params]\n  showSkills = true\n  showProjects = true\n  showExperience = true\n"
                        "  showEducation = true\n  showBlog = false\n"),
        "data/skills.json": '[{"grouping": "Languages", "skills": ["Python", {"name": "Go", "link": "https://go.dev"}]}]',
        "data/experience.json": ('[{"role": "Boss man", "company": "Current Company LTD", "summary": "Led *teams*.",'
                                 ' "range": "February 2016 - Present"}]'),
        "data/education.json": ('[{"school": "[Rochester Institute of Technology](https://rit.edu)", "degree": '
                                '"Bachelor of Science", "major": "Management Information Systems",'
                                ' "range": "2006 - 2008"}]'),
        "content/_index.md": "---\ntitle: Eddie Webb\n---\nPlatform engineer.\n",
        "content/projects/creations/tool.md": "---\ntitle: A Tool\ndate: 2019-01-01\n---\nWhat it does.\n",
        "content/blog/post.md": "---\ntitle: A blog post\ndate: 2020-01-01\n---\nText.\n",
    })
    home = html(result, "index.html")
    order = ["Platform engineer.", "Skills", "Languages", "Python, Go", "Projects", "A Tool", "Experience",
             "Boss man", "Current Company LTD", "February 2016 - Present", "Led <em>teams</em>", "Education",
             "Bachelor of Science, Management Information Systems", '<a href="https://rit.edu">Rochester Institute']
    positions = [home.find(text) for text in order]
    assert -1 not in positions, [t for t, p in zip(order, positions, strict=True) if p == -1]
    assert positions == sorted(positions) and "A blog post" not in home


def test_hugo_blox_project_links_written_by_type(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/projects/pandas/index.md": ("---\ntitle: Pandas\nlinks:\n  - type: site\n    url: https://pandas.pydata.org\n"
                                             "  - icon: github\n    name: Code\n    url: https://github.com/p\n"
                                             "  - just text\n---\nData frames.\n"),
    })
    page = html(result, "projects/pandas/index.html")
    assert '>site</a>' in page and '>Code</a>' in page


def test_stack_weight_false_is_no_weight(tmp_path: Path) -> None:
    """Stack's archetype writes `weight: false`; Hugo reads it as no weight (issue 16)."""
    result = build_hugo(tmp_path, {
        "content/post/a.md": "---\ntitle: A\ndate: 2024-06-01\nweight: false\n---\nText.\n",
    })
    assert "post/a/index.html" in result.files


def test_wowchemy_year_only_publish_date_is_january_first(tmp_path: Path) -> None:
    """Wowchemy publications write `publishDate: '2022'`; Hugo reads a year alone as 1 January (issue 16)."""
    result = build_hugo(tmp_path, {
        "content/publication/p/index.md": "---\ntitle: P\ndate: '2022'\npublishDate: '2022'\n---\nText.\n",
    })
    assert "2022-01-01" in html(result, "publication/p/index.html")
