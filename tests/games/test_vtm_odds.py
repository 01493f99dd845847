"""Vampire: the Masquerade: the odds of a success roll, worked out here by enumeration, against the
distribution dusk produces from the ruleset's own formula `outcome(pool, diff, spec, wp)` (the
successes kept, or -1 for a botch).

Without an exploding specialty, `dusk prob` answers exactly and the two must be equal, fraction for
fraction. With the re-rolled specialty (a 10 adds a die) dusk estimates from seeded rolls; the
enumeration here follows the added dice until their chance is below 1e-15, and every chance must
lie within 5 standard errors of the estimate at N = 20,000 rolls (a correct engine fails that by
chance less than once in a million per value).
"""

import math
from collections import defaultdict
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from ruleset_engine.analysis.prob import ask, ruleset_env, ruleset_formulas

RULESET = str(Path(__file__).resolve().parents[2] / "rulesets" / "vampire-the-masquerade.yaml")
FORMULAS = ruleset_formulas(RULESET)
N = 20_000


def read(ones, rolled, *, wp, botch_rule, ones_cancel, cancelable):
    """The rules as RULINGS read them, from the 1s and the successes rolled."""
    cancel = ones if ones_cancel else 0
    net = max(0, rolled + wp - cancel) if cancelable else max(0, rolled - cancel) + wp
    if botch_rule == "classic":
        botch = ones > rolled
    else:
        botch = rolled == 0 and ones > 0
    return -1 if wp == 0 and botch else net


def enumerate_plain(n, diff, *, double=False, **rules):
    """n d10 at diff, no die added: every count of 1s, 10s, other successes and failures."""
    p_one, p_ten, p_hit, p_miss = (Fraction(1, 10), Fraction(1, 10), Fraction(10 - diff, 10),
                                   Fraction(diff - 2, 10))
    out = defaultdict(Fraction)
    for ones in range(n + 1):
        for tens in range(n - ones + 1):
            for hits in range(n - ones - tens + 1):
                misses = n - ones - tens - hits
                ways = comb(n, ones) * comb(n - ones, tens) * comb(n - ones - tens, hits)
                p = ways * p_one ** ones * p_ten ** tens * p_hit ** hits * p_miss ** misses
                if p:
                    rolled = hits + tens + (tens if double else 0)
                    out[read(ones, rolled, **rules)] += p
    return dict(out)


def one_exploding_die(diff, floor=1e-15):
    """(ones, successes) of one die whose 10 adds a die that may add another, as floats."""
    out = defaultdict(float)
    chance, tens = 1.0, 0
    while chance > floor:
        out[(1, tens)] += chance * 0.1
        out[(0, tens)] += chance * (diff - 2) / 10
        out[(0, tens + 1)] += chance * (10 - diff) / 10    # a success that adds nothing (2..9)
        chance *= 0.1                                        # a ten: one success, and a die more
        tens += 1
    return out


def enumerate_exploding(n, diff, **rules):
    die = one_exploding_die(diff)
    total = {(0, 0): 1.0}
    for _ in range(n):
        nxt = defaultdict(float)
        for (o1, s1), p1 in total.items():
            for (o2, s2), p2 in die.items():
                nxt[(o1 + o2, s1 + s2)] += p1 * p2
        total = nxt
    out = defaultdict(float)
    for (ones, rolled), p in total.items():
        out[read(ones, rolled, **rules)] += p
    return dict(out)


def engine(expression, sets, *, estimate=False):
    answer = ask([expression], env=ruleset_env(RULESET, sets), formulas=FORMULAS, estimate=estimate,
                 samples=N, seed=11)
    return answer, dict(answer.questions[0].chances)


CASES = [(n, diff) for n in (1, 3, 5, 8) for diff in (3, 6, 8, 10)]


@pytest.mark.parametrize("botch_rule", ["revised", "classic"])
@pytest.mark.parametrize("n, diff", CASES)
def test_exact_odds_without_a_specialty(n, diff, botch_rule):
    answer, got = engine(f"outcome({n}d10, {diff}, 0, 0)", [f"botch_rule={botch_rule}"])
    assert answer.exact
    assert got == {v: p for v, p in enumerate_plain(n, diff, wp=0, botch_rule=botch_rule, ones_cancel=True,
                                                    cancelable=False).items()}


def test_a_pool_of_thirty_dice_is_exact():
    """30d10: every count the formulas read is a tally of the one plain pool, counted die by die
    (analysis/exact.py), so it is exact where the multiset form's work (13,912,800 steps) was too much."""
    answer, got = engine("outcome(30d10, 6, 0, 0)", [])
    assert answer.exact
    assert got == enumerate_plain(30, 6, wp=0, botch_rule="revised", ones_cancel=True, cancelable=False)


@pytest.mark.parametrize("botch_rule", ["revised", "classic"])
@pytest.mark.parametrize("n, diff", [(3, 6), (5, 8), (6, 4)])
def test_exact_odds_with_a_specialty_counted_double(n, diff, botch_rule):
    answer, got = engine(f"outcome({n}d10, {diff}, 1, 0)", [f"botch_rule={botch_rule}", "specialty=double"])
    assert answer.exact
    assert got == enumerate_plain(n, diff, double=True, wp=0, botch_rule=botch_rule, ones_cancel=True,
                                  cancelable=False)


@pytest.mark.parametrize("cancelable", [False, True])
@pytest.mark.parametrize("ones_cancel", [True, False])
def test_exact_odds_with_willpower_and_the_ones_params(cancelable, ones_cancel):
    sets = [f"willpower_cancelable={str(cancelable).lower()}", f"ones_cancel={str(ones_cancel).lower()}"]
    answer, got = engine("outcome(4d10, 7, 0, 1)", sets)
    assert answer.exact
    assert got == enumerate_plain(4, 7, wp=1, botch_rule="revised", ones_cancel=ones_cancel, cancelable=cancelable)
    assert -1 not in got                              # Willpower rules a botch out


def test_a_worked_value_of_the_enumeration():
    """One die at 6 by hand: a botch 1/10, a failure 4/10 (2..5), a success 5/10 (6..10)."""
    assert enumerate_plain(1, 6, wp=0, botch_rule="revised", ones_cancel=True, cancelable=False) == \
        {-1: Fraction(1, 10), 0: Fraction(4, 10), 1: Fraction(5, 10)}


@pytest.mark.parametrize("n, diff", [(3, 6), (5, 6), (6, 8)])
def test_the_house_rule_counts_every_ten_twice(n, diff):
    house = str(Path(RULESET).parent / "house" / "vtm-tens-count-twice.yaml")
    answer = ask([f"outcome({n}d10, {diff}, 0, 0)"], env=ruleset_env(house, []), formulas=ruleset_formulas(house))
    assert answer.exact
    assert dict(answer.questions[0].chances) == enumerate_plain(n, diff, double=True, wp=0, botch_rule="revised",
                                                                 ones_cancel=True, cancelable=False)
    if (n, diff) == (5, 6):      # the numbers its file gives
        odds = answer.questions[0]
        assert (odds.mean, odds.at_least(3)) == (Fraction(126947, 50000), Fraction(1, 2))


@pytest.mark.parametrize("botch_rule", ["revised", "classic"])
@pytest.mark.parametrize("n, diff", [(3, 6), (5, 8), (7, 6)])
def test_estimated_odds_with_a_rerolled_specialty(n, diff, botch_rule):
    answer, got = engine(f"outcome({n}d10!>=10, {diff}, 1, 0)", [f"botch_rule={botch_rule}"])
    assert not answer.exact and answer.samples == N
    want = enumerate_exploding(n, diff, wp=0, botch_rule=botch_rule, ones_cancel=True, cancelable=False)
    assert abs(sum(want.values()) - 1) < 1e-12
    for value in set(want) | set(got):
        p = want.get(value, 0.0)
        share = float(got.get(value, 0))
        se = math.sqrt(max(p * (1 - p), 1e-12) / N)
        assert abs(share - p) <= 5 * se + 1e-9, (value, share, p)
