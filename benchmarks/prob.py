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
2. Whole processes (goal: at most 1.2): `dusk prob` (its table printed to a pipe) against a Python
   process that imports icepool, computes the same distribution and prints it, for a VtM roll of
   30d10 (asked through the ruleset's formulas, `--ruleset vampire-the-masquerade`, and through
   lets) and a Noche conflict of 10 against 10; the icepool programs are written as an icepool user
   writes them (a multiset function counting successes and ones). --runs rounds (at least 3), the
   order reversed every other round, min and median of wall time and of CPU time (user + system; on
   a machine shared with other jobs the wall time also waits for them), with the load average.
   dusk counts the VtM pool die by die (analysis/exact.py, tallies) and finds the conflict's highest
   face going down the faces once (analysis/by_face.py), the icepool programs by their multisets; the
   two print the same distribution.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
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


NOCHE_DIRECT = """
import icepool
left = icepool.d6.pool(10).map_counts(function=lambda face, count: count - count // 2)
best = left.difference(icepool.d6.pool(10)).highest_outcome_and_count()
die = best.map(lambda face, count: face if count else 0)
total = die.denominator()
for outcome, quantity in die.items():
    print(outcome, quantity / total)
"""

# VtM (Revised) at its defaults: successes at 6 or more less the ones, never below 0; a botch (-1) when
# no success is rolled and a one is. Written as an icepool user writes it: one multiset function that
# counts both over the pool.
VTM_DIRECT = """
import icepool

@icepool.multiset_function
def hits_and_ones(pool):
    return pool.keep_outcomes(lambda f: f >= 6).size(), pool.keep_outcomes(lambda f: f == 1).size()

def outcome(counts):
    hits, ones = counts
    return -1 if hits == 0 and ones > 0 else max(0, hits - ones)

die = hits_and_ones(icepool.d10.pool(30)).map(outcome, star=False)
total = die.denominator()
for outcome, quantity in die.items():
    print(outcome, quantity / total)
"""

VTM_LETS = ["--let", "pool=30d10", "--let", "hits=count(pool, >= 6)", "--let", "ones=count(pool, == 1)",
            "-1 if hits == 0 and ones > 0 else max(0, hits - ones)"]

# (name, the dusk prob command's arguments, the Python program with icepool that computes the same)
WHOLE = [
    ("VtM 30d10, --ruleset", ["--ruleset", "vampire-the-masquerade", "outcome(30d10, 6, 0, 0)"], VTM_DIRECT),
    ("VtM 30d10, --let", VTM_LETS, VTM_DIRECT),
    ("Noche 10 against 10", [conflict_text(10, 10)], NOCHE_DIRECT),
]


def run_process(command) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one run of a command, its output on a pipe."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, capture_output=True, check=True, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# Bytecode kept between runs, as on a user's machine.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def whole_process(rounds: int) -> list:
    """Each case's dusk process and icepool process, alternating (the order reversed every other round),
    after one untimed run of each. Rows: (name, dusk's (wall, CPU) runs, icepool's). On a machine shared
    with other work the wall time waits for the other jobs too; the CPU time is the process's own work."""
    commands = [(name, [sys.executable, "-m", "ruleset_engine", "prob", *args], [sys.executable, "-c", program])
                for name, args, program in WHOLE]
    for name, dusk, direct in commands:     # untimed: bytecode written; and both give the same odds
        ours = json.loads(subprocess.run(dusk + ["--json"], cwd=ROOT, capture_output=True, check=True, env=ENV,
                                         text=True).stdout)
        theirs = subprocess.run(direct, cwd=ROOT, capture_output=True, check=True, env=ENV, text=True).stdout
        assert ours["exact"], f"{name}: dusk estimated"
        got = {row["value"]: row["float"] for row in ours["questions"][0]["distribution"]}
        expected = {int(o): float(p) for o, p in (line.split() for line in theirs.splitlines())}
        assert got.keys() == {o for o, p in expected.items() if p} and all(
            abs(got[o] - expected[o]) < 1e-12 for o in got), f"{name}: dusk and icepool disagree"
    runs = {name: ([], []) for name, _, _ in commands}
    for r in range(rounds):
        order = commands if r % 2 == 0 else commands[::-1]
        for name, dusk, direct in order:
            pair = [(dusk, runs[name][0]), (direct, runs[name][1])]
            for command, into in (pair if r % 2 == 0 else pair[::-1]):
                into.append(run_process(command))
    return [(name, *runs[name]) for name, _, _ in commands]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5, help="rounds of the whole processes (at least 3)")
    parser.add_argument("--whole-only", action="store_true", help="only the whole processes")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, load average {load[0]:.2f} ({os.cpu_count()} cores)")
    if not args.whole_only:
        print(f"in one process, median of {args.rounds} alternating rounds (dusk / icepool; goal <= 1.5):")
        for name, ours, theirs in in_process(args.rounds):
            print(f"  {name:<28} dusk {ours * 1000:8.1f} ms  icepool {theirs * 1000:8.1f} ms  ratio {ours / theirs:.2f}")
    print(f"whole processes, {args.runs} alternating rounds: dusk prob against Python with icepool "
          f"(min / median; goal: at most 1.2):")
    for name, ours, theirs in whole_process(max(3, args.runs)):
        for i, what in enumerate(("wall", "CPU")):
            a, b = [t[i] for t in ours], [t[i] for t in theirs]
            print(f"  {name:<22} {what:<4} dusk {min(a) * 1000:6.0f} / {statistics.median(a) * 1000:6.0f} ms  "
                  f"icepool {min(b) * 1000:6.0f} / {statistics.median(b) * 1000:6.0f} ms  "
                  f"ratio {min(a) / min(b):.2f} / {statistics.median(a) / statistics.median(b):.2f}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f}")


if __name__ == "__main__":
    main()
