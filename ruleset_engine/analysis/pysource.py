"""A dice-language syntax tree as one Python expression over plain tuples of faces (for compiled.py).

One function per node type, in a table, as the evaluator has. A name is written by a
resolver the caller gives (a Python local, the game's values, or a param's value inlined).
A construct this translation does not cover raises NotCovered: the caller then leaves the
formula to the interpreter.
"""

from __future__ import annotations

from typing import Callable

from ruleset_engine.dice import ast

NUM, BOOL, STR, POOL, ANY = "num", "bool", "str", "pool", "any"


class NotCovered(Exception):
    """The compiled path does not cover this; the interpreter is used instead."""


class ExprSource:
    def __init__(self, resolve: Callable, aside_of: Callable | None = None):
        self.resolve = resolve          # path -> (python source, kind)
        self.aside_of = aside_of        # path -> python source of a bound name's left-out dice, or None

    def gen(self, node) -> tuple[str, str]:
        handler = GENERATORS.get(type(node))
        if handler is None:
            raise NotCovered(type(node).__name__)
        return handler(self, node)

    # Coercions, skipped where the kind is already known. A name is read twice rather than
    # calling a helper (reading a name has no effect), so the common case costs no call.
    def _coerced(self, node, kind: str, python_type: str, helper: str) -> str:
        src, found = self.gen(node)
        if found == kind:
            return src
        if isinstance(node, ast.Name):
            return f"({src} if type({src}) is {python_type} else _L.{helper}({src}))"
        return f"_L.{helper}({src})"

    def number(self, node) -> str:
        return self._coerced(node, NUM, "int", "num")

    def pool(self, node) -> str:
        return self._coerced(node, POOL, "tuple", "pool")

    def truth(self, node) -> str:
        return self._coerced(node, BOOL, "bool", "truth")

    def condition(self, node) -> tuple[str, str]:
        if not isinstance(node, ast.Condition):
            raise NotCovered("condition")
        return repr(node.op), self.number(node.operand)

    def aside(self, node) -> str:
        """The dice left out by the operation that made `node`'s pool."""
        if isinstance(node, ast.Name):
            if self.aside_of is None:
                raise NotCovered("aside of a name")
            return self.aside_of(node.path)
        if isinstance(node, ast.Dice) and node.modifiers:
            return f"{gen_dice_pair(self, node)}[1]"
        if isinstance(node, ast.PoolLiteral) and node.modifiers:
            return f"{gen_literal_pair(self, node)}[1]"
        if isinstance(node, (ast.Dice, ast.PoolLiteral)):
            return f"({self.gen(node)[0]}, ())[1]"    # made (its dice drawn), and nothing left out
        if isinstance(node, ast.Call):
            twin = ASIDE_TWINS.get(node.function)
            if twin is not None:
                return twin(self, node)
            if node.function == "sort":
                return self.aside(node.args[0])
            if node.function == "aside":
                return f"({self.gen(node)[0]}, ())[1]"
        raise NotCovered("aside")


def gen_integer(g, node):
    return repr(node.value), NUM


def gen_string(g, node):
    return repr(node.value), STR


def gen_boolean(g, node):
    return repr(node.value), BOOL


def gen_name(g, node):
    return g.resolve(node.path)


def gen_unary(g, node):
    inner = g.number(node.operand)
    return (f"(-{inner})" if node.op == "-" else inner), NUM


def gen_arithmetic(g, node):
    out = g.number(node.operands[0])
    for op, operand in zip(node.ops, node.operands[1:]):
        right = g.number(operand)
        out = f"_L.fdiv({out}, {right})" if op == "//" else f"({out} {op} {right})"
    return out, NUM


def gen_compare(g, node):
    left, lkind = g.gen(node.left)
    right, rkind = g.gen(node.right)
    if POOL in (lkind, rkind):
        raise NotCovered("a pool compared")
    if lkind == rkind == NUM:
        return f"({left} {node.op} {right})", BOOL
    # A name against a number: compared at once when the name holds a number (reading it twice is free).
    if isinstance(node.left, ast.Name) and rkind == NUM and isinstance(node.right, ast.Integer):
        return f"(({left} {node.op} {right}) if type({left}) is int else _L.compare({node.op!r}, {left}, {right}))", BOOL
    return f"_L.compare({node.op!r}, {left}, {right})", BOOL


def gen_all_of(g, node):
    return "(" + " and ".join(g.truth(x) for x in node.items) + ")", BOOL


def gen_any_of(g, node):
    return "(" + " or ".join(g.truth(x) for x in node.items) + ")", BOOL


def gen_not(g, node):
    return f"(not {g.truth(node.operand)})", BOOL


def gen_conditional(g, node):
    then, tkind = g.gen(node.then)
    other, okind = g.gen(node.otherwise)
    return f"({then} if {g.truth(node.test)} else {other})", (tkind if tkind == okind else ANY)


def rolls(node) -> bool:
    """Whether evaluating this may draw dice."""
    return any(isinstance(n, ast.Dice) for n in ast.walk(node))


def _mods(g, modifiers) -> str:
    parts = []
    for mod in modifiers:
        operand = mod.count if isinstance(mod, ast.Select) else (mod.condition.operand if mod.condition else None)
        if operand is not None and rolls(operand):
            raise NotCovered("a modifier whose value rolls dice")
        if isinstance(mod, ast.Select):
            n = g.number(mod.count) if mod.count is not None else "1"
            parts.append(f"({mod.kind!r}, {n})")
        elif isinstance(mod, ast.RerollDice):
            op, value = g.condition(mod.condition)
            parts.append(f"({'rr' if mod.repeat else 'r'!r}, {op}, {value})")
        else:
            if mod.condition is None:
                parts.append("('!', None, None)")
            else:
                op, value = g.condition(mod.condition)
                parts.append(f"('!', {op}, {value})")
    return "(" + "".join(p + ", " for p in parts) + ")"


def gen_dice_pair(g, node) -> str:
    # Count, then sides, then the modifiers' values (which roll nothing: see _mods), as the evaluator.
    count = g.number(node.count) if node.count is not None else "1"
    return f"_L.dice(_R, {count}, {g.number(node.sides)}, {_mods(g, node.modifiers)})"


def gen_dice(g, node):
    if node.modifiers:
        return f"{gen_dice_pair(g, node)}[0]", POOL
    sides = node.sides.value if isinstance(node.sides, ast.Integer) else None
    count = node.count.value if isinstance(node.count, ast.Integer) else 1 if node.count is None else None
    if sides is not None and sides >= 1:
        if count is not None and 0 <= count <= 8:     # a few dice of a known size: drawn in place
            return "(" + "".join(f"_R(1, {sides}), " for _ in range(count)) + ")", POOL
        return f"tuple([_R(1, {sides}) for _ in _L.times({g.number(node.count)})])", POOL
    count_src = g.number(node.count) if node.count is not None else "1"
    return f"_L.roll(_R, {count_src}, {g.number(node.sides)})", POOL


def _literal_faces(g, node) -> str:
    items = []
    for item in node.items:
        src, kind = g.gen(item)
        if kind == NUM:
            items.append(f"({src},)")
        elif kind == POOL:
            items.append(src)
        elif isinstance(item, ast.Name):
            items.append(f"({src} if type({src}) is tuple else _L.item({src}))")
        else:
            items.append(f"_L.item({src})")
    return "(" + " + ".join(items) + ")" if items else "()"


def gen_literal_pair(g, node) -> str:
    return f"_L.modified(_R, {_literal_faces(g, node)}, None, {_mods(g, node.modifiers)})"


def gen_pool_literal(g, node):
    if node.modifiers:
        return f"{gen_literal_pair(g, node)}[0]", POOL
    return _literal_faces(g, node), POOL


# ---- calls -----------------------------------------------------------------------------

def _kw(node, name):
    for keyword in node.keywords:
        if keyword.name == name:
            return keyword.value
    return None


def _const_condition(node):
    """(op, value) of a condition against a whole number written in the formula, or None."""
    if isinstance(node, ast.Condition) and isinstance(node.operand, ast.Integer):
        return node.op, node.operand.value
    return None


def call_count(g, node):
    fixed = _const_condition(node.args[1])
    if fixed is not None:
        op, value = fixed
        if op == "==":
            return f"{g.pool(node.args[0])}.count({value})", NUM
        return f"len([_f for _f in {g.pool(node.args[0])} if _f {op} {value}])", NUM
    op, value = g.condition(node.args[1])
    return f"_L.count({g.pool(node.args[0])}, {op}, {value})", NUM


def call_sum(g, node):
    return f"sum({g.pool(node.args[0])})", NUM


def call_size(g, node):
    return f"len({g.pool(node.args[0])})", NUM


def _extreme(g, node, high: bool):
    p = g.pool(node.args[0])
    if len(node.args) == 2:
        return f"_L.top({p}, {g.number(node.args[1])}, {high})", POOL
    default = _kw(node, "default")
    if default is not None and rolls(default):
        raise NotCovered("a default that rolls dice")
    name = "highest" if high else "lowest"
    if isinstance(default, ast.Integer):
        return f"{'max' if high else 'min'}({p}, default={default.value})", NUM
    return (f"_L.{name}({p}, {g.number(default)})" if default is not None else f"_L.{name}({p})"), NUM


def call_largest_set(g, node):
    ignore = _kw(node, "ignore")
    return (f"_L.largest_set({g.pool(node.args[0])}" + (f", {g.pool(ignore)})" if ignore is not None else ")")), POOL


def call_unpair(g, node):
    return f"_L.unpair({g.pool(node.args[0])})", POOL


def call_cancel(g, node):
    return f"_L.cancel({g.pool(node.args[0])}, {g.pool(node.args[1])})", POOL


def _filter(g, node, matching):
    fixed = _const_condition(node.args[1])
    if fixed is not None:
        op, value = fixed
        test = f"_f {op} {value}" if matching else f"not (_f {op} {value})"
        return f"tuple([_f for _f in {g.pool(node.args[0])} if {test}])", POOL
    op, value = g.condition(node.args[1])
    return f"_L.keep({g.pool(node.args[0])}, {op}, {value}, {matching})", POOL


def call_aside(g, node):
    return g.aside(node.args[0]), POOL


def call_sort(g, node):
    descending = _kw(node, "descending")
    reverse = g.truth(descending) if descending is not None else "False"
    return f"tuple(sorted({g.pool(node.args[0])}, reverse={reverse}))", POOL


def call_min_max(g, node, name):
    return f"{name}({', '.join(g.number(a) for a in node.args)}" + (",)" if len(node.args) == 1 else ")"), NUM


def call_abs(g, node):
    return f"abs({g.number(node.args[0])})", NUM


def call_reroll(g, node):
    if not rolls(node.args[0]):
        raise NotCovered("reroll of an expression without dice")
    src, kind = g.gen(node.args[0])
    op, value = g.condition(node.args[1])
    return f"_L.reroll(lambda: {src}, {op}, {value})", kind


CALLS = {
    "count": call_count, "sum": call_sum, "size": call_size,
    "highest": lambda g, n: _extreme(g, n, True), "lowest": lambda g, n: _extreme(g, n, False),
    "largest_set": call_largest_set, "unpair": call_unpair, "cancel": call_cancel,
    "keep": lambda g, n: _filter(g, n, True), "drop": lambda g, n: _filter(g, n, False),
    "aside": call_aside, "sort": call_sort, "abs": call_abs, "reroll": call_reroll,
    "min": lambda g, n: call_min_max(g, n, "min"), "max": lambda g, n: call_min_max(g, n, "max"),
}


def _twin_top(g, node):
    if len(node.args) != 2:
        return "()"
    high = node.function == "highest"
    return f"_L.top_aside({g.pool(node.args[0])}, {g.number(node.args[1])}, {high})"


def _twin_filter(g, node):
    op, value = g.condition(node.args[1])
    return f"_L.keep_aside({g.pool(node.args[0])}, {op}, {value}, {node.function == 'keep'})"


ASIDE_TWINS = {
    "unpair": lambda g, n: f"_L.unpair_aside({g.pool(n.args[0])})",
    "cancel": lambda g, n: f"_L.cancel_aside({g.pool(n.args[0])}, {g.pool(n.args[1])})",
    "largest_set": lambda g, n: (f"_L.largest_set_aside({g.pool(n.args[0])}"
                                 + (f", {g.pool(_kw(n, 'ignore'))})" if _kw(n, "ignore") is not None else ")")),
    "keep": _twin_filter, "drop": _twin_filter, "highest": _twin_top, "lowest": _twin_top,
}


def gen_call(g, node):
    handler = CALLS.get(node.function)
    if handler is None:
        raise NotCovered(node.function)
    return handler(g, node)


GENERATORS = {
    ast.Integer: gen_integer, ast.String: gen_string, ast.Boolean: gen_boolean, ast.Name: gen_name,
    ast.Unary: gen_unary, ast.Arithmetic: gen_arithmetic, ast.Compare: gen_compare, ast.AllOf: gen_all_of,
    ast.AnyOf: gen_any_of, ast.Not: gen_not, ast.Conditional: gen_conditional, ast.Call: gen_call,
    ast.Dice: gen_dice, ast.PoolLiteral: gen_pool_literal,
}
