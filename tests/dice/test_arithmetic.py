"""Numbers, operators, booleans, names: the non-dice half of the language."""

import pytest

from ruleset_engine import dice
from tests.conftest import roll


@pytest.mark.parametrize("text, value", [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("7 // 2", 3),
    ("-7 // 2", -4),          # floor division, as the docs say
    ("10 - 2 - 3", 5),        # left to right
    ("2 * 3 // 4", 1),
    ("7 % 3", 1),             # the remainder of the floor division: a == a // b * b + a % b
    ("-7 % 3", 2),            # -7 // 3 is -3, and -3 * 3 + 2 is -7: the sign of the divisor
    ("7 % -3", -2),           # 7 // -3 is -3, and -3 * -3 - 2 is 7
    ("-7 % -3", -1),
    ("6 % 3", 0),
    ("2 * 7 % 4", 2),         # one precedence level with * and //, left to right: (2 * 7) % 4
    ("2 + 7 % 4", 5),
    ("-(2 + 3)", -5),
    ("--3", 3),
    ("+4", 4),
    ("min(4, 2, 9)", 2),
    ("max(4, 2, 9)", 9),
    ("abs(3 - 10)", 7),
    ("max(1, min(5, 3))", 3),
])
def test_integer_arithmetic(text, value):
    assert roll(text, faces=[]).value == value


@pytest.mark.parametrize("text, value", [
    ("3 >= 3", True), ("3 > 3", False), ("2 <= 1", False), ("2 < 3", True),
    ("2 == 2", True), ("2 != 2", False),
    ("true and false", False), ("true or false", True), ("not true", False),
    ("1 < 2 and 2 < 3", True), ("1 > 2 or 2 > 3", False),
    ("not 1 > 2 and 3 > 2", True),
    ("'a' == 'a'", True), ('"classic" != "revised"', True),
])
def test_booleans_and_comparisons(text, value):
    assert roll(text, faces=[]).value is value


def test_conditional_expression_picks_a_branch_and_only_rolls_that_branch():
    assert roll("1 if 2 > 1 else 2", faces=[]).value == 1
    assert roll("1d6 if x > 1 else 1d8", faces=[5], env={"x": 0}).steps[0].label == "1d8"


def test_a_pool_in_arithmetic_means_its_sum():
    assert roll("2d6 + 1", faces=[3, 4]).value == 8
    assert roll("2 * 2d6", faces=[3, 4]).value == 14
    assert roll("-1d6", faces=[5]).value == -5


def test_dotted_names_come_from_the_environment():
    env = {"hunter": {"life": 12}, "params": {"difficulty": 6}}
    assert roll("hunter.life - params.difficulty", faces=[], env=env).value == 6


def test_names_that_look_like_dice_or_modifiers_are_names():
    env = {"dexterity": 3, "firearms": 2, "dh": 1, "kh3": 4, "andy": 5, "d": 7, "r": 2, "iffy": 1}
    assert roll("(dexterity + firearms)d10", faces=[1, 2, 3, 4, 5], env=env).value == 15
    assert roll("dh + kh3 + andy + d + r + iffy", faces=[], env=env).value == 20


def test_a_list_of_faces_in_the_environment_is_a_pool():
    assert roll("count(kept, == 6)", faces=[], env={"kept": [6, 2, 6]}).value == 2


def test_500_term_sum_evaluates_without_recursion_error():
    assert roll("+".join(["1"] * 500), faces=[]).value == 500
    assert roll(" - ".join(["1"] * 500), faces=[]).value == -498


def test_constant_expressions_are_folded_at_compile_time():
    assert dice.compile("2 * (3 + 4)").is_constant
    assert not dice.compile("2 * 1d6").is_constant
    assert not dice.compile("x + 1").is_constant


def test_percent_after_d_is_the_hundred_sided_die_and_elsewhere_the_remainder():
    assert roll("d% % 10", faces=[37]).value == 7
    assert roll("2d% % 7", faces=[50, 45]).value == 95 % 7
    assert roll("3d6 % 4", faces=[6, 6, 5]).value == 1          # a pool in arithmetic means its sum
    assert roll("x % n", faces=[], env={"x": -9, "n": 4}).value == 3
    assert dice.compile("x % n").plain(env={"x": -9, "n": 4}) == 3          # untraced, as a simulation


@pytest.mark.parametrize("text, env", [("7 % 0", None), ("x % n", {"x": 7, "n": 0})])
def test_a_remainder_by_zero_is_an_error_with_a_caret(text, env):
    from tests.conftest import error_of
    err = error_of(text, env=env)
    assert isinstance(err, dice.DiceValueError) and err.message == "division by zero"
    assert err.span == (text.index("%") + 2, len(text))


def test_a_long_chain_of_remainders_by_unknown_values_agrees_with_python():
    text = " % ".join(["x"] + ["n"] * 10)          # past 8 divisions: written through one helper
    assert roll(text, faces=[], env={"x": -100, "n": 7}).value == -100 % 7
    assert dice.compile(text).plain(env={"x": 100, "n": -7}) == 100 % -7
