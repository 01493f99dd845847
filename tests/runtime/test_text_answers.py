"""Answers in words: an ask: with text:, bounded and checked, kept in state, shown, and answered by
its auto: text when nobody answers (in both modes alike)."""

import pytest

from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import DecisionError, Game, resolve_params
from tests.runtime.helpers import ruleset


def test_the_answers_are_kept_trimmed_in_the_fields_and_shown():
    game = Game.start(ruleset("table-sheets"), seed=1)
    decision = game.last_outcome.decision
    assert decision.kind == "text" and (decision.min, decision.max) == (1, 40)
    assert decision.prompt == "P1: who are you, in a few words?" and decision.who == "P1"
    outcome = game.answer(decision, "  Ana, a doctor who lost her faith  ")
    outcome = game.answer(outcome.decision, "Beto")
    assert outcome.decision is None
    assert [p["concept"] for p in game.values["player"]] == ["Ana, a doctor who lost her faith", "Beto"]
    assert game.values["written"] == 2
    outcome = game.perform("motto")
    outcome = game.answer(outcome.decision, "Nobody leaves")
    assert game.values["motto"] == "Nobody leaves"
    assert [e["text"] for e in game.log if e["kind"] == "say"] == ["The motto: Nobody leaves."]
    asks = [e for e in game.log if e["kind"] == "ask"]
    assert [a["answer"] for a in asks] == ["Ana, a doctor who lost her faith", "Beto", "Nobody leaves"]
    assert outcome is not None and outcome.decision is None


@pytest.mark.parametrize("answer", [
    "x" * 41,                  # past max
    "",                        # under min (1)
    "   ",                     # only spaces: empty once trimmed
    "Ana\nBeto",               # two lines
    "\x1b[31mred\x1b[0m",      # a terminal's escape sequence
    "a\u202eb",                # a format character that reverses the text shown
    42,                        # not words
])
def test_a_bad_text_is_refused_and_nothing_changes(answer):
    game = Game.start(ruleset("table-sheets"), seed=1)
    before = game.values
    with pytest.raises(DecisionError, match="expected a text of 1 to 40 characters, on one line"):
        game.answer(game.last_outcome.decision, answer)
    assert game.values == before and game.last_outcome.decision.kind == "text"


def test_a_refusal_quotes_a_long_answer_cut_and_unprintable_characters_as_question_marks():
    game = Game.start(ruleset("table-sheets"), seed=1)
    with pytest.raises(DecisionError) as err:
        game.answer(game.last_outcome.decision, "y" * 100_000)
    assert len(str(err.value)) < 200 and "(100,000 characters)" in str(err.value)
    with pytest.raises(DecisionError) as err:
        game.answer(game.last_outcome.decision, "a\x1bb")
    assert "a?b is not a valid answer" in str(err.value)


def test_auto_writes_the_same_words_in_both_modes():
    r = ruleset("table-sheets")
    game = Game.start(r, params={"players": 3}, seed=5, auto=True)
    assert [p["concept"] for p in game.values["player"]] == ["P1 the stranger", "P2 the stranger", "P3 the stranger"]
    game.perform("motto")
    assert game.values["motto"] == "3 strangers at the door"
    program = simulation_program(r, resolve_params(r, {"players": 3}))
    game.perform("motto")
    result, _, report, _ = play_game(program, 5)
    assert (result, report) == ("done", {"written": 3}) == (game.result, game.report())


TEXT = """\
ruleset: t
title: T
state: {said: {text: ""}}
actions:
  speak:
    steps:
      - ask: Say something
        as: w
        text: {min: 2, max: 10}
        auto: "hello"
      - set: {said: w}
"""


@pytest.mark.parametrize("old, new, message", [
    ("min: 2, max: 10", "min: 12, max: 10", "t.yaml:9:21: min 12 is above max 10: no text could answer"),
    ('auto: "hello"', 'auto: "hello"\n        default: "1"', "t.yaml:11:9: a text question takes no default:"),
    ('auto: "hello"', 'auto: "{1d6}"', "text placeholders show values and never roll dice"),
    ("max: 10", "max: 5000", "t.yaml:9:29: expected at most 1000, not 5000"),
    ("text: {min: 2, max: 10}", "text: {min: 2, max: 10}\n        yes_no: true",
     "ask takes exactly one of number:, choice:, yes_no:, pick:, text: or choose:"),
])
def test_misuse_is_refused_with_its_place(written, old, new, message):
    written(TEXT)
    with pytest.raises(RulesetError) as err:
        written(TEXT.replace(old, new))
    assert message in str(err.value) and len(err.value.problems) == 1, str(err.value)


def test_an_auto_text_out_of_bounds_fails_at_its_step(written):
    game = Game.start(written(TEXT.replace('auto: "hello"', 'auto: "hello, world"')), seed=1, auto=True)
    with pytest.raises(Exception, match="the auto: answer is not valid"):
        game.perform("speak")
    assert game.values["said"] == ""
