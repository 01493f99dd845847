"""Whole simulations of Attack of the Vampires, as a user runs them, against the same rules by hand.

Measured: the whole `dusk simulate attack-of-the-vampires -n N --workers 1 --json` process (start-up,
loading and checking the YAML, writing its program, N games, the report) against the whole
`python benchmarks/attack_by_hand.py --games N` process, which plays the same N games (same
seeds, same dice in the same order: their win counts must be equal). Runs alternate between
the two and the best of each is kept, so a noisy, shared machine biases neither; the figure to
read is the ratio of the times (hand / dusk: 1.0 would be as fast as the hand-written game).

Both processes run as on a user's machine: Python keeps the compiled bytecode of modules between
runs (this sandbox sets PYTHONDONTWRITEBYTECODE, which a default Python does not: the runs here
drop it and keep the bytecode in a folder of their own, after one untimed run of each). A ruleset
once found valid is remembered the same way (ruleset/remembered.py).

Also printed, in this process: games per second of the program alone, untraced (what simulate
runs) and traced (what the table runs, every die and event kept), without start-up.

    .venv/bin/python benchmarks/simulate_attack.py [--games 20000] [--rounds 3] [--house]

Where the time goes (line_profiler over the generated program, 2026-11-29): the search roll's
line is about a third of a round, most of it the dice themselves (random.randint, which the
hand-written game pays too: about a quarter of a simulated game); the time track's tick is about
another third (three formulas over a pool of four dice each round: a filter, a cancel and a
sort, where the hand-written game keeps a counter); the rest is the round's bookkeeping (the end
conditions, the loop counter, step counts) and the calls left between procedures. Start-up
(imports, the YAML read, checked and lowered) is about 0.2 s of the whole process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from attack_by_hand import play_attack  # noqa: E402

from ruleset_engine.analysis.simulate import game_seed, play_game, simulation_program  # noqa: E402
from ruleset_engine.ruleset import load  # noqa: E402
from ruleset_engine.runtime import Game, resolve_params  # noqa: E402

DUSK = Path(sys.executable).parent / "dusk"


def user_environment(folder: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "bytecode")
    env["DUSK_CACHE_DIR"] = os.path.join(folder, "cache")
    return env


def timed(args: list[str], env: dict) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(args, check=True, capture_output=True, text=True, env=env).stdout
    return time.perf_counter() - start, out


def in_process(name: str, house: bool, games: int) -> dict:
    ruleset = load(name)
    params = resolve_params(ruleset, {})
    program = simulation_program(ruleset, params)
    rates = {}
    start = time.perf_counter()
    for i in range(games):
        play_game(program, game_seed(0, i))
    rates["untraced"] = games / (time.perf_counter() - start)
    start = time.perf_counter()
    for i in range(games):
        play_attack(random.Random(game_seed(0, i)), house)
    rates["by hand"] = games / (time.perf_counter() - start)
    table_games = max(1, games // 10)
    start = time.perf_counter()
    for i in range(table_games):
        game = Game.start(ruleset, params, seed=game_seed(0, i), record=False, auto=True)
        while not game.over:
            game.perform("round")
    rates["traced"] = table_games / (time.perf_counter() - start)
    return rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--house", action="store_true", help="the keep-sets house rule instead")
    args = parser.parse_args()
    name = "attack-keep-sets" if args.house else "attack-of-the-vampires"
    dusk_cmd = [str(DUSK), "simulate", name, "-n", str(args.games), "--workers", "1", "--json"]
    hand_cmd = [sys.executable, str(HERE / "attack_by_hand.py"), "--games", str(args.games)]
    if args.house:
        hand_cmd.append("--house")
    best = {"dusk": float("inf"), "hand": float("inf")}
    with tempfile.TemporaryDirectory() as folder:
        env = user_environment(folder)
        timed(dusk_cmd[:3] + ["-n", "1"] + dusk_cmd[5:], env)      # the bytecode and the verdict, kept
        timed(hand_cmd[:2] + ["--games", "1"] + hand_cmd[4:], env)
        for _ in range(args.rounds):
            t, out = timed(dusk_cmd, env)
            best["dusk"] = min(best["dusk"], t)
            dusk_wins = json.loads(out)["results"].get("won", {}).get("count", 0)
            t, out = timed(hand_cmd, env)
            best["hand"] = min(best["hand"], t)
            hand_wins = int(out.split(",")[1].split()[0])
    ratio = best["hand"] / best["dusk"]
    print(f"whole processes, {args.games:,} games of {name}, best of {args.rounds}:")
    print(f"  dusk simulate --workers 1   {best['dusk']:7.2f} s")
    print(f"  by hand                     {best['hand']:7.2f} s")
    print(f"  ratio (by hand / dusk)      {ratio:7.3f}   (goal: at least 0.35)")
    print(f"  games won: dusk {dusk_wins}, by hand {hand_wins}: {'the same' if dusk_wins == hand_wins else 'DIFFERENT'}")
    rates = in_process(name, args.house, max(1000, args.games // 4))
    print("in this process, games per second (no start-up):")
    for key in ("untraced", "traced", "by hand"):
        print(f"  {key:<10} {rates[key]:>9,.0f}   ({rates[key] / rates['by hand']:.3f} of by hand)")
    return 0 if dusk_wins == hand_wins else 1


if __name__ == "__main__":
    raise SystemExit(main())
