"""PaperMod's and Stack's special pages (`layout: archives`, `search`, `links`), written from those themes' docs:
each renders the sitegen page that does the same job, not an empty default page."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import html
from tests.dialects.hugo.site import build_hugo

PAPERMOD = """\
baseURL: https://ann.example.org/
title: Ann
theme: PaperMod
params:
  mainSections: [posts]
outputs:
  home: [HTML, RSS, JSON]
"""


def _main(page: str) -> str:
    match = re.search(r"<main.*?</main>", page, re.S)
    assert match
    return match[0]


def test_papermod_archives_page_lists_every_post_by_year_and_month(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config.yml": PAPERMOD,
        "content/archives.md": '---\ntitle: "Archives"\nlayout: "archives"\nsummary: archives\n---\n',
        "content/search.md": '---\ntitle: "Search"\nlayout: "search"\nsummary: "search"\nplaceholder: "Find"\n---\n',
        "content/posts/first.md": "---\ntitle: First light\ndate: 2022-03-05\n---\nOne.\n",
        "content/posts/second.md": "---\ntitle: Second wind\ndate: 2023-01-10\n---\nTwo.\n",
        "content/posts/third.md": "---\ntitle: Third time\ndate: 2023-01-20\n---\nThree.\n",
        "content/about.md": "---\ntitle: About me\ndate: 2021-01-01\n---\nHi.\n",
        "content/posts/notes/_index.md": "---\ntitle: Notes\n---\n",
        "content/posts/notes/deep.md": "---\ntitle: Deep note\ndate: 2022-03-01\n---\nIn a subsection.\n",
    })
    main = _main(html(result, "archives/index.html"))
    assert main.index(">2023 ") < main.index("January") < main.index("Third time") < main.index("Second wind") \
        < main.index(">2022 ") < main.index("March") < main.index("First light")
    assert '<a href="/posts/first/">First light</a>' in main
    assert "About me" not in main and "Deep note" in main  # not in the main sections; in a subsection of one
    assert "Deep note" in _main(html(result, "index.html"))  # the home page lists the main sections' posts too
    search = html(result, "search/index.html")
    assert 'role="search"' in search and "/js/search.js" in search


def test_stack_archives_and_links_pages(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config.yaml": "baseurl: /\ntitle: Notes\ntheme: hugo-theme-stack\npermalinks:\n  post: /p/:slug/\n"
                       "  page: /:slug/\nparams:\n  mainSections:\n    - post\n",
        "content/page/archives.md": ('---\ntitle: "Archives"\ndate: 2019-05-28\nlayout: "archives"\nslug: "archives"\n'
                                     'menu:\n  main:\n    weight: -70\n    params:\n      icon: archives\n---\n'),
        "content/page/links.md": ('---\ntitle: Links\nslug: links\nlayout: links\nlinks:\n'
                                  '  - title: GitHub\n    description: GitHub is the world\'s largest software '
                                  'development platform.\n    website: https://github.com\n    image: github.png\n'
                                  '---\nFriends of this blog.\n'),
        "content/post/hello/index.md": "---\ntitle: Hello Stack\ndate: 2020-09-09\nslug: hello\n---\nHi.\n",
    })
    archives = _main(html(result, "archives/index.html"))
    assert ">2020 " in archives and '<a href="/p/hello/">Hello Stack</a>' in archives
    assert "Archives" not in archives.split("</h1>", 1)[1]  # the page does not list itself
    links = _main(html(result, "links/index.html"))
    assert "Friends of this blog." in links
    assert '<a href="https://github.com" rel="noopener">GitHub</a>' in links
    assert "largest software development platform" in links
    home = _main(html(result, "index.html"))
    assert "Hello Stack" in home  # `mainSections: [post]` is what the home page lists


def test_links_page_reads_the_data_file_when_the_page_has_no_links(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "content/page/links.md": "---\ntitle: Links\nlayout: links\n---\n",
        "data/links.json": '[{"title": "Upptime", "website": "https://example.com/check", "description": "Status"}]',
    })
    links = _main(html(result, "page/links/index.html"))
    assert '<a href="https://example.com/check" rel="noopener">Upptime</a>' in links and "Status" in links


def test_taxonomy_and_term_content_pages_are_the_taxonomy_pages_with_the_term_slug_as_url(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config.yaml": "baseurl: /\ntitle: Notes\ntheme: hugo-theme-stack\n",
        "content/categories/_index.md": '---\ntitle: "分类"\n---\n',
        "content/categories/技术/_index.md": ('---\ntitle: "技术"\ndescription: "网站建设的笔记"\nslug: "tech"\n'
                                            'image: "tech.jpg"\n---\n'),
        "content/categories/技术/tech.jpg": b"\xff\xd8\xff",
        "content/tags/_index.md": '---\ntitle: "标签"\n---\nEvery *tag*.\n',
        "content/post/hello.md": "---\ntitle: Hello\ndate: 2021-01-01\ncategories: [技术]\ntags: [Hugo]\n---\nHi.\n",
    })
    term = _main(html(result, "categories/tech/index.html"))
    assert "<h1>技术</h1>" in term and "网站建设的笔记" in term and '<a href="/post/hello/">Hello</a>' in term
    assert "categories/技术/index.html" not in result.files and "categories/tech/feed.xml" in result.files
    assert '<a href="/categories/tech/">' in _main(html(result, "categories/index.html"))
    tags = _main(html(result, "tags/index.html"))
    assert '<a href="/tags/hugo/">' in tags and "<h1>标签</h1>" in tags and "Every <em>tag</em>." in tags
    assert 'href="/categories/tech/"' in html(result, "post/hello/index.html")


def test_papermod_show_all_pages_in_archive(tmp_path: Path) -> None:
    result = build_hugo(tmp_path, {
        "config.yml": PAPERMOD.replace("params:\n", "params:\n  ShowAllPagesInArchive: true\n"),
        "content/archives.md": '---\ntitle: "Archives"\nlayout: "archives"\n---\n',
        "content/posts/first.md": "---\ntitle: First light\ndate: 2022-03-05\n---\nOne.\n",
        "content/about.md": "---\ntitle: About me\ndate: 2021-01-01\n---\nHi.\n",
    })
    main = _main(html(result, "archives/index.html"))
    assert "First light" in main and "About me" in main


def test_taxonomy_permalinks_give_the_term_urls(tmp_path: Path) -> None:
    """Wowchemy's config writes `permalinks: {tags: /tag/:slug/, categories: /category/:slug/}`: Hugo publishes the
    term pages there, and every link to a term points there."""
    result = build_hugo(tmp_path, {
        "config.yaml": "title: Lab\nbaseurl: https://lab.example.org/\npermalinks:\n  tags: /tag/:slug/\n"
                       "  categories: /category/:slug/\n",
        "content/post/thesis.md": ("---\ntitle: Thesis\ndate: 2020-01-01\ntags: [PhD Thesis]\ncategories: [Work]\n"
                                   "---\nDone.\n"),
    })
    assert "tag/phd-thesis/index.html" in result.files and "category/work/index.html" in result.files
    assert "tags/phd-thesis/index.html" not in result.files and "tag/phd-thesis/feed.xml" in result.files
    post = html(result, "post/thesis/index.html")
    assert 'href="/tag/phd-thesis/"' in post and 'href="/category/work/"' in post
    assert 'href="/tag/phd-thesis/"' in html(result, "tags/index.html")


def test_wowchemy_author_profile_is_its_author_term_page(tmp_path: Path) -> None:
    """Wowchemy's `content/authors/admin/_index.md` is the `authors` term page of `admin`, at the `:slug` its title
    gives (`/author/ann-lee-phd/`), even when no publication names `admin`; the about widget shows it too."""
    result = build_hugo(tmp_path, {
        "config.yaml": ("title: Ann\nbaseurl: https://ann.example.org/\ntaxonomies:\n  author: authors\n  tag: tags\n"
                        "permalinks:\n  authors: /author/:slug/\n  tags: /tag/:slug/\n"),
        "content/authors/admin/_index.md": ("---\ntitle: Ann Lee, PhD\nrole: Professor\n---\nAnn studies looms. "
                                            '{{< icon name="download" pack="fas" >}}\n'),
        "content/home/index.md": "---\nheadless: true\n---\n",
        "content/home/about.md": "---\nwidget: about\nheadless: true\nweight: 10\nauthor: admin\n---\n",
        "content/publication/p/index.md": "---\ntitle: Looms\ndate: 2020-01-01\nauthors: [Ann Lee, Bo Chen]\n---\n",
    })
    profile = _main(html(result, "author/ann-lee-phd/index.html"))
    assert "<h1>Ann Lee, PhD</h1>" in profile and "Ann studies looms." in profile
    assert "authors/admin/index.html" not in result.files and "author/bo-chen/index.html" in result.files
    assert 'href="/author/ann-lee/"' in html(result, "authors/index.html")
    assert _main(html(result, "index.html")).count("Ann studies looms.") == 1
    assert len([w for w in result.warnings if "`icon`" in w.message]) == 1
