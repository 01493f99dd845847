"""A question that asks for dice (pick): how to answer it, no dice included, at the table."""

import pytest

from ruleset_engine import Decision, DecisionError
from tests.repl.conftest import make_repl, run

PICK = """\
ruleset: pick-test
title: Pick (test)
state:
  kept: "[]"
actions:
  hand:
    doc: Roll four dice and keep some of them.
    steps:
      - roll: {hand: 4d6}
        label: Hand
      - ask: "Which dice do you keep?"
        as: chosen
        pick: {from: hand, min: MIN, max: 2}
        auto: "[]"
      - set: {kept: chosen}
      - say: "Kept: {kept}."
"""


def pick_repl(tmp_path, least=0):
    path = tmp_path / "pick.yaml"
    path.write_text(PICK.replace("MIN", str(least)), encoding="utf-8")
    return make_repl(str(path), seed=1)


@pytest.mark.parametrize("answer", ["", "none", "None", "-", "[]", "  "])
def test_a_pick_that_allows_no_dice_takes_no_dice(tmp_path, answer):
    repl, out = pick_repl(tmp_path)
    run(repl, out, "hand")
    assert repl.decision is not None
    text = run(repl, out, answer)
    # The answer typed is not said again, unless the table reads it otherwise (an empty line as none)
    said = [] if answer == "none" else ["Which dice do you keep? none"]
    assert text.splitlines() == said + ["Kept: none."]
    assert repl.decision is None and repl.session.game.values["kept"] == []


def test_the_prompt_says_how_to_answer_a_pick(tmp_path):
    repl, out = pick_repl(tmp_path)
    run(repl, out, "hand")
    faces = " ".join(str(f) for f in repl.decision.pool)
    assert repl.prompt_text == (f"Which dice do you keep? [0 to 2 of these dice: {faces} "
                                "(faces separated by spaces or commas, or none)] > ")


def test_faces_by_spaces_commas_or_brackets(tmp_path):
    repl, out = pick_repl(tmp_path)
    for answer in ("{0} {1}", "{0},{1}", "[{0}, {1}]"):
        run(repl, out, "hand")
        first, second = repl.decision.pool[:2]
        text = run(repl, out, answer.format(first, second))
        assert text.splitlines()[-1] == f"Kept: {first} {second}.", text


def test_the_auto_answer_is_echoed_as_none_auto(tmp_path):
    repl, out = pick_repl(tmp_path)
    run(repl, out, "hand")
    text = run(repl, out, "auto")
    assert "Which dice do you keep? none (auto)" in text and repl.decision is None


def test_a_pick_of_at_least_one_refuses_no_dice_and_says_so(tmp_path):
    repl, out = pick_repl(tmp_path, least=1)
    run(repl, out, "hand")
    assert "or none" not in repl.prompt_text
    assert "faces separated by spaces or commas" in repl.prompt_text
    text = run(repl, out, "none")
    assert text.startswith("none is not a valid answer: expected 1 to 2 of these dice")
    assert run(repl, out, "") == "" and repl.decision is not None     # an empty line asks again


def test_the_decision_checks_no_dice_itself():
    decision = Decision(id="x", var="chosen", kind="pick", pool=(3, 5, 5), min=0, max=2)
    for answer in ("", "none", "-", "[]", [], ()):
        assert decision.check(answer) == []
    assert decision.check("[5,3]") == [5, 3]
    with pytest.raises(DecisionError):
        decision.check("5 5 3")
    with pytest.raises(DecisionError):
        decision.check("0")          # 0 is a face, and none of these dice shows it
