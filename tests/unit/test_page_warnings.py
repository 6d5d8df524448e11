"""Mistakes a newcomer makes in front matter are read as well as they can be, and named with file:line."""

from __future__ import annotations

import pytest

from sitegen.config import SiteConfig
from sitegen.content.dates import DateParseError, parse_date
from sitegen.content.page import near_miss, parse_page

CONFIG = SiteConfig()


def warnings_of(text: str) -> list[str]:
    return [w.format() for w in parse_page("posts/x.md", text, CONFIG).warnings]


def test_a_misspelt_key_gets_a_did_you_mean_with_its_line() -> None:
    page = parse_page("posts/x.md", "---\ndate: 2024-01-01\ntittle: Hello\n---\nBody\n", CONFIG)
    [warning] = page.warnings
    assert (warning.path, warning.line) == ("posts/x.md", 3)
    assert "unknown front matter key `tittle`: did you mean `title`?" in warning.message
    assert page.params == {"tittle": "Hello"}  # still reaches templates, as every free key does


@pytest.mark.parametrize(("key", "meant"), [("tittle", "title"), ("titel", "title"), ("dat", "date"),
                                            ("tagss", "tags"), ("catagories", "categories"), ("summery", "summary"),
                                            ("publishdate", "publishDate"), ("Draft", "draft"),
                                            ("descripton", "description"), ("serach", "search")])
def test_near_misses(key: str, meant: str) -> None:
    assert f"did you mean `{meant}`?" in "".join(warnings_of(f"---\n{key}: x\n---\n"))


@pytest.mark.parametrize("key", ["author", "image", "published", "subtitle", "event", "location", "slides",
                                 "cover", "featured", "comments", "venue", "params", "mathjax", "hide"])
def test_free_keys_used_on_purpose_are_not_warned_about(key: str) -> None:
    assert warnings_of(f"---\ntitle: T\n{key}: x\n---\n") == []
    assert near_miss(key, ["title", "images", "publishDate", "hidden"]) is None


def test_keys_under_params_are_never_looked_at() -> None:
    assert warnings_of("---\ntitle: T\nparams:\n  tittle: x\n  tag: y\n---\n") == []


def test_comma_separated_tags_are_split_and_warned_about() -> None:
    page = parse_page("posts/x.md", "---\ntitle: T\ntags: hello, world\ncategories: notes\n---\n", CONFIG)
    assert page.taxonomies == {"tags": ["hello", "world"], "categories": ["notes"]}
    [warning] = page.warnings
    assert warning.line == 3 and "`tags: hello, world` is one text, not a list: read as 2 tags" in warning.message
    assert warning.hint == "write a list: `tags: [hello, world]`"


def test_a_date_in_words_is_an_error_showing_the_text_as_written() -> None:
    with pytest.raises(DateParseError) as info:
        parse_date("Nov 23, 2026")
    assert str(info.value) == "'Nov 23, 2026' is not a valid date: write it as 2026-11-23"
    assert "T23" not in str(info.value)
    with pytest.raises(DateParseError, match=r"^'someday' is not a valid date$"):
        parse_date("someday")


def test_jekyll_singular_category_and_tag_are_read_not_dropped() -> None:
    # Jekyll reads `category:` and `tag:` as its categories and tags; a Jekyll post's category must not vanish
    # without a word (it was a free key, silently), nor be called a typo.
    page = parse_page("posts/x.md", "---\ntitle: T\ncategory: notes\ntag: [python, web]\n---\n", CONFIG)
    assert page.taxonomies == {"categories": ["notes"], "tags": ["python", "web"]}
    assert page.warnings == () and "category" not in page.params and "tag" not in page.params
    both = parse_page("posts/x.md", "---\ntitle: T\ncategories: [a]\ncategory: b\n---\n", CONFIG)
    assert both.taxonomies["categories"] == ["a", "b"]  # as Jekyll, which adds the two
    comma = [w.format() for w in parse_page("posts/x.md", "---\ntag: hello, world\n---\n", CONFIG).warnings]
    assert comma == ["warning: posts/x.md:2:1: `tag: hello, world` is one text, not a list: read as 2 tags "
                     "(hello, world)\n  hint: write a list: `tags: [hello, world]`"]


@pytest.mark.parametrize(("key", "meant"), [("unpublishdate", "expiryDate"), ("pubdate", "publishDate"),
                                            ("modified", "lastmod")])
def test_hugo_date_aliases_are_pointed_at_the_key_they_mean(key: str, meant: str) -> None:
    # Hugo's `unpublishdate` is its expiry date: "did you mean publishDate" would have the author publish the page
    # on the day it was meant to go away.
    assert f"did you mean `{meant}`?" in "".join(warnings_of(f"---\n{key}: 2030-01-01\n---\n"))
