"""Attack of the Vampires written by hand in plain Python: the speed yardstick of benchmarks/side_by_side.py.

The same rules as rulesets/attack-of-the-vampires.yaml with its default params (read as the
project's rulings read them), written the way a Python programmer would write a simulator: one
function per game, every die from one random.Random seeded once, counters for the results. It
lives only here: the game that dusk plays is the YAML. benchmarks/attack_by_hand.py replays the
same function game for game with dusk's seeds (a correctness check, not a yardstick), and
tests/games/test_plain_simulators.py holds its statistics to dusk's.

    python benchmarks/attack_plain.py --games 200000 [--seed 0] [--house]

prints the games won and lost (and a timeout, if any), one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import random


def play_attack(rng: random.Random, house_keep_sets: bool = False) -> tuple[str, int, int, int]:
    """One whole game: (result, rounds, life left, vampires left)."""
    randint = rng.randint
    life = randint(1, 20)
    while life < 10:
        life = randint(1, 20)
    vampires, ticks, kept_sixes = 3, 0, 0
    fighting, ones, kept_set = False, 0, []
    rounds = 0

    def attack() -> int:
        white = randint(1, 6)
        return 0 if white == 6 else white

    while rounds < 1000:
        rounds += 1
        if not fighting:
            kept_sixes += sum(1 for _ in range(3 - kept_sixes) if randint(1, 6) == 6)
            if kept_sixes == 3:
                if randint(1, 6) <= 3:
                    fighting, ones, kept_set = True, 0, []
                else:
                    kept_sixes = 0
        if fighting:
            roll = [randint(1, 6) for _ in range(5 - ones - len(kept_set))]
            ones += roll.count(1)
            dice = kept_set + roll
            counts: dict[int, int] = {}
            for face in dice:
                if face != 1:
                    counts[face] = counts.get(face, 0) + 1
            best = max(counts, key=lambda f: (counts[f], f)) if counts else None
            if best is not None and counts[best] >= 3:
                vampires -= 1
                fighting, kept_sixes = False, 0
            elif ones >= 3:
                life -= attack()
                fighting, kept_sixes = False, 0
            elif house_keep_sets:
                kept_set = [best] * counts[best] if best is not None and counts[best] >= 2 else []
        if vampires == 0:
            return "won", rounds, life, 0
        if life <= 0:
            return "lost", rounds, life, vampires
        ticks += 1
        if ticks == 20:
            ticks = 0
            for _ in range(vampires):
                life -= attack()
                if life <= 0:          # the game ends at once: no vampire attacks a fallen hunter
                    return "lost", rounds, life, vampires
    return "timeout", rounds, life, vampires


def main() -> None:
    parser = argparse.ArgumentParser(description="Attack of the Vampires by hand: the results of N games.")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--house", action="store_true", help="the keep-sets house rule")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results: dict[str, int] = {}
    rounds = 0
    for _ in range(args.games):
        result, length, _, _ = play_attack(rng, args.house)
        results[result] = results.get(result, 0) + 1
        rounds += length
    print(json.dumps({"games": args.games, "results": results, "mean_rounds": rounds / args.games}))


if __name__ == "__main__":
    main()
