"""Start-up of `dusk roll 1d6` in each language, side by side in one run: English (no catalog read),
Chinese and Spanish (a compiled catalog loaded), a bare Python, and optionally an earlier checkout
of dusk (`--before DIR`, e.g. `git archive` of main unpacked there) run by the same interpreter.

Each is run several times, interleaved (a shared machine is noisy), and the best kept; the ratios
are what to compare.

    .venv/bin/python benchmarks/startup_languages.py [--runs 15] [--before /tmp/dusk-main]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

ROLL = ["-c", "import sys; from ruleset_engine.cli import main; sys.exit(main(['roll', '1d6', '--seed', '1']))"]


def timed(args: list[str], env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{args} failed: {done.stderr.decode()[-400:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--before", metavar="DIR", help="an earlier checkout, run with PYTHONPATH=DIR")
    args = parser.parse_args()
    base = dict(os.environ)
    base.pop("PYTHONPATH", None)
    cases = {"python -c pass": ([sys.executable, "-c", "pass"], base)}
    if args.before:
        cases["before: dusk roll 1d6"] = ([sys.executable, *ROLL], dict(base, PYTHONPATH=args.before))
    for lang in ("en", "zh", "es"):
        cases[f"dusk roll 1d6 --lang {lang}"] = ([sys.executable, *ROLL], dict(base, DUSK_LANG=lang))
    best = {name: float("inf") for name in cases}
    for _ in range(args.runs):
        for name, (command, env) in cases.items():
            best[name] = min(best[name], timed(command, env))
    reference = best["before: dusk roll 1d6"] if args.before else best["dusk roll 1d6 --lang en"]
    for name, seconds in best.items():
        print(f"{name:<28}{seconds * 1000:8.1f} ms  ({seconds / reference:.2f}x "
              f"{'before' if args.before else 'English'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
