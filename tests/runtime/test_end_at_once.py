"""An end condition with at_once: true ends the game the moment it holds, after the step that made
it true, in both modes; the others are checked between actions. Worked out by hand."""

from pathlib import Path

import pytest

import ruleset_engine as dusk
from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import resolve_params
from ruleset_engine.runtime.at_once import writes

RULESET = Path(__file__).resolve().parents[1] / "rulesets" / "end-at-once.yaml"


def test_the_game_ends_after_the_step_that_made_it_true():
    # life 6: bites of 2 and 4 bring it to 0 after the second bite; a third die would be one too
    # many for the scripted dice, so the game must end before the night's third bite.
    game = dusk.Game.start(load(str(RULESET)), rng=ScriptedDice([2, 4]))
    game.perform("night")
    assert game.over and game.result == "lost"
    assert game.values["life"] == 0 and game.values["bites"] == 2 and game.values["nights"] == 0
    says = [e["text"] for e in game.log if e["kind"] == "say"]
    # the say: after the killing bite's set: never runs: the game ended at that set:
    assert says == ["Bitten for 2: life 4.", "Dead after 2 bites."]


def test_a_simulation_ends_at_the_same_step():
    ruleset = load(str(RULESET))
    program = simulation_program(ruleset, resolve_params(ruleset, {}))
    for seed in range(30):
        result, rounds, report, rng = play_game(program, seed)
        game = dusk.Game.start(ruleset, seed=seed)
        while not game.over:
            game.perform("night")
        assert (result, report, rng.getstate()) == (game.result, game.report(), game.rng.getstate())
        if result == "lost":
            assert report["life"] <= 0 and report["life"] + 6 > 0     # stopped at the bite that killed


def test_only_steps_that_write_what_it_reads_are_followed_by_the_check():
    ruleset = load(str(RULESET))
    steps = ruleset.procedures["bite"].steps
    assert [writes(s, ruleset) for s in steps] == [set(), {"bites"}, {"life"}, set()]
    program = simulation_program(ruleset, resolve_params(ruleset, {}))
    lines = program.source.splitlines()
    checks = [i for i, line in enumerate(lines) if line.strip().endswith(": eo_0()")]
    assert checks and all("s_life = " in lines[i - 1] for i in checks), checks   # after set: {life: ..} only


def test_at_once_must_be_true_or_false(written):
    path = written.path(RULESET.read_text(encoding="utf-8").replace("at_once: true", "at_once: soon"), "r.yaml")
    with pytest.raises(dusk.RulesetError) as info:
        load(str(path))
    assert "r.yaml:24:14" in str(info.value)
