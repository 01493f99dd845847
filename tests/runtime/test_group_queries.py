"""Queries over a group in formulas (ruleset/queries.py), worked by hand on
tests/rulesets/group-queries.yaml: four characters, Ana (blood 2, wits 1), Beto (3, 3), Dani (4, 1,
dead), Eli (5, 3). Both modes give the same values; misuse is refused by `dusk check` at its place;
a query with nothing to give stops the action at its formula in both modes."""

import re

import pytest

from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.ruleset.wording import join_list
from ruleset_engine.runtime import Game, RuleError, resolve_params
from tests.runtime.helpers import kinds, play, ruleset


def test_the_setup_reads_the_whole_group():
    game = Game.start(ruleset("group-queries"), rng=ScriptedDice([]))
    v = game.values
    assert v["standing"] == 4 and v["total"] == 2 + 3 + 4 + 5
    assert v["names"] == "Ana, Beto and Eli"            # the living: Dani is dead
    assert v["dead_one"] == "Dani" and v["second"] == "Beto"
    # wits 3: Beto and Eli; the tie goes to the higher blood (Eli 5 over Beto 3)
    assert v["first_up"] == "Eli"
    assert v["none_named"] == ""                         # nobody has blood over 99


def test_each_round_counts_again():
    # Round 1: hit 2 (Beto), harm 3: Beto's blood 3 -> 0, he falls.
    game = Game.start(ruleset("group-queries"), rng=ScriptedDice([2, 3, 4, 3, 1, 1]))
    said = [e["text"] for e in kinds(play(game, "round"), "say")]
    assert said == ["Standing: Ana, Dani and Eli (3); first to act: Eli."]
    v = game.values
    assert (v["standing"], v["thirsty"], v["all_up"]) == (3, False, False)
    assert (v["total"], v["most"], v["least"]) == (2 + 4 + 5, 5, 2)
    # Round 2: hit 4 (Eli), harm 3: Eli 5 -> 2. Still no one under 2.
    play(game, "round")
    assert (game.values["total"], game.values["most"], game.values["least"], game.values["thirsty"]) == \
        (2 + 4 + 2, 4, 2, False)
    # Round 3: hit 1 (Ana), harm 1: Ana 2 -> 1, thirsty.
    play(game, "round")
    assert (game.values["least"], game.values["thirsty"]) == (1, True)


def test_both_modes_play_it_alike():
    r = ruleset("group-queries")
    program = simulation_program(r, resolve_params(r, {}))
    for seed in range(30):
        result, _, report, rng = play_game(program, seed)
        table = Game.start(r, seed=seed, auto=True)
        while not table.over:
            table.perform("round")
        assert (result, report, rng.getstate()) == (table.result, table.report(), table.rng.getstate())


TIES = """\
ruleset: ties
title: Ties
entities:
  c:
    count: 3
    names: "{'A' if index == 1 else 'B' if index == 2 else 'C'}"
    fields: {score: "2 if index > 1 else 1", bonus: "index", x: 0}
state: {w: {text: ""}, v: 0}
loop:
  - name: round
    max: 1
    steps:
      - set: {w: "FORMULA"}
"""


@pytest.mark.parametrize("formula, expected", [
    ("best_of(c, score).name", "B"),                    # B and C tie on 2: the first in the group
    ("best_of(c, score, bonus).name", "C"),             # the tie goes to the higher bonus
    ("best_of(c, 0 - score).name", "A"),                # the lowest score, by its negation
    ("best_of(c, score, where=index != 2).name", "C"),
    ("first_of(c, score == 2).name", "B"),
    ("instance(c, 3).name", "C"),
    ("list_of(c, name, where=score == 2)", "B and C"),
    ("list_of(c, bonus)", "1, 2 and 3"),
])
def test_ties_and_picks_in_both_modes(written, formula, expected):
    r = written(TIES.replace("FORMULA", formula))
    game = Game.start(r, seed=1, auto=True)
    game.perform("round")
    assert game.values["w"] == expected


@pytest.mark.parametrize("formula, message", [
    ("first_of(c, score > 5).name", "first_of(..): no c meets the test"),
    ("instance(c, 4).name", "instance(..): c has 3 instances, so there is no number 4"),
    ("max_of(c, score, where=score > 5)", "max_of(..) of no instance: no c meets the test"),
    ("best_of(c, score, where=x > 0).name", "best_of(..): no c meets the test"),
])
def test_a_query_with_nothing_to_give_stops_at_its_formula_in_both_modes(written, formula, message):
    r = written(TIES.replace("FORMULA", formula).replace("w: {text: \"\"}", "w: 0"))
    game = Game.start(r, seed=1, auto=True)
    with pytest.raises(RuleError, match=re.escape(message)) as table:
        game.perform("round")
    assert "t.yaml:13:19:" in str(table.value) and game.values["w"] == 0      # the game as it was
    with pytest.raises(DuskError, match=re.escape(message)) as simulated:
        play_game(simulation_program(r, resolve_params(r, {})), 1)
    assert "t.yaml:13:19:" in str(simulated.value)


def test_defaults_and_empty_groups(written):
    r = written(TIES.replace("FORMULA", "max_of(c, score, where=x > 0, default=-1) + sum_of(c, score, "
                                                  "where=x > 0) + how_many(c, x > 0)").replace('w: {text: ""}', "w: 0"))
    game = Game.start(r, seed=1, auto=True)
    game.perform("round")
    assert game.values["w"] == -1


@pytest.mark.parametrize("items, text", [
    ([], ""), (["Ana"], "Ana"), (["Ana", "Beto"], "Ana and Beto"), (["Ana", "Beto", "Dani"], "Ana, Beto and Dani"),
])
def test_the_one_list_joining_function(items, text):
    assert join_list(items, "en") == text
    assert join_list(items, "xx") == text         # a language it has no words for reads as English


@pytest.mark.parametrize("formula, message", [
    ("how_many(w, x > 0)", "how_many(..) reads a group: its first argument is the name of one (c)"),
    ("sum_of(c, scor)", "'scor' is not a field of c (did you mean 'score'?), nor a name known here"),
    ("first_of(c, x > 0).nam", "'c' has no 'nam' (did you mean 'name'?)"),
    ("how_many(c, sum(1d6) > x)", "how_many(..) reads each instance and rolls no dice"),
    ("sum_of(c, score, were=x)", "sum_of(..) has no keyword 'were' (keywords: where=)"),
    ("max_of(c)", "max_of(group, value, where=test, default=N) takes 2 arguments, not 1"),
    ("how_many(c, x > 0).name", "how_many(..) gives a value, which has no field 'name'"),
])
def test_misuse_is_refused_at_load_with_its_place(written, formula, message):
    with pytest.raises(RulesetError) as err:
        written(TIES.replace("FORMULA", formula))
    assert message in str(err.value) and "t.yaml:13:" in str(err.value)


def test_a_field_alone_is_the_instances_and_other_names_read_outside(written):
    # v is a state variable: read as it stands, beside each instance's score
    r = written(TIES.replace("FORMULA", "how_many(c, score > v)").replace('w: {text: ""}', "w: 0")
                .replace("steps:\n", "steps:\n      - set: {v: 1}\n"))
    game = Game.start(r, seed=1, auto=True)
    game.perform("round")
    assert game.values["w"] == 2
