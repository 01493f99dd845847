"""Syntax tree to closures: compile once, evaluate many times.

Each node type has one compile function, registered in `COMPILERS` (the way d20's
evaluator dispatches `{NodeType: method}`). A compile function checks what can be
known before any die is rolled (types, constant dice counts, re-roll conditions
that every face meets), folds constants, and returns a Code: a closure
`run(ctx) -> value` plus what is statically known about that value.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable

from . import ast
from .context import Context
from .errors import DiceError, DiceLimitError, DiceTypeError, DiceValueError, UnknownName
from .limits import Limits
from .values import Die, FacesList, Pool, Step

# Kinds of value, known at compile time where possible.
NUMBER, BOOL, STRING, POOL, ANY = "number", "true/false", "string", "pool", "any"

_UNKNOWN = object()


@dataclass(slots=True)
class Code:
    run: Callable[[Context], Any]
    kind: str = ANY
    const: Any = _UNKNOWN             # the value, when it is known without rolling
    bounds: tuple[int, int] | None = None   # the range of a number, when known (for never-ending checks)

    @property
    def is_const(self) -> bool:
        return self.const is not _UNKNOWN


# face OP value, as a bound method of the value (C speed): face >= 6 is (6).__le__(face).
_FLIPPED = {">=": "__le__", ">": "__lt__", "<=": "__ge__", "<": "__gt__", "==": "__eq__", "!=": "__ne__"}


@dataclass(slots=True)
class CondCode:
    """A compiled condition (`>= 6`): `predicate(ctx)` gives a face -> bool test."""

    op: str
    operand: Code
    span: tuple[int, int]
    fixed: Callable | None = None    # the test, when the operand is a constant

    def __post_init__(self):
        if self.operand.is_const and type(self.operand.const) is int:
            self.fixed = getattr(self.operand.const, _FLIPPED[self.op])

    def predicate(self, ctx: Context) -> Callable[[int], bool]:
        if self.fixed is not None:
            return self.fixed
        value = self.operand.run(ctx)
        value = to_number(value, self.span) if type(value) is not int else value
        return getattr(value, _FLIPPED[self.op])

    def every_value_meets(self, low: int, high: int, ctx: Context | None = None) -> bool:
        """Whether every whole number in low..high meets this condition."""
        if self.operand.is_const:
            value = self.operand.const
        elif ctx is not None:
            value = to_number(self.operand.run(ctx), self.span)
        else:
            return False
        return _covers(self.op, value, low, high)


def _covers(op: str, value: int, low: int, high: int) -> bool:
    if low > high:
        return False
    return {
        ">=": low >= value,
        ">": low > value,
        "<=": high <= value,
        "<": high < value,
        "==": low == high == value,
        "!=": value < low or value > high,
    }[op]


COMPARE_OPS = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le,
    "<": operator.lt, "==": operator.eq, "!=": operator.ne,
}


# ---- value helpers (hot path: keep them small) -----------------------------------

def describe(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Pool):
        return "a pool of dice"
    return f"a {type(value).__name__}"


def to_number(value, span) -> int:
    """A pool in arithmetic means its total; true/false and strings are not numbers."""
    if type(value) is int:
        return value
    if isinstance(value, Pool):
        return value.total
    raise DiceTypeError(f"expected a number here, not {describe(value)}", span=span)


def to_pool(value, span) -> Pool:
    if isinstance(value, Pool):
        return value
    raise DiceTypeError(
        f"expected a pool of dice here (such as 5d10 or [1, 2, 3]), not {describe(value)}", span=span
    )


def to_truth(value, span) -> bool:
    if type(value) is bool:
        return value
    if type(value) is int:
        return value != 0
    if isinstance(value, Pool):
        raise DiceTypeError(
            "a pool of dice is not true or false: test size(..), count(.., >= 6) or sum(..)", span=span
        )
    raise DiceTypeError(f"expected true/false here, not {describe(value)}", span=span)


def from_environment(value):
    """Environment values as the language sees them: lists of faces become pools."""
    if type(value) is FacesList:
        return value.pool
    if isinstance(value, (list, tuple)) and all(type(v) is int for v in value):
        return Pool.of(value)
    return value


# ---- the compiler -----------------------------------------------------------------

class Compiler:
    def __init__(self, text: str, limits: Limits):
        self.text = text
        self.limits = limits

    def compile(self, node) -> Code:
        return COMPILERS[type(node)](self, node)

    def label(self, span) -> str:
        return self.text[span[0]:span[1]]

    def fail(self, cls: type[DiceError], message: str, span) -> DiceError:
        return cls(message, self.text, span)

    # -- static checks shared by the compile functions
    def number(self, node) -> Code:
        code = self.compile(node)
        if code.kind in (BOOL, STRING):
            raise self.fail(DiceTypeError, f"expected a number here, not {code.kind}", node.span)
        return code

    def pool(self, node, what: str) -> Code:
        code = self.compile(node)
        if code.kind not in (POOL, ANY):
            raise self.fail(
                DiceTypeError,
                f"{what} needs a pool of dice (such as 5d10, [1, 2, 3] or a name holding one), not {code.kind}",
                node.span,
            )
        return code

    def condition(self, node, what: str) -> CondCode:
        if not isinstance(node, ast.Condition):
            raise self.fail(DiceTypeError, f"{what} needs a condition here, such as >= 6", node.span)
        return CondCode(node.op, self.number(node.operand), node.span)

    def fold(self, code: Code, span) -> Code:
        """Evaluate a closure whose inputs are all constants, once, now."""
        try:
            value = code.run(None)
        except DiceError as err:
            raise err.located(self.text, span) from None
        bounds = (value, value) if type(value) is int else None
        return Code(lambda ctx: value, code.kind, value, bounds)


def _constant(value, kind):
    return Code(lambda ctx: value, kind, value, (value, value) if kind == NUMBER else None)


def compile_integer(c: Compiler, node: ast.Integer) -> Code:
    return _constant(node.value, NUMBER)


def compile_string(c: Compiler, node: ast.String) -> Code:
    return _constant(node.value, STRING)


def compile_boolean(c: Compiler, node: ast.Boolean) -> Code:
    return _constant(node.value, BOOL)


def compile_name(c: Compiler, node: ast.Name) -> Code:
    path = node.path
    span = node.span
    head, rest = path[0], path[1:]

    def missing(env, depth):
        from difflib import get_close_matches

        prefix = ".".join(path[:depth])
        message = f"unknown name {'.'.join(path[:depth + 1])!r}"
        holder = _walk(env, path[:depth])
        if not hasattr(holder, "keys"):
            return UnknownName(f"{prefix!r} is {describe(from_environment(holder))} and has no "
                               f"{path[depth]!r}", span=span)
        known = list(holder.keys())
        guesses = get_close_matches(path[depth], [str(k) for k in known], n=1)
        if guesses:
            message += f" (did you mean {(prefix + '.' if prefix else '') + guesses[0]!r}?)"
        return UnknownName(message, span=span)

    if not rest:
        def run(ctx):
            try:
                value = ctx.env[head]
            except (KeyError, TypeError):
                raise missing(ctx.env, 0) from None
            kind = type(value)
            if kind is int or kind is bool or kind is Pool or kind is str:
                return value
            return from_environment(value)
    else:
        def run(ctx):
            env = ctx.env
            try:
                value = env[head]
            except (KeyError, TypeError):
                raise missing(env, 0) from None
            for depth, part in enumerate(rest, 1):
                try:
                    value = value[part]
                except (KeyError, TypeError, IndexError):
                    raise missing(env, depth) from None
            kind = type(value)
            if kind is int or kind is bool or kind is Pool or kind is str:
                return value
            return from_environment(value)

    return Code(run, ANY)


def _walk(env, path):
    for part in path:
        env = env[part]
    return env



def compile_unary(c: Compiler, node: ast.Unary) -> Code:
    operand = c.number(node.operand)
    inner, span = operand.run, node.operand.span
    if node.op == "+":
        def run(ctx):
            v = inner(ctx)
            return v if type(v) is int else to_number(v, span)
        bounds = operand.bounds
    else:
        def run(ctx):
            v = inner(ctx)
            return -(v if type(v) is int else to_number(v, span))
        bounds = (-operand.bounds[1], -operand.bounds[0]) if operand.bounds else None
    code = Code(run, NUMBER, bounds=bounds)
    return c.fold(code, node.span) if operand.is_const else code


def _floordiv(a: int, b: int, span) -> int:
    if b == 0:
        raise DiceValueError("division by zero", span=span)
    return a // b


def compile_arithmetic(c: Compiler, node: ast.Arithmetic) -> Code:
    codes = [c.number(x) for x in node.operands]
    spans = [x.span for x in node.operands]
    first, first_span = codes[0].run, spans[0]
    steps = []
    for op, code, span in zip(node.ops, codes[1:], spans[1:]):
        steps.append((op, code.run, span))

    def run(ctx):
        acc = first(ctx)
        if type(acc) is not int:
            acc = to_number(acc, first_span)
        for op, operand, span in steps:
            v = operand(ctx)
            if type(v) is not int:
                v = to_number(v, span)
            if op == "+":
                acc += v
            elif op == "-":
                acc -= v
            elif op == "*":
                acc *= v
            else:
                acc = _floordiv(acc, v, span)
        return acc

    bounds = _arith_bounds(node.ops, [x.bounds for x in codes])
    code = Code(run, NUMBER, bounds=bounds)
    return c.fold(code, node.span) if all(x.is_const for x in codes) else code


def _arith_bounds(ops, bounds):
    if any(b is None for b in bounds):
        return None
    low, high = bounds[0]
    for op, (lo, hi) in zip(ops, bounds[1:]):
        if op == "+":
            low, high = low + lo, high + hi
        elif op == "-":
            low, high = low - hi, high - lo
        elif op == "*":
            corners = (low * lo, low * hi, high * lo, high * hi)
            low, high = min(corners), max(corners)
        else:
            return None
    return (low, high)


def compile_compare(c: Compiler, node: ast.Compare) -> Code:
    left, right = c.compile(node.left), c.compile(node.right)
    for code, side in ((left, node.left), (right, node.right)):
        if code.kind == POOL:
            raise c.fail(DiceTypeError, _pool_comparison_message(c.label(side.span), node.op,
                                                                  c.label(node.right.span)), side.span)
    kinds = {left.kind, right.kind} - {ANY}
    if len(kinds) > 1:
        raise c.fail(DiceTypeError, f"cannot compare {left.kind} with {right.kind}", node.span)
    if node.op not in ("==", "!=") and kinds & {STRING, BOOL}:
        raise c.fail(DiceTypeError, f"{node.op} compares numbers, not {kinds.pop()}", node.span)
    compare = COMPARE_OPS[node.op]
    lrun, rrun, lspan, rspan, op = left.run, right.run, node.left.span, node.right.span, node.op
    text = c.text

    def run(ctx):
        a, b = lrun(ctx), rrun(ctx)
        if type(a) is int and type(b) is int:
            return compare(a, b)
        for v, span in ((a, lspan), (b, rspan)):
            if isinstance(v, Pool):
                other = rspan if span is lspan else lspan
                raise DiceTypeError(_pool_comparison_message(text[span[0]:span[1]], op,
                                                             text[other[0]:other[1]]), span=span)
        if type(a) is not type(b) or (op not in ("==", "!=") and type(a) is not int):
            raise DiceTypeError(f"cannot compare {describe(a)} with {describe(b)} using {op}", span=node.span)
        return compare(a, b)

    code = Code(run, BOOL)
    return c.fold(code, node.span) if left.is_const and right.is_const else code


def _pool_comparison_message(pool_text: str, op: str, other: str) -> str:
    return (
        f"a pool of dice compared with a number is ambiguous: write count({pool_text}, {op} {other}) "
        f"for how many dice meet it, or sum({pool_text}) {op} {other} for the total"
    )


def _logic(c: Compiler, node, want_all: bool) -> Code:
    codes = [c.compile(x) for x in node.items]
    for code, x in zip(codes, node.items):
        if code.kind in (POOL, STRING):
            raise c.fail(DiceTypeError, f"expected true/false here, not {code.kind}", x.span)
    parts = [(code.run, x.span) for code, x in zip(codes, node.items)]

    if want_all:
        def run(ctx):
            for part, span in parts:
                if not to_truth(part(ctx), span):
                    return False
            return True
    else:
        def run(ctx):
            for part, span in parts:
                if to_truth(part(ctx), span):
                    return True
            return False

    code = Code(run, BOOL)
    return c.fold(code, node.span) if all(x.is_const for x in codes) else code


def compile_all_of(c, node):
    return _logic(c, node, True)


def compile_any_of(c, node):
    return _logic(c, node, False)


def compile_not(c: Compiler, node: ast.Not) -> Code:
    operand = c.compile(node.operand)
    if operand.kind in (POOL, STRING):
        raise c.fail(DiceTypeError, f"'not' needs true/false, not {operand.kind}", node.operand.span)
    inner, span = operand.run, node.operand.span
    code = Code(lambda ctx: not to_truth(inner(ctx), span), BOOL)
    return c.fold(code, node.span) if operand.is_const else code


def compile_conditional(c: Compiler, node: ast.Conditional) -> Code:
    test, then, otherwise = c.compile(node.test), c.compile(node.then), c.compile(node.otherwise)
    if test.kind in (POOL, STRING):
        raise c.fail(DiceTypeError, f"the test after 'if' must be true/false, not {test.kind}", node.test.span)
    if test.is_const:
        return then if to_truth(test.const, node.test.span) else otherwise
    trun, yes, no, span = test.run, then.run, otherwise.run, node.test.span
    kind = then.kind if then.kind == otherwise.kind else ANY
    bounds = None
    if then.bounds and otherwise.bounds:
        bounds = (min(then.bounds[0], otherwise.bounds[0]), max(then.bounds[1], otherwise.bounds[1]))
    return Code(lambda ctx: yes(ctx) if to_truth(trun(ctx), span) else no(ctx), kind, bounds=bounds)


def compile_condition(c: Compiler, node: ast.Condition) -> Code:
    raise c.fail(
        DiceTypeError,
        f"a condition such as '{c.label(node.span)}' only goes inside count(..), keep(..), drop(..) or reroll(..)",
        node.span,
    )


def compile_call(c: Compiler, node: ast.Call) -> Code:
    from .functions import FUNCTIONS

    builder = FUNCTIONS.get(node.function)
    if builder is None:
        from difflib import get_close_matches

        guess = get_close_matches(node.function, list(FUNCTIONS), n=1)
        hint = f" (did you mean {guess[0]}?)" if guess else f"; the functions are {', '.join(sorted(FUNCTIONS))}"
        raise c.fail(UnknownName, f"unknown function {node.function!r}{hint}", node.name_span)
    return builder(c, node)


# ---- dice and pools ----------------------------------------------------------------

# A modifier compiles to a function (ctx, shown, active, dropped) -> active, where
# `shown` is every die in roll order, `active` the indices still in the pool, and
# `dropped` the indices set aside, in order; plus an optional check run once the
# sides are known, before any die is rolled.

def _compile_select(c: Compiler, mod: ast.Select):
    count = c.number(mod.count) if mod.count is not None else _constant(1, NUMBER)
    if count.is_const and count.const < 0:
        raise c.fail(DiceValueError, f"{mod.kind} needs a number of dice of 0 or more, not {count.const}",
                     mod.span)
    highest = mod.kind in ("kh", "dh")
    keeping = mod.kind in ("kh", "kl")
    crun, span = count.run, mod.span

    def apply(ctx, shown, active, dropped):
        n = crun(ctx)
        if type(n) is not int:
            n = to_number(n, span)
        if n < 0:
            raise DiceValueError(f"{mod.kind} needs a number of dice of 0 or more, not {n}", span=span)
        # Stable sort: among equal faces the earlier die is the one kept.
        order = sorted(active, key=lambda i: shown[i].face, reverse=highest)
        chosen = order[:n] if keeping else order[n:]
        if len(chosen) == len(active):
            return active
        keep = set(chosen)
        dropped.extend(i for i in active if i not in keep)
        return [i for i in active if i in keep]

    return apply, None


def _check_rollable(shown, active, span, what):
    for i in active:
        if shown[i].sides is None:
            raise DiceValueError(f"cannot {what} {shown[i].face}: it is a number, not a die", span=span)


def _compile_reroll(c: Compiler, mod: ast.RerollDice):
    cond = c.condition(mod.condition, "a re-roll")
    span, repeat = mod.span, mod.repeat
    what = "re-roll"

    def check(ctx, sides):
        if repeat and cond.every_value_meets(1, sides, ctx):
            raise DiceLimitError(
                f"every face of a d{sides} meets '{c.label(mod.condition.span)}', so re-rolling while it "
                f"does would never end", c.text, span,
            )

    def apply(ctx, shown, active, dropped):
        _check_rollable(shown, active, span, what)
        meets = cond.predicate(ctx)
        randint = ctx.randint
        for i in active:
            die = shown[i]
            sides = die.sides
            if repeat and cond.every_value_meets(1, sides, ctx):
                check(ctx, sides)
            while meets(die.face):
                ctx.spend(1, span)
                die = die.rerolled(randint(1, sides))
                if not repeat:
                    break
            shown[i] = die
        return active

    return apply, check


def _compile_explode(c: Compiler, mod: ast.Explode):
    cond = c.condition(mod.condition, "an explosion") if mod.condition is not None else None
    span = mod.span

    def check(ctx, sides):
        if cond is None:
            if sides == 1:
                raise DiceLimitError("a d1 always shows its highest face, so exploding it would never end",
                                     c.text, span)
        elif cond.every_value_meets(1, sides, ctx):
            raise DiceLimitError(
                f"every face of a d{sides} meets '{c.label(mod.condition.span)}', so exploding on it "
                f"would never end", c.text, span,
            )

    def apply(ctx, shown, active, dropped):
        _check_rollable(shown, active, span, "explode")
        meets = cond.predicate(ctx) if cond is not None else None
        randint = ctx.randint
        queue = list(active)
        active = list(active)
        checked = set()
        for i in queue:  # grows while we walk it: extra dice may explode in turn
            die = shown[i]
            sides = die.sides
            if sides not in checked:
                check(ctx, sides)
                checked.add(sides)
            if (die.face == sides) if meets is None else meets(die.face):
                ctx.spend(1, span)
                shown[i] = Die(die.face, sides, die.history, True, die.extra)
                shown.append(Die(randint(1, sides), sides, (), False, True))
                queue.append(len(shown) - 1)
                active.append(len(shown) - 1)
        return active

    return apply, check


_MODIFIERS = {ast.Select: _compile_select, ast.RerollDice: _compile_reroll, ast.Explode: _compile_explode}


def _compile_modifiers(c: Compiler, mods):
    applies, checks = [], []
    for mod in mods:
        apply, check = _MODIFIERS[type(mod)](c, mod)
        applies.append(apply)
        if check is not None:
            checks.append(check)
    return applies, checks


def _finish(ctx, label, span, shown, active, dropped) -> Pool:
    """Record the step of a modified pool and return the pool it leaves."""
    if dropped:
        gone = set(dropped)
        marks = tuple("dropped" if i in gone else "kept" for i in range(len(shown)))
    else:
        marks = None
    pool = Pool(tuple(shown[i] for i in active), tuple(shown[i] for i in dropped))
    if ctx.steps is not None:
        ctx.steps.append(Step(label, span, tuple(shown), marks, pool.total))
    return pool


def _pool_runner(source, applies, label, span):
    """The closure of a pool node: its dice from `source(ctx)`, then each modifier in turn,
    and one step of the trace (when there is a trace)."""
    if not applies:
        def run(ctx):
            dice = tuple(source(ctx))
            pool = Pool(dice)
            if ctx.steps is not None:
                ctx.steps.append(Step(label, span, dice, None, pool.total))
            return pool
        return run

    def run_modified(ctx):
        shown = source(ctx)
        active = list(range(len(shown)))
        dropped: list[int] = []
        for apply in applies:
            active = apply(ctx, shown, active, dropped)
        return _finish(ctx, label, span, shown, active, dropped)

    return run_modified


def compile_dice(c: Compiler, node: ast.Dice) -> Code:
    limits = c.limits
    count = c.number(node.count) if node.count is not None else _constant(1, NUMBER)
    sides = c.number(node.sides)
    count_span = node.count.span if node.count is not None else node.span
    sides_span = node.sides.span

    def check_count(n):
        if n < 0:
            raise DiceValueError(f"cannot roll a negative number of dice ({n})", c.text, count_span)
        if n > limits.max_pool_dice:
            raise DiceLimitError(
                f"too many dice in one pool: {n:,} (the limit is {limits.max_pool_dice:,})", c.text, count_span
            )

    def check_sides(s):
        if s < 1:
            raise DiceValueError(f"a die needs at least 1 side, not {s}", c.text, sides_span)

    applies, checks = _compile_modifiers(c, node.modifiers)
    if count.is_const:
        check_count(count.const)
    if sides.is_const:
        check_sides(sides.const)
        for check in checks:
            check(None, sides.const)
    label, span = c.label(node.span), node.span
    crun, srun = count.run, sides.run
    count_known, sides_known = count.is_const, sides.is_const

    def roll(ctx):
        n = crun(ctx)
        if not count_known:
            n = to_number(n, count_span) if type(n) is not int else n
            check_count(n)
        s = srun(ctx)
        if not sides_known:
            s = to_number(s, sides_span) if type(s) is not int else s
            check_sides(s)
            for check in checks:
                check(ctx, s)
        ctx.spend(n, span)
        randint = ctx.randint
        return [Die(randint(1, s), s) for _ in range(n)]

    run = _pool_runner(roll, applies, label, span)
    bounds = None
    if count.is_const and sides.is_const and not node.modifiers:
        bounds = (count.const, count.const * sides.const)
    elif count.is_const and sides.is_const and all(isinstance(m, ast.RerollDice) for m in node.modifiers):
        bounds = (count.const, count.const * sides.const)
    return Code(run, POOL, bounds=bounds)


def compile_pool_literal(c: Compiler, node: ast.PoolLiteral) -> Code:
    items = [c.compile(x) for x in node.items]
    for code, x in zip(items, node.items):
        if code.kind in (BOOL, STRING):
            raise c.fail(DiceTypeError, f"a pool holds numbers and dice, not {code.kind}", x.span)
    parts = [(code.run, x.span) for code, x in zip(items, node.items)]
    applies, _checks = _compile_modifiers(c, node.modifiers)
    label, span = c.label(node.span), node.span

    if not applies and all(code.is_const and type(code.const) is int for code in items):
        # Plain numbers: one pool, made now (pools never change, so it can be shared).
        fixed = Pool(tuple(Die(code.const, None) for code in items))
        return Code(lambda ctx: fixed, POOL, fixed)

    def gather(ctx) -> list[Die]:
        shown: list[Die] = []
        for part, item_span in parts:
            value = part(ctx)
            if type(value) is int:
                shown.append(Die(value, None))
            elif isinstance(value, Pool):
                shown.extend(value.dice)
            else:
                raise DiceTypeError(f"a pool holds numbers and dice, not {describe(value)}", span=item_span)
        return shown

    return Code(_pool_runner(gather, applies, label, span), POOL)


COMPILERS: dict[type, Callable[[Compiler, Any], Code]] = {
    ast.Integer: compile_integer,
    ast.String: compile_string,
    ast.Boolean: compile_boolean,
    ast.Name: compile_name,
    ast.Unary: compile_unary,
    ast.Arithmetic: compile_arithmetic,
    ast.Compare: compile_compare,
    ast.AllOf: compile_all_of,
    ast.AnyOf: compile_any_of,
    ast.Not: compile_not,
    ast.Conditional: compile_conditional,
    ast.Condition: compile_condition,
    ast.Call: compile_call,
    ast.Dice: compile_dice,
    ast.PoolLiteral: compile_pool_literal,
}
