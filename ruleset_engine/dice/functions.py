"""The functions of the dice language: one registry entry each, its primitive beside it.

A primitive works on plain faces (a tuple or list of whole numbers) and decides: a number, a
keep-flag per die, or an order. How a decision becomes a value (a tuple of faces in a
simulation, dice with their fates at the table) is the lowering's business, by the form's
shape (see entries.py), so each rule of the language is written here once.
"""

from __future__ import annotations

from ruleset_engine import i18n

from .binding import empty_pool, negative_count
from .entries import CONDITION_ARG, EXPR_ARG, KIND_ARG, NUMBER_ARG, POOL_ARG, TRUTH_ARG, WORD_ARG, Form, Function
from .errors import DiceLimitError, DiceTypeError, DiceValueError
from .values import NO_KIND

# ---- primitives: which dice go aside, decided over faces ---------------------------------------
# A select primitive gives the indices of the dice it sets aside, in roll order (most selections
# set aside few dice, so this is the short answer); the lowering keeps the others.


def unpair_aside(faces) -> list:
    """For each face rolled c times, floor(c/2) dice are set aside: the later ones."""
    total: dict = {}
    for f in faces:
        total[f] = total.get(f, 0) + 1
    seen: dict = {}
    gone = []
    for i, f in enumerate(faces):
        n = seen[f] = seen.get(f, 0) + 1
        c = total[f]
        if n > c - c // 2:
            gone.append(i)
    return gone


def cancel_aside(faces, against) -> list:
    """Each face of `against` cancels one equal face of `faces`, the earliest first."""
    if len(against) == 1:    # the common case, one die cancelling
        face = against[0]
        return [faces.index(face)] if face in faces else []
    left: dict = {}
    for f in against:
        left[f] = left.get(f, 0) + 1
    gone = []
    for i, f in enumerate(faces):
        n = left.get(f, 0)
        if n:
            left[f] = n - 1
            gone.append(i)
    return gone


def largest_set_aside(faces, ignore=()) -> list:
    """All but the dice of the biggest group of equal faces (ties: the higher face); an ignored
    face is never chosen."""
    counts: dict = {}
    for f in faces:
        if f not in ignore:
            counts[f] = counts.get(f, 0) + 1
    if not counts:
        return list(range(len(faces)))
    best = max(counts, key=lambda f: (counts[f], f))
    return [i for i, f in enumerate(faces) if f != best]


def top_aside(faces, n: int, highest: bool) -> list:
    """All but the n highest (or lowest) dice; among equal faces the earlier die is chosen."""
    order = sorted(range(len(faces)), key=faces.__getitem__, reverse=highest)
    return sorted(order[n:])


def plural(n: int, one: str, many: str) -> str:
    """The word for n things: `one` for exactly 1, `many` otherwise (0 dice, 1 die, 2 dice)."""
    return one if n == 1 else many


# ---- checks made before anything is rolled -----------------------------------------------


def _check_extreme(lo, call, form, args) -> None:
    if len(call.args) == 2 and any(k.name == "default" for k in call.keywords):
        raise lo.fail(DiceTypeError, i18n._("default= only applies to {function}(pool) without a count").format(
                                         function=call.function), call.span)


def _check_kinds(lo, call, form, args) -> None:
    if not call.keywords:
        raise lo.fail(DiceTypeError, i18n._("kinds(..) names at least one kind and how many dice are of it, as in "
                                            "kinds(5d10, wild=2)"), call.span)
    for keyword in call.keywords:
        if keyword.name == NO_KIND:
            raise lo.fail(DiceTypeError, i18n._("{no_kind} names the dice of no kind (of(p, {no_kind}), "
                                                "kind={no_kind}): kinds(..) gives kinds of other names").format(
                                             no_kind=NO_KIND), keyword.span)
    if args[0].is_const:
        raise lo.fail(DiceTypeError, i18n._("kinds(..) marks dice that are rolled, and {label} is a constant "
                                            "pool: give its kinds where it is rolled, as in kinds(5d10, wild=2)").format(
                                         label=lo.label(call.args[0].span)),
                      call.args[0].span)


def _check_reroll(lo, call, form, args) -> None:
    if form.shape == "chosen":
        return
    expr, cond = args
    if expr.bounds is not None and cond.every_value_meets(*expr.bounds):
        raise lo.fail(
            DiceLimitError,
            i18n._("every value of {label} ({low}..{high}) meets '{condition}', so re-rolling while it does "
                   "would never end").format(label=lo.label(call.args[0].span), low=expr.bounds[0],
                                             high=expr.bounds[1], condition=lo.label(call.args[1].span)),
            call.span,
        )


# ---- exact forms: the same rules over icepool (`dusk prob`) -------------------------------
# `x` is the exact translator (ruleset_engine/analysis/exact.py); these call only methods of the
# values they are given, so nothing here imports icepool. A pool is a multiset: which die of equal
# faces goes aside changes no number, so the multiset operations below are the whole rule.


def _exact_min(x, *values):
    return x.combine(lambda *v: min(v), *values)


def _exact_max(x, *values):
    return x.combine(lambda *v: max(v), *values)


def _exact_abs(x, value):
    return x.combine(abs, value)


# count, sum and size add up one value per die: a tally (per die, and over the multiset), which a plain
# NdS counts die by die (N @ die), many times faster than the multiset evaluation, to the same odds.
def _exact_count(x, pool, test):
    return x.evaluate(pool, x.tally(lambda face: 1 if test(face) else 0, lambda e: e.keep_outcomes(test).size()))


def _exact_sum(x, pool):
    return x.evaluate(pool, x.tally(lambda face: face, lambda e: e.sum()))


def _exact_size(x, pool):
    return x.evaluate(pool, x.tally(lambda face: 1, lambda e: e.size()))


def _exact_highest(x, pool, default=None):
    # The kept faces, as lowest reads them: icepool's highest_outcome_and_count names a die that kh or
    # dh left out (its count 0), which read as an empty pool ([3, 2]dh1 would give its default).
    # Going down the faces, the first one present (a pool made face by face from plain NdS is read so).
    return x.extreme(pool, x.first(True, lambda e: e.highest(1).expand()), default, kept=True)


def _exact_lowest(x, pool, default=None):
    return x.extreme(pool, x.first(False, lambda e: e.lowest(1).expand()), default, kept=True)


def _exact_top(x, pool, n, highest):
    n = x.constant(n, i18n._("how many dice"))
    if n < 0:       # as the select shape refuses it at the table
        raise x.fail(DiceValueError, i18n._("{function}(..) needs a count of 0 or more, not {n}").format(
                                         function=x.call.function, n=n), x.call.args[1].span)
    return x.transform(lambda e: e.highest(n) if highest else e.lowest(n), pool)


def _exact_largest_set(x, pool, ignore=None):
    skip = x.faces(ignore, "ignore=") if ignore is not None else ()
    kept = x.transform(lambda e: e.drop_outcomes(skip), pool) if skip else pool
    best = x.evaluate(kept, lambda e: e.largest_count_and_outcome())
    return x.pool_of(best, lambda count_face: (count_face[1],) * count_face[0])


# unpair, cancel and filter decide each face's count from that face's counts alone: by_face says how,
# so the highest or lowest face of what they make is found face by face (analysis/by_face.py).
def _unpaired(face, c):
    return c - c // 2


def _exact_unpair(x, pool):
    return x.transform(lambda e: e.map_counts(function=_unpaired), pool, by_face=_unpaired)


def _exact_cancel(x, pool, against):
    return x.transform(lambda a, b: a.difference(b), pool, against, by_face=lambda face, a, b: max(0, a - b))


def _exact_filter(x, pool, test, matching):
    return x.transform(lambda e: e.keep_outcomes(test) if matching else e.drop_outcomes(test), pool,
                       by_face=lambda face, c: c if bool(test(face)) == matching else 0)


def _exact_reroll(x, value, test):
    return x.reroll(value, test)


def _exact_plural(x, n, one, many):
    return x.combine(plural, n, one, many)


def _exact_sort(x, pool, descending=None):
    return pool     # the same multiset


# ---- vector forms: the same rules over many games at once (the lockstep backend) ----------------
# `v` is the vector evaluator (ruleset_engine/dice/vector.py); `v.np` is numpy, so nothing here
# imports it. A pool is a VPool: `faces` (games x slots, v.EMPTY an empty slot, dice in roll order;
# a face may be 0 or less, as a number put in a pool is).


def _vector_min(v, *values):
    return v.np.minimum.reduce(v.np.broadcast_arrays(*values)) if len(values) > 1 else values[0]


def _vector_max(v, *values):
    return v.np.maximum.reduce(v.np.broadcast_arrays(*values)) if len(values) > 1 else values[0]


def _vector_abs(v, value):
    return v.np.abs(value)


def _vector_count(v, pool, test, kind=None):
    met = test(pool.faces) & pool.present
    if kind is not None:
        met &= _of_kind(v, pool, kind)
    return v.row_sum(met)


def _of_kind(v, pool, kind: str):
    """Which dice of the pool are of the kind named (faces.is_of: `none`, the dice of no kind)."""
    return pool.kinds_or_none() == v.kind_code(kind)


def _vector_kinds(v, pool, **counts):
    """kinds_marked for each game: its first dice (in roll order) of the first kind named, the next of
    the next; the others keep the kind they had."""
    np = v.np
    present = pool.present
    place = np.cumsum(present, axis=1) - 1          # each die's place among its game's dice
    kinds = pool.kinds_or_none().copy()
    start = np.zeros(pool.faces.shape[0], np.int64)
    for name, count in counts.items():
        count = np.asarray(count)
        if (count < 0).any():
            raise DiceValueError(i18n._("kinds(..) needs a number of dice of 0 or more, not {count}").format(
                                     count=int(count.flat[np.argmax(count.flat < 0)])),
                                 span=next(k.span for k in v.call.keywords if k.name == name))
        end = start + count
        kinds[present & (place >= start[:, None]) & (place < end[:, None])] = v.kind_code(name)
        start = end
    return v.pool(pool.faces, None, kinds)


def _vector_reroll_chosen(v, pool, chosen, sides):
    """u_reroll_chosen for each game: each chosen die is the earliest die of the pool not yet taken
    that shows its face (and, when it has a kind, is of it); those dice are drawn again in place as
    dice of `sides`, their kinds kept. The first game whose chosen die is not there says so."""
    np = v.np
    sides_ = np.asarray(sides)
    if (sides_ < 1).any():
        raise DiceValueError(i18n._("a die needs at least 1 side, not {s}").format(
                                 s=int(sides_.flat[np.argmax(sides_.flat < 1)])),
                             span=v.call.args[2].span)
    faces = pool.faces.copy()
    if (sides_ > np.iinfo(faces.dtype).max).any():
        raise DiceValueError(i18n._("the lockstep backend rolls dice of at most {limit} sides").format(
                                 limit=i18n.number(np.iinfo(faces.dtype).max)),
                             span=v.call.args[2].span)
    kinds = pool.kinds_or_none()
    want, want_kinds = v.compact_kinds(chosen.faces, chosen.kinds_or_none())
    taken = np.zeros(faces.shape, bool)
    rows = np.arange(faces.shape[0])
    for c in range(want.shape[1]):
        face, kind = want[:, c], want_kinds[:, c]
        asked = face != v.EMPTY
        match = ~taken & pool.present & (faces == face[:, None]) & ((kind == 0)[:, None] | (kinds == kind[:, None]))
        found = match.any(axis=1)
        missing = asked & ~found
        if missing.any():
            k = int(np.flatnonzero(missing)[0])
            named = v.kind_name(int(kind[k]))
            raise DiceValueError(i18n._("reroll(..): a chosen die shows {face}{kind}, and {label} has no such "
                                        "die left to re-roll").format(
                                     face=int(face[k]), kind=f" ({named})" if named else "",
                                     label=v.label(v.call.args[0].span)),
                                 span=v.call.args[1].span)
        first = np.argmax(match, axis=1)
        taken[rows[asked], first[asked]] = True
    v.drew(taken.sum(axis=1))
    where = taken.nonzero()
    faces[where] = v.draw(sides_[where[0]] if sides_.ndim else int(sides_), (len(where[0]),))
    return v.pool(faces, None, pool.kinds)


def _vector_of(v, pool, kind):
    return _split(v, pool, pool.present & _of_kind(v, pool, kind))


def _vector_sum(v, pool):
    return pool.total()


def _vector_size(v, pool):
    return pool.size()


def _vector_extreme(v, pool, highest, default=None):
    np = v.np
    faces, present = pool.faces, pool.present
    n = faces.shape[0]
    has = v.row_any(present)
    if not faces.shape[1]:
        picked = np.zeros(n, np.int64)
    elif highest:
        picked = v.row_max(faces).astype(np.int64)     # an empty slot (v.EMPTY) is below every face
    else:
        picked = v.row_min(np.where(present, faces, np.iinfo(faces.dtype).max)).astype(np.int64)
    if has.all():
        return picked
    if default is None:
        raise DiceValueError(empty_pool(v.call.function, v.label(v.call.args[0].span)))    # at the call
    picked[~has] = default(~has)        # read only for the games whose pool is empty (Form.lazy)
    return picked


def _vector_highest(v, pool, default=None):
    return _vector_extreme(v, pool, True, default)


def _vector_lowest(v, pool, default=None):
    return _vector_extreme(v, pool, False, default)


def _split(v, pool, keep):
    """The pool's dice where `keep` holds, the others set aside (what a select or filter gives)."""
    faces = pool.faces
    where = v.np.where
    # What was set aside is worked out only if something reads it (aside(..)).
    return v.pool(where(keep, faces, v.EMPTY).astype(faces.dtype, copy=False),
                  lambda: v.pool(where(keep, v.EMPTY, faces).astype(faces.dtype, copy=False), None, pool.kinds),
                  pool.kinds)       # in place: each die keeps its kind


def _vector_top(v, pool, n, highest):
    np = v.np
    faces = pool.faces
    if np.any(np.asarray(n) < 0):
        first = int(np.asarray(n).flat[int(np.flatnonzero(np.asarray(n) < 0)[0])])     # the first game's
        raise DiceValueError(negative_count(v.call.function, first), span=v.call.args[1].span)
    # Rank each die: by face (empty slots last), earlier dice first among equal faces.
    wide = faces.astype(np.int32)
    key = np.where(pool.present, -wide if highest else wide, np.iinfo(np.int32).max)
    order = np.argsort(key, axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(faces.shape[1])[None, :].repeat(faces.shape[0], 0), axis=1)
    n = np.asarray(n)
    return _split(v, pool, pool.present & (rank < (n[:, None] if n.ndim else n)))


def _runs(np, key):
    """Each row's keys sorted (stably: equal keys keep their order), and for each place of that order
    how many equal keys come before it in its run. Memory: the pool's own size (rows x dice), never
    rows x faces or rows x dice x dice."""
    order = np.argsort(key, axis=1, kind="stable")
    ordered = np.take_along_axis(key, order, axis=1)
    width = key.shape[1]
    places = np.arange(width)[None, :]
    starts = np.ones(ordered.shape, bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    run_start = np.maximum.accumulate(np.where(starts, places, 0), axis=1)
    return order, ordered, places - run_start


def _in_rows(np, faces, present, others, others_present):
    """Whether each die's face is among the faces of the same row's other pool (sorted search on
    (row, face) keys: memory of the two pools, not of their product)."""
    rows = np.arange(faces.shape[0], dtype=np.int64)[:, None]
    span = 1 << 17                         # more than the faces a pool holds (EMPTY .. MAX_FACE)
    keys = np.sort((rows * span + others.astype(np.int64) + 32_768)[others_present])
    wanted = rows * span + faces.astype(np.int64) + 32_768
    at = np.searchsorted(keys, wanted).clip(0, max(0, len(keys) - 1))
    return present & (keys[at] == wanted) if len(keys) else np.zeros(faces.shape, bool)


def _vector_largest_set(v, pool, ignore=None):
    np = v.np
    faces, present = pool.faces, pool.present
    if not present.any():
        return _split(v, pool, present)
    # Each game ignores the faces of its own ignore= pool (a die showing one is counted nowhere).
    counted = present
    if ignore is not None and ignore.faces.shape[1]:
        counted = counted & ~_in_rows(np, faces, present, ignore.faces, ignore.present)
    # Each row's counted faces in order (the others last): the longest run of one face is the set;
    # ties go to the higher face (the later run among equal lengths).
    last = np.iinfo(np.int32).max
    key = np.where(counted, faces.astype(np.int32), last)
    _, ordered, before = _runs(np, key)
    length = np.where(ordered != last, before + 1, 0)
    most = v.row_max(length)
    at = length.shape[1] - 1 - np.argmax((length == most[:, None])[:, ::-1], axis=1)
    best = np.where(most > 0, ordered[np.arange(len(at)), at], last)
    return _split(v, pool, present & (faces.astype(np.int32) == best[:, None]) & (most > 0)[:, None])


FEW_FACES = 64          # a pool whose faces span at most this many values is counted face by face


def _face_codes(np, pools, empty: int):
    """Each pool's faces as codes 0..F-1 of the faces the pools show, F for an empty slot, a die's
    column a row (dice x rows: a column of the pool read at once), and F; None when they span more
    than FEW_FACES values (a sort is the way then)."""
    # An empty slot (vector.EMPTY) is the lowest value of the faces' type, and negated it stays so (two's
    # complement): plain reductions pass it over, as fast as numpy goes (a mask's where= is 30x slower).
    low = min(-int((-p.faces).max(initial=empty)) for p in pools)
    high = max(int(p.faces.max(initial=empty)) for p in pools)
    if low > high or high - low + 1 > FEW_FACES:
        return None
    faces = high - low + 1
    return [np.where(p.present, p.faces - p.faces.dtype.type(low), p.faces.dtype.type(faces)).T.copy()
            for p in pools], faces


def _before(np, codes, faces: int):
    """For each die (codes from _face_codes, dice x rows), how many equal dice come before it in its
    row, and each row's count of every face (flat: row r's at r * (faces + 1)): a die's column at a
    time, in the memory of the pool and of a count per face (rows x faces), never rows x dice x dice.
    Pools are a few dice wide: a few numpy calls a die, several times faster than a sort along rows."""
    width, n = codes.shape
    counts = np.zeros(n * (faces + 1), np.int32)
    base = np.arange(0, n * (faces + 1), faces + 1, dtype=np.int64)
    before = np.empty(codes.shape, np.int32)
    for j in range(width):
        at = base + codes[j]
        before[j] = counts[at]
        counts[at] += 1         # one die per row: no index repeats
    return before, counts, base


def _vector_unpair(v, pool):
    np = v.np
    faces = pool.faces
    present = pool.present
    coded = _face_codes(np, [pool], v.EMPTY)
    if coded is not None:       # few faces: each die's place among its equals, counted face by face
        (codes,), many = coded
        before, counts, base = _before(np, codes, many)
        total = counts[base + codes]
        return _split(v, pool, present & (before < total - total // 2).T)
    # For each die: how many equal dice come before it, and how many there are in all; from each
    # row's dice sorted stably by face (rows x dice, not rows x dice x dice).
    last = np.iinfo(np.int32).max
    key = np.where(present, faces.astype(np.int32), last)
    order, ordered, before = _runs(np, key)
    # A run's size: the places before its last die, plus one, read back along the run.
    ends = np.ones(ordered.shape, bool)
    ends[:, :-1] = ordered[:, :-1] != ordered[:, 1:]
    places = np.arange(ordered.shape[1])[None, :]
    end = np.minimum.accumulate(np.where(ends, places, ordered.shape[1])[:, ::-1], axis=1)[:, ::-1]
    total = np.take_along_axis(before, end, axis=1) + 1
    keep_sorted = (before + 1 <= total - total // 2) & (ordered != last)
    keep = np.zeros(faces.shape, bool)
    np.put_along_axis(keep, order, keep_sorted, axis=1)
    return _split(v, pool, present & keep)


def _vector_cancel(v, pool, against):
    np = v.np
    if not pool.faces.shape[1]:           # no game has a die to cancel (cancel(0d6, 2d6)): argmax has nothing
        return _split(v, pool, pool.present)
    # Against a few dice (up to 5 wide: one per die, measured), a die at a time over the whole pool is faster.
    coded = _face_codes(np, [pool, against], v.EMPTY) if against.faces.shape[1] > 5 else None
    if coded is not None:
        # Few faces: the dice of `against` counted per face; a die of the pool is cancelled when fewer
        # equal dice come before it than `against` shows (the earliest first, one for one).
        (mine, theirs), many = coded
        before, _, base = _before(np, mine, many)
        _, counts, _ = _before(np, theirs, many)
        counts[base + many] = 0     # empty slots cancel nothing
        return _split(v, pool, pool.present & (before >= counts[base + mine]).T)
    faces = pool.faces.copy()
    rows = np.arange(faces.shape[0])
    keep = pool.present.copy()
    for face in against.faces.T:          # each die of b cancels one equal die of a, the earliest first
        match = keep & (faces == face[:, None]) & (face[:, None] != v.EMPTY)
        found = v.row_any(match)
        first = np.argmax(match, axis=1)
        keep[rows[found], first[found]] = False
    return _split(v, pool, keep)


def _vector_filter(v, pool, test, matching):
    met = test(pool.faces)
    return _split(v, pool, pool.present & (met if matching else ~met))


def _vector_aside(v, pool):
    return pool.aside if pool.aside is not None else v.empty(pool.faces.shape[0])


def _vector_sort(v, pool, descending=False):
    np = v.np
    faces = pool.faces
    # Empty slots sort last; equal faces are the same die to every later rule, so the faces alone are sorted.
    wide = faces.astype(np.int32)
    big = np.iinfo(np.int32).max

    def ordered(down: bool):
        key = np.sort(np.where(pool.present, -wide if down else wide, big), axis=1)
        return np.where(key == big, v.EMPTY, -key if down else key).astype(faces.dtype)

    if pool.kinds is not None:      # each die with its kind: the dice themselves reordered, stably
        def order(down: bool):
            return np.argsort(np.where(pool.present, -wide if down else wide, big), axis=1, kind="stable")
        if isinstance(descending, np.ndarray) and descending.ndim:
            index = np.where(descending.astype(bool)[:, None], order(True), order(False))
        else:
            index = order(bool(descending))
        return v.pool(np.take_along_axis(faces, index, axis=1), None, np.take_along_axis(pool.kinds, index, axis=1))
    if isinstance(descending, np.ndarray) and descending.ndim:      # one answer per game (descending=flag): each game its own
        return v.pool(np.where(descending.astype(bool)[:, None], ordered(True), ordered(False)))
    return v.pool(ordered(bool(descending)))


def _vector_reroll(v, expr, test):
    """The expression evaluated again for the games whose total meets the test, until none does."""
    return v.reroll(expr, test)


# ---- the registry ----------------------------------------------------------------------

FUNCTIONS: dict[str, Function] = {f.name: f for f in (
    Function("min", (Form((NUMBER_ARG,), "numbers", min, variadic=True, signature="min(a, b, ...)",
                         exact=_exact_min, vector=_vector_min),),
             "the smallest of its arguments (one or more numbers)", "min(5, 3)"),
    Function("max", (Form((NUMBER_ARG,), "numbers", max, variadic=True, signature="max(a, b, ...)",
                         exact=_exact_max, vector=_vector_max),),
             "the largest of its arguments (one or more numbers)", "max(1, 2d6)"),
    Function("abs", (Form((NUMBER_ARG,), "number", abs, signature="abs(x)", exact=_exact_abs, vector=_vector_abs),),
             "the number without its sign", "abs(-3)"),
    Function("count", (Form((POOL_ARG, CONDITION_ARG), "count", mark="counted", keywords={"kind": KIND_ARG},
                            signature="count(pool, cond, kind=K)", exact=_exact_count,
                            vector=_vector_count),),
             "how many dice meet the condition (marked ✓); with kind=, only dice of that kind count",
             "count(5d10, >= 6)"),
    Function("sum", (Form((POOL_ARG,), "reduce", sum, signature="sum(pool)", exact=_exact_sum, vector=_vector_sum),),
             "the total of the dice", "sum(3d6)"),
    Function("size", (Form((POOL_ARG,), "reduce", len, signature="size(pool)", exact=_exact_size, vector=_vector_size),),
             "how many dice the pool holds", "size(largest_set(5d6))"),
    Function("highest", (
        Form((POOL_ARG,), "extreme", max, keywords={"default": NUMBER_ARG},
             signature="highest(pool, default=N)", exact=_exact_highest, vector=_vector_highest, lazy=("default",)),
        Form((POOL_ARG, NUMBER_ARG), "select", top_aside, mark="aside", params={"highest": True},
             result="pool", signature="highest(pool, n)", exact=_exact_top, vector=_vector_top, vector_kinds=True),
    ), "the highest face (an empty pool needs default=); with n, a pool of the n highest dice",
        "highest(5d6, 2)", check=_check_extreme),
    Function("lowest", (
        Form((POOL_ARG,), "extreme", min, keywords={"default": NUMBER_ARG},
             signature="lowest(pool, default=N)", exact=_exact_lowest, vector=_vector_lowest, lazy=("default",)),
        Form((POOL_ARG, NUMBER_ARG), "select", top_aside, mark="aside", params={"highest": False},
             result="pool", signature="lowest(pool, n)", exact=_exact_top, vector=_vector_top, vector_kinds=True),
    ), "the lowest face (an empty pool needs default=); with n, a pool of the n lowest dice",
        "lowest(3d6, default=0)", check=_check_extreme),
    Function("largest_set", (Form((POOL_ARG,), "select", largest_set_aside, keywords={"ignore": POOL_ARG},
                                  mark="aside", result="pool", signature="largest_set(pool, ignore=[..])",
                                  exact=_exact_largest_set, vector=_vector_largest_set, vector_kinds=True),),
             "the dice of the biggest group of equal faces (ties: the higher face), never an ignored face",
             "largest_set([2, 5, 2, 5, 1], ignore=[1])"),
    Function("unpair", (Form((POOL_ARG,), "select", unpair_aside, mark="aside", result="pool",
                             signature="unpair(pool)", exact=_exact_unpair, vector=_vector_unpair, vector_kinds=True),),
             "for each face rolled c times, floor(c/2) of those dice (the later ones) are set aside",
             "unpair([1, 2, 2, 2, 4, 5, 5, 6])"),
    Function("cancel", (Form((POOL_ARG, POOL_ARG), "select", cancel_aside, mark="cancelled", result="pool",
                             signature="cancel(a, b)", exact=_exact_cancel, vector=_vector_cancel, vector_kinds=True),),
             "each die of b cancels one equal die of a (marked ⊘)", "cancel([1, 2, 3, 3], [3, 4])"),
    Function("keep", (Form((POOL_ARG, CONDITION_ARG), "filter", mark="dropped", params={"matching": True},
                           result="pool", signature="keep(pool, cond)", exact=_exact_filter,
                           vector=_vector_filter, vector_kinds=True),),
             "the dice that meet the condition", "keep([1, 6, 3, 6], == 6)"),
    Function("drop", (Form((POOL_ARG, CONDITION_ARG), "filter", mark="dropped", params={"matching": False},
                           result="pool", signature="drop(pool, cond)", exact=_exact_filter,
                           vector=_vector_filter, vector_kinds=True),),
             "the dice that fail the condition", "drop([1, 6, 3, 6], == 6)"),
    Function("set_aside", (Form((POOL_ARG, CONDITION_ARG), "filter", mark="aside", params={"matching": False},
                                result="pool", signature="set_aside(pool, cond)",
                                exact=_exact_filter, vector=_vector_filter, vector_kinds=True),),
             "the dice that fail the condition; those that meet it are set aside (aside() gives them)",
             "set_aside([1, 6, 1, 4], == 1)"),
    Function("aside", (Form((POOL_ARG,), "aside", result="pool", signature="aside(pool)", vector=_vector_aside, vector_kinds=True),),
             "the dice that the operation which made the pool set aside, cancelled or left out",
             "aside(unpair(8d6))"),
    Function("reroll", (
        Form((EXPR_ARG, CONDITION_ARG), "repeat", signature="reroll(expr, cond)", exact=_exact_reroll,
             vector=_vector_reroll, vector_kinds=True),
        Form((POOL_ARG, POOL_ARG, NUMBER_ARG), "chosen", result="pool", signature="reroll(pool, chosen, sides)",
             vector=_vector_reroll_chosen, vector_kinds=True),
    ), "the whole expression evaluated again while its total meets the condition; with a pool, chosen dice "
       "(a pick) and sides, those dice of the pool re-rolled once in place as dice of that many sides (→), "
       "kinds kept", "reroll(2d10, < 10)", check=_check_reroll),
    Function("kinds", (Form((POOL_ARG,), "kinds", any_keyword=NUMBER_ARG, result="pool",
                            signature="kinds(pool, KIND=N, ...)", vector=_vector_kinds, vector_kinds=True),),
             "the same dice, the first N of them (in roll order) of the kind named, then the next of the next "
             "kind; a kind is shown by a letter and a colour", "kinds(5d10, wild=2)", check=_check_kinds),
    Function("of", (Form((POOL_ARG, KIND_ARG), "of_kind", mark="dropped", result="pool",
                         signature="of(pool, kind)", vector=_vector_of, vector_kinds=True),),
             "the dice of that kind (given by kinds(..)); the others are left out", "of(kinds(5d10, wild=2), wild)"),
    Function("plural", (Form((NUMBER_ARG, WORD_ARG, WORD_ARG), "plain", plural, result="string", total=True,
                             signature="plural(n, 'one', 'many')", exact=_exact_plural,
                             no_vector=i18n.N_("a word for a text: a simulation shows no texts")),),
             "the first word for exactly 1, the second for any other number (for texts)",
             "plural(ones, 'one', 'ones')"),
    Function("sort", (Form((POOL_ARG,), "order", keywords={"descending": TRUTH_ARG}, result="pool",
                           signature="sort(pool, descending=true)", exact=_exact_sort,
                           vector=_vector_sort, vector_kinds=True),),
             "the same dice from the lowest face up (descending=true: from the highest)", "sort(4d6)"),
)}
