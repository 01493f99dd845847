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
MAX_WRITTEN_OUT = 4_096   # nodes of a body, with the formulas it calls written out (as the longest expression)


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
    # What is found once per book and kept: each formula's size written out, which ones roll dice.
    memo: dict = field(default_factory=dict, repr=False)

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
    some (so a formula read at any time is known to roll no dice, whatever it calls); None if none.
    Which formulas roll is found once per book, in one pass over its calls (linear, no recursion)."""
    from .ast import Call, Dice, walk

    rolls = _rolls(book)
    for node in walk(tree):
        if isinstance(node, Dice):
            return node
        if isinstance(node, Call) and node.function in book and node.function not in seen and \
                node.function in rolls:
            return node
    return None


def _rolls(book: Mapping) -> frozenset:
    """The names of the formulas that roll dice, themselves or through the formulas they call."""
    found = book.memo.get("rolls") if isinstance(book, FormulaBook) else None
    if found is not None:
        return found
    from .ast import Call, Dice, walk

    callers: dict = {}
    rolling = []
    for name, formula in book.items():
        for node in walk(formula.tree):
            if isinstance(node, Dice):
                rolling.append(name)
            elif isinstance(node, Call) and node.function in book:
                callers.setdefault(node.function, set()).add(name)
    found = set(rolling)
    for name in rolling:                # every caller of a formula that rolls rolls too
        for caller in callers.get(name, ()):
            if caller not in found:
                found.add(caller)
                rolling.append(caller)
    found = frozenset(found)
    if isinstance(book, FormulaBook):
        book.memo["rolls"] = found
    return found



def nesting(tree, book: Mapping, seen: tuple = ()) -> int:
    """How deep a tree nests once the bodies of the formulas it calls are written in place
    (a call nests its body one level below it)."""
    return written_out(tree, book)[0]


def written_out(tree, book: Mapping) -> tuple[int, int]:
    """(depth, nodes) of a tree once the bodies of the formulas it calls are written in place: a
    call nests its body one level below it, and adds the body's nodes. Each formula is measured
    once per book (a chain of formulas each calling the next twice is linear work, not 2^n), and a
    formula met again while it is being measured (a cycle, refused elsewhere) counts as a leaf."""
    cache = _measured(book)
    return _measure(tree, book, cache, set())


def _measured(book: Mapping) -> dict:
    # A plain dict of formulas (a test's) is measured afresh each time.
    return book.memo.setdefault("written_out", {}) if isinstance(book, FormulaBook) else {}


def _measure(tree, book: Mapping, cache: dict, open_: set) -> tuple[int, int]:
    from .ast import Call

    deepest, nodes = 0, 0
    stack = [(tree, 1)]
    while stack:
        node, level = stack.pop()
        nodes += 1
        deepest = max(deepest, level)
        if isinstance(node, Call) and node.function in book and node.function not in open_:
            name = node.function
            if name in cache:
                depth, size = cache[name]
            elif len(open_) > MAX_NESTING:
                # Past the nesting limit already (each call nests one level at least): too deep, and
                # not measured further (not kept either: measured on its own, it may be shallower).
                depth, size = MAX_NESTING + 1, 1
            else:
                open_.add(name)
                depth, size = cache[name] = _measure(book[name].tree, book, cache, open_)
                open_.discard(name)
            deepest = max(deepest, level + depth)
            nodes += size
        stack.extend((child, level + 1) for child in _children(node))
    return deepest, nodes



def _children(node):
    from dataclasses import fields, is_dataclass

    if not is_dataclass(node):
        return
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if is_dataclass(item) and hasattr(item, "span"):
                yield item


__all__ = ["NamedFormula", "FormulaBook", "NO_FORMULAS", "calls_in", "first_roll", "nesting", "written_out",
           "MAX_NESTING", "MAX_WRITTEN_OUT"]
