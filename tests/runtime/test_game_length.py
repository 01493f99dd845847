"""A simulation never waits in silence for games that cannot end (issue: `dusk simulate
vampire-the-masquerade --backend lockstep` printed nothing for minutes). A ruleset with no way for a
game to end but its loop running out, whose loop is longer than the limit of rounds, is refused before
any game, in every backend, with the limit in the words a game past it stops with; the bound
(game_length.fewest_rounds) is worked out by hand here and checked against what both backends play."""

import re
from pathlib import Path

import pytest

from ruleset_engine.analysis import simulate as simulate_module
from ruleset_engine.analysis.simulate import MAX_ROUNDS, SimulationError, play_game, simulate, simulation_program
from ruleset_engine.analysis.summary import Totals
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, RuleError, resolve_params
from ruleset_engine.runtime.game_length import fewest_rounds, refuse_endless
from ruleset_engine.runtime.lockstep import RoundLimitReached, play_range

# Three levels of 200, 100 and 60 iterations: 1,200,000 rounds, and nothing ends a game sooner.
ENDLESS = """\
ruleset: endless
title: A clock, not a game
state: {n: 0}
loop:
  - {name: night, max: 200}
  - {name: scene, max: 100}
  - name: turn
    times: 60
    max: 1000
    steps:
      - set: {n: n + 1}
end: []
report: {n: n}
"""

REFUSED = ("t.yaml:5:5: every game would go past 1,000,000 rounds, so none is played: no end: condition and no end: "
           "step can end a game before its loop has run out, and the loop plays 1,200,000 rounds (night 200 x scene "
           "100 x turn 60); a simulation needs a way for a game to end")


@pytest.mark.parametrize("backend", ["lockstep", "untraced", "auto"])
def test_a_game_that_cannot_end_within_the_limit_is_refused_before_any_game(written, monkeypatch, backend):
    path = written.path(ENDLESS)
    assert fewest_rounds(written(ENDLESS)) == 200 * 100 * 60 > MAX_ROUNDS

    def played(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(simulate_module, "play_task", played)
    with pytest.raises(RuleError) as refused:
        simulate(str(path), 3, seed=1, backend=backend)
    assert str(refused.value).endswith(REFUSED) and "/" + REFUSED in str(refused.value)


def test_the_command_says_so_in_one_line(written):
    import subprocess
    import sys

    path = written.path(ENDLESS)
    for backend in ("lockstep", "untraced"):
        out = subprocess.run([sys.executable, "-m", "ruleset_engine", "simulate", str(path), "-n", "300",
                              "--backend", backend], capture_output=True, text=True, timeout=120)
        assert out.returncode == 1 and out.stdout == ""
        assert out.stderr == f"dusk simulate: {path.parent}/{REFUSED}\n"


# One level of 2 x 3 = 6 rounds. Each variant below adds a way to end sooner (the bound is then 0), or
# one that cannot end a game sooner (the bound stays 6).
SIX = """\
ruleset: six
title: Six rounds
state: {{n: 0}}
params: {{k: {{type: integer, default: 2}}}}
loop:
  - name: outer
    times: {outer}
    then: [{then}]
  - name: inner
    max: 3
    steps:
      - set: {{n: n + 1}}
      {step}
end: [{end}]
triggers: [{trigger}]
report: {{n: n}}
"""

PLAIN = {"outer": "2", "then": "", "step": "", "end": "", "trigger": ""}


@pytest.mark.parametrize("change, rounds", [
    ({}, 6),
    ({"then": "{end: game, result: late}"}, 6),          # the outermost then: runs once the loop ran out
    ({"outer": "params.k"}, 0),                         # a formula: read as the game plays
    ({"outer": "0"}, 0),
    ({"end": "{when: n > 4, result: early}"}, 0),
    ({"step": "- {if: n > 4, then: [{end: game, result: early}]}"}, 0),
    ({"step": "- {if: n > 4, then: [{end: outer}]}"}, 0),
    ({"trigger": "{when: n > 1, do: [{end: inner}]}"}, 0),
])
def test_the_fewest_rounds_worked_out_by_hand(written, change, rounds):
    assert fewest_rounds(written(SIX.format(**{**PLAIN, **change}))) == rounds


@pytest.mark.parametrize("limit, refused", [(6, False), (5, True)])
def test_the_bound_is_what_both_backends_play(written, limit, refused):
    # The games of SIX play exactly 6 rounds: a limit of 6 lets them end in both backends, and a limit
    # of 5 stops them in both, which the bound refuses before any game.
    ruleset = written(SIX.format(**PLAIN))
    params = resolve_params(ruleset, {})
    program = simulation_program(ruleset, params)
    totals = Totals()
    if not refused:
        refuse_endless(ruleset, limit)
        assert play_game(program, 1, limit)[:2] == ("done", 6)
        play_range(ruleset, params, 1, 0, 4, totals, DEFAULT_RUN_LIMITS, limit)
        assert totals.games == 4 and totals.to_json()["length"]["mean"] == 6
        return
    with pytest.raises(RuleError) as before:
        refuse_endless(ruleset, limit)
    assert "every game would go past 5 rounds" in str(before.value) and "(outer 2 x inner 3)" in str(before.value)
    with pytest.raises(SimulationError, match="^a game went past 5 rounds$"):
        play_game(program, 1, limit)
    with pytest.raises(RoundLimitReached, match="^a game went past 5 rounds$"):
        play_range(ruleset, params, 1, 0, 4, totals, DEFAULT_RUN_LIMITS, limit)


# Every ruleset in the bundled folders (its chapters and sheets, beside it in folders, have no top-level
# ruleset: and are not simulated). Those with no end are refused with the limit's words; every other one
# plays its games in lockstep to a report. Either way the run says something: never a silent wait.
ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted(p for p in (ROOT / "rulesets").rglob("*.yaml") if re.search(r"^ruleset:", p.read_text("utf-8"), re.M))
NO_END = {"vampire-the-masquerade.yaml", "vtm-tens-count-twice.yaml"}    # a toolkit's clock, and a house rule of it


def test_every_bundled_ruleset_is_found():
    assert {p.name for p in BUNDLED} >= NO_END | {"attack-of-the-vampires.yaml", "noche-de-los-vampiros.yaml",
                                                   "vtm-duel.yaml", "noche-long-hours.yaml"}


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_every_bundled_ruleset_ends_in_lockstep_or_is_refused(path):
    if path.name in NO_END:
        with pytest.raises(RuleError, match="every game would go past 1,000,000 rounds, so none is played"):
            simulate(str(path), 12, seed=3, backend="lockstep")
        return
    summary = simulate(str(path), 12, seed=3, backend="lockstep")
    assert summary.backend == "lockstep" and summary.tally.games == 12
    assert sum(r["count"] for r in summary.to_json()["results"].values()) == 12


# A game that may end but goes on long: lockstep plays the rounds of its few long games slowly
# (~0.2 ms a round, measured), so a long game is said as it grows, at 10,000 rounds and ten times as many.
LONG = """\
ruleset: long
title: A long game
state: {{n: 0}}
loop:
  - name: turn
    times: {rounds}
    steps:
      - set: {{n: n + 1}}
end: []
report: {{n: n}}
"""


def test_lockstep_tells_of_a_game_as_it_grows_long(written):
    # 120 rounds a game, told from 10: at round 10 and round 100, once for the four games played together.
    ruleset = written(LONG.format(rounds=120))
    told = []
    totals = Totals()
    play_range(ruleset, resolve_params(ruleset, {}), 1, 0, 4, totals, DEFAULT_RUN_LIMITS, MAX_ROUNDS,
               on_long=told.append, long_from=10)
    assert told == [10, 100] and totals.games == 4


def test_the_command_says_a_long_lockstep_game_goes_on(written):
    import subprocess
    import sys

    path = written.path(LONG.format(rounds=10_000))
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "simulate", str(path), "-n", "2",
                          "--backend", "lockstep"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "length in rounds: mean 10,000.0, median 10000" in out.stdout
    assert out.stderr.splitlines()[1:] == [
        "dusk simulate: games 0..1 (lockstep): a game has played 10,000 rounds and goes on (one past 1,000,000 "
        "rounds stops the run); lockstep plays the rounds of a few long games slowly, --backend untraced plays "
        "them faster"]
