"""`dusk prob` against the same computation written directly in icepool.

    .venv/bin/python benchmarks/prob.py [--rounds 7] [--runs 5]

Two measures, each printed as a ratio (dusk's time / icepool's time; the goal is 1.5 or less):

1. In one process, alternating (dusk first in one round, icepool first in the next), the median
   over the rounds of: success pools of 5, 10, 20 and 30 d10 (successes at 6 or more, less the
   ones, over one roll: dusk asks it with lets, icepool with a multiset function that counts both),
   and conflicts of unpaired d6 cancelled by the other side's d6 (5 against 3, 8 against 5, 10
   against 10). dusk's time is all of `prob.ask`: compiling, translating through the registry's
   exact forms, icepool's evaluation and the exact fractions; icepool's is the evaluation and the
   same fractions. icepool keeps what it evaluated in caches on its evaluators: they are emptied
   before every timed run, so neither side reads what the other computed.
2. The whole `dusk prob` process for the 10 against 10 conflict (its table printed to a pipe)
   against a Python process that imports icepool, computes the same distribution and prints it:
   the median of --runs runs each, alternating, in wall time and in CPU time (user + system; on a
   machine shared with other jobs the wall time also waits for them).
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import icepool
from icepool.evaluator.multiset_evaluator_base import MultisetEvaluatorBase

from ruleset_engine.analysis.prob import ask

ROOT = Path(__file__).resolve().parents[1]
POOLS = (5, 10, 20, 30)
CONFLICTS = ((5, 3), (8, 5), (10, 10))
DIFFICULTY = 6


def forget() -> None:
    """Empty icepool's caches of evaluations (kept on each evaluator), so every run computes anew."""
    gc.collect()
    for obj in gc.get_objects():
        if isinstance(obj, MultisetEvaluatorBase) and hasattr(obj, "_cache"):
            obj._cache.clear()


def fractions(die) -> list:
    total = die.denominator()
    return [(outcome, Fraction(quantity, total)) for outcome, quantity in die.items() if quantity]


# ---- the same questions, written directly in icepool ------------------------------------------

def icepool_pool(n: int) -> list:
    @icepool.multiset_function
    def hits_and_ones(pool):
        return pool.keep_outcomes(lambda f: f >= DIFFICULTY).size(), pool.keep_outcomes(lambda f: f == 1).size()

    joint = hits_and_ones(icepool.d10.pool(n))
    return fractions(joint.map(lambda t: max(0, t[0] - t[1]), star=False))


def icepool_conflict(mine: int, theirs: int) -> list:
    left = icepool.d6.pool(mine).map_counts(function=lambda face, count: count - count // 2)
    best = left.difference(icepool.d6.pool(theirs)).highest_outcome_and_count()
    return fractions(best.map(lambda face, count: face if count else 0))


# ---- and through dusk -------------------------------------------------------------------------

def dusk_pool(n: int) -> list:
    lets = [("pool", f"{n}d10"), ("hits", f"count(pool, >= {DIFFICULTY})"), ("ones", "count(pool, == 1)")]
    return ask(["max(0, hits - ones)"], lets=lets).questions[0].chances


def conflict_text(mine: int, theirs: int) -> str:
    return f"highest(cancel(unpair({mine}d6), {theirs}d6), default=0)"


def dusk_conflict(mine: int, theirs: int) -> list:
    return ask([conflict_text(mine, theirs)]).questions[0].chances


def timed(fn, *args) -> tuple[float, list]:
    forget()
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def in_process(rounds: int) -> list[tuple[str, float, float]]:
    cases = [(f"success pool of {n}d10", dusk_pool, icepool_pool, (n,)) for n in POOLS]
    cases += [(f"conflict {a} against {b}", dusk_conflict, icepool_conflict, (a, b)) for a, b in CONFLICTS]
    rows = []
    for name, ours, theirs, args in cases:
        a, b = ours(*args), theirs(*args)
        assert a == b, f"{name}: dusk and icepool disagree"
        times_ours, times_theirs = [], []
        for r in range(rounds):
            pair = [(ours, times_ours), (theirs, times_theirs)]
            for fn, into in (pair if r % 2 == 0 else pair[::-1]):
                into.append(timed(fn, *args)[0])
        rows.append((name, statistics.median(times_ours), statistics.median(times_theirs)))
    return rows


DIRECT = """
import icepool
left = icepool.d6.pool(10).map_counts(function=lambda face, count: count - count // 2)
best = left.difference(icepool.d6.pool(10)).highest_outcome_and_count()
die = best.map(lambda face, count: face if count else 0)
total = die.denominator()
for outcome, quantity in die.items():
    print(outcome, quantity / total)
"""


def run_process(command) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one run of a command, its output on a pipe."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def whole_process(runs: int) -> dict:
    """Medians of wall and CPU time of each process. On a machine shared with other work the wall
    time waits for the other jobs too; the CPU time is the process's own work."""
    dusk = [sys.executable, "-m", "ruleset_engine", "prob", conflict_text(10, 10)]
    direct = [sys.executable, "-c", DIRECT]
    for command in (dusk, direct):      # once each, so both read compiled bytecode from then on
        run_process(command)
    ours, theirs = [], []
    for r in range(runs):
        pair = [(dusk, ours), (direct, theirs)]
        for command, into in (pair if r % 2 == 0 else pair[::-1]):
            into.append(run_process(command))
    return {what: (statistics.median(t[i] for t in ours), statistics.median(t[i] for t in theirs))
            for i, what in enumerate(("wall", "CPU"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"in one process, median of {args.rounds} alternating rounds (dusk / icepool; goal <= 1.5):")
    for name, ours, theirs in in_process(args.rounds):
        print(f"  {name:<28} dusk {ours * 1000:8.1f} ms  icepool {theirs * 1000:8.1f} ms  ratio {ours / theirs:.2f}")
    print(f"whole process, {conflict_text(10, 10)}, median of {args.runs} alternating runs:")
    for what, (ours, theirs) in whole_process(args.runs).items():
        print(f"  {what + ' time':<9} dusk prob {ours * 1000:5.0f} ms  python with icepool {theirs * 1000:5.0f} ms  "
              f"ratio {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
