"""The limits: static ones refused before any die is drawn, the dynamic one stopping at once."""

import random

import pytest

from ruleset_engine import dice
from tests.conftest import error_of


def test_static_limits_draw_no_die():
    # ScriptedDice([]) raises DiceSourceExhausted on the first draw, so each of these
    # passing as a DiceLimitError/ValueError proves the check came before any roll.
    for text in ["1001d6", "1d6rr<7", "5d10!>=1", "1d1!", "2d6 + 1001d6", "(0-1)d6", "d0",
                 "1d6 + 1d6rr>=1", "reroll(2d6, <= 12)"]:
        err = error_of(text)
        assert isinstance(err, (dice.DiceLimitError, dice.DiceValueError)), (text, err)


def test_pool_size_limit_is_exactly_the_default():
    assert dice.roll("1000d6", rng=random.Random(1)).pool is not None
    assert "too many dice in one pool: 1,001" in error_of("1001d6").message


def test_a_count_from_a_name_is_checked_before_that_pool_is_rolled():
    err = error_of("(n)d6", env={"n": 5000})
    assert "too many dice in one pool: 5,000" in err.message


def test_length_limit():
    err = error_of("1+" * 2100 + "1")
    assert "4,201 characters long (the limit is 4,096)" in err.message


def test_nesting_limits_for_brackets_and_operator_chains():
    err = error_of("(" * 10_000 + "1" + ")" * 10_000)
    assert isinstance(err, dice.DiceLimitError) and "nested more than 100 deep" in err.message
    assert "nests more than 100 levels" in error_of("-" * 3000 + "1").message
    assert "nests more than 100 levels" in error_of("not " * 500 + "true").message
    assert dice.roll("(" * 99 + "1" + ")" * 99).value == 1


def test_custom_limits():
    small = dice.Limits(max_pool_dice=5)
    with pytest.raises(dice.DiceLimitError, match="limit is 5"):
        dice.compile("6d6", small)


def test_dice_rolled_limit_stops_the_evaluation_when_passed():
    class Counting(random.Random):
        draws = 0

        def randint(self, a, b):
            Counting.draws += 1
            return b  # always the maximum: every die explodes

    limits = dice.Limits(max_dice_rolled=500)
    with pytest.raises(dice.DiceLimitError, match="rolled more than 500 dice"):
        dice.roll("10d6!", rng=Counting(), limits=limits)
    assert Counting.draws <= 500


def test_dice_rolled_limit_counts_rerolls():
    class Ones(random.Random):
        def randint(self, a, b):
            return a

    with pytest.raises(dice.DiceLimitError, match="100,000"):
        dice.roll("1d6rr<2", rng=Ones())


def test_reroll_of_a_total_that_rolls_nothing_is_stopped():
    err = error_of("reroll(x, < 10)", env={"x": 3})
    assert "rolls no dice, so it would never end" in err.message
