"""The peak memory of a whole `dusk simulate` process, as the operating system counts it.

Runs the installed `dusk simulate NAME -n N --workers 1 --json --backend B` once per size given and
prints, for each, the peak resident set size of that process (the kernel's ru_maxrss of the child,
which counts Python, numpy and every array alive at the worst moment), its CPU seconds and the load
average. The issue's goal: at most 150 MB at 1,000,000 Attack games in lockstep, and a peak that
does not grow with -n (tests/runtime/test_lockstep_memory.py holds the latter at two sizes).

    .venv/bin/python benchmarks/peak_memory.py [--ruleset attack-of-the-vampires]
        [--games 20000,1000000] [--backend lockstep]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

DUSK = Path(sys.executable).parent / "dusk"


def peak(command: list[str]) -> tuple[float, float]:
    """(peak resident MB, CPU seconds) of one child process, waited for alone."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}) after {time.perf_counter() - started:.1f} s")
    # ru_maxrss is in kilobytes on Linux (bytes on macOS).
    scale = 1 if sys.platform == "darwin" else 1024
    return usage.ru_maxrss * scale / 1e6, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="attack-of-the-vampires")
    parser.add_argument("--games", default="20000,1000000", help="sizes, comma-separated")
    parser.add_argument("--backend", default="lockstep", choices=["auto", "lockstep", "untraced"])
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, Python {sys.version.split()[0]},"
          f" {resource.getpagesize()}-byte pages")
    for games in (int(n) for n in args.games.split(",")):
        before = " ".join(f"{x:.2f}" for x in os.getloadavg())
        mb, cpu = peak([str(DUSK), "simulate", args.ruleset, "-n", str(games), "--workers", "1", "--json",
                        "--backend", args.backend])
        after = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"  {args.ruleset}, {games:,} games, --backend {args.backend}: peak {mb:6.1f} MB,"
              f" cpu {cpu:7.2f} s; load average {before} -> {after}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
