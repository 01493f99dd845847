"""The lockstep backend's memory is bounded by the dice its games hold (issue 24, 2), each case run
in a process of its own under an address-space cap (RLIMIT_AS), so a backend that allocates by
what faces could be fails here with a MemoryError rather than taking the machine's memory.

- largest_set over faces from -32,000 to 32,006 once counted dice into a column per possible face:
  4,096 games x 64,008 faces of int64 (2 GiB) for three dice;
- unpair(1000d6) compared every die with every die: 4,096 x 1,000 x 1,000 booleans (4 GB);
- a pool doubling each time ([p, p]) ended in a MemoryError shown as a bug in dusk; it stops now at
  vector.MAX_POOL_CELLS dice of one pool at once (games x dice), with the way on.

`make test` plays 5,000 games of each (one batch); `make fuzz` (DUSK_FUZZ_SCALE=20 and more)
plays 1,000,000."""

from __future__ import annotations

import re
import os
import resource
import subprocess
import sys

import pytest

from ruleset_engine.dice.vector import MAX_POOL_CELLS
from ruleset_engine.runtime.lockstep import BATCH

SCALE = int(os.environ.get("DUSK_FUZZ_SCALE", "1"))
GAMES = 1_000_000 if SCALE > 1 else 5_000
CAP = 1 << 30          # bytes of address space: Python, numpy and a batch of games fit well within

ROUND = "ruleset: {name}\ntitle: {name}\nstate: {{kept: 0}}\nloop:\n  - name: round\n    times: 1\n    steps:\n{steps}" \
        "end: []\nreport: {{kept: kept}}\n"
CASES = {
    "wide": '      - set: {kept: "size(largest_set([1d6 - 32000, 1d6 + 32000, 1d6]))"}\n',
    "ignore": '      - set: {kept: "size(largest_set([60d6, 1d6 - 32000], ignore=[1, 2, 3, 4, 5, 6, -32000, 32000]))"}\n',
    "unpair": '      - set: {kept: "size(unpair(1000d6))"}\n',
    "doubling": '      - let: {p: "1d6"}\n      - repeat: {times: 17}\n        do:\n          - let: {p: "[p, p]"}\n'
                '      - set: {kept: "size(p)"}\n',
}


def capped():
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def simulate_capped(path, games: int):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", DUSK_DATA_DIR=str(path.parent))
    return subprocess.run([sys.executable, "-m", "ruleset_engine", "simulate", str(path), "-n", str(games),
                           "--backend", "lockstep", "--json"], capture_output=True, text=True, timeout=3600,
                          env=env, preexec_fn=capped)


@pytest.mark.fuzz
@pytest.mark.parametrize("name", ["wide", "ignore", "unpair"])
def test_a_pool_is_held_in_the_memory_of_its_dice(written, name):
    path = written.path(ROUND.format(name=name, steps=CASES[name]), f"{name}.yaml")
    out = simulate_capped(path, GAMES)
    assert out.returncode == 0, out.stderr[-2000:]
    assert not re.search(r"\bbug\b", out.stderr) and "Traceback" not in out.stderr
    import json

    kept = json.loads(out.stdout)["report"]["kept"]
    if name == "wide":      # three faces far apart: each die a set of its own, the highest kept
        assert kept["min"] == kept["max"] == 1
    elif name == "ignore":  # sixty d6 whose faces are all ignored, and one die far below: a set of one
        assert kept["min"] == kept["max"] == 1
    else:                   # 1,000 dice, each face's pairs set aside: 500 to 503 stay (one per odd face)
        assert 500 <= kept["min"] <= kept["max"] <= 503


@pytest.mark.fuzz
def test_a_pool_past_what_lockstep_holds_stops_with_the_way_on(written):
    path = written.path(ROUND.format(name="doubling", steps=CASES["doubling"]), "doubling.yaml")
    out = simulate_capped(path, GAMES)
    assert out.returncode == 1 and "Traceback" not in out.stderr and not re.search(r"\bbug\b", out.stderr)
    # The games of one batch (a range is at most 50,000: all of them, or BATCH), and the first width
    # of the doubling pool (1, 2, 4, ...) that they cannot hold together.
    rows = min(GAMES, BATCH)
    width = 1
    while rows * width <= MAX_POOL_CELLS:
        width *= 2
    assert (f"the lockstep backend holds at most {MAX_POOL_CELLS:,} dice of one pool at once (games x dice), and "
            f"{rows:,} games would hold {width:,} dice each; --backend untraced plays the games one at a time") \
        in out.stderr
