"""The one door to caching: every cache key, and the memo that stores what one build hands to the next (the
dev server keeps one in memory; `sitegen.cache` stores one on disk).

The pipeline calls pure functions; the memo wraps them from outside (`memo.page(rel, text, parse)`,
`memo.blob(key, make)`). Entries are keyed by content, never by time or `repr()`: a key is a digest of
declared inputs (file texts, the configuration, page metadata, sitegen's version) written out canonically by
`stable`. A page is reused only when its file's bytes are the same, and rendered Markdown only when the text,
its position and every link it resolved still resolve the same way. Memoised records are never changed
after they are stored.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any, NamedTuple

import sitegen
from sitegen.config import SiteConfig
from sitegen.content.page import Page
from sitegen.markdown import Rendered


def digest(data: bytes | str) -> str:
    """A short content hash."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def stable(value: Any) -> str:
    """Canonical text of a key's inputs: JSON of plain values, dataclasses field by field, dates in ISO form.

    Anything else is a TypeError: a key is made of declared inputs, never of `repr()` (whose text may change
    with a library version, or show an object's address).
    """
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError):  # keys that JSON cannot take (dates, numbers as YAML keys): slower, exact
        return _ENCODER.encode(_exact(value))


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"~": type(value).__name__, **{f.name: getattr(value, f.name) for f in dataclasses.fields(value)}}
    if isinstance(value, dt.date | dt.time):
        return {"~date": value.isoformat()}
    if isinstance(value, PurePath):
        return value.as_posix()
    if isinstance(value, bytes | bytearray):  # YAML `!!binary`
        return {"~bytes": digest(bytes(value))}
    if isinstance(value, set | frozenset):
        return sorted(value, key=stable)
    raise TypeError(f"not a declared cache input: {type(value).__name__}")


_ENCODER = json.JSONEncoder(default=_plain, ensure_ascii=False, separators=(",", ":"))
"""One encoder for every key (json.dumps with options would make a new one per call)."""


def _exact(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {"~map": [[_exact(k), _exact(v)] for k, v in value.items()]}
    if isinstance(value, list | tuple):
        return [_exact(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return _exact(_plain(value))


@functools.cache
def code_version() -> str:
    """sitegen's version and a digest of its own code, read once per process: a memo or build cache written by
    other code (a development install between two releases, a fork) is never reused."""
    root = Path(sitegen.__file__).parent
    h = hashlib.blake2b(sitegen.__version__.encode(), digest_size=16)
    for path in sorted(root.rglob("*.py")):
        h.update(b"\x00" + path.relative_to(root).as_posix().encode() + b"\x00" + path.read_bytes())
    return f"{sitegen.__version__}+{h.hexdigest()}"


def user_cache_dir() -> Path:
    """Where sitegen keeps what outlives one site's build cache, for this user: the cache's signing secret and the
    compiled default theme (`$XDG_CACHE_HOME/sitegen`, else `~/.cache/sitegen`)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sitegen"


def config_key(config: SiteConfig, dialect: str = "sitegen") -> str:
    """Everything that changes how pages parse and render: the configuration, the site's dialect and sitegen's
    code (`code_version`)."""
    return digest(f"{code_version()}\x00{dialect}\x00{stable(config)}")


_PAGE_FIELDS = tuple(f.name for f in dataclasses.fields(Page) if f.name != "body")
"""Page's fields in declaration order, but its body: a page's metadata."""


def page_meta_key(source: str, url: str | None, page: Page) -> str:
    """A page's URL and metadata: every field but its body."""
    return digest(f"{source}\x00{url}\x00{stable([getattr(page, name) for name in _PAGE_FIELDS])}")


def body_key(body: str) -> str:
    """A page's Markdown body."""
    return digest(body)


def site_inputs_key(config: str, data: Any, cvs: list[Any], publications: list[Any],
                    build_date: dt.datetime | None, upcoming: list[str] | None = None) -> str:
    """What every template may read besides pages: data files, CVs, publications, the build date and which
    talks are still to come."""
    return digest("\x00".join([config, stable(data), stable(cvs), stable(publications), stable(build_date),
                               stable(upcoming or [])]))


def files_key(roots: list[Path]) -> str:
    """Every file under these folders (templates), by path and content."""
    parts: list[str] = []
    for root in roots:
        if root.is_dir():
            for path in sorted(root.rglob("*")):
                if path.is_file():
                    parts.append(f"{root}:{path.relative_to(root).as_posix()}:{digest(path.read_bytes())}")
    return digest("\n".join(parts))


MISSING = "missing"
"""`template_key` of a name no template file has."""


def template_key(filename: str | None, source: str | None) -> str:
    """What a template name resolves to: the file found and its text (both None: no such template, `MISSING`; a
    filename of None with a text: the error that reading it gave)."""
    if filename is None:
        return MISSING if source is None else f"error:{digest(source)}"
    return digest(f"{filename}\x00{source}")


def key_of(kind: str, *inputs: Any) -> str:
    """A memo key for a derived file (`pdf`, `feed`, `search`, ...) from its declared inputs."""
    return f"{kind}:{digest(stable(inputs))}"


@dataclass
class MarkdownEntry:
    """Rendered Markdown and the link decisions it was made with."""

    rendered: Rendered
    links: tuple[tuple[str, str | None], ...]


@dataclass
class OutputEntry:
    """The files one page rendered, and what they were rendered from."""

    key: str
    """Digest of everything site-wide the render could read (config, templates, data, every page's metadata)."""
    deps: tuple[tuple[str, str], ...]
    """(page source, body digest) of every page whose content the render read."""
    files: dict[str, bytes]
    source: str = ""
    """The page whose output this is."""
    templates: tuple[tuple[str, str], ...] = ()
    """(template name, `template_key` it resolved to) of every template the render loaded or looked for: the
    layout and its candidates, what it extends, includes and imports."""
    fragments: tuple[Fragment, ...] = ()
    """The included templates' texts in its file, for the next render of the unit to reuse (recorded only when
    `BuildMemo.fragments` is on)..."""
    spans: Sequence[int] = ()
    """... each one's start and end in the decoded file, one after the other (an `array`: no object each)."""
    blocks: BlockPlaces | None = None
    """Where the text of each call of its layouts' blocks is in the decoded file, recorded with `fragments`; None
    when not recorded."""
    literals: Literals | None = None
    """With `blocks`: the key (`sitegen.templates.Literal.key`) of each literal text of its layouts that went
    straight into the file, and where each starts, in the decoded file and in its bytes (an edit of those texts
    alone is made in the file: `sitegen.blockedits.Splice.patch`)."""
    recorded: bool = False
    """Whether `fragments` and `blocks` were recorded (fragments may be empty: a file with no include): by its
    render, or afterwards by `sitegen.render_pages.FragmentRecorder` (the dev server records them while idle, not
    in its full builds; a quick rebuild records block places only where it made a page from its edited blocks)."""


class Fragment(NamedTuple):
    """What an included template (`{% include %}`, with the including template's variables) rendered as part of
    an output unit, and what that text was made from: a later render of the unit may reuse it while every one of
    these still holds (`sitegen.templates.Fragments`)."""

    name: str
    """The included template."""
    context: tuple[Any, ...]
    """The variables it was given, as a key (`sitegen.views.context_key`)."""
    templates: tuple[tuple[str, str], ...]
    """(name, `template_key`) of every template its render loaded or looked for, itself included."""
    reads: tuple[tuple[str, str], ...]
    """(page source, body digest) of every page whose content its render read."""


BlockPlaces = tuple[tuple[str, int, int, int], ...]
Literals = tuple[tuple[tuple[str, int], ...], Sequence[int], Sequence[int]]
"""(the key of each literal text in an output, in order; where each starts in the decoded file; where each starts
in the file's bytes): `OutputEntry.literals`."""
"""(block name, start, end, depth) of each call of a page's block in the decoded output, in the order the calls
began (a call inside another one is deeper by one); -1, -1 for a call whose text was not placed (captured, scoped,
or inside a text that was joined on its own): `sitegen.templates.BlockCalls`."""


MemoUse = tuple[frozenset[tuple[str, str]], frozenset[tuple[str, int, str]], frozenset[str]]
"""Keys of the parsed pages, rendered Markdown and blobs one build used (what the dev server keeps)."""


@dataclass
class BuildMemo:
    """What one build can hand to the next."""

    config_key: str = ""
    """Digest of everything that changes how pages parse and render (config, sitegen version)."""
    pages: dict[tuple[str, str], Page] = field(default_factory=dict)
    """(content path, text digest) -> parsed page."""
    markdown: dict[tuple[str, int, str], MarkdownEntry] = field(default_factory=dict)
    """(text digest, body line, page source) -> rendered Markdown."""
    outputs: dict[str, OutputEntry] = field(default_factory=dict)
    """Page source -> its rendered files."""
    blobs: dict[str, bytes] = field(default_factory=dict)
    """Expensive derived files by input digest (CV PDFs)."""
    used_pages: set[tuple[str, str]] = field(default_factory=set)
    used_markdown: set[tuple[str, int, str]] = field(default_factory=set)
    used_outputs: set[str] = field(default_factory=set)
    used_blobs: set[str] = field(default_factory=set)
    dirty: bool = True
    """Whether this build added anything (a clean warm build need not rewrite the cache)."""
    rendered: list[str] = field(default_factory=list, repr=False)
    """Output units rendered (not reused) since the build began, in order (build statistics and tests)."""
    _readers: dict[str, set[str]] | None = field(default=None, repr=False)
    """Page source -> output units that read its content (a superset; see `units_reading`)."""
    transient: dict[str, Any] = field(default_factory=dict, repr=False)
    """What a generator keeps for the next build in this process (the dev server); never in the build cache."""
    languages: dict[str, BuildMemo] = field(default_factory=dict, repr=False)
    """The memo of each other language of a multilingual site (their pages share sources: `about.md`)."""
    memory_only: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    """The blobs never written into the build cache (`blob(..., in_cache=False)`): key -> the keys of its parts."""
    _making: list[set[str]] = field(default_factory=list, repr=False)
    """The parts of each memory-only blob being made (the innermost last)."""
    fragments: bool = False
    """Record what included templates render (`OutputEntry.fragments`), so that a template edit renders again
    only what changed (the dev server; a one-off build has no later render to reuse them)."""

    def language(self, key: str) -> BuildMemo:
        """The memo of one more language of the site (made on first use)."""
        memo = self.languages.setdefault(key, BuildMemo())
        memo.fragments = self.fragments  # (a memo read from the build cache is given it after it is read)
        return memo

    def begin(self, config_key: str) -> None:
        """Start a build: forget everything when the configuration changed."""
        if config_key != self.config_key:
            self.pages.clear()
            self.markdown.clear()
            self.outputs.clear()
            self.blobs.clear()  # summaries, feeds, search entries and PDFs depend on the config too
            self.memory_only.clear()
            self.transient.clear()
            self.config_key = config_key
        for used in (self.used_pages, self.used_markdown, self.used_outputs, self.used_blobs):
            used.clear()
        self.rendered = []
        self.dirty = False

    def finish(self) -> None:
        """End a build: drop entries it did not use, so memory follows the site.

        Dropping alone does not make the memo dirty: entries are keyed by content, so a cache file that still
        holds a few unused ones is as correct as a pruned one, and a warm build need not rewrite it.
        """
        self.pages = {k: v for k, v in self.pages.items() if k in self.used_pages}
        self.markdown = {k: v for k, v in self.markdown.items() if k in self.used_markdown}
        self.outputs = {k: v for k, v in self.outputs.items() if k in self.used_outputs}
        self._readers = None
        self.blobs = {k: v for k, v in self.blobs.items() if k in self.used_blobs}
        self.memory_only = {k: v for k, v in self.memory_only.items() if k in self.blobs}

    def cached_output(self, source: str, key: str, body_digest: Callable[[str], str | None],
                      templates_unchanged: Callable[[tuple[tuple[str, str], ...]], bool] | None = None
                      ) -> dict[str, bytes] | None:
        """A page's files from an earlier build, when nothing they were rendered from has changed
        (`templates_unchanged`: whether every template the render used still resolves to the same file and text;
        see `OutputEntry.templates`)."""
        self.used_outputs.add(source)
        entry = self.outputs.get(source)
        if entry is None or entry.key != key:
            return None
        if any(body_digest(dep) != dig for dep, dig in entry.deps):
            return None
        if templates_unchanged is not None and not templates_unchanged(entry.templates):
            return None
        return entry.files

    def store_output(self, unit: str, key: str, deps: tuple[tuple[str, str], ...],
                     files: dict[str, bytes], page: str = "", templates: tuple[tuple[str, str], ...] = (),
                     fragments: tuple[Fragment, ...] = (), spans: Sequence[int] = (),
                     blocks: BlockPlaces | None = None, literals: Literals | None = None) -> None:
        """Remember an output unit's files, what they depend on (pages' content, templates), the page they
        belong to, the included templates' texts in them and the places of its blocks and literal texts."""
        self.used_outputs.add(unit)
        self.dirty = True
        self.rendered.append(unit)
        self.outputs[unit] = OutputEntry(key, deps, files, page or unit, templates, fragments, spans, blocks,
                                         literals if blocks is not None else None,
                                         self.fragments and blocks is not None)
        if self._readers is not None:
            for dep, _ in deps:
                self._readers.setdefault(dep, set()).add(unit)

    def add_fragments(self, unit: str, entry: OutputEntry, fragments: tuple[Fragment, ...],
                      spans: Sequence[int], blocks: BlockPlaces | None = None, literals: Literals | None = None
                      ) -> None:
        """Give a stored unit the included templates' texts of its file and its blocks' and literal texts' places,
        recorded by rendering it again (the entry is replaced, not changed; nothing else about the unit changes)."""
        self.outputs[unit] = dataclasses.replace(entry, fragments=fragments, spans=spans, blocks=blocks,
                                                 literals=literals if blocks is not None else None, recorded=True)

    def units_reading(self, sources: set[str]) -> set[str]:
        """Output units whose recorded dependencies include the content of any of these pages."""
        if self._readers is None:  # made on first use, then kept up to date by store_output
            self._readers = {}
            for unit, entry in self.outputs.items():
                for dep, _ in entry.deps:
                    self._readers.setdefault(dep, set()).add(unit)
        found = set().union(*(self._readers.get(s, ()) for s in sources))
        return {u for u in found if u in self.outputs and any(dep in sources for dep, _ in self.outputs[u].deps)}

    def units_using_changed_templates(self, templates_unchanged: Callable[[tuple[tuple[str, str], ...]], bool]
                                      ) -> set[str]:
        """Output units that loaded (or looked for) a template name that no longer resolves as it did."""
        return {unit for unit, entry in self.outputs.items() if not templates_unchanged(entry.templates)}

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_readers"] = None  # derived; not worth a place in the build cache
        state["transient"] = {}
        state["rendered"] = []
        if self.memory_only:
            state["blobs"] = {k: v for k, v in self.blobs.items() if k not in self.memory_only}
            state["memory_only"] = {}
        state["_making"] = []
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("transient", {})  # caches written before these existed
        self.__dict__.setdefault("_readers", None)
        self.__dict__.setdefault("languages", {})
        self.__dict__.setdefault("rendered", [])
        self.__dict__.setdefault("fragments", False)
        self.__dict__.setdefault("memory_only", {})
        self.__dict__.setdefault("_making", [])

    def blob(self, key: str, make: Callable[[], bytes], *, in_cache: bool = True) -> bytes:
        """An expensive derived file, made once per distinct input.

        `in_cache=False`: kept in memory for this process's next build (the dev server's) but not written into the
        build cache, for a large file made quickly from memoized parts (a feed from its entries), which would make
        the cache slower to write and read than making it again. The blobs it was made from are its parts: each
        build that reuses it uses them too, so that the cache keeps them."""
        self.used_blobs.add(key)
        for parts in self._making:
            parts.add(key)
        if key in self.blobs:
            if key in self.memory_only:
                self.used_blobs.update(self.memory_only[key])
                for parts in self._making:  # reused while another is made: its parts are that one's too
                    parts.update(self.memory_only[key])
            return self.blobs[key]
        if in_cache:
            self.dirty = True
            self.blobs[key] = make()
            return self.blobs[key]
        self._making.append(set())
        try:
            made = make()
        finally:
            parts = self._making.pop()
        self.blobs[key], self.memory_only[key] = made, frozenset(parts)
        return made

    def page(self, rel: str, text: str, parse: Callable[[], Page]) -> Page:
        """The parsed page for this exact text (shared: later steps make changed copies, never change it)."""
        key = (rel, digest(text))
        self.used_pages.add(key)
        if key not in self.pages:
            self.dirty = True
            self.pages[key] = parse()
        return self.pages[key]

    def cached_markdown(self, source: str, body: str, body_line: int,
                        resolve: Callable[[str], str | None]) -> Rendered | None:
        """Rendered Markdown from an earlier build, if every link it resolved still resolves the same way."""
        key = (digest(body), body_line, source)
        self.used_markdown.add(key)
        entry = self.markdown.get(key)
        if entry is not None and all(resolve(href) == result for href, result in entry.links):
            return entry.rendered
        return None

    def store_markdown(self, source: str, body: str, body_line: int, rendered: Rendered,
                       links: tuple[tuple[str, str | None], ...]) -> None:
        """Remember a rendering and the link decisions it was made with."""
        key = (digest(body), body_line, source)
        self.used_markdown.add(key)
        self.dirty = True
        self.markdown[key] = MarkdownEntry(rendered, links)

