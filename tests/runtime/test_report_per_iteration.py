"""A report value read per iteration of the outermost loop level (report: per:), worked by hand on
tests/rulesets/deaths-per-hour.yaml: four people, three hours, each hour a d6 for each one alive
and a 1 kills; `deaths` counts the hour's dead. A game plays hour k when someone is alive as it
begins, chance 1 - (1 - (5/6)^(k-1))^4, and then loses 4 (5/6)^(k-1) / 6 people on average, divided
by that chance (no one dies in an hour no one is alive in)."""

import re
from math import sqrt

import pytest

from ruleset_engine.analysis.simulate import played_game, simulate, simulation_program
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import resolve_params
from ruleset_engine.runtime.vectorizable import refusal
from tests.runtime.helpers import ruleset


def alive_at(k):
    return 1 - (1 - (5 / 6) ** (k - 1)) ** 4


def test_each_game_keeps_the_value_of_each_hour_it_played():
    r = ruleset("deaths-per-hour")
    program = simulation_program(r, resolve_params(r, {}))
    for seed in range(60):
        result, _, report, _, _, tallies = played_game(program, seed)
        hours = tallies["deaths"]
        # Every hour played is read once; the dead of all hours are the four less those alive.
        assert sum(hours.values()) == 4 - report["alive"]
        assert list(hours) == list(range(1, len(hours) + 1))
        assert len(hours) == 3 or result == "wiped"         # a wiped game ends in the hour it is read in
        assert hours[len(hours)] == report["deaths"]        # the last hour's, as the game ended
    assert refusal(r, resolve_params(r, {})) is None


@pytest.mark.parametrize("backend", ["untraced", "lockstep"])
def test_simulate_gives_the_mean_of_each_hour_worked_out(backend):
    games = 20_000
    report = simulate(str(ruleset("deaths-per-hour").file), games, seed=11, backend=backend).to_json()["report"]
    per = report["deaths"]["per"]
    assert per["level"] == "hour" and [row["iteration"] for row in per["iterations"]] == [1, 2, 3]
    assert "per" not in report["alive"]
    for row in per["iterations"]:
        k = row["iteration"]
        played = alive_at(k)
        # games that played hour k: binomial; the hour's dead: at most 4, so an SE under 2 / sqrt(games)
        assert abs(row["games"] - games * played) <= 5 * sqrt(games * played * (1 - played)) + 1
        want = 4 * (5 / 6) ** (k - 1) / 6 / played
        assert abs(row["mean"] - want) <= 5 * 2 / sqrt(row["games"]), (backend, row, want)
    assert per["iterations"][0]["games"] == games       # every game plays the first hour


def test_the_terminal_shows_a_line_per_hour():
    from ruleset_engine.cli import per_lines
    per = {"level": "hour", "iterations": [{"iteration": 1, "games": 20, "mean": 0.5},
                                           {"iteration": 10, "games": 3, "mean": 1.25}]}
    assert per_lines(per, indent=2) == ["  hour  1  mean 0.50  (20 games)", "  hour 10  mean 1.25  (3 games)"]


BASE = """\
ruleset: t
title: T
state: {n: 0}
loop:
  - {name: night, max: 2}
  - {name: hour, max: 2, steps: [{set: {n: n + 1}}]}
report:
  n: {value: n, per: LEVEL}
"""


@pytest.mark.parametrize("level, message", [
    ("hour", "per: takes the outermost loop level, 'night' ('hour' is inside it: its iterations start again from 1)"),
    ("day", "per: takes the outermost loop level, 'night' ('day' is no loop level)"),
])
def test_a_level_that_is_not_the_outermost_is_refused(written, level, message):
    with pytest.raises(RulesetError, match=re.escape(message)):
        written(BASE.replace("LEVEL", level))


def test_two_levels_read_per_night(written):
    # n counts the hours: 2 as night 1 ends, 4 as night 2 ends, the same in every game and backend.
    r = written(BASE.replace("LEVEL", "night"))
    for backend in ("untraced", "lockstep"):
        per = simulate(str(r.file), 10, seed=1, backend=backend).to_json()["report"]["n"]["per"]
        assert per["iterations"] == [{"iteration": 1, "games": 10, "mean": 2.0},
                                     {"iteration": 2, "games": 10, "mean": 4.0}]
