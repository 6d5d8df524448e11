"""Template edits inside blocks: a page is made again by rendering only the blocks whose text can have changed.

When every template a page loaded that was edited is in the page's chain of layouts (the layout it was rendered
with, the one that extends, and so on) and the edit changed only the bodies of some blocks, everything of the
page's text outside those blocks' calls is what it was: the same template code ran on the same variables. A
quick rebuild (`sitegen.incremental.rebuild_edited_templates`) then renders those calls again, with the page's
variables and the chain's blocks, and puts their texts where the old ones were (their places were recorded by
the last render: `sitegen.templates.BlockCalls`). It is exactly the page a full render gives when

- the chain is plain: each layout extends one named layout at its top level, with no block called before that,
  and none uses `self` (a block's text used elsewhere) or changes the autoescaping around a block;
- each edited layout's code outside its blocks is unchanged (its blocks kept their names, places and kinds);
- no edited block is scoped (it would see a loop's variables), and every call of one was placed;
- nothing the blocks read (and the templates they include, imported with the context) is set at a layout's top
  level (a `{% set %}` or an import that a fresh context does not have);
- no edited layout is also included, imported or extended (other than by the chain) by a template the page
  loaded.

Otherwise the page is rendered whole, as before (with its unchanged includes reused: `sitegen.templates.Fragments`).

Before any of that, an edit that changed only the layouts' literal texts, and expressions of output tags that sit
between two of those texts in no other tag than blocks and `if`s, is made in each page's last file (`Splice.patch`):
each changed text goes where the last render put the old one, and each changed expression, rendered alone with the
page's variables, from the start of the text before it to the start of the one after it. Such an expression reads
no name a layout sets, and calls no function that reads one from the context (`sitegen.templates.context_reads`):
alone, it has the value it has in the page.

Tests compare every way with clean builds byte for byte.
"""

from __future__ import annotations

import array
import bisect
import functools
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import jinja2
import jinja2.compiler
import jinja2.meta
import jinja2.nodes as nodes

from sitegen.memo import MISSING, BlockPlaces, Literals, OutputEntry, template_key
from sitegen.templates import BlockCalls, IncludeCodeGenerator, TrackingEnvironment, context_names, utf8_length


@dataclass(frozen=True)
class TemplateFacts:
    """What an edit of one template's text can change, read from its syntax tree."""

    extends: str | None
    """The layout it extends (one named layout, at its top level), or None."""
    plain: bool
    """It extends nothing or one named layout at its top level, uses no `self` and changes no autoescaping."""
    skeleton: tuple[Any, ...]
    """Its syntax tree with each block's body left out: equal skeletons run the same code outside blocks."""
    bodies: dict[str, tuple[Any, ...]]
    """Each block's body, with the bodies of the blocks inside it left out."""
    scoped: frozenset[str]
    """Its blocks that see the variables of the loop or `with` they are called in (`{% block x scoped %}`)."""
    assigned: frozenset[str]
    """Names its top level sets or imports (variables a block would find in the page's context)."""
    block_reads: frozenset[str]
    """Names its blocks read from the context."""
    block_refs: frozenset[str] | None
    """Templates its blocks include or import with the context (None: one named by an expression)."""
    reads: frozenset[str]
    """Names it reads from the context, as an included template."""
    refs: frozenset[str] | None
    """Every template it includes or imports (None: one named by an expression)."""
    parents: frozenset[str]
    """The templates its `{% extends %}` tags name (an included template's chain renders with its context)."""
    literal_runs: tuple[tuple[str, bool, str | None], ...] | None = None
    """Each run of literal text its code outputs (`IncludeCodeGenerator.literal_runs`), None when not known."""
    outputs: Any = None
    """Its syntax tree with every literal text and every expression of an output tag (`{{ x }}`) left out: equal
    outputs run the same code, outputting other texts and the values of other expressions."""
    output_exprs: tuple[OutputExpr, ...] | None = None
    """Each expression of an output tag, in the order of the tree, None when not known."""
    stored: frozenset[str] = frozenset()
    """Every name it sets anywhere (`{% set %}`, a loop's or `with`'s variables, a macro, an import)."""
    uses_super: bool = True
    """Whether a block of it calls `super()` (a parent's block text, captured)."""
    unkept: frozenset[str] = frozenset()
    """Its blocks whose last text an edit around them must not reuse (`Splice.keep`): the scoped ones (a call may
    see other variables than the call whose text was kept: a block called at the top and, scoped, in a loop of
    another block) and the required ones (a call checks that a layout gives the block)."""


@dataclass(frozen=True)
class OutputExpr:
    """An expression of an output tag (`{{ x }}`), as an edit of it may be made without rendering its page."""

    tree: Any
    """Its syntax tree, comparable (line numbers left out)."""
    slot: tuple[int, int] | None
    """(the run of literal text just before it, the run just after it), its neighbours in the same output tag,
    both yielded straight into the output (`IncludeCodeGenerator.output_slots`); None otherwise."""
    plain: bool
    """Whether it is in no other tag than blocks and `{% if %}`s: it sees the page's variables, and no loop's."""
    reads: frozenset[str]
    """The names it reads, with those the functions it calls read from the context (`_expr_reads`)."""


_UNPLAIN_NAMES = frozenset({"self", "super", "loop", "caller", "varargs", "kwargs"})
"""Names an expression reads that depend on where it is (a loop, a macro, a block) more than on the page."""
_ANY_NAME = "\x00any"
"""Among the names a tree reads: it calls a function that takes the context and may read any name of it."""


def _called_reads(env: jinja2.Environment, node: nodes.Node) -> frozenset[str]:
    """The names the functions a tree calls read from the render's context, beyond those it names: a global like
    `i18n`, or a filter like `date`, reads the page's language (`sitegen.templates.context_names`); `_ANY_NAME`
    among them when one may read any name. (A function a variable holds is named: the variable counts; a method
    of a page's view takes no context.)"""
    found: set[str] = set()
    for call in (node, *node.find_all((nodes.Call, nodes.Filter, nodes.Test))):
        if isinstance(call, nodes.Call):
            function = env.globals.get(call.node.name, None) if isinstance(call.node, nodes.Name) else None
        elif isinstance(call, nodes.Filter | nodes.Test):
            table = env.filters if isinstance(call, nodes.Filter) else env.tests
            function = table.get(call.name, _ANY_NAME)
        else:
            continue
        if function is not None:
            names = context_names(function) if function is not _ANY_NAME else None
            found |= names if names is not None else {_ANY_NAME}
    return frozenset(found)


def _expr_reads(env: jinja2.Environment, expr: nodes.Expr) -> frozenset[str]:
    """The names an expression reads, with those the functions it calls read from the context (`_called_reads`)."""
    return frozenset(n.name for n in (expr, *expr.find_all(nodes.Name)) if isinstance(n, nodes.Name)) \
        | _called_reads(env, expr)


def _output_exprs(node: nodes.Node, plain: bool = True) -> Iterator[tuple[nodes.Expr, bool]]:
    """Each expression of an output tag in a tree, in order, and whether it is only in blocks and `if`s."""
    for child in node.iter_child_nodes():
        if isinstance(child, nodes.Output):
            for item in child.nodes:
                if not isinstance(item, nodes.TemplateData):
                    yield item, plain
        elif isinstance(child, nodes.Stmt):
            yield from _output_exprs(child, plain and isinstance(child, nodes.Block | nodes.If))


def _outputs(value: Any) -> Any:
    """A comparable copy of a syntax tree (line numbers left out) without the texts of its literal text nodes
    and the expressions of its output tags."""
    if isinstance(value, nodes.Output):
        return ("Output", tuple("TemplateData" if isinstance(v, nodes.TemplateData) else "Expr" for v in value.nodes))
    if isinstance(value, nodes.Node):
        return (type(value).__name__, *(_outputs(v) for _, v in value.iter_fields()))
    if isinstance(value, list | tuple):
        return tuple(_outputs(v) for v in value)
    return _leaf(value)


def _leaf(value: Any) -> Any:
    """A value of a syntax tree's node (a name, a constant) with its type: `1`, `1.0` and `True` are equal in
    Python, not in a page."""
    return (type(value), value)


def _stored(tree: nodes.Template) -> frozenset[str]:
    """Every name a template sets, anywhere in it."""
    found = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
    found.update(n.name for n in tree.find_all(nodes.Macro))
    found.update(n.target for n in tree.find_all(nodes.Import))
    for node in tree.find_all(nodes.FromImport):
        found.update(n if isinstance(n, str) else n[1] for n in node.names)
    return frozenset(found)


class _Reads(jinja2.meta.TrackingCodeGenerator):
    """Jinja's tracking code generator, counting the environment's globals too (a top-level `{% set url %}`
    would hide the global from a block)."""

    def enter_frame(self, frame: jinja2.compiler.Frame) -> None:
        """Every name a frame resolves from the context."""
        jinja2.compiler.CodeGenerator.enter_frame(self, frame)
        for action, param in frame.symbols.loads.values():
            if action == "resolve":
                self.undeclared_identifiers.add(param)


def _reads(env: jinja2.Environment, body: list[nodes.Node]) -> frozenset[str]:
    """The names these statements (a template's, or a block's body) read from the context."""
    template = nodes.Template(body, lineno=1)
    template.set_environment(env)
    tracker = _Reads(env)
    try:
        tracker.visit(template)
    except jinja2.TemplateError:
        return frozenset({"\x00unknown"})  # no name is set so: nothing can be reused
    return frozenset(tracker.undeclared_identifiers)


def _dump(value: Any, bodies: dict[str, tuple[Any, ...]], scoped: set[str]) -> Any:
    """A comparable copy of a syntax tree (line numbers left out), a block as its name and kind, its body in
    `bodies`."""
    if isinstance(value, nodes.Block):
        bodies[value.name] = tuple(_dump(n, bodies, scoped) for n in value.body)
        if value.scoped:
            scoped.add(value.name)
        return ("Block", value.name, value.scoped, value.required)
    if isinstance(value, nodes.Node):
        return (type(value).__name__, *(_dump(v, bodies, scoped) for _, v in value.iter_fields()))
    if isinstance(value, list | tuple):
        return tuple(_dump(v, bodies, scoped) for v in value)
    return _leaf(value)


def _generated(env: jinja2.Environment, name: str, source: str
               ) -> tuple[tuple[tuple[str, bool, str | None], ...], tuple[OutputExpr, ...]] | None:
    """The runs of literal text a template's code outputs, as the environment's code generator numbers them
    (`IncludeCodeGenerator.literal_runs`), and its output tags' expressions; None with another code generator."""
    if not issubclass(env.code_generator_class, IncludeCodeGenerator):
        return None
    tree = env.parse(source, name)  # (a tree of its own: the generator may change the one it visits)
    found = [(expr, _dump(expr, {}, set()), plain, _expr_reads(env, expr))
             for expr, plain in _output_exprs(tree)]  # (before the generator folds constants in them)
    generator = env.code_generator_class(env, name, None, None, False, env.optimized)
    generator.visit(tree)
    exprs = tuple(OutputExpr(dumped, generator.output_slots.get(id(expr)), plain, reads)
                  for expr, dumped, plain, reads in found)
    return tuple(generator.literal_runs), exprs


def _outside_blocks(node: nodes.Node) -> Iterable[nodes.Node]:
    """Every node of a tree that is not inside a block's body."""
    for child in node.iter_child_nodes():
        yield child
        if not isinstance(child, nodes.Block):
            yield from _outside_blocks(child)


def _names(template: Any) -> frozenset[str] | None:
    """The templates a reference names (None: an expression)."""
    if isinstance(template, nodes.Const):
        value = template.value
        if isinstance(value, str):
            return frozenset({value})
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return frozenset(value)
    if isinstance(template, nodes.Tuple | nodes.List):
        found: set[str] = set()
        for item in template.items:
            names = _names(item)
            if names is None:
                return None
            found |= names
        return frozenset(found)
    return None


def _refs(found: Iterable[nodes.Node], with_context_only: bool) -> frozenset[str] | None:
    """The templates these nodes include or import (None: one named by an expression, or an `{% extends %}` by
    one)."""
    refs: set[str] = set()
    for node in found:
        if isinstance(node, nodes.Extends) and _names(node.template) is None:
            return None
        if isinstance(node, nodes.Include | nodes.Import | nodes.FromImport):
            if with_context_only and not node.with_context:
                continue
            names = _names(node.template)
            if names is None:
                return None
            refs |= names
    return frozenset(refs)


def template_facts(env: jinja2.Environment, name: str, source: str) -> TemplateFacts:
    """The facts of one template's text (raises jinja2.TemplateSyntaxError)."""
    tree = env.parse(source, name)
    bodies: dict[str, tuple[Any, ...]] = {}
    scoped: set[str] = set()
    skeleton = _dump(tree, bodies, scoped)
    extends_nodes = list(tree.find_all(nodes.Extends))
    extends: str | None = None
    plain = True
    if extends_nodes:
        first = extends_nodes[0]
        at = next((i for i, n in enumerate(tree.body) if n is first), -1)
        # No block is called before it: such a call sees only the blocks loaded so far (no parent's, for `super`).
        plain = len(extends_nodes) == 1 and at >= 0 and isinstance(first.template, nodes.Const) \
            and isinstance(first.template.value, str) \
            and not any(isinstance(n, nodes.Block) or n.find(nodes.Block) is not None for n in tree.body[:at])
        extends = first.template.value if plain else None  # type: ignore[attr-defined]
    if any(n.name == "self" for n in tree.find_all(nodes.Name)) \
            or any(True for _ in tree.find_all((nodes.EvalContextModifier, nodes.ScopedEvalContextModifier))):
        plain = False
    assigned: set[str] = set()
    for node in _outside_blocks(tree):
        if isinstance(node, nodes.Assign | nodes.AssignBlock | nodes.For | nodes.With):
            targets = node.targets if isinstance(node, nodes.With) else [node.target]
            for target in targets:
                assigned.update(n.name for n in target.find_all(nodes.Name))
                if isinstance(target, nodes.Name):
                    assigned.add(target.name)
        elif isinstance(node, nodes.Import):
            assigned.add(node.target)
        elif isinstance(node, nodes.FromImport):
            assigned.update(n if isinstance(n, str) else n[1] for n in node.names)
        elif isinstance(node, nodes.Macro):
            assigned.add(node.name)
    blocks = list(tree.find_all(nodes.Block))
    unkept = {block.name for block in blocks if block.scoped or block.required}
    block_reads: set[str] = set()
    for block in blocks:
        block_reads |= _reads(env, list(block.body)) | _called_reads(env, block)
    block_refs = _refs((n for b in blocks for n in b.find_all(nodes.Stmt)), with_context_only=True)
    generated = _generated(env, name, source)
    return TemplateFacts(
        extends=extends, plain=plain, skeleton=skeleton, bodies=bodies, scoped=frozenset(scoped),
        assigned=frozenset(assigned), block_reads=frozenset(block_reads), block_refs=block_refs,
        reads=_reads(env, tree.body), refs=_refs(tree.find_all(nodes.Stmt), with_context_only=False),
        parents=frozenset(name for n in extends_nodes for name in (_names(n.template) or ())),
        literal_runs=generated[0] if generated else None, outputs=_outputs(tree),
        output_exprs=generated[1] if generated else None, stored=_stored(tree),
        uses_super=any(n.name == "super" for n in tree.find_all(nodes.Name)), unkept=frozenset(unkept))


_FACTS: dict[str, TemplateFacts | None] = {}
"""Facts by `template_key` (the file and its text): a dev server parses each version of a template once."""


def _facts(env: TrackingEnvironment, name: str, key: str, source: str | None) -> TemplateFacts | None:
    if key not in _FACTS:
        if len(_FACTS) > 2000:
            _FACTS.clear()
        try:
            _FACTS[key] = template_facts(env, name, source) if source is not None else None
        except jinja2.TemplateError:
            _FACTS[key] = None
    return _FACTS[key]


def read_facts(env: TrackingEnvironment, names: Iterable[str]) -> None:
    """Read the facts of these templates ahead of a template edit (the dev server, once idle: the first edit then
    parses only the template it changed)."""
    for name in names:
        key = env.keys(name)
        if key != MISSING:
            _facts(env, name, key, env.keys.source(name))


class ReadNames:
    """The names an included template can read from the context it is given: its own, and those of every template
    it includes or imports, as far as the syntax says (None when a name is computed, or a template unknown). One per
    environment: what a name resolves to is fixed while it renders."""

    def __init__(self, env: TrackingEnvironment) -> None:
        self.env = env
        self._known: dict[str, frozenset[str] | None] = {}

    def __call__(self, name: str) -> frozenset[str] | None:
        """The names `name` can read, or None."""
        if name not in self._known:
            self._known[name] = self._read(name)
        return self._known[name]

    def _read(self, name: str) -> frozenset[str] | None:
        reads: set[str] = set()
        todo, seen = [name], set()
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            key = self.env.keys(current)
            found = _facts(self.env, current, key, self.env.keys.source(current)) if key != MISSING else None
            if found is None or found.refs is None:
                return None
            reads |= found.reads
            todo.extend(found.refs | found.parents)
        return frozenset(reads)


Record = tuple[tuple[str, str], ...]
"""(template name, key) of every template a unit's render loaded or looked for (`OutputEntry.templates`)."""


@dataclass
class BlockEdits:
    """What an edit of templates changed, for each page's chain of layouts: `old` is the environment the pages
    were last rendered with (its keys hold the texts they read), `new` the one they are rendered with now."""

    old: TrackingEnvironment
    new: TrackingEnvironment
    _plans: dict[tuple[str, int, bool], tuple[Record, tuple[frozenset[str], tuple[str, ...]] | None]] = field(
        default_factory=dict)
    _patch_plans: dict[tuple[str, int], tuple[Record, PatchEdit | None]] = field(default_factory=dict)
    _expr_templates: dict[tuple[str, str, int], jinja2.Template] = field(default_factory=dict)
    _numbering: dict[int, tuple[Record, dict[tuple[str, int], tuple[str, int] | None] | None]] = field(
        default_factory=dict)

    def prepare(self, records: Iterable[Record]) -> None:
        """Read the facts of every template in these records (before workers fork: each reads them once)."""
        for record in records:
            for name, was in record:
                if was != MISSING:
                    self._new(name)
                    if self.new.keys(name) != was:
                        self._old(name, was)

    def _new(self, name: str) -> TemplateFacts | None:
        key = self.new.keys(name)
        return None if key == MISSING else _facts(self.new, name, key, self.new.keys.source(name))

    def _old(self, name: str, was: str) -> TemplateFacts | None:
        found = self.old.keys.sources.get(name)
        if found is None or template_key(*found) != was:
            return None
        return _facts(self.old, name, was, found[1])

    def plan(self, leaf: str, record: Record, *, skeleton: bool = False
             ) -> tuple[frozenset[str], tuple[str, ...]] | None:
        """(the blocks whose text may have changed, the chain of layouts from `leaf` up) for a page rendered with
        the layout `leaf` that loaded `record`; None when the page must be rendered whole. The edit changed only
        the bodies of those blocks, or with `skeleton`, maybe also the layouts' text outside their blocks (the
        other blocks' texts are then kept as they are, `Splice.keep`; scoped and required ones, before or after
        the edit, are among those made again)."""
        key = (leaf, id(record), skeleton)
        known = self._plans.get(key)
        if known is None or known[0] is not record:
            known = self._plans[key] = (record, self._plan(leaf, record, skeleton))
        return known[1]

    def _plan(self, leaf: str, record: Record, skeleton: bool
              ) -> tuple[frozenset[str], tuple[str, ...]] | None:
        chain: list[str] = []
        facts: list[TemplateFacts] = []
        name: str | None = leaf
        while name is not None:
            found = self._new(name)
            if found is None or not found.plain or name in chain or len(chain) > 32:
                return None
            chain.append(name)
            facts.append(found)
            name = found.extends
        edited: set[str] = set()
        assigned_before: set[str] = set()
        unkept: set[str] = set().union(*(f.unkept for f in facts))
        for name, was in record:
            if self.new.keys(name) == was:
                continue
            if name not in chain:
                return None
            old, new = self._old(name, was), self._new(name)
            if old is None or new is None or not old.plain:
                return None
            if old.skeleton != new.skeleton:  # (the blocks a layout defines, and where, are in its skeleton)
                if not skeleton or old.extends != new.extends:
                    return None
                assigned_before |= old.assigned  # (a kept block's text was made with these)
                unkept |= old.unkept
            edited |= {b for b in old.bodies.keys() | new.bodies.keys() if old.bodies.get(b) != new.bodies.get(b)}
        if any(edited & f.scoped for f in facts):
            return None
        # No edited layout is included or imported by a template of the page (its text there would change).
        if not self._reached_by_chain_only(record, chain, {name for name, was in record if self.new.keys(name) != was}):
            return None
        assigned = frozenset().union(assigned_before, *(f.assigned for f in facts))
        if assigned:
            reads = self._block_reads(facts)
            if reads & assigned or any(name.startswith("\x00") for name in reads):  # (`_ANY_NAME`, or unknown)
                return None
        if skeleton:  # (made again, not kept)
            edited |= unkept
        return frozenset(edited), tuple(chain)

    def patch_plan(self, leaf: str, record: Record) -> PatchEdit | None:
        """The literal texts and output expressions the edit changed, for a page rendered with the layout `leaf`
        that loaded `record`, when the page's last file can be given them without rendering it (`Splice.patch`):
        None when the edit changed anything else, or one that cannot be placed (`_patch_texts`)."""
        key = (leaf, id(record))
        known = self._patch_plans.get(key)
        if known is None or known[0] is not record:
            known = self._patch_plans[key] = (record, self._patch_plan(leaf, record))
        return known[1]

    def patches_only(self, record: Record) -> bool:
        """Whether the edit looks like one that `patch_plan` finds for pages that loaded `record`, whatever their
        layout: it changed only literal texts and expressions that can be placed, of templates that none of them
        includes. (A guess
        made before rendering: a quick rebuild makes such pages in this process, cheaper than forking a copy.)"""
        changed = [(name, was) for name, was in record if self.new.keys(name) != was]
        facts = [self._new(name) for name, was in record if was != MISSING]
        for name, was in changed:
            if self._patch_texts(name, was) is None \
                    or any(found is None or found.refs is None or name in found.refs for found in facts):
                return False
        return bool(changed)

    def _patch_texts(self, name: str, was: str) -> tuple[dict[int, tuple[str, str, str | None]],
                                                         dict[int, tuple[int, int, str | None]]] | None:
        """What an edit of the template `name` (last rendered as `was`) changed, when it changed only literal texts
        and output tags' expressions that a page's last file can be given without rendering it: ({run number: (its
        text before, its text now, its block)} of the changed literal texts, {number of the run before: (the
        expression's number among the template's output expressions, the number of the run after, its block)} of
        the changed expressions); else None. Each such text is output straight (a text captured by a macro or a
        `{% set %}` is not placed) and not empty (an empty text's place does not say on which side of a block's
        start or end it is). Each such expression is between two such texts of its output tag, in no other tag than
        blocks and `if`s, and reads no name the template sets or that depends on where it is (`loop`): its text is
        between those two texts' places, and it has the same value with the page's variables alone."""
        old, new = self._old(name, was), self._new(name)
        if old is None or new is None or not old.plain or old.uses_super or old.outputs != new.outputs \
                or not self._named_as_asked(name) or old.literal_runs is None or new.literal_runs is None \
                or len(old.literal_runs) != len(new.literal_runs) or old.output_exprs is None \
                or new.output_exprs is None or len(old.output_exprs) != len(new.output_exprs):
            return None
        texts: dict[int, tuple[str, str, str | None]] = {}
        for number, (before, after) in enumerate(zip(old.literal_runs, new.literal_runs, strict=True)):
            if before[0] != after[0]:
                if not (before[1] and after[1]) or not before[0]:
                    return None
                texts[number] = (before[0], after[0], before[2])
        exprs: dict[int, tuple[int, int, str | None]] = {}
        unplain = _UNPLAIN_NAMES | old.stored | new.stored
        for number, (was_expr, expr) in enumerate(zip(old.output_exprs, new.output_exprs, strict=True)):
            if was_expr.tree == expr.tree:
                continue
            slot = expr.slot
            if slot is None or was_expr.slot != slot or not expr.plain or expr.reads & unplain \
                    or (_ANY_NAME in expr.reads and (old.stored or new.stored)):
                return None
            runs = [old.literal_runs[slot[0]], old.literal_runs[slot[1]], new.literal_runs[slot[0]],
                    new.literal_runs[slot[1]]]
            if not all(direct and text for text, direct, _ in runs):
                return None
            exprs[slot[0]] = (number, slot[1], runs[0][2])
        return texts, exprs

    def renumbering(self, record: Record) -> dict[tuple[str, int], tuple[str, int] | None] | None:
        """{old `Literal.key`: its key now, None when its run is gone} for the runs of literal text that the edit
        numbered otherwise in the templates of `record` it changed (an expression added before them, or a block
        that lost a run): a block made again makes its own keys, the text kept around it has the old ones. A
        block's runs keep their places in it when it has as many, with the same texts; None when not known."""
        known = self._numbering.get(id(record))
        if known is None or known[0] is not record:
            known = self._numbering[id(record)] = (record, self._renumbering(record))
        return known[1]

    def _renumbering(self, record: Record) -> dict[tuple[str, int], tuple[str, int] | None] | None:
        mapping: dict[tuple[str, int], tuple[str, int] | None] = {}
        for name, was in record:
            if self.new.keys(name) == was:
                continue
            old, new = self._old(name, was), self._new(name)
            if old is None or new is None or old.literal_runs is None or new.literal_runs is None:
                return None
            now = _runs_by_block(new.literal_runs)
            for block, runs in _runs_by_block(old.literal_runs).items():
                fresh = now.get(block, [])
                same = [run[1:] for run in runs] == [run[1:] for run in fresh]
                for at, (number, *_) in enumerate(runs):
                    target = fresh[at][0] if same else None
                    if target != number:
                        mapping[(name, number)] = (name, target) if target is not None else None
        return mapping

    def _reached_by_chain_only(self, record: Record, chain: list[str] | tuple[str, ...], changed: set[str]) -> bool:
        """Whether no template of `record` includes, imports or extends a `changed` one other than as the chain of
        layouts does (a layout of the chain extends the next one; any other extending, like any include, renders
        it: its text there would change)."""
        for name, was in record:
            found = self._new(name) if was != MISSING else None
            if found is None:
                if was != MISSING:
                    return False
                continue
            if found.refs is None or found.refs & changed or (name not in chain and found.parents & changed):
                return False
        return True

    def _named_as_asked(self, name: str) -> bool:
        """Whether the template `name` was compiled under that name: its literal texts' keys
        (`sitegen.templates.Literal.key`) carry the compiled name, which for a layout reached as `theme/base.html`
        is the theme's own `base.html`, the name of the site's layout too."""
        try:
            return self.new.get_template(name).name == name
        except jinja2.TemplateError:
            return False

    def _patch_plan(self, leaf: str, record: Record) -> PatchEdit | None:
        chain: list[str] = []
        name: str | None = leaf
        while name is not None:
            found = self._new(name)
            if found is None or not found.plain or found.uses_super or name in chain or len(chain) > 32:
                return None  # (`super()` captures a parent's block text: its literal texts are not placed)
            chain.append(name)
            name = found.extends
        if any(not self._named_as_asked(name) for name in chain):
            return None
        texts: dict[tuple[str, int], tuple[str, str]] = {}
        exprs: dict[tuple[str, int], ExprSlot] = {}
        blocks: set[str] = set()
        changed: set[str] = set()
        assigned = frozenset().union(*(found.assigned for name in chain if (found := self._new(name)) is not None))
        for name, was in record:
            if self.new.keys(name) == was:
                continue
            changes = self._patch_texts(name, was) if name in chain else None
            if changes is None:
                return None
            runs, slots = changes
            for number, (before, after, block) in runs.items():
                texts[(name, number)] = (before, after)
                if block is not None:
                    blocks.add(block)
            for number, (expr, after_run, block) in slots.items():
                slot = self._expr_slot(name, was, number, expr, after_run, assigned)
                if slot is None:
                    return None
                exprs[(name, number)] = slot
                texts.pop((name, number), None)  # (its text is made with the expression's)
                if block is not None:
                    blocks.add(block)
            changed.add(name)
        if not self._reached_by_chain_only(record, chain, changed):
            return None
        encoded = {key: (before.encode("utf-8", "surrogatepass"), after.encode("utf-8", "surrogatepass"))
                   for key, (before, after) in texts.items()}
        return PatchEdit(texts, encoded, frozenset(blocks), exprs)

    def _expr_slot(self, name: str, was: str, run: int, number: int, after_run: int, assigned: frozenset[str]
                   ) -> ExprSlot | None:
        """The changed output expression `number` of the template `name`, between its runs of literal text `run`
        and `after_run`, made into a template of its own (that a page's variables alone render as the layout
        does: its names are set at no layout's top level, `assigned`); None when it cannot be."""
        new_facts, old_facts = self._new(name), self._old(name, was)
        source = self.new.keys.source(name)
        if new_facts is None or old_facts is None or new_facts.output_exprs is None or source is None \
                or new_facts.literal_runs is None or old_facts.literal_runs is None \
                or new_facts.output_exprs[number].reads & assigned \
                or (_ANY_NAME in new_facts.output_exprs[number].reads and assigned):
            return None
        key = (name, self.new.keys(name), number)
        template = self._expr_templates.get(key)
        if template is None:
            try:
                tree = self.new.parse(source, name)
                expr = next(itertools.islice(_output_exprs(tree), number, None))[0]
                alone = nodes.Template([nodes.Output([expr], lineno=expr.lineno)], lineno=1)
                alone.set_environment(self.new)
                code = self.new.compile(alone, name, self.new.keys.sources[name][0]
                                        if name in self.new.keys.sources else None)
                template = self._expr_templates[key] = self.new.template_class.from_code(
                    self.new, code, self.new.make_globals(None))
            except (jinja2.TemplateError, StopIteration, TypeError):
                return None
        before, after = old_facts.literal_runs[run][0], new_facts.literal_runs[run][0]
        return ExprSlot(template, (name, after_run), before, after, before.encode("utf-8", "surrogatepass"),
                        after.encode("utf-8", "surrogatepass"))

    def _block_reads(self, facts: list[TemplateFacts]) -> frozenset[str]:
        """The names the chain's blocks, and the templates they include with the context, read from it."""
        reads: set[str] = set()
        todo: list[str] = []
        for found in facts:
            reads |= found.block_reads
            if found.block_refs is None:
                return frozenset({"\x00unknown"})
            todo.extend(found.block_refs)
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            included = self._new(name)
            if included is None or included.refs is None:
                return frozenset({"\x00unknown"})
            reads |= included.reads
            todo.extend(included.refs | included.parents)
        return frozenset(reads)


@dataclass(frozen=True)
class PatchEdit:
    """An edit of a page's layouts that changed only literal texts and expressions that can be placed in its last
    file (`BlockEdits.patch_plan`)."""

    texts: dict[tuple[str, int], tuple[str, str]]
    """{`Literal.key`: (its text before, its text now)} of each literal text the edit changed."""
    encoded: dict[tuple[str, int], tuple[bytes, bytes]]
    """The same texts in UTF-8."""
    blocks: frozenset[str]
    """The blocks those texts and expressions are in (every call of each must have been placed)."""
    exprs: dict[tuple[str, int], ExprSlot] = field(default_factory=dict)
    """{`Literal.key` of the literal text before it: the slot} of each output expression the edit changed."""
    _indexes: dict[int, tuple[tuple[tuple[str, int], ...], list[int]]] = field(default_factory=dict, compare=False)

    def indexes(self, keys: tuple[tuple[str, int], ...]) -> list[int]:
        """The indexes in a page's `keys` (`OutputEntry.literals`) of the texts this edit changed (found once for
        the pages that share their keys: those whose layouts output the same literal texts)."""
        known = self._indexes.get(id(keys))
        if known is None or known[0] is not keys:
            known = self._indexes[id(keys)] = (keys, [i for i, key in enumerate(keys)
                                                      if key in self.texts or key in self.exprs])
        return known[1]


@dataclass(frozen=True)
class ExprSlot:
    """An output expression an edit changed, where a page's last file has its text: from the start of the literal
    text before it (its run number is the key of `PatchEdit.exprs`) to the start of the one after it."""

    template: jinja2.Template
    """The expression alone, as a template (rendered with a page's variables: its text there)."""
    after: tuple[str, int]
    """The `Literal.key` of the literal text after it."""
    before_text: str
    """The literal text before it, before the edit ..."""
    after_text: str
    """... and now."""
    before_bytes: bytes
    """The same, in UTF-8."""
    after_bytes: bytes


class Splice:
    """One unit's previous render, to be made again by rendering only its edited blocks (`render_recorded`)."""

    def __init__(self, edits: BlockEdits, entry: OutputEntry) -> None:
        self.edits = edits
        self.entry = entry
        self.used = False
        """Whether the unit was made this way (its templates and reads are then the last render's too)."""
        self.file: bytes | None = None
        """The unit's file, when it was made in its last file's bytes (`patch`): the render then returns no text."""

    def patch(self, env: TrackingEnvironment, leaf: str, variables: dict[str, Any]) -> bytes | None:
        """The page's file after an edit that changed only literal texts of its layouts and expressions between two
        of them (`BlockEdits.patch_plan`): its last bytes with each place of those texts given the new one, and
        each such expression's text (from the start of the literal text before it to the start of the one after
        it) the new expression's, rendered alone with the page's `variables`: as a render would make it (the same
        code on the same variables, some of its constant texts and some values it outputs changed), or None when
        the page must be rendered. `env.block_calls` gets every block's and literal text's place in the new text,
        `env.fragments` the included templates' texts, moved. Made on the bytes (the file is neither decoded nor
        encoded again)."""
        entry, fragments = self.entry, env.fragments
        places, literals = entry.blocks, entry.literals
        if places is None or literals is None or fragments is None or fragments.previous_file is None:
            return None
        plan = self.edits.patch_plan(leaf, entry.templates)
        if plan is None:
            return None
        if plan.blocks and any(start < 0 and name in plan.blocks for name, start, _, _ in places):
            return None  # a call whose text was captured: its literal texts are not placed
        keys, starts, starts_bytes = literals
        old = memoryview(fragments.previous_file)
        pieces: list[bytes | memoryview] = []
        at_edits: list[int] = []  # where each changed text starts in the old text ...
        ends: list[int] = []  # ... and ends ...
        shifts: list[int] = []  # ... how much longer than it the texts changed so far are ...
        at_bytes: list[int] = []  # ... and the same in bytes
        shifts_bytes: list[int] = []
        at = shift = shift_bytes = 0
        for index in plan.indexes(keys):
            start = starts_bytes[index]
            slot = plan.exprs.get(keys[index])
            if slot is None:
                before, after = plan.encoded[keys[index]]
                texts = plan.texts[keys[index]]
                length, new_length, end = len(texts[0]), len(texts[1]), start + len(before)
            else:
                if index + 1 >= len(keys) or keys[index + 1] != slot.after:
                    return None  # (not as recorded: rendered instead)
                try:
                    value = slot.template.render(variables)
                    encoded = value.encode("utf-8")  # (a lone surrogate fails as the page's render does)
                except Exception:  # noqa: BLE001 - the page's render reports it
                    return None
                before, after = slot.before_bytes, slot.after_bytes + encoded
                length, new_length = starts[index + 1] - starts[index], len(slot.after_text) + len(value)
                end = starts_bytes[index + 1]
            if start < at or old[start:start + len(before)] != before:
                return None  # (not as recorded: rendered instead)
            pieces.append(old[at:start])
            pieces.append(after)
            at = end
            shift += new_length - length
            shift_bytes += len(after) - (end - start)
            at_edits.append(starts[index])
            ends.append(starts[index] + length)
            shifts.append(shift)
            at_bytes.append(start)
            shifts_bytes.append(shift_bytes)
        pieces.append(old[at:])
        # The included templates' texts were found in the page by their text (`Fragments.finish`): one found inside
        # a changed text (an include that output "\n"), or out of order, would be moved wrongly.
        spans = entry.spans
        if any(spans[i] > spans[i + 1] for i in range(len(spans) - 1)) or any(
                spans[i] < spans[i + 1] and spans[i] < end and start < spans[i + 1]
                for start, end in zip(at_edits, ends, strict=True) for i in range(0, len(spans), 2)):
            return None

        def moved(position: int) -> int:  # a place after a changed text's start moves with it (none is inside)
            count = bisect.bisect_left(at_edits, position)
            return position + shifts[count - 1] if count else position

        # (The included templates' texts, in order, have no changed text inside: their starts and ends move alike.)
        fragments.all_kept(_moved_starts(spans, at_edits, shifts))
        calls = env.block_calls = BlockCalls()
        calls.found = tuple(place if place[1] < 0 else (place[0], moved(place[1]), moved(place[2]), place[3])
                            for place in places)
        calls.literals = list(keys)
        calls.literal_starts = _moved_starts(starts, at_edits, shifts)
        calls.literal_bytes = _moved_starts(starts_bytes, at_bytes, shifts_bytes)
        self.used = True
        return b"".join(pieces)

    def redo(self, leaf: str) -> tuple[list[int], tuple[str, ...]] | None:
        """(the indexes in `entry.blocks` of the outermost calls to make again, the chain of layouts), or None."""
        places = self.entry.blocks
        if places is None:
            return None
        plan = self.edits.plan(leaf, self.entry.templates)
        if plan is None:
            return None
        edited, chain = plan
        redo: list[int] = []
        inside = -1  # the depth of the call being made again, while in it
        for index, (name, start, _, depth) in enumerate(places):
            if inside >= 0 and depth > inside:
                continue
            inside = -1
            if name in edited:
                if start < 0:
                    return None
                redo.append(index)
                inside = depth
        return redo, chain

    def keep(self, leaf: str) -> dict[str, tuple[int, int]] | None:
        """For an edit that also changed the layouts' text outside their blocks: {block name: its text's start and
        end in the last output} for each block the page's layouts call outside any block (at the top of the page)
        whose text stays as it was, or None (the page is rendered whole, every block made again). A block's text
        stays when neither its body nor that of a block called inside it changed, and no block reads a name a
        layout sets outside its blocks (before or after the edit): a block sees only the page's variables then,
        whatever surrounds its call. A block called twice at the top is made again."""
        places = self.entry.blocks
        if places is None:
            return None
        plan = self.edits.plan(leaf, self.entry.templates, skeleton=True)
        if plan is None:
            return None
        edited = plan[0]
        ends = _subtree_ends(places)
        kept: dict[str, tuple[int, int]] = {}
        again: set[str] = set()  # (made again wherever they are called)
        index = 0
        while index < len(places):  # the calls at the top, each with the calls made inside it
            name, start, end, _ = places[index]
            if name in kept or name in again:  # (called twice)
                again.add(name)
                kept.pop(name, None)
            elif start >= 0 and not any(places[i][0] in edited for i in range(index, ends[index])):
                kept[name] = (start, end)
            else:
                again.add(name)
            index = ends[index]
        return kept or None

    def render_kept(self, env: TrackingEnvironment, context: jinja2.runtime.Context,
                    template: jinja2.Template, kept: dict[str, tuple[int, int]]) -> str:
        """The page rendered whole, each block in `kept` called as it was last time: its text (and the included
        templates' texts in it, for `Fragments.finish`) taken from the last output instead of made again."""
        fragments = env.fragments
        assert fragments is not None  # (a splice is made only where fragments are recorded)
        old = fragments.previous_text()
        spans = self.entry.spans

        def kept_text(start: int, end: int, _context: jinja2.runtime.Context) -> Iterator[str]:
            for index in range(len(spans) // 2):
                if start <= spans[2 * index] and spans[2 * index + 1] <= end:
                    fragments.keep(index, -1)  # (where it is in the new text: `finish` finds it)
            yield old[start:end]

        # The page's own blocks are in the context already, the layouts' are added by their `{% extends %}` (after
        # these: the most derived comes first). Only the kept names are touched: the others' lists stay as long as
        # a whole render makes them (a required block's call counts them).
        for name, (start, end) in kept.items():
            context.blocks[name] = [functools.partial(kept_text, start, end), *context.blocks.get(name, [])[1:]]
        self.used = True
        return "".join(template.root_render_func(context))

    def render(self, env: TrackingEnvironment, context: jinja2.runtime.Context, calls: BlockCalls,
               redo: list[int], chain: tuple[str, ...]) -> str:
        """The page with the calls `redo` made again, the rest of the text kept (with the included templates'
        texts in it, for `Fragments.finish`); `calls.found` becomes the places of every block in the new text."""
        for name in chain[1:]:  # as `{% extends %}` gives the context the blocks of each layout up the chain
            parent = env.get_template(name)
            for block, render in parent.blocks.items():
                context.blocks.setdefault(block, []).append(render)
        places, fragments = self.entry.blocks, env.fragments
        assert places is not None and fragments is not None  # (a splice is made only where fragments are recorded)
        old = fragments.previous_text()
        spans = self.entry.spans
        count = len(spans) // 2
        kept = 0  # the previous fragments before this one are dealt with
        pieces: list[str] = []
        at = length = 0
        made: list[BlockPlaces] = []
        deltas: list[int] = []
        deltas_bytes: list[int] = []
        regions: list[tuple[int, int, int, int]] = []  # each call's text's start and end, in characters and bytes
        length_bytes = at_bytes = 0  # (the UTF-8 lengths of the new text so far and of the old text up to `at`)
        for index in redo:
            name, start, end, depth = places[index]
            piece = old[at:start]
            pieces.append(piece)
            length += start - at
            start_bytes = at_bytes + utf8_length(piece)
            end_bytes = start_bytes + utf8_length(old[start:end])
            regions.append((start, end, start_bytes, end_bytes))
            length_bytes += start_bytes - at_bytes
            while kept < count and spans[2 * kept + 1] <= start:  # before the call: kept as it is
                fragments.keep(kept, spans[2 * kept] + length - start)
                kept += 1
            while kept < count and spans[2 * kept + 1] <= end:  # inside it: its new render records its own
                kept += 1
            calls.found, calls.depth = (), depth
            text = calls.join(env.block_parts(context, name), offset=length, offset_bytes=length_bytes)
            made.append(calls.found)
            pieces.append(text)
            length += len(text)
            length_bytes += calls.joined_bytes
            deltas.append(len(text) - (end - start))
            deltas_bytes.append(calls.joined_bytes - (end_bytes - start_bytes))
            at, at_bytes = end, end_bytes
        pieces.append(old[at:])
        for index in range(kept, count):
            fragments.keep(index, spans[2 * index] + length - at)
        calls.found = _spliced(places, redo, made, deltas)
        renumbered = self.edits.renumbering(self.entry.templates)
        if self.entry.literals is None or renumbered is None:
            calls.literals_known = False
        else:  # those of the calls made again are found by their joins; the others move as the text around them
            keys, starts, starts_bytes = self.entry.literals
            if renumbered:  # (the kept text's keys as the edited templates number their runs now)
                keys = tuple(renumbered.get(key, key) for key in keys)  # type: ignore[misc]
            calls.literals, calls.literal_starts, calls.literal_bytes = _spliced_literals(
                (keys, starts, starts_bytes), regions, deltas, deltas_bytes,
                (calls.literals, calls.literal_starts, calls.literal_bytes))
            if renumbered and None in calls.literals:
                calls.literals_known = False  # (a run kept whose number is not known now)
        self.used = True
        return "".join(pieces)


def _runs_by_block(runs: Sequence[tuple[str, bool, str | None]]
                   ) -> dict[str | None, list[tuple[int, str, bool]]]:
    """A template's runs of literal text (`TemplateFacts.literal_runs`) by the block they are in: (number, text,
    output straight), in order."""
    found: dict[str | None, list[tuple[int, str, bool]]] = {}
    for number, (text, direct, block) in enumerate(runs):
        found.setdefault(block, []).append((number, text, direct))
    return found


def _spliced_literals(literals: Literals, regions: list[tuple[int, int, int, int]], deltas: list[int],
                      deltas_bytes: list[int], made: tuple[list[tuple[str, int]], Sequence[int], Sequence[int]]
                      ) -> tuple[list[tuple[str, int]], array.array[int], array.array[int]]:
    """The literal texts' keys and starts (in characters and bytes) after the calls whose texts were at `regions`
    (start, end, in characters then in bytes, in order) were made again, each `deltas` longer (`deltas_bytes` in
    bytes): the old ones outside those calls, moved, and the new ones (`made`, placed already) where the calls
    were."""
    keys, starts, starts_bytes = literals
    made_keys, made_starts, made_bytes = made
    out_keys: list[tuple[str, int]] = []
    out_starts, out_bytes = array.array("l"), array.array("l")
    index = new = shift = shift_bytes = 0
    for (start, end, _, _), delta, delta_bytes in zip(regions, deltas, deltas_bytes, strict=True):
        before = bisect.bisect_left(starts, start, index)  # before the call: moved by the calls before it
        out_keys.extend(keys[index:before])
        out_starts.extend([at + shift for at in starts[index:before]] if shift else starts[index:before])
        out_bytes.extend([at + shift_bytes for at in starts_bytes[index:before]] if shift_bytes
                         else starts_bytes[index:before])
        index = bisect.bisect_left(starts, end, before)  # inside it: made again
        shift += delta
        shift_bytes += delta_bytes
        made_end = bisect.bisect_right(made_starts, end + shift, new)  # the call's own, made again
        out_keys.extend(made_keys[new:made_end])
        out_starts.extend(made_starts[new:made_end])
        out_bytes.extend(made_bytes[new:made_end])
        new = made_end
    out_keys.extend(keys[index:])
    out_starts.extend([at + shift for at in starts[index:]] if shift else starts[index:])
    out_bytes.extend([at + shift_bytes for at in starts_bytes[index:]] if shift_bytes else starts_bytes[index:])
    out_keys.extend(made_keys[new:])
    out_starts.extend(made_starts[new:])
    out_bytes.extend(made_bytes[new:])
    return out_keys, out_starts, out_bytes


def _moved_starts(starts: Sequence[int], at_edits: list[int], shifts: list[int]) -> array.array[int]:
    """Places in a text (in order: literal texts' starts, included templates' starts and ends) after the changed
    texts that start at `at_edits` made the text longer by `shifts` in all (so far): a place after a changed
    text's start moves with it."""
    out = array.array("l")
    done = 0
    for number, at in enumerate(at_edits):
        end = bisect.bisect_right(starts, at, done)  # (the changed text itself stays where it starts)
        shift = shifts[number - 1] if number else 0
        out.extend(starts[done:end] if not shift else [s + shift for s in starts[done:end]])
        done = end
    shift = shifts[-1] if shifts else 0
    out.extend(starts[done:] if not shift else [s + shift for s in starts[done:]])
    return out


def _spliced(places: BlockPlaces, redo: list[int], made: list[BlockPlaces], deltas: list[int]) -> BlockPlaces:
    """The places of every block call after the calls `redo` were made again (`made`: the places of each one's
    calls in the new text, its own first; `deltas`: how much longer each one's text is)."""
    ends = _subtree_ends(places)
    shift = [0] * (len(places) + 1)  # shift[i]: how far the calls made again before index i moved the text
    roots = dict(zip(redo, range(len(redo)), strict=True))
    total = 0
    for i in range(len(places)):
        shift[i] = total
        if i in roots:
            total += deltas[roots[i]]
    shift[len(places)] = total
    out: list[tuple[str, int, int, int]] = []
    i = 0
    while i < len(places):
        if i in roots:
            out.extend(made[roots[i]])
            i = ends[i]
            continue
        name, start, end, depth = places[i]
        out.append((name, start, end, depth) if start < 0 else
                   (name, start + shift[i], end + shift[ends[i]], depth))
        i += 1
    return tuple(out)


def _subtree_ends(places: BlockPlaces) -> list[int]:
    """For each call, the index after the calls made inside it (places are in the order calls began)."""
    ends = [len(places)] * len(places)
    open_: list[int] = []
    for i, (_, _, _, depth) in enumerate(places):
        while open_ and places[open_[-1]][3] >= depth:
            ends[open_.pop()] = i
        open_.append(i)
    return ends


def render_recorded(env: TrackingEnvironment, template: jinja2.Template, variables: dict[str, Any],
                    splice: Splice | None = None) -> str:
    """Render a page with its blocks' places recorded in `env.block_calls` (the dev server's idle recorder), or
    with `splice` (a template edit) by making again only its edited blocks when that gives the same page
    (`Splice.redo`: the new places are recorded in a new `env.block_calls`), else whole around the last texts of
    the blocks the edit left as they were (`Splice.keep`: an edit outside the blocks), else whole; recording none
    in those two ways (a render of the whole page is left as quick as before; the idle recorder records its places
    later). Before those: an edit of literal texts alone is made in the file's bytes (`Splice.patch`), which
    `splice.file` then holds, and the text returned is empty."""
    if splice is not None:
        name = template.name
        patched = splice.patch(env, name, variables) if name is not None else None
        if patched is not None:
            splice.file = patched
            return ""  # (the file is made: `Splice.file`)
        plan = splice.redo(name) if name is not None else None
        if plan is None:
            kept = splice.keep(name) if name is not None else None
            if kept is None:
                return template.render(variables)
            context = template.new_context(variables)
            try:
                return splice.render_kept(env, context, template, kept)
            except Exception:  # noqa: BLE001 - as Template.render: the template's lines in the traceback
                env.handle_exception()
        env.block_calls = BlockCalls()
    calls = env.block_calls
    assert calls is not None
    context = template.new_context(variables)
    calls.context = context
    try:
        if splice is not None and plan is not None:
            return splice.render(env, context, calls, *plan)
        return calls.join(list(template.root_render_func(context)))
    except Exception:  # noqa: BLE001 - as Template.render: the template's lines in the traceback
        env.handle_exception()
