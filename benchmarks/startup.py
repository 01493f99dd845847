"""Start-up: how soon `dusk roll` prints and `dusk play` shows its prompt, beside a bare Python.

Each is run several times and the best kept (a shared machine is noisy); the bare
interpreter's start-up is printed beside them so the ratio is what to compare.

    .venv/bin/python benchmarks/startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pexpect

BIN = Path(sys.executable).parent


def best_of(runs: int, once) -> float:
    return min(once() for _ in range(runs))


def run_command(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - start


def time_to_prompt(data_dir: str) -> float:
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=data_dir)
    start = time.perf_counter()
    child = pexpect.spawn(str(BIN / "dusk"), ["play", "--seed", "1"], env=env, encoding="utf-8", timeout=30)
    child.expect("attack-of-the-vampires>")
    elapsed = time.perf_counter() - start
    child.sendeof()
    child.expect(pexpect.EOF)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        bare = best_of(args.runs, lambda: run_command([sys.executable, "-c", "pass"]))
        roll = best_of(args.runs, lambda: run_command([str(BIN / "dusk"), "roll", "4d6kh3"]))
        prompt = best_of(args.runs, lambda: time_to_prompt(data_dir))
    print(f"{'python -c pass':<28}{bare * 1000:8.0f} ms")
    print(f"{'dusk roll 4d6kh3':<28}{roll * 1000:8.0f} ms  ({roll / bare:.1f}x a bare python)")
    print(f"{'dusk play: prompt shown':<28}{prompt * 1000:8.0f} ms  ({prompt / bare:.1f}x a bare python)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
