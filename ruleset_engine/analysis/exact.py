"""Exact distributions: a dice expression translated to icepool, through the registry's exact forms.

Each function and modifier of the language says how it translates in its own entry (the `exact`
field, see dice/entries.py); this module walks the syntax tree, translates the nodes that are
not calls (numbers, names, arithmetic, comparisons, `and`/`or`/`not`, `if ... else`, dice and
pool literals) and hands each call's translated arguments to its entry. It imports icepool, so
only `dusk prob` (and `prob` at the table) loads it.

A translated value is one of:
    an int, bool or str      known before anything is rolled;
    an icepool Die           a random number (or truth) independent of every other part;
    a PoolValue              a multiset of dice, built from Sources (each one rolled pool);
    a Formula                a number that depends on a shared roll (a name bound by a `let`):
                             kept as a function of the joint outcome of every evaluation over
                             shared pools and of the shared dice, and evaluated once at the end.

Every NdS of an expression is its own roll, so its parts are independent and combine exactly
(icepool's map over independent dice). A roll read twice, through a let, is a Source marked
shared: everything built from it waits, and one joint multiset evaluation reads it once. What
the translation cannot follow raises NoExact with the reason, and the caller estimates instead.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass
from fractions import Fraction

import icepool

from ruleset_engine import i18n
from ruleset_engine.dice import ast
from ruleset_engine.dice.entries import (CONDITION_ARG, EXPR_ARG, FACE_OP, KIND_ARG, NUMBER_ARG, POOL_ARG, TRUTH_ARG,
                                         WORD_ARG, operands)
from ruleset_engine.dice.errors import DiceError, DiceLimitError, DiceTypeError, DiceValueError
from ruleset_engine.dice.expression import env_name
from ruleset_engine.dice.functions import FUNCTIONS
from ruleset_engine.dice.kinds import describe
from ruleset_engine.dice.binding import COMPARE, bind, translate
from ruleset_engine.dice.modifiers import MODIFIERS
from ruleset_engine.dice.named import NO_FORMULAS
from ruleset_engine.dice.runtime import u_env

from .by_face import first_face, work as first_face_work


# icepool's refusal of an evaluation it finds no order for (a keep on a pool whose size is known only
# when rolled, inside another): the caller estimates instead (prob.ask), never a failure of dusk.
Unordered = icepool.order.ConflictingOrderError


class NoExact(Exception):
    """The expression has a part without an exact form, or a dependence the translation cannot follow."""


@dataclass(frozen=True)
class ExactLimits:
    """What an exact evaluation takes, refused before any work when passed."""

    max_pool_dice: int = 100          # dice in one pool
    max_exploding: int = 200          # exploding dice x (depth + 1), summed over a pool
    max_depth: int = 20               # explosions followed at most this deep (--depth)
    cut_chance: Fraction = Fraction(1, 1_000_000)   # the automatic depth: a die's chance to explode again is at most this
    max_arrangements: int = 20_000    # a whole pool re-rolled as one (reroll(pool, ..)): its possible multisets
    # The size of the work, estimated before it is done; past it the odds are estimated, and the first
    # line says why. A pool's evaluation goes face by face through its dice, keeping a state (a sum
    # reaches dice x faces values): about (dice x faces)^2 steps, times the pools a rolled count or
    # rolled sides can make. Values of independent dice combine over every pair of outcomes. A die of
    # more faces than max_faces is not made at all (icepool would hold each of its outcomes).
    max_work: int = 200_000
    max_faces: int = 10_000


def too_much(work: int, limits: "ExactLimits") -> NoExact | None:
    """The NoExact that says the work is past the limit (None when it is not), with the way on."""
    if work <= limits.max_work:
        return None
    about = f"{work:,}" if work < 10**9 else f"10^{len(str(work)) - 1}"
    return NoExact(i18n._("exact odds would need about {about} steps, more than {limit}; estimated instead "
                          "(--samples sets how many rolls)").format(about=about, limit=i18n.number(limits.max_work)))


EXACT_LIMITS = ExactLimits()

# A tally (a count, sum or size) of a plain NdS is counted die by die, the same exact distribution as
# the multiset evaluation and many times faster (tests/analysis/test_exact_tally.py compares the two,
# fraction for fraction, with this off and on).
COUNT_FAST = True
MAX_COMPOSITIONS = 20_000     # the ways N dice fall into the faces' classes, past which N @ die is used


# The highest or lowest face of a pool made face by face from plain NdS (unpair, cancel, keep/drop by a
# test of the face) is found going down (or up) the faces once (analysis/by_face.py): the same exact
# distribution as the multiset evaluation, many times faster (tests/analysis/test_exact_by_face.py
# compares the two with this off and on).
BY_FACE = True


class First:
    """An evaluation reading the first face present, going down the faces (`descending`: the highest)
    or up (the lowest), as a tuple of that face, () for an empty pool; `multiset` is the same over
    icepool's multiset, used where the pool is not made face by face from plain NdS."""

    __slots__ = ("descending", "multiset")

    def __init__(self, descending: bool, multiset):
        self.descending = descending
        self.multiset = multiset

    def __call__(self, expr):
        return self.multiset(expr)


class Tally:
    """An evaluation that adds up `per_die(face)` over the dice of a pool (a count, a sum, a size);
    `multiset` is the same evaluation over icepool's multiset, used where the pool is no plain NdS."""

    __slots__ = ("per_die", "multiset")

    def __init__(self, per_die, multiset):
        self.per_die = per_die
        self.multiset = multiset

    def __call__(self, expr):
        return self.multiset(expr)


def _compositions(n: int, k: int):
    """Every tuple of k counts of 0 or more adding up to n."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, k - 1):
            yield (first,) + rest


def _counted(die, count: int, per_die: tuple, single: bool = False):
    """The joint distribution of the tallies over `count` independent copies of `die`: the faces fall
    into classes (faces that add the same to every tally), and each way the dice fall into the classes
    has its multinomial weight; past MAX_COMPOSITIONS ways, icepool's `count @ die` adds the dice up.
    A Die of tuples (one value per tally), or of the value itself with `single`."""
    classes: dict = {}
    for face, quantity in die.items():
        if quantity:
            key = tuple(fn(face) for fn in per_die)
            classes[key] = classes.get(key, 0) + quantity
    items = list(classes.items())
    if math.comb(count + len(items) - 1, len(items) - 1) > MAX_COMPOSITIONS:
        if single:
            return count @ die.map(per_die[0], star=False)
        summed = count @ die.map(lambda face: icepool.Vector(tuple(fn(face) for fn in per_die)), star=False)
        return summed.map(lambda v: tuple(v), star=False)
    found: dict = {}
    for counts in _compositions(count, len(items)):
        weight, left = 1, count
        for c, (_, quantity) in zip(counts, items):
            weight *= math.comb(left, c) * quantity ** c
            left -= c
        key = tuple(sum(c * values[i] for c, (values, _) in zip(counts, items)) for i in range(len(per_die)))
        found[key] = found.get(key, 0) + weight
    return icepool.Die({k[0]: q for k, q in found.items()} if single else found)


class Source:
    """One rolled pool (a leaf of the translation): its icepool multiset. Shared once a let binds it."""

    __slots__ = ("expr", "shared", "plain")

    def __init__(self, expr):
        self.expr = expr
        self.shared = False
        self.plain = None       # (die, count): count dice alike, nothing kept, dropped or exploded


class PoolValue:
    """A pool: a multiset built by `build` from its sources' multisets (by id), at most `most` dice."""

    __slots__ = ("sources", "build", "most", "sides", "mixtures", "plain", "by_face")

    def __init__(self, sources: tuple, build, most: int, sides: int):
        self.sources = sources
        self.build = build
        self.most = most        # the most dice it can hold
        self.sides = sides      # the most distinct faces (for the size of re-rolling it whole)
        self.mixtures = 1       # the pools it may be (a rolled count or rolled sides), for the work
        self.plain = None       # (die, count): the pool is its one source, count dice alike (a tally counts them)
        # by_face(face, counts): the pool's count of a face from that face's count in each source (in
        # the order of `sources`), when every operation that made it decides each face alone; else None
        self.by_face = None

    @property
    def shared(self) -> bool:
        return any(s.shared for s in self.sources)

    def concrete(self):
        return self.build({id(s): s.expr for s in self.sources})


class Formula:
    """A value that depends on shared rolls: fn(joint outcome, outcomes of the atoms). `pending` are
    (PoolValue, evaluation) pairs evaluated jointly at the end; `atoms` shared (or other) dice."""

    __slots__ = ("pending", "atoms", "fn")

    def __init__(self, pending: tuple, atoms: tuple, fn):
        self.pending = pending
        self.atoms = atoms
        self.fn = fn


def _unique(items) -> list:
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def is_random(value) -> bool:
    return isinstance(value, (icepool.Die, Formula))


class ExactRoll:
    """The dice of one NdS while its modifiers translate: one kind of die, how many, and once a
    modifier works on the pool as a whole, the multiset."""

    def __init__(self, x: "Exact", die, count: int, label: str, span):
        self.x = x
        self.die = die
        self.sides = die.max_outcome() if die is not None else None    # a die's highest face, as rolled
        self.count = count
        self.expr = None
        self.label = label
        self.span = span
        self.set = False        # min or max set the faces: a die rolled again would not be this die
        self.rerolled = False   # a re-roll changed the die: a die an explosion adds is rolled fresh, not re-rolled

    def current(self):
        return self.expr if self.expr is not None else self.die.pool(self.count)

    def each(self, change) -> None:
        """Each die changed on its own (re-rolls): only while the dice are still alike and fresh."""
        if self.expr is not None:
            raise NoExact(i18n._("{label} re-rolls dice after they were kept, dropped or exploded").format(
                              label=self.label))
        if self.set:
            raise NoExact(i18n._("{label} re-rolls dice after min or max set their faces").format(label=self.label))
        self.die = change(self.die)
        self.rerolled = True
        if not self.die.outcomes():
            raise DiceLimitError(i18n._("every face would be re-rolled, so re-rolling would never end"), span=self.span)

    def set_faces(self, change) -> None:
        """Each die's face set on its own (min, max): while the dice are alike and fresh."""
        if self.die is None:
            raise NoExact(i18n._("min or max on the dice of [..] (written as NdSmin2 it is exact)"))
        if self.expr is not None:
            raise NoExact(i18n._("{label} sets the faces of dice after they were kept, dropped or exploded").format(
                              label=self.label))
        self.die = self.die.map(change)
        self.set = True

    def pool(self, change) -> None:
        self.expr = change(self.current())

    def explode(self, test, most: int | None = None) -> None:
        """Explosions on the die's highest face (its sides, as the table rolls them: a re-rolled or
        lowered die never shows it) or on the faces meeting the test; `most`: at most that many dice
        added from one die (1: explode once, the added die does not explode), else followed as deep
        as the odds need."""
        if self.expr is not None:
            raise NoExact(i18n._("{label} explodes dice after they were kept or dropped").format(label=self.label))
        if self.set:
            raise NoExact(i18n._("{label} explodes dice after min or max set their faces").format(label=self.label))
        sides = self.sides
        which = (lambda face: face == sides) if test is None else test
        if self.rerolled and any(which(face) for face in self.die.outcomes()):
            # icepool would explode into dice re-rolled as the first were; the table's added dice are fresh.
            raise NoExact(i18n._("{label} explodes dice after re-rolling them (the added dice are not "
                                 "re-rolled)").format(label=self.label))
        if most is not None:
            depth = most
            if self.count * (most + 1) > self.x.limits.max_exploding:
                what = i18n._("2 for an explosion once") if most == 1 else \
                    i18n._("{n} for at most {most} dice from one").format(n=most + 1, most=most)
                raise self.x.fail(DiceLimitError, i18n._("exact odds follow at most {limit} exploding dice (dice "
                                                         "x {what}); {count} dice are {value}: use --estimate").format(
                                                      limit=self.x.limits.max_exploding, what=what, count=self.count,
                                                      value=self.count * (most + 1)), self.span)
        else:
            depth = self.x.explode_depth(self.die, which, self.count, self.span)
        if self.count == 0:
            return          # no die to explode (icepool's explode_to_pool of none has no outcome)
        self.expr = self.die.explode_to_pool(self.count, which, depth=depth)


class Exact:
    """Translates one expression (its text, for carets) to icepool; `names(path, span)` reads a name."""

    def __init__(self, text: str, names, *, depth: int | None = None, limits: ExactLimits = EXACT_LIMITS,
                 formulas=NO_FORMULAS):
        self.text = text
        self.formulas = formulas                      # the named formulas calls may name (dice/named.py)
        self.names = names
        self.depth = depth
        self.limits = limits
        self.depths: list[tuple[int, float]] = []    # (depth, the chance a die's chain is cut) per explosion
        self.call = None                              # the call whose exact form runs (for its messages)
        self.rolled: list = []                        # the pools of the notations being translated (ast.Rolled)

    def fail(self, cls, message: str, span) -> DiceError:
        return cls(message, self.text, span)

    def label(self, span) -> str:
        return self.text[span[0]:span[1]]

    # ---- the helpers the registry's exact forms call ----------------------------------------
    def afford(self, work: int) -> None:
        """NoExact when the work about to be done is past the limit (ExactLimits.max_work)."""
        refused = too_much(work, self.limits)
        if refused is not None:
            raise refused

    def combine(self, fn, *values):
        """fn applied to the outcomes of independent values (constants, dice, formulas)."""
        if not any(is_random(v) for v in values):
            return fn(*values)
        if not any(isinstance(v, Formula) for v in values):
            self.afford(math.prod(len(v) for v in values if isinstance(v, icepool.Die)))
            return icepool.map(fn, *values, star=False)
        pending = _unique(p for v in values if isinstance(v, Formula) for p in v.pending)
        atoms = _unique([a for v in values if isinstance(v, Formula) for a in v.atoms]
                        + [v for v in values if isinstance(v, icepool.Die)])
        where_p = {id(p): i for i, p in enumerate(pending)}
        where_a = {id(a): i for i, a in enumerate(atoms)}
        getters = []
        for v in values:
            if isinstance(v, Formula):
                pi = tuple(where_p[id(p)] for p in v.pending)
                ai = tuple(where_a[id(a)] for a in v.atoms)
                getters.append(lambda p, a, v=v, pi=pi, ai=ai: v.fn(tuple(p[i] for i in pi), tuple(a[j] for j in ai)))
            elif isinstance(v, icepool.Die):
                k = where_a[id(v)]
                getters.append(lambda p, a, k=k: a[k])
            else:
                getters.append(lambda p, a, v=v: v)
        return Formula(tuple(pending), tuple(atoms), lambda p, a: fn(*(g(p, a) for g in getters)))

    def evaluate(self, pool: PoolValue, evaluation):
        """An evaluation of a pool (its size, sum, ...): now, or with the other readers of a shared roll."""
        if not pool.shared:
            if isinstance(evaluation, First):
                found = self._first(pool, evaluation)
                if found is not None:
                    return found
            fast = _tally_work(((pool, evaluation),))
            self.afford(_pool_work(pool) if fast is None else fast)
            if fast is not None:
                return _counted(*pool.plain, (evaluation.per_die,), single=True)
            return evaluation(pool.concrete())
        return Formula(((pool, evaluation),), (), lambda p, a: p[0])

    def transform(self, change, *pools: PoolValue, by_face=None) -> PoolValue:
        """A pool made from pools by a multiset operation (it never holds more dice than they do).
        `by_face(face, *counts)`, when the operation decides each face's count from the same face's
        counts in the pools alone: that count (so a First of it can go face by face)."""
        sources = tuple(_unique(s for p in pools for s in p.sources))
        builds = [p.build for p in pools]
        made = PoolValue(sources, lambda m: change(*(b(m) for b in builds)), max(p.most for p in pools),
                         max(p.sides for p in pools))
        made.mixtures = math.prod(p.mixtures for p in pools)
        if by_face is not None and all(p.by_face is not None for p in pools):
            where = {id(s): i for i, s in enumerate(sources)}
            parts = [(p.by_face, tuple(where[id(s)] for s in p.sources)) for p in pools]
            made.by_face = lambda face, counts: by_face(face, *(f(face, tuple(counts[i] for i in at))
                                                                for f, at in parts))
        return made

    def first(self, descending: bool, multiset) -> First:
        """An evaluation reading the highest face present (`descending`) or the lowest, as a tuple of
        it (empty for an empty pool); `multiset` is the same over icepool's multiset."""
        return First(descending, multiset)

    def _first(self, pool: PoolValue, evaluation: First):
        """The First of a pool made face by face from plain NdS, going down (or up) the faces once;
        None when the pool is not such, or when that is more work than the limit (the multiset form
        and its own estimate then stand)."""
        if not BY_FACE or pool.by_face is None or not all(s.plain is not None for s in pool.sources):
            return None
        rolls = [(tuple((face, q) for face, q in s.plain[0].items() if q), s.plain[1]) for s in pool.sources]
        if first_face_work(rolls) > self.limits.max_work:
            return None
        found = first_face(rolls, pool.by_face, evaluation.descending)
        return icepool.Die({(() if face is None else (face,)): weight for face, weight in found.items()})

    def extreme(self, pool: PoolValue, evaluation, default, kept: bool = False):
        """The highest (or lowest) face. `evaluation` gives (face, count) (icepool's
        highest_outcome_and_count: an emptied pool names its lowest outcome with a count of 0) or,
        with kept=True, the kept faces as a tuple (empty for an emptied pool). Empty reads the default."""
        found = self.evaluate(pool, evaluation)
        if not kept:
            found = self.combine(lambda face_count: (face_count[0],) if face_count[1] else (), found)
        if default is None:
            call = self.call
            message = (i18n._("{label} can be empty, and {function}(..) of an empty pool is an error: give "
                              "{function}(pool, default=N)").format(
                           label=self.label(call.args[0].span), function=call.function))

            def face(kept: tuple):
                if not kept:
                    raise DiceValueError(message, self.text, call.span)
                return kept[0]

            return self.combine(face, found)
        return self.combine(lambda kept, otherwise: kept[0] if kept else otherwise, found, default)

    def tally(self, per_die, multiset) -> Tally:
        """An evaluation adding up per_die(face) over a pool's dice; `multiset` is the same over icepool's
        multiset. On a plain NdS it is counted die by die (the same distribution, many times faster)."""
        return Tally(per_die, multiset)

    def constant(self, value, what: str) -> int:
        if is_random(value) or isinstance(value, PoolValue):
            raise NoExact(i18n._("{what} is known only when rolled").format(what=what))
        return value

    def faces(self, pool, what: str) -> tuple:
        """The faces of a pool known before anything is rolled (ignore=[1])."""
        if isinstance(pool, PoolValue) and not pool.sources:
            return pool.build({})
        raise NoExact(i18n._("{what} needs faces known before rolling").format(what=what))

    def pool_of(self, value, faces_of) -> PoolValue:
        """A pool whose faces come from a random value: `faces_of(outcome)` gives them."""
        if isinstance(value, Formula):
            raise NoExact(i18n._("a pool made from a shared roll's evaluation"))
        if not isinstance(value, icepool.Die):
            return _fixed_pool(faces_of(value))
        most = max(len(faces_of(o)) for o in value.outcomes())
        sides = len({f for o in value.outcomes() for f in faces_of(o)})
        return _source_pool(value.map_to_pool(lambda o: list(faces_of(o)) or _empty(), star=False), most, sides)

    def reroll(self, value, test):
        """A whole value re-evaluated while its total meets the test: its chances among the totals that fail it."""
        if isinstance(value, Formula):
            raise NoExact(i18n._("re-rolling a value that depends on a shared roll"))
        if isinstance(value, PoolValue):
            if value.shared:
                raise NoExact(i18n._("re-rolling a shared roll"))
            arrangements = math.comb(value.most + value.sides - 1, value.most) if value.sides else 1
            if arrangements > self.limits.max_arrangements:
                raise DiceLimitError(i18n._("re-rolling a whole pool of up to {most} dice exactly means following "
                                            "{arrangements} arrangements of its faces (the limit is {limit}); "
                                            "--estimate simulates it").format(
                                         most=value.most, arrangements=i18n.number(arrangements),
                                         limit=i18n.number(self.limits.max_arrangements)))
            kept = value.concrete().expand().reroll(lambda faces: test(sum(faces)), depth="inf", star=False)
            if not kept.outcomes():
                raise DiceLimitError(i18n._("every total meets the condition, so re-rolling would never end"))
            return self.pool_of(kept, lambda faces: faces)
        if not isinstance(value, icepool.Die):
            return value      # a number that fails the test (one that meets it is refused before rolling)
        kept = value.reroll(test, depth="inf", star=False)
        if not kept.outcomes():
            raise DiceLimitError(i18n._("every value meets the condition, so re-rolling would never end"))
        return kept

    def explode_depth(self, die, which, count: int, span) -> int:
        """How deep explosions are followed: --depth, or the least depth at which a die's chance to
        explode once more is below the cut chance. Recorded for the report."""
        p = Fraction(sum(q for o, q in die.items() if which(o)), die.denominator())
        if self.depth is not None:
            depth = self.depth
        else:
            depth = 1
            while p ** (depth + 1) > self.limits.cut_chance and depth < self.limits.max_depth:
                depth += 1
        if count * (depth + 1) > self.limits.max_exploding:
            raise self.fail(DiceLimitError, i18n._("exact odds follow at most {limit} exploding dice (dice x "
                                                   "(depth + 1)); {count} dice {depth} deep are {value}: use "
                                                   "--depth or --estimate").format(
                                                limit=self.limits.max_exploding, count=count, depth=depth,
                                                value=count * (depth + 1)), span)
        self.depths.append((depth, float(p ** (depth + 1))))
        return depth

    # ---- the tree ------------------------------------------------------------------------------
    def node(self, node):
        return _NODES[type(node)](self, node)

    def number(self, node):
        value = self.node(node)
        if isinstance(value, PoolValue):
            return self.evaluate(value, SUM)
        return value

    def pool(self, node, what: str) -> PoolValue:
        value = self.node(node)
        if isinstance(value, PoolValue):
            return value
        if isinstance(value, tuple):
            return _fixed_pool(value)
        raise self.fail(DiceTypeError, i18n._("{what} needs a pool of dice, not {kind}").format(
                                           what=what, kind=describe(value)), node.span)

    def truth(self, node):
        return self.combine(bool, self.number(node))

    def test(self, node: ast.Condition):
        """A condition as a test of one face; its value must be known before rolling."""
        value = self.constant(self.number(node.operand), i18n._("the value of '{label}'").format(
                                                             label=self.label(node.span)))
        return getattr(value, {">=": "__le__", ">": "__lt__", "<=": "__ge__", "<": "__gt__", "==": "__eq__",
                               "!=": "__ne__"}[node.op])

    def finish(self, value):
        """The translated value as one icepool Die: shared rolls evaluated jointly, once."""
        if isinstance(value, PoolValue):
            value = self.evaluate(value, SUM)
        if isinstance(value, Formula):
            atoms = value.atoms
            self.afford(math.prod(len(a) for a in atoms if isinstance(a, icepool.Die)) * _joint_work(value.pending))
            if value.pending:
                joint = _joint(value.pending)
                return icepool.map(lambda j, *a: value.fn(j, a), joint, *atoms, star=False)
            return icepool.map(lambda *a: value.fn((), a), *atoms, star=False)
        if isinstance(value, icepool.Die):
            return value
        return icepool.Die([value])


def _pool_work(pool: PoolValue) -> int:
    """The steps of one evaluation of a pool, about: (dice x faces)^2, once per pool it may be."""
    return max(1, pool.most * pool.sides) ** 2 * max(1, getattr(pool, "mixtures", 1))


def _plain_tallies(pending) -> bool:
    """Whether every reader of the pending evaluations tallies the one plain NdS (counted die by die)."""
    return (COUNT_FAST and bool(pending) and len({id(pool.sources[0]) for pool, _ in pending if pool.sources}) == 1
            and all(isinstance(evaluation, Tally) and pool.plain is not None for pool, evaluation in pending))


def _tally_work(pending) -> int | None:
    """The steps of counting the tallies die by die (the ways the dice fall into the faces' classes, times
    the tallies), or None when they are not all tallies of one plain NdS or the ways are past
    MAX_COMPOSITIONS (then N @ die adds up dice, and the multiset form's estimate stands)."""
    if not _plain_tallies(pending):
        return None
    die, count = pending[0][0].plain
    classes = {tuple(evaluation.per_die(face) for _, evaluation in pending) for face, q in die.items() if q}
    ways = math.comb(count + len(classes) - 1, len(classes) - 1)
    return ways * len(pending) if ways <= MAX_COMPOSITIONS else None


def _joint_work(pending) -> int:
    """The steps of the joint evaluation of the readers of shared rolls, about: the dice x faces of
    the widest roll, times the states of the readers together. A reader counting dice has dice + 1
    states, and k readers of n dice together at most C(n + k, k) (their counts rise together as the
    faces go by), whichever is fewer."""
    if not pending:
        return 1
    fast = _tally_work(pending)
    if fast is not None:
        return fast
    faces = max(max(1, pool.most * pool.sides) for pool, _ in pending)
    k, most = len(pending), max(pool.most for pool, _ in pending)
    states = min(math.prod(pool.most + 1 for pool, _ in pending), math.comb(most + k, k))
    return faces * states


def _joint(pending):
    """One multiset evaluation of every reader of the shared rolls: a Die of tuples."""
    sources = _unique(s for pool, _ in pending for s in pool.sources)
    if any(isinstance(s.expr, icepool.MultisetMixture) for s in sources):
        # A pool whose number of dice is known only when rolled (explosions, a rolled count) is a
        # mixture of pools, and icepool's joint evaluation of one gives a wrong answer, not an error.
        raise NoExact(i18n._("a roll read more than once whose number of dice is known only when rolled "
                             "(explosions, a rolled count) cannot be followed exactly"))

    if _plain_tallies(pending):
        return _counted(*pending[0][0].plain, tuple(evaluation.per_die for _, evaluation in pending))

    def body(*params):
        m = {id(s): p for s, p in zip(sources, params)}
        return tuple(evaluation(pool.build(m)) for pool, evaluation in pending)

    return icepool.multiset_function(body)(*(s.expr for s in sources))


def _empty():
    # A pool with no dice that still has an outcome, so icepool can evaluate it (a count of 0 throughout).
    return icepool.Pool([icepool.Die([0])]).drop_outcomes([0])


def _identity_by_face(face, counts):
    return counts[0]


def _fixed_pool(faces) -> PoolValue:
    faces = tuple(faces)
    return PoolValue((), lambda m: icepool.Pool(list(faces)) if faces else _empty(), len(faces), len(set(faces)))


def _source_pool(expr, most: int, sides: int) -> PoolValue:
    source = Source(expr)
    return PoolValue((source,), lambda m: m[id(source)], most, sides)


def share(value):
    """A value bound by a let: every reader reads the same roll."""
    if isinstance(value, PoolValue):
        for s in value.sources:
            s.shared = True
        return value
    if isinstance(value, icepool.Die):
        return Formula((), (value,), lambda p, a: a[0])
    return value


# ---- one function per node type -----------------------------------------------------------------


def _integer(x: Exact, node):
    return node.value


def _name(x: Exact, node: ast.Name):
    value = x.names(node.path, node.span)
    if isinstance(value, (PoolValue, Formula, icepool.Die)):
        return value
    if isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple) and all(type(v) is int for v in value):
        return _fixed_pool(value)
    raise x.fail(DiceTypeError, i18n._("{name} is {kind}, not a number, a pool or true/false").format(
                                    name=node.dotted, kind=describe(value)), node.span)


def _unary(x: Exact, node: ast.Unary):
    value = x.number(node.operand)
    return value if node.op == "+" else x.combine(operator.neg, value)


def _arithmetic(x: Exact, node: ast.Arithmetic):
    value = x.number(node.operands[0])
    for op, operand in zip(node.ops, node.operands[1:]):
        right = x.number(operand)
        if op in ("//", "%"):
            message = i18n._("{label} can be 0, and a division by zero is an error").format(
                          label=x.label(operand.span))

            def divide(a, b, message=message, span=operand.span, mod=op == "%"):
                if b == 0:
                    raise DiceValueError(message, x.text, span)
                return a % b if mod else a // b

            value = x.combine(divide, value, right)
        else:
            value = x.combine({"+": operator.add, "-": operator.sub, "*": operator.mul}[op], value, right)
    return value


def _compare(x: Exact, node: ast.Compare):
    left, right = x.node(node.left), x.node(node.right)
    for value, side in ((left, node.left), (right, node.right)):
        if isinstance(value, PoolValue):
            raise x.fail(DiceTypeError, i18n._("a pool compared with a value: count(..) or sum(..) says which"),
                         side.span)
    return x.combine(COMPARE[node.op], left, right)


def _all_of(x: Exact, node: ast.AllOf):
    return x.combine(lambda *v: all(v), *(x.truth(item) for item in node.items))


def _any_of(x: Exact, node: ast.AnyOf):
    return x.combine(lambda *v: any(v), *(x.truth(item) for item in node.items))


def _not(x: Exact, node: ast.Not):
    return x.combine(operator.not_, x.truth(node.operand))


def _conditional(x: Exact, node: ast.Conditional):
    test = x.truth(node.test)
    if not is_random(test):
        return x.node(node.then if test else node.otherwise)
    then, otherwise = x.node(node.then), x.node(node.otherwise)
    if isinstance(then, PoolValue) or isinstance(otherwise, PoolValue):
        raise NoExact(i18n._("a pool chosen by a condition known only when rolled"))
    return x.combine(lambda t, a, b: a if t else b, test, then, otherwise)


def _condition(x: Exact, node):
    raise x.fail(DiceTypeError, i18n._("a condition only goes inside count(..), keep(..), drop(..) or reroll(..)"),
                 node.span)


def _member(x: Exact, node: ast.Member):
    raise NoExact(i18n._("{function}(..) reads a game's records, which have no exact odds").format(
                      function=node.value.function))


def _call(x: Exact, node: ast.Call):
    if node.function in x.formulas:
        return _named(x, node, x.formulas[node.function])
    binding = bind(FUNCTIONS[node.function], node)
    form = binding.form
    if form.exact is None:
        raise NoExact(i18n._("{label} has no exact form").format(label=binding.label))
    args, keywords = translate(binding, lambda kind, arg, what: ARGUMENTS[kind](x, arg, what))
    x.call = node
    return form.exact(x, *args, **form.params, **keywords)


def _named(x: Exact, node: ast.Call, formula):
    """A named formula: each argument translated once and shared by every read of its parameter
    (as a let is), then the body with the parameters bound (the lowering has checked the call)."""
    bound = {name: share(x.node(arg)) for name, arg in zip(formula.params, node.args)}
    outer_names, outer_text = x.names, x.text

    def names(path: tuple, span):
        if len(path) == 1 and path[0] in bound:
            return bound[path[0]]
        return outer_names(path, span)

    x.names, x.text = names, formula.text
    try:
        return x.node(formula.tree)
    finally:
        x.names, x.text = outer_names, outer_text


def _kind_argument(x: Exact, node, what: str):
    # Kinds of dice have no exact form yet: a multiset of faces forgets which die was which.
    raise NoExact(i18n._("{what} reads kinds of dice, which are estimated").format(what=what))


# A bound argument (dice/binding.py) translated for icepool, by its kind: (x, node, the call's label).
ARGUMENTS = {
    KIND_ARG: _kind_argument,
    POOL_ARG: lambda x, node, what: x.pool(node, what),
    CONDITION_ARG: lambda x, node, what: x.test(node),
    TRUTH_ARG: lambda x, node, what: x.truth(node),
    WORD_ARG: lambda x, node, what: x.node(node),
    EXPR_ARG: lambda x, node, what: x.node(node),
    NUMBER_ARG: lambda x, node, what: x.number(node),
}


def _dice(x: Exact, node: ast.Dice):
    count = x.number(node.count) if node.count is not None else 1
    sides = x.number(node.sides)
    label = x.label(node.span)
    count_span = node.count.span if node.count is not None else node.span
    if isinstance(count, Formula) or isinstance(sides, Formula):
        raise NoExact(i18n._("the dice of {label} depend on a shared roll").format(label=label))
    counts = count.outcomes() if isinstance(count, icepool.Die) else (count,)
    for n in counts:
        if n < 0:
            raise x.fail(DiceValueError, i18n._("{label} can be {n}, and a negative number of dice cannot be "
                                                "rolled").format(label=x.label(count_span), n=n), count_span)
        if n > x.limits.max_pool_dice:
            raise x.fail(DiceLimitError, i18n._("exact odds take pools of at most {limit} dice, and {label} can "
                                                "hold {n}: --estimate simulates it").format(
                                             limit=x.limits.max_pool_dice, label=label, n=n), count_span)
    all_sides = sides.outcomes() if isinstance(sides, icepool.Die) else (sides,)
    for s in all_sides:
        if s < 1:
            raise x.fail(DiceValueError, i18n._("{label} can be {s}, and a die needs at least 1 side").format(
                                             label=x.label(node.sides.span), s=s),
                         node.sides.span)
    if max(all_sides) > x.limits.max_faces:
        raise NoExact(i18n._("{label} has dice of up to {most} faces, more than the {limit} exact odds follow; "
                             "estimated instead").format(
                          label=label, most=i18n.number(max(all_sides)), limit=i18n.number(x.limits.max_faces)))
    mixtures = len(counts) * len(all_sides)        # the pools a rolled count or rolled sides can make
    mods = [_modifier(x, mod) for mod in node.modifiers]
    for mod in node.modifiers:
        _never_ends(x, mod, all_sides)

    def rolled(n, s) -> ExactRoll:
        built = ExactRoll(x, icepool.d(s), n, label, node.span)
        for entry, found in mods:
            entry.exact(x, built, *found)
        return built

    plain = None
    if isinstance(count, icepool.Die) or isinstance(sides, icepool.Die):
        expr = icepool.map_to_pool(lambda n, s: rolled(n, s).current(), count, sides, star=False)
    else:
        built = rolled(count, sides)
        expr = built.current()
        if built.expr is None:          # no keep, drop or explosion: count dice alike
            plain = (built.die, count)
    # The most dice one die may become: an explosion with no most is followed as deep as the odds need.
    deepest = 0
    for entry, found in mods:
        if entry.adds_dice:
            most = entry.most_added(*found) if entry.most_added is not None else None
            deepest = max(deepest, max((d for d, _ in x.depths), default=0) if most is None else most)
    made = _source_pool(expr, max(counts) * (deepest + 1), max(all_sides))
    made.mixtures = mixtures
    made.plain = made.sources[0].plain = plain
    if plain is not None:
        made.by_face = _identity_by_face
    return made


def _modifier(x: Exact, mod):
    """The modifier's entry and its operands as its exact form takes them (a number, a test of a face)."""
    entry = MODIFIERS[mod.token]

    def number(node, kind):
        if node is None:
            return 1
        n = x.constant(x.number(node), (i18n._("the face of {token}") if kind == FACE_OP else
                                        i18n._("the number of dice of {token}")).format(token=mod.token))
        if n < 0 and kind != FACE_OP:
            raise x.fail(DiceValueError, i18n._("{token} needs a number of dice of 0 or more, not {n}").format(
                                             token=mod.token, n=n), mod.span)
        return n

    found = operands(entry, mod, number, x.test)
    if entry.exact is None:
        raise NoExact(i18n._("the modifier {token} has no exact form").format(token=entry.token))
    return entry, found


def _never_ends(x: Exact, mod, all_sides) -> None:
    """A modifier that could never end on dice of these sides is refused, as the table refuses it
    (runtime.modifier): the same entry's never_ends, once its operands are known (2d2!<x, x = 3)."""
    entry = MODIFIERS[mod.token]
    if entry.never_ends is None:
        return
    shown = operands(entry, mod, lambda node, kind: x.constant(x.number(node), mod.token) if node is not None else 1,
                     lambda cond: (cond.op, x.constant(x.number(cond.operand), mod.token), x.label(cond.span)))
    for sides in all_sides:
        message = entry.never_ends(sides, *shown)
        if message:
            raise x.fail(DiceLimitError, message, mod.span)


def _pool_literal(x: Exact, node: ast.PoolLiteral):
    fixed, dice, pools = [], [], []
    for item in node.items:
        value = x.node(item)
        if isinstance(value, PoolValue):
            pools.append(value)
        elif isinstance(value, tuple):
            fixed.extend(value)
        elif isinstance(value, icepool.Die):
            dice.append(value)
        elif isinstance(value, Formula):
            raise NoExact(i18n._("a pool holding a value that depends on a shared roll"))
        elif isinstance(value, (bool, str)):
            raise x.fail(DiceTypeError, i18n._("a pool holds numbers and dice, not {kind}").format(
                                            kind=describe(value)), item.span)
        else:
            fixed.append(value)
    parts = list(pools)
    if dice:
        most = len(dice) + len(fixed)
        parts.append(_source_pool(icepool.Pool(dice + [icepool.Die([f]) for f in fixed]), most,
                                  len({o for d in dice for o in d.outcomes()} | set(fixed))))
    elif fixed or not parts:
        parts.append(_fixed_pool(fixed))
    # Joined two at a time (icepool's union of more than two at once fails on some shapes).
    value = parts[0] if len(parts) == 1 else x.transform(lambda *e: functools.reduce(_union, e), *parts)
    if len(parts) > 1:
        value.most = sum(p.most for p in parts)
    for mod in node.modifiers:
        entry, found = _modifier(x, mod)
        if entry.draws:
            raise NoExact(i18n._("'{token}' on the dice of [..] (written as NdS{token} it is exact)").format(
                              token=entry.token))
        value = x.transform(lambda e, entry=entry, found=found: _select(x, entry, found, e), value)
    return value


def _union(a, b):
    return a.additive_union(b)


def _select(x: Exact, entry, found, expr):
    """A modifier that keeps or drops dice, on the multiset of a pool literal."""
    roll = ExactRoll(x, None, 0, "", None)
    roll.expr = expr
    entry.exact(x, roll, *found)
    return roll.expr


def _aliased(x: Exact, node: ast.Aliased):
    """Another tool's notation, as its entry rewrote it: the pool rolled once, read by the explicit
    form wherever it holds a Rolled (shared, as a let's roll is, when read more than once)."""
    pool = x.pool(node.pool, "a notation")
    if node.body is None:
        return pool
    reads = sum(isinstance(n, ast.Rolled) for n in ast.walk(node.body))
    x.rolled.append(share(pool) if reads > 1 else pool)
    try:
        return x.node(node.body)
    finally:
        x.rolled.pop()


def _rolled(x: Exact, node: ast.Rolled):
    return x.rolled[-1]


_NODES = {
    ast.Integer: _integer, ast.String: _integer, ast.Boolean: _integer, ast.Name: _name, ast.Unary: _unary,
    ast.Arithmetic: _arithmetic, ast.Compare: _compare, ast.AllOf: _all_of, ast.AnyOf: _any_of, ast.Not: _not,
    ast.Conditional: _conditional, ast.Condition: _condition, ast.Call: _call, ast.Dice: _dice,
    ast.PoolLiteral: _pool_literal, ast.Aliased: _aliased, ast.Rolled: _rolled, ast.Member: _member,
}


SUM = Tally(lambda face: face, lambda e: e.sum())     # a pool read as a number


def env_names(env, lets: dict):
    """A name reader: a let's translated value, or a value of the environment (params, a grid, the state)."""

    def read(path: tuple, span):
        if len(path) == 1 and path[0] in lets:
            return lets[path[0]]
        return env_name(env, path, span, u_env)

    return read


def distribution(die) -> list[tuple[object, Fraction]]:
    """A Die's outcomes with their exact chances, in order."""
    total = die.denominator()
    return [(outcome, Fraction(quantity, total)) for outcome, quantity in die.items() if quantity]
