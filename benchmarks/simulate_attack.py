"""Whole simulations of Attack of the Vampires, as a user runs them, against the same rules by hand.

Measured: the whole `dusk simulate attack-of-the-vampires -n N --workers 1 --json` process (start-up,
loading and checking the YAML, writing its program, N games, the report) against the whole
`python benchmarks/attack_plain.py --games N` process (the same rules by hand, one random.Random
for every game: the yardstick; side_by_side.py measures it with CPU times and medians too), once with
each backend; `attack_by_hand.py`, the same hand-written game replayed with dusk's per-game seeds (same
dice in the same order: its win count must equal the untraced backend's), is run once, untimed:
`--backend untraced` (one game at a time: the same dice as by hand) and `--backend lockstep`
(thousands of games at once in numpy arrays: other dice, the same game, so its win rate must lie
within 5 standard errors of the hand-written game's). Runs alternate between the three and the best
of each is kept, so a noisy, shared machine biases none; the figures to read are the ratios of the
times (hand / dusk: 1.0 would be as fast as the hand-written game, above 1.0 faster).

    .venv/bin/python benchmarks/simulate_attack.py --games 200000 --rounds 3 [--house]

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

from ruleset_engine.analysis.simulate import game_seed, play_game, play_lockstep_range, simulation_program  # noqa: E402
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
    play_lockstep_range((name, params), 0, 0, games)
    rates["lockstep"] = games / (time.perf_counter() - start)
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
    commands = {"untraced": dusk_cmd + ["--backend", "untraced"], "lockstep": dusk_cmd + ["--backend", "lockstep"]}
    hand_cmd = [sys.executable, str(HERE / "attack_plain.py"), "--games", str(args.games)]
    replay_cmd = [sys.executable, str(HERE / "attack_by_hand.py"), "--games", str(args.games)]
    if args.house:
        hand_cmd.append("--house")
        replay_cmd.append("--house")
    best = {"untraced": float("inf"), "lockstep": float("inf"), "hand": float("inf")}
    wins = {}
    with tempfile.TemporaryDirectory() as folder:
        env = user_environment(folder)
        for command in commands.values():       # the bytecode and the verdict, kept
            timed(command[:3] + ["-n", "1"] + command[5:], env)
        timed(hand_cmd[:2] + ["--games", "1"] + hand_cmd[4:], env)
        for _ in range(args.rounds):
            for backend, command in commands.items():
                t, out = timed(command, env)
                best[backend] = min(best[backend], t)
                wins[backend] = json.loads(out)["results"].get("won", {}).get("count", 0)
            t, out = timed(hand_cmd, env)
            best["hand"] = min(best["hand"], t)
            wins["hand"] = json.loads(out)["results"].get("won", 0)
        wins["replay"] = int(timed(replay_cmd, env)[1].split(",")[1].split()[0])
    n = args.games
    rate = wins["hand"] / n
    # Two independent runs of n games: the difference of their win rates has this standard error.
    se = (2 * rate * (1 - rate) / n) ** 0.5
    lockstep_agrees = abs(wins["lockstep"] - wins["hand"]) / n <= 5 * max(se, 1 / n)
    print(f"whole processes, {n:,} games of {name}, best of {args.rounds}:")
    print(f"  dusk simulate --workers 1 --backend untraced   {best['untraced']:7.2f} s")
    print(f"  dusk simulate --workers 1 --backend lockstep   {best['lockstep']:7.2f} s")
    print(f"  by hand                                        {best['hand']:7.2f} s")
    print(f"  ratio untraced (by hand / dusk)                {best['hand'] / best['untraced']:7.3f}   (goal: at least 0.35)")
    print(f"  ratio lockstep (by hand / dusk)                {best['hand'] / best['lockstep']:7.3f}   (goal: at least 1.0)")
    print(f"  games won: untraced {wins['untraced']}, replayed by hand with its seeds {wins['replay']}: "
          f"{'the same' if wins['untraced'] == wins['replay'] else 'DIFFERENT'}")
    print(f"  games won: lockstep {wins['lockstep']} (other dice): "
          f"{'within' if lockstep_agrees else 'MORE THAN'} 5 standard errors of by hand")
    dusk_wins, hand_wins = wins["untraced"], wins["replay"]
    rates = in_process(name, args.house, max(1000, args.games // 4))
    print("in this process, games per second (no start-up):")
    for key in ("lockstep", "untraced", "traced", "by hand"):
        print(f"  {key:<10} {rates[key]:>9,.0f}   ({rates[key] / rates['by hand']:.3f} of by hand)")
    return 0 if dusk_wins == hand_wins and lockstep_agrees else 1


if __name__ == "__main__":
    raise SystemExit(main())
