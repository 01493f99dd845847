"""Start-up: whole `dusk` processes beside a bare `python -c pass`, alternating, as ratios.

Each round runs every case once (the order reversed every other round, so a noisy, shared machine
favours none), after one untimed run of each so that Python reads compiled bytecode from then on,
as on a user's machine (PYTHONDONTWRITEBYTECODE is dropped from the children's environment). Each
run is timed in wall-clock time and in CPU time (user + system of the child): on a machine whose
cores other jobs share, the wall-clock time also waits for a core, the CPU time does not. Printed:
min and median of each, the ratio of each to the bare interpreter's, and the load average before and
after. The goals of issue 29 are printed beside them:

- `dusk roll 1d6` at most 4x a bare `python -c pass`;
- `dusk play attack-of-the-vampires -c state` at most half of the code before the change (give
  `--base`, the `dusk` of another install, to run its cases too, side by side);
- `dusk prob --ruleset vampire-the-masquerade` (loads and checks the ruleset once).

The interpreter is the one running this script (a venv's python, not a shim). Measure installs made
from the wheel (`pip install .` into a fresh venv), as a user's are: `make`'s editable install adds
an import hook to every start, the bare one's too. With `--prompt`,
the time until the interactive prompt of `dusk play` shows is measured too (pexpect).

    .venv/bin/python benchmarks/startup.py [--rounds 5] [--dusk .venv/bin/dusk] [--base OTHER/bin/dusk] [--prompt]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
PROB = ["prob", "--ruleset", "vampire-the-masquerade", "outcome(5d10, 6, 0, 0)"]


def environment(folder: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["DUSK_DATA_DIR"] = os.path.join(folder, "data")      # `dusk play` saves its session there
    env["DUSK_CACHE_DIR"] = os.path.join(folder, "cache")
    env.pop("NO_COLOR", None)
    return env


def run_once(args: list[str], env: dict) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds) of one whole process, its output on a pipe."""
    before = children_cpu()
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, env=env)
    wall = time.perf_counter() - start
    return wall, children_cpu() - before


def children_cpu() -> float:
    """User + system seconds of the children waited for so far: getrusage counts in microseconds
    (os.times counts in ticks of 10 ms, coarser than a bare interpreter's whole run)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def prompt_once(dusk: str, env: dict) -> tuple[float, float]:
    """(wall-clock seconds, nan) until `dusk play` shows its interactive prompt."""
    import pexpect

    env = dict(env, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1")
    start = time.perf_counter()
    child = pexpect.spawn(dusk, ["play", "--seed", "1"], env=env, encoding="utf-8", timeout=60)
    child.expect("attack-of-the-vampires>")
    elapsed = time.perf_counter() - start
    child.sendeof()
    child.expect(pexpect.EOF)
    return elapsed, float("nan")


def cases(dusk: str, label: str, prompt: bool) -> list[tuple[str, object]]:
    found = [
        (f"{label}roll 1d6", [dusk, "roll", "1d6"]),
        (f"{label}play -c state", [dusk, "play", "attack-of-the-vampires", "--seed", "1", "-c", "state"]),
        (f"{label}prob --ruleset VtM", [dusk, *PROB]),
    ]
    if prompt:
        found.append((f"{label}play: prompt shown", dusk))
    return found


def measure(case, env) -> tuple[float, float]:
    what = case[1]
    return prompt_once(what, env) if isinstance(what, str) else run_once(what, env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dusk", default=str(BIN / "dusk"), help="the dusk command measured")
    parser.add_argument("--base", help="the dusk command of the code before a change, run side by side")
    parser.add_argument("--prompt", action="store_true", help="also time the interactive prompt (pexpect)")
    args = parser.parse_args()
    # The bare start is this venv's interpreter: it runs the .pth files of the venv's site-packages,
    # none in a venv dusk was installed into from the wheel, but an editable install's import hook
    # (about 20 ms here) otherwise; the interpreter the venv was made from may run others still.
    all_cases = [("python -c pass", [sys.executable, "-c", "pass"])]
    all_cases += cases(args.dusk, "", args.prompt)
    if args.base:
        all_cases += cases(args.base, "before: ", args.prompt)
    load_before = os.getloadavg()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in all_cases}
    with tempfile.TemporaryDirectory() as folder:
        env = environment(folder)
        for case in all_cases:              # untimed: bytecode written, caches filled
            measure(case, env)
        for r in range(args.rounds):
            for case in (all_cases if r % 2 == 0 else all_cases[::-1]):
                times[case[0]].append(measure(case, env))
    load_after = os.getloadavg()
    print(f"{args.rounds} alternating rounds; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"({os.cpu_count()} cores); {time.strftime('%Y-%m-%d %H:%M')}")
    bare = times["python -c pass"]
    bare_wall = (min(t[0] for t in bare), statistics.median(t[0] for t in bare))
    bare_cpu = (min(t[1] for t in bare), statistics.median(t[1] for t in bare))
    print(f"{'':<30}{'wall min':>9}{'median':>8}{'x bare':>14}   {'CPU min':>8}{'median':>8}{'x bare':>14}")
    for name, _ in all_cases:
        wall = (min(t[0] for t in times[name]), statistics.median(t[0] for t in times[name]))
        cpu = (min(t[1] for t in times[name]), statistics.median(t[1] for t in times[name]))
        line = f"{name:<30}{wall[0] * 1000:7.0f}ms{wall[1] * 1000:6.0f}ms  {wall[0] / bare_wall[0]:5.1f}/{wall[1] / bare_wall[1]:<5.1f}"
        if cpu[0] == cpu[0]:        # not nan (the prompt has no CPU time of its own here)
            line += f"   {cpu[0] * 1000:6.0f}ms{cpu[1] * 1000:6.0f}ms  {cpu[0] / bare_cpu[0]:5.1f}/{cpu[1] / bare_cpu[1]:<5.1f}"
        print(line)
    print("(x bare: min/min and median/median; goals: roll 1d6 at most 4x; play -c state at most half of before)")
    if args.base:
        for name, _ in cases(args.dusk, "", args.prompt):
            new, old = times[name], times["before: " + name]
            print(f"{name:<30} new / before: wall min {min(t[0] for t in new) / min(t[0] for t in old):.2f}, "
                  f"median {statistics.median(t[0] for t in new) / statistics.median(t[0] for t in old):.2f}"
                  + (f"; CPU min {min(t[1] for t in new) / min(t[1] for t in old):.2f}, median "
                     f"{statistics.median(t[1] for t in new) / statistics.median(t[1] for t in old):.2f}"
                     if not isinstance(_, str) else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
