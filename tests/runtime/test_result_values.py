"""Results that carry a value (end: value:, text:, distribution:), worked by hand on
tests/rulesets/result-values.yaml: three people, two hours, each hour a d6 for each one alive and a 1
kills. Each survives both hours with p = 25/36 (q = 11/36): the night ends `wiped` with chance q^3,
else at `dawn` carrying how many are alive, Binomial(3, p) given at least one."""

import re
from math import comb, sqrt

import pytest

from ruleset_engine.analysis.simulate import played_game, simulate, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import Game, RuleError, resolve_params
from ruleset_engine.runtime.vectorizable import refusal
from tests.runtime.helpers import kinds, ruleset

P, Q = 25 / 36, 11 / 36


def test_the_table_shows_the_value_and_the_text_of_the_result():
    # Hour 1: 1 2 3 (one dies, two left); hour 2: 1 5 (one more dies): dawn with 1.
    game = Game.start(ruleset("result-values"), rng=ScriptedDice([1, 2, 3, 1, 5]))
    game.perform("hour")
    outcome = game.perform("hour")
    assert (game.over, game.result) == (True, "dawn")
    end, = kinds(outcome.events, "end")
    assert (end["value"], end["text"]) == (1, "1 of 3 see the dawn.")
    # Hour 1: 1 1 3; hour 2: a 1: none left, the at-once end (a text, no value).
    game = Game.start(ruleset("result-values"), rng=ScriptedDice([1, 1, 3, 1]))
    game.perform("hour")
    end, = kinds(game.perform("hour").events, "end")
    assert end["result"] == "wiped" and end["text"] == "No one is left." and "value" not in end


def test_the_text_is_in_the_game_over_line():
    from ruleset_engine.repl.render import Style, event
    shown = event({"kind": "end", "result": "dawn", "value": 2, "text": "2 of 3 see the dawn."}, Style())
    assert shown.plain == "The game is over: dawn. 2 of 3 see the dawn."
    assert event({"kind": "end", "result": "done"}, Style()).plain == "The game is over: done."


def test_the_untraced_program_carries_the_same_value_as_the_table():
    r = ruleset("result-values")
    program = simulation_program(r, resolve_params(r, {}))
    seen = set()
    for seed in range(40):
        result, _, _, rng, value = played_game(program, seed)[:5]
        table = Game.start(r, seed=seed, auto=True)
        while not table.over:
            table.perform("hour")
        end, = [e for e in table.log if e["kind"] == "end"]
        assert (result, value, rng.getstate()) == (table.result, end.get("value"), table.rng.getstate())
        assert (value is None) == (result == "wiped") and value in (None, 1, 2, 3)
        seen.add(result)
    assert seen == {"dawn"} or seen == {"dawn", "wiped"}
    assert refusal(r, resolve_params(r, {})) is None            # lockstep plays it


@pytest.mark.parametrize("backend", ["untraced", "lockstep"])
def test_simulate_reports_the_value_with_the_chances_worked_out(backend):
    games = 20_000
    results = simulate(str(ruleset("result-values").file), games, seed=7, backend=backend).to_json()["results"]
    wiped = results["wiped"]["rate"]
    assert abs(wiped - Q ** 3) <= 5 * sqrt(Q ** 3 * (1 - Q ** 3) / games)
    assert "value" not in results["wiped"]
    value = results["dawn"]["value"]
    dawn = results["dawn"]["count"]
    assert value["games"] == dawn and (value["min"], value["max"]) == (1, 3)
    alive = 1 - Q ** 3
    # The mean of Binomial(3, p) given at least one: 3p / (1 - q^3) = 2.1445; its sd under 1.
    assert abs(value["mean"] - 3 * P / alive) <= 5 * 1 / sqrt(dawn)
    rows = value["distribution"]
    assert [row["value"] for row in rows] == [1, 2, 3] and sum(row["count"] for row in rows) == dawn
    for row in rows:
        k = row["value"]
        want = comb(3, k) * P ** k * Q ** (3 - k) / alive
        assert abs(row["rate"] - want) <= 5 * sqrt(want * (1 - want) / dawn), (row, want)
        assert row["rate"] == round(row["count"] / dawn, 6)


BASE = """\
ruleset: t
title: T
state: {alive: 3, who: {text: Ana}}
loop:
  - {name: hour, max: 3, steps: []}
end:
  - {when: loop.hour.done == 2, result: dawn, END}
"""


@pytest.mark.parametrize("end, message", [
    ("distribution: true", "distribution: shows the values of value:, and this result has no value: give it one"),
    ('text: "{value} left"', "unknown name 'value'"),
    ("value: sum(2d6)", "so it cannot roll dice"),
])
def test_misuse_is_refused_at_load(written, end, message):
    with pytest.raises(RulesetError, match=re.escape(message)):
        written(BASE.replace("END", end))


def test_a_text_value_is_refused_before_any_game(written):
    r = written(BASE.replace("END", "value: who"))
    with pytest.raises(RuleError, match=re.escape("a report gives a number (a pool gives its total) or true/false")):
        simulation_program(r, resolve_params(r, {}))


def test_a_value_read_as_the_end_is_checked_after_the_action(written):
    # One less each hour: after the second action alive is 1, the end holds, its value 10.
    r = written(BASE.replace("steps: []", "steps: [{set: {alive: alive - 1}}]")
                .replace("{when: loop.hour.done == 2, result: dawn, END}", "{when: alive == 1, result: low, value: alive * 10}"))
    program = simulation_program(r, resolve_params(r, {}))
    assert played_game(program, 1)[::4] == ("low", 10)
    for backend in ("untraced", "lockstep"):
        value = simulate(str(r.file), 20, seed=1, backend=backend).to_json()["results"]["low"]["value"]
        assert (value["mean"], value["games"]) == (10, 20)


def test_a_true_false_value_is_a_rate(written):
    r = written(BASE.replace("END", "value: alive == 3"))
    for backend in ("untraced", "lockstep"):
        value = simulate(str(r.file), 50, seed=1, backend=backend).to_json()["results"]["dawn"]["value"]
        assert value["rate"] == 1.0 and value["games"] == 50
