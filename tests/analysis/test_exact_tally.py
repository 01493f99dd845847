"""A tally (count, sum, size) of a plain NdS is counted die by die (analysis/exact.py, `_counted`):
the same exact distribution as the multiset evaluation it replaces, fraction for fraction, and the
multiset evaluation is not run for it. Each question is answered with the fast form off and on
(exact.COUNT_FAST) and the two answers compared; a few are also worked out here by hand."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from ruleset_engine.analysis import exact
from ruleset_engine.analysis.prob import ask, ruleset_names

VTM = str(Path(__file__).resolve().parents[2] / "rulesets" / "vampire-the-masquerade.yaml")

# (questions, lets): plain pools (re-rolled or with min/max faces: still dice alike), shared pools
# read by several counts (the multinomial), a sum read with a count (many classes: N @ die of
# vectors), a count of 0 dice, and pools that are not plain (kept, exploded: the multiset form).
CASES = [
    (["count(12d10, >= 6)"], []),
    (["count(5d10, == 1)", "sum(4d6)", "size(3d6)", "3d6 + 2"], []),
    (["count(4d6r1, >= 5)", "count(3d6min2, == 2)", "sum(0d6)", "count(0d10, >= 6)"], []),
    (["max(0, hits - ones)", "hits == 0 and ones > 0"],
     [("pool", "9d10"), ("hits", "count(pool, >= 6)"), ("ones", "count(pool, == 1)")]),
    (["total + tens"], [("pool", "8d10"), ("total", "sum(pool)"), ("tens", "count(pool, == 10)")]),
    (["count(4d6kh3, >= 4)", "count(3d6!, == 6)"], []),
    (["n - count(pool, == 6)"], [("pool", "6d6"), ("n", "size(pool)")]),
    (["sum(8d10)"], []),        # 24,310 ways into 10 classes, past MAX_COMPOSITIONS: 8 @ d10
]


def answers(questions, lets, fast: bool, monkeypatch, **options) -> list:
    monkeypatch.setattr(exact, "COUNT_FAST", fast)
    found = ask(questions, lets=lets, **options)
    assert found.exact
    return [q.chances for q in found.questions]


@pytest.mark.parametrize("questions, lets", CASES)
def test_the_die_by_die_form_gives_the_multiset_forms_odds(questions, lets, monkeypatch):
    assert answers(questions, lets, True, monkeypatch) == answers(questions, lets, False, monkeypatch)


def test_a_vtm_roll_through_the_rulesets_formulas(monkeypatch):
    env, formulas = ruleset_names(VTM, ["botch_rule=classic", "specialty=double"])
    for question in ("outcome(7d10, 6, 0, 0)", "outcome(6d10, 8, 1, 1)"):
        fast = answers([question], [], True, monkeypatch, env=env, formulas=formulas)
        assert fast == answers([question], [], False, monkeypatch, env=env, formulas=formulas)


def test_the_multiset_form_is_not_run_for_a_plain_pool(monkeypatch):
    """With the fast form on, a tally of a plain pool (alone or shared) never calls its multiset form."""

    def refused(self, expr):
        raise AssertionError("the multiset evaluation ran")

    monkeypatch.setattr(exact.Tally, "__call__", refused)
    lets = [("pool", "30d10"), ("hits", "count(pool, >= 6)"), ("ones", "count(pool, == 1)")]
    assert answers(["max(0, hits - ones)"], lets, True, monkeypatch)
    assert answers(["count(30d10, >= 6)", "sum(3d6)"], [], True, monkeypatch)
    with pytest.raises(AssertionError, match="multiset evaluation ran"):
        answers(["count(3d10, >= 6)"], [], False, monkeypatch)


def test_worked_by_hand(monkeypatch):
    """count(30d10, >= 6): C(30, k) / 2^30. Successes less ones of 2d10 at 6: each die is a success 5/10,
    a one 1/10, else 4/10; max(0, hits - ones) is 0 for (0,0) 16/100, (0,1) 2*4/100, (0,2) 1/100,
    (1,1) 2*5/100: 35/100; 2 for (2,0) 25/100; 1 for (1,0) 2*5*4/100 = 40/100."""
    [count] = answers(["count(30d10, >= 6)"], [], True, monkeypatch)
    assert count == [(k, Fraction(comb(30, k), 2 ** 30)) for k in range(31)]
    lets = [("pool", "2d10"), ("hits", "count(pool, >= 6)"), ("ones", "count(pool, == 1)")]
    [net] = answers(["max(0, hits - ones)"], lets, True, monkeypatch)
    assert net == [(0, Fraction(35, 100)), (1, Fraction(40, 100)), (2, Fraction(25, 100))]


def test_compositions_and_the_fallback_agree():
    """_counted's two ways (the multinomial, and N @ die past MAX_COMPOSITIONS) give one distribution."""
    import icepool

    die = icepool.d10
    tallies = (lambda f: f, lambda f: 1 if f == 10 else 0)
    small = exact._counted(die, 5, tallies)
    saved = exact.MAX_COMPOSITIONS
    try:
        exact.MAX_COMPOSITIONS = 0
        large = exact._counted(die, 5, tallies)
    finally:
        exact.MAX_COMPOSITIONS = saved
    assert exact.distribution(small) == exact.distribution(large)
    assert small.denominator() == 10 ** 5
