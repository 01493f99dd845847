"""Real dice: every pool the game rolls is asked for as a decision, checked, and played as rolled."""

import pytest

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import DecisionError, Game, GameError

ATTACK = load("attack-of-the-vampires")
# life 15; search 6 6 6; green 2 (a vampire); kill roll 1 4 4 4 2: destroyed at once.
FACES = [15, 6, 6, 6, 2, 1, 4, 4, 4, 2]


def answer_all(game, outcome, pools):
    """Answer every dice decision from `pools` in order; returns the decisions asked."""
    asked = []
    while outcome.decision is not None:
        asked.append(outcome.decision)
        outcome = game.answer(outcome.decision, pools.pop(0))
    return asked


def rolls(game):
    return [(e["name"], [d["face"] for d in e["dice"]], [d["fate"] for d in e["dice"]])
            for e in game.log if e["kind"] == "roll"]


def test_a_game_with_real_dice_plays_as_the_same_faces_scripted():
    scripted = Game.start(ATTACK, rng=ScriptedDice(FACES))
    scripted.perform("round")

    manual = Game.start(ATTACK, seed=1, manual_dice=True)
    asked = answer_all(manual, manual.last_outcome, ["15"])
    asked += answer_all(manual, manual.perform("round"), ["6 6 6", "2", "1, 4, 4, 4, 2"])

    # One question per pool, saying how many dice of which size and what they are for.
    assert [(d.prompt, d.min, d.sides) for d in asked] == [
        ("life_roll: 1d20", 1, 20), ("Search: 3d6", 3, 6), ("Coffin: 1d6", 1, 6), ("Kill: 5d6", 5, 6)]
    assert asked[3].texts["zh"] == "猎杀: 5d6"
    assert manual.values == scripted.values
    assert rolls(manual) == rolls(scripted)
    assert manual.values["kills"] == 1 and manual.values["vampires"] == 2


def test_a_wrong_count_or_face_is_refused_and_nothing_changes():
    game = Game.start(ATTACK, seed=1, manual_dice=True)
    answer_all(game, game.last_outcome, ["12"])
    before = game.state
    decision = game.perform("round").decision
    for bad in ("6 6", "6 6 6 6", "0 3 4", "7 1 1", "six", "", "1 2 99999999999"):
        with pytest.raises(DecisionError, match="3 faces from 1 to 6"):
            game.answer(decision, bad)
    assert game.state == before and game.pending is not None     # still waiting, nothing played
    assert game.answer(decision, "[2, 3, 4]").decision is None
    assert game.values["searches"] == 1 and game.values["blue"] == []


def test_a_re_rolled_die_is_asked_for_alone():
    # life_roll is 1d20 re-rolled while under 10: an 8 asks for one more d20.
    game = Game.start(ATTACK, seed=1, manual_dice=True)
    first = game.last_outcome.decision
    again = game.answer(first, "8").decision
    assert (again.prompt, again.min, again.sides) == ("life_roll: +1d20", 1, 20)
    assert game.answer(again, "13").decision is None
    assert game.values["hunter"]["life"] == 13


def test_undo_takes_back_the_faces_with_the_action_and_auto_cannot_roll_them():
    game = Game.start(ATTACK, seed=1, manual_dice=True)
    answer_all(game, game.last_outcome, ["12"])
    before = game.state
    answer_all(game, game.perform("round"), ["6 2 6"])
    assert game.values["blue"] == [6, 6]
    game.undo()
    assert game.state == before
    decision = game.perform("round").decision
    with pytest.raises(GameError, match="real dice cannot be rolled automatically"):
        game.auto_answer(decision)


def test_switching_back_to_the_game_s_dice_continues_its_own_stream():
    # Rounds played with real dice draw nothing from the seeded source: switching back, the
    # next round rolls what the first round would have rolled without them.
    plain = Game.start(ATTACK, rng=ScriptedDice([15, 2, 3, 4, 5, 5, 5]))
    plain.perform("round")
    mixed = Game.start(ATTACK, rng=ScriptedDice([15, 2, 3, 4, 5, 5, 5]))
    mixed.use_manual_dice(True)
    answer_all(mixed, mixed.perform("round"), ["1 1 1"])
    mixed.use_manual_dice(False)
    mixed.perform("round")
    assert rolls(mixed)[-1][1] == rolls(plain)[-1][1] == [2, 3, 4]


ASKS_BETWEEN = """\
ruleset: between
title: Between
state: {total: 0, kept: 0}
actions:
  go:
    params:
      dmg: {type: dice, default: 2d6}
    steps:
      - roll: {first: 1d6}
        label: First
      - ask: How many to keep?
        as: k
        number: {min: 0, max: 3}
        auto: 2
      - roll: {second: 2d6}
        label: Second
      - set: {total: "sum(first) + sum(second) + dmg", kept: k}
"""


def between(written, **kw):
    path = written.path(ASKS_BETWEEN, "between.yaml")
    return Game.start(load(str(path)), seed=1, manual_dice=True, **kw)


def test_an_auto_answer_before_real_dice_is_kept_for_the_replay(written):
    game = between(written)
    outcome = game.perform("go", dmg="2d6")
    asked = [outcome.decision.prompt]
    outcome = game.answer(outcome.decision, "3 4")          # dmg, the whole pool at once
    asked.append(outcome.decision.prompt)
    outcome = game.answer(outcome.decision, "5")            # First
    assert outcome.decision.kind == "number"
    outcome = game.auto_answer(outcome.decision)            # auto: 2, then the faces of Second
    assert outcome.decision.prompt == "Second: 2d6"
    assert game.answer(outcome.decision, "6 1").decision is None
    assert asked == ["dmg: 2d6", "First: 1d6"]
    assert game.values["kept"] == 2 and game.values["total"] == 5 + 7 + 7
    (ask,) = [e for e in game.log if e["kind"] == "ask"]
    assert ask["answer"] == 2 and ask["by"] == "auto"


def test_a_game_that_answers_itself_still_asks_for_real_dice(written):
    for record in (True, False):
        game = between(written, auto=True, record=record)
        outcome = game.perform("go", dmg="2d6")
        for faces in ("3 4", "5", "6 1"):
            outcome = game.answer(outcome.decision, faces)
        assert outcome.decision is None
        assert (game.values["kept"], game.values["total"]) == (2, 19), record
