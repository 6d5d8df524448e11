"""The sharded search index finds, by reading only the shards of the query's words (as search.js looks them up):
a word that appears on one page only, a co-author of one paper, and Chinese words (character pairs).

The browser tests (tests/browser/test_search_index.py) run the real search page on a site like this one; these
run everywhere, fast, and also with shards split by more characters (a tiny `SHARD_BYTES`).
"""

from __future__ import annotations

import json

import pytest

from sitegen.content.text import is_cjk
from sitegen.outputs import search
from tests.conftest import build

FILLER = "A note about compilers and memory layouts, written for the reading group. " * 6
BIB = """@inproceedings{one2023,
  title     = {Sparse Gradient Wrangling at Scale},
  author    = {Lin, Ada and Quenneville, Odalys},
  booktitle = {Proceedings of the Workshop on Obscure Venues},
  year      = {2023},
}
@article{two2021,
  title   = {Dense Things},
  author  = {Lin, Ada and Brightwater, Tamsin},
  journal = {Journal of Plain Results},
  year    = {2021},
}
"""
SITE = {
    "sitegen.yaml": "title: Search Test\nbase_url: /\nlanguage: en\nauthor:\n  name: Ada Lin\n",
    "content/publications.md": "---\ntitle: Publications\nlayout: publications\n---\nMy papers.\n",
    "data/publications.bib": BIB,
    "content/posts/unique.md": "---\ntitle: Field Notes\ndate: 2024-01-02\n---\n" + FILLER
                               + "\n\nOnce I saw a quokkafish in the harbour.\n",
    "content/posts/zh.md": "---\ntitle: 笔记\ndate: 2024-01-04\nlang: zh\n---\n我们研究了量子纠缠的实验。\n",
    "content/posts/en-zh.md": "---\ntitle: Mixed\ndate: 2024-01-05\n---\n" + FILLER
                              + "\n\nA remark on 量子纠缠 in English.\n",
    **{f"content/posts/more-{i}.md": f"---\ntitle: More {i}\ndate: 2024-02-{i + 1:02d}\n---\n" + FILLER
       + f"\n\nQuietly quoting quorum {i} and queues.\n" for i in range(12)},
}


def _pages_of(postings: str) -> set[int]:
    """Page ids of a term's postings (`.`-joined base 36 of page delta * 16 + weight)."""
    ids, page = set(), 0
    for item in postings.split("."):
        page += int(item, 36) // 16
        ids.add(page)
    return ids


def find(files: dict[str, bytes], word: str) -> tuple[list[str], list[str]]:
    """(URLs of the pages holding the index term `word`, the shard files read): search.js's `keysFor`."""
    meta = json.loads(files["searchindex/meta.json"])
    keys = [k for k in meta["keys"] if word.startswith(k) or k.startswith(word)]
    read = [f"searchindex/t/{search.shard_name(k)}.json" for k in keys]
    pages: set[int] = set()
    for path in read:
        shard = json.loads(files[path])
        if word in shard:
            pages |= _pages_of(shard[word])
    return sorted(json.loads(files[f"searchindex/p/{p}.json"])["u"] for p in pages), read


@pytest.fixture(scope="module", params=[search.SHARD_BYTES, 100], ids=["default shards", "shards split further"])
def files(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The site's output, built once per shard size."""
    root = tmp_path_factory.mktemp("search-shards")
    for rel, text in SITE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "SHARD_BYTES", request.param)
        out = build(root).files
    keys = json.loads(out["searchindex/meta.json"])["keys"]
    assert (request.param < 1000) == any(len(k) > 2 and not is_cjk(k[0]) for k in keys)  # split, or not
    return out


def _shards(files: dict[str, bytes]) -> dict[str, dict[str, str]]:
    return {path: json.loads(data) for path, data in files.items() if path.startswith("searchindex/t/")}


def test_a_word_on_one_page_only_is_found_in_its_shard_alone(files: dict[str, bytes]) -> None:
    assert find(files, "quokkafish")[0] == ["/posts/unique/"]
    shards = _shards(files)
    holding = [path for path, terms in shards.items() if "quokkafish" in terms]
    assert len(holding) == 1  # one shard holds the word, and the lookup reads only a few of many shards
    _, read = find(files, "quokkafish")
    assert holding[0] in read and len(read) <= 2 and len(shards) >= 10 * len(read)
    assert find(files, "quokkafis")[0] == []  # a term is a whole word (prefixes are matched by the client)


def test_a_co_author_of_one_paper_finds_the_publications_page(files: dict[str, bytes]) -> None:
    assert find(files, "quenneville")[0] == ["/publications/"]
    assert find(files, "brightwater")[0] == ["/publications/"]
    assert find(files, "obscure")[0] == ["/publications/"]  # the venue
    assert find(files, "wrangling")[0] == ["/publications/"]  # the title


def test_chinese_words_are_found_by_their_character_pairs(files: dict[str, bytes]) -> None:
    for pair in ("量子", "子纠", "纠缠"):
        urls, read = find(files, pair)
        assert urls == ["/posts/en-zh/", "/posts/zh/"], pair
        assert read == [f"searchindex/t/{search.shard_name(pair[0])}.json"]  # one CJK character's shard
    assert find(files, "实验")[0] == ["/posts/zh/"]  # on one page only
    assert find(files, "量子纠缠")[0] == []  # not a term: the client looks up the pairs
