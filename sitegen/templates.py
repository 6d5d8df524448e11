"""The Jinja2 environment: site layouts before theme layouts, strict undefined, URL helpers and filters."""

from __future__ import annotations

import array
import bisect
import contextlib
import datetime as dt
import hashlib
import itertools
import os
import tempfile
import traceback
import types
from collections import ChainMap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
import jinja2.compiler
import jinja2.nodes
import jinja2.utils
import markupsafe
from jinja2.runtime import missing
from markupsafe import Markup

import sitegen
from sitegen.config import SiteConfig
from sitegen.confine import ALLOW_HINT
from sitegen.content.urls import UrlHelper
from sitegen.errors import TemplateError
from sitegen.i18n import Strings, Translator
from sitegen.memo import MISSING, BlockPlaces, BuildMemo, Fragment, code_version, key_of, template_key, user_cache_dir

_ZH_MONTHS = "一二三四五六七八九十"


class MissingTemplate(TemplateError):
    """No template exists for a page (the message lists where sitegen looked)."""


def format_date(value: dt.datetime | dt.date | None, fmt: str = "%B %-d, %Y", lang: str = "en") -> str:
    """Format a date for a language: English month names (locale-independent), or `2024年3月10日` for zh/ja."""
    if value is None:
        return ""
    if lang.split("-")[0] in ("zh", "ja"):
        return f"{value.year}年{value.month}月{value.day}日"
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December"]
    fmt = fmt.replace("%B", months[value.month - 1]).replace("%b", months[value.month - 1][:3])
    fmt = fmt.replace("%-d", str(value.day)).replace("%-m", str(value.month))
    return value.strftime(fmt)


def context_reads(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a function that takes the render's context (`jinja2.pass_context`) as reading only these names from
    it (`context_names`)."""

    def mark(function: Callable[..., Any]) -> Callable[..., Any]:
        function.sitegen_context_reads = frozenset(names)  # type: ignore[attr-defined]
        return function

    return mark


def context_names(function: Any) -> frozenset[str] | None:
    """The names a function called from a template reads from the render's context: none when it does not take
    the context, those it is marked with (`context_reads`), else None (any name)."""
    if getattr(function, "jinja_pass_arg", None) is not jinja2.utils._PassArg.context:
        return frozenset()
    return getattr(function, "sitegen_context_reads", None)


def _page_lang(context: jinja2.runtime.Context) -> str | None:
    """The language of the page being rendered (its `lang`, else its site's), if the context has a page."""
    page = context.get("page")
    lang = getattr(page, "lang", None) if page is not None else None
    return lang if isinstance(lang, str) and lang else None


def isodate(value: dt.datetime | None) -> str:
    """RFC 3339 timestamp for `<time datetime>` and feeds."""
    return value.isoformat(timespec="seconds") if value else ""


class ConfinedLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that refuses a template whose links lead out of the folders it may read (the site, and
    each theme's own folder), so that `layouts/base.html -> /etc/passwd` is not published."""

    def __init__(self, searchpath: list[Path], roots: list[Path]) -> None:
        super().__init__([str(p) for p in searchpath])
        self.roots = [Path(os.path.realpath(r)) for r in roots]

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        """The template's source, after checking where its file really is."""
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except jinja2.TemplateNotFound:
            raise
        except OSError as exc:
            raise TemplateError(f"cannot read the template {template}: {exc.strerror or exc}",
                                path=exc.filename and str(exc.filename),
                                hint="check that it is a readable file") from None
        real = Path(os.path.realpath(filename))
        if not any(real.is_relative_to(root) for root in self.roots):
            raise TemplateError(f"a symbolic link to outside the site ({real})", path=filename,
                                hint=ALLOW_HINT)
        return source, filename, uptodate


def utf8_length(text: str) -> int:
    """The length of a text in UTF-8 (a lone surrogate counted as Python's `surrogatepass` writes it)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class Literal(str):
    """A template's literal text as its render yields it straight into the output: a text like any other, that a
    render recording its blocks' places also finds by its type (`BlockCalls.join`), so that an edit of that text
    alone can be made in the last output without rendering again (`sitegen.blockedits.Splice.patch`). One object
    for each run of literal text in a compiled template, made when the template is loaded."""

    key: tuple[str, int]
    """(the template's name, the run's number among the template's runs of literal text)."""


class IncludeCodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja's code generator, but an `{% include %}` with the including template's variables (the default)
    renders through `environment.render_include`, where a render may reuse the text it made last time; and a run
    of literal text that goes straight into the output is a `Literal` (one object, made when the module loads)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.literal_runs: list[tuple[str, bool, str | None]] = []
        """Each run of constant text the template outputs, in the order of its code: (the text, whether it is
        yielded straight into the output as a `Literal`, not gathered into a captured text: a macro's, a
        `{% set %}` block's, a filter block's; the block it is in, None at the template's top level)."""
        self.output_slots: dict[int, tuple[int, int]] = {}
        """{id of an output expression's node: (the number of the run of literal text just before it, of the run
        just after it)} for each expression yielded straight into the output between two runs of the same output
        tag (`<p>{{ x }}</p>`): its text is between their places in the page."""

    def visit_Template(self, node: jinja2.nodes.Template, frame: jinja2.compiler.Frame | None = None) -> None:
        """Jinja's module, then the `Literal` objects its functions yield (module globals: read when they run)."""
        super().visit_Template(node, frame)
        for number, (text, direct, _) in enumerate(self.literal_runs):
            if direct:
                self.writeline(f"_sitegen_literal_{number} = environment.literal({text!r}, {self.name!r}, {number})")

    def visit_Output(self, node: jinja2.nodes.Output, frame: jinja2.compiler.Frame) -> None:
        """Jinja 3.1's own output of text and expressions, with each run of constant text that is yielded
        straight into the output yielded as a `Literal` (the same text)."""
        if frame.require_output_check:
            if self.has_known_extends:
                return
            self.writeline("if parent_template is None:")
            self.indent()
        finalize = self._make_finalize()
        body: list[list[Any] | jinja2.nodes.Expr] = []
        for child in node.nodes:
            try:
                if not (finalize.const or isinstance(child, jinja2.nodes.TemplateData)):
                    raise jinja2.nodes.Impossible()
                const = self._output_child_to_const(child, frame, finalize)
            except (jinja2.nodes.Impossible, Exception):
                body.append(child)
                continue
            if body and isinstance(body[-1], list):
                body[-1].append(const)
            else:
                body.append([const])
        if frame.buffer is not None:
            self.writeline(f"{frame.buffer}.append(" if len(body) == 1 else f"{frame.buffer}.extend((")
            self.indent()
        for at, item in enumerate(body):
            if isinstance(item, list):
                text = str(jinja2.utils.concat(item))
                self.literal_runs.append((text, frame.buffer is None, frame.block))
                if frame.buffer is None and at + 2 < len(body) and isinstance(body[at + 2], list):
                    number = len(self.literal_runs) - 1  # (the expression after it, then the next run)
                    self.output_slots[id(body[at + 1])] = (number, number + 1)
                if frame.buffer is None:
                    self.writeline(f"yield _sitegen_literal_{len(self.literal_runs) - 1}")
                else:
                    self.writeline(self._output_const_repr(item) + ",")
            else:
                if frame.buffer is None:
                    self.writeline("yield ", item)
                else:
                    self.newline(item)
                self._output_child_pre(item, frame, finalize)
                self.visit(item, frame)
                self._output_child_post(item, frame, finalize)
                if frame.buffer is not None:
                    self.write(",")
        if frame.buffer is not None:
            self.outdent()
            self.writeline(")" if len(body) == 1 else "))")
        if frame.require_output_check:
            self.outdent()

    def visit_Include(self, node: jinja2.nodes.Include, frame: jinja2.compiler.Frame) -> None:
        """Jinja 3.1's own (sync) include, with `render_include` in place of `template.root_render_func`."""
        if not node.with_context or self.environment.is_async:
            super().visit_Include(node, frame)
            return
        if node.ignore_missing:
            self.writeline("try:")
            self.indent()
        func_name = "get_or_select_template"
        if isinstance(node.template, jinja2.nodes.Const):
            if isinstance(node.template.value, str):
                func_name = "get_template"
            elif isinstance(node.template.value, tuple | list):
                func_name = "select_template"
        elif isinstance(node.template, jinja2.nodes.Tuple | jinja2.nodes.List):
            func_name = "select_template"
        self.writeline(f"template = environment.{func_name}(", node)
        self.visit(node.template, frame)
        self.write(f", {self.name!r})")
        if node.ignore_missing:
            self.outdent()
            self.writeline("except TemplateNotFound:")
            self.indent()
            self.writeline("pass")
            self.outdent()
            self.writeline("else:")
            self.indent()
        self.writeline(f"gen = environment.render_include(template, context, {self.dump_local_context(frame)})")
        self.writeline("try:")
        self.indent()
        self.writeline("for event in gen:")
        self.indent()
        self.simple_write("event", frame)
        self.outdent()
        self.outdent()
        self.writeline("finally: gen.close()")
        if node.ignore_missing:
            self.outdent()

    def visit_Block(self, node: jinja2.nodes.Block, frame: jinja2.compiler.Frame) -> None:
        """Jinja 3.1's own (sync) block call, between the two texts of `environment.block_start` and `block_end`
        where the block's text goes straight into the output (empty texts; while a render records where each
        block's text is, `BlockCalls`, marks it finds); a call whose text is captured (`{% set %}...`, a filter, a
        macro) or given a scoped context is noted as a call whose text cannot be placed, then made as Jinja makes
        it."""
        placed = not node.scoped and frame.buffer is None and not self.environment.is_async
        if placed and not node.required:
            level = 0
            if frame.toplevel:
                if self.has_known_extends:
                    return
                if self.extends_so_far > 0:
                    self.writeline("if parent_template is None:")
                    self.indent()
                    level += 1
            self.writeline(f"yield environment.block_start(context, {node.name!r})", node)
            self.writeline(f"yield from context.blocks[{node.name!r}][0](context)")
            self.writeline("yield environment.block_end(context)")
            self.outdent(level)
            return
        if not (frame.toplevel and self.has_known_extends):
            self.writeline(f"environment.block_unplaced(context, {node.name!r})", node)
        super().visit_Block(node, frame)


_BUILTIN = types.BuiltinFunctionType
"""A function or bound method written in C (`dict.get` of a mapping, `str.split` of a text)."""


class _Context(jinja2.runtime.Context):
    """Jinja's context, with a quicker way to call a plain function or method from a template (`url(...)`,
    `i18n(...)`: a hundred calls a page), or a built-in one (`params.get(...)`, `list.append(...)`: dozens a page,
    which cannot carry Jinja's `pass_context` marks); anything else is called the way Jinja calls it."""

    @jinja2.utils.internalcode
    def call(__self, __obj: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's names
        kind = type(__obj)
        if kind is not types.FunctionType and kind is not types.MethodType and kind is not _BUILTIN:
            return super().call(__obj, *args, **kwargs)
        pass_arg = getattr(__obj, "jinja_pass_arg", None)
        if pass_arg is None:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        elif pass_arg is jinja2.utils._PassArg.context and not kwargs.get("_loop_vars") \
                and not kwargs.get("_block_vars"):
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            args = (__self, *args)
        else:
            return super().call(__obj, *args, **kwargs)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined("value was undefined because a callable raised a StopIteration "
                                                "exception")


_ESCAPE_INNER: Callable[[str], str] | None = getattr(markupsafe, "_escape_inner", None)
"""MarkupSafe 3's escaping of a text (in C where it is compiled), which its `escape` wraps in Python."""
_MAKE_STR = str.__new__


def _quick_escape(value: Any) -> Markup:
    """MarkupSafe's `escape`, as a template's `{{ }}` calls it when autoescaping (a few hundred times a page):
    a text is escaped and made a `Markup` without `Markup.__new__`'s Python call (for a text, all that it does is
    `str.__new__`); anything else goes to `escape`."""
    if type(value) is str and _ESCAPE_INNER is not None:
        return _MAKE_STR(Markup, _ESCAPE_INNER(value))  # type: ignore[no-any-return]
    return markupsafe.escape(value)


class _Template(jinja2.Template):
    """Jinja's template, with quicker new contexts and imports for a template with the environment's globals alone
    (as every one of a build's): Jinja reaches them through a `ChainMap` of the template's own (none) and the
    environment's, which copies them, lists their names (`Context.globals_keys`) and compares those with an
    imported template's in Python, ~15 µs a render and a few µs an include or import; here the environment's dict is
    used as it is, in C (the same keys in the same order, the same values)."""

    @classmethod
    def _from_namespace(cls, environment: jinja2.Environment, namespace: Any, globals: Any  # noqa: A002
                        ) -> jinja2.Template:
        """Jinja's, with `_quick_escape` as the compiled template's `escape`."""
        if namespace.get("escape") is markupsafe.escape:
            namespace["escape"] = _quick_escape
        return super()._from_namespace(environment, namespace, globals)

    def _plain_globals(self) -> dict[str, Any] | None:
        """The environment's globals dict when the template's globals are that alone, else None."""
        found = self.globals
        if type(found) is ChainMap and len(found.maps) == 2 and not found.maps[0] and type(found.maps[1]) is dict:
            return found.maps[1]
        return None

    def new_context(self, vars: dict[str, Any] | None = None, shared: bool = False,  # noqa: A002 - Jinja's name
                    locals: Mapping[str, Any] | None = None) -> jinja2.runtime.Context:  # noqa: A002
        """Jinja's `Template.new_context` (and its `runtime.new_context`), given the globals' dict (the context
        makes a set of their names: of a `ChainMap`, in Python)."""
        plain = self._plain_globals()
        if plain is None:
            return super().new_context(vars, shared, locals)
        if shared:  # (an include's: the including template's variables, its local ones over them)
            parent = vars if vars is not None else {}
        else:
            parent = dict(plain, **(vars or {}))
        if locals:
            if shared:
                parent = dict(parent)
            for key, value in locals.items():
                if value is not missing:
                    parent[key] = value
        return self.environment.context_class(self.environment, parent, self.name, self.blocks, globals=plain)

    def _get_default_module(self, ctx: jinja2.runtime.Context | None = None) -> jinja2.environment.TemplateModule:
        """Jinja's: the template's module, made again for an import with context whose context has globals that
        the template has not (`ctx.globals_keys - self.globals.keys()`, here a set and a dict's keys, in C)."""
        plain = self._plain_globals() if ctx is not None and not self.environment.is_async else None
        if ctx is None or plain is None:
            return super()._get_default_module(ctx)
        keys = ctx.globals_keys - plain.keys()
        if keys:
            return self.make_module({k: ctx.parent[k] for k in keys})
        return super()._get_default_module(None)


_JINJA_3_1 = jinja2.__version__.startswith("3.1.")
"""`IncludeCodeGenerator` and `_Context` copy and use Jinja 3.1's internals: with another Jinja, templates render
through Jinja's own code generator and context (correct, without fragment reuse and the quicker calls)."""


class TrackingEnvironment(jinja2.Environment):
    """An environment that can name every template a render loaded or looked for.

    Every way a template reaches another (`select_template` over a page's candidates, `extends`, `include`,
    `import`, a name computed at render time) goes through `_load_template`, also when the template is cached;
    while `loaded` is a set, each name asked for is added to it, found or not (a missing candidate that a new
    file would provide matters as much as the file that was used).
    """

    code_generator_class = IncludeCodeGenerator if _JINJA_3_1 else jinja2.compiler.CodeGenerator
    context_class = _Context if _JINJA_3_1 else jinja2.runtime.Context
    template_class = _Template if _JINJA_3_1 else jinja2.Template

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.fragments: Fragments | None = None
        """While one output unit renders with fragment reuse on: its included templates' texts."""
        self.loaded: set[str] | None = None
        self.block_calls: BlockCalls | None = None
        """While one output unit renders with its blocks' places recorded: where each block's text is."""
        self.compiled = False
        """Whether every layout was compiled into it (`render_pages.compile_templates`), before workers fork."""
        self._selected: dict[tuple[str, ...], tuple[jinja2.Template, frozenset[str]]] = {}
        """`select_template`'s answers, by the names asked for."""
        self.keys = TemplateKeys(self)
        """What each name resolved to, taken before the template is first loaded (an edit made in between
        leaves an older key, so the next build renders again rather than reuse a stale render)."""

    def _load_template(self, name: str, globals: Any) -> jinja2.Template:  # noqa: A002 - Jinja's own name
        if self.loaded is not None:
            self.loaded.add(name)
        if self.keys(name) == MISSING:
            # As the key says (and the render records): Jinja caches what it found, not what it did not, and every
            # post asks for `posts/single.html` before `single.html` (a search of every layouts folder, each time).
            raise jinja2.TemplateNotFound(name)
        return super()._load_template(name, globals)

    def select_template(self, names: Any, parent: str | None = None, globals: Any = None  # noqa: A002
                        ) -> jinja2.Template:
        """Jinja's `select_template`, its answer for a list of names kept: every post asks for the same
        candidates (`posts/single.html`, not there, then `single.html`), and what a name resolves to is fixed for
        the environment's life (`keys`); the names it looked for are noted in `loaded` as a search would."""
        if parent is not None or globals is not None or not isinstance(names, list) \
                or not all(type(name) is str for name in names):
            return super().select_template(names, parent, globals)
        key = tuple(names)
        found = self._selected.get(key)
        if found is None:
            loaded, self.loaded = self.loaded, set()
            try:
                template = super().select_template(names)
                found = self._selected[key] = (template, frozenset(self.loaded))
            finally:
                if loaded is not None:
                    loaded.update(self.loaded)
                self.loaded = loaded
            return template
        if self.loaded is not None:
            self.loaded.update(found[1])
        return found[0]

    def block_start(self, context: jinja2.runtime.Context, name: str) -> str:
        """What goes just before a block's text: a mark when the unit's `block_calls` are recorded and the block
        is called with the page's own context, else nothing (and a call with another context, a scoped block's
        inside it, is noted as one whose text cannot be placed: it may be captured)."""
        calls = self.block_calls
        if calls is None:
            return ""
        if context is not calls.context:
            calls.unplaced(name)
            return ""
        return calls.start(name)

    def block_end(self, context: jinja2.runtime.Context) -> str:
        """What goes just after a block's text (see `block_start`)."""
        calls = self.block_calls
        return "" if calls is None or context is not calls.context else calls.end()

    def block_parts(self, context: jinja2.runtime.Context, name: str) -> list[str]:
        """The parts of a block's text (its most derived version, as Jinja calls it), between its marks."""
        return [self.block_start(context, name), *context.blocks[name][0](context), self.block_end(context)]

    def block_unplaced(self, context: jinja2.runtime.Context, name: str) -> None:
        """Note a call of a page's block whose text does not go straight into the output."""
        calls = self.block_calls
        if calls is not None and context is calls.context:
            calls.unplaced(name)

    @staticmethod
    def literal(text: str, name: str | None, number: int) -> Literal:
        """The `Literal` of a compiled template's run of literal text number `number` (its module calls this)."""
        made = Literal(text)
        made.key = (name or "", number)
        return made

    def render_include(self, template: jinja2.Template, context: jinja2.runtime.Context,
                       local_vars: dict[str, Any]) -> Iterator[str]:
        """The text of an included template, given the including template's variables (as Jinja renders it),
        or through `fragments` when a unit is rendered with fragment reuse."""
        if self.fragments is None:
            return template.root_render_func(template.new_context(context.get_all(), True, local_vars))
        return self.fragments.include(template, context, local_vars)


class _Mark(str):
    """An empty text yielded just before and just after a recorded block's own: a render's parts are searched for
    it by identity (each is a new object), and joined, it adds nothing to the page."""

    __slots__ = ()


class BlockCalls:
    """The blocks called with one render's own context (`context`, set by the render) and where their texts are:
    a later render of the unit after an edit inside some blocks only can make those blocks again and keep the
    rest of the page's text (`sitegen.blockedits`)."""

    def __init__(self) -> None:
        self.context: jinja2.runtime.Context | None = None
        self.calls: list[list[Any]] = []
        """[name, start, end, depth] of each call since the last `join` (-1 until its marks are found)."""
        self.found: BlockPlaces = ()
        self.depth = 0
        """How many recorded calls the render is in."""
        self._open: list[int] = []
        """The recorded calls the render is in (their indexes in `calls`)."""
        self._marks: list[tuple[_Mark, int, int]] = []
        """(mark, index in `calls`, 1 for its start or 2 for its end) in the order they were made, which is their
        order in the output."""
        self.literals: list[tuple[str, int]] = []
        """The key (`Literal.key`) of each literal text found by the joins since `literals` was emptied, in the
        order of the output ..."""
        self.literal_starts = array.array("l")
        """... where each one starts, shifted as `found` is ..."""
        self.literal_bytes = array.array("l")
        """... and where it starts in the UTF-8 encoded text."""
        self.literals_known = True
        """Whether `literals` are all the unit's (not when a render kept text whose literal texts are not known)."""
        self.joined_bytes = 0
        """The UTF-8 length of the text the last `join` returned."""

    def start(self, name: str) -> str:
        """Record a call of the block `name`: the mark to put before its text."""
        mark = _Mark()
        index = len(self.calls)
        self.calls.append([name, -1, -1, self.depth])
        self._marks.append((mark, index, 1))
        self._open.append(index)
        self.depth += 1
        return mark

    def end(self) -> str:
        """The mark to put after the text of the call begun last and not ended."""
        mark = _Mark()
        index = self._open.pop()
        self._marks.append((mark, index, 2))
        self.depth = self.calls[index][3]
        return mark

    def placed_literals(self) -> tuple[tuple[tuple[str, int], ...], array.array[int], array.array[int]] | None:
        """(`literals`, `literal_starts`, `literal_bytes`) when they are all the unit's, else None."""
        return (tuple(self.literals), self.literal_starts, self.literal_bytes) if self.literals_known else None

    def unplaced(self, name: str) -> None:
        """Record a call whose text does not go straight into the output."""
        self.calls.append([name, -1, -1, self.depth])

    def join(self, parts: list[str], offset: int = 0, offset_bytes: int = 0) -> str:
        """The text of these parts (a render's, or a block's), the places of the calls recorded since the last
        join added to `found` (shifted by `offset`, where the text will be in the page), and those of the literal
        texts to `literals` (`offset_bytes`: where the text will be in the page's UTF-8 bytes). Returns the text;
        `joined_bytes` becomes its length in UTF-8."""
        # (In C loops over the parts, a few hundred a page: where each starts; which are not ASCII, and how many
        # more bytes than characters each of those has; which are literal texts.)
        begins = list(itertools.accumulate(map(len, parts), initial=offset))
        plain = list(map(str.isascii, parts))
        wide: list[int] = []  # the parts that are not ASCII ...
        extra: list[int] = []  # ... and how many more bytes than characters they have, up to each one
        index = total = 0
        with contextlib.suppress(ValueError):
            while True:
                index = plain.index(False, index)
                total += utf8_length(parts[index]) - len(parts[index])
                wide.append(index)
                extra.append(total)
                index += 1
        kinds = list(map(type, parts))
        shift = offset_bytes - offset
        index = 0
        with contextlib.suppress(ValueError):
            while True:
                index = kinds.index(Literal, index)
                self.literals.append(parts[index].key)  # type: ignore[attr-defined]
                self.literal_starts.append(begins[index])
                before = bisect.bisect_left(wide, index)
                self.literal_bytes.append(begins[index] + shift + (extra[before - 1] if before else 0))
                index += 1
        self.joined_bytes = begins[-1] - offset + total
        if not self.calls:
            return "".join(parts)
        # One pass over the parts, mark after mark (an empty text equals a mark: only the mark itself is taken).
        pieces: list[str] = []
        length = last = 0
        for mark, index, side in self._marks:
            try:
                at = parts.index(mark, last)
                while parts[at] is not mark:
                    at = parts.index(mark, at + 1)
            except ValueError:  # joined into a text of its own (captured): its call stays unplaced
                continue
            piece = "".join(parts[last:at])
            pieces.append(piece)
            length += len(piece)
            self.calls[index][side] = offset + length
            last = at + 1
        pieces.append("".join(parts[last:]))
        self.found = (*self.found, *((name, start, end, depth) if start >= 0 and end >= 0 else (name, -1, -1, depth)
                                     for name, start, end, depth in self.calls))
        self.calls, self._marks = [], []
        return "".join(pieces)


_CONTAINERS = frozenset({"list", "tuple", "dict", "Params"})
"""The first item of a `ValueKey` that holds other values' keys."""

ValueKey = Callable[[Any], tuple[Any, ...] | None]
"""A template variable's value as a key that equals another render's when the value is the same (None: no key,
the include is rendered every time)."""


class Fragments:
    """Included templates' texts in one render of an output unit: each one is reused from the unit's previous
    render while it holds (the same template, given the same variables, every template it loaded resolving to
    the same file and text, every page whose content it read unchanged), else rendered and recorded.

    Safe because a template's text is made only from what it is given and what it reads, all of which are
    checked: the unit's site-wide key covers the rest (config, data, every page's metadata, translations), as it
    does for the whole unit. Only outermost includes are recorded; one whose variables cannot be keyed (macros,
    a loop, a paginator) is always rendered. A recorded text is kept as where it is in the unit's output
    (`finish`), not as a copy: the memo holds the output already.
    """

    def __init__(self, env: TrackingEnvironment, reads: Any, value_key: ValueKey,
                 body_digest: Callable[[str], str], previous: tuple[Fragment, ...] = (),
                 previous_spans: Sequence[int] = (), previous_file: bytes | None = None,
                 reuse: Callable[[Fragment], bool] | None = None,
                 read_names: Callable[[str], frozenset[str] | None] | None = None) -> None:
        self.env = env
        self.reads = reads
        """The object whose `reads` set names the pages whose content the render read (the site state)."""
        self.value_key = value_key
        self.body_digest = body_digest
        self.depth = 0
        self.recorded: list[tuple[Fragment | int, str]] = []
        """Each fragment of this render (new, or the index of a reused one among `previous`) and its text."""
        self._previous_fragments = previous
        self._previous_spans = previous_spans
        self._previous: dict[tuple[str, tuple[Any, ...]], int] | None = None if previous_file is not None else {}
        """The previous render's fragments by name and variables' key (made on the first include)."""
        self._previous_file = previous_file
        self._finished: tuple[tuple[Fragment | int, ...], array.array[int]] | None = None
        self._previous_text: str | None = None
        self._reuse = reuse
        self.reused = 0
        self.read_names: Callable[[str], frozenset[str] | None] | None = read_names
        """The names a template (and what it includes) can read from its context, None when not known."""
        self._expected: dict[int, int] = {}
        """Where a kept fragment's text is in the output (by its number in `recorded`)."""
        self._parent_keys: dict[int, tuple[dict[str, Any], dict[str, Any], tuple[str, ...]]] = {}
        """By the identity of a context's `parent` (the render's variables, which Jinja never changes; one for
        every include of a template's top level): the keys of its variables that are not the environment's
        globals, and the names of those that hold lists or mappings (an include may change them: keyed anew)."""

    def include_key(self, context: jinja2.runtime.Context, local_vars: dict[str, Any], name: str | None = None
                    ) -> tuple[Any, ...] | None:
        """`context_key` of what an include is given (the context's variables, its own over its parent's, and
        the local ones over them), with the keys of the parent's variables made once per parent: a page's ~15
        includes share one, and most of its variables are the environment's globals. A variable counts only if
        the included template `name` can read it (`read_names`), `page` always: a variable the including template
        set (`{% set %}` at its top level) that the include does not read leaves its key the same whether its
        block was made with the page or alone (`sitegen.blockedits`), and a large one of the render's (a term
        list's `taxonomy`) is not keyed again for every include."""
        parent, env_globals, value_key = context.parent, self.env.globals, self.value_key
        readable = self.read_names(name) if self.read_names is not None and name is not None else None
        known = self._parent_keys.get(id(parent))
        if known is None or known[0] is not parent:
            keys: dict[str, Any] = {}
            for name, value in parent.items():
                if env_globals.get(name, missing) is not value:
                    keys[name] = value_key(value)
            known = self._parent_keys[id(parent)] = (parent, keys, tuple(
                name for name, key in keys.items() if key is not None and key[0] in _CONTAINERS))
        if readable is None:
            keys, containers = dict(known[1]), known[2]
        else:  # (a term list's `taxonomy`, every term of the site, is keyed only for an include that reads it)
            keys = {var: key for var, key in known[1].items() if var in readable or var == "page"}
            containers = tuple(var for var in known[2] if var in readable or var == "page")
        for name in containers:
            keys[name] = value_key(parent[name])
        for over, local in ((context.vars, False), (local_vars, True)):
            for var, value in over.items():
                if local and value is missing:  # (a name the include does not give: the context's stands)
                    continue
                if not local and readable is not None and var not in readable and var != "page":
                    continue  # (`page` is read by the `i18n`, `date` and `number` functions too)
                if env_globals.get(var, missing) is value:
                    keys.pop(var, None)
                else:
                    keys[var] = value_key(value)
        if None in keys.values():
            return None
        return tuple(sorted(keys.items()))

    def context_key(self, variables: dict[str, Any], local_vars: dict[str, Any]) -> tuple[Any, ...] | None:
        """The variables an included template is given (the including template's, and its local ones over
        them, as `Template.new_context` merges them), as a key (the environment's globals left out: the same
        for every render of a build); None when one cannot be keyed. The definition `include_key` computes
        quicker (without `read_names`); a test compares the two. No render uses it."""
        found = []
        env_globals, value_key = self.env.globals, self.value_key
        for name, value in variables.items():
            if env_globals.get(name, missing) is value or local_vars.get(name, missing) is not missing:
                continue
            key = value_key(value)
            if key is None:
                return None
            found.append((name, key))
        for name, value in local_vars.items():
            if value is missing or env_globals.get(name, missing) is value:
                continue
            key = value_key(value)
            if key is None:
                return None
            found.append((name, key))
        found.sort()
        return tuple(found)

    def include(self, template: jinja2.Template, context: jinja2.runtime.Context, local_vars: dict[str, Any]
                ) -> Iterator[str]:
        """The included template's text: reused, recorded, or (nested in another, or not keyable) rendered."""
        name = template.name
        key = self.include_key(context, local_vars, name) if self.depth == 0 and name is not None else None
        variables = context.get_all()
        if key is not None and name is not None:
            if self._previous is None:
                self._previous = {(f.name, f.context): i for i, f in enumerate(self._previous_fragments)}
            found = self._previous.get((name, key))
            if found is not None and self._reuse is not None and self._reuse(self._previous_fragments[found]):
                return self._replay(found)
            return self._record(template, name, context, local_vars, key)
        return template.root_render_func(template.new_context(variables, True, local_vars))

    @property
    def previous_file(self) -> bytes | None:
        """The unit's previous output, as it was written (given only with previous fragments to reuse)."""
        return self._previous_file

    def previous_text(self) -> str:
        """The unit's previous output, decoded (once; only given a previous file)."""
        if self._previous_text is None:
            assert self._previous_file is not None
            self._previous_text = self._previous_file.decode("utf-8")
        return self._previous_text

    def _replay(self, index: int) -> Iterator[str]:
        fragment = self._previous_fragments[index]
        text = (self._previous_text or self.previous_text())[self._previous_spans[2 * index]:
                                                             self._previous_spans[2 * index + 1]]
        if self.env.loaded is not None:
            self.env.loaded.update(name for name, _ in fragment.templates)
        if self.reads.reads is not None:
            self.reads.reads.update(source for source, _ in fragment.reads)
        self.reused += 1
        self.recorded.append((index, text))
        yield text

    def _record(self, template: jinja2.Template, name: str, including: jinja2.runtime.Context,
                local_vars: dict[str, Any], key: tuple[Any, ...]) -> Iterator[str]:
        context = template.new_context(including.get_all(), True, local_vars)
        outer_loaded, outer_reads = self.env.loaded, self.reads.reads
        loaded: set[str] = {name}
        reads: set[str] = set()
        self.env.loaded, self.reads.reads = loaded, reads
        self.depth += 1
        try:
            text = self.env.concat(template.root_render_func(context))  # type: ignore[attr-defined]
        finally:
            self.depth -= 1
            self.env.loaded, self.reads.reads = outer_loaded, outer_reads
            if outer_loaded is not None:
                outer_loaded.update(loaded)
            if outer_reads is not None:
                outer_reads.update(reads)
        # Kept only when it did not change the lists and mappings it was given (a list it appended to).
        if not any(k[0] in _CONTAINERS for _, k in key) or self.include_key(including, local_vars, name) == key:
            self.recorded.append((Fragment(
                name, key, tuple((n, self.env.keys(n)) for n in sorted(loaded)),
                tuple((s, self.body_digest(s)) for s in sorted(reads))), text))
        yield text

    def keep(self, index: int, at: int) -> None:
        """Record the previous render's fragment `index` as part of this one, its text unchanged and at `at` in
        the new output (the page is made again around it: `sitegen.blockedits.Splice`)."""
        self._expected[len(self.recorded)] = at
        self.recorded.append((index, self.previous_text()[self._previous_spans[2 * index]:
                                                          self._previous_spans[2 * index + 1]]))

    def all_kept(self, spans: array.array[int]) -> None:
        """Record every fragment of the previous render as part of this one, each at its place in `spans` (its
        start and end in the new output, one after the other: the page's text was changed only outside them,
        `sitegen.blockedits.Splice.patch`)."""
        self._finished = (tuple(range(len(spans) // 2)), spans)

    def finish(self, output: str) -> tuple[tuple[Fragment | int, ...], array.array[int]]:
        """The fragments of this render (a reused one as its index among the previous render's: a worker process
        sends back a number, not the fragment's keys), and where each one's text is in the output, start and end
        one after the other; in order, as included, and one whose text is not there (captured by a `{% set %}`
        block and changed) left out."""
        if self._finished is not None:
            return self._finished
        found: list[Fragment | int] = []
        spans = array.array("l")
        at = 0
        expected = self._expected
        for number, (fragment, text) in enumerate(self.recorded):
            start = expected.get(number, -1)
            if start < at or not output.startswith(text, start):
                start = output.find(text, at)
            if start < 0:
                start = output.find(text)
                if start < 0:
                    continue
            at = start + len(text)
            found.append(fragment)
            spans.append(start)
            spans.append(at)
        return tuple(found), spans


class TemplateKeys:
    """What each template name resolves to now, as a key (`memo.template_key` of the file found and its text,
    or of its absence): a render is reused only while every name it loaded resolves as it did. Asked once per
    name per build; the loader is the one pages are rendered with, so shadowing by the site is seen exactly."""

    def __init__(self, env: jinja2.Environment) -> None:
        self.env = env
        self.keys: dict[str, str] = {}
        self.sources: dict[str, tuple[str | None, str]] = {}
        """(file, text) of each name found, as its key was taken (`sitegen.blockedits` compares two versions)."""
        self._checked: dict[int, tuple[tuple[tuple[str, str], ...], bool]] = {}

    def unchanged(self, recorded: tuple[tuple[str, str], ...]) -> bool:
        """Whether every (name, key) of a render's record still holds. Renders share their record (every post
        loads the same templates), so each distinct record is checked once."""
        seen = self._checked.get(id(recorded))
        if seen is None or seen[0] is not recorded:
            seen = self._checked[id(recorded)] = (recorded, all(self(name) == key for name, key in recorded))
        return seen[1]

    def __call__(self, name: str) -> str:
        """The key of `name` (computed on first use)."""
        key = self.keys.get(name)
        if key is None:
            key = self.keys[name] = self._resolve(name)
        return key

    def _resolve(self, name: str) -> str:
        loader = self.env.loader
        assert loader is not None
        try:
            source, filename, _ = loader.get_source(self.env, name)
        except jinja2.TemplateNotFound:
            return template_key(None, None)
        except TemplateError as exc:  # unreadable, or a link out of the site: never reused, the render reports it
            return template_key(None, exc.format())
        self.sources[name] = (filename, source)
        return template_key(filename, source)

    def source(self, name: str) -> str | None:
        """The text `name` resolved to when its key was taken (None: no such template)."""
        self(name)
        found = self.sources.get(name)
        return found[1] if found is not None else None

    def names(self) -> frozenset[str]:
        """Every template name that exists now (site, theme and `theme/` names)."""
        loader = self.env.loader
        assert loader is not None
        return frozenset(loader.list_templates())


def make_loader(search_path: list[Path], theme_layouts: list[Path], *, confined: bool = True) -> jinja2.BaseLoader:
    """Site layouts shadow theme layouts by name; `theme/<name>` always reaches the theme's own file, so a
    site's `base.html` can `{% extends "theme/base.html" %}` and override a single block.

    With `confined` (unless the site sets `allow_symlinks_outside`), a template read through a link must stay
    inside the site folder (the parent of the first search path) or inside its theme's folder."""
    if not confined:
        return jinja2.ChoiceLoader([
            jinja2.FileSystemLoader([str(p) for p in search_path]),
            jinja2.PrefixLoader({"theme": jinja2.FileSystemLoader([str(p) for p in theme_layouts])}),
        ])
    site = search_path[0].parent
    roots = [site, *(p.parent for p in search_path[1:] if not p.is_relative_to(site))]
    return jinja2.ChoiceLoader([
        ConfinedLoader(search_path, roots),
        jinja2.PrefixLoader({"theme": ConfinedLoader(theme_layouts, roots)}),
    ])


def make_environment(search_path: list[Path], config: SiteConfig,
                     markdownify: Callable[[str], str], extra_globals: dict[str, Any] | None = None,
                     bytecode_cache: jinja2.BytecodeCache | None = None, urls: UrlHelper | None = None,
                     translator: Translator | None = None) -> TrackingEnvironment:
    """One environment per build (per language): loader over site layouts then theme layouts; `urls` builds
    the URLs (the plan's, which knows a language's prefix); `translator` gives the theme's strings (`i18n`,
    `T`) and the `date` and `number` filters in the page's language."""
    env = TrackingEnvironment(
        loader=make_loader(search_path, search_path[1:], confined=not config.allow_symlinks_outside),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=-1,  # a dict, not an LRU cache behind a lock: a page looks its ~20 templates up on every render
        bytecode_cache=bytecode_cache,
        extensions=["jinja2.ext.loopcontrols"],
    )
    urls = urls or UrlHelper(config)
    env.globals.update(url=urls.url, relurl=urls.url, absurl=urls.absurl, sitegen_version=sitegen.__version__)
    env.globals.update(extra_globals or {})
    translator = translator or Translator(Strings(), config.language, date_format=config.date_format)

    @context_reads("page")
    @jinja2.pass_context
    def i18n(context: jinja2.runtime.Context, key: str, count: int | float | None = None, **params: Any) -> str:
        return translator(key, count, lang=params.pop("lang", None) or _page_lang(context), **params)

    @context_reads("page")
    @jinja2.pass_context
    def date(context: jinja2.runtime.Context, value: dt.datetime | dt.date | None, fmt: str | None = None,
             lang: str | None = None) -> str:
        return translator.format_date(value, fmt, lang or _page_lang(context))

    @context_reads("page")
    @jinja2.pass_context
    def number(context: jinja2.runtime.Context, value: int | float, lang: str | None = None) -> str:
        return translator.number(value, lang or _page_lang(context))

    env.globals.update(i18n=i18n, T=i18n)
    env.filters.update(
        date=date,
        number=number,
        isodate=isodate,
        markdownify=_at_render(lambda text: Markup(markdownify(str(text)))),
        url=_at_render(urls.url),
        absurl=_at_render(urls.absurl),
    )
    return env


def _at_render(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter whose result depends on the site (its base URL, its Markdown settings), called when a page renders.

    Jinja calls a filter of constants (`{{ "/css/site.css" | url }}`) once, as it compiles, and writes the result
    into the template's code, unless the filter takes the context. That code is kept (the memo, the user's
    folder of compiled templates) and must not hold one site's URL or one environment's Markdown: the template
    syntax check compiles the site's layouts with no Markdown renderer at all."""

    @context_reads()
    @jinja2.pass_context
    def at_render(_context: jinja2.runtime.Context, *args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return at_render


def select_template(env: jinja2.Environment, candidates: Iterable[str], page_label: str) -> jinja2.Template:
    """The first existing template among `candidates`; an error lists everywhere it looked."""
    names = list(dict.fromkeys(candidates))
    try:
        return env.select_template(names)
    except jinja2.TemplateSyntaxError as exc:
        raise template_error(exc, page_label) from None
    except jinja2.TemplatesNotFound:
        loader = env.loader
        first = loader.loaders[0] if isinstance(loader, jinja2.ChoiceLoader) else loader
        roots = getattr(first, "searchpath", [])
        raise MissingTemplate(
            f"no template for {page_label}", path=page_label,
            causes=[f"looked for {', '.join(names)}", f"in {', '.join(str(r) for r in roots)}"],
            hint="create one of those files in layouts/, or fix the page's `layout`") from None


def template_error(exc: BaseException, page_label: str | None) -> TemplateError:
    """Turn any exception raised while rendering into a TemplateError naming the template line and page (none
    when the template is compiled before any page renders)."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return TemplateError(f"template syntax error: {exc.message}", path=exc.filename or exc.name,
                             line=exc.lineno, causes=[f"while rendering {page_label}"] if page_label else [],
                             hint="check the matching {% ... %} / {{ ... }} pairs")
    path, line = None, None
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename and frame.filename.endswith((".html", ".xml", ".txt", ".json", ".j2")):
            path, line = frame.filename, frame.lineno
            break
    kind = "undefined variable" if isinstance(exc, jinja2.UndefinedError) else type(exc).__name__
    return TemplateError(f"{kind}: {exc}", path=path, line=line, causes=[f"while rendering {page_label}"],
                         hint="fix the template, or guard optional values with `is defined`")


class MemoBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in the build memo (so the dev server and the build cache compile a template
    once per version of its source), and in the user's cache folder (`shared`), so that a build with no memo yet
    (a new site, a cold build) loads the default theme's ~60 layouts rather than compile them again (~0.5 s of
    one core at 1,000 posts). Jinja checks each entry's checksum of the source and its Python magic before using
    it; the folder's entries are keyed by sitegen's code, Jinja's version and the environment's options and
    filters too (the code Jinja generates depends on them), so another version's entry is never used."""

    SHARED_LIMIT = 2000
    """The folder's entries are pruned to half this many, the oldest first, once a new one makes more."""

    def __init__(self, memo: BuildMemo, shared: Path | None = None) -> None:
        self.memo = memo
        self.shared = shared

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Fill the bucket from the memo when this exact source was compiled before, else from the shared
        folder (and then keep it in the memo too)."""
        signature = environment_signature(bucket.environment)
        key = f"jinja:{signature}:{bucket.key}:{bucket.checksum}"
        data = self.memo.blobs.get(key)
        if data is not None:
            self.memo.used_blobs.add(key)
            bucket.bytecode_from_string(data)
            return
        path = self._shared_path(bucket, signature)
        if path is None:
            return
        try:
            data = path.read_bytes()
        except OSError:
            return
        bucket.bytecode_from_string(data)  # (a stale or broken entry leaves the bucket empty: compiled again)
        if bucket.code is not None:
            self.memo.blob(key, lambda: data)  # noqa: B023 - called here, at once

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Remember a freshly compiled template, in the memo and in the shared folder."""
        signature = environment_signature(bucket.environment)
        data = self.memo.blob(f"jinja:{signature}:{bucket.key}:{bucket.checksum}", bucket.bytecode_to_string)
        path = self._shared_path(bucket, signature)
        if path is not None:
            _write_shared(path, data, self.SHARED_LIMIT)

    def _shared_path(self, bucket: jinja2.bccache.Bucket, signature: str) -> Path | None:
        """The entry's file in the shared folder: for this site's configuration only (`BuildMemo.config_key`),
        should a filter of constants still be compiled into the code (see `_at_render`)."""
        if self.shared is None:
            return None
        name = hashlib.blake2b(f"{signature}\0{self.memo.config_key}\0{bucket.key}\0{bucket.checksum}".encode(),
                               digest_size=20).hexdigest()
        return self.shared / f"{name}.jbc"


def shared_template_cache() -> Path | None:
    """The user's folder of compiled templates (`sitegen.memo.user_cache_dir`), or None when
    `SITEGEN_TEMPLATE_CACHE=0`."""
    return None if os.environ.get("SITEGEN_TEMPLATE_CACHE") == "0" else user_cache_dir() / "templates"


def environment_signature(env: jinja2.Environment) -> str:
    """What the code Jinja compiles in `env` depends on besides the template's source: sitegen's code (its code
    generator), Jinja's version, the environment's syntax and options, its extensions, and the name and kind of
    each filter and test (a filter that takes the context is called with it, so the code differs)."""
    def kinds(functions: dict[str, Any]) -> list[tuple[str, str]]:
        return sorted((name, str(jinja2.utils._PassArg.from_obj(f))) for name, f in functions.items())

    options = (env.block_start_string, env.block_end_string, env.variable_start_string, env.variable_end_string,
               env.comment_start_string, env.comment_end_string, env.line_statement_prefix,
               env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks, env.newline_sequence,
               env.keep_trailing_newline, env.optimized, env.is_async, callable(env.autoescape) or env.autoescape,
               env.finalize is not None, type(env).__qualname__, env.code_generator_class.__qualname__)
    return key_of("jinja-code", code_version(), jinja2.__version__, repr(options), sorted(env.extensions),
                  kinds(env.filters), kinds(env.tests))


def _write_shared(path: Path, data: bytes, limit: int) -> None:
    """Write one compiled template into the shared folder, atomically (a copy of sitegen building another site
    at the same time reads a whole entry or none); past `limit` entries, the oldest are removed. Failures only
    cost a later build a compile."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".jbc-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return
    with contextlib.suppress(OSError):
        entries = [e for e in os.scandir(folder) if e.name.endswith(".jbc") and e.is_file(follow_symlinks=False)]
        if len(entries) > limit:
            entries.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime)
            for entry in entries[:len(entries) - limit // 2]:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
