"""load_yaml builds plain documents (front matter) itself, and gives exactly what PyYAML's constructor gives."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from sitegen.yamlload import Yaml12Loader, check_size, load_yaml

DOCUMENTS = [
    'title: "Debugging"\ndate: 2017-09-30T07:37:00+00:00\ncategories: [Life]\ntags: [cloud, writing]\ndraft: false\n',
    "a: 1\nb: 1.5\nc: 1.10\nd: 010\ne: 1e3\nf: yes\ng: no\nh: ~\ni: null\nj: True\nk: FALSE\nl: ''\nm:\n",
    "date: 2024-03-01\nbad: 2024-13-01\nwhen: 2024-03-01 10:00:00\nneg: -3\nplus: +2.5\n",
    "nested:\n  - {a: [1, 2, {b: c}]}\n  - - x\n    - y\nempty: {}\nnone: []\n",
    "? [complex, key]\n: value\n",
    "base: &b {x: 1}\nuse: *b\nagain: *b\n",
    "base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2\n",
    "s: !!str 123\nf: !!float 3\nbin: !!binary aGVsbG8=\nset: !!set {a, b}\n",
    "omap: !!omap [a: 1, b: 2]\npairs: !!pairs [a: 1, a: 2]\n",
    "= : equals\nother: 1\n",
    "dup: 1\ndup: 2\n",
    "1: one\n2024-01-01: a date key\ntrue: t\nnull: n\n",
    "a: &s scalar\nb: *s\n",
    "- just\n- a list\n",
    "plain text\n",
    "",
    "# only a comment\n",
    "deep: " + "[" * 50 + "]" * 50 + "\n",
    "unicode: 论文笔记 ✓\nmultiline: |\n  line one\n  line two\nfolded: >\n  one\n  two\n",
    "!custom tag\n",
    "{[a]: b}\n",
]


def reference(text: str) -> Any:
    """What load_yaml returned before it built documents itself."""
    data = yaml.load(text, Loader=Yaml12Loader)  # noqa: S506 - Yaml12Loader is a SafeLoader
    check_size(data)
    return data


def outcome(load: Any, text: str) -> tuple[str, Any]:
    try:
        value = load(text)
    except yaml.YAMLError as exc:
        return "error", (type(exc).__name__, str(exc))
    return "ok", (repr(value), _types(value))


def _types(value: Any) -> Any:
    if isinstance(value, dict):
        return [(_types(k), _types(v)) for k, v in value.items()]
    if isinstance(value, list | tuple | set):
        return [type(value).__name__, *(_types(v) for v in value)]
    return type(value).__name__


@pytest.mark.parametrize("text", DOCUMENTS)
def test_load_yaml_gives_what_pyyaml_gives(text: str) -> None:
    assert outcome(load_yaml, text) == outcome(reference, text)


def test_aliases_keep_sharing_one_object_and_bombs_are_still_refused() -> None:
    data = load_yaml("base: &b {x: 1}\nuse: *b\n")
    assert data["use"] is data["base"]
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(5))
    with pytest.raises(yaml.YAMLError, match="alias bomb"):
        load_yaml(bomb)


def test_plain_documents_are_built_without_pyyamls_constructor(monkeypatch: pytest.MonkeyPatch) -> None:
    def unused(*_args: object) -> None:
        raise AssertionError("PyYAML's constructor was used for a plain document")

    monkeypatch.setattr(Yaml12Loader, "construct_document", unused)
    assert load_yaml(DOCUMENTS[0])["tags"] == ["cloud", "writing"]
