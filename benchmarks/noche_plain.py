"""A night of Noche de los Vampiros written by hand in plain Python: the speed yardstick of
benchmarks/side_by_side.py.

The rules of rulesets/noche-de-los-vampiros.yaml under its default reading and automatic play
(four players, twelve Hours, five boxes, a pool limit of ten; each living player risks half their
dice rounded up and brings in one Relationship; relationships once per conflict; a dead player's
own die rolled with their share of the pool; cancelled dice go to the pool), written the way a
Python programmer would write a simulator: one function per night, every die from one
random.Random seeded once. What only the table sees (names, who starts the Relationships and their
words, who narrates) changes no number, so it is not played. It lives only here: the game dusk
plays is the YAML; tests/games/test_plain_simulators.py holds the two to each other's statistics.

    python benchmarks/noche_plain.py --games 20000 [--seed 0] [--players 4]

prints the nights' results and the means of survivors, deaths, conflicts and outcomes read (0 to 6), one
line of JSON.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

HOURS, BOXES, POOL_LIMIT, HOUR_POOL, MAX_CONFLICTS = 12, 5, 10, 10, 6


def unpair(hand: list[int]) -> tuple[list[int], int]:
    """One die of every pair set aside: (the dice kept, how many set aside)."""
    kept, aside = [], 0
    for face, n in Counter(hand).items():
        kept += [face] * (n - n // 2)
        aside += n // 2
    return kept, aside


def cancel(hand: list[int], pool: list[int]) -> tuple[list[int], int]:
    """Each pool die cancels one equal die of the hand: (the dice left, how many cancelled)."""
    against = Counter(pool)
    left = []
    for face in hand:
        if against[face]:
            against[face] -= 1
        else:
            left.append(face)
    return left, len(hand) - len(left)


def play_night(rng: random.Random, players: int = 4, reads: list[int] | None = None) -> tuple[str, int, int, int]:
    """One night: (result, characters alive at dawn, deaths, conflicts); `reads[k]` counts the
    outcomes k (the highest die left, 0 none) the living players read."""
    reads = [0] * 7 if reads is None else reads
    randint = rng.randint
    alive = [True] * players
    free = [BOXES] * players            # boxes not yet checked
    dice = [0] * players
    living, deaths, conflicts_all = players, 0, 0
    for _hour in range(HOURS):
        pool, conflicts = 1, 0
        for p in range(players):
            dice[p] = 2 * free[p] if alive[p] else 1
        while True:
            whole_hour = conflicts >= MAX_CONFLICTS
            conflicts += 1
            conflicts_all += 1
            if whole_hour:
                pool = max(pool, HOUR_POOL)
            for p in range(players):            # a last box checked: death comes in this conflict
                if alive[p] and free[p] == 0:
                    alive[p], dice[p] = False, 1
                    living -= 1
                    deaths += 1
            hands = {}
            for p in range(players):
                if alive[p]:
                    risk = (dice[p] + 1) // 2
                    dice[p] += 1                # one Relationship brought in: a bonus die kept
                    hands[p] = unpair([randint(1, 6) for _ in range(risk + 1)])
            dead = players - living
            share = pool // (dead + 1)
            vampires = [randint(1, 6) for _ in range(pool - share * dead)]
            for p in range(players):
                if not alive[p]:
                    vampires += [randint(1, 6) for _ in range(share)]
                    vampires.append(randint(1, 6))      # the dead player's own die
            for p, (kept, paired) in hands.items():
                left, cancelled = cancel(kept, vampires)
                reads[max(left, default=0)] += 1
                lost = min(paired + cancelled, dice[p] - 1)     # nobody falls below one die
                dice[p] -= lost
                pool += lost
            if living == 0:
                return "nobody_alive", 0, deaths, conflicts_all
            if pool >= POOL_LIMIT or whole_hour:
                break
        for p in range(players):                # the Hour ends: one die left checks a box
            if alive[p] and dice[p] <= 1 and free[p] > 0:
                free[p] -= 1
    for p in range(players):                    # dawn: a last box checked dies now
        if alive[p] and free[p] == 0:
            alive[p] = False
            living -= 1
            deaths += 1
    return ("dawn" if living else "nobody_alive"), living, deaths, conflicts_all


def main() -> None:
    parser = argparse.ArgumentParser(description="Noche de los Vampiros by hand: the results of N nights.")
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results: Counter = Counter()
    survivors = deaths = conflicts = 0
    reads = [0] * 7
    for _ in range(args.games):
        result, alive, died, played = play_night(rng, args.players, reads)
        results[result] += 1
        survivors += alive
        deaths += died
        conflicts += played
    n = args.games
    print(json.dumps({"games": n, "results": dict(results), "survivors": survivors / n, "deaths": deaths / n,
                      "conflicts": conflicts / n, "reads": [k / n for k in reads]}))


if __name__ == "__main__":
    main()
