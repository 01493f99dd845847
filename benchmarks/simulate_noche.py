"""Whole simulations of a Noche night (Noche de los Vampiros, twelve Hours), as a user runs them,
with each backend that can play it.

Measured: the whole `dusk simulate noche-de-los-vampiros -n N --workers 1 --json` process (start-up,
loading and checking the YAML, N games, the report), once per backend: `--backend untraced` (one
game at a time, the ruleset's own program) and `--backend lockstep` (thousands of games at once in
numpy arrays) when the ruleset has a vector form for every construct it uses. The figures are
games per second of the whole process and the ratio of the two backends; dusk against a night
written by hand in plain Python (noche_plain.py) is side_by_side.py. When the
lockstep backend cannot play the ruleset, this says so plainly, with the construct and its place
(what `--backend auto` prints), and measures the untraced backend alone.

Runs alternate between the backends and the best of each is kept, so a noisy, shared machine
biases none; Python keeps the compiled bytecode between runs, as on a user's machine (see
simulate_attack.py), after one untimed run of each.

    .venv/bin/python benchmarks/simulate_noche.py [--games 2000] [--rounds 3] [--ruleset NAME]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from simulate_attack import DUSK, timed, user_environment  # noqa: E402


def refusal(name: str) -> str | None:
    """Why the lockstep backend cannot play the ruleset (the line `--backend auto` prints), or None."""
    out = subprocess.run([str(DUSK), "simulate", name, "-n", "1", "--backend", "lockstep"], capture_output=True,
                         text=True)
    return None if out.returncode == 0 else out.stderr.strip().splitlines()[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ruleset", default="noche-de-los-vampiros")
    args = parser.parse_args()
    name, n = args.ruleset, args.games
    refused = refusal(name)
    backends = ["untraced"] + ([] if refused else ["lockstep"])
    command = [str(DUSK), "simulate", name, "-n", str(n), "--workers", "1", "--json"]
    best = {b: float("inf") for b in backends}
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        env = user_environment(folder)
        for backend in backends:        # the bytecode and the verdict, kept
            timed(command[:3] + ["-n", "1"] + command[5:] + ["--backend", backend], env)
        for _ in range(args.rounds):
            for backend in backends:
                t, out = timed(command + ["--backend", backend], env)
                best[backend] = min(best[backend], t)
                results[backend] = json.loads(out)["results"]
    print(f"whole processes, {n:,} games of {name}, best of {args.rounds}:")
    for backend in backends:
        print(f"  dusk simulate --workers 1 --backend {backend:<9} {best[backend]:7.2f} s   "
              f"{n / best[backend]:9,.0f} games/s")
    if refused:
        print(f"  lockstep: not measured, it cannot play this ruleset: {refused}")
    else:
        print(f"  ratio lockstep (untraced / lockstep)          {best['untraced'] / best['lockstep']:7.3f}")
    for backend in backends:
        shown = ", ".join(f"{k} {v['rate']:.3f}" for k, v in sorted(results[backend].items()))
        print(f"  results, {backend}: {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
