"""Every exact form in the registry against a brute force, fraction for fraction, with no hand list.

Random expressions come from the registry's own builder (tests/dice/test_registry_parity.py), with
small pools. The brute force needs no rule written twice: it runs the plain (untraced) evaluation,
the one definition of each entry, along every sequence of faces its dice can show (each branch of
a draw weighted 1/sides), so each distribution is exact. `dusk prob` must give that distribution to
the fraction, or say it estimates (answer.exact false, with its reason); it never gives a wrong exact
answer. An entry added to the registry is covered here with no change to this file.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from ruleset_engine import dice
from ruleset_engine.analysis.prob import ask
from ruleset_engine.dice.functions import FUNCTIONS
from ruleset_engine.dice.modifiers import MODIFIERS
from tests.dice.test_registry_parity import ENV, LIMITS, Builder, entries_in

MOST_LEAVES = 6_000       # rolls enumerated for one expression (more: that expression is left out)
MOST_DRAWS = 10           # dice drawn along one roll (more: re-rolls or explosions that may go on)


class SmallBuilder(Builder):
    """The registry's random expressions, with pools small enough to enumerate every roll."""

    COUNTS = ["0", "1", "2", "(y + 2)"]
    SIDES = ["2", "3", "4"]


class _Need(BaseException):
    """The evaluation wants one more die than the faces given: a branch of the enumeration. A
    BaseException, so no `except Exception` of the engine can take it for an error of the rule."""

    def __init__(self, low: int, high: int):
        self.low, self.high = low, high


class _Faces:
    def __init__(self, faces):
        self.faces, self.at = faces, 0

    def randint(self, low: int, high: int) -> int:
        if self.at == len(self.faces):
            raise _Need(low, high)
        self.at += 1
        return self.faces[self.at - 1]


class TooBig(Exception):
    pass


def brute(text: str) -> dict | str:
    """The exact distribution of the expression's value over every roll; or the error one roll meets."""
    expr = dice.compile(text, LIMITS)
    chances: Counter = Counter()
    stack = [((), Fraction(1))]
    leaves = 0
    while stack:
        faces, chance = stack.pop()
        try:
            value = expr.plain(_Faces(faces), ENV)
        except _Need as need:
            if len(faces) >= MOST_DRAWS:
                raise TooBig(text) from None
            n = need.high - need.low + 1
            stack += [((*faces, f), chance / n) for f in range(need.low, need.high + 1)]
            continue
        except dice.DiceError as err:
            return err.message
        leaves += 1
        if leaves > MOST_LEAVES:
            raise TooBig(text)
        if isinstance(value, str):
            raise TooBig(text)            # words: no odds to give
        chances[sum(value) if isinstance(value, tuple) else value] += chance
    return dict(chances)


def _questions(seed: int, count: int):
    builder = SmallBuilder(random.Random(seed))
    while count:
        text = builder.number(2) if builder.rng.random() < 0.7 else builder.truth(2)
        try:
            if dice.compile(text, LIMITS).kind == "string":
                continue
            expected = brute(text)
        except (dice.DiceError, TooBig):
            continue
        count -= 1
        yield text, expected


def held_to_brute_force(text: str, expected) -> str:
    """'exact' or 'estimated', after holding the answer to the brute force."""
    if isinstance(expected, str):      # a roll that fails: no exact answer may hide it
        try:
            answer = ask([text], env=ENV, samples=200)
        except dice.DiceError:
            return "refused"
        assert not answer.exact, (text, expected)
        return "estimated"
    try:
        answer = ask([text], env=ENV, samples=200)
    except dice.DiceLimitError as err:
        # The exact odds read every branch (a default=, both sides of an if), so a part that could
        # never end is refused even where the table never reaches it; nothing else is refused.
        assert "never end" in err.message, (text, err.message)
        return "refused"
    if not answer.exact:
        assert answer.why, text            # an estimate says why it is one
        return "estimated"
    got = dict(answer.questions[0].chances)
    assert got == expected, (text, got, expected)
    return "exact"


@pytest.mark.parametrize("batch", range(4))
def test_random_expressions_are_exact_to_the_fraction_or_say_they_estimate(batch):
    seen = Counter()
    for text, expected in _questions(1000 + batch, 60):
        seen[held_to_brute_force(text, expected)] += 1
    assert seen["exact"] >= 30, seen


@pytest.mark.parametrize("token", [t for t, m in MODIFIERS.items() if m.exact is not None])
def test_every_modifier_with_an_exact_form_matches_the_brute_force(token):
    builder = SmallBuilder(random.Random(f"exact/{token}"))
    compared = 0
    for _ in range(200):
        text = builder.dice(1, MODIFIERS[token])
        if builder.rng.random() < 0.5:
            text = f"count({text}, >= 2)"
        try:
            expected = brute(text)
        except (dice.DiceError, TooBig):    # refused as written (2d4!!=6 is 2d4! compared with 6)
            continue
        compared += held_to_brute_force(text, expected) == "exact"
        if compared >= 12:
            break
    assert compared >= 12, token


@pytest.mark.parametrize("name, index", [(e.name, i) for e in FUNCTIONS.values() for i, f in enumerate(e.forms)
                                         if f.exact is not None and f.result != "string"])
def test_every_function_form_with_an_exact_form_matches_the_brute_force(name, index):
    entry = FUNCTIONS[name]
    form = entry.forms[index]
    builder = SmallBuilder(random.Random(f"exact/{name}/{index}"))
    compared = 0
    for _ in range(300):
        text = builder.call(1, form.result, entry, form)
        if form.result == "pool":
            text = f"sum({text})"
        try:
            if dice.compile(text, LIMITS).kind == "string":
                continue
            expected = brute(text)
        except (dice.DiceError, TooBig):
            continue
        compared += held_to_brute_force(text, expected) == "exact"
        if compared >= 8:
            break
    assert compared >= 8, name
