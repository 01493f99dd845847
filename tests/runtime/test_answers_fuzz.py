"""Answers are hostile input: any text typed at a question is a valid answer in its normal form or a
DecisionError naming the valid answers, never another exception."""

import os

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ruleset_engine.runtime import Decision, DecisionError

pytestmark = pytest.mark.fuzz
SCALE = int(os.environ.get("DUSK_FUZZ_SCALE", "1"))   # make fuzz: many times more examples

DECISIONS = [
    Decision(id="n", var="n", kind="number", min=0, max=5),
    Decision(id="c", var="c", kind="choice", choices=("scene", "shot", "hour")),
    Decision(id="y", var="y", kind="yes_no"),
    Decision(id="p", var="p", kind="pick", pool=(3, 5, 5, 6), min=0, max=2),
    Decision(id="d", var="d", kind="dice", min=3, max=3, sides=6),
]

ANSWERS = st.one_of(
    st.text(max_size=60),
    st.text(alphabet="0123456789 ,[]-none", max_size=30),
    st.lists(st.integers(-10, 30), max_size=6),
    st.integers(), st.booleans(), st.none(), st.floats(allow_nan=True),
)


@settings(max_examples=400 * SCALE, deadline=None)
@given(answer=ANSWERS)
@example(answer="² 3 4")          # a digit to str.isdigit, not to int()
@example(answer="1 2 " + "9" * 5000)
def test_every_answer_is_valid_or_refused_in_words(answer):
    for decision in DECISIONS:
        try:
            value = decision.check(answer)
        except DecisionError as err:
            assert "is not a valid answer: expected " in str(err)
            continue
        assert decision.check(value) == value           # the normal form is itself valid
        if decision.kind == "dice":
            assert len(value) == 3 and all(1 <= f <= 6 for f in value)
        if decision.kind == "pick":
            assert len(value) <= 2 and all(f in (3, 5, 6) for f in value)
        if decision.kind == "number":
            assert 0 <= value <= 5
