"""The highest or lowest face of a pool made face by face from plain NdS (unpair, cancel, keep, drop
of plain rolls) is found going down (or up) the faces once (analysis/by_face.py): the same exact
distribution as icepool's multiset evaluation, fraction for fraction (exact.BY_FACE off and on),
and as every roll of small pools enumerated here through the table's own primitives."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from ruleset_engine.analysis import by_face, exact
from ruleset_engine.analysis.prob import ask
from ruleset_engine.dice.functions import cancel_aside, unpair_aside


def answers(questions, fast: bool, monkeypatch, lets=()) -> list:
    monkeypatch.setattr(exact, "BY_FACE", fast)
    found = ask(list(questions), lets=list(lets))
    assert found.exact
    return [q.chances for q in found.questions]


CASES = [
    "highest(cancel(unpair(5d6), 3d6), default=0)",
    "highest(cancel(unpair(8d6), 5d6), default=0)",
    "lowest(cancel(unpair(6d6), 4d6), default=7)",
    "highest(cancel(4d6, 6d6), default=-1)",                      # often emptied
    "highest(unpair(7d6), default=0)",                            # one roll
    "lowest(keep(unpair(6d8), >= 3), default=-1)",
    "highest(drop(cancel(4d6r1, 3d10), == 5), default=0)",       # a re-rolled die, dice of other sides
    "lowest(cancel(3d4min2, 2d4), default=0)",                   # faces set by min
    "highest(cancel(cancel(unpair(4d6), 3d6), 2d6), default=0)",  # three rolls
    "highest(cancel(unpair(0d6), 2d6), default=7)",               # no dice at all
    "highest(cancel(unpair(3d6), 0d6))",                          # never empty: no default needed
    "highest(cancel(unpair(5d6), 3d6), default=0) + 1d4",         # then combined with another die
]


@pytest.mark.parametrize("question", CASES)
def test_face_by_face_gives_the_multiset_forms_odds(question, monkeypatch):
    assert answers([question], True, monkeypatch) == answers([question], False, monkeypatch)


def brute(mine: int, theirs: int, sides: int, highest: bool, default: int) -> list:
    """Every roll of mine d`sides` and theirs d`sides`, in roll order, through unpair's and cancel's
    primitives (the table's rules): the highest (or lowest) die left, or the default."""
    found: dict = {}
    for a in itertools.product(range(1, sides + 1), repeat=mine):
        aside = set(unpair_aside(a))
        left = [f for i, f in enumerate(a) if i not in aside]
        for b in itertools.product(range(1, sides + 1), repeat=theirs):
            gone = set(cancel_aside(left, b))
            kept = [f for i, f in enumerate(left) if i not in gone]
            value = (max(kept) if highest else min(kept)) if kept else default
            found[value] = found.get(value, 0) + 1
    total = sides ** (mine + theirs)
    return [(v, Fraction(n, total)) for v, n in sorted(found.items())]


@pytest.mark.parametrize("mine, theirs, sides", [(4, 3, 6), (5, 2, 4), (3, 3, 5), (2, 4, 3)])
def test_every_roll_of_small_pools(mine, theirs, sides, monkeypatch):
    for highest, default in ((True, 0), (False, 9)):
        fn = "highest" if highest else "lowest"
        question = f"{fn}(cancel(unpair({mine}d{sides}), {theirs}d{sides}), default={default})"
        [fast] = answers([question], True, monkeypatch)
        assert fast == brute(mine, theirs, sides, highest, default)


def test_worked_by_hand(monkeypatch):
    """highest(cancel(1d2, 1d2), default=0): the die survives when the other differs (1/2), so 0 is 1/2,
    1 is 1/4 (mine 1, theirs 2), 2 is 1/4."""
    [got] = answers(["highest(cancel(1d2, 1d2), default=0)"], True, monkeypatch)
    assert got == [(0, Fraction(1, 2)), (1, Fraction(1, 4)), (2, Fraction(1, 4))]


def test_the_multiset_form_is_not_run_for_such_a_pool(monkeypatch):
    def refused(self, expr):
        raise AssertionError("the multiset evaluation ran")

    monkeypatch.setattr(exact.First, "__call__", refused)
    assert answers(["highest(cancel(unpair(10d6), 10d6), default=0)", "lowest(keep(5d10, >= 3), default=0)"],
                   True, monkeypatch)
    # Not made face by face (a keep of the highest, an explosion, a roll read twice): the multiset form.
    for question, lets in ((["highest(cancel(4d6kh3, 2d6), default=0)"], ()),
                           (["highest(cancel(3d6!, 2d6), default=0)"], ()),
                           (["highest(cancel(unpair(p), 2d6), default=0) + count(p, == 6)"], [("p", "3d6")])):
        with pytest.raises(AssertionError, match="multiset evaluation ran"):
            answers(question, True, monkeypatch, lets)


def test_past_the_work_limit_the_multiset_form_stands(monkeypatch):
    """Two rolls of 30d2: the face-by-face steps (the ways 30 dice and 30 dice split) are past max_work,
    so the multiset form (and its own estimate of the work) decides, as before."""
    rolls = [(((1, 1), (2, 1)), 30)] * 2
    assert by_face.work(rolls) > exact.EXACT_LIMITS.max_work
    calls = []
    original = by_face.first_face
    monkeypatch.setattr(exact, "first_face", lambda *a: calls.append(a) or original(*a))
    question = "highest(cancel(30d2, 30d2), default=0)"
    monkeypatch.setattr(exact, "BY_FACE", True)
    found = ask([question])
    assert not calls
    monkeypatch.setattr(exact, "BY_FACE", False)
    again = ask([question])
    assert found.exact == again.exact and found.questions[0].chances == again.questions[0].chances


def test_the_weights_add_up():
    """first_face's weights over every answer are the product of the dice's total weights."""
    d6 = tuple((f, 1) for f in range(1, 7))
    found = by_face.first_face([(d6, 4), (d6, 3)], lambda face, c: max(0, c[0] - c[1]), True)
    assert sum(found.values()) == 6 ** 7 and set(found) <= {None, 1, 2, 3, 4, 5, 6}
