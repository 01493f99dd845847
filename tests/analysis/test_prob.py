"""`dusk prob`'s exact odds against an independent brute force, to the exact fraction.

Each case enumerates every roll of small pools with itertools.product, computes the value with
plain Python written here (never the engine's primitives), and compares the whole distribution
with what the translation to icepool gives. Explosions are enumerated as chains of dice cut at
the same depth. The fallback estimate is checked against the exact value within 5 standard errors.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from ruleset_engine.analysis.prob import ProbError, ask, grid, parse_axis, parse_let
from ruleset_engine.dice import DiceError


def brute(sides: list[int], value) -> dict:
    """The exact distribution of value(faces) over every roll of dice with these sides."""
    counts = Counter(value(list(faces)) for faces in itertools.product(*(range(1, s + 1) for s in sides)))
    total = math.prod(sides)
    return {v: Fraction(c, total) for v, c in counts.items()}


def exact(text: str, **options) -> dict:
    answer = ask([text], **options)
    assert answer.exact, answer.why
    return dict(answer.questions[0].chances)


# ---- plain Python rules, written for the test --------------------------------------------------

def unpair(faces):
    out, seen = [], Counter()
    counts = Counter(faces)
    for f in faces:
        seen[f] += 1
        if seen[f] <= counts[f] - counts[f] // 2:
            out.append(f)
    return out


def cancel(faces, against):
    left = list(faces)
    for f in against:
        if f in left:
            left.remove(f)
    return left


def largest_set(faces, ignore=()):
    counts = Counter(f for f in faces if f not in ignore)
    if not counts:
        return []
    best = max(counts, key=lambda f: (counts[f], f))
    return [f for f in faces if f == best]


CASES = [
    ("3d6", [6, 6, 6], sum),
    ("2d6 + 1d4 - 2", [6, 6, 4], lambda f: f[0] + f[1] + f[2] - 2),
    ("1d6 * 1d4 // 2", [6, 4], lambda f: f[0] * f[1] // 2),
    ("-1d4 + 10", [4], lambda f: 10 - f[0]),
    ("4d6kh3", [6] * 4, lambda f: sum(sorted(f)[1:])),
    ("4d6kl2", [6] * 4, lambda f: sum(sorted(f)[:2])),
    ("4d6dh1", [6] * 4, lambda f: sum(sorted(f)[:3])),
    ("4d6dl1", [6] * 4, lambda f: sum(sorted(f)[1:])),
    ("count(5d10, >= 6)", [10] * 5, lambda f: sum(x >= 6 for x in f)),
    ("count(4d10, == 1)", [10] * 4, lambda f: f.count(1)),
    ("sum(3d6)", [6] * 3, sum),
    ("size(keep(5d6, >= 5))", [6] * 5, lambda f: sum(x >= 5 for x in f)),
    ("sum(drop(4d6, == 6))", [6] * 4, lambda f: sum(x for x in f if x != 6)),
    ("sum(set_aside(4d6, < 3))", [6] * 4, lambda f: sum(x for x in f if x >= 3)),
    ("highest(4d8, default=0)", [8] * 4, max),
    ("lowest(3d6, default=0)", [6] * 3, min),
    ("highest(3d6)", [6] * 3, max),
    ("sum(highest(5d6, 2))", [6] * 5, lambda f: sum(sorted(f)[-2:])),
    ("sum(lowest(4d6, 3))", [6] * 4, lambda f: sum(sorted(f)[:3])),
    ("size(unpair(6d4))", [4] * 6, lambda f: len(unpair(f))),
    ("sum(unpair(5d6))", [6] * 5, lambda f: sum(unpair(f))),
    ("highest(cancel(unpair(5d6), 3d6), default=0)", [6] * 8,
     lambda f: max(cancel(unpair(f[:5]), f[5:]), default=0)),
    ("highest(cancel(4d6, 4d6), default=0)", [6] * 8, lambda f: max(cancel(f[:4], f[4:]), default=0)),
    ("size(cancel(3d6, 3d6))", [6] * 6, lambda f: len(cancel(f[:3], f[3:]))),
    ("size(largest_set(5d6))", [6] * 5, lambda f: len(largest_set(f))),
    ("sum(largest_set(4d6))", [6] * 4, lambda f: sum(largest_set(f))),
    ("size(largest_set(5d6, ignore=[1]))", [6] * 5, lambda f: len(largest_set(f, (1,)))),
    ("sum(largest_set(4d4, ignore=[4]))", [4] * 4, lambda f: sum(largest_set(f, (4,)))),
    ("min(1d6, 1d6) + max(1d4, 2)", [6, 6, 4], lambda f: min(f[0], f[1]) + max(f[2], 2)),
    ("abs(1d6 - 1d6)", [6, 6], lambda f: abs(f[0] - f[1])),
    ("sum(1d6) >= 4", [6], lambda f: f[0] >= 4),
    ("count(3d6, == 6) > 0 and sum(1d4) != 2", [6, 6, 6, 4], lambda f: f[:3].count(6) > 0 and f[3] != 2),
    ("count(2d6, == 1) > 0 or not (sum(1d6) < 3)", [6, 6, 6], lambda f: f[:2].count(1) > 0 or not f[2] < 3),
    ("10 if sum(1d6) > 4 else sum(2d4)", [6, 4, 4], lambda f: 10 if f[0] > 4 else f[1] + f[2]),
    ("sum(sort(3d6))", [6] * 3, sum),
    ("sum([1d6, 2, 1d4])", [6, 4], lambda f: f[0] + 2 + f[1]),
    ("sum([2d6, 3]kh2)", [6, 6], lambda f: sum(sorted(f + [3])[-2:])),
    ("count([3d4, 1d6], >= 4)", [4, 4, 4, 6], lambda f: sum(x >= 4 for x in f)),
]


@pytest.mark.parametrize("text, sides, value", CASES, ids=[c[0] for c in CASES])
def test_every_construct_matches_brute_force(text, sides, value):
    assert exact(text) == brute(sides, value)


def test_the_highest_of_an_emptied_pool_reads_its_default():
    # Every face of the 2d6 cancelled by the 2d6 beside it: icepool's own highest would name the lowest
    # outcome with a count of 0; dusk gives the default, 0 or 7 or a die's roll.
    def noche(f, default):
        return max(cancel(f[:2], f[2:4]), default=default)

    assert exact("highest(cancel(2d6, 2d6), default=0)") == brute([6] * 4, lambda f: noche(f, 0))
    assert exact("highest(cancel(2d6, 2d6), default=7)") == brute([6] * 4, lambda f: noche(f, 7))
    assert exact("lowest(cancel(2d6, 2d6), default=-1)") == brute(
        [6] * 4, lambda f: min(cancel(f[:2], f[2:4]), default=-1))
    assert exact("highest(cancel(1d4, 1d4), default=1d6)") == brute(
        [4, 4, 6], lambda f: f[0] if f[0] != f[1] else f[2])
    assert exact("highest(keep(2d6, > 6), default=0)") == {0: 1}
    assert exact("highest([], default=3)") == {3: 1}


def test_an_empty_pool_without_a_default_is_refused_with_a_caret():
    with pytest.raises(DiceError) as err:
        ask(["highest(cancel(2d6, 3d6))"])
    assert "default=" in str(err.value) and "^" in str(err.value)


def chain(faces, sides, meets, depth):
    """The dice of one exploding die, cut at `depth` explosions: a list of faces."""
    return faces


def exploding(sides: int, n: int, meets, depth: int):
    """Every outcome of n exploding dice with its chance: each die a chain of at most depth + 1 rolls."""
    chains = []     # (faces, chance) for one die

    def walk(prefix, chance):
        for f in range(1, sides + 1):
            here = prefix + [f]
            p = chance / sides
            if meets(f) and len(here) <= depth:
                walk(here, p)
            else:
                chains.append((here, p))

    walk([], Fraction(1))
    for combo in itertools.product(chains, repeat=n):
        yield [f for faces, _ in combo for f in faces], math.prod(p for _, p in combo)


def brute_exploding(sides, n, meets, depth, value) -> dict:
    out = Counter()
    for faces, p in exploding(sides, n, meets, depth):
        out[value(faces)] += p
    return dict(out)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_explosions_match_chains_cut_at_the_same_depth(depth):
    assert exact("2d6!", depth=depth) == brute_exploding(6, 2, lambda f: f == 6, depth, sum)
    assert exact("count(2d4!>=3, >= 3)", depth=depth) == brute_exploding(
        4, 2, lambda f: f >= 3, depth, lambda fs: sum(x >= 3 for x in fs))
    assert exact("sum(3d4!kh2)", depth=depth) == brute_exploding(
        4, 3, lambda f: f == 4, depth, lambda fs: sum(sorted(fs)[-2:]))


def test_the_depth_is_chosen_and_reported():
    answer = ask(["5d10!"])
    assert answer.exact and answer.depth == 5 and answer.cut == pytest.approx(1e-6)
    assert ask(["5d10!"], depth=2).depth == 2
    assert ask(["3d6"]).depth is None


def test_rerolls_match_brute_force():
    # r<3: each die showing 1 or 2 is rolled once more and the new face stands.
    def once(f):
        return [f[2 * i + 1] if f[2 * i] < 3 else f[2 * i] for i in range(len(f) // 2)]

    assert exact("3d6r<3") == brute([6] * 6, lambda f: sum(once(f)))
    # rr<3: re-rolled while it shows 1 or 2: each face 3..6 equally likely.
    assert exact("2d6rr<3") == brute([4, 4], lambda f: f[0] + f[1] + 4)
    # reroll(expr, cond): the whole total again while it is below 5.
    want = brute([6, 6], sum)
    kept = {v: p for v, p in want.items() if v >= 5}
    total = sum(kept.values())
    assert exact("reroll(2d6, < 5)") == {v: p / total for v, p in kept.items()}
    assert exact("reroll(sum(1d6) + 1d4, <= 3)") == {
        v: p / sum(q for u, q in brute([6, 4], sum).items() if u > 3)
        for v, p in brute([6, 4], sum).items() if v > 3}
    assert exact("sum(4d6r<2kh3)") == brute([6] * 8, lambda f: sum(sorted(
        f[4 + i] if f[i] < 2 else f[i] for i in range(4))[1:]))


def test_a_random_number_of_dice_is_a_mixture():
    want = Counter()
    for n in range(1, 4):
        for v, p in brute([6] * n, sum).items():
            want[v] += p / 3
    assert exact("(1d3)d6") == dict(want)


def test_lets_share_one_roll_across_questions():
    lets = [("pool", "3d10"), ("hits", "count(pool, >= 8)"), ("ones", "count(pool, == 1)")]
    answer = ask(["max(0, hits - ones)", "hits == 0 and ones > 0", "ones > hits", "hits - ones + 1d4"], lets=lets)
    assert answer.exact

    def read(f):
        return sum(x >= 8 for x in f), f.count(1)

    got = [dict(q.chances) for q in answer.questions]
    assert got[0] == brute([10] * 3, lambda f: max(0, read(f)[0] - read(f)[1]))
    assert got[1] == brute([10] * 3, lambda f: read(f)[0] == 0 and read(f)[1] > 0)
    assert got[2] == brute([10] * 3, lambda f: read(f)[1] > read(f)[0])
    assert got[3] == brute([10] * 3 + [4], lambda f: read(f[:3])[0] - read(f[:3])[1] + f[3])
    # A let holding a number is one roll too: n - n is always 0.
    assert exact("n - n", lets=[("n", "1d6")]) == {0: 1}
    assert exact("sum(p) - sum(p)", lets=[("p", "unpair(4d6)")]) == {0: 1}


def test_names_read_the_environment_and_a_grid():
    assert exact("count((n)d6, >= target)", env={"n": 2, "target": 5}) == brute(
        [6, 6], lambda f: sum(x >= 5 for x in f))
    assert exact("params.bonus + 1d4", env={"params": {"bonus": 3}}) == brute([4], lambda f: f[0] + 3)
    chart = grid("count((N)d6, >= D)", [("N", [1, 2]), ("D", [5, 6])], at_least=1)
    assert chart.exact
    assert [[chart.reading(o) for o in row] for row in chart.cells] == [
        [Fraction(2, 6), Fraction(1, 6)], [1 - Fraction(16, 36), 1 - Fraction(25, 36)]]


def test_without_an_exact_form_it_says_so_and_estimates():
    answer = ask(["size(aside(unpair(4d6)))"], samples=2000, seed=3)
    assert not answer.exact and "aside" in answer.why
    assert answer.samples == 2000 and answer.seed == 3
    assert answer.to_json()["exact"] is False
    assert sum(p for _, p in answer.questions[0].chances) == 1
    # seeded: the same seed, the same estimate
    assert ask(["size(aside(unpair(4d6)))"], samples=2000, seed=3).questions[0].chances == \
        answer.questions[0].chances


SAMPLES = 20_000


@pytest.mark.parametrize("text", ["count(5d10, >= 6)", "highest(cancel(unpair(5d6), 3d6), default=0)",
                                  "size(largest_set(5d6))", "sum(4d6kh3)", "3d6!"])
def test_the_estimate_lies_within_five_standard_errors_of_the_exact_value(text):
    truth = ask([text])
    guess = ask([text], estimate=True, samples=SAMPLES, seed=11)
    assert truth.exact and not guess.exact
    want = dict(truth.questions[0].chances)
    got = dict(guess.questions[0].chances)
    for value in set(want) | set(got):
        p = float(want.get(value, 0))
        se = math.sqrt(p * (1 - p) / SAMPLES)
        assert abs(float(got.get(value, 0)) - p) <= 5 * se + 1e-12, (value, p, got.get(value))
    mean_se = truth.questions[0].sd / math.sqrt(SAMPLES)
    assert abs(float(guess.questions[0].mean - truth.questions[0].mean)) <= 5 * mean_se


def test_limits_are_refused_before_any_work():
    with pytest.raises(DiceError, match="at most 100 dice"):
        ask(["count(150d10, >= 6)"])
    with pytest.raises(DiceError, match="exploding dice"):
        ask(["100d10!"])
    with pytest.raises(ProbError, match="--depth"):
        ask(["2d6!"], depth=50)
    with pytest.raises(ProbError, match="cells"):
        grid("(N)d6", [("N", list(range(1, 30))), ("D", list(range(1, 30)))])
    with pytest.raises(ProbError):
        parse_axis("N=5..1")
    with pytest.raises(ProbError):
        parse_let("2d6=3")
    with pytest.raises(DiceError, match="arrangements"):
        ask(["reroll(60d10, < 100)"])


def test_the_json_holds_exact_fractions_as_strings_and_floats():
    data = ask(["count(2d6, == 6)"]).to_json()
    assert data["exact"] is True and data["why_estimated"] is None
    rows = data["questions"][0]["distribution"]
    assert rows[0] == {"value": 0, "p": "25/36", "float": 25 / 36, "at_least": "1", "at_least_float": 1.0,
                       "at_most": "25/36", "at_most_float": 25 / 36}
    assert data["questions"][0]["mean"] == "1/3"


def test_a_bare_explosion_is_on_the_dies_sides_as_the_table_rolls_it():
    # rr>5 leaves a d6 that never shows 6: it does not explode on the 5, its highest face left, as at
    # the table (the explosion is on 6, the die's sides).
    assert exact("1d6rr>5!") == {face: Fraction(1, 5) for face in range(1, 6)}
    # After min or max, a die rolled again (an explosion, a re-roll) is a fresh die, not the one they
    # set: estimated, said so.
    assert "after min or max set their faces" in ask(["1d6max5!"], samples=100).why
    assert "after min or max set their faces" in ask(["2d6min2r<3"], samples=100).why
    assert exact("2d4!o") == {v: p for v, p in _explode_once_2d4().items()}
    assert exact("3d6min3") == brute([6, 6, 6], lambda f: sum(max(x, 3) for x in f))


def _explode_once_2d4() -> dict:
    counts: Counter = Counter()
    for first in itertools.product(range(1, 5), repeat=2):
        for extra in itertools.product(range(1, 5), repeat=2):
            counts[sum(first) + sum(e for f, e in zip(first, extra) if f == 4)] += 1
    return {v: Fraction(c, 256) for v, c in counts.items()}


def test_explosions_after_a_reroll_are_estimated_not_exact():
    """A d10 re-rolled once below 8 shows each of 1..7 with chance 0.07 and each of 8..10 with 0.17; a 10
    adds a fresh (not re-rolled) d10 that explodes in turn: 0.3 successes, plus a tenth of the same
    again, so 1/3. The mean is 0.51 + 0.17 / 3 = 17/30 (0.5667); exploding re-rolled dice gives 0.6145."""
    answer = ask(["count(1d10r<8!>=10, >= 8)"], samples=SAMPLES, seed=5)
    assert not answer.exact and "re-rolling" in answer.why
    question = answer.questions[0]
    assert abs(float(question.mean) - 17 / 30) <= 5 * question.sd / math.sqrt(SAMPLES)
    # A re-roll alone stays exact.
    assert ask(["count(1d10r<8, >= 8)"]).exact


def test_the_remainder_is_exact_and_floors_as_the_table_does():
    # (2d6 - 7) % 4 over every roll: the remainder has the sign of the divisor, so -5 % 4 is 3.
    assert exact("(2d6 - 7) % 4") == brute([6, 6], lambda f: (sum(f) - 7) % 4)
    assert exact("1d20 % (0 - 3)") == brute([20], lambda f: f[0] % -3)
    assert set(exact("1d20 % (0 - 3)")) == {-2, -1, 0}
    with pytest.raises(DiceError, match="can be 0, and a division by zero is an error"):
        ask(["5 % (1d3 - 1)"])


# ---- found by the registry's random expressions (test_prob_registry.py), each held here by hand ----

def test_a_reroll_once_of_every_face_is_the_die_itself():
    # 1d2r<5: each die is rolled again once and keeps its new face; icepool's reroll divided by zero.
    assert exact("1d2r<5") == brute([2], lambda f: f[0])
    assert exact("sum(2d3r<=3)") == brute([3, 3], sum)


def test_highest_reads_the_kept_dice_not_those_dropped():
    # [3, 2]dh1 keeps the 2: its highest is 2, not the default (the dropped 3 once read as an empty pool).
    assert exact("highest([3, 2]dh1, default=0)") == {2: 1}
    assert exact("highest([0d2, 3, 2]kl1)") == {2: 1}
    assert exact("highest(2d4dh1)") == brute([4, 4], min)


def test_no_dice_to_explode_is_an_empty_pool():
    assert exact("sum(0d3!)") == {0: 1}
    assert exact("size(0d6!) + 1d4") == brute([4], lambda f: f[0])


def test_an_explosion_that_never_ends_is_refused_as_the_table_refuses_it():
    with pytest.raises(DiceError) as err:
        ask(["count(2d2!<x, >= 2)"], env={"x": 3})
    assert "every face of a d2 meets '!<x', so exploding on it would never end" in str(err.value)


def test_a_negative_count_of_highest_is_refused_as_the_table_refuses_it():
    with pytest.raises(DiceError) as err:
        ask(["sum(highest(3d6, 0 - 2))"])
    assert "highest(..) needs a count of 0 or more, not -2" in str(err.value) and "^" in str(err.value)


def test_dice_icepool_cannot_order_are_estimated_and_said_so():
    answer = ask(["sum(highest(highest([], y), 1))"], env={"y": 0}, samples=100)
    assert not answer.exact and "in order" in answer.why
