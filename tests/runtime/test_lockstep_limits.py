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
from ruleset_engine.runtime import RuleError


def ruleset(written, name: str, state: str, steps: str, report: str, times: int = 1) -> str:
    """A one-level ruleset of `times` rounds: `steps` (YAML lines, indented as a step list) each round."""
    body = "".join(f"      {line}\n" for line in steps.strip("\n").splitlines())
    path = written.path(f"ruleset: {name}\ntitle: {name} (test)\nstate: {state}\nloop:\n  - name: round\n"
                    f"    times: {times}\n    steps:\n{body}end: []\nreport: {report}\n", f"{name}.yaml")
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


def test_largest_set_ignores_the_faces_of_each_games_own_ignore_pool(written):
    # 6d6 without the faces of one d6 of the same game: a set of 2.26 dice on average (untraced:
    # 2.2605 over 2,000 games); a backend ignoring every game's ignored face in all games gives 0.
    source = ruleset(written, "ignore", "{kept: 0}", '- set: {kept: "size(largest_set(6d6, ignore=1d6))"}',
                     "{kept: kept}")
    mean = assert_same_mean(source, "kept", 20_000, 4_000)
    assert mean > 2


# ---- dice rolled in one evaluation, dice in one pool: each game's own ------------------------------


def test_the_limit_of_dice_rolled_holds_for_each_game_not_for_the_batch(written):
    # 300d6! rolls 360 dice a game on average: 3,000 games at once roll a million, and each is far
    # from the limit of 100,000. Its total: 300 x 3.5 x 6/5 = 1,260.
    source = ruleset(written, "explode", "{total: 0}", '- set: {total: "sum(300d6!)"}', "{total: total}")
    mean = assert_same_mean(source, "total", 3_000, 400)
    assert abs(mean - 1_260) < 10
    # 5d6rr<6 re-rolls each die until it shows 6 (30 dice a game): 900,000 for 30,000 games.
    source = ruleset(written, "reroll", "{total: 0}", '- set: {total: "sum(5d6rr<6)"}', "{total: total}")
    assert plays(source, 30_000, "lockstep", "total") == 30 == plays(source, 50, "untraced", "total")


def test_a_game_past_the_limit_of_dice_rolled_stops_at_the_same_place(written):
    limit = "this evaluation rolled more than 100,000 dice (re-rolls and explosions included); it was stopped here"
    # Explosions: 1,000 dice exploding on 2..1000 roll about a million dice; stopped at the modifier.
    source = ruleset(written, "blowup", "{t: 0}", '- set: {t: "sum(1000d1000!>=2)"}', "{t: t}")
    assert_same_failure(source, 20, 3, limit)
    assert failure(source, 20, "lockstep").endswith("  sum(1000d1000!>=2)\n               ^~~~")
    # First rolls count too: 101 pools of 1,000 dice in one formula, stopped at the 101st pool.
    many = "+".join(["sum(1000d6)"] * 101)
    source = ruleset(written, "many", "{t: 0}", f'- set: {{t: "{many}"}}', "{t: t}")
    assert_same_failure(source, 20, 3, limit)


def test_a_pool_past_the_limit_of_dice_in_one_pool_stops_at_its_count(written):
    # n triples each round: 729 dice in round 7, 2,187 in round 8, past the limit of 1,000 dice in a pool.
    source = ruleset(written, "triple", "{n: 1, t: 0}", '- set: {t: "sum((n)d6)"}\n- set: {n: "n * 3"}',
                     "{t: t}", times=12)
    assert_same_failure(source, 20, 3, "too many dice in one pool: 2,187 (the limit is 1,000)")
    assert failure(source, 20, "lockstep").endswith("  sum((n)d6)\n      ^~~")
    # Up to the limit it plays: 1,000 dice.
    source = ruleset(written, "thousand", "{n: 1000, t: 0}", '- set: {t: "size((n)d6)"}', "{t: t}")
    assert plays(source, 50, "lockstep", "t") == 1_000


# ---- steps in one action: each game's own ---------------------------------------------------------

BRANCHES = """- repeat: {{times: {times}}}
  do:
    - if: "sum(1d2) == 1"
      then:
        - set: {{a: "a + 1"}}
      else:
        - set: {{b: "b + 1"}}"""


def test_the_limit_of_steps_counts_the_branch_each_game_takes(written):
    # 40,000 iterations of one step (the if) and one step of the branch taken: 80,000 steps a game,
    # under the limit of 100,000, though the batch runs both branches each time.
    source = ruleset(written, "branches", "{a: 0, b: 0}", BRANCHES.format(times=40_000), "{both: a + b}")
    assert plays(source, 50, "lockstep", "both") == 40_000 == plays(source, 2, "untraced", "both")
    # 100,001 iterations of one step would pass the limit alone: refused before the first, in both backends.
    source = ruleset(written, "too-many", "{a: 0, b: 0}", BRANCHES.format(times=100_001), "{both: a + b}")
    assert_same_failure(source, 50, 2, "more than 100,000 steps in one action; stopped in the loop here")


# ---- the limit of numbers -----------------------------------------------------------------------


def test_a_number_kept_past_the_limit_stops_the_game_as_untraced(written):
    # n doubles each round: 2^54 in round 54, past the limit of 2^53 as it is kept (int64 would
    # have held it, and wrapped round to 0 by round 64).
    source = ruleset(written, "doubling", "{n: 1}", '- set: {n: "n + n"}', "{n: n}", times=70)
    assert_same_failure(source, 50, 3, "18,014,398,509,481,984 is past the limit of numbers "
                                       "(9,007,199,254,740,992) (at loop[0].steps[0].set.n)")


def test_a_number_doubled_through_a_roll_stops_at_the_limit_in_both_backends(written):
    # The doubling goes through a local bound by roll: (which kept 2.4e24 untraced, with no error):
    # 2^54 is reached as the roll keeps it, in round 54, alike in lockstep and untraced.
    source = ruleset(written, "doubling-roll", "{n: 1}", '- roll: {d: "n + n"}\n- set: {n: d}', "{n: n}", times=80)
    assert_same_failure(source, 50, 3, "18,014,398,509,481,984 is past the limit of numbers "
                                       "(9,007,199,254,740,992) (at loop[0].steps[0].roll.d)")


def test_a_move_that_sums_past_the_limit_stops_at_the_step_in_both_backends(written):
    # move: computes its sums itself (no formula gives them): 2^53 moved onto 2^53 is 2^54, which
    # lockstep once kept with no error; both backends now hold it where it is stored, at the step.
    source = ruleset(written, "move-past", "{a: 9007199254740992, b: 9007199254740992}",
                     "- move: {count: a, from: a, to: b}", "{b: b}")
    assert_same_failure(source, 50, 3, "18,014,398,509,481,984 is past the limit of numbers "
                                       "(9,007,199,254,740,992) (at loop[0].steps[0])")


def test_a_product_past_the_limit_is_refused_before_int64_wraps_it(written):
    # 2^32 * 2^32 is 2^64, which int64 holds as 0.
    source = ruleset(written, "square", "{n: 4294967296, m: 0}", '- set: {m: "n * n"}', "{m: m}")
    assert_same_failure(source, 50, 3, "4,294,967,296 * 4,294,967,296 is past the limit of numbers "
                                       "(9,007,199,254,740,992)")
    assert failure(source, 50, "lockstep").endswith("  n * n\n  ^~~~~")


# ---- faces a pool of the lockstep backend cannot hold (-32,767..32,767 in int16) -------------------


def test_a_face_set_above_what_a_pool_holds_is_played_untraced(written):
    # min40000 makes each die show 40,000: 120,000 for three. auto plays it untraced (found before
    # any game); lockstep asked for refuses it at the modifier, instead of failing inside numpy.
    source = ruleset(written, "min-big", "{t: 0}", '- set: {t: "sum(3d6min40000)"}', "{t: t}")
    summary = simulate(source, 20, seed=5, backend="auto")
    assert summary.backend == "untraced" and summary.tally.values["t"].total == 20 * 120_000
    with pytest.raises(RuleError) as caught:
        simulate(source, 20, seed=5, backend="lockstep")
    assert "the lockstep backend cannot play the modifier minN giving dice a face its pools cannot hold" \
        in str(caught.value) and ":8:19:" in str(caught.value)
    # A face known only as the game runs: refused in words, at the modifier.
    source = ruleset(written, "min-read", "{m: 40000, t: 0}", '- set: {t: "sum(3d6min(m))"}', "{t: t}")
    message = failure(source, 20, "lockstep")
    assert message.startswith(f"{source}:8:19: the lockstep backend holds faces -32,767..32,767 in a pool, and a game "
                              "put 40000 in one (run it with --backend untraced)"), message
    assert message.endswith("  sum(3d6min(m))\n         ^~~~~~"), message
    assert plays(source, 3, "untraced", "t") == 120_000


@pytest.mark.parametrize("formula, value, why", [
    ("min(sum(1d40000), 1)", 1, "dice of more than 32,767 sides (its pools hold faces -32,767..32,767)"),
    ("sum([3, 40000])", 40_003, "a pool holding a number outside -32,767..32,767 (the faces its pools hold)"),
    ("sum([3, -40000])", -39_997, "a pool holding a number outside -32,767..32,767 (the faces its pools hold)"),
])
def test_numbers_written_that_a_pool_cannot_hold_are_played_untraced(written, formula, value, why):
    source = ruleset(written, "written", "{t: 0}", f'- set: {{t: "{formula}"}}', "{t: t}")
    summary = simulate(source, 10, seed=5, backend="auto")
    assert summary.backend == "untraced" and why in summary.reason
    assert summary.tally.values["t"].total == 10 * value


@pytest.mark.parametrize("formula, value", [
    # 0 and less are faces like any other (an empty slot is a value below every face).
    ("size([0, 3])", 2), ("sum([3, -2])", 1), ("size(3d6max0)", 3), ("sum(3d6max0)", 0),
    ("count([0, -1, 0], == 0)", 2), ("highest([0, -5], default=9)", 0), ("size(largest_set([0, 0, -1]))", 2),
])
def test_numbers_of_0_or_less_in_a_pool_play_in_lockstep(written, formula, value):
    source = ruleset(written, "low", "{t: 0}", f'- set: {{t: "{formula}"}}', "{t: t}")
    assert simulate(source, 10, seed=5, backend="auto").backend == "lockstep"
    assert plays(source, 10, "lockstep", "t") == value == plays(source, 10, "untraced", "t")


def test_a_die_showing_the_most_a_pool_holds_is_sorted_as_a_die(written):
    # Every d32767 shows 32,767 after min32767: sorted either way, three dice total 98,301.
    for descending in ("false", "true"):
        source = ruleset(written, f"sort-{descending}", "{t: 0}",
                         f'- set: {{t: "sum(sort(3d32767min32767, descending={descending}))"}}', "{t: t}")
        assert plays(source, 50, "lockstep", "t") == 98_301 == plays(source, 3, "untraced", "t")
