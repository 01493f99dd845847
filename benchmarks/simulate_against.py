"""Whole `dusk simulate` processes of two installs of dusk side by side: a change against the code
it started from (both backends, Attack of the Vampires and a Noche night).

Measured: the whole `dusk simulate RULESET -n N --workers 1 --json --backend B` process of each
install (start-up, loading the YAML, writing the program, N games, the report). The runs alternate
between the two installs, round after round and case after case, so a noisy, shared machine favours
neither; the figures to read are the ratios of the times (base / new: above 1.0, the new code is
faster), from the best run of each and from the medians, with the spread of each install's runs
(slowest / fastest) to say how far the machine's load moved them. Each run's CPU time (user + system,
of the process and its children) is measured too: on a machine whose cores other work shares, the
wall-clock time also counts the waits for a core, and the CPU time does not. The results of the two must agree
(the same seed gives the same report for the untraced backend; lockstep too, as it draws its dice the
same way in both).

Each install is a `dusk` command: its own venv (`make .venv/.installed` in each checkout), or one made
from a snapshot of the code (`git archive`) installed beside the other's dependencies. Python keeps the
compiled bytecode between runs, as on a user's machine, after one untimed run of each (simulate_attack.py).

    .venv/bin/python benchmarks/simulate_against.py --base /path/to/base/bin/dusk --new .venv/bin/dusk
        [--rounds 5] [--attack-games 20000] [--noche-games 400]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from simulate_attack import user_environment  # noqa: E402


def timed(args: list[str], env: dict) -> tuple[float, float, str]:
    """(wall-clock seconds, CPU seconds, stdout) of one whole process."""
    before = os.times()
    start = time.perf_counter()
    out = subprocess.run(args, check=True, capture_output=True, text=True, env=env).stdout
    wall = time.perf_counter() - start
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system), out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the dusk command of the code before the change")
    parser.add_argument("--new", required=True, help="the dusk command of the code after it")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--attack-games", type=int, default=20_000)
    parser.add_argument("--noche-games", type=int, default=400)
    args = parser.parse_args()
    cases = [(name, games, backend)
             for name, games in (("attack-of-the-vampires", args.attack_games), ("noche-de-los-vampiros", args.noche_games))
             for backend in ("untraced", "lockstep")]
    installs = {"base": args.base, "new": args.new}
    times: dict = {(case, who): [] for case in cases for who in installs}
    cpu: dict = {(case, who): [] for case in cases for who in installs}
    results: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        env = user_environment(folder)
        for case in cases:          # the bytecode and the remembered verdicts, kept
            for dusk in installs.values():
                timed([dusk, "simulate", case[0], "-n", "1", "--workers", "1", "--backend", case[2]], env)
        for k in range(args.rounds):
            for case in cases:
                # Alternate which install goes first, so neither always runs right after the other's.
                order = list(installs.items()) if k % 2 == 0 else list(reversed(installs.items()))
                for who, dusk in order:
                    name, games, backend = case
                    t, c, out = timed([dusk, "simulate", name, "-n", str(games), "--workers", "1", "--json",
                                    "--backend", backend], env)
                    times[(case, who)].append(t)
                    cpu[(case, who)].append(c)
                    results[(case, who)] = json.loads(out)["results"]
    print(f"whole `dusk simulate --workers 1` processes, base against new, {args.rounds} rounds alternating")
    for title, table in (("wall-clock time", times), ("CPU time (user + system)", cpu)):
        print(f"\n{title}:")
        print(f"{'ruleset':<24}{'backend':<10}{'games':>7}{'base best':>11}{'new best':>10}{'ratio best':>12}"
              f"{'ratio median':>14}{'spread base':>13}{'spread new':>12}")
        for case in cases:
            base, new = table[(case, "base")], table[(case, "new")]
            print(f"{case[0]:<24}{case[2]:<10}{case[1]:>7}{min(base):>10.2f}s{min(new):>9.2f}s"
                  f"{min(base) / min(new):>12.3f}{statistics.median(base) / statistics.median(new):>14.3f}"
                  f"{max(base) / min(base):>13.2f}{max(new) / min(new):>12.2f}")
    for case in cases:
        if results[(case, "base")] != results[(case, "new")]:
            print(f"results differ, {case}: base {results[(case, 'base')]}, new {results[(case, 'new')]}")
    print("ratio: base time / new time (above 1.0: new is faster); spread: slowest run / fastest run")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
