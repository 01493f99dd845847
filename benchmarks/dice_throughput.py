"""Rolls per second of dusk's dice language against the d20 library (Avrae's roller), in one run.

dusk: `compile(text)` once, then `expr.evaluate(rng=random.Random(1))` in a loop,
trace included. d20: `d20.roll(text)` with its default parse cache. d20 pins an old
Lark, so it runs in its own venv (benchmarks/.venv-d20, created on first use with
pip from PyPI). Rounds alternate between the two and the best round of each is
kept, so a noisy, shared machine biases neither; the figure to read is the ratio.

    .venv/bin/python benchmarks/dice_throughput.py [--rounds 5] [--seconds 0.5]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
import venv
from pathlib import Path

EXPRESSIONS = ["4d6kh3", "10d10", "(1d20+5)*2"]
D20_VENV = Path(__file__).resolve().parent / ".venv-d20"

# Run inside the d20 venv: best rate of `d20.roll(text)` over one timed batch.
D20_SNIPPET = """
import json, sys, time, d20
text, seconds = sys.argv[1], float(sys.argv[2])
d20.roll(text)
n, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    for _ in range(200):
        d20.roll(text)
    n += 200
print(json.dumps(n / (time.perf_counter() - start)))
"""


def d20_python() -> Path:
    python = D20_VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {D20_VENV} for d20 (once) ...", file=sys.stderr)
        venv.create(D20_VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "d20"], check=True)
    return python


def dusk_rate(text: str, seconds: float) -> float:
    from ruleset_engine import dice

    expr = dice.compile(text)
    rng = random.Random(1)
    evaluate = expr.evaluate
    evaluate(rng=rng)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            evaluate(rng=rng)
        n += 200
    return n / (time.perf_counter() - start)


def d20_rate(python: Path, text: str, seconds: float) -> float:
    out = subprocess.run([str(python), "-c", D20_SNIPPET, text, str(seconds)], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one timed batch")
    args = parser.parse_args()
    python = d20_python()
    print(f"{'expression':<14}{'dusk rolls/s':>14}{'d20 rolls/s':>14}{'ratio':>8}")
    for text in EXPRESSIONS:
        ours, theirs = 0.0, 0.0
        for _ in range(args.rounds):  # alternate, keep the best of each
            ours = max(ours, dusk_rate(text, args.seconds))
            theirs = max(theirs, d20_rate(python, text, args.seconds))
        print(f"{text:<14}{ours:>14,.0f}{theirs:>14,.0f}{ours / theirs:>7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
