"""set: with until: (ruleset/steps/timers.py), worked by hand on tests/rulesets/timed-values.yaml: two
scenes of three turns; each scene a ward of 2 until the scene ends; a blow of 1d6 dazes Ana at
4 + 1 - ward or more, Beto at 4 + 2 - ward, until loop.turn + 2 (dazed that turn and the next)."""

import math
import re

import pytest

from ruleset_engine.analysis.simulate import play_game, simulate, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import Game, resolve_params
from ruleset_engine.runtime.vectorizable import refusal
from tests.runtime.helpers import kinds, ruleset
from tests.runtime.test_lockstep import _moments


def dazed(game):
    return [(f["dazed"], f["guard"]) for f in game.values["fighter"]]


def test_values_come_back_when_the_clock_reaches_their_point():
    game = Game.start(ruleset("timed-values"), rng=ScriptedDice([6, 1, 1, 5, 1, 1]))
    assert game.values["ward"] == 2                         # scene 1 began: the ward holds
    game.perform("turn")                                    # turn 1: a 6 dazes both, until turn 3
    assert dazed(game) == [(True, 0), (True, 0)] and game.values["hits"] == 2
    outcome = game.perform("turn")                          # turn 2: a 1; turn 3 begins: both come back
    assert dazed(game) == [(False, 1), (False, 1)]
    # undone last set first: Beto's, then Ana's, each field back to what it held
    assert [(e["target"], e["value"]) for e in kinds(outcome.events, "set")] == \
        [("Beto.guard", 1), ("Beto.dazed", False), ("Ana.guard", 1), ("Ana.dazed", False)]
    outcome = game.perform("turn")                          # turn 3: a 1; scene 2: the ward ends, begins again
    assert [(e["target"], e["value"]) for e in kinds(outcome.events, "set")] == [("ward", 0), ("ward", 2)]
    game.perform("turn")                                    # scene 2, turn 1: a 5 dazes both again
    assert dazed(game) == [(True, 0), (True, 0)] and game.values["hits"] == 4
    game.undo()
    assert dazed(game) == [(False, 1), (False, 1)] and len(game.values["_timers"]) == 1    # the ward's


def test_a_timer_ends_with_the_iteration_around_its_level(tmp_path):
    # Set in turn 3 until turn 5: the scene ends first, and the turns start again from 1.
    game = Game.start(ruleset("timed-values"), rng=ScriptedDice([1, 1, 6]))
    game.perform("turn")
    game.perform("turn")
    game.perform("turn")                                    # turn 3: dazed until turn 5
    assert game.values["loop"] == {"scene": 2, "turn": 1}
    assert dazed(game) == [(False, 1), (False, 1)]          # gone as scene 2 began


def test_both_modes_play_it_alike_and_the_mean_is_the_one_worked_out():
    r = ruleset("timed-values")
    program = simulation_program(r, resolve_params(r, {}))
    for seed in range(30):
        result, _, report, rng = play_game(program, seed)
        table = Game.start(r, seed=seed, auto=True)
        while not table.over:
            table.perform("turn")
        assert (result, report, rng.getstate()) == (table.result, table.report(), table.rng.getstate())
    assert refusal(r, resolve_params(r, {})) is None
    # A fighter hit with chance p in a scene's three turns (dazed the turn after a hit) is hit
    # p + p^2 + (1 - p) p + (1 - p)^2 p times on average: Ana (p = 2/3) 38/27, Beto (p = 1/2) 9/8;
    # two scenes: 2 (38/27 + 9/8) = 5.0648.
    for backend, games in (("untraced", 4_000), ("lockstep", 40_000)):
        run = simulate(str(r.file), games, seed=5, backend=backend)
        mean, se = _moments(run.tally.values["hits"])
        assert run.backend == backend and abs(mean - 2 * (38 / 27 + 9 / 8)) <= 5 * se, (backend, mean)


def test_the_lockstep_backend_plays_it_as_the_untraced_one_does():
    from tests.runtime.test_lockstep import assert_parity
    assert_parity(ruleset("timed-values").file, 20_000, 3_000)      # 5 SE bounds


BASE = """\
ruleset: t
title: T
entities:
  g: {count: 1, fields: {x: 0}}
state: {n: 0}
loop:
  - {name: scene, max: 2}
  - name: turn
    max: 2
    steps:
      - let: {k: 1}
      - for_each: p
        in: g
        do:
          - set: {SET}
            until: UNTIL
"""


@pytest.mark.parametrize("target, until, message", [
    ("k: 2", "scene", "until: gives back what a place held: k is a local"),
    ("n: 1", "n + 2", "until: is a loop level (the end of its current iteration: scene, turn) or a formula of one "
                      "level's counter (loop.turn + 2), not 'n + 2'"),
    ("n: 1", "loop.turn + loop.scene", "until: is a loop level"),
    ("n: 1", "loop.turn + sum(1d6)", "until: is a point of the game's clock, and rolls no dice"),
    ("n: 1", "secne", "until: is a loop level"),
])
def test_misuse_is_refused_at_load(written, target, until, message):
    with pytest.raises(RulesetError, match=re.escape(message)):
        written(BASE.replace("SET", target).replace("UNTIL", until))


def test_an_instance_field_and_a_state_variable_in_both_modes(written):
    r = written(BASE.replace("SET", "n: n + 1, p.x: 5").replace("UNTIL", "loop.turn + 1"))
    game = Game.start(r, seed=1, auto=True)
    game.perform("turn")
    assert (game.values["n"], game.values["g"][0]["x"]) == (0, 0)      # back as turn 2 began
    assert game.values["_timers"] == []
    result, _, report, _ = play_game(simulation_program(r, resolve_params(r, {})), 1)
    assert result == "done"


CLOCK = """\
ruleset: c
title: C
entities:
  g: {count: 2, fields: {x: 0}}
state: {n: 0, m: 0}
loop:
  - {name: scene, max: 2}
  - name: turn
    max: 2
    steps:
      - set: {m: "m * 10 + n + sum_of(g, x)"}
      - for_each: p
        in: g
        do:
          - set: {n: n + 1, p.x: "p.x + 3"}
            until: UNTIL
end: []
report: {m: m, n: n}
"""


@pytest.mark.parametrize("until, m, n", [
    # Turn 1 reads 0, sets n 2 (two instances) and x 3 each until turn 3; turn 2 reads 2 + 6 = 8, sets
    # n 4, x 6 until turn 4. Turn 3 comes (and ends the scene): turn 1's values come back (n 0, x 0),
    # then the scene moves on and turn 2's do (n 2, x 3). Scene 2 reads 2 + 6 = 8, then 4 + 12 = 16:
    # m = 0, 8, 88, 896; the game's end gives back turn 2's (n 4).
    ("loop.turn + 2", 896, 4),
    # Back as the next turn begins: every turn reads 0.
    ("loop.turn + 1", 0, 0),
    # Until the scene ends: turn 2 reads 8, scene 2 starts again from 0: 0, 8, 80, 808.
    ("scene", 808, 0),
])
def test_values_come_back_alike_in_lockstep_and_untraced(written, until, m, n):
    r = written(CLOCK.replace("UNTIL", until))
    for backend in ("untraced", "lockstep"):
        run = simulate(str(r.file), 30, seed=1, backend=backend)
        assert run.backend == backend
        assert (run.tally.values["m"].total, run.tally.values["n"].total) == (30 * m, 30 * n), backend
