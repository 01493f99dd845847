"""The total work of one simulated game is bounded (issue 24, 7): each action's steps had a limit and
a game's rounds had one, but a game of a million rounds of 100,000 steps each (10^11 steps) ran for
a day. RunLimits.max_game_steps (100,000,000) stops it, in both backends with one message, checked
as each round starts. Tested with a small limit, where the count is worked out by hand."""

import pytest

from ruleset_engine.analysis.simulate import MAX_ROUNDS, SimulationError, play_game
from ruleset_engine.analysis.summary import Totals
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import RunLimits, resolve_params
from ruleset_engine.runtime.limits import DEFAULT_RUN_LIMITS, game_too_long
from ruleset_engine.runtime.lockstep import RoundLimitReached, play_range
from ruleset_engine.runtime.program import build

LONG = """\
ruleset: long
title: A long game
state: {{n: 0}}
loop:
  - name: round
    times: {rounds}
    steps:
      - repeat: {{times: 9}}
        do:
          - set: {{n: n + 1}}
end: []
report: {{n: n}}
"""


def game(written, rounds: int):
    path = written.path(LONG.format(rounds=rounds), f"long{rounds}.yaml")
    ruleset = load(str(path))
    return ruleset, resolve_params(ruleset, {})


def test_the_limit_and_its_message():
    assert DEFAULT_RUN_LIMITS.max_game_steps == 100_000_000
    assert game_too_long(1_000) == ("a game went past 1,000 steps in all (its rounds together); a game that long "
                                    "is stopped (fewer rounds, or fewer steps a round)")


@pytest.mark.parametrize("rounds, stopped", [(50, False), (200, True)])
def test_a_game_past_its_steps_in_all_stops_in_both_backends(written, rounds, stopped):
    # A round: the repeat (1 step) and its 9 iterations (1 step each): 10 steps; the limit 1,000 is
    # passed in round 101 (100 rounds before it: 1,000 steps, then 10 more).
    limits = RunLimits(max_game_steps=1_000)
    ruleset, params = game(written, rounds)
    program = build(ruleset, params, traced=False, run_limits=limits)
    totals = Totals()
    if not stopped:
        result, played, report, _ = play_game(program, 1)
        assert (played, report["n"]) == (50, 450)
        play_range(ruleset, params, 1, 0, 20, totals, limits, MAX_ROUNDS)
        assert totals.games == 20
        return
    with pytest.raises(SimulationError) as untraced:
        play_game(program, 1)
    with pytest.raises(RoundLimitReached) as lockstep:
        play_range(ruleset, params, 1, 0, 20, totals, limits, MAX_ROUNDS)
    assert str(untraced.value) == str(lockstep.value) == game_too_long(1_000)
