"""for_each over a group with where: and by: (the order of a formula, read as the loop starts),
worked by hand on tests/rulesets/ordered-turns.yaml: Ana (speed 5, nerve 1), Beto (3, 2), Cleo (1, 3);
the first to act each round loses 2 speed; a 6 on the stumble die takes a fighter out."""

import re

import pytest

from ruleset_engine.analysis.simulate import play_game, simulate, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import Game, resolve_params
from ruleset_engine.runtime.vectorizable import refusal
from tests.runtime.helpers import kinds, play, ruleset
from tests.runtime.test_lockstep import assert_parity


def said(events):
    return [e["text"] for e in kinds(events, "say")]


def test_the_order_is_read_again_each_round():
    game = Game.start(ruleset("ordered-turns"), rng=ScriptedDice([1] * 12))
    # speed + nerve: Ana 6, Beto 5, Cleo 4. Ana tires (3): Ana 4, Beto 5, Cleo 4: Beto, then the tie
    # of Ana and Cleo goes to the higher nerve (Cleo). Beto tires (1): Ana 4, Beto 3, Cleo 4: Cleo, Ana.
    # Cleo tires (-1): Ana 4, Beto 3, Cleo 2.
    rounds = [said(play(game, "round")) for _ in range(4)]
    assert rounds == [["This round: Ana Beto Cleo "], ["This round: Beto Cleo Ana "],
                      ["This round: Cleo Ana Beto "], ["This round: Ana Beto Cleo "]]


def test_where_leaves_out_those_that_fail_it():
    game = Game.start(ruleset("ordered-turns"), rng=ScriptedDice([1, 6, 1, 1, 1]))
    assert said(play(game, "round")) == ["This round: Ana Beto Cleo "]     # Beto rolls 6 and falls
    assert said(play(game, "round")) == ["This round: Cleo Ana "]          # Ana 3 + 1 = Cleo 1 + 3: nerve


def test_both_modes_play_it_alike():
    r = ruleset("ordered-turns")
    program = simulation_program(r, resolve_params(r, {}))
    for seed in range(30):
        result, _, report, rng = play_game(program, seed)
        table = Game.start(r, seed=seed, auto=True)
        while not table.over:
            table.perform("round")
        assert (result, report, rng.getstate()) == (table.result, table.report(), table.rng.getstate())


def test_the_lockstep_backend_plays_it_as_the_untraced_one_does():
    r = ruleset("ordered-turns")
    assert refusal(r, resolve_params(r, {})) is None
    assert_parity(r.file, 20_000, 3_000)        # 5 SE bounds (tests/runtime/test_lockstep.py)


SMALL = """\
ruleset: small
title: Small
entities:
  c:
    count: 3
    names: "{'A' if index == 1 else 'B' if index == 2 else 'C'}"
    fields: {score: "2 if index == 2 else 1"}
state: {seen: {text: ""}, code: 0}
loop:
  - name: round
    max: 1
    steps:
      - for_each: x
        in: c
        ORDER
        do: [{note: {seen: "{seen}{x.name}"}}, {set: {code: code * 10 + x.index}}]
end: []
report: {code: code}
"""


@pytest.mark.parametrize("order, seen", [
    ("by: x.score", "BAC"),                       # highest first; A and C tie: the group's order
    ("by: x.score\n        first: lowest", "ACB"),
    ("where: x.index != 1", "BC"),
    ("by: [x.score, x.index]", "BCA"),            # the tie of A and C goes to the higher index
])
def test_orders_by_hand_in_both_modes(written, order, seen):
    r = written(SMALL.replace("ORDER", order))
    game = Game.start(r, seed=1, auto=True)
    game.perform("round")
    assert game.values["seen"] == seen
    # In lockstep, every game goes through the instances in that order (A 1, B 2, C 3: BAC is 213).
    code = int("".join(str("ABC".index(c) + 1) for c in seen))
    run = simulate(str(r.file), 20, seed=1, backend="lockstep")
    assert run.backend == "lockstep" and run.tally.values["code"].total == 20 * code


@pytest.mark.parametrize("order, message", [
    ("by: x.scor", "'x' has no 'scor' (did you mean 'score'?)"),
    ("by: sum(1d6)", "where: and by: read each instance as the loop starts, and roll no dice"),
    ("first: lowest", "first: says which end of by:'s order comes first: give by: too"),
])
def test_misuse_is_refused_with_its_place(written, order, message):
    with pytest.raises(RulesetError, match=re.escape(message)):
        written(SMALL.replace("ORDER", order))


def test_where_is_refused_over_a_pool(written):
    text = SMALL.replace("in: c", "in: '[1, 2]'").replace("ORDER", "where: x > 1").replace("{x.name}", "{x}")
    with pytest.raises(RulesetError, match=re.escape("where: goes with for_each over a group")):
        written(text)
