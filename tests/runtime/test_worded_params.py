"""Action parameters of tests/rulesets/worded-params.yaml: a formula over the fields of the instance
an entity parameter names, and that parameter's default read from the state. Values worked out by
hand with scripted dice; both modes read them alike; the checker's refusals, each at its place."""

import pytest

import ruleset_engine as dusk
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, resolve_params
from ruleset_engine.runtime.program import build
from ruleset_engine.runtime.run import Run
from tests.repl.conftest import RULESETS

RULESET = load(str(RULESETS / "worded-params.yaml"))


def says(outcome):
    return [e["text"] for e in outcome.events if e["kind"] == "say"]


def test_the_formula_is_read_over_the_instance_named_or_the_current_one():
    # Ana: strength 3, brawl 1; Beto: strength 4, brawl 1, the current one.
    game = dusk.Game.start(RULESET, rng=ScriptedDice([6, 5, 7, 2, 9] + [6, 9, 9, 1] + [10, 2, 2, 2, 2, 2, 2]))
    assert says(game.perform("throw")) == ["Beto rolls 5 dice at 6: 3"]               # 4 + 1
    assert says(game.perform("throw", traits="strength", who="Ana", at=8, bold=True)) == \
        ["Ana rolls 4 dice at 8: 2"]                                                  # 3 + 1 (bold)
    assert says(game.perform("throw", traits="2 * brawl + hp")) == ["Beto rolls 7 dice at 6: 1"]
    game.perform("use", who="Ana")
    game2 = dusk.Game.start(RULESET, rng=ScriptedDice([6, 6, 6, 6]))
    game2.perform("use", who="Ana")
    assert says(game2.perform("throw")) == ["Ana rolls 4 dice at 6: 4"]               # 3 + 1


@pytest.mark.parametrize("traits, message", [
    ("strength + foo", "throw traits: 'foo' is not a field of Beto"),
    ("strenght", "throw traits: 'strenght' is not a field of Beto (did you mean strength?)"),
    ("3d6", "throw traits: a formula over a sheet's fields reads them and rolls no dice"),
    ("d6 if strength > 2 else 1", "throw traits: a formula over a sheet's fields reads them and rolls no dice"),   # on a branch
    ("strength +", "throw traits: "),
    ("x" * 201, "throw traits: a formula of at most 200 characters, not 201"),
])
def test_a_formula_the_table_cannot_read_is_refused_and_changes_nothing(traits, message):
    game = dusk.Game.start(RULESET, seed=1)
    before = game.snapshot()
    with pytest.raises(dusk.GameError) as err:
        game.perform("throw", traits=traits)
    assert str(err.value).startswith(message)
    assert game.snapshot() == before


def test_a_default_naming_no_instance_is_said():
    game = dusk.Game.start(RULESET, seed=1)
    game.values["current"] = "Carla"
    with pytest.raises(dusk.GameError) as err:
        game.perform("throw")
    assert str(err.value) == "throw who: the default current gives Carla, which names none of them (Ana, Beto)"


def test_the_simulation_reads_the_formula_and_the_default_the_same_way():
    params = resolve_params(RULESET, {})
    program = build(RULESET, params, traced=False, run_limits=DEFAULT_RUN_LIMITS)
    run = Run(traced=False, auto=True, max_steps=DEFAULT_RUN_LIMITS.max_steps,
              max_depth=DEFAULT_RUN_LIMITS.max_call_depth)
    entry = program.bind(ScriptedDice([6, 6, 6, 1, 1]).randint, run)
    entry["start"]()
    entry["perform"]("throw", {"traits": "strength + brawl", "at": 6, "bold": False})
    assert entry["values"]()["last"] == 3


BASE = """\
ruleset: r
title: r
entities:
  person: {fields: {strength: 2}}
actions:
  go:
    params:
{params}
    steps: []
"""


@pytest.mark.parametrize("params, message", [
    ("      t: {type: formula, over: who}", "over: names an entity parameter declared before this one, and 'who' is none (there is none)"),
    ("      t: {type: formula, over: w, default: 'strength'}\n      w: {type: entity, of: person}",
     "over: names an entity parameter declared before this one, and 'w' is none (there is none)"),
    ("      w: {type: entity, of: person}\n      t: {type: formula, over: w, default: 'strenght + 1'}",
     "the default 'strenght + 1': 'strenght' is not a field (did you mean strength?)"),
    ("      w: {type: entity, of: person}\n      t: {type: formula, over: w, default: 3}",
     "the default of a formula parameter is a formula in quotes, not 3"),
    ("      a: {type: integer, word: at}\n      b: {type: integer, word: at}", "the word 'at' already names the parameter 'a'"),
    ("      a: {type: integer, word: b}\n      b: {type: integer}", "the word 'b' already names the parameter 'b'"),
    ("      a: {type: integer, over: b}", "over: goes with type: formula"),
])
def test_the_checker_refuses_each_at_its_place(written, params, message):
    path = written.path(BASE.replace("{params}", params), "r.yaml")
    path = str(path)
    with pytest.raises(RulesetError) as err:
        load(path)
    assert any(message in str(p) for p in err.value.problems), [str(p) for p in err.value.problems]
