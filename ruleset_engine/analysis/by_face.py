"""The highest (or lowest) face present in a pool made face by face from plain rolls, counted exactly.

A pool such as `cancel(unpair(10d6), 10d6)` is made from plain rolls (NdS: N dice alike) by
operations that decide each face's count from the same face's counts alone (unpair: c - c // 2,
cancel: a - b, keep/drop by a test of the face). Its highest face is then found by going down the
faces once: at each face, each roll puts some of its remaining dice there (the multinomial weight),
the pool's count of that face follows, and where it is above 0 the answer is that face, whatever the
dice left below it show (their weight is summed in closed form, not followed). Only the rolls' dice
left are carried from face to face, so the work is about the faces times the ways the remaining dice
split, far less than icepool's general multiset evaluation, which follows every branch to the last
face. The same odds, fraction for fraction (tests/analysis/test_exact_by_face.py checks it against
the multiset form and against every roll of small pools).

Nothing here imports icepool: a roll is given as its die's (face, weight) pairs and its number of
dice, and the answer is weights by face (None for an empty pool) over the product of the rolls'
total weights.
"""

from __future__ import annotations

import itertools
import math


def work(rolls) -> int:
    """The steps of first_face, about: the faces (but the last) times, for each roll, the ways its
    remaining dice (any number up to its count) split between this face and the rest."""
    faces = len({face for weights, _ in rolls for face, _ in weights})
    ways = math.prod((n + 1) * (n + 2) // 2 for _, n in rolls)
    return max(1, faces - 1) * ways


def first_face(rolls, count_of, descending: bool) -> dict:
    """{face: weight} of the first face (going down with `descending`, else up) whose count in the pool
    is above 0, and {None: weight} of an empty pool. `rolls`: (the die's (face, weight) pairs, dice)
    per roll; `count_of(face, counts)`: the pool's count of the face when each roll shows it
    counts[i] times. The weights add up to the product of each die's total weight to its dice."""
    faces = sorted({face for weights, _ in rolls for face, w in weights if w}, reverse=descending)
    weight_of = [dict(weights) for weights, _ in rolls]
    most = [n for _, n in rolls]
    left_after = [sum(table.values()) for table in weight_of]   # the weight of the faces still to come
    states = {tuple(most): 1}       # the dice each roll has left -> weight
    found: dict = {}
    for face in faces:
        here = [table.get(face, 0) for table in weight_of]
        left_after = [left - w for left, w in zip(left_after, here)]
        # per roll and dice left n: (c of them show this face, the weight of that, of the n - c below it);
        # a roll with no weight here shows it 0 times, one with none below shows it on every die left
        options = [[_options(n, w, rest) for n in range(top + 1)] for top, w, rest in zip(most, here, left_after)]
        held = {counts: count_of(face, counts) > 0
                for counts in itertools.product(*(range(top + 1) for top in most))}
        step = _step2 if len(rolls) == 2 else _step
        into, states = step(states, options, held)
        if into:
            found[face] = into
    empty = sum(w for left, w in states.items() if not any(left))
    if empty:
        found[None] = empty
    return found


def _options(n: int, w: int, rest: int) -> tuple:
    if w == 0:
        return ((0, 1, rest ** n),) if rest or n == 0 else ()
    if rest == 0:
        return ((n, w ** n, 1),)
    return tuple((c, math.comb(n, c) * w ** c, rest ** (n - c)) for c in range(n + 1))


def _step(states: dict, options, held: dict) -> tuple[int, dict]:
    """One face for any number of rolls: the weight of the pool holding it, and the states left."""
    into, after = 0, {}
    for left, weight in states.items():
        for pick in itertools.product(*(table[n] for table, n in zip(options, left))):
            counts = tuple(c for c, _, _ in pick)
            ways = weight
            for _, w, _ in pick:
                ways *= w
            if held[counts]:
                for _, _, below in pick:
                    ways *= below
                into += ways
            else:
                key = tuple(n - c for n, c in zip(left, counts))
                after[key] = after.get(key, 0) + ways
    return into, after


def _step2(states: dict, options, held: dict) -> tuple[int, dict]:
    """The same for two rolls (a pool cancelled by another, the common case), unrolled: about twice
    as fast."""
    into, after = 0, {}
    first, second = options
    for (a, b), weight in states.items():
        seconds = second[b]
        for ca, wa, below_a in first[a]:
            wa *= weight
            for cb, wb, below_b in seconds:
                if held[ca, cb]:
                    into += wa * wb * below_a * below_b
                else:
                    key = (a - ca, b - cb)
                    after[key] = after.get(key, 0) + wa * wb
    return into, after
