"""Whole games of Attack of the Vampires per second: the YAML through the interpreter, against
the same rules written by hand (attack_by_hand.py), in one run, on one worker.

Both play the same number of games; their win rates must agree (the 95% intervals overlap),
and the figure to read is the ratio of games per second. Rounds alternate between the two
and the best of each is kept, so a noisy, shared machine biases neither.

    .venv/bin/python benchmarks/simulate_attack.py [--games 2000] [--rounds 3] [--house]

What limits the interpreted game (measured with cProfile over 300 games): about 55% of the
time goes to evaluating formulas (some fifteen a round), each a chain of Python closures
over Die and Pool objects that keep each die's history for the trace; about 25% to the
step interpreter (one function call per step, procedure frames, loop bookkeeping); the
rest to the loop, the end conditions and turning pools into state. The hand-written round
is a few integer operations and three to eight calls of randint. Reaching a quarter of its
speed would take compiling a whole ruleset to Python source with pools as plain tuples of
faces in simulations, a second evaluator to keep equal to the first.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from attack_by_hand import play_attack  # noqa: E402

from ruleset_engine.analysis.simulate import game_seed, loop_action, play_one, wilson  # noqa: E402
from ruleset_engine.ruleset import load  # noqa: E402
from ruleset_engine.runtime import resolve_params  # noqa: E402


def interpreted(ruleset, params, games: int, seed: int) -> tuple[float, int]:
    action = loop_action(ruleset)
    start = time.perf_counter()
    wins = sum(play_one(ruleset, params, game_seed(seed, i), action).result == "won" for i in range(games))
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
    best_ours = best_hand = float("inf")
    for r in range(args.rounds):
        t, ours_wins = interpreted(ruleset, params, args.games, seed=r)
        best_ours = min(best_ours, t)
        t, hand_wins = by_hand(args.games, seed=r, house=args.house)
        best_hand = min(best_hand, t)
    lo1, hi1 = wilson(ours_wins, args.games)
    lo2, hi2 = wilson(hand_wins, args.games)
    agree = lo1 <= hi2 and lo2 <= hi1
    ours_rate, hand_rate = args.games / best_ours, args.games / best_hand
    print(f"{'':<14}{'games/s':>10}{'win rate':>10}   95% CI")
    print(f"{'interpreted':<14}{ours_rate:>10,.0f}{ours_wins / args.games:>10.2%}   {lo1:.2%} .. {hi1:.2%}")
    print(f"{'by hand':<14}{hand_rate:>10,.0f}{hand_wins / args.games:>10.2%}   {lo2:.2%} .. {hi2:.2%}")
    print(f"ratio (interpreted / by hand): {ours_rate / hand_rate:.3f}  (goal: 0.25)")
    print(f"win rates agree: {'yes' if agree else 'NO'}")
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
