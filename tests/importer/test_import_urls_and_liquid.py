"""`sitegen import jekyll` with the Jekyll reader: URLs given by `_config.yml` permalinks, collection permalinks
and Jekyll's defaults are kept, and Liquid (site variables, highlight, post_url) is converted as in place."""

from __future__ import annotations

from pathlib import Path

from sitegen.build import BuildOptions, build_site
from sitegen.importer import import_site
from tests.importer.conftest import write_tree


def test_jekyll_post_urls_follow_the_config_permalink(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: Ada\npermalink: /blog/:year/:title/\ncollections:\n  talks:\n    output: true\n"
                       "    permalink: /:collection/:path/\n",
        "_posts/2020-01-02-hello.md": "---\ntitle: Hello\n---\nHi.\n",
        "_talks/2019-vienna.md": "---\ntitle: Vienna\n---\nTalk.\n",
    })
    import_site("jekyll", source, tmp_path / "new")
    files = build_site(BuildOptions(source=tmp_path / "new")).files
    assert "blog/2020/hello/index.html" in files
    assert "talks/2019-vienna/index.html" in files


def test_jekyll_default_post_url(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: Ada\n",
        "_posts/2020-01-02-hello.md": "---\ntitle: Hello\ncategories: notes\n---\nHi.\n",
    })
    import_site("jekyll", source, tmp_path / "new")
    files = build_site(BuildOptions(source=tmp_path / "new")).files
    assert "notes/2020/01/02/hello.html" in files


def test_liquid_is_converted(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: Ada\nbaseurl: /me\n",
        "_pages/about.md": "---\ntitle: About\npermalink: /about/\n---\n"
                           "Read [this]({{ site.baseurl }}/about/).\n\n{% highlight python %}\nx = 1\n"
                           "{% endhighlight %}\n",
    })
    report = import_site("jekyll", source, tmp_path / "new")
    page = build_site(BuildOptions(source=tmp_path / "new")).files["about/index.html"]
    assert b"{%" not in page and b"{{" not in page
    assert not [n for n in report.notes if "not converted" in n.message]


def test_liquid_links_become_the_pages_urls(tmp_path: Path) -> None:
    source = write_tree(tmp_path / "j", {
        "_config.yml": "title: Ada\nbaseurl: /me\npermalink: /blog/:year/:title/\n",
        "_posts/2020-01-02-hello.md": "---\ntitle: Hello\n---\nHi.\n",
        "_pages/about.md": "---\ntitle: About\npermalink: /about/\n---\n"
                           "Read [hello]({% post_url 2020-01-02-hello %}) on {{ site.title }}'s site.\n",
    })
    report = import_site("jekyll", source, tmp_path / "new")
    text = (tmp_path / "new/content/about.md").read_text()
    assert "[hello](/blog/2020/hello/)" in text and "Ada's site" in text, text
    files = build_site(BuildOptions(source=tmp_path / "new")).files
    assert b'href="/me/blog/2020/hello/"' in files["about/index.html"]
    assert not [n for n in report.notes if "not converted" in n.message]


def test_alfolio_figure_keeps_loading_title_zoomable_and_url(tmp_path: Path) -> None:
    """al-folio's figure.liquid writes `loading`, `title`, `data-zoomable` and `url` (a src used as given) as
    given; the import had made every image lazy and dropped the rest."""
    src = write_tree(tmp_path / "src", {
        "_config.yml": "title: Ada\nurl: https://ada.example.org\n",
        "_posts/2024-01-27-images.md": (
            "---\ntitle: Images\n---\n"
            '{% include figure.liquid loading="eager" path="assets/img/a.jpg" class="img-fluid rounded" '
            'title="example image" zoomable=true %}\n\n'
            '{% include figure.liquid path="assets/img/a.jpg" url="https://cdn.example.org/a.jpg" %}\n'),
        "assets/img/a.jpg": b"\xff\xd8\xff\xe0",
    })
    import_site("jekyll", src, tmp_path / "new")
    text = (tmp_path / "new/content/posts/2024-01-27-images.md").read_text(encoding="utf-8")
    assert ('<img src="/assets/img/a.jpg" alt="example image" class="img-fluid rounded" title="example image" '
            'loading="eager" data-zoomable>') in text
    assert '<img src="https://cdn.example.org/a.jpg" alt="" loading="lazy">' in text
