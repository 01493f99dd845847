"""Whole games of Attack of the Vampires per second: the YAML through the interpreter, against
the same rules written by hand (attack_by_hand.py), in one run, on one worker.

Both play the same number of games; their win rates must agree (the 95% intervals overlap),
and the figure to read is the ratio of games per second. Rounds alternate between the two
and the best of each is kept, so a noisy, shared machine biases neither.

    .venv/bin/python benchmarks/simulate_attack.py [--games 2000] [--rounds 3] [--house]

What limits it (cProfile): the step interpreter spends about 55% of its time evaluating
formulas, chains of closures over Die and Pool objects that keep each die's history for the
trace, and 25% walking steps; `dusk simulate` compiles the ruleset to Python functions over
tuples of faces (ruleset_engine/analysis/compiled.py), and what is left there is the engine's
generality: every value read from the game's state is checked for its kind, pools are built
and sorted as tuples where the hand-written code keeps a counter, and every round goes
through the loop's bookkeeping (end conditions, loop counters).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from attack_by_hand import play_attack  # noqa: E402

from ruleset_engine.analysis.simulate import game_seed, play_game, simulation_program, wilson  # noqa: E402
from ruleset_engine.ruleset import load  # noqa: E402
from ruleset_engine.runtime import Game, resolve_params  # noqa: E402


def interpreted(ruleset, params, games: int, seed: int, compiled=None) -> tuple[float, int]:
    """Games through the engine: traced as at the table, or (compiled given) untraced as `dusk simulate` runs."""
    start = time.perf_counter()
    if compiled is not None:
        wins = sum(play_game(compiled, game_seed(seed, i))[0] == "won" for i in range(games))
        return time.perf_counter() - start, wins
    wins = 0
    for i in range(games):
        game = Game.start(ruleset, params, seed=game_seed(seed, i), record=False, auto=True)
        while not game.over:
            game.perform("round")
        wins += game.result == "won"
    return time.perf_counter() - start, wins


def by_hand(games: int, seed: int, house: bool) -> tuple[float, int]:
    start = time.perf_counter()
    wins = sum(play_attack(random.Random(game_seed(seed, i)), house)[0] == "won" for i in range(games))
    return time.perf_counter() - start, wins


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--house", action="store_true", help="the keep-sets house rule instead")
    args = parser.parse_args()
    ruleset = load("attack-keep-sets" if args.house else "attack-of-the-vampires")
    params = resolve_params(ruleset, {})
    compiled = simulation_program(ruleset, params)
    best = {"simulate": float("inf"), "interpreter": float("inf"), "by hand": float("inf")}
    wins = {}
    for r in range(args.rounds):
        t, wins["simulate"] = interpreted(ruleset, params, args.games, r, compiled)
        best["simulate"] = min(best["simulate"], t)
        t, wins["interpreter"] = interpreted(ruleset, params, args.games, r)
        best["interpreter"] = min(best["interpreter"], t)
        t, wins["by hand"] = by_hand(args.games, seed=r, house=args.house)
        best["by hand"] = min(best["by hand"], t)
    print(f"{'':<28}{'games/s':>10}{'win rate':>10}   95% CI")
    intervals = {}
    for name, label in (("simulate", "dusk simulate (compiled)"), ("interpreter", "step interpreter"),
                        ("by hand", "by hand")):
        lo, hi = intervals[name] = wilson(wins[name], args.games)
        print(f"{label:<28}{args.games / best[name]:>10,.0f}{wins[name] / args.games:>10.2%}   {lo:.2%} .. {hi:.2%}")
    hand = args.games / best["by hand"]
    print(f"ratio, dusk simulate / by hand: {args.games / best['simulate'] / hand:.3f}  (goal: 0.25)")
    print(f"ratio, step interpreter / by hand: {args.games / best['interpreter'] / hand:.3f}")
    agree = all(intervals[a][0] <= intervals["by hand"][1] and intervals["by hand"][0] <= intervals[a][1]
                for a in ("simulate", "interpreter"))
    print(f"win rates agree: {'yes' if agree else 'NO'}")
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
