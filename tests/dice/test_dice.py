"""Dice, pool literals and the modifiers, with scripted faces."""

import random

import pytest

from ruleset_engine import dice
from tests.conftest import roll


def test_ndS_rolls_n_dice_of_s_sides():
    result = roll("3d6", faces=[1, 6, 4])
    assert result.value == 11
    assert result.pool.faces == [1, 6, 4]
    assert [d.sides for d in result.pool.dice] == [6, 6, 6]


def test_dS_is_one_die_and_d_percent_is_a_hundred_sides():
    assert roll("d20", faces=[17]).value == 17
    assert roll("d%", faces=[100]).value == 100


def test_scripted_source_checks_the_range_it_is_asked_for():
    with pytest.raises(dice.DiceSourceExhausted, match="d6 shows 1..6"):
        dice.roll("1d6", rng=dice.ScriptedDice([7]))


def test_zero_dice_is_an_empty_pool():
    result = roll("0d6", faces=[])
    assert result.value == 0 and result.pool.faces == []


def test_counts_and_sides_may_be_expressions():
    assert roll("(1 + 1)d(2 * 3)", faces=[6, 6]).value == 12


def test_pool_literal_names_exact_dice_and_joins_pools():
    assert roll("[1, 2, 2, 5]", faces=[]).pool.faces == [1, 2, 2, 5]
    assert roll("[kept, 2d6]", faces=[3, 4], env={"kept": [6]}).pool.faces == [6, 3, 4]


@pytest.mark.parametrize("text, faces, kept, value", [
    ("4d6kh3", [5, 3, 2, 6], [5, 3, 6], 14),
    ("4d6kl1", [5, 3, 2, 6], [2], 2),
    ("4d6dh1", [5, 3, 2, 6], [5, 3, 2], 10),
    ("4d6dl1", [5, 3, 2, 6], [5, 3, 6], 14),
    ("2d20kh", [4, 17], [17], 17),            # no count: one die
    ("2d6kh5", [2, 3], [2, 3], 5),            # keeping more than there are keeps them all
    ("3d6kh2kl1", [6, 1, 4], [4], 4),         # chained left to right
    ("[6, 6, 1]kh1", [], [6], 6),             # among equal faces the first is kept
])
def test_keep_and_drop(text, faces, kept, value):
    result = roll(text, faces=faces)
    assert result.pool.faces == kept
    assert result.value == value
    marks = result.steps[-1].marks or ()
    assert marks.count("dropped") == len(faces or [6, 6, 1]) - len(kept)


def test_keep_highest_ties_drop_the_later_die():
    result = roll("[6, 6, 1]kh1", faces=[])
    assert result.steps[-1].marks == ("kept", "dropped", "dropped")
    assert result.pool.aside[0] is result.steps[-1].dice[1]


def test_reroll_once_keeps_the_second_face_even_if_it_meets_the_condition():
    result = roll("3d6r<2", faces=[1, 4, 1, 1, 6])
    assert result.pool.faces == [1, 4, 6]
    assert [d.history for d in result.pool.dice] == [(1,), (), (1,)]


def test_reroll_while_repeats_per_die():
    result = roll("1d20rr<10", faces=[3, 7, 15])
    assert result.value == 15
    assert result.pool.dice[0].history == (3, 7)


def test_reroll_with_a_bare_value_means_equal():
    assert roll("2d6r1", faces=[1, 3, 5]).pool.faces == [5, 3]


def test_explode_on_the_maximum_chains():
    result = roll("2d6!", faces=[6, 2, 6, 3])
    assert result.pool.faces == [6, 2, 6, 3]
    assert [d.exploded for d in result.pool.dice] == [True, False, True, False]
    assert [d.extra for d in result.pool.dice] == [False, False, True, True]


def test_explode_on_a_condition_is_one_token():
    result = roll("3d10!>=9", faces=[9, 1, 10, 4, 2])
    assert result.pool.faces == [9, 1, 10, 4, 2]
    assert result.value == 26


def test_explode_then_keep():
    assert roll("2d6!kh1", faces=[6, 2, 5]).pool.faces == [6]


def test_pool_not_equal_is_a_comparison_not_an_explosion():
    with pytest.raises(dice.DiceTypeError, match="count"):
        dice.roll("4d6!=3", rng=dice.ScriptedDice([]))


def test_reroll_whole_expression_while_total_meets():
    result = roll("reroll(2d10, < 10)", faces=[2, 3, 4, 4, 9, 7])
    assert result.value == 16
    assert result.steps[-1].note == "re-rolled totals 5, 8"
    assert len([s for s in result.steps if s.label == "2d10"]) == 3  # every try's dice stay in view


def test_seeded_rolls_are_deterministic_and_independent_of_the_global_random():
    a = dice.roll("10d10!kh5 + count(6d6, >= 4)", rng=random.Random(42))
    random.seed(0)
    b = dice.roll("10d10!kh5 + count(6d6, >= 4)", rng=random.Random(42))
    assert a.to_json() == b.to_json()


def test_compile_once_evaluate_many_draws_fresh_dice():
    expr = dice.compile("3d6")
    source = dice.ScriptedDice([1, 2, 3, 4, 5, 6])
    assert expr.evaluate(rng=source).value == 6
    assert expr.evaluate(rng=source).value == 15


def test_rng_none_uses_a_fresh_source():
    values = {dice.roll("1d1000000").value for _ in range(5)}
    assert len(values) > 1
