"""Noche de los Vampiros: one conflict, played many times at the table (the traced mode, with the
ruleset's auto: answers), against exact values computed here by enumerating every roll.

The conflict: Ana holds 6 dice, so the automatic answers risk 3 (half, rounded up) and bring in one
Relationship: 4 dice. The Vampire Pool holds 3 dice, all the GM's (nobody is dead). Ana's outcome is
the highest of her dice left after pair removal and matching (0 if none). Every one of the 6^7 rolls
is enumerated below with plain Python, apart from the engine.

N = 20,000 conflicts. Each bound is 5 standard errors of the estimate at that N (for a rate p,
sqrt(p(1 - p) / N); for the mean of the dice set aside, its standard deviation / sqrt(N)), so a
correct implementation fails it by chance about once in 1.7 million runs.
"""

import itertools
import math
from collections import Counter

import pytest

from ruleset_engine.ruleset.steps import set_marked
from ruleset_engine.runtime import Game
from tests.games.noche_table import RULESET

N = 20_000


def outcome_of(hand, pool):
    """Pair removal (floor(c/2) of each face set aside), then each pool die cancels one equal die."""
    counts = Counter(hand)
    kept = {face: c - c // 2 for face, c in counts.items()}
    against = Counter(pool)
    left = [face for face, c in kept.items() if c - against[face] > 0]
    return max(left, default=0), sum(c // 2 for c in counts.values())


def exact():
    results, aside = Counter(), Counter()
    for dice in itertools.product(range(1, 7), repeat=7):
        best, paired = outcome_of(dice[:4], dice[4:])
        results[best] += 1
        aside[paired] += 1
    total = 6 ** 7
    return {k: v / total for k, v in results.items()}, {k: v / total for k, v in aside.items()}


def played():
    game = Game.start(RULESET, params={"players": 2}, seed=11, record=False, auto=True)
    values = game.values
    results, aside = Counter(), Counter()
    for _ in range(N):
        values.update(pool=3, conflicts=0, outcomes_read=[], conflict_hours=[])
        values["loop"].update(hour=1, conflict=1)
        for c in values["character"]:
            c.update(alive=True, dice=6)
            set_marked(c["boxes"], 0)
        game.perform("conflict")
        ana = values["character"][0]
        results[ana["result"]] += 1
        aside[ana["paired"]] += 1
    return {k: v / N for k, v in results.items()}, {k: v / N for k, v in aside.items()}


@pytest.mark.timeout(600)
def test_one_conflict_against_exact_values():
    want, want_aside = exact()
    # A check of the enumeration by hand: no die is set aside when Ana's 4 dice are all different
    # (6*5*4*3 of 6^4 rolls), and her highest is most often a 6.
    assert sum(want.values()) == pytest.approx(1.0)
    assert max(want, key=want.get) == 6
    assert want_aside[0] == pytest.approx(360 / 1296)
    got, got_aside = played()
    for value, p in want.items():
        bound = 5 * math.sqrt(p * (1 - p) / N)
        assert abs(got.get(value, 0) - p) <= bound, (value, got.get(value, 0), p, bound)
    mean = sum(k * p for k, p in want_aside.items())
    sd = math.sqrt(sum((k - mean) ** 2 * p for k, p in want_aside.items()))
    got_mean = sum(k * p for k, p in got_aside.items())
    assert abs(got_mean - mean) <= 5 * sd / math.sqrt(N), (got_mean, mean)
