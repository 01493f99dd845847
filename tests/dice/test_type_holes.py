"""Values of the wrong kind, numbers past the limit, and work that could be quadratic, in dice text
(issue 9, classes 1, 6 and 7): a result or a located DiceError, in both modes alike.

A pool where a number belongs means its total (documented), so a constant pool in brackets reads
as the number it adds up to: each case is compared with the same roll written with that number.
"""

import random

import pytest

from ruleset_engine import dice
from tests.conftest import error_of


@pytest.mark.parametrize("text, same_as", [
    ("([2])d6", "2d6"),               # the examples
    ("4d6kh([2])", "4d6kh2"),
    ("1d6!<([3])", "1d6!<3"),
    ("2d([1, 2])", "2d3"),            # siblings found: sides, a keep count, a re-roll bound, a comparison
    ("5d6kl([1, 1])", "5d6kl2"),
    ("3d6r<([1])", "3d6r<1"),
    ("count(4d6, >= ([5]))", "count(4d6, >= 5)"),
    ("highest(4d6, [1, 1])", "highest(4d6, 2)"),
])
def test_a_constant_pool_where_a_number_belongs_is_its_total(text, same_as):
    for seed in range(20):
        assert dice.roll(text, rng=random.Random(seed)).value == dice.roll(same_as, rng=random.Random(seed)).value
        assert dice.compile(text).plain(random.Random(seed)) == dice.compile(same_as).plain(random.Random(seed))


@pytest.mark.parametrize("text, message", [
    ("(['a'])d6", "a pool holds numbers and dice, not string"),
    ("4d6kh(true)", "expected a number here, not true/false"),
    ("1d6!<('x')", "expected a number here, not string"),
])
def test_a_wrong_kind_is_refused_before_rolling_with_a_caret(text, message):
    err = error_of(text)
    assert message in err.message and err.span is not None


@pytest.mark.parametrize("text", ["99999999999999999999", "[9007199254740993]", "2d9007199254740993"])
def test_a_written_number_past_the_limit_is_refused_with_a_caret(text):
    err = error_of(text)
    assert "this number is past the limit of numbers (9,007,199,254,740,992)" in err.message
    assert "^" in "\n".join(err.caret_lines())


@pytest.mark.parametrize("text", ["1d1000000rr<999999", "reroll(1d1000000, < 999999)", "1d1000000!>1"])
def test_rerolls_past_the_dice_limit_stop_at_once_in_both_modes(text):
    """Each re-roll is constant work (a die keeps no copy of its history), so reaching the limit of
    100,000 dice rolled takes a moment; the test's timeout would catch quadratic work."""
    err = error_of(text, rng=random.Random(3))
    assert "rolled more than 100,000 dice" in err.message
    with pytest.raises(dice.DiceLimitError, match="rolled more than 100,000 dice"):
        dice.compile(text).plain(random.Random(3))


def test_pools_joined_past_the_pool_limit_are_refused_in_both_modes():
    env = {"p": dice.roll("1000d6", rng=random.Random(1)).raw}
    text = "[" + ", ".join(["p"] * 101) + "]"
    with pytest.raises(dice.DiceLimitError, match="this pool would hold 101,000 dice, past the limit of a pool"):
        dice.roll(text, env=env, rng=random.Random(1))
    with pytest.raises(dice.DiceLimitError, match="this pool would hold 101,000 dice"):
        dice.compile(text).plain(random.Random(1), env={"p": env["p"].faces})
