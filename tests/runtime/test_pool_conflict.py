"""(a) A conflict of two players against the shared pool, with scripted dice and answers."""

from tests.runtime.helpers import kinds, play, scripted_game

# The pool of 7 is dealt to two ghosts and the GM: 2, 2 and the GM 3.
GM, G1, G2 = [2, 2, 3], [4, 1], [5, 6]
P1 = [3, 3, 6, 6, 6]      # risks 4 + 1 relationship: unpair -> 3 6 6, one 3 and one 6 set aside
P2 = [4]                  # down to one die: the 4 is cancelled by the pool's 4


def start():
    game, source = scripted_game("pool-conflict", GM + G1 + G2 + P1 + P2,
                                 params={"ghosts": 2, "start_pool": 7, "cancelled_to_pool": True})
    game.values["player"][1]["dice"] = 1
    return game, source


def test_the_conflict_end_to_end():
    game, source = start()
    events = play(game, "conflict", answers=[4, 1, 1, 0], scale="scene")
    assert source.remaining == 0

    rolls = {e["name"]: e["pool"] for e in kinds(events, "roll") if e["name"] in ("gm", "mine")}
    assert [e["pool"] for e in kinds(events, "roll")][:3] == [GM, G1, G2]   # the split: 3, 2, 2
    assert rolls["gm"] == GM

    hands = [e for e in kinds(events, "roll") if e["name"] == "hand"]
    assert hands[0]["pool"] == [3, 6, 6] and [d["face"] for d in hands[0]["dice"]] == P1
    assert [d["fate"] for d in hands[0]["dice"]] == ["kept", "aside", "kept", "kept", "aside"]

    p1, p2 = game.values["player"]
    # P1: left [6] after the pool cancels a 3 and a 6; P2's only die is cancelled.
    moves = kinds(events, "move")
    assert [(m["source"], m["count"]) for m in moves] == [("P1.dice", 4), ("P2.dice", 0)]  # the floor
    # The pool reached 7 + 4 = 11: the trigger ended the hour, so the next one began.
    assert [t["id"] for t in kinds(events, "trigger")] == ["pool_full"]
    assert game.values["loop"]["hour"] == 2
    assert game.values["pool"] == 7
    # At the end of the hour P2 had one die: a box checked, so 8 dice this hour.
    assert p2["boxes"]["marked"] == 1 and p2["dice"] == 8
    assert p1["boxes"]["marked"] == 0 and p1["dice"] == 10
    # P1's 6 ties G2's 6: ghosts beat the living on ties, so G2 narrates.
    assert (p1["highest"], p2["highest"]) == (6, 0)
    assert game.values["narrator"] == "G2"
    says = [e["text"] for e in kinds(events, "say")]
    assert says == ["P1: Best, All of them fall", "P2: Worst, Overrun"]


def test_answers_are_checked_and_the_state_is_untouched():
    game, _source = start()
    outcome = game.perform("conflict", scale="shot")
    decision = outcome.decision
    assert decision.prompt == "P1: how many of your 10 dice do you risk?"
    before = game.state
    try:
        game.answer(decision, 11)
    except Exception as err:  # noqa: BLE001 - the test names the class below
        assert type(err).__name__ == "DecisionError"
        assert str(err) == "11 is not a valid answer: expected a whole number from 1 to 10"
    else:
        raise AssertionError("11 was accepted")
    assert game.state == before
    assert game.answer(decision, 4).decision.prompt.startswith("P1: how many relationships")


def test_without_cancelled_dice_going_to_the_pool_only_pairs_feed_it():
    game, _ = scripted_game("pool-conflict", GM + G1 + G2 + P1 + P2, params={"ghosts": 2, "start_pool": 7})
    game.values["player"][1]["dice"] = 1
    events = play(game, "conflict", answers=[4, 1, 1, 0], scale="scene")
    assert [m["count"] for m in kinds(events, "move")] == [2, 0]
    assert game.values["pool"] == 9 and game.values["loop"]["hour"] == 1   # under ten: the hour goes on
