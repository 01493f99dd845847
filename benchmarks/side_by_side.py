"""dusk against the plain Python a programmer would write, whole process against whole process.

For each game, the installed `dusk simulate NAME -n N --workers 1 --json` process (start-up, the
YAML loaded and checked, its program written, N games, the report) and `python
benchmarks/X_plain.py --games N` (the same rules written by hand: one `random.Random`, a loop per
game, no tricks) run one after the other, round after round, so a noisy, shared machine favours
neither. Printed per game: the minimum and the median of each, in wall-clock seconds and in CPU
seconds (user + system of the process: on a machine whose cores other work shares, the wall clock
also counts the waits for a core, the CPU time does not), and the ratios plain / dusk (above 1.0,
dusk is faster), with the load average before and after. The results of the two are printed side by
side too (other dice: tests/games/test_plain_simulators.py holds them to each other's statistics).

    .venv/bin/python benchmarks/side_by_side.py [--rounds 3] [--only attack,noche,vtm]
        [--attack-games 200000] [--noche-games 20000] [--vtm-games 50000] [--backend lockstep]

The cases: Attack of the Vampires (attack_plain.py), a Noche night under the default reading with
four players (noche_plain.py), and the VtM duel of Ana (the ruleset's sheet) and Brute
(characters/brute.yaml) (vtm_plain.py). `--backend auto` plays each the way `dusk
simulate` would by default: lockstep when it can, untraced otherwise (which one ran is printed).
Python keeps the compiled bytecode between runs as on a user's machine, after one untimed run of each
(simulate_attack.py's user_environment).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DUSK = Path(sys.executable).parent / "dusk"


@dataclass(frozen=True)
class Case:
    """One game: dusk's command line and the plain simulator's, for n games."""
    key: str
    title: str
    dusk: tuple[str, ...]
    plain: str
    games: int


def cases(args) -> list[Case]:
    return [
        Case("attack", "Attack of the Vampires", ("attack-of-the-vampires",), "attack_plain.py", args.attack_games),
        Case("noche", "a Noche night, four players", ("noche-de-los-vampiros", "--set", "players=4"),
             "noche_plain.py", args.noche_games),
        Case("vtm", "the VtM duel, Ana against Brute",
             ("vtm-duel", "--sheets", str(ROOT / "characters"), "--set", "attacker=Ana", "--set", "defender=Brute"),
             "vtm_plain.py", args.vtm_games),
    ]


def user_environment(folder: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "bytecode")
    env["DUSK_CACHE_DIR"] = os.path.join(folder, "cache")
    return env


def timed(command: list[str], env: dict) -> tuple[float, float, str, str]:
    """(wall-clock seconds, CPU seconds, stdout, stderr) of one whole process."""
    before = os.times()
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, out.stdout, out.stderr


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def commands(case: Case, games: int, backend: str) -> tuple[list[str], list[str]]:
    dusk = [str(DUSK), "simulate", *case.dusk, "-n", str(games), "--workers", "1", "--json", "--backend", backend]
    plain = [sys.executable, str(HERE / case.plain), "--games", str(games)]
    return dusk, plain


def measure(case: Case, rounds: int, backend: str, env: dict) -> None:
    dusk_cmd, plain_cmd = commands(case, case.games, backend)
    have_plain = (HERE / case.plain).exists()
    warm_dusk, warm_plain = commands(case, 1, backend)
    _, _, _, said = timed(warm_dusk, env)                      # the bytecode and the verdict, kept
    played_by = next((line for line in said.splitlines() if "backend" in line), "").strip()
    if have_plain:
        timed(warm_plain, env)
    times = {"dusk": [], "plain": []}
    outs = {}
    before = load()
    for _ in range(rounds):
        wall, cpu, out, _ = timed(dusk_cmd, env)
        times["dusk"].append((wall, cpu))
        outs["dusk"] = json.loads(out)
        if have_plain:
            wall, cpu, out, _ = timed(plain_cmd, env)
            times["plain"].append((wall, cpu))
            outs["plain"] = json.loads(out)
    print(f"{case.title}: {case.games:,} games, {rounds} rounds alternating; load average {before} -> {load()}")
    print(f"  dusk simulate --backend {backend}: {played_by or 'as asked'}")
    rows = [("dusk", " ".join(["dusk simulate", *case.dusk[:1], "--backend", backend]))]
    if have_plain:
        rows.append(("plain", f"python benchmarks/{case.plain}"))
    for key, label in rows:
        walls = [w for w, _ in times[key]]
        cpus = [c for _, c in times[key]]
        print(f"  {label:<58} wall min {min(walls):7.2f} s median {statistics.median(walls):7.2f} s"
              f" | cpu min {min(cpus):7.2f} s median {statistics.median(cpus):7.2f} s")
    if not have_plain:
        print(f"  no plain simulator ({case.plain}) to compare with")
        return
    for i, what in enumerate(("wall", "cpu")):
        d = [t[i] for t in times["dusk"]]
        p = [t[i] for t in times["plain"]]
        print(f"  ratio plain / dusk, {what:<4}: of the minimums {min(p) / min(d):6.2f}x,"
              f" of the medians {statistics.median(p) / statistics.median(d):6.2f}x")
    results = {k: v["count"] for k, v in outs["dusk"]["results"].items()}
    print(f"  results: dusk {dict(sorted(results.items()))}, plain {dict(sorted(outs['plain']['results'].items()))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="attack,noche,vtm")
    parser.add_argument("--backend", default="auto", choices=["auto", "lockstep", "untraced"])
    parser.add_argument("--attack-games", type=int, default=200_000)
    parser.add_argument("--noche-games", type=int, default=20_000)
    parser.add_argument("--vtm-games", type=int, default=50_000)
    args = parser.parse_args()
    wanted = set(args.only.split(","))
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as folder:
        env = user_environment(folder)
        for case in cases(args):
            if case.key in wanted:
                measure(case, args.rounds, args.backend, env)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
