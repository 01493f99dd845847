"""What `--records games.parquet` costs: whole `dusk simulate` processes with and without it, side by side.

Measured: `dusk simulate attack-of-the-vampires -n N --backend lockstep --workers 1 --json`, once as it
is and once with `--records games.parquet`, alternating (best of --rounds of each), at N = --games
(1,000,000) for the time, and at --small (100,000) too for the memory. Each process is waited for with
os.wait4, which gives that process's own CPU time (user + system) and peak resident memory; the wall
time is printed beside them. On a machine shared with other work the CPU time is the steadier figure.

The goals (issue 30): records cost at most 25% more time, and a run with records has the same peak
memory within 20 MB at the small N and the large one (the rows go to the file a range of 50,000
games at a time, so memory does not grow with N). Also checked: the file holds N rows and each run's
summary is the same with records as without (the same seed).

    .venv/bin/python benchmarks/records_attack.py [--games 1000000] [--small 100000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from simulate_attack import user_environment  # noqa: E402

DUSK = Path(sys.executable).parent / "dusk"
NAME = "attack-of-the-vampires"


def measured(args: list[str], env: dict) -> dict:
    """One whole process: wall seconds, CPU seconds, peak memory (MiB) and its standard output."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(args, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed with status {process.returncode}")
        out.seek(0)
        text = out.read().decode()
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak": usage.ru_maxrss / 1024, "out": text}


def rows_in(path: str) -> int:
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).metadata.num_rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--small", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = user_environment(folder)
        target = os.path.join(folder, "games.parquet")

        def command(n: int, records: bool) -> list[str]:
            line = [str(DUSK), "simulate", NAME, "-n", str(n), "--backend", "lockstep", "--workers", "1", "--json"]
            return line + (["--records", target] if records else [])

        measured(command(1, True), env)          # the bytecode and the verdict, kept
        best: dict = {}
        same = True
        for n, rounds in ((args.small, 1), (args.games, args.rounds)):
            for _ in range(rounds):
                runs = {records: measured(command(n, records), env) for records in (False, True)}
                same = same and json.loads(runs[False]["out"]) == json.loads(runs[True]["out"])
                same = same and rows_in(target) == n
                for records, run in runs.items():
                    key = (n, records)
                    kept = best.setdefault(key, {"wall": float("inf"), "cpu": float("inf"), "peak": 0.0})
                    kept["wall"] = min(kept["wall"], run["wall"])
                    kept["cpu"] = min(kept["cpu"], run["cpu"])
                    kept["peak"] = max(kept["peak"], run["peak"])
    big, small = args.games, args.small
    plain, recorded = best[(big, False)], best[(big, True)]
    print(f"whole processes, {NAME}, --backend lockstep --workers 1 (best of {args.rounds} at {big:,} games):")
    print(f"  {big:,} games                      wall {plain['wall']:7.2f} s   cpu {plain['cpu']:7.2f} s")
    print(f"  {big:,} games --records .parquet   wall {recorded['wall']:7.2f} s   cpu {recorded['cpu']:7.2f} s")
    cpu_ratio, wall_ratio = recorded["cpu"] / plain["cpu"], recorded["wall"] / plain["wall"]
    print(f"  records / without: cpu {cpu_ratio:.3f}, wall {wall_ratio:.3f}   (goal: at most 1.25)")
    print("peak memory (MiB):            without  --records")
    for n in (small, big):
        print(f"  {n:>9,} games            {best[(n, False)]['peak']:9.1f}  {best[(n, True)]['peak']:9.1f}")
    growth = best[(big, True)]["peak"] - best[(small, True)]["peak"]
    print(f"  with --records, {big:,} games minus {small:,}: {growth:+.1f} MiB   (goal: within 20 MB)")
    print(f"  rows in the file = games, and the summary the same with records as without: "
          f"{'yes' if same else 'NO'}")
    ok = same and cpu_ratio <= 1.25 and abs(growth) * 1.048576 <= 20
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
