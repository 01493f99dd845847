"""The plain hand-written simulators of benchmarks/ (the speed yardsticks of side_by_side.py) play
the rules dusk plays: their statistics against `dusk simulate`'s, lockstep backend (what the
benchmark times), on other dice.

Each bound is 5 standard errors of the difference of two independent estimates at these N (a rate:
sqrt(2 p (1 - p) / N) with p the two pooled, and at least 1/N's worth; a mean: the hand-written
sample's standard deviation, at least 1/sqrt(N) so that an event too rare for the hand-written sample to
show (a death in a cautious Noche night) may still happen a few times, times sqrt(2 / N)), so a correct pair fails one by chance about once in
1.7 million runs. A rule read differently in either (a die more, a pool dealt otherwise, an Hour
ended at another moment) moves these by many standard errors.
"""

import math
import random
import statistics
import sys
from pathlib import Path

from ruleset_engine.analysis.simulate import simulate

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from attack_plain import play_attack  # noqa: E402
from noche_plain import play_night  # noqa: E402
from vtm_plain import play_duel  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def rate_bound(a: int, b: int, n: int) -> float:
    p = (a + b) / (2 * n)
    return 5 * math.sqrt(2 * max(p * (1 - p), 1 / n) / n)


def mean_bound(sample: list, n: int) -> float:
    return 5 * max(statistics.pstdev(sample), 1 / math.sqrt(n)) * math.sqrt(2 / n)


def test_attack_plain_plays_what_dusk_plays():
    n = 20_000
    rng = random.Random(29)
    games = [play_attack(rng) for _ in range(n)]
    data = simulate("attack-of-the-vampires", n, seed=29, backend="lockstep").to_json()
    wins = sum(result == "won" for result, *_ in games)
    assert set(data["results"]) <= {"won", "lost"}
    dusk_wins = data["results"].get("won", {}).get("count", 0)
    assert abs(wins - dusk_wins) / n <= rate_bound(wins, dusk_wins, n), (wins, dusk_wins)
    rounds = [length for _, length, _, _ in games]
    assert abs(statistics.fmean(rounds) - data["length"]["mean"]) <= mean_bound(rounds, n)
    kills = [3 - vampires for *_, vampires in games]
    assert abs(statistics.fmean(kills) - data["report"]["kills"]["mean"]) <= mean_bound(kills, n)
    life = [max(0, life) for _, _, life, _ in games]
    assert abs(statistics.fmean(life) - data["report"]["life"]["mean"]) <= mean_bound(life, n)


def test_noche_plain_plays_what_dusk_plays():
    n = 3_000
    rng = random.Random(29)
    conflicts, survivors, reads = [], [], [[] for _ in range(7)]
    for _ in range(n):
        read = [0] * 7
        _, alive, _, played = play_night(rng, 4, read)
        conflicts.append(played)
        survivors.append(alive)
        for k in range(7):
            reads[k].append(read[k])
    data = simulate("noche-de-los-vampiros", n, seed=29, params={"players": 4}, backend="lockstep").to_json()
    report = data["report"]
    assert abs(statistics.fmean(conflicts) - report["conflicts"]["mean"]) <= mean_bound(conflicts, n)
    assert abs(statistics.fmean(survivors) - report["survivors"]["mean"]) <= mean_bound(survivors, n)
    for k in range(7):
        assert abs(statistics.fmean(reads[k]) - report[f"read_{k}"]["mean"]) <= mean_bound(reads[k], n), k
    dawns = sum(alive > 0 for alive in survivors)
    dusk_dawns = data["results"].get("dawn", {}).get("count", 0)
    assert abs(dawns - dusk_dawns) / n <= rate_bound(dawns, dusk_dawns, n)


def test_vtm_plain_plays_what_dusk_plays():
    # Brute soaking Ana's lethal with his Stamina moves these by about 25 bounds, a firearm adding only
    # the successes past the first by 2.5 to 6, Ana always acting first by 1.3 to 2; the dazed rule and
    # the wound penalty on initiative by less than one (measured): this duel rarely reaches them.
    n = 10_000
    rng = random.Random(29)
    duels = [play_duel(rng) for _ in range(n)]
    data = simulate("vtm-duel", n, seed=29, params={"attacker": "Ana", "defender": "Brute"}, backend="lockstep",
                    sheets=[ROOT / "characters" / "brute.yaml"]).to_json()
    assert set(data["results"]) <= {"attacker_wins", "defender_wins", "draw"}
    for result in ("attacker_wins", "defender_wins"):
        mine = sum(r == result for r, *_ in duels)
        dusk = data["results"].get(result, {}).get("count", 0)
        assert abs(mine - dusk) / n <= rate_bound(mine, dusk, n), (result, mine, dusk)
    report = data["report"]
    for k, key in ((1, "turns"), (2, "attacker_lost"), (3, "defender_lost")):
        sample = [duel[k] for duel in duels]
        assert abs(statistics.fmean(sample) - report[key]["mean"]) <= mean_bound(sample, n), key
    assert abs(statistics.fmean(d[1] for d in duels) - data["length"]["mean"]) <= mean_bound([d[1] for d in duels], n)
