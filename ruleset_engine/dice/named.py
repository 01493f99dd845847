"""Named formulas: a ruleset's own functions, `success(pool, diff)`, written in the dice language.

A named formula is a body (one expression) and the names of its parameters. A call evaluates
each argument once, in order, then the body with the parameters bound to those values, so
`success(7d10, 6)` rolls its seven dice once however often the body reads `pool`. The body reads
only its parameters, `params.NAME` and other named formulas (checked when the ruleset loads, in
ruleset/formulas.py); a formula that calls itself, directly or through others, is refused there,
and again here (`calling`), so the lowering never recurses without end.

The lowering writes a call in place: the body lowered with the parameters as names, with the
kinds the arguments have at this call. Arguments that are constants or plain reads are put in
place of the parameters (nothing to evaluate twice); others are bound by a lambda's parameters.
A body that can fail when it runs goes through `formula_call`, which places the error in the
body's text, with the formula's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

MAX_NESTING = 24     # levels of a body, with the formulas it calls written out (Python nests ~200 brackets)


@dataclass(frozen=True, slots=True, eq=False)
class NamedFormula:
    """One named formula: its name, its parameters, its body's text and syntax tree."""

    name: str
    params: tuple[str, ...]
    text: str
    tree: object
    doc: object = None

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(self.params)})"


@dataclass(frozen=True, eq=False)
class FormulaBook(Mapping):
    """The named formulas of one ruleset, by name (hashed by identity, so compiled expressions
    can be cached per book)."""

    formulas: dict = field(default_factory=dict)

    def __getitem__(self, name: str) -> NamedFormula:
        return self.formulas[name]

    def __iter__(self):
        return iter(self.formulas)

    def __len__(self) -> int:
        return len(self.formulas)

    __hash__ = object.__hash__


NO_FORMULAS = FormulaBook()


def calls_in(tree, book: Mapping) -> list:
    """The calls of named formulas in a syntax tree: [(ast.Call, NamedFormula)]."""
    from .ast import Call, walk

    return [(n, book[n.function]) for n in walk(tree) if isinstance(n, Call) and n.function in book]


def first_roll(tree, book: Mapping, seen: tuple = ()):
    """The first node that rolls dice: a Dice node, or the call of a named formula whose body rolls
    some (so a formula read at any time is known to roll no dice, whatever it calls); None if none."""
    from .ast import Call, Dice, walk

    for node in walk(tree):
        if isinstance(node, Dice):
            return node
        if isinstance(node, Call) and node.function in book and node.function not in seen:
            if first_roll(book[node.function].tree, book, seen + (node.function,)) is not None:
                return node
    return None


def nesting(tree, book: Mapping, seen: tuple = ()) -> int:
    """How deep a tree nests once the bodies of the formulas it calls are written in place
    (a call nests its body one level below it). `seen` stops a cycle (refused elsewhere)."""
    from .ast import Call

    def walk(node, level: int) -> int:
        deepest = level
        if isinstance(node, Call) and node.function in book and node.function not in seen:
            callee = book[node.function]
            deepest = max(deepest, level + nesting(callee.tree, book, seen + (callee.name,)))
        for child in _children(node):
            deepest = max(deepest, walk(child, level + 1))
        return deepest

    return walk(tree, 1)


def _children(node):
    from dataclasses import fields, is_dataclass

    if not is_dataclass(node):
        return
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if is_dataclass(item) and hasattr(item, "span"):
                yield item


__all__ = ["NamedFormula", "FormulaBook", "NO_FORMULAS", "calls_in", "first_roll", "nesting", "MAX_NESTING"]
