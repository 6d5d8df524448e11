"""Safe YAML loading with YAML 1.2 core-schema scalars, fast (libyaml when present) and bounded.

PyYAML resolves YAML 1.1 scalars: `no` becomes False, `010` becomes 8, `1.10` becomes 1.1. Users expect what
they wrote: only `true`/`false` are booleans, and a number stays a number only when writing it back gives the
same text (so `1.10`, `010` and `1e3` stay strings). Dates (`2024-03-01`, `2024-03-01T10:00:00+08:00`) are
resolved as dates. Aliases are expanded lazily by PyYAML; `check_size` bounds the expanded size so that an
alias bomb is rejected instead of exhausting memory downstream.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any, TypeVar

import yaml

from sitegen.errors import SitegenError
from sitegen.inputlimits import check_input

_BaseLoader: type[yaml.SafeLoader]
try:
    _BaseLoader = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - libyaml missing
    _BaseLoader = yaml.SafeLoader

MAX_NODES = 200_000
"""The most scalars and collections a document's aliases may add (each use of an alias counts its size)."""


class Yaml12Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """A safe loader whose implicit scalars follow YAML 1.2 core (minus lossy numbers)."""


Yaml12Loader.yaml_implicit_resolvers = {}

_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(?:[0-9]+\.[0-9]+)$")
_TIMESTAMP = re.compile(
    r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
     (?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
     (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""",
    re.X,
)

Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                   list("tTfF"))
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"),
                                   ["~", "n", "N", ""])
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:int", _INT, list("-+0123456789"))
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-+0123456789"))
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:timestamp", _TIMESTAMP, list("0123456789"))
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])


def _construct_float(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> float | str:
    """A float only when it round-trips (`1.5`), else the text as written (`1.10`)."""
    text = str(loader.construct_scalar(node))
    value = float(text)
    return value if repr(value) == text.lstrip("+") else text


def _construct_bool(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> bool:
    return str(loader.construct_scalar(node)).lower() == "true"


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    return int(str(loader.construct_scalar(node)))


def _construct_timestamp(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    """A date or datetime; an impossible one (`2024-13-01`) stays text for the caller to report with its place."""
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError:
        return str(loader.construct_scalar(node))


Yaml12Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
Yaml12Loader.add_constructor("tag:yaml.org,2002:float", _construct_float)
Yaml12Loader.add_constructor("tag:yaml.org,2002:bool", _construct_bool)
Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def load_yaml(text: str) -> Any:
    """Parse one YAML document safely; raises yaml.YAMLError (with marks) on bad input or alias bombs.

    Raises InputLimitError (a ValueError, with a position) for nesting too deep to parse safely.
    """
    check_input(text, "yaml")
    loader = Yaml12Loader(text)  # what yaml.load does, with a shorter way from the node tree to the value
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        try:
            return _construct_plain(loader, node, set(), 0)  # no alias: nothing for check_size to count
        except _NotPlain:
            data = loader.construct_document(node)
    finally:
        loader.dispose()
    check_size(data)
    return data


class _NotPlain(Exception):
    """The document uses more of YAML than `_construct_plain` builds (PyYAML's constructor builds it)."""


_PLAIN_SCALARS = frozenset(f"tag:yaml.org,2002:{name}" for name in ("str", "null", "bool", "int", "float", "timestamp"))
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_SPECIAL_KEYS = frozenset({"tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"})


def _construct_plain(loader: yaml.SafeLoader, node: yaml.Node, seen: set[int], depth: int) -> Any:
    """The value PyYAML's constructor makes of a tree of plain mappings, sequences and scalars, in a third of its
    time (front matter is parsed for every page of a site); `_NotPlain` for anything else: aliases, merge keys,
    explicit tags, unhashable keys, nesting deeper than check_size allows. Scalars go through the very
    constructors the loader has registered, so each value is the same."""
    if depth > 200:
        raise _NotPlain
    kind = type(node)
    if kind is yaml.ScalarNode:
        if node.tag not in _PLAIN_SCALARS:
            raise _NotPlain
        return loader.yaml_constructors[node.tag](loader, node)
    if id(node) in seen:  # an alias: the same object again, as PyYAML makes it (and check_size counts it)
        raise _NotPlain
    seen.add(id(node))
    if kind is yaml.SequenceNode and node.tag == _SEQ:
        return [_construct_plain(loader, child, seen, depth + 1) for child in node.value]
    if kind is yaml.MappingNode and node.tag == _MAP:
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag in _SPECIAL_KEYS:
                raise _NotPlain
            key = _construct_plain(loader, key_node, seen, depth + 1)
            if not isinstance(key, Hashable):  # PyYAML's error, with its marks
                raise _NotPlain
            mapping[key] = _construct_plain(loader, value_node, seen, depth + 1)
        return mapping
    raise _NotPlain


def check_size(data: Any, limit: int = MAX_NODES) -> None:
    """Reject documents whose aliases expand to more than `limit` extra nodes (billion-laughs protection).

    Only what aliases add is counted (a collection used again through `*name` counts its whole size each
    time): a long ordinary file, however many lines it has, is never refused.
    """
    sizes: dict[int, int] = {}
    expanded = 0

    def size(obj: Any, depth: int) -> int:
        nonlocal expanded
        if depth > 200:
            raise yaml.YAMLError("YAML nesting is deeper than 200 levels")
        if isinstance(obj, dict):
            children: Any = list(obj.keys()) + list(obj.values())
        elif isinstance(obj, list):
            children = obj
        else:
            return 1
        key = id(obj)
        if key in sizes:  # the same object again: an alias
            expanded += sizes[key]
            if expanded > limit:
                raise yaml.YAMLError(f"YAML aliases expand to more than {limit} nodes (an alias bomb?)")
            return sizes[key]
        total = 1
        for child in children:
            total += size(child, depth + 1)
        sizes[key] = total
        return total

    size(data, 0)


ErrorType = TypeVar("ErrorType", bound=SitegenError)


def yaml_error(exc: yaml.YAMLError, kind: type[ErrorType], what: str, path: str, *, first_line: int = 1,
               hint: str | None = "check indentation and quoting") -> ErrorType:
    """The one conversion of a YAML parse failure into sitegen's error: `invalid <what>: <problem>` at the
    problem's line and column, with where the enclosing construct began as a cause.

    `first_line` is the file line of the YAML text's first line (2 for front matter after `---`).
    """
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    causes = [f"{context} started on line {context_mark.line + first_line}"] if context and context_mark else []
    return kind(f"invalid {what}: {problem}", path=path, line=mark.line + first_line if mark else None,
                col=mark.column + 1 if mark else None, causes=causes, hint=hint)
