"""A sweep against the single runs it stands for: Attack of the Vampires, vampire_on = 0..6.

Measured in this process, one after the other: seven `simulate` runs of N games (one per value of
vampire_on), then one `sweep` of the same seven values and N games, which plays the same games on
the same seeds (their win counts must be equal, value by value). The figure to read is the ratio
of the times (sweep / single runs: about 1.0, no more, is the goal: a sweep costs the games it
plays, with one ruleset load per process).

    .venv/bin/python benchmarks/sweep_attack.py [--games 20000] [--workers 1]
"""

from __future__ import annotations

import argparse
import time

from ruleset_engine.analysis.simulate import simulate
from ruleset_engine.analysis.sweep import sweep

NAME = "attack-of-the-vampires"
VALUES = range(0, 7)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    singles = [simulate(NAME, args.games, params={"vampire_on": str(v)}, workers=args.workers) for v in VALUES]
    single_time = time.perf_counter() - start
    start = time.perf_counter()
    swept = sweep(NAME, args.games, [f"vampire_on={VALUES[0]}..{VALUES[-1]}"], workers=args.workers)
    sweep_time = time.perf_counter() - start
    same = all(s.tally.results == c.tally.results for s, c in zip(singles, swept.cells))
    print(f"{NAME}, vampire_on {VALUES[0]}..{VALUES[-1]}: 7 values x {args.games:,} games, "
          f"{args.workers} worker{'s' if args.workers > 1 else ''}:")
    print(f"  7 single runs      {single_time:7.2f} s")
    print(f"  one sweep          {sweep_time:7.2f} s")
    print(f"  ratio (sweep / single runs)  {sweep_time / single_time:.3f}   (goal: about 1.0, no more)")
    print(f"  results value by value: {'the same' if same else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
