"""A group's acts: (who may act) and a formula parameter's reads: (the fields it names), worked by hand
on tests/rulesets/who-may-act.yaml: Ana (brawn 3, wits 2) rolls her formula in d6 at Beto each round;
two dice of 5 or more knock him out, else he is hurt and she rests the next round. Her guard refuses
her while she rests; a Physical trait rolled (brawn) takes her hurt off the dice, wits alone does not."""

import copy
import re

import pytest

from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import Game, resolve_params
from tests.runtime.helpers import ruleset


def said(outcome):
    return [e["text"] for e in outcome.events if e["kind"] == "say"]


def rolled(outcome):
    return [len(e["dice"]) for e in outcome.events if e["kind"] == "roll"]


def test_the_guard_refuses_who_cannot_act_and_changes_nothing():
    # Round 1: 1 1 1 1 1, a miss: Beto hurt, Ana rests in round 2. Round 2: refused. Round 3: 5 5 1 1 1,
    # Beto out. Round 4: she rolls again (6 6 6 6 6).
    game = Game.start(ruleset("who-may-act"), rng=ScriptedDice([1, 1, 1, 1, 1, 5, 5, 1, 1, 1, 6, 6, 6, 6, 6]))
    assert said(game.perform("round")) == ["Ana rolls 5 dice at Beto."]
    before = copy.deepcopy({k: v for k, v in game.values.items() if k not in ("loop", "loop_done")})
    out = game.perform("round")
    assert said(out) == ["Ana cannot act: resting."] and rolled(out) == []
    assert {k: v for k, v in game.values.items() if k not in ("loop", "loop_done")} == before
    assert said(game.perform("round")) == ["Ana rolls 5 dice at Beto."]
    beto = game.values["fighter"][1]
    assert (beto["out"], beto["hurt"]) == (True, 1)
    # An action by Beto, who acts, is refused; one done to him (acts: false) is not.
    assert said(game.perform("shove", who="Beto", other="Ana")) == ["Beto cannot act: out."]
    assert game.values["fighter"][0]["hurt"] == 0
    game.perform("wake", who="Beto")
    assert said(game.perform("shove", who="Beto", other="Ana")) == ["Beto shoves Ana."]
    assert game.values["blows"] == 3


@pytest.mark.parametrize("traits, dice", [("brawn + wits", 5 - 2), ("wits", 2), ("wits + wits", 4), ("brawn", 1), ("4", 4)])
def test_the_fields_a_formula_reads_decide_the_penalty(traits, dice):
    game = Game.start(ruleset("who-may-act"), rng=ScriptedDice([2] * 20))
    game.perform("shove", who="Beto", other="Ana")
    game.perform("shove", who="Beto", other="Ana")          # Ana hurt 2
    out = game.perform("round", who="Ana", other="Beto", traits=traits)
    assert rolled(out) == [dice]


def test_both_modes_agree():
    r = ruleset("who-may-act")
    program = simulation_program(r, resolve_params(r, {}))
    blows = set()
    for seed in range(30):
        result, _, report, rng = play_game(program, seed)
        table = Game.start(r, seed=seed, auto=True)
        while not table.over:
            table.perform("round")
        assert (result, report, rng.getstate()) == (table.result, table.report(), table.rng.getstate())
        blows.add(report["blows"])
        assert report["rolled"] == 5 * report["blows"]      # Ana is never hurt: 5 dice each blow
    assert blows == {2, 3, 4}      # resting costs her a round after each miss (2: two misses)


BASE = """\
ruleset: t
title: T
entities:
  fighter:
    COUNT
    fields: {brawn: 3}
    acts: {as: f, when: "WHEN", refused: "{f.name} cannot act."}
actions:
  go:
    params:
      who: PARAM
      k: {type: formula, over: who, READS}
    steps: [{say: "{who.name}"}]
"""


@pytest.mark.parametrize("subs, message", [
    ({"COUNT": "names: x"}, "acts: says which instances of a group may act: give the entity count:"),
    ({"WHEN": "f.brawm > 0"}, "brawm"),
    ({"PARAM": "{type: integer, acts: false}"}, "acts: says whether an entity parameter's instance acts: "
                                                "it goes with type: entity"),
    ({"READS": "reads: k"}, "reads: 'k' is the name of a parameter; name the list of fields another way"),
])
def test_misuse_is_refused_by_check(written, subs, message):
    text = BASE
    for key, default in {"COUNT": "count: 1", "WHEN": "f.brawn > 0", "PARAM": "{type: entity, of: fighter}",
                         "READS": "reads: used"}.items():
        text = text.replace(key, subs.get(key, default))
    with pytest.raises(RulesetError, match=re.escape(message)):
        written(text)


def test_reads_goes_with_a_formula(written):
    text = BASE.replace("COUNT", "count: 1").replace("WHEN", "f.brawn > 0") \
        .replace("PARAM", "{type: entity, of: fighter, reads: used}").replace("READS", "default: brawn")
    with pytest.raises(RulesetError, match=re.escape("reads: names the fields a formula parameter reads: "
                                                     "it goes with type: formula")):
        written(text)


PROCEDURE_GUARD = """\
ruleset: t
title: T
entities:
  fighter:
    count: 2
    names: "{'Ana' if index == 1 else 'Beto'}"
    fields: {out: false, blocked: 0}
    acts: {as: f, when: "not f.out", refused: "{f.name} cannot act: out."}
procedures:
  may_act:
    params: [{who: {of: fighter, acts: true}}]
    steps: [{return: 1}]
actions:
  hit:
    params:
      who: {type: entity, of: fighter}
      other: {type: entity, of: fighter, acts: false}
    steps:
      - call: may_act
        with: {who: other}
        as: able
      - if: able == 1
        then: [{set: {other.blocked: other.blocked + 1}}]
      - set: {other.out: true}
      - say: "{who.name} hits {other.name}."
"""


def test_a_procedure_asks_the_group_s_guard_with_its_one_refusal(written):
    # Beto is up: his block is counted (1), the hit lands. Then he is out: the group's own refusal is
    # said for him inside Ana's action, the procedure gives 0 (no block), and Ana's action goes on.
    game = Game.start(written(PROCEDURE_GUARD), seed=1)
    assert said(game.perform("hit", who="Ana", other="Beto")) == ["Ana hits Beto."]
    assert said(game.perform("hit", who="Ana", other="Beto")) == ["Beto cannot act: out.", "Ana hits Beto."]
    assert game.values["fighter"][1]["blocked"] == 1


def test_acts_true_needs_a_group_with_a_guard(written):
    text = PROCEDURE_GUARD.replace('    acts: {as: f, when: "not f.out", refused: "{f.name} cannot act: out."}\n', "")
    with pytest.raises(RulesetError, match=re.escape("procedure parameter 'who': acts: asks the group's guard, "
                                                     "and 'fighter' says no acts:")):
        written(text)
