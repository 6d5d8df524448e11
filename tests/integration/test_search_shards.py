"""The sharded search index finds, by reading only the shards of the query's words (as search.js looks them up):
a word that appears on one page only, a co-author of one paper, and Chinese words (character pairs).

The browser tests (tests/browser/test_search_index.py) run the real search page on a site like this one; these
run everywhere, fast, and also with shards split by more characters (a tiny `SHARD_BYTES`).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from sitegen.content.text import is_cjk
from sitegen.outputs import search
from tests import searchindex as index
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
    """(URLs of the pages holding the index term `word`, the shards read): search.js's `keysFor`."""
    keys = [k for k in index.meta(files)["keys"] if word.startswith(k) or k.startswith(word)]
    pages: set[int] = set()
    for key in keys:
        shard = index.shard(files, key)
        if word in shard:
            pages |= _pages_of(shard[word])
    return sorted(index.doc(files, p)["u"] for p in pages), keys


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


def test_a_word_on_one_page_only_is_found_in_its_shard_alone(files: dict[str, bytes]) -> None:
    assert find(files, "quokkafish")[0] == ["/posts/unique/"]
    shards = index.shards(files)
    holding = [key for key, terms in shards.items() if "quokkafish" in terms]
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
        assert read == [pair[0]]  # one CJK character's shard
    assert find(files, "实验")[0] == ["/posts/zh/"]  # on one page only
    assert find(files, "量子纠缠")[0] == []  # not a term: the client looks up the pairs


def test_shards_and_results_are_published_in_few_files_that_hold_them_all(files: dict[str, bytes]) -> None:
    meta = index.meta(files)
    packs = {path: json.loads(data) for path, data in files.items() if path.startswith("searchindex/t/")}
    bundles = {path: json.loads(data) for path, data in files.items() if path.startswith("searchindex/p/")}
    assert sorted(key for pack in packs.values() for key in pack) == meta["keys"]  # each shard once
    assert sum(len(bundle) for bundle in bundles.values()) == meta["n"] == 16
    assert len(packs) == len(meta["packs"]) < len(meta["keys"]) / 3 and len(bundles) == len(meta["docs"]) < 16
    for path, pack in packs.items():
        assert len(pack) == 1 or len(files[path]) <= search.PACK_BYTES, path
        assert path == f"searchindex/t/{search.shard_name(min(pack))}.json"  # named after its first key
    for path, bundle in bundles.items():
        assert len(bundle) == 1 or len(files[path]) <= search.BUNDLE_BYTES, path
    assert [index.doc(files, i)["u"] for i in range(meta["n"])] == sorted(index.doc(files, i)["u"] for i in range(16))


def _members(count: int, size: int) -> list[tuple[bytes, int]]:
    return [(f"/posts/p{i}/".encode(), size) for i in range(count)]


def test_runs_end_by_size_by_count_and_by_hash() -> None:
    members = _members(400, 3_000)
    runs = search._runs(members, 16_000, 4)
    assert sum(runs) == 400 and all(1 <= n <= 5 for n in runs)  # 16,000 bytes hold five of 3,000
    assert len(runs) < 400 / 2
    assert search._runs(_members(100, 0), 16_000, 1_000_000_007) == [35, 35, 30]  # MAX_RUN, no hash ends
    assert search._runs([(b"big", 90_000), (b"small", 10)], 16_000, 1_000_000_007) == [1, 1]  # a big one alone
    assert search._runs([], 16_000, 4) == []


def test_a_member_that_grows_moves_only_the_boundaries_near_it() -> None:
    members = _members(400, 3_000)
    before = search._runs(members, 16_000, 4)
    ends_before = list(itertools.accumulate(before))
    # The middle member of a run of three or more, from the middle of the list on, grows: its run must split.
    start, end = next((a, b) for a, b in itertools.pairwise(ends_before) if a >= 200 and b - a >= 3)
    members[start + 1] = (members[start + 1][0], 15_000)
    changed = set(ends_before) ^ set(itertools.accumulate(search._runs(members, 16_000, 4)))
    assert changed and all(start < at < start + 40 for at in changed)  # the other runs are the same files


def test_every_key_has_a_file_name_of_its_own() -> None:
    """Escapes end with `_`: "д1" (U+0434, then 1) and "䍁" (U+4341) were both `_4341`, and one pack overwrote the
    other."""
    assert search.shard_name("д1") == "_434_1" and search.shard_name("䍁") == "_4341_"
    keys = ["д1", "䍁", "ab", "a_", "_", "é", "😀", "中文", "1", "4341"]
    assert len({search.shard_name(k) for k in keys}) == len(keys)


def test_a_pack_that_two_escaped_keys_would_have_named_alike_keeps_its_shards(tmp_path: Path) -> None:
    site = {"sitegen.yaml": "title: T\nbase_url: /\nlanguage: en\n",
            "content/a.md": "---\ntitle: A\n---\nzulu д1 дима 䍁\n"}
    for rel, text in site.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    files = build(tmp_path).files
    assert len([p for p in files if p.startswith("searchindex/t/")]) == len(index.meta(files)["packs"])
    for word in ("дима", "д1", "䍁", "zulu"):
        assert find(files, word)[0] == ["/a/"], word


def test_the_dev_servers_index_follows_a_change_of_base_url_and_language(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content/a.md").write_text("---\ntitle: A\n---\nwords\n")
    indexer = search.Indexer()
    found = []
    for config in ("base_url: /\nlanguage: en\n", "base_url: /sub/\nlanguage: fr\n"):
        (tmp_path / "sitegen.yaml").write_text("title: T\n" + config)
        result = build(tmp_path)
        assert result.state is not None
        files = indexer.files(result.state, result.files)
        found.append((index.doc(files, 0)["u"], index.doc(files, 0)["l"]))
        assert files == search.Indexer().files(result.state, result.files)  # as a fresh index
    assert found == [("/a/", "en"), ("/sub/a/", "fr")]


def test_the_search_page_asks_for_the_client_of_its_index_format(tmp_path: Path) -> None:
    """`search.js?v=<VERSION>`: a browser's cached client of an older format is not used with a new index."""
    (tmp_path / "content").mkdir()
    (tmp_path / "sitegen.yaml").write_text("title: T\nbase_url: /\n")
    (tmp_path / "content/search.md").write_text("---\ntitle: Search\nlayout: search\nsearch: false\n---\n")
    files = build(tmp_path).files
    assert index.meta(files)["v"] == search.VERSION
    assert f'src="/js/search.js?v={search.VERSION}"'.encode() in files["search/index.html"]
    assert f"VERSION = {search.VERSION};".encode() in files["js/search.js"]
