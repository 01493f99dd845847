"""Attack of the Vampires by hand, replayed with dusk's seeds: a correctness check, not a yardstick.

The hand-written game is benchmarks/attack_plain.py's `play_attack`; here game i is seeded as
`dusk simulate` seeds it (SHA-256 of the run's seed and the game's index), so that the untraced
backend, which draws its dice in the same order, must play the very same games
(tests/games/test_attack_matches_by_hand.py). Hashing a seed per game costs about a fifth of the
time, so the speed yardstick is attack_plain.py (one generator for every game).

As a program it plays what `dusk simulate attack-of-the-vampires -n N --seed S` plays, game for
game (game i seeded as dusk seeds it), and prints the win rate:

    python benchmarks/attack_by_hand.py --games 20000 [--seed 0] [--house]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from attack_plain import play_attack  # noqa: E402


def game_seed(seed: int, index: int) -> int:
    """Game `index` of a run seeded `seed`, seeded as dusk simulate seeds it."""
    return int.from_bytes(hashlib.sha256(f"dusk/{seed}/{index}".encode()).digest()[:8], "big")


def main() -> None:
    parser = argparse.ArgumentParser(description="Attack of the Vampires by hand: the win rate of N games.")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--house", action="store_true", help="the keep-sets house rule")
    args = parser.parse_args()
    wins = sum(play_attack(random.Random(game_seed(args.seed, i)), args.house)[0] == "won" for i in range(args.games))
    print(f"{args.games} games, {wins} won ({wins / args.games:.4%})")


if __name__ == "__main__":
    main()
