"""Every limit counts the same at the table (traced) and in a simulation (untraced): the same error,
at the same place, from the one lowered form. The first two are the reproductions of the issue
that made the engine one engine: a loop refused at the table but finished by simulate, and
`min(3d6)` silently leaving the fast path."""

import json
import subprocess
import sys
import textwrap

import pytest

from ruleset_engine.analysis.simulate import SimulationError, play_game, simulate, simulation_program
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game, RuleError, resolve_params

HEAD = "ruleset: limits\ntitle: Limits\n"


def write(written, body: str):
    path = written.path(HEAD + textwrap.dedent(body), "limits.yaml")
    return path


def table_error(path) -> str:
    ruleset = load(str(path))
    game = Game.start(ruleset, seed=1, auto=True)
    with pytest.raises(RuleError) as info:
        while not game.over:
            before = game.snapshot()
            game.perform("round")
    after = game.snapshot()
    # The round that failed left no trace: the values, the turn and the dice as before it.
    assert (after["values"], after["turn"], after["rng"]) == (before["values"], before["turn"], before["rng"])
    return str(info.value)


def simulation_error(path) -> str:
    ruleset = load(str(path))
    program = simulation_program(ruleset, resolve_params(ruleset, {}))
    with pytest.raises(RuleError) as info:
        play_game(program, 1)
    return str(info.value)


def play_both_ways(path, seeds=range(10)) -> list[dict]:
    """Each seed's game in both modes; asserts they end alike and gives the reports."""
    ruleset = load(str(path))
    program = simulation_program(ruleset, resolve_params(ruleset, {}))
    reports = []
    for seed in seeds:
        result, rounds, report, rng = play_game(program, seed)
        game = Game.start(ruleset, seed=seed, auto=True)
        turns = 0
        while not game.over:
            game.perform("round")
            turns += 1
        assert (result, rounds, report, rng.getstate()) == (game.result, turns, game.report(), game.rng.getstate())
        reports.append(report)
    return reports


NESTED = """\
    state: {n: 0}
    loop:
      - name: round
        max: 3
        steps:
          - repeat: {times: 300}
            do:
              - repeat: {times: 400}
                do: [{set: {n: n + 1}}]
    """


def test_nested_loops_past_the_step_limit_are_refused_in_both_modes(written):
    path = write(written, NESTED)
    table, simulation = table_error(path), simulation_error(path)
    assert table == simulation
    assert "more than 100,000 steps in one action; stopped in the loop here" in table
    assert table.startswith(f"{path}:")                    # named where the inner loop was written
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "simulate", str(path), "-n", "3"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "more than 100,000 steps" in out.stderr and "Traceback" not in out.stderr


def test_a_loop_just_under_the_limit_finishes_in_both_modes(written):
    # 240 x 400 = 96,000 set steps, plus one repeat step per outer turn and the round's own: under 100,000.
    path = write(written, NESTED.replace("300", "240") + "report: {n: n}\n")
    data = simulate(str(path), 1, seed=2).to_json()
    assert data["results"] == {"done": {"count": 1, "rate": 1.0, "ci95": data["results"]["done"]["ci95"]}}
    assert data["report"]["n"]["mean"] == 3 * 240 * 400
    game = Game.start(load(str(path)), seed=2, auto=True)
    while not game.over:
        game.perform("round")
    assert game.report() == {"n": 3 * 240 * 400}


def test_min_of_one_pool_runs_in_both_modes(written):
    path = write(written, """\
        state: {total: 0, low: 99}
        loop:
          - name: round
            max: 20
            steps:
              - set: {total: "total + min(3d6)", low: "min(low, max(2d6))"}
        report: {total: total, low: low}
        """)
    for report in play_both_ways(path):
        assert 20 * 3 <= report["total"] <= 20 * 18 and 2 <= report["low"] <= 12


def test_calls_without_end_are_stopped_in_both_modes(written):
    path = write(written, """\
        state: {n: 0}
        procedures:
          again: {steps: [{set: {n: n + 1}}, {call: again}]}
        loop:
          - name: round
            max: 2
            steps: [{call: again}]
        """)
    table, simulation = table_error(path), simulation_error(path)
    assert table == simulation and "calls nested more than 64 deep: 'again' calls itself" in table


def test_dice_past_the_evaluation_limit_are_stopped_in_both_modes(written):
    # A total that 1d2 can never lift to 1000: re-rolled until the dice limit stops it.
    path = write(written, """\
        state: {x: 0, got: 0}
        loop:
          - name: round
            max: 2
            steps: [{set: {got: "reroll(x + 1d2, < 1000)"}}]
        """)
    table, simulation = table_error(path), simulation_error(path)
    assert table == simulation and "rolled more than 100,000 dice" in table
    assert "reroll(x + 1d2, < 1000)" in table and "^" in table     # the formula, with its caret


def test_a_simulation_error_names_the_game_and_its_seed(written):
    path = write(written, NESTED)
    with pytest.raises(SimulationError, match=r"game 0 \(seed \d+\) stopped: .*more than 100,000 steps"):
        simulate(str(path), 2, seed=0)


def test_simulate_json_of_a_ruleset_with_the_limit_hit_is_an_error_not_a_report(written):
    path = write(written, NESTED)
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "simulate", str(path), "-n", "2", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and out.stdout == ""
    with pytest.raises(json.JSONDecodeError):
        json.loads(out.stdout)


def test_a_rule_that_fails_fails_alike_in_both_modes_named_where_it_was_written(written):
    # The old fast path stepped aside here and replayed the game interpreted; now both modes say it.
    path = write(written, """\
        state: {n: 0, x: 3}
        loop:
          - name: round
            max: 3
            steps: [{set: {n: "n + x // (n - n)"}}]
        """)
    table, simulation = table_error(path), simulation_error(path)
    assert table == simulation and "division by zero" in table
    assert "n + x // (n - n)" in table and table.splitlines()[-1].strip().startswith("^")
    with pytest.raises(SimulationError, match="division by zero"):
        simulate(str(path), 1)


def test_what_a_procedure_parameter_set_aside_is_read_alike_in_both_modes(written):
    # aside() of a parameter: the old fast path could not know it and left it to the interpreter.
    path = write(written, """\
        state: {total: 0}
        loop:
          - name: round
            max: 20
            steps: [{call: outer}]
        procedures:
          outer: {steps: [{call: inner, with: {p: "unpair(4d3)"}}]}
          inner: {params: [p], steps: [{set: {total: "total + size(aside(p)) + 1d6"}}]}
        report: {total: total}
        """)
    for report in play_both_ways(path):
        # Four dice of three faces always hold a pair, and at most two: each round adds 1..2 and 1d6.
        assert 20 * 2 <= report["total"] <= 20 * 8
