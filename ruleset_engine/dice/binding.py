"""One binding of a call of a pool function, for every evaluator of the dice language.

A call `highest(5d10, 2)` binds to its registry entry, the form its number of arguments chooses, and
each argument with the kind that form gives it (pool, number, condition, ...), keywords too; the
number of arguments and the keywords are checked here, once. Each evaluator then translates the bound
arguments by kind through a small table of its own (`translate`): the lowering
(lowering.ARGUMENTS: Python source, in either mode), exact odds (analysis/exact.ARGUMENTS: icepool)
and the vector evaluator of the lockstep backend (vector.ARGUMENTS: numpy arrays).

Beside it, what all of them share: the comparison tables (COMPARE, FLIPPED) and the words that name a
call in a message, so the table, a simulation (either backend) and `dusk prob` say the same.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from collections.abc import Callable

from ruleset_engine import i18n

from .entries import Form, Function
from .errors import DiceTypeError

# The comparisons of the language, as operators (a number or an array of faces on either side).
COMPARE = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq,
           "!=": operator.ne}
# face OP value as a bound method of the value (C speed): face >= 6 is (6).__le__(face).
FLIPPED = {">=": "__le__", ">": "__lt__", "<=": "__ge__", "<": "__gt__", "==": "__eq__", "!=": "__ne__"}


# Read by the lowering of its call, never compared, hashed or changed: nothing generated beyond __init__.
@dataclass(slots=True, eq=False, repr=False)
class Binding:
    """A call bound to its entry: the form chosen, each positional argument as (kind, node), each
    keyword as (name, kind, node), in the order written."""
    entry: Function
    form: Form
    args: tuple
    keywords: tuple

    @property
    def label(self) -> str:
        return call_label(self.entry.name)


def bind(entry: Function, node) -> Binding:
    """The call `node` (an ast.Call of `entry`) bound, or a DiceTypeError at the part that is wrong:
    a number of arguments no form takes, a keyword no form has, a keyword given twice."""
    n = len(node.args)
    form = entry.form_for(n)
    if form is None:
        raise DiceTypeError(arity_message(entry, n), span=node.span)
    allowed = {k for f in entry.forms for k in f.keywords}
    seen: set = set()
    keywords = []
    for kw in node.keywords:
        if kw.name not in allowed and form.any_keyword is None:
            names = ", ".join(f"{k}=" for k in sorted(allowed)) or i18n._("none")
            raise DiceTypeError(i18n._("{function}(..) has no keyword {keyword} (keywords: {names})").format(
                                    function=entry.name, keyword=repr(kw.name), names=names), span=kw.span)
        if kw.name in seen:
            raise DiceTypeError(i18n._("{name}= is given twice").format(name=kw.name), span=kw.span)
        seen.add(kw.name)
        keywords.append((kw.name, form.keywords.get(kw.name, form.any_keyword), kw.value))
    kinds = form.args + (form.args[-1],) * (n - len(form.args)) if form.variadic else form.args
    return Binding(entry, form, tuple(zip(kinds, node.args)), tuple(keywords))


def translate(binding: Binding, argument: Callable, lazy: Callable | None = None) -> tuple[list, dict]:
    """The bound arguments, each translated by one evaluator: argument(kind, node, what) -> its value
    there, `what` naming the argument in a message (the call's label, or `name=` for a keyword); a
    keyword the form reads only where needed (Form.lazy) through lazy(kind, node, what) when given."""
    label = binding.label
    args = [argument(kind, node, label) for kind, node in binding.args]
    keywords = {name: (lazy if lazy is not None and name in binding.form.lazy else argument)(kind, node, f"{name}=")
                for name, kind, node in binding.keywords}
    return args, keywords


# ---- the words a call says, in every evaluator ------------------------------------------------


def call_label(function: str) -> str:
    """How a message names a call: `highest(..)`."""
    return f"{function}(..)"


def arity_message(entry: Function, n: int) -> str:
    low, high = entry.arities
    if low == high:
        return i18n.ngettext("{name}(..) takes {low} argument, not {n}", "{name}(..) takes {low} arguments, not {n}",
                             low).format(name=entry.name, low=low, n=n)
    if high < 99:
        return i18n._("{name}(..) takes {low} to {high} arguments, not {n}").format(name=entry.name, low=low, high=high,
                                                                                    n=n)
    return i18n.ngettext("{name}(..) takes at least {low} argument, not {n}",
                         "{name}(..) takes at least {low} arguments, not {n}", low).format(name=entry.name, low=low, n=n)


def negative_count(function: str, n) -> str:
    """A number of dice below 0 given to a function (highest(p, n))."""
    return i18n._("{call} needs a count of 0 or more, not {n}").format(call=call_label(function), n=n)


def empty_pool(function: str, label: str) -> str:
    """highest(..) or lowest(..) of a pool with no dice, and no default= (`label`: the pool as written)."""
    return i18n._("{function}({label}) of an empty pool: give a default, as in {function}({label}, default=0)").format(
               function=function, label=label)
