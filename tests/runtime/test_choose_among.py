"""ask with choose: (instances of a group chosen at the table), worked by hand on
tests/rulesets/choose-among.yaml: Skills Riding (rank 1), Letters (2), Knives (3), all unchecked;
Resources Horse (worth 3), Silver (2), Old Map (1), all held."""

import re

import pytest

from ruleset_engine.analysis.playouts import RandomAnswers
from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.repl.commands import longest_answer
from ruleset_engine.repl.completer import TableCompleter
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import DecisionError, Game, resolve_params
from ruleset_engine.runtime.decisions import Decision
from ruleset_engine.runtime.vectorizable import refusal
from tests.repl.conftest import RULESETS, make_repl, run
from tests.runtime.helpers import kinds, ruleset


def test_offered_by_name_checked_and_bound_as_instances():
    game = Game.start(ruleset("choose-among"), seed=1)
    asked = game.perform("week").decision
    assert (asked.kind, asked.choices) == ("instance", ("Riding", "Letters", "Knives"))
    with pytest.raises(DecisionError, match="Swimming is not a valid answer: expected one of: Riding, Letters, "
                                            "Knives"):
        game.answer(asked, "Swimming")
    asked = game.answer(asked, "let").decision          # a name's start, when only one name starts so
    assert (asked.kind, asked.min, asked.max) == ("instances", 0, 2)
    assert asked.describe_valid() == "0 to 2 of: Horse, Silver, Old Map (names separated by commas, or none)"
    for bad in ("Horse, Horse", "Horse, Silver, Old Map", "Gold"):
        with pytest.raises(DecisionError):
            game.answer(asked, bad)
    outcome = game.answer(asked, "horse, old map")
    assert [e["text"] for e in kinds(outcome.events, "say")] == ["Letters; kept Silver"]
    assert [s["checked"] for s in game.values["skill"]] == [False, True, False]
    assert [r["held"] for r in game.values["resource"]] == [False, True, False]
    assert game.values["lost"] == 2
    # The next week offers what is left: Letters is checked; only Silver is held.
    asked = game.perform("week").decision
    assert asked.choices == ("Riding", "Knives")
    asked = game.answer(asked, "Knives").decision
    assert asked.choices == ("Silver",) and asked.max == 1          # max 2, but one is offered
    game.answer(asked, "none")
    assert game.values["lost"] == 2
    game.undo()
    assert [s["checked"] for s in game.values["skill"]] == [False, True, False]


def test_auto_answers_by_its_formula_in_both_modes():
    r = ruleset("choose-among")
    game = Game.start(r, seed=1, auto=True)
    answers = []
    while not game.over:
        answers += [e["answer"] for e in kinds(game.perform("week").events, "ask")]
    # the highest rank not yet checked, each week; the resources worth under 2 (Old Map), once
    assert answers == ["Knives", ["Old Map"], "Letters", [], "Riding", []]
    result, _, report, rng = play_game(simulation_program(r, resolve_params(r, {})), 1)
    assert (result, report) == (game.result, game.report()) == ("kept", {"checked": 3, "lost": 1})
    # The lockstep backend plays it too (the entry's vector form): nothing refused, the same report.
    assert refusal(r, resolve_params(r, {})) is None
    from ruleset_engine.analysis.simulate import simulate
    run = simulate(r.file, 50, seed=1, backend="lockstep")
    assert run.backend == "lockstep"
    assert run.tally.values["checked"].counts == {3: 50} and run.tally.values["lost"].counts == {1: 50}


def test_random_playouts_answer_within_the_offer():
    answers = RandomAnswers()
    several = Decision("x", "v", "instances", min=1, max=2, choices=("A", "B", "C"))
    for _ in range(50):
        picked = answers(several, None)
        assert 1 <= len(picked) <= 2 and len(set(picked)) == len(picked) and set(picked) <= {"A", "B", "C"}
    one = Decision("x", "v", "instance", choices=("A", "B"))
    assert {answers(one, None) for _ in range(50)} == {"A", "B"}


def test_the_table_completes_the_names_offered():
    repl, out = make_repl(str(RULESETS / "choose-among.yaml"), seed=1)
    run(repl, out, "week")
    completer = TableCompleter(repl)
    assert completer.candidates("K", "K") == ["Riding", "Letters", "Knives"]
    run(repl, out, "Knives")
    assert completer.candidates("Horse, Ol", "Ol") == ["Horse", "Silver", "Old Map"]
    shown = run(repl, out, "Horse, Old Map")
    assert "Knives; kept Silver" in shown
    assert longest_answer(Decision("x", "v", "instances", min=0, max=3, choices=("a" * 80,) * 5)) >= 5 * 82


BASE = """\
ruleset: c
title: C
entities:
  g:
    count: 2
    fields: {lit: true}
  one: {fields: {x: 1}}
state: {n: 0}
loop:
  - name: round
    max: 1
    steps:
      - ask: Which?
        as: w
        ASK
      - set: {n: 1}
"""


@pytest.mark.parametrize("ask, message", [
    ("choose: {of: one}\n        auto: 1", "choose: offers the instances of a group (g), not 'one'"),
    ("choose: {of: g, where: lot}\n        auto: instance(g, 1)", "'lot' is not a field of g (did you mean 'lit'?)"),
    ("choose: {of: g}\n        default: 1\n        auto: instance(g, 1)", "a choice among a group takes no default:"),
    ("choose: {of: g, where: sum(1d6) > 3}\n        auto: instance(g, 1)", "choose: where: reads each instance and "
                                                                        "rolls no dice"),
    ("choose: {of: g, max: 2}\n        auto: litt", "'litt' is not a field of g (did you mean 'lit'?)"),
])
def test_misuse_is_refused_with_its_place(written, ask, message):
    with pytest.raises(RulesetError, match=re.escape(message)):
        written(BASE.replace("ASK", ask))


def test_nothing_offered_stops_at_the_step_and_a_bad_auto_is_said(written):
    r = written(BASE.replace("ASK", "choose: {of: g, where: not lit}\n        auto: instance(g, 1)"))
    game = Game.start(r, seed=1)
    with pytest.raises(Exception, match="nothing to choose: no g is offered"):
        game.perform("round")
    assert game.values["n"] == 0
    r = written(BASE.replace("ASK", "choose: {of: g}\n        auto: 3"), "u.yaml")
    with pytest.raises(Exception, match="the auto: answer is not valid: it gives '3', not an instance of g"):
        Game.start(r, seed=1, auto=True).perform("round")
