"""Dice of kinds and chosen re-rolls in a ruleset (tests/rulesets/wild-die.yaml): the kinds survive
a pick, a re-roll and the game state, at the table and in a simulation; misuse is refused at load."""

import json
from pathlib import Path

import pytest

from ruleset_engine import dice
from ruleset_engine.analysis.check import check
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game

WILD = Path(__file__).parents[1] / "rulesets" / "wild-die.yaml"


def test_a_chosen_wild_one_is_rerolled_in_place_and_the_kinds_survive_the_state():
    ruleset = load(str(WILD))
    # Round 1: 1 (wild), 1, 7, 10, 10; the player re-rolls one 1, the earliest (the wild die): 10.
    # Round 2: 2 3 4 5 6, no ones, nothing asked.
    game = Game.start(ruleset, rng=dice.ScriptedDice([1, 1, 7, 10, 10, 10, 2, 3, 4, 5, 6]))
    outcome = game.perform("round")
    assert outcome.decision is not None and list(outcome.decision.pool) == [1, 1]
    game.answer(outcome.decision, [1])
    values = game.values
    assert list(values["hand"]) == [10, 1, 7, 10, 10]
    assert values["successes"] == 4 and values["wild_ones"] == 0 and values["wild_tens"] == 1
    assert values["criticals"] == 1             # a wild 10 and another 10
    rolls = [e for e in game.log if e["kind"] == "roll"]
    shown = json.dumps(rolls)
    assert '"rerolled_from": [1]' in shown and '"kind": "wild"' in shown
    game.perform("round")
    assert game.values["wild_left"] == 1       # size(of(hand, wild)), read back from the state
    assert game.values["successes"] == 5


def test_misuse_of_kinds_in_a_ruleset_is_refused_with_its_place(written):
    bad = written.path(WILD.read_text(encoding="utf-8").replace("kind=wild)", "kind=wlid)"), "bad.yaml")
    _, problems = check(str(bad))
    text = "\n".join(str(p) for p in problems)
    assert "bad.yaml:" in text and "unknown kind of dice 'wlid' (did you mean wild?)" in text and "^" in text


HUNGER = Path(__file__).parents[1] / "rulesets" / "hunger-dice.yaml"


def test_kinds_marked_in_a_named_formula_are_read_elsewhere_and_explosions_keep_them():
    # Marked inside formulas:, the kind hunger is read by every formula (it once was refused there).
    _, problems = check(str(HUNGER))
    assert problems == []
    ruleset = load(str(HUNGER))
    # Round 1, pool 5, hunger 2: 10h 3h 6 10 1, then the 10s explode: 10h -> 2h, 10 -> 7.
    # Successes 10, 6, 10, 7 = 4; messy: one hunger 10; calm (no kind, 6 or more): 6, 10, 7 = 3;
    # the sum 39 is odd. Rounds 2 to 4: 1 1 1 1 1 (sum 5, odd), no success.
    faces = [10, 3, 6, 10, 1, 2, 7] + [1] * 15
    game = Game.start(ruleset, rng=dice.ScriptedDice(faces))
    game.perform("round")
    assert game.values["successes"] == 4 and game.values["messy"] == 1 and game.values["calm"] == 3
    assert game.values["odd"] == 1
    roll_event = [e for e in game.log if e["kind"] == "roll"][0]
    assert [(d["face"], d.get("kind")) for d in roll_event["dice"]] == \
        [(10, "hunger"), (3, "hunger"), (6, None), (10, None), (1, None), (2, "hunger"), (7, None)]
    for _ in range(3):
        game.perform("round")
    assert game.over and game.report() == {"successes": 4, "messy": 1, "calm": 3, "odd": 4}


def test_a_kind_no_formula_gives_is_still_refused_beside_named_formulas(written):
    bad = written.path(HUNGER.read_text(encoding="utf-8").replace("kind=hunger)", "kind=hungr)"), "bad.yaml")
    _, problems = check(str(bad))
    text = "\n".join(str(p) for p in problems)
    assert "unknown kind of dice 'hungr' (did you mean hunger?)" in text and "bad.yaml:29:19:" in text


# ---- in lockstep (runtime/lockstep.py: each die's kind beside its face) -----------------------------


@pytest.mark.parametrize("path", [HUNGER, WILD])
def test_both_rulesets_play_alike_in_lockstep_and_untraced(path):
    # 5 SE bounds on every rate and mean (tests/runtime/test_lockstep.py).
    from tests.runtime.test_lockstep import assert_parity
    assert_parity(str(path), 20_000, 3_000)


def test_hunger_dice_in_lockstep_give_the_means_worked_out():
    # Each die explodes on 10 and its added die is of its kind: a die of one kind stands for 1/0.9 dice
    # of it. Four rounds of 2 hunger dice: messy (hunger 10s) 8 * (1/0.9) * 0.1 = 0.8889; three plain dice:
    # calm (6 or more) 12 * (1/0.9) * 0.5 = 6.6667.
    from ruleset_engine.analysis.simulate import simulate
    from tests.runtime.test_lockstep import _moments
    run = simulate(str(HUNGER), 40_000, seed=3, backend="lockstep")
    assert run.backend == "lockstep"
    for name, expected in (("messy", 8 / 9), ("calm", 12 / 0.9 * 0.5)):
        mean, se = _moments(run.tally.values[name])
        assert abs(mean - expected) <= 5 * se, (name, mean, expected)


def test_the_kinds_of_each_game_follow_its_own_dice():
    # Three games' pools, kinds given per game (hunger=h), then read by kind, left out and re-rolled.
    import numpy as np
    from ruleset_engine.dice.vector import EMPTY, Vectors, VPool

    pools = [[10, 3, 6, 1], [1, 1, 7], [6, 6, 6, 6, 6]]
    faces = np.full((3, 5), EMPTY, np.int16)
    for i, p in enumerate(pools):
        faces[i, :len(p)] = p
    h = np.array([2, 0, 4])

    def names(path, rows, span):
        return {"p": VPool(faces[rows]), "h": h[rows]}[path[0]]

    def value(text):
        v = Vectors(np.random.default_rng(1), names)
        v.begin(text=text)
        out = v.value(dice.compile(text).tree, np.arange(3))
        return out

    assert value("count(kinds(p, hunger=h), >= 6, kind=hunger)").tolist() == [1, 0, 4]
    assert value("count(kinds(p, hunger=h), >= 6, kind=none)").tolist() == [1, 1, 1]
    kept = value("of(kinds(p, hunger=h, wild=1), wild)")
    assert [sorted(int(f) for f in row if f != EMPTY) for row in kept.faces] == [[6], [1], [6]]
    # Each game's hunger dice chosen (kinds and all) and re-rolled in place as d1: they show 1, and stay hunger.
    text = "reroll(kinds(p, hunger=h), of(kinds(p, hunger=h), hunger), 1)"
    again = value(text)
    assert [[int(f) for f in row if f != EMPTY] for row in again.faces] == [[1, 1, 6, 1], [1, 1, 7], [1, 1, 1, 1, 6]]
    assert value(f"count({text}, == 1, kind=hunger)").tolist() == [2, 0, 4]
    # An explosion after [..] adds a die of its parent's kind (d1s that explode once: one more each).
    assert value("count([kinds(4d1, hunger=h)]!o, == 1, kind=hunger)").tolist() == [4, 0, 8]


MOVED = """\
ruleset: moved
title: Moved (test)
state: {a: "[]", b: "[]", wild_b: 0, wild_a: 0, left: 0}
loop:
  - name: round
    max: 1
    steps:
      - set: {a: "kinds(2d1, w=1)"}
      - move: {dice: "of(a, w)", from: a, to: b}
      - set: {wild_b: "count(b, == 1, kind=w)", wild_a: "count(a, == 1, kind=w)", left: "size(a)"}
end: []
report: {wild_b: wild_b, wild_a: wild_a, left: left}
"""


def test_dice_moved_bring_their_kinds_in_both_backends(written):
    # a: a wild 1 and a plain 1; the wild one named moves (the first 1 of the source leaves it: the
    # wild one), and b holds it, wild; a keeps the plain one.
    from ruleset_engine.analysis.simulate import simulate
    path = written.path(MOVED, "moved.yaml")
    for backend in ("untraced", "lockstep"):
        run = simulate(str(path), 20, seed=1, backend=backend)
        assert run.backend == backend
        got = {k: run.tally.values[k].total for k in ("wild_b", "wild_a", "left")}
        assert got == {"wild_b": 20, "wild_a": 0, "left": 20}, backend
