"""The sharded search index, queried by the real search page in headless Chromium: a word on one page only,
a co-author of one paper, Chinese, prefixes, one typo, shareable links, the reader's language first."""

from __future__ import annotations

import datetime as dt
import functools
import http.server
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sitegen.build import BuildOptions, build_site
from sitegen.writer import write_output
from tests import searchindex as index
from tests.browser.conftest import _QuietHandler

pytestmark = pytest.mark.browser

FILLER = "A note about compilers and memory layouts, written for the reading group. " * 6
BIB = """@inproceedings{one2023,
  title     = {Sparse Gradient Wrangling at Scale},
  author    = {Lin, Ada and Quenneville, Odalys},
  booktitle = {Proceedings of the Workshop on Obscure Venues},
  year      = {2023},
}
@article{two2021,
  title   = {Dense Things},
  author  = {Lin, Ada},
  journal = {Journal of Plain Results},
  year    = {2021},
}
"""
SITE = {
    "sitegen.yaml": "title: Search Test\nbase_url: /\nlanguage: en\nauthor:\n  name: Ada Lin\n",
    "content/search.md": "---\ntitle: Search\nlayout: search\nsearch: false\n---\n",
    "content/publications.md": "---\ntitle: Publications\nlayout: publications\n---\nMy papers.\n",
    "data/publications.bib": BIB,
    "content/posts/unique.md": "---\ntitle: Field Notes\ndate: 2024-01-02\n---\n" + FILLER
                               + "\n\nOnce I saw a quokkafish in the harbour.\n",
    "content/posts/transformers.md": "---\ntitle: Attention Layers\ndate: 2024-01-03\nmath: true\n---\n"
                                     + FILLER + "\n\nThe transformer model uses $\\alpha_{secretlatex}$ here.\n",
    "content/posts/zh.md": "---\ntitle: 笔记\ndate: 2024-01-04\nlang: zh\n---\n我们研究了量子纠缠的实验。\n",
    "content/posts/en-zh.md": "---\ntitle: Mixed\ndate: 2024-01-05\n---\n" + FILLER
                              + "\n\nA remark on 量子纠缠 in English.\n",
}


@pytest.fixture(scope="module")
def search_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("search-site")
    for rel, text in SITE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    result = build_site(BuildOptions(source=root, now=dt.datetime(2030, 1, 1, tzinfo=dt.UTC)))
    write_output(result.files, root / "public", root)
    handler = functools.partial(_QuietHandler, directory=str(Path(root / "public")))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _results(browser: Any, url: str, query: str) -> tuple[list[str], list[str], list[str]]:
    """(titles, excerpts, requested URLs) after opening /search/?q=query."""
    ctx = browser.new_context()
    page = ctx.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url + "/search/?q=" + query)
    page.wait_for_function("document.getElementById('search-status').textContent.length > 0")
    page.wait_for_function("document.querySelectorAll('#search-results li').length"
                           " === Math.min(10, parseInt(document.getElementById('search-status').textContent))")
    titles = page.locator("#search-results h3").all_inner_texts()
    excerpts = page.locator("#search-results .search-excerpt").all_inner_texts()
    marks = page.locator("#search-results mark").all_inner_texts()
    ctx.close()
    return titles, excerpts + ["MARKS:" + "|".join(marks)], requests


def test_a_word_on_one_page_only_is_found_with_its_excerpt_marked(browser: Any, search_site: str) -> None:
    titles, excerpts, requests = _results(browser, search_site, "quokkafish")
    assert titles == ["Field Notes"]
    assert "quokkafish in the harbour" in excerpts[0] and "MARKS:quokkafish" in excerpts
    assert all(r.startswith(search_site) for r in requests)  # no third-party requests
    assert _shards(requests) == _packs_of(search_site, "qu")  # the shard of the word's first letters, not all
    assert sum("/searchindex/p/" in r for r in requests) == 1  # and the bundle holding the one result's text


def _shards(requests: list[str]) -> list[str]:
    """The packs of index shards a query fetched."""
    return sorted({r.split("/searchindex/t/")[1].split(".json")[0] for r in requests if "/searchindex/t/" in r})


def _packs_of(site: str, *keys: str) -> list[str]:
    """The packs that hold these shards, as `_shards` names them."""
    with urllib.request.urlopen(site + "/searchindex/meta.json") as response:  # noqa: S310 - the local server
        files = {"searchindex/meta.json": response.read()}
    return sorted({index.pack_path(files, key).split("/t/")[1].split(".json")[0] for key in keys})


def test_a_co_author_and_a_venue_of_one_paper_find_the_publications_page(browser: Any, search_site: str) -> None:
    titles, _, requests = _results(browser, search_site, "Quenneville")
    assert titles == ["Publications"] and _shards(requests) == _packs_of(search_site, "qu")
    assert _results(browser, search_site, "obscure venues")[0] == ["Publications"]


def test_prefixes_and_one_typo_match_and_math_source_stays_out(browser: Any, search_site: str) -> None:
    for query in ("transf", "transfromer", "tranformer"):
        titles, excerpts, _ = _results(browser, search_site, query)
        assert titles == ["Attention Layers"], query
        assert "secretlatex" not in " ".join(excerpts)
    assert _results(browser, search_site, "tran")[0] == ["Attention Layers"]
    assert _results(browser, search_site, "quokkafishes")[0] == []  # two letters more: no longer one typo


def test_chinese_finds_pages_in_chinese_first(browser: Any, search_site: str) -> None:
    titles, _, requests = _results(browser, search_site, "量子纠缠")
    assert titles == ["笔记", "Mixed"]
    assert _shards(requests) == _packs_of(search_site, "子", "纠", "量")  # the shards of the pairs' first characters
    assert _results(browser, search_site, "纠缠")[0] == ["笔记", "Mixed"]
