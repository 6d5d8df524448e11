"""Slugs and URLs: Unicode-preserving, NFC, safe, with base paths."""

from __future__ import annotations

import unicodedata

import pytest

from sitegen.config import SiteConfig
from sitegen.content.urls import (
    UnsafeURLError,
    UrlHelper,
    check_safe_slug,
    expand_permalink,
    normalize_url_path,
    output_path_for,
    slugify,
)


@pytest.mark.parametrize("text, slug", [
    ("Deep Learning", "deep-learning"),
    ("PyTorch", "pytorch"),
    ("深度学习", "深度学习"),
    ("paper_summary", "paper-summary"),
    ("C++ & Rust!", "c-rust"),
    ("  Übersicht  ", "übersicht"),
])
def test_slugify(text: str, slug: str) -> None:
    assert slugify(text) == slug


def test_slugify_nfc_and_nfd_agree() -> None:
    assert slugify(unicodedata.normalize("NFD", "Übersicht")) == slugify("Übersicht")


@pytest.mark.parametrize("bad", ["../x", "..", "a/b", "%2e%2e", ".hidden", "a\x00b"])
def test_unsafe_slugs_are_refused(bad: str) -> None:
    with pytest.raises(UnsafeURLError):
        check_safe_slug(bad)


@pytest.mark.parametrize("url, path", [
    ("/about/", "/about/"),
    ("about", "/about/"),
    ("/a/b.html", "/a/b.html"),
    ("/", "/"),
    ("/x//y/", "/x/y/"),
    ("/a/./b", "/a/b/"),
])
def test_normalize_url_path(url: str, path: str) -> None:
    assert normalize_url_path(url) == path


@pytest.mark.parametrize("bad", ["/../../tmp/pwn", "/%2e%2e/x", "/a/%252e%252e/%252e%252e/b", "https://evil/",
                                 "//x//y/"])
def test_urls_that_leave_the_site_are_refused(bad: str) -> None:
    with pytest.raises(UnsafeURLError):
        normalize_url_path(bad)


def test_output_paths() -> None:
    assert output_path_for("/") == "index.html"
    assert output_path_for("/about/") == "about/index.html"
    assert output_path_for("/a/b.html") == "a/b.html"


def test_permalink_expansion() -> None:
    import datetime as dt

    date = dt.datetime(2024, 3, 9, tzinfo=dt.UTC)
    out = expand_permalink("/posts/:year/:month/:day/:slug/", date=date, slug="x", section="posts", title="T",
                           filename="x")
    assert out == "/posts/2024/03/09/x/"


def test_url_helper_with_sub_path() -> None:
    urls = UrlHelper(SiteConfig(base_url="https://u.github.io/repo/"))
    assert urls.url("/about/") == "/repo/about/"
    assert urls.absurl("/about/") == "https://u.github.io/repo/about/"
    assert urls.url("/posts/论文/") == "/repo/posts/%E8%AE%BA%E6%96%87/"
    assert urls.url("https://example.org/x") == "https://example.org/x"


def test_url_helper_at_root() -> None:
    urls = UrlHelper(SiteConfig(base_url="https://example.org/"))
    assert urls.url("/") == "/"
    assert urls.absurl("/feed.xml") == "https://example.org/feed.xml"
