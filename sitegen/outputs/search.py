"""A sharded static search index under `/searchindex/` for the theme's client-side search; no server needed.

The browser fetches only what a query needs: `meta.json` (the shard keys, and each page's language), the packs
holding the shards of the query's words, and one small bundle per result shown. At 10,000 pages the first query
fetches well under 300 KB (`bench/search_index.py` prints the figures).

    searchindex/meta.json          {"v", "h", "n", "langs", "doclang", "keys", "packs", "docs"}
    searchindex/t/<first key>.json {key: {term: postings}} for a run of shards, the terms starting with each key
    searchindex/p/<first id>.json  [{"u": url, "t": title, "d": date, "l": lang, "x": full text}, ...] for a run
                                   of pages, from page <first id> on

Small files are grouped so that a site does not publish thousands of tiny ones (each costs its file system a
file to make, and a deploy a file to upload): consecutive shards into packs of up to `PACK_BYTES`, consecutive
result files into bundles of up to `BUNDLE_BYTES`. `meta.json` gives the number of shards in each pack
(`packs`) and of pages in each bundle (`docs`), one base-36 digit each. A run also ends where its last member's
hash says so (`_runs`), so an edit that changes a file's size moves only the boundaries near it.

Words are lowercased runs of letters and digits; Chinese, Japanese and Korean text is indexed as overlapping
character pairs (so any two or more characters of a run are found, as a substring search would). A shard holds
the terms sharing its key (two letters, or one CJK character); a shard larger than `SHARD_BYTES` is split by one
more character. Postings are `.`-joined base-36 numbers, each `(page id delta) * 16 + weight`, weight = times
the term occurs (at most 7) + 8 if it is in the title. The client (themes/default/static/js/search.js) matches
prefixes and one typo in words of five letters or more, ranks pages in the reader's language first and shows
highlighted excerpts. The page text is the rendered Markdown, or the page's `<main>` for pages whose layout makes
their content (CV, publications); math source (`\\(...\\)`, `\\[...\\]`) is left out of the text.

Pages opt out with `search: false`; `search: {enabled: false}` in the config turns it off.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import itertools
import json
import pickle
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from sitegen.content.text import index_terms, is_cjk, plain_text, search_text, term_weights, unpack_term_weights
from sitegen.content.urls import output_path_for
from sitegen.memo import BuildMemo, config_key, key_of
from sitegen.outputs.context import OutputContext
from sitegen.parallel import MIN_PAGES_PER_WORKER, InCopy, worker_count
from sitegen.views import SiteState

INDEX_DIR = "searchindex/"
VERSION = 2
"""The index's format (`meta.json`'s `v`): search.js reads only this one, and the search page asks for it as
`search.js?v=<VERSION>`, so that a browser's cached copy of an older client is not used with it."""
SHARD_BYTES = 40_000
"""A shard above this size (uncompressed) is split by one more character of its terms."""
PACK_BYTES = 16_000
"""Consecutive shards are published together in one file up to this size (uncompressed)."""
BUNDLE_BYTES = 16_000
"""Consecutive pages' result files are published together in one file up to this size (uncompressed); a first
query shows 10 results, so it fetches at most about ten times this for their texts."""
PACK_RUN = 8
BUNDLE_RUN = 4
"""On average a pack ends after this many shards, a bundle after this many pages, where the size does not end it
first (`_runs`)."""
MAX_RUN = 35
"""Members of a pack or bundle at most: `meta.json` gives each run's length as one base-36 digit."""
MAX_TERM = 40
"""Longer words (hashes, URLs run together) are not indexed."""
TEXT_CHARS = 50_000
"""Page text kept for excerpts (every word of the page is indexed whatever its length)."""

_HIDDEN = ("script", "style", "annotation", "template", "svg", "pre")
"""Elements whose text is not the page's words (code, BibTeX, math source) in pages read from their HTML."""


@dataclass(frozen=True)
class Doc:
    """One searchable page: where it is, its title, date and language, and its plain text (math left out)."""

    url: str
    title: str
    date: str
    lang: str
    text: str
    keywords: str = ""
    """Indexed, not shown: the page's categories and tags, and its description."""


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """The index files over published pages (unless `search: false`), each page's part memoized by its
    content, and the shards by the whole list's."""
    if ctx.state.config.search.get("enabled", True) is False:
        return {}
    return _index(ctx.state, ctx.files, ctx.memo.blob)


class Indexer:
    """The dev server's background indexing: runs beside the next build, so it keeps its own cache (the last
    index's page parts and shards) instead of the build memo."""

    def __init__(self) -> None:
        self._cache: dict[str, bytes] = {}
        self._config = ""

    def files(self, state: SiteState, files: dict[str, bytes]) -> dict[str, bytes]:
        """The index files of this build (nothing kept from an index made under another configuration: the page
        parts' keys do not cover the base URL or the site's language)."""
        if state.config.search.get("enabled", True) is False:
            return {}
        config = config_key(state.config)
        if config != self._config:
            self._cache, self._config = {}, config
        used: dict[str, bytes] = {}

        def blob(key: str, make: Callable[[], bytes]) -> bytes:
            value = used.get(key, self._cache.get(key))
            used[key] = value if value is not None else make()
            return used[key]

        out = _index(state, files, blob)
        self._cache = used
        return out


def _index(state: SiteState, files: dict[str, bytes], blob: Callable[[str, Callable[[], bytes]], bytes]
           ) -> dict[str, bytes]:
    return _index_of(_doc_makers(state, files), blob)


IN_COPY_PAGES = 300
"""From this many pages the index lists on, an index that is not memoized as a whole is made in a forked copy of
the build process (`start`)."""


Makers = list[tuple[str, str, functools.partial["Part"]]]
"""(memo key, URL, maker of the page's part) of each page the index lists (`_doc_makers`)."""


class Started:
    """The index of a build, begun before the other outputs (`start`): in a forked copy of this process, or left
    to be made in its turn from the pages already found."""

    def __init__(self, makers: Makers, copy: InCopy[_Recorded] | None) -> None:
        self.makers = makers
        self.copy = copy

    def files(self, memo: BuildMemo) -> dict[str, bytes]:
        """The index files; the memo as if the index had been made here (the same keys used in the same order,
        the blobs the copy made stored)."""
        if self.copy is None:
            return _index_of(self.makers, memo.blob)
        copy, self.copy = self.copy, None
        files, used, made = copy.result()
        for key in used:
            memo.blob(key, functools.partial(made.__getitem__, key))
        return files

    def cancel(self) -> None:
        """End the copy, if one runs (an error elsewhere: nobody will take its index)."""
        if self.copy is not None:
            self.copy.cancel()


def start(ctx: OutputContext, jobs: int | None) -> Started | None:
    """The index of a large site on two cores, begun: in a forked copy of this process, which makes it while the
    build makes its other outputs, unless its shards are memoized (a warm build: then it is made in its turn, and
    quickly), or fewer than `IN_COPY_PAGES` pages are listed. None when the generator should run in its turn as
    usual (fewer pages in the whole tree, one core, no index). The copy reads only the files made before the
    outputs (the pages' own, for pages indexed from their HTML), which the other generators never replace."""
    if (ctx.state.config.search.get("enabled", True) is False or len(ctx.state.tree.pages) < IN_COPY_PAGES
            or worker_count(2 * MIN_PAGES_PER_WORKER, jobs) < 2):
        return None
    makers = _doc_makers(ctx.state, ctx.files)  # (the tree's pages are more: lists, terms, pages left out)
    if len(makers) < IN_COPY_PAGES or _names_key(makers) in ctx.memo.blobs:
        return Started(makers, None)
    copy = InCopy(functools.partial(_recorded_index, makers, ctx.memo.blobs))
    return Started(makers, copy if copy.forked else None)


_Recorded = tuple[dict[str, bytes], list[str], dict[str, bytes]]
"""The index files, the memo keys the index used (in the order it asked for them), and the blobs it made."""


def _recorded_index(makers: Makers, blobs: dict[str, bytes]) -> _Recorded:
    """The index over these pages' parts, reading the memo's `blobs` and recording what it used and made."""
    used: list[str] = []
    made: dict[str, bytes] = {}

    def blob(key: str, make: Callable[[], bytes]) -> bytes:
        used.append(key)
        value = blobs.get(key, made.get(key))
        if value is None:
            value = made[key] = make()
        return value

    return _index_of(makers, blob), used, made


def _names_key(makers: Makers) -> str:
    """The memo key of the shards' names, which covers every page's part."""
    return key_of("search-shards", [key for key, _, _ in makers])


def _index_of(makers: Makers,
              blob: Callable[[str, Callable[[], bytes]], bytes]) -> dict[str, bytes]:
    # Each page's result file and its terms are memoized apart, the file as the very bytes published (one copy
    # in memory, not one in the memo's pickle and one unpickled), and parts made now are used as they are.
    made: dict[str, Part] = {}

    def part(key: str, make: Callable[[], Part]) -> Part:
        if key not in made:
            made[key] = make()
        return made[key]

    keys: list[str] = []
    urls: list[str] = []
    fragments: list[bytes] = []
    terms: list[bytes] = []
    for key, url, make in makers:
        keys.append(key)
        urls.append(url)
        fragments.append(blob(f"{key}:page", functools.partial(lambda k, m: part(k, m)[0], key, make)))
        terms.append(blob(f"{key}:terms", functools.partial(lambda k, m: pickle.dumps(part(k, m)[1:]), key, make)))

    def shards() -> Iterator[tuple[str, dict[str, int]]]:
        for key, pickled in zip(keys, terms, strict=True):
            lang_weights = made.pop(key)[1:] if key in made else pickle.loads(pickled)  # noqa: S301 - our own memo
            yield lang_weights

    computed: dict[str, bytes] = {}

    # A bundle is `[` + the results joined by `,` + `]`: each result counts its comma, the limit the brackets.
    bundles = _runs([(url.encode(), len(fragment) + 1) for url, fragment in zip(urls, fragments, strict=True)],
                    BUNDLE_BYTES - 1, BUNDLE_RUN)

    def all_shards() -> dict[str, bytes]:
        if not computed:
            computed.update(shard_files(fragments, shards(), bundles))
        return computed

    # The shards' names, then each shard by itself (published as the memoized bytes).
    names_key = _names_key(makers)
    names = blob(names_key, lambda: "\n".join(all_shards()).encode()).decode().split("\n")
    out = {name: blob(f"{names_key}:{name}", functools.partial(lambda n: all_shards()[n], name)) for name in names}
    first = 0
    for count in bundles:
        out[f"{INDEX_DIR}p/{first}.json"] = b"[" + b",".join(fragments[first:first + count]) + b"]"
        first += count
    return out


Part = tuple[bytes, str, dict[str, int]]
"""A page's part of the index: its result file, its language and its terms' weights."""


def _doc_makers(state: SiteState, files: dict[str, bytes]) -> Makers:
    """(memo key, URL, maker of the page's part) for each listed page, in URL order (the key covers the URL)."""
    tree = state.tree
    out = []
    for source in sorted(tree.pages, key=lambda s: tree.urls[s]):
        page = tree.pages[source]
        if page.kind != "page" or page.params.get("search") is False:
            continue
        if page.layout or page.generated or source not in state.rendered:
            html = files.get(output_path_for(tree.urls[source]), b"").decode("utf-8", "replace")
            out.append((key_of("search-html", state.meta_key(source), html), tree.urls[source],
                        functools.partial(_html_doc, state, source, html)))
        else:
            out.append((key_of("search-doc", state.meta_key(source), state.body_key(source)), tree.urls[source],
                        functools.partial(_markdown_doc, state, source)))
    return out


def _doc(state: SiteState, source: str, text: str, *, collapsed: bool = False) -> Doc:
    page = state.tree.pages[source]
    date = page.date.date().isoformat() if page.date else ""
    lang = page.lang or state.config.language or ""
    keywords = [str(v) for taxonomy in ("categories", "tags") for v in page.taxonomies.get(taxonomy, [])]
    keywords.append(page.description)
    return Doc(state.urls.url(state.tree.urls[source]), page.title, date, lang, search_text(text, collapsed=collapsed),
               " ".join(keywords))


def _markdown_doc(state: SiteState, source: str) -> Part:
    """A page's Doc from its rendered Markdown (the plain text the render workers made)."""
    rendered = state.rendered[source]
    collapsed = rendered.plain is not None  # plain_words' text
    text = rendered.plain if rendered.plain is not None else plain_text(rendered.html)
    terms = getattr(rendered, "terms", None)  # a Rendered from an older cache has none
    return _part(_doc(state, source, text, collapsed=collapsed), None if terms is None else unpack_term_weights(terms))


def _html_doc(state: SiteState, source: str, html: str) -> Part:
    """A page's Doc from its output's `<main>` (or whole body): what the CV and publications layouts show."""
    start, end = html.find("<main"), html.rfind("</main>")
    body = html[html.find(">", start) + 1:end] if 0 <= start < end else html
    for name in _HIDDEN:
        body = _drop_elements(body, name)
    return _part(_doc(state, source, plain_text(body)))


def _drop_elements(html: str, name: str) -> str:
    """`html` without the `<name ...>...</name>` elements (not nested; linear: each is found once)."""
    out, at = [], 0
    while True:
        start = html.find(f"<{name}", at)
        end = html.find(f"</{name}>", start) if start >= 0 else -1
        if end < 0:
            out.append(html[at:])
            return " ".join(out)
        out.append(html[at:start])
        at = end + len(name) + 3


def _part(doc: Doc, text_weights: dict[str, int] | None = None) -> Part:
    """A page's part of the index: its result file, its language and its terms' weights (`text_weights`: of
    `doc.text`, when the render workers made them)."""
    return (_dump({"u": doc.url, "t": doc.title, "d": doc.date, "l": doc.lang, "x": doc.text[:TEXT_CHARS]}),
            doc.lang, weights_of(doc, text_weights))


def weights_of(doc: Doc, text_weights: dict[str, int] | None = None) -> dict[str, int]:
    """Each term's weight in a page: times it occurs in the text and keywords (at most 7), + 8 if it is in the
    title."""
    weights = dict(term_weights(doc.text) if text_weights is None else text_weights)
    for term in index_terms(doc.keywords):
        weights[term] = min(weights.get(term, 0) + 1, 7)
    for term in set(index_terms(doc.title)):
        weights[term] = weights.get(term, 0) + 8
    return weights


def terms_of(text: str) -> list[str]:
    """The index terms of a text (`sitegen.content.text.index_terms`)."""
    return index_terms(text)


def _key(term: str, length: int) -> str:
    """A term's shard key: its first `length` characters (0: the top level, two, or one for a CJK term)."""
    if length == 0:
        return term[:1] if is_cjk(term[0]) else term[:2]
    return term[:length]


def shard_name(key: str) -> str:
    """A shard key as a file name: ASCII letters and digits as they are, any other character `_<hex>_` (ended, so
    that no two keys share a name: `_<hex>` made "д1" and "䍁" both `_4341`)."""
    return "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):x}_" for c in key)


def shard_files(fragments: list[bytes], pages: Iterable[tuple[str, dict[str, int]]], bundles: list[int]
                ) -> dict[str, bytes]:
    """The packs of shards and `meta.json` over the pages' result files and (language, term weights), in page
    order (page ids are positions), and the number of pages in each bundle of result files."""
    # Each posting is gathered as page * 16 + weight (one dict lookup per term of a page: this loop runs a
    # million times at 10,000 pages), then encoded relative to the term's previous page (`_deltas`).
    postings: collections.defaultdict[str, list[int]] = collections.defaultdict(list)
    doc_langs: list[str] = []
    for number, (lang, weights) in enumerate(pages):
        doc_langs.append(lang)
        base = number * 16
        for term, weight in weights.items():
            postings[term].append(base + weight)
    encoded = {term: _encode(_deltas(values)) for term, values in postings.items()}
    shards: dict[str, dict[str, str]] = {}
    _split(sorted(encoded), encoded, 0, shards)
    keys = sorted(shards)
    # A pack is `{` + `"key":shard` joined by `,` + `}`: each member counts its comma, the limit the braces.
    members = [_dump(key) + b":" + _dump(shards[key]) for key in keys]
    packs = _runs([(key.encode(), len(member) + 1) for key, member in zip(keys, members, strict=True)],
                  PACK_BYTES - 1, PACK_RUN)
    files: dict[str, bytes] = {}
    first = 0
    for count in packs:
        files[f"{INDEX_DIR}t/{shard_name(keys[first])}.json"] = b"{" + b",".join(members[first:first + count]) + b"}"
        first += count
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + files[path])
    for fragment in fragments:
        digest.update(fragment)
    langs = sorted(set(doc_langs))
    files[f"{INDEX_DIR}meta.json"] = _dump({
        "v": VERSION, "h": digest.hexdigest()[:12], "n": len(doc_langs), "langs": langs,
        "doclang": "".join(_B36[min(langs.index(lang), 35)] for lang in doc_langs), "keys": keys,
        "packs": "".join(_B36[n] for n in packs), "docs": "".join(_B36[n] for n in bundles)})
    return files


def _runs(members: list[tuple[bytes, int]], limit: int, every: int) -> list[int]:
    """The lengths of consecutive runs of `members` ((identity, size) each), in order: a run ends where the next
    member would take it over `limit` bytes, after `MAX_RUN` members, or after a member whose identity hashes to
    0 modulo `every`. Those last boundaries do not depend on sizes, so runs ending there stay as they are when a
    member elsewhere grows or shrinks."""
    out: list[int] = []
    count = size = 0
    for identity, member_size in members:
        if count and (size + member_size > limit or count == MAX_RUN):
            out.append(count)
            count = size = 0
        count += 1
        size += member_size
        if zlib.crc32(identity) % every == 0:
            out.append(count)
            count = size = 0
    if count:
        out.append(count)
    return out


_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _b36(value: int) -> str:
    out = ""
    while True:
        value, digit = divmod(value, 36)
        out = _B36[digit] + out
        if not value:
            return out


_SHORT = [_b36(v) for v in range(36 ** 2)]


def _deltas(values: list[int]) -> list[int]:
    """Postings `page * 16 + weight` as `(page - the previous page) * 16 + weight` (the first one as it is).
    A weight is below 16 (at most 7 for the text, + 8 for the title), so `previous & -16` is its page * 16."""
    if len(values) == 1:
        return values
    return [values[0], *[value - (previous & -16) for previous, value in itertools.pairwise(values)]]


def _encode(values: list[int]) -> str:
    """Encoded postings (`(page delta) * 16 + weight`) as `.`-joined base-36 numbers."""
    try:
        return ".".join(map(_SHORT.__getitem__, values))
    except IndexError:  # a delta of 81 pages or more
        return ".".join(_SHORT[v] if v < 1296 else _b36(v) for v in values)


def _split(terms: list[str], encoded: dict[str, str], length: int, shards: dict[str, dict[str, str]]) -> None:
    """Group sorted `terms` into shards by their first `length` characters, splitting large groups further."""
    groups: dict[str, list[str]] = {}
    for term in terms:
        groups.setdefault(_key(term, length), []).append(term)
    for key, members in groups.items():
        size = sum(len(t) + len(encoded[t]) + 6 for t in members)
        longer = [t for t in members if len(t) > len(key)]
        if size <= SHARD_BYTES or not longer or len(key) >= MAX_TERM:
            shards[key] = {t: encoded[t] for t in members}
            continue
        short = [t for t in members if len(t) <= len(key)]
        if short:
            shards[key] = {t: encoded[t] for t in short}
        _split(longer, encoded, len(key) + 1, shards)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)
"""What json.dumps makes with these options, without making an encoder per call (once per page and shard)."""


def _dump(value: object) -> bytes:
    return _ENCODER.encode(value).encode("utf-8")
