"""Compiled templates: kept in the user's folder so that a cold build loads the theme rather than compile it, and
never holding one environment's or one site's results of filters (Jinja computes a filter of constants as it
compiles, unless the filter takes the context)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from sitegen.build import BuildOptions, build_site
from sitegen.memo import BuildMemo
from sitegen.templates import MemoBytecodeCache, environment_signature

MakeSite = Callable[..., Path]

SITE = {
    "sitegen.yaml": "title: Shared\nbase_url: https://example.org/sub/\n",
    "content/about.md": "---\ntitle: About\n---\nHello.\n",
    "content/posts/one.md": "---\ntitle: One\ndate: 2024-01-01\ntags: [x]\n---\nFirst.\n",
}
CONSTANTS = "{{ '**bold**' | markdownify }}|{{ '/x.css' | url }}|{{ '/y' | absurl }}|{{ page.content }}"


@pytest.fixture
def shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's cache folder, empty, in the test's own folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("SITEGEN_TEMPLATE_CACHE", raising=False)
    return tmp_path / "xdg" / "sitegen" / "templates"


def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from now on."""
    names: list[str] = []
    original = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: str, name: str | None = None, *args: object,
                 **kwargs: object) -> object:
        names.append(name or "")
        return original(self, source, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return names


def test_a_cold_build_loads_the_theme_the_last_one_compiled(make_site: MakeSite, shared: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(SITE, layouts=False)
    first_compiles = compiles(monkeypatch)
    first = build_site(BuildOptions(source=site, jobs=1), BuildMemo()).files
    assert len(first_compiles) > 20  # the default theme's layouts and partials
    assert len(list(shared.glob("*.jbc"))) == len(set(first_compiles))
    first_compiles.clear()
    again = build_site(BuildOptions(source=site, jobs=1), BuildMemo()).files  # no memo: a cold build
    assert first_compiles == []
    assert again == first


def test_a_broken_entry_is_compiled_again(make_site: MakeSite, shared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(SITE, layouts=False)
    first = build_site(BuildOptions(source=site, jobs=1), BuildMemo()).files
    entries = sorted(shared.glob("*.jbc"))
    for entry in entries:
        entry.write_bytes(b"j2 not a template")
    names = compiles(monkeypatch)
    assert build_site(BuildOptions(source=site, jobs=1), BuildMemo()).files == first
    assert len(names) == len(entries)
    assert all(entry.read_bytes() != b"j2 not a template" for entry in entries)  # written again, whole


def test_another_configuration_compiles_its_own(make_site: MakeSite, shared: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site({**SITE, "layouts/page.html": CONSTANTS}, layouts=False)
    first = build_site(BuildOptions(source=site, jobs=1), BuildMemo()).files
    assert first["about/index.html"].decode() == (
        "<p><strong>bold</strong></p>\n|/sub/x.css|https://example.org/sub/y|<p>Hello.</p>\n")
    (site / "sitegen.yaml").write_text("title: Shared\nbase_url: https://other.example/\n")
    names = compiles(monkeypatch)
    moved = build_site(BuildOptions(source=site, jobs=1), BuildMemo()).files
    assert names  # nothing of the other configuration's is used
    assert moved["about/index.html"].decode() == "<p><strong>bold</strong></p>\n|/x.css|https://other.example/y|" \
                                                 "<p>Hello.</p>\n"


def test_filters_of_constants_are_called_as_pages_render(make_site: MakeSite, shared: Path) -> None:
    # The template syntax check compiles the site's layouts with no Markdown renderer; its code was once kept in
    # the memo and used for the pages, which then showed `**bold**`.
    site = make_site({**SITE, "layouts/page.html": CONSTANTS}, layouts=False)
    memo = BuildMemo()
    for _ in range(2):  # the second build loads the compiled layout from the memo
        page = build_site(BuildOptions(source=site, jobs=1), memo).files["about/index.html"].decode()
        assert page.startswith("<p><strong>bold</strong></p>\n|/sub/x.css|")


def test_no_shared_folder_when_turned_off(make_site: MakeSite, shared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_TEMPLATE_CACHE", "0")
    build_site(BuildOptions(source=make_site(SITE, layouts=False), jobs=1), BuildMemo())
    assert not shared.exists()


def test_signature_follows_what_the_code_depends_on() -> None:
    def env(**options: object) -> jinja2.Environment:
        made = jinja2.Environment(**options)  # type: ignore[arg-type]
        made.filters["site"] = lambda value: value
        return made

    base = environment_signature(env())
    assert environment_signature(env()) == base
    assert environment_signature(env(trim_blocks=True)) != base
    assert environment_signature(env(autoescape=True)) != base
    with_context = env()
    with_context.filters["site"] = jinja2.pass_context(lambda context, value: value)
    assert environment_signature(with_context) != base
    more = env()
    more.filters["other"] = lambda value: value
    assert environment_signature(more) != base


def test_shared_folder_is_pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MemoBytecodeCache, "SHARED_LIMIT", 4)
    folder = tmp_path / "templates"
    env = jinja2.Environment(loader=jinja2.DictLoader({f"t{i}.html": f"t{i}" for i in range(9)}),
                             bytecode_cache=MemoBytecodeCache(BuildMemo(), folder))
    for i in range(9):
        env.get_template(f"t{i}.html")
        assert len(list(folder.glob("*.jbc"))) <= 4
    assert list(folder.glob(".jbc-*")) == []  # no temporary file left
