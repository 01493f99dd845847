"""Bad input: each gets its own clear message with a caret, and no die is drawn."""

import pytest

from ruleset_engine import dice
from tests.conftest import error_of


def caret_column(err):
    """Where the caret points, read from the rendered message (what a person sees)."""
    lines = str(err).splitlines()
    return lines[-1].index("^") - 2


@pytest.mark.parametrize("text, cls, message, column", [
    ("1000000d1000000", dice.DiceLimitError, "too many dice in one pool: 1,000,000 (the limit is 1,000)", 0),
    ("d0", dice.DiceValueError, "a die needs at least 1 side, not 0", 1),
    ("(0-3)d6", dice.DiceValueError, "cannot roll a negative number of dice (-3)", 0),
    ("5d10>=", dice.DiceSyntaxError, "expected a value after '>=', but the expression ends there", 6),
    ("1d6rr<7", dice.DiceLimitError, "every face of a d6 meets '<7', so re-rolling while it does would never end", 3),
    ("5d10!>=1", dice.DiceLimitError, "every face of a d10 meets '!>=1', so exploding on it would never end", 4),
    ("1d1!", dice.DiceLimitError, "a d1 always shows its highest face, so exploding it would never end", 3),
    ("reroll(1d6, < 7)", dice.DiceLimitError, "every value of 1d6 (1..6) meets '< 7'", 0),
    ("2d", dice.DiceSyntaxError, "expected a number after 'd'", 1),
    ("2dx", dice.DiceSyntaxError, "expected a number after 'd'", 1),
    ("x / 2", dice.DiceSyntaxError, "write // to divide", 2),
    ("a = 3", dice.DiceSyntaxError, "write == for equal", 2),
    ("1))", dice.DiceSyntaxError, "this ')' closes nothing", 1),
    ("((1)", dice.DiceSyntaxError, "expected ')'", 4),
    ("hello world", dice.DiceSyntaxError, "unexpected name 'world' after 'hello': expected an operator", 6),
    ("", dice.DiceSyntaxError, "the expression is empty", 0),
    ("5 // 0", dice.DiceValueError, "division by zero", 5),
    ("5d10 >= 6", dice.DiceTypeError, "write count(5d10, >= 6) for how many dice meet it, or sum(5d10) >= 6", 0),
    ("true + 1", dice.DiceTypeError, "expected a number here, not true/false", 0),
    ("x if 4d6 else 2", dice.DiceTypeError, "the test after 'if' must be true/false, not pool", 5),
    ("3d6 and true", dice.DiceTypeError, "expected true/false here, not pool", 0),
    ("2 $ 3", dice.DiceSyntaxError, "unexpected character '$'", 2),
    ("3d6kh-1", dice.DiceSyntaxError, "a count after kh is a whole number", 5),
    ("plural(2, 1, 'many')", dice.DiceTypeError, "needs a word here", 10),
])
def test_bad_expressions_have_their_own_message_and_caret(text, cls, message, column):
    err = error_of(text, env={"x": 1})
    assert isinstance(err, cls)
    assert message in err.message
    assert err.text == text
    assert caret_column(err) == column


def test_unknown_names_are_named_with_a_suggestion():
    err = error_of("hunter.lif + 1", env={"hunter": {"life": 3}})
    assert isinstance(err, dice.UnknownName)
    assert err.message == "unknown name 'hunter.lif' (did you mean 'hunter.life'?)"
    assert caret_column(err) == 0
    assert "'n' is a number and has no 'x'" in error_of("n.x", env={"n": 3}).message


def test_a_pool_held_by_a_name_compared_with_a_number_is_refused_too():
    err = error_of("p >= 3", env={"p": [1, 4]})
    assert "count(p, >= 3)" in err.message


def test_the_message_is_one_screen_even_for_long_input():
    err = error_of("1 + " * 500 + "$")
    lines = str(err).splitlines()
    assert len(lines) == 3 and all(len(line) < 100 for line in lines)
    assert lines[-1].rstrip().endswith("^")


def test_errors_inside_multiline_text_show_the_line_of_the_problem():
    err = error_of("1 +\n2 +\n3 $ 4")
    assert str(err).splitlines()[1].strip() == "3 $ 4"
