"""The functions of the dice language: one plain builder per function, in one table.

A builder takes the compiler and the Call node, checks the arguments (how many,
which kind, which keywords) before anything is rolled, and returns a Code. Pool
functions that judge dice record a Step, so the trace shows what each die became:
counted, dropped, set aside, cancelled.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

from . import ast
from .compiler import NUMBER, POOL, Code, Compiler, to_number, to_pool, to_truth
from .errors import DiceLimitError, DiceTypeError, DiceValueError
from .values import Pool, Step


def _arguments(c: Compiler, node: ast.Call, low: int, high: int, keywords: tuple[str, ...] = ()):
    """Check how many arguments a call has and which keywords; return (args, {keyword: node})."""
    n = len(node.args)
    if not low <= n <= high:
        want = str(low) if low == high else f"{low} to {high}" if high < 99 else f"at least {low}"
        raise c.fail(DiceTypeError, f"{node.function}(..) takes {want} argument{'' if want.endswith(' 1') or want == '1' else 's'}, "
                                    f"not {n}", node.span)
    given = {}
    for kw in node.keywords:
        if kw.name not in keywords:
            allowed = ", ".join(f"{k}=" for k in keywords) or "none"
            raise c.fail(DiceTypeError, f"{node.function}(..) has no keyword {kw.name!r} (keywords: {allowed})",
                         kw.span)
        if kw.name in given:
            raise c.fail(DiceTypeError, f"{kw.name}= is given twice", kw.span)
        given[kw.name] = kw.value
    return node.args, given


def _judge(c: Compiler, node: ast.Call, pool_code: Code, judge, kind=POOL) -> Code:
    """A pool function whose result comes from judging each die.

    `judge(ctx, pool, trace) -> (value, marks)`: marks (what this step did to each die)
    only when the evaluation keeps a trace; a simulation needs none."""
    prun, pspan = pool_code.run, node.args[0].span
    label, span = c.label(node.span), node.span

    def run(ctx):
        pool = prun(ctx)
        if type(pool) is not Pool:
            pool = to_pool(pool, pspan)
        steps = ctx.steps
        value, marks = judge(ctx, pool, steps is not None)
        if steps is not None:
            steps.append(Step(label, span, pool.dice, marks, value.total if isinstance(value, Pool) else value))
        return value

    return Code(run, kind)


def _select(pool: Pool, keep: list, trace: bool, gone_mark: str = "aside") -> tuple[Pool, tuple | None]:
    """The pool of the dice whose flag in `keep` is true (in roll order); the others go aside."""
    dice = pool.dice
    kept = tuple([d for d, k in zip(dice, keep) if k])
    gone = tuple([d for d, k in zip(dice, keep) if not k])
    marks = tuple(["kept" if k else gone_mark for k in keep]) if trace else None
    return Pool(kept, gone), marks


# ---- numbers --------------------------------------------------------------------

def fn_min_max(c: Compiler, node: ast.Call, pick) -> Code:
    args, _ = _arguments(c, node, 1, 99)
    codes = [c.number(a) for a in args]
    parts = [(code.run, a.span) for code, a in zip(codes, args)]

    def run(ctx):
        values = []
        for part, span in parts:
            v = part(ctx)
            values.append(v if type(v) is int else to_number(v, span))
        return pick(values)

    code = Code(run, NUMBER)
    return c.fold(code, node.span) if all(x.is_const for x in codes) else code


def fn_abs(c: Compiler, node: ast.Call) -> Code:
    (arg,), _ = _arguments(c, node, 1, 1)
    code = c.number(arg)
    inner, span = code.run, arg.span
    result = Code(lambda ctx: abs(to_number(inner(ctx), span)), NUMBER)
    return c.fold(result, node.span) if code.is_const else result


# ---- pools to numbers -------------------------------------------------------------

def fn_count(c: Compiler, node: ast.Call) -> Code:
    (pool_node, cond_node), _ = _arguments(c, node, 2, 2)
    pool = c.pool(pool_node, "count(..)")
    cond = c.condition(cond_node, "count(..)")

    def judge(ctx, pool, trace):
        meets = cond.predicate(ctx)
        hits = [meets(d.face) for d in pool.dice]
        marks = tuple(["counted" if h else "kept" for h in hits]) if trace else None
        return sum(hits), marks

    return _judge(c, node, pool, judge, NUMBER)


def _pool_number(c: Compiler, node: ast.Call, what: Callable[[Pool], int]) -> Code:
    (arg,), _ = _arguments(c, node, 1, 1)
    pool = c.pool(arg, f"{node.function}(..)")
    inner, span = pool.run, arg.span
    return Code(lambda ctx: what(to_pool(inner(ctx), span)), NUMBER)


def fn_sum(c, node):
    return _pool_number(c, node, lambda p: p.total)


def fn_size(c, node):
    return _pool_number(c, node, len)


def _extreme(c: Compiler, node: ast.Call, highest: bool) -> Code:
    """highest(p) / lowest(p): one face; highest(p, n) / lowest(p, n): a pool of n dice."""
    args, keywords = _arguments(c, node, 1, 2, ("default",))
    pool = c.pool(args[0], f"{node.function}(..)")
    prun, pspan = pool.run, args[0].span
    if len(args) == 2:
        if "default" in keywords:
            raise c.fail(DiceTypeError, f"default= only applies to {node.function}(pool) without a count",
                         node.span)
        count = c.number(args[1])
        nrun, nspan = count.run, args[1].span

        def judge(ctx, p, trace):
            n = to_number(nrun(ctx), nspan)
            if n < 0:
                raise DiceValueError(f"{node.function}(..) needs a count of 0 or more, not {n}", span=nspan)
            order = sorted(range(len(p.dice)), key=lambda i: p.dice[i].face, reverse=highest)
            chosen = set(order[:n])
            return _select(p, [i in chosen for i in range(len(p.dice))], trace)

        return _judge(c, node, pool, judge, POOL)

    default = keywords.get("default")
    drun = c.number(default).run if default is not None else None
    pick = max if highest else min
    label = c.label(args[0].span)

    def run(ctx):
        p = to_pool(prun(ctx), pspan)
        if p.dice:
            return pick([d.face for d in p.dice])
        if drun is None:
            raise DiceValueError(
                f"{node.function}({label}) of an empty pool: give a default, as in "
                f"{node.function}({label}, default=0)", span=node.span,
            )
        return to_number(drun(ctx), default.span)

    return Code(run, NUMBER)


def fn_highest(c, node):
    return _extreme(c, node, True)


def fn_lowest(c, node):
    return _extreme(c, node, False)


# ---- pools to pools ---------------------------------------------------------------

def fn_largest_set(c: Compiler, node: ast.Call) -> Code:
    (arg,), keywords = _arguments(c, node, 1, 1, ("ignore",))
    pool = c.pool(arg, "largest_set(..)")
    ignore = keywords.get("ignore")
    icode = c.pool(ignore, "ignore=") if ignore is not None else None
    irun = icode.run if icode is not None else None
    fixed = frozenset(icode.const.faces) if icode is not None and icode.is_const else None

    def judge(ctx, p, trace):
        if fixed is not None:
            ignored = fixed
        else:
            ignored = set(to_pool(irun(ctx), ignore.span).faces) if irun is not None else ()
        counts: dict[int, int] = {}
        for d in p.dice:
            face = d.face
            if face not in ignored:
                counts[face] = counts.get(face, 0) + 1
        if not counts:
            return _select(p, [False] * len(p.dice), trace)
        # The biggest group; among groups of one size, the higher face.
        best = max(counts, key=lambda f: (counts[f], f))
        return _select(p, [d.face == best for d in p.dice], trace)

    return _judge(c, node, pool, judge)


def fn_unpair(c: Compiler, node: ast.Call) -> Code:
    (arg,), _ = _arguments(c, node, 1, 1)
    pool = c.pool(arg, "unpair(..)")

    def judge(ctx, p, trace):
        # For each face rolled c times, floor(c/2) dice are set aside: the later ones.
        total = Counter(d.face for d in p.dice)
        seen: Counter = Counter()
        keep = []
        for d in p.dice:
            seen[d.face] += 1
            keep.append(seen[d.face] <= total[d.face] - total[d.face] // 2)
        return _select(p, keep, trace)

    return _judge(c, node, pool, judge)


def fn_cancel(c: Compiler, node: ast.Call) -> Code:
    (a_node, b_node), _ = _arguments(c, node, 2, 2)
    a = c.pool(a_node, "cancel(..)")
    b = c.pool(b_node, "cancel(..)")
    brun, bspan = b.run, b_node.span

    def judge(ctx, p, trace):
        against: dict[int, int] = {}
        for d in to_pool(brun(ctx), bspan).dice:
            against[d.face] = against.get(d.face, 0) + 1
        keep = []
        for d in p.dice:
            left = against.get(d.face, 0)
            if left:
                against[d.face] = left - 1
            keep.append(not left)
        return _select(p, keep, trace, "cancelled")

    return _judge(c, node, a, judge)


def _filter(c: Compiler, node: ast.Call, keep_matching: bool) -> Code:
    (pool_node, cond_node), _ = _arguments(c, node, 2, 2)
    pool = c.pool(pool_node, f"{node.function}(..)")
    cond = c.condition(cond_node, f"{node.function}(..)")

    def judge(ctx, p, trace):
        meets = cond.predicate(ctx)
        return _select(p, [meets(d.face) == keep_matching for d in p.dice], trace, "dropped")

    return _judge(c, node, pool, judge)


def fn_keep(c, node):
    return _filter(c, node, True)


def fn_drop(c, node):
    return _filter(c, node, False)


def fn_aside(c: Compiler, node: ast.Call) -> Code:
    (arg,), _ = _arguments(c, node, 1, 1)
    pool = c.pool(arg, "aside(..)")
    inner, span = pool.run, arg.span
    return Code(lambda ctx: Pool(to_pool(inner(ctx), span).aside), POOL)


# ---- whole expressions --------------------------------------------------------------

def fn_reroll(c: Compiler, node: ast.Call) -> Code:
    """reroll(expr, < 10): evaluate expr again while its total meets the condition."""
    (expr_node, cond_node), _ = _arguments(c, node, 2, 2)
    expr = c.number(expr_node)
    cond = c.condition(cond_node, "reroll(..)")
    if expr.bounds is not None and cond.every_value_meets(*expr.bounds):
        raise c.fail(
            DiceLimitError,
            f"every value of {c.label(expr_node.span)} ({expr.bounds[0]}..{expr.bounds[1]}) meets "
            f"'{c.label(cond_node.span)}', so re-rolling while it does would never end",
            node.span,
        )
    erun, espan, span = expr.run, expr_node.span, node.span
    label = c.label(node.span)

    def run(ctx):
        meets = cond.predicate(ctx)
        tries = []
        while True:
            before = ctx.budget
            value = erun(ctx)
            total = value if type(value) is int else to_number(value, espan)
            tries.append(total)
            if not meets(total):
                break
            if ctx.budget == before:
                # Nothing random in it: the same total would come back forever.
                raise DiceLimitError(
                    f"{label}: {total} meets the condition and rolls no dice, so it would never end", span=span
                )
        if len(tries) > 1 and ctx.steps is not None:
            ctx.steps.append(Step(label, span, (), None, total,
                                  note="re-rolled totals " + ", ".join(map(str, tries[:-1]))))
        return value

    return Code(run, expr.kind)


def fn_sort(c: Compiler, node: ast.Call) -> Code:
    """sort(pool): the dice from the lowest face up; sort(pool, descending=true) from the highest."""
    (arg,), keywords = _arguments(c, node, 1, 1, ("descending",))
    pool = c.pool(arg, "sort(..)")
    inner, span = pool.run, arg.span
    desc = keywords.get("descending")
    drun = c.compile(desc).run if desc is not None else None

    def run(ctx):
        p = to_pool(inner(ctx), span)
        reverse = bool(to_truth(drun(ctx), desc.span)) if drun is not None else False
        return Pool(tuple(sorted(p.dice, key=lambda d: d.face, reverse=reverse)), p.aside)

    return Code(run, POOL)


FUNCTIONS: dict[str, Callable[[Compiler, ast.Call], Code]] = {
    "min": lambda c, node: fn_min_max(c, node, min),
    "max": lambda c, node: fn_min_max(c, node, max),
    "abs": fn_abs,
    "count": fn_count,
    "sum": fn_sum,
    "size": fn_size,
    "highest": fn_highest,
    "lowest": fn_lowest,
    "largest_set": fn_largest_set,
    "unpair": fn_unpair,
    "cancel": fn_cancel,
    "keep": fn_keep,
    "drop": fn_drop,
    "aside": fn_aside,
    "reroll": fn_reroll,
    "sort": fn_sort,
}
