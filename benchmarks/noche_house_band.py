"""How deadly the house rule noche-long-hours is at every table size: the nights that end with nobody
alive, at 2 to 8 players, under the default (cautious) automatic play, as `dusk simulate --sweep` gives
them, held to the band the house rule was tuned for (10% to 40% at every size).

It runs, as a user would, the whole process

    dusk simulate noche-long-hours -n N --seed S --sweep players=2..8 --json [--set PARAM=VALUE ...]

and prints one row per table size: the pool limit there, the rate of `nobody_alive` with its 95%
interval, and whether the interval lies inside the band (`inside`), straddles an edge (`edge`) or lies
outside it (`OUTSIDE`). Nothing here is timed; this is a measurement, not a test (it is not run by
the test suite: a statistical band is checked here, by a person, at an N of their choosing).

    .venv/bin/python benchmarks/noche_house_band.py [--games 1000] [--seed 1] [--set policy=bold ...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

DUSK = Path(sys.executable).parent / "dusk"
BAND = (0.10, 0.40)


def verdict(low: float, high: float) -> str:
    if BAND[0] <= low and high <= BAND[1]:
        return "inside"
    if high < BAND[0] or low > BAND[1]:
        return "OUTSIDE"
    return "edge"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="noche-long-hours")
    parser.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE")
    args = parser.parse_args()
    command = [str(DUSK), "simulate", args.ruleset, "-n", str(args.games), "--seed", str(args.seed),
               "--sweep", "players=2..8", "--json"]
    for item in args.set:
        command += ["--set", item]
    print("$ " + " ".join(["dusk"] + command[1:]))
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        print(out.stderr.strip())
        return out.returncode
    found = json.loads(out.stdout)
    params = found["params"]
    per, base = params.get("pool_per_player"), params.get("pool_base", 0)
    print(f"{args.ruleset}: {found['games']:,} nights per table size, seed {found['seed']}; "
          f"policy {params.get('policy')}; band {BAND[0]:.0%} .. {BAND[1]:.0%} of nights with nobody alive")
    print(f"{'players':>7}  {'limit':>5}  {'nobody alive':>12}  {'95% CI':>17}  verdict")
    worst = "inside"
    for cell in found["cells"]:
        n = cell["values"]["players"]
        dead = cell["results"].get("nobody_alive", {"rate": 0.0, "ci95": [0.0, 0.0]})
        low, high = dead["ci95"]
        said = verdict(low, high)
        worst = said if said == "OUTSIDE" or (said == "edge" and worst == "inside") else worst
        limit = base + per * n if per is not None else params.get("pool_limit")
        print(f"{n:>7}  {limit:>5}  {dead['rate']:>12.2%}  {low:>7.2%} .. {high:>6.2%}  {said}")
    print(f"every table size: {worst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
