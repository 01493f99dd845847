"""The vector forms of the queries over a group and of ask with choose: (ruleset/queries.py,
steps/people.py), played by the lockstep backend for many games at once.

Each game rolls the size of its group (1 to 4 people, person i with blood i), so the games of one
batch hold groups of different sizes, and every query's answer is worked out by hand as a function
of that size n: the ruleset counts the games where a query gives anything else, which must be none,
in both backends. Then the test rulesets that call them play the same games in both backends (the
parity of tests/runtime/test_lockstep.py), and a query that fails says what the untraced one says.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.analysis.simulate import simulate

from .test_lockstep import RULESETS, assert_parity

ROOT = Path(__file__).resolve().parents[2]

# By hand, with n people of blood 1..n (names A, B, C, D):
#   how_many(blood > 1) = n - 1; any_of(blood == 3) = n >= 3; all_of(blood < 4) = n < 4;
#   sum_of(blood) = n(n+1)/2; sum_of(blood, where=blood % 2 == 0) = 2, 2, 6 for n = 2, 3, 4;
#   max_of(blood) = n; min_of(blood, where=blood > 1, default=0) = 2, or 0 when n = 1;
#   first_of(blood >= 2).name = B (n >= 2); instance(person, n).blood = n; person[1].name = A;
#   best_of(blood % 2, 0 - blood).name: the odd bloods score 1, the lowest wins the tie: A always;
#   best_of(blood % 2).name: a tie of every odd blood goes to the first in the group: A;
#   best_of(0 - blood % 2, blood).name: the even bloods, highest: B, B, D for n = 2, 3, 4 (A for 1);
#   list_of(name, where=blood <= 2) = A, or "A and B" for n >= 2.
# A game where any of these differs counts once in `wrong`; `size` is n.
QUERIES = """ruleset: queries-by-hand
title: Queries worked by hand (test)
entities:
  person:
    count: "sum(1d4)"
    names: "{'A' if index == 1 else 'B' if index == 2 else 'C' if index == 3 else 'D'}"
    fields: {blood: index}
state: {wrong: 0, size: 0, chosen: 0, picked: {text: ""}}
loop:
  - name: round
    times: 1
    steps:
      - let: {n: "how_many(person, true)"}
      - let:
          bad: >-
            how_many(person, blood > 1) != n - 1
            or any_of(person, blood == 3) != (n >= 3)
            or all_of(person, blood < 4) != (n < 4)
            or sum_of(person, blood) != n * (n + 1) // 2
            or sum_of(person, blood, where=blood % 2 == 0) != (0 if n < 2 else 2 if n < 4 else 6)
            or max_of(person, blood) != n
            or min_of(person, blood, where=blood > 1, default=0) != (0 if n == 1 else 2)
            or (n >= 2 and first_of(person, blood >= 2).name != 'B')
            or instance(person, n).blood != n
            or person[1].name != 'A'
            or best_of(person, blood % 2, 0 - blood).name != 'A'
            or best_of(person, blood % 2).name != 'A'
            or best_of(person, 0 - blood % 2, blood).name != ('A' if n == 1 else 'D' if n == 4 else 'B')
            or list_of(person, name, where=blood <= 2) != ('A' if n == 1 else 'A and B')
      - ask: "Who speaks?"
        as: who
        choose: {of: person, where: blood >= n - 1}
        auto: "best_of(person, blood, where=blood < n or n == 1)"
      - ask: "Who keeps watch?"
        as: watch
        choose: {of: person, where: blood != 1, min: 0, max: 2}
        auto: blood % 2 == 0
      - let: {k: 0}
      - for_each: w
        in: watch
        do: [{set: {k: k + w.blood}}]
      # By hand: who is n - 1 (n >= 2: the best below n, offered as n - 1 >= 1) or A (n = 1: A is
      # offered, blood >= 0); the watch is the even bloods but 1 (none is 1): 0, 2, 2, 2 + 4 for n = 1..4.
      - set:
          wrong: "wrong + (1 if bad or who.blood != max(1, n - 1) or k != (6 if n == 4 else 2 if n >= 2 else 0) else 0)"
          size: n
          chosen: k
report: {wrong: wrong, size: size, chosen: chosen}
"""


@pytest.mark.parametrize("backend", ["lockstep", "untraced"])
def test_every_query_and_choice_gives_what_is_worked_out_by_hand_for_each_size(written, backend):
    path = written.path(QUERIES, "queries.yaml")
    run = simulate(str(path), 4_000 if backend == "lockstep" else 800, seed=4, backend=backend)
    assert run.backend == backend
    assert run.tally.values["wrong"].counts == {0: run.tally.games}
    assert set(run.tally.values["size"].counts) == {1, 2, 3, 4}      # each size was played
    sizes, chosen = run.tally.values["size"].counts, run.tally.values["chosen"].counts
    assert chosen[6] == sizes[4] and chosen[0] == sizes[1] and chosen[2] == sizes[2] + sizes[3]


@pytest.mark.parametrize("name", ["group-queries", "choose-among"])
def test_the_query_rulesets_play_the_same_games_in_lockstep(name):
    run = simulate(str(RULESETS / f"{name}.yaml"), 20, seed=1, backend="auto")
    assert run.backend == "lockstep"           # --backend auto: nothing refused
    assert_parity(str(RULESETS / f"{name}.yaml"), 20_000, 4_000)


def dusk(*args):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


@pytest.mark.parametrize("formula, said", [
    ("first_of(person, blood > 9).name", "first_of(..): no person meets the test (ask any_of(..) first)"),
    ("instance(person, 5).blood", "instance(..): person has "),
    ("max_of(person, blood, where=blood > 9)", "max_of(..) of no instance: no person meets the test"),
    ("best_of(person, blood, where=blood > 9).name", "best_of(..): no person meets the test"),
])
def test_a_query_that_fails_says_what_the_untraced_backend_says(written, formula, said):
    path = written.path(QUERIES.replace('      - let: {n: "how_many(person, true)"}\n',
                                    '      - let: {n: "how_many(person, true)"}\n      - let: {x: "%s"}\n' % formula), "fails.yaml")
    lockstep = dusk("simulate", str(path), "-n", "20", "--backend", "lockstep")
    untraced = dusk("simulate", str(path), "-n", "20", "--backend", "untraced")
    assert lockstep.returncode == untraced.returncode == 1 and "Traceback" not in lockstep.stderr
    assert said in lockstep.stderr and said in untraced.stderr, (lockstep.stderr, untraced.stderr)
    place = untraced.stderr.split("stopped: ")[1].split(" ")[0]
    assert place.startswith(f"{path}:14:") and place in lockstep.stderr, (place, lockstep.stderr)


def test_a_choice_with_nothing_offered_says_what_the_untraced_backend_says(written):
    path = written.path(QUERIES.replace("where: blood >= n - 1}", "where: blood > 9}"), "none.yaml")
    lockstep = dusk("simulate", str(path), "-n", "20", "--backend", "lockstep")
    untraced = dusk("simulate", str(path), "-n", "20", "--backend", "untraced")
    said = "nothing to choose: no person is offered"
    assert lockstep.returncode == untraced.returncode == 1
    assert said in lockstep.stderr and said in untraced.stderr, (lockstep.stderr, untraced.stderr)


@pytest.mark.parametrize("old, new", [
    # Several chosen, more than max: allows (n = 4 picks bloods 2 and 4, with max: 1).
    ("where: blood != 1, min: 0, max: 2}", "where: blood != 1, min: 0, max: 1}"),
    # One chosen that is not offered (A, blood 1, is offered only when n <= 2).
    ('auto: "best_of(person, blood, where=blood < n or n == 1)"', 'auto: "person[1]"'),
])
def test_an_auto_choice_not_valid_says_what_the_untraced_backend_says(written, old, new):
    assert old in QUERIES
    path = written.path(QUERIES.replace(old, new), "invalid.yaml")
    lockstep = dusk("simulate", str(path), "-n", "40", "--backend", "lockstep")
    untraced = dusk("simulate", str(path), "-n", "40", "--backend", "untraced")
    assert lockstep.returncode == untraced.returncode == 1 and "Traceback" not in lockstep.stderr
    said = "the auto: answer is not valid: "
    assert said in lockstep.stderr and said in untraced.stderr, (lockstep.stderr, untraced.stderr)
    place = untraced.stderr.split("stopped: ")[1].split(" ")[0]
    assert place in lockstep.stderr, (place, lockstep.stderr)
