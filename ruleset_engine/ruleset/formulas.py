"""Checking `formulas:`, a ruleset's named formulas, and building its FormulaBook.

Each is read first, before any other formula of the file, because any formula may call them:

    formulas:
      success:
        params: [pool, diff]
        formula: "max(0, count(pool, >= diff) - count(pool, == 1))"

A name may not be a function of the language (it would hide it) nor repeat a parameter; a body
reads only its parameters and `params.NAME` (a named formula is pure: the same arguments, the same
chances, so it means the same at the table, in a simulation and in `dusk prob`); a formula that
calls itself, directly or through others, is refused, and so is a body that nests too deep once the
formulas it calls are written in place (named.MAX_NESTING). The body is then lowered once with its
parameters of unknown kind, which finds unknown functions, wrong counts of arguments and kinds
that no argument could fix; a call whose arguments a body cannot take is refused where it is.
"""

from __future__ import annotations

from ruleset_engine.i18n import _

from ruleset_engine import dice
from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.dice.functions import FUNCTIONS
from ruleset_engine.dice.kinds import ANY
from ruleset_engine.dice.lowering import Lowering, Namespace, Src
from ruleset_engine.dice.named import (MAX_NESTING, MAX_WRITTEN_OUT, FormulaBook, NamedFormula, calls_in,
                                       written_out)
from ruleset_engine.dice.remembered import parse


def formula_book(c) -> FormulaBook:
    """The named formulas of the checker's data; problems go to c.problem / c.formula_problem."""
    parsed: dict[str, NamedFormula] = {}
    for name, spec in c.items("formulas"):
        if not isinstance(spec, dict):
            continue
        made = _parse(c, name, spec)
        if made is not None:
            parsed[name] = made
    cyclic = _cycles(c, parsed)
    book = FormulaBook({k: v for k, v in parsed.items() if k not in cyclic})
    for name, formula in book.items():
        path = ("formulas", name, "formula")
        depth, nodes = written_out(formula.tree, book)
        if depth > MAX_NESTING:
            c.problem(_("the formula {name} nests more than {MAX_NESTING} levels deep once the "
                        "formulas it calls are written in place; split it").format(
                          name=name, MAX_NESTING=MAX_NESTING), path)
            continue
        if nodes > MAX_WRITTEN_OUT:
            c.problem(_("the formula {name} is more than {MAX_WRITTEN_OUT:,} parts long once the "
                        "formulas it calls are written in place (about {about}); call fewer formulas "
                        "in it, or pass a value once as an argument rather than calling a formula for "
                        "it again").format(
                          name=name, MAX_WRITTEN_OUT=MAX_WRITTEN_OUT, about=_about(nodes)), path)
            continue
        _lower_alone(c, formula, book, path)
    return book


def _about(n: int) -> str:
    """A count that may be astronomically large, in words: 12,345 or 10^40."""
    return f"{n:,}" if n < 10**9 else f"10^{len(str(n)) - 1}"


def _parse(c, name: str, spec: dict) -> NamedFormula | None:
    path = ("formulas", name)
    if name in FUNCTIONS:
        c.problem(_("the formula {name!r} has the name of a function of the dice language; rename it").format(
                      name=name), path,
                  at_key=True)
        return None
    if name in c.names.pairs:
        c.problem(_("the formula {name!r} has the name of a pair of the ruleset; rename one").format(name=name),
                  path, at_key=True)
        return None
    if not _callable(name):
        c.problem(_("{name}(..) would read as dice, not a call: rename the formula").format(name=name), path,
                  at_key=True)
        return None
    params = tuple(spec.get("params") or ())
    for i, pname in enumerate(params):
        if pname in params[:i]:
            c.problem(_("the parameter {pname!r} is named twice").format(pname=pname), path + ("params", i))
            return None
        if pname == "params":
            c.problem(_("a parameter cannot be named 'params': formulas read the ruleset's params as "
                        "params.NAME"),
                      path + ("params", i))
            return None
    value = spec.get("formula")
    text = "true" if value is True else "false" if value is False else str(value)
    try:
        tree = parse(text, dice.DEFAULT_LIMITS)
    except dice.DiceError as err:
        c.formula_problem(err, text, path + ("formula",))
        return None
    problems = 0
    for node in dice_ast.walk(tree):
        if isinstance(node, dice_ast.Call) and node.function == "aside":
            # What a pool set aside travels with it only where it is made; a parameter is a plain pool.
            c.formula_problem(dice.DiceTypeError(_("a named formula cannot call aside(..): call it "
                                                   "where the pool is made and pass what it gives"), text,
                                                 node.span), text,
                              path + ("formula",))
            problems += 1
    for name_path, span in dice_ast.names_in(tree):
        head = name_path[0]
        if head in params:
            continue
        if head == "params":
            if len(name_path) == 2 and name_path[1] in c.params:
                continue
            message = _("unknown param {name!r}{hint}").format(
                name=".".join(name_path[:2]), hint=c.suggest(name_path[1], c.params)) \
                if len(name_path) == 2 else _("params are read as params.NAME")
        else:
            message = _("a named formula reads only its parameters ({params}) and params.NAME, not {name!r}: "
                        "pass it as an argument").format(params=", ".join(params) or _("none"),
                                                         name=".".join(name_path))
        c.formula_problem(dice.UnknownName(message, text, span), text, path + ("formula",))
        problems += 1
    if problems:
        return None
    return NamedFormula(name, params, text, tree, spec.get("doc"))


def _callable(name: str) -> bool:
    """Whether NAME(1) reads as a call of NAME (`d(1)` and `d6(1)` read as dice)."""
    try:
        tree = parse(f"{name}(1)", dice.DEFAULT_LIMITS)
    except dice.DiceError:
        return False
    return isinstance(tree, dice_ast.Call) and tree.function == name


MAX_CHAINS = 100    # cycles shown with the formulas they go through; the others named alone


def _cycles(c, parsed: dict) -> set[str]:
    """The formulas that call themselves, directly or through others (each reported once): those of
    a strongly connected group of calls (Tarjan's, linear in the calls), or calling themselves."""
    calls = {name: sorted({callee.name for _, callee in calls_in(f.tree, parsed)}) for name, f in parsed.items()}
    cyclic: set[str] = set()
    for group in _groups(calls):
        if len(group) == 1 and group[0] not in calls[group[0]]:
            continue
        members = set(group)
        for k, start in enumerate(sorted(group, key=list(parsed).index)):
            if k < MAX_CHAINS:      # the call that closes the shortest cycle back to start
                chain = _chain(start, calls, members)
                name, callee = chain[-1], start
                shown = chain[1:6] + ((_("... and {n} more").format(n=len(chain) - 6),) if len(chain) > 6 else ())
                through = _(" (through {formulas})").format(formulas=", ".join(shown)) if len(chain) > 1 else ""
            else:                   # past the first ones: start's call into its group, found in one pass
                name, callee = start, next(n for n in calls[start] if n in members)
                through = _(" (through others)")
            call = next(n for n, f in calls_in(parsed[name].tree, parsed) if f.name == callee)
            text = parsed[name].text
            c.formula_problem(dice.DiceValueError(_("the formula {start} calls itself{through}; a "
                                                    "named formula may not").format(
                                                      start=start, through=through), text, call.name_span), text,
                              ("formulas", name, "formula"))
            cyclic.add(start)
    return cyclic


def _chain(start: str, calls: dict, members: set) -> tuple:
    """The shortest chain of calls from start back to itself, inside its group: (start, ..., last)."""
    before = {start: None}
    queue = [start]
    for name in queue:
        for callee in calls[name]:
            if callee == start:
                chain = [name]
                while before[chain[-1]] is not None:
                    chain.append(before[chain[-1]])
                return tuple(reversed(chain))
            if callee in members and callee not in before:
                before[callee] = name
                queue.append(callee)
    return (start,)


def _groups(calls: dict) -> list[list[str]]:
    """The strongly connected groups of the call graph (Tarjan's algorithm, without recursion)."""
    index, low, on, stack, groups = {}, {}, set(), [], []
    for root in calls:
        if root in index:
            continue
        work = [(root, iter(calls[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            name, edges = work[-1]
            for callee in edges:
                if callee not in calls:
                    continue
                if callee not in index:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on.add(callee)
                    work.append((callee, iter(calls[callee])))
                    break
                if callee in on:
                    low[name] = min(low[name], index[callee])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[name])
                if low[name] == index[name]:
                    group = []
                    while True:
                        member = stack.pop()
                        on.discard(member)
                        group.append(member)
                        if member == name:
                            break
                    groups.append(group)
    return groups


def _lower_alone(c, formula: NamedFormula, book: FormulaBook, path) -> None:
    """The body lowered once with parameters of unknown kind: what no argument could make right."""
    params = set(formula.params)

    def names(node: dice_ast.Name) -> Src:
        return Src(f"_p_{node.path[0]}" if node.path[0] in params else "_params", ANY)

    lo = Lowering(formula.text, dice.DEFAULT_LIMITS, traced=False, names=names, ns=Namespace(), formulas=book)
    lo.calling = (formula.name,)
    try:
        lo.lower(formula.tree)
    except dice.DiceError as err:
        c.formula_problem(err, formula.text, path)


__all__ = ["formula_book"]
