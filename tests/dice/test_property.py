"""Property tests: random text and random valid expressions never let anything but a DiceError out."""

import os
import random

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleset_engine import dice

SCALE = int(os.environ.get("DUSK_FUZZ_SCALE", "1"))   # make fuzz: many times more examples

# The recursive strategies below have long reprs; hypothesis warns about building them.
pytestmark = [pytest.mark.fuzz, pytest.mark.filterwarnings("ignore:Generating overly large repr")]

ENV = {"x": 3, "y": 0, "p": [1, 6, 6, 2], "params": {"difficulty": 6, "rule": "classic"}, "flag": True}

PIECES = ["1", "2", "6", "10", "0", "d", "d6", "4d6", "kh", "kl", "dh", "dl", "r", "rr", "!", "!>=",
          "<", ">", ">=", "==", "!=", "+", "-", "*", "//", "/", "(", ")", "[", "]", ",", "=", " ",
          "x", "y", "p", "params.difficulty", "and", "or", "not", "if", "else", "true", "'a'",
          "count", "sum", "highest", "unpair", "cancel", "reroll", "aside", "largest_set", "%", "$", ".",
          # dusk's !o, min, max and other tools' notations (Foundry's cs, df, x, xo; Roll20's ro, f, s)
          "!o", "min", "max", "cs", "cs>=", "df", "df=", "x", "xo", "ro", "f", "sa", "sd", "s"]


def _safe_evaluate(text):
    try:
        result = dice.roll(text, rng=random.Random(0), env=ENV)
    except dice.DiceError as err:
        assert err.message and isinstance(str(err), str)
        return None
    str(result)  # rendering must not fail either
    result.to_json()
    return result


@settings(max_examples=400 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_random_token_soup_gives_a_result_or_a_dice_error(text):
    _safe_evaluate(text)


@settings(max_examples=200 * SCALE, deadline=None)
@given(st.text(max_size=40))
def test_random_text_gives_a_result_or_a_dice_error(text):
    _safe_evaluate(text)


numbers = st.one_of(st.integers(-5, 20).map(str), st.sampled_from(["x", "y", "params.difficulty"]))


def _pool_of(n):
    return st.one_of(
        st.tuples(st.integers(0, 6), st.sampled_from([4, 6, 10])).map(lambda t: f"{t[0]}d{t[1]}"),
        st.just("p"),
        st.lists(st.integers(1, 6), max_size=5).map(lambda xs: "[" + ", ".join(map(str, xs)) + "]"),
    )


pools = st.recursive(
    _pool_of(0),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["unpair({})", "aside({})", "largest_set({}, ignore=[1])",
                                          "keep({}, >= 3)", "drop({}, < 2)", "highest({}, 2)"])).map(
            lambda t: t[1].format(t[0])),
        st.tuples(inner, inner).map(lambda t: f"cancel({t[0]}, {t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]}, {t[1]}]"),
    ),
    max_leaves=6,
)

expressions = st.recursive(
    st.one_of(numbers, pools.map(lambda p: f"sum({p})"), pools.map(lambda p: f"count({p}, >= 4)"),
              pools.map(lambda p: f"highest({p}, default=0)"), st.just("4d6kh3"), st.just("1d20rr<10"),
              st.just("3d6!"), st.just("reroll(2d10, < 10)")),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if ({t[1]}) + 0 > ({t[2]}) + 0 else {t[2]})"),
        inner.map(lambda e: f"-{e}"),
        inner.map(lambda e: f"abs({e})"),
    ),
    max_leaves=8,
)


@settings(max_examples=300 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions)
def test_random_valid_expressions_evaluate_to_numbers(text):
    try:
        result = dice.roll(text, rng=random.Random(1), env=ENV)
    except dice.DiceError as err:
        # Valid syntax may still divide by zero; nothing else is expected.
        assert "division by zero" in err.message, (text, err)
        return
    assert type(result.value) is int
    str(result)
