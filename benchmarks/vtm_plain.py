"""The VtM duel of Ana against Brute written by hand in plain Python: the speed yardstick of
benchmarks/side_by_side.py.

The rules `dusk simulate vtm-duel --sheets characters/ --set attacker=Ana --set defender=Brute`
plays (rulesets/vtm-duel.yaml over the toolkit rulesets/vampire-the-masquerade.yaml and its
combat.yaml, default params, read as /work/shared/RULINGS.md and docs/rulings.md read the Revised
summary), for these two sheets only, written the way a Python programmer would write a simulator:
one function per duel, every die from one random.Random seeded once.

- Ana (rulesets/vampire-the-masquerade/ana.yaml): a vampire, Dexterity 3, Wits 3, Stamina 2,
  Firearms 4 (her best attack: a pistol, damage 4, lethal, difficulty 6), no armour.
  Brute (characters/brute.yaml): a human, Dexterity 3, Wits 2, Strength 4, Stamina 4, Brawl 3 (his
  best attack: Melee 2 is not above Brawl 3, so his fists: bashing, difficulty 6), armour 1.
- A turn: each fighter not down and not dazed for this turn rolls initiative, Dexterity + Wits +
  1d10 + the wound penalty; the higher acts first, a tie to the higher Dexterity + Wits (Ana's 6
  against Brute's 5, so a tie in both, which a die would break, cannot happen here). In that order
  each fighter still standing who rolled initiative attacks the other, if the other still stands.
- An attack: Dexterity + the attack's Ability + the wound penalty dice (none: a miss) at difficulty
  6; a die at 6 or more succeeds, each 1 cancels one success (never below 0); a botch does nothing
  more in an attack. No success left: a miss. No defence (the duel's default tactic, attack).
- Damage: Ana's pistol rolls 4 + her net successes (a firearm adds them all, firearm_bonus all),
  lethal; Brute's fists roll his Strength 4, bashing. Dice at 6 or more are levels; 1s take
  nothing away (damage_ones_cancel false). None: no damage.
- Soak (only when the damage roll got some): Brute soaks lethal with his armour only (a human
  cannot soak lethal with Stamina): 1 die; Ana soaks bashing with Stamina 2 and no armour: 2 dice;
  at 6 or more, 1s take nothing away. Levels = damage successes - soak successes, at least 0.
- The health track: seven boxes with penalties 0, -1, -1, -2, -2, -5 and Incapacitated; the wound
  penalty is that of the last box marked. Levels past the last box change which marks a human has
  (bashing turned lethal, then death) or put a vampire in torpor: either way the fighter is down,
  and the boxes marked stay seven, so only the count matters here.
- Dazed (the optional rule, on): more levels in one attack than Stamina (+ 2 for a vampire: Ana
  4, Brute 4), taken by a fighter still standing, lose the fighter's next turn (no initiative, no
  attack).
- The duel ends after a turn in which a fighter is down (Incapacitated, in torpor or dead):
  attacker_wins when Brute is down, defender_wins when Ana is; after 50 turns it is a draw.

What only the table sees (the words, the order said, the coin rolled for a tie that cannot happen)
changes no number, so it is not played. It lives only here: the game dusk plays is the YAML;
tests/games/test_plain_simulators.py holds the two to each other's statistics.

    python benchmarks/vtm_plain.py --games 50000 [--seed 0]

prints the duels' results and the means of turns and of the levels each lost, one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

PENALTY = (0, 0, -1, -1, -2, -2, -5, 0)     # the wound penalty with this many boxes marked
DOWN = 7                                    # boxes marked: Incapacitated
TURNS = 50


def successes(randint, dice: int, diff: int, ones_cancel: bool) -> int:
    """dice d10 at diff: the dice at or above it, less the 1s when they cancel, never below 0."""
    hits = ones = 0
    for _ in range(dice):
        face = randint(1, 10)
        if face >= diff:
            hits += 1
        elif face == 1:
            ones += 1
    return max(0, hits - ones) if ones_cancel else hits


def play_duel(rng: random.Random) -> tuple[str, int, int, int]:
    """One duel: (result, turns fought, levels Ana lost, levels Brute lost)."""
    randint = rng.randint
    # Each fighter: [Dexterity + Wits, attack dice, boxes marked, the turn it is dazed for].
    ana = {"tie": 6, "attack": 3 + 4, "stamina": 2, "daze": 2 + 2, "marked": 0, "dazed": -1}
    brute = {"tie": 5, "attack": 3 + 3, "stamina": 4, "daze": 4, "marked": 0, "dazed": -1}

    def attack(x: dict, y: dict, turn: int) -> None:
        net = successes(randint, max(0, x["attack"] + PENALTY[x["marked"]]), 6, True)
        if net == 0:
            return
        if x is ana:
            damage, soak = 4 + net, 1          # the pistol, lethal: Brute soaks with his armour
        else:
            damage, soak = 4, 2                # fists, bashing: Ana soaks with her Stamina
        hits = successes(randint, damage, 6, False)
        if hits == 0:
            return
        levels = max(0, hits - successes(randint, soak, 6, False))
        if levels == 0:
            return
        y["marked"] = min(DOWN, y["marked"] + levels)
        if levels > y["daze"] and y["marked"] < DOWN:
            y["dazed"] = turn + 1

    turn = 0
    while turn < TURNS:
        turn += 1
        order = []
        for fighter in (ana, brute):
            if fighter["dazed"] != turn:
                order.append((fighter["tie"] + randint(1, 10) + PENALTY[fighter["marked"]], fighter["tie"], fighter))
        order.sort(key=lambda o: (o[0], o[1]), reverse=True)
        acting = [o[2] for o in order]
        for x in acting:
            y = brute if x is ana else ana
            if x["marked"] < DOWN and y["marked"] < DOWN:
                attack(x, y, turn)
        if brute["marked"] >= DOWN:
            return "attacker_wins", turn, ana["marked"], brute["marked"]
        if ana["marked"] >= DOWN:
            return "defender_wins", turn, ana["marked"], brute["marked"]
    return "draw", turn, ana["marked"], brute["marked"]


def main() -> None:
    parser = argparse.ArgumentParser(description="The VtM duel, Ana against Brute, by hand: the results of N duels.")
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results: Counter = Counter()
    turns = ana_lost = brute_lost = 0
    for _ in range(args.games):
        result, fought, lost_a, lost_d = play_duel(rng)
        results[result] += 1
        turns += fought
        ana_lost += lost_a
        brute_lost += lost_d
    n = args.games
    print(json.dumps({"games": n, "results": dict(results), "mean_turns": turns / n,
                      "attacker_lost": ana_lost / n, "defender_lost": brute_lost / n}))


if __name__ == "__main__":
    main()
