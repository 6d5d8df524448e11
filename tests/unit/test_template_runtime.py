"""sitegen's shortcuts through Jinja's runtime (`sitegen.templates._Template`, `_quick_escape`) give what Jinja's own
code gives: the same contexts, the same imported modules, the same escaped text."""

from __future__ import annotations

import jinja2
import jinja2.runtime
import markupsafe
import pytest
from markupsafe import Markup

from sitegen.templates import TrackingEnvironment, _quick_escape


class _Html:
    def __html__(self) -> str:
        return "<b>safe</b>"


@pytest.mark.parametrize("value", ["", "plain", "<a href=\"x\">'&'</a>", "中文 & <>", Markup("<i>kept</i>"), 42, 1.5,
                                   None, _Html(), ["<list>"]])
def test_quick_escape_is_markupsafes_escape(value: object) -> None:
    quick, theirs = _quick_escape(value), markupsafe.escape(value)
    assert quick == theirs
    assert type(quick) is Markup


def _pair() -> tuple[jinja2.Environment, TrackingEnvironment]:
    templates = {
        "page.html": "{% set local = 'L' %}{% include 'part.html' %}|{% import 'lib.html' as lib with context %}"
                     "{{ lib.shout(title) }}|{% from 'lib.html' import shout %}{{ shout('<x>') }}",
        "part.html": "{{ title }}/{{ local }}/{{ site_name }}/{{ helper() }}",
        "lib.html": "{% macro shout(text) %}{{ text | upper }}!{{ site_name }}{% endmacro %}",
    }
    plain = jinja2.Environment(loader=jinja2.DictLoader(templates), autoescape=True)
    ours = TrackingEnvironment(loader=jinja2.DictLoader(templates), autoescape=True)
    for env in (plain, ours):
        env.globals.update(site_name="S&S", helper=lambda: "<h>")
    return plain, ours


def test_renders_as_jinja_renders() -> None:
    plain, ours = _pair()
    variables = {"title": "<T>"}
    assert ours.get_template("page.html").render(variables) == plain.get_template("page.html").render(variables)
    assert "&lt;T&gt;/L/S&amp;S/&lt;h&gt;" in ours.get_template("page.html").render(variables)


@pytest.mark.parametrize("shared", [False, True])
@pytest.mark.parametrize("local_vars", [None, {}, {"local": "L", "gone": jinja2.runtime.missing}])
def test_new_context_is_jinjas(shared: bool, local_vars: dict[str, object] | None) -> None:
    plain, ours = _pair()
    theirs_template, our_template = plain.get_template("part.html"), ours.get_template("part.html")
    variables = {"title": "t", "site_name": "over"}
    theirs = jinja2.Template.new_context(our_template, dict(variables), shared, local_vars)
    mine = our_template.new_context(dict(variables), shared, local_vars)
    assert type(mine) is type(theirs)
    assert list(mine.parent.items()) == list(theirs.parent.items())
    assert mine.globals_keys == theirs.globals_keys == set(ours.globals)
    assert mine.vars == theirs.vars and mine.name == theirs.name
    assert theirs_template.render(variables) == our_template.render(variables)


def test_import_with_context_makes_a_module_when_the_context_has_more_globals() -> None:
    _, ours = _pair()
    lib = ours.get_template("lib.html")
    context = ours.get_template("page.html").new_context({"title": "t"})
    assert lib._get_default_module(context) is lib._get_default_module(None)  # the same globals: the cached module
    context.globals_keys.add("extra")
    context.parent["extra"] = 1
    made = lib._get_default_module(context)
    assert made is not lib._get_default_module(None)
    assert str(made.shout("a")) == "A!S&amp;S"


def test_template_globals_of_its_own_take_jinjas_way() -> None:
    _, ours = _pair()
    template = ours.get_template("part.html", globals={"site_name": "own"})
    assert template.render(title="t", local="l") == "t/l/own/&lt;h&gt;"
    lib = ours.get_template("lib.html", globals={"only_here": 1})
    context = ours.get_template("page.html").new_context({"title": "t"})
    assert lib._get_default_module(context) is lib._get_default_module(None)
