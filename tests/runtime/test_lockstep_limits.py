"""The lockstep backend against the untraced one where they once parted: rules that read each game's
own values (largest_set's ignore=), the limits of work and of values (dice rolled in one evaluation,
dice in one pool, steps in one action, numbers), and faces a pool of the lockstep backend cannot hold.

A limit is passed in lockstep exactly where the untraced program passes it: the same message at the
same place (the untraced mode names one game, lockstep the range of games it was playing). A value is
compared statistically: the means of the two backends differ by less than 5 standard errors of the
difference (sqrt(se_a^2 + se_b^2), each from its own games), at the N stated in each test; the runs
are seeded, so each test is deterministic, and a correct backend fails one by chance with probability
below 10^-6.
"""

from __future__ import annotations

import math

import pytest

from ruleset_engine.analysis.simulate import SimulationError, simulate


def ruleset(tmp_path, name: str, state: str, steps: str, report: str, times: int = 1) -> str:
    """A one-level ruleset of `times` rounds: `steps` (YAML lines, indented as a step list) each round."""
    body = "".join(f"      {line}\n" for line in steps.strip("\n").splitlines())
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"ruleset: {name}\ntitle: {name} (test)\nstate: {state}\nloop:\n  - name: round\n"
                    f"    times: {times}\n    steps:\n{body}end: []\nreport: {report}\n")
    return str(path)


def mean_and_se(source: str, games: int, backend: str, key: str) -> tuple[float, float]:
    histogram = simulate(source, games, seed=5, backend=backend).tally.values[key]
    assert histogram.width == 1
    n = histogram.n
    mean = histogram.total / n
    variance = sum(c * (v - mean) ** 2 for v, c in histogram.counts.items()) / max(1, n - 1)
    return mean, math.sqrt(variance / n)


def assert_same_mean(source: str, key: str, lockstep_games: int, untraced_games: int) -> float:
    (ml, sl), (mu, su) = (mean_and_se(source, lockstep_games, "lockstep", key),
                          mean_and_se(source, untraced_games, "untraced", key))
    bound = 5 * math.sqrt(sl * sl + su * su)
    assert abs(ml - mu) <= bound, f"{key}: lockstep {ml:.4f}, untraced {mu:.4f}, more than 5 SE ({bound:.4f}) apart"
    return ml


def failure(source: str, games: int, backend: str) -> str:
    """What a run that stops says, from its place on (the games it names differ by backend)."""
    with pytest.raises(SimulationError) as caught:
        simulate(source, games, seed=5, backend=backend)
    message = str(caught.value)
    assert " stopped: " in message, message
    return message.split(" stopped: ", 1)[1]


def assert_same_failure(source: str, lockstep_games: int, untraced_games: int, expected: str) -> None:
    lockstep, untraced = failure(source, lockstep_games, "lockstep"), failure(source, untraced_games, "untraced")
    assert lockstep == untraced, f"lockstep: {lockstep}\nuntraced: {untraced}"
    assert expected in lockstep, lockstep


def plays(source: str, games: int, backend: str, key: str) -> float:
    summary = simulate(source, games, seed=5, backend=backend)
    assert summary.backend == backend and summary.tally.games == games
    histogram = summary.tally.values[key]
    return histogram.total / histogram.n


# ---- rules that read each game's own values -----------------------------------------------------


def test_largest_set_ignores_the_faces_of_each_games_own_ignore_pool(tmp_path):
    # 6d6 without the faces of one d6 of the same game: a set of 2.26 dice on average (untraced:
    # 2.2605 over 2,000 games); a backend ignoring every game's ignored face in all games gives 0.
    source = ruleset(tmp_path, "ignore", "{kept: 0}", '- set: {kept: "size(largest_set(6d6, ignore=1d6))"}',
                     "{kept: kept}")
    mean = assert_same_mean(source, "kept", 20_000, 4_000)
    assert mean > 2
