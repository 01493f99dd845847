"""Noche de los Vampiros, rule by rule (docs/rulings.md), with scripted dice and answers: every
expected value is worked out by hand from the source text and the rulings, in the comments."""

import pytest

from ruleset_engine import dice
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game
from tests.games.noche_table import (
    RULESET, answer_all, check_boxes, conflict, night, rolls, says, stakes, who,
)


def faces(expr):
    return sorted(dice.compile(expr).evaluate(rng=dice.ScriptedDice([])).pool.faces)


# ---- the text's worked examples

def test_pair_example_as_ruled():
    # The text: 1,2,2,2,4,5,5,6 has two pairs (2,2 and 5,5); one 2 and one 5 are set aside. Its printed
    # result 1,2,2,4,6 drops a second 5, which its own rule does not; the ruling keeps 1,2,2,4,5,6.
    assert faces("unpair([1, 2, 2, 2, 4, 5, 5, 6])") == [1, 2, 2, 4, 5, 6]
    # The same roll in a conflict: Ana risks 7 and brings in 1 Relationship (8 dice); Beto risks 1;
    # the pool of one die shows 6. Ana keeps 1 2 2 4 5 6, the 6 is cancelled, her highest is 5; her two
    # set-aside dice and the cancelled 6 go into the pool (1 + 2 + 1 = 4) and her hand is 10 + 1 - 3 = 8.
    game, source = night(2, [6, 1], [1, 2, 2, 2, 4, 5, 5, 6] + [3] + [6])
    conflict(game, stakes(Ana=(7, 1), Beto=(1, 0)))
    ana = who(game, "Ana")
    assert sorted(ana["kept"]) == [1, 2, 2, 4, 5, 6] and ana["paired"] == 2
    assert ana["result"] == 5 and ana["dice"] == 8
    assert game.values["pool"] == 4 and source.remaining == 0


def test_matching_alone_gives_3_and_4_6():
    # The text's matching example, matching only: 1,2,3,3 and 3,4,4,6 against 1,2,2,3,4,5.
    assert faces("cancel([1, 2, 3, 3], [1, 2, 2, 3, 4, 5])") == [3]
    assert faces("cancel([3, 4, 4, 6], [1, 2, 2, 3, 4, 5])") == [4, 6]


def test_matching_after_pair_removal_gives_0_and_6():
    # A real conflict removes pairs first: 1,2,3,3 -> 1,2,3 (all cancelled: 0); 3,4,4,6 -> 3,4,6 (3 and 4
    # cancelled: 6). The pool of six dice is the GM's alone (nobody is dead).
    game, source = night(2, [6, 1], [1, 2, 3, 3] + [3, 4, 4, 6] + [1, 2, 2, 3, 4, 5], pool_limit=20)
    game.values["pool"] = 6
    conflict(game, stakes(Ana=(4, 0), Beto=(4, 0)))
    assert who(game, "Ana")["result"] == 0 and who(game, "Beto")["result"] == 6
    said = says(game)
    assert "Ana: 0, Bitten. The place is wrecked, soaked in blood or burnt to the ground." in said
    assert "Beto: 6, Triumph. Every vampire here, or the one who leads them, is destroyed." in said
    # Each set one die aside and lost the cancelled ones (Ana 3, Beto 2) to the pool too: it holds
    # 6 + 4 + 3 = 13 (under a limit of 20), Ana's hand 10 - 4 = 6, Beto's 10 - 3 = 7.
    assert game.values["pool"] == 13 and who(game, "Ana")["dice"] == 6 and who(game, "Beto")["dice"] == 7
    assert source.remaining == 0


def test_seven_dice_split_among_two_dead_and_the_gm():
    # 7 dice, 3 people: 7 // 3 = 2 each for the dead, the GM takes 2 + the remainder 1 = 3. Each dead
    # player also rolls their own die (dead_die: pool).
    game, source = night(3, [6, 1, 1], [4] + [1, 1, 1] + [4, 2] + [3] + [2, 2] + [3])
    for name in ("Beto", "Carla"):
        who(game, name)["alive"] = False
    game.values["living"] = 1
    game.values["pool"] = 7
    start = len(game.log)
    conflict(game, stakes(Ana=(1, 0)))
    sizes = [(label, len(pool)) for label, pool in rolls(game, start)]
    assert sizes == [("Ana: 1 risked, 0 for Relationships", 1), ("GM (3 of the Vampire Pool)", 3),
                     ("Beto, dead (2 of the Vampire Pool)", 2), ("Beto's own die", 1),
                     ("Carla, dead (2 of the Vampire Pool)", 2), ("Carla's own die", 1), ("Ana against the pool", 0)]
    # Every die of the pool cancels, whoever rolled it: Beto's 4 cancels Ana's only die.
    assert who(game, "Ana")["result"] == 0 and source.remaining == 0


# ---- the rulings, one by one

def test_cancelled_dice_stay_in_hand_unless_the_param_sends_them_to_the_pool():
    for to_pool, pool, hand in ((False, 1, 3), (True, 2, 2)):
        # Ana holds 3 dice, risks 2: 4 5; the pool's one die is a 4, which cancels her 4.
        game, _ = night(2, [6, 1], [4, 5] + [1] + [4], cancelled_dice_to_pool=to_pool)
        who(game, "Ana")["dice"] = 3
        conflict(game, stakes(Ana=(2, 0), Beto=(1, 0)))
        assert who(game, "Ana")["result"] == 5
        assert (game.values["pool"], who(game, "Ana")["dice"]) == (pool, hand)


def test_a_player_never_falls_below_one_die():
    # Ana holds 2 dice and risks both: 4 4, a pair (one set aside), the other 4 cancelled by the pool.
    # With cancelled dice sent to the pool she would lose both; she takes one back: 1 die, pool 1 + 1.
    game, _ = night(2, [6, 1], [4, 4] + [1] + [4], cancelled_dice_to_pool=True)
    who(game, "Ana")["dice"] = 2
    conflict(game, stakes(Ana=(2, 0), Beto=(1, 0)))
    assert who(game, "Ana")["dice"] == 1 and game.values["pool"] == 2


def test_outcome_column_follows_the_scale():
    for scale, text in (("shot", "One vampire is badly wounded."), ("scene", "The whole pack is driven far back.")):
        game, _ = night(2, [6, 1], [5] + [1] + [6], scale=scale)
        conflict(game, stakes(Ana=(1, 0), Beto=(1, 0)))
        assert f"Ana: 5, Clear win. {text}" in says(game)


def test_whole_hour_raises_the_pool_to_the_limit_and_ends_the_hour():
    # The pool is raised to ten dice before rolling; the Hour ends after the conflict, whatever it adds.
    game, source = night(2, [6, 1], [5] + [1] + [2, 3, 3, 3, 3, 3, 3, 3, 3, 3])
    game.perform("scale", to="hour")
    start = len(game.log)
    conflict(game, stakes(Ana=(1, 0), Beto=(1, 0)))
    assert [len(pool) for label, pool in rolls(game, start) if label.startswith("GM")] == [10]
    assert game.values["loop"]["hour"] == 2 and game.values["pool"] == 1 and source.remaining == 0
    # Ana: 5 not cancelled (no 5 in the pool) -> Clear win at the Hour's scale.
    assert "Ana: 5, Clear win. Several vampires are destroyed." in says(game, start)


def test_the_hour_ends_when_set_aside_dice_bring_the_pool_to_the_limit():
    # pool_limit 3: Ana's 6 6 6 6 sets two 6s aside, the pool goes from 1 to 3: the Hour ends at once.
    game, _ = night(2, [6, 1], [6, 6, 6, 6] + [1] + [2], pool_limit=3)
    conflict(game, stakes(Ana=(4, 0), Beto=(1, 0)))
    assert game.values["loop"]["hour"] == 2 and game.values["conflicts"] == 0
    assert "The Vampire Pool is full (3 dice): the Hour ends." in says(game)


def test_one_die_left_at_the_end_of_an_hour_checks_a_box():
    # Ana ends the Hour with one die: she checks the 10 box and the next Hour she holds 8 dice;
    # Beto, with 10, checks nothing.
    game, _ = night(2, [6, 1], [6, 6] + [1] + [2], pool_limit=2)
    who(game, "Ana")["dice"] = 2
    conflict(game, stakes(Ana=(2, 0), Beto=(1, 0)))
    assert game.values["loop"]["hour"] == 2
    assert who(game, "Ana")["boxes"]["marked"] == 1 and who(game, "Ana")["dice"] == 8
    assert who(game, "Beto")["boxes"]["marked"] == 0 and who(game, "Beto")["dice"] == 10
    assert "Ana ends the Hour with one die and checks the 10 box." in says(game)


def test_dice_at_the_start_of_an_hour_are_the_highest_unchecked_label():
    # 10, 8 and 6 checked: 4 dice (the text's own example).
    game, _ = night(2, [6, 1], [6, 6] + [1] + [2], pool_limit=2)
    check_boxes(game, "Beto", 3)
    conflict(game, stakes(Ana=(2, 0), Beto=(1, 0)))
    assert who(game, "Beto")["dice"] == 4


def test_the_last_box_means_death_in_the_next_conflict():
    game, _ = night(3, [6, 1, 1], [3] + [4] + [2] + [5])
    check_boxes(game, "Beto", 5)
    conflict(game, stakes(Ana=(1, 0), Carla=(1, 0)))
    beto = who(game, "Beto")
    assert beto["alive"] is False and game.values["living"] == 2 and game.values["first_death"] == 1
    said = says(game)
    assert "Beto dies in this conflict. Beto's player narrates the death, then plays for the vampires." in said
    # Dead, Beto rolls a share of the pool (1 // 2 = 0 dice; the GM has the one) and his own die: 5.
    assert beto["result"] == 5


def test_the_last_box_after_the_twelfth_hour_means_death_at_dawn():
    game, _ = night(2, [6, 1], [6, 6] + [1] + [2], pool_limit=2, hours=1)
    check_boxes(game, "Ana", 4)
    who(game, "Ana")["dice"] = 2
    conflict(game, stakes(Ana=(2, 0), Beto=(1, 0)))
    assert game.over and game.result == "dawn" and game.values["living"] == 1
    said = says(game)
    assert "Ana ends the Hour with one die and checks the last box: death comes in the next conflict." in said
    assert "Ana lives to see the sun rise, and dies of the night's wounds." in said
    assert said[-1] == "Dawn. 1 character lives another day: Beto."


def test_relationships_bonus_dice_stay_in_hand():
    # Ana risks 2 and brings in 1 Relationship: 3 dice rolled, no pair; her hand is 10 + 1 = 11.
    game, _ = night(2, [6, 1], [1, 2, 3] + [4] + [6])
    conflict(game, stakes(Ana=(2, 1), Beto=(1, 0)))
    assert who(game, "Ana")["dice"] == 11 and who(game, "Ana")["brought"] == 1


def test_relationship_use_hour_lets_each_one_in_once_an_hour():
    # Three characters: Ana holds two Relationships. Under `hour`, she brings in one in the first
    # conflict (Beto's, the first offered); in the second only Carla's is still open, and offered.
    game, _ = night(3, [6, 1, 1], [1, 2, 3] + [1] + [2] + [4] + [1, 2, 3] + [1] + [2] + [4],
                    relationship_use="hour")
    conflict(game, stakes(Ana=(2, 1), Beto=(1, 0), Carla=(1, 0)))
    offered = []

    def policy(decision):
        if decision.who == "Ana" and decision.var == "ties":
            offered.append(decision.choices)
        return stakes(Ana=(2, 1), Beto=(1, 0), Carla=(1, 0))(decision)

    conflict(game, policy)
    assert offered == [("Carla",)]
    assert sum(1 for line in says(game) if line.startswith("Ana brings in the")) == 2


def test_narration_ties():
    # GM 6 against Ana 6: the GM narrates.
    game, _ = night(2, [6, 1], [6] + [1] + [6])
    # (Ana's 6 is cancelled by the GM's 6, so Ana's result is 0; the GM's 6 is the highest.)
    conflict(game, stakes(Ana=(1, 0), Beto=(1, 0)))
    assert game.values["narrator"] == "GM"
    # Ana 5 and Beto 5 against the GM's 2: they share the narration.
    game, _ = night(2, [6, 1], [5] + [5] + [2])
    conflict(game, stakes(Ana=(1, 0), Beto=(1, 0)))
    assert game.values["narrator"] == "Ana and Beto"
    assert "Highest die 5: Ana and Beto share the narration." in says(game)
    # Carla dead rolls a 5 (her own die), Ana living keeps a 5, the GM has a 3: the dead narrate.
    game, _ = night(3, [6, 1, 1], [5] + [1] + [3] + [5])
    who(game, "Carla")["alive"] = False
    game.values["living"] = 2
    conflict(game, stakes(Ana=(1, 0), Beto=(1, 0)))
    assert game.values["narrator"] == "Carla"


def test_dead_die_for_narration_only_does_not_cancel():
    # Carla dead rolls her own 5; under dead_die: narration it does not cancel Ana's 5.
    for mode, ana in (("pool", 0), ("narration", 5)):
        game, _ = night(3, [6, 1, 1], [5] + [1] + [3] + [5], dead_die=mode)
        who(game, "Carla")["alive"] = False
        game.values["living"] = 2
        conflict(game, stakes(Ana=(1, 0), Beto=(1, 0)))
        assert who(game, "Ana")["result"] == ana


def test_automatic_play_risks_half_rounded_up_and_one_relationship():
    game, _ = night(2, [6, 1], [1, 2, 3, 4, 5] + [1, 2, 3, 4, 5, 6] + [6])
    who(game, "Ana")["dice"] = 7
    conflict(game)
    # Ana (7 dice) risks 4 and brings in 1: 5 dice; Beto (10) risks 5 + 1: 6 dice.
    assert [len(pool) for label, pool in rolls(game) if "against" not in label][-3:] == [5, 6, 1]


def test_after_max_conflicts_the_automatic_answer_resolves_the_whole_hour():
    game, _ = night(2, [6, 1], [5] + [1] + [2] * 10, max_conflicts=2)
    game.values["conflicts"] = 2
    start = len(game.log)
    conflict(game, stakes(Ana=(1, 0), Beto=(1, 0)))
    assert "Conflict 3 of Hour 1: the whole Hour at once. The Vampire Pool rises to 10 dice." in says(game, start)
    assert game.values["loop"]["hour"] == 2
    # At the table the GM may say no: the conflict is then played at the current scale.
    game, _ = night(2, [6, 1], [5] + [1] + [2], max_conflicts=2)
    game.values["conflicts"] = 2
    conflict(game, lambda d: False if d.var == "whole" else stakes(Ana=(1, 0), Beto=(1, 0))(d))
    assert game.values["loop"]["hour"] == 1 and game.values["conflicts"] == 3


def test_who_starts_rerolls_ties_and_the_relationships_go_clockwise():
    # Four characters roll 3 6 2 6: Beto and Dani tie, roll again 4 5: Dani starts.
    game, source = night(4, [3, 6, 2, 6, 4, 5])
    assert game.values["first"] == 4 and source.remaining == 0
    rel = {(a, b): r["kind"] for a, b, r in game.pair_records("relationships")}
    # Round one: from Dani clockwise, a Bond to the left (the next seat) and a Conflict to the right;
    # round two: the characters two seats away (left and right are the same: the Bond is made).
    assert rel == {
        ("Dani", "Ana"): "Bond", ("Dani", "Carla"): "Conflict", ("Ana", "Beto"): "Bond", ("Ana", "Dani"): "Conflict",
        ("Beto", "Carla"): "Bond", ("Beto", "Ana"): "Conflict", ("Carla", "Dani"): "Bond", ("Carla", "Beto"): "Conflict",
        ("Dani", "Beto"): "Bond", ("Ana", "Carla"): "Bond", ("Beto", "Dani"): "Bond", ("Carla", "Ana"): "Bond",
    }
    asked = [line for line in says(game) if " has a " in line]
    assert asked[0] == "Dani has a Bond with Ana: Dani's Bond with Ana (to be told)"


def test_relationship_words_are_typed_at_the_table():
    game = Game.start(RULESET, rng=ScriptedDice([6, 1]))
    typed = {"n": 2}

    def policy(decision):
        if decision.var == "who":
            return "Ana" if "1," in decision.prompt else "Beto"
        if decision.var == "words":
            return "  slept with her brother  "
        return typed.get(decision.var)

    answer_all(game, game.last_outcome, policy)
    records = {(a, b): r["words"] for a, b, r in game.pair_records("relationships")}
    assert records == {("Ana", "Beto"): "slept with her brother", ("Beto", "Ana"): "slept with her brother"}


@pytest.mark.parametrize("name", ["noche-de-los-vampiros"])
def test_every_param_named_by_the_rulings_exists(name):
    params = load(name).params
    for param in ["pool_limit", "max_conflicts", "boxes", "relationship_use", "hours", "dead_die", "risk",
                  "relationships", "scale", "cancelled_dice_to_pool", "hour_pool", "policy"]:
        assert param in params


def test_fewer_boxes_fewer_dice():
    # boxes 3: the labels are 6, 4, 2, so a character starts the night with 6 dice; with the 6 box
    # checked at the end of an Hour, the next Hour brings 4.
    game, _ = night(2, [6, 1], [6, 6] + [1] + [2], pool_limit=2, boxes=3)
    assert who(game, "Ana")["dice"] == 6 and who(game, "Ana")["boxes"]["size"] == 3
    who(game, "Ana")["dice"] = 2
    conflict(game, stakes(Ana=(2, 0), Beto=(1, 0)))
    assert "Ana ends the Hour with one die and checks the 6 box." in says(game)
    assert who(game, "Ana")["dice"] == 4


# ---- the scale as a parameter of the conflict, hour_pool, the automatic policies

def test_conflict_hour_plays_the_whole_hour_and_keeps_the_scale():
    # `conflict hour` at the table: the pool rises to ten before rolling (GM rolls 10), the Hour ends after
    # the one conflict, and the scale stays hour for the conflicts to come.
    game, source = night(2, [6, 1], [5] + [1] + [2, 3, 3, 3, 3, 3, 3, 3, 3, 3])
    start = len(game.log)
    answer_all(game, game.perform("conflict", scale="hour"), stakes(Ana=(1, 0), Beto=(1, 0)))
    assert [len(pool) for label, pool in rolls(game, start) if label.startswith("GM")] == [10]
    assert game.values["loop"]["hour"] == 2 and game.values["in_force"] == "hour" and source.remaining == 0
    assert "Scale: hour, for the conflicts to come." in says(game, start)


def test_a_conflict_refuses_a_scale_not_offered():
    game, _ = night(2, [6, 1])
    with pytest.raises(Exception, match="week"):
        game.perform("conflict", scale="week")
    assert game.values["in_force"] == "scene"


def test_hour_pool_is_the_whole_hour_roll_not_the_limit():
    # pool_limit 30, hour_pool 10: the whole Hour rolls ten dice; Ana's 6 6 and Beto's 6 are all
    # cancelled or set aside (pool: 10 + 1 pair + 2 cancelled = 13 < 30), yet the Hour ends after it.
    game, source = night(2, [6, 1], [6, 6] + [6] + [6, 6, 6, 1, 1, 1, 1, 1, 1, 1], pool_limit=30)
    answer_all(game, game.perform("conflict", scale="hour"), stakes(Ana=(2, 0), Beto=(1, 0)))
    assert game.values["loop"]["hour"] == 2 and game.values["pool"] == 1 and source.remaining == 0
    assert "The whole Hour is played: it ends." in says(game)
    assert "Hour 1 ends with the Vampire Pool at 13." in says(game)


@pytest.mark.parametrize("policy, risked, brought", [("cautious", 5, 1), ("bold", 10, 1), ("desperate", 10, 1)])
def test_policies_on_a_whole_hour_roll(policy, risked, brought):
    # Two players, so one Relationship each is open. The automatic answers on a whole-Hour roll: cautious
    # risks half of 10; bold and desperate the whole hand; desperate brings every open Relationship.
    game, _ = night(2, [6, 1], [1] * 40, policy=policy)
    start = len(game.log)
    answer_all(game, game.perform("conflict", scale="hour"), lambda d: None)
    labels = [label for label, _ in rolls(game, start)]
    assert f"Ana: {risked} risked, {brought} for Relationships" in labels


def test_bold_plays_whole_hours_and_desperate_brings_every_relationship():
    # Four players: three Relationships each are open. Cautious plays the Scene (the scale param), risking
    # half of 10; bold and desperate play the whole Hour (the night starts at that scale), staking all 10;
    # desperate brings in all three Relationships.
    for policy, scale, risked, brought in (("cautious", "scene", 5, 1), ("bold", "hour", 10, 1),
                                           ("desperate", "hour", 10, 3)):
        game, _ = night(4, [6, 1, 1, 1], [1] * 80, policy=policy)
        assert game.values["in_force"] == scale
        start = len(game.log)
        conflict(game)
        assert f"Ana: {risked} risked, {brought} for Relationships" in [label for label, _ in rolls(game, start)]


def test_the_house_rule_limit_grows_with_the_table():
    house = load("noche-long-hours")
    for n, limit in ((2, 20), (8, 80)):
        game, _ = night(n, [6] + [1] * (n - 1), ruleset=house, pool_per_player=10)
        assert game.values["limit"] == limit
    # Its whole-Hour roll stays at ten dice (hour_pool), whatever the limit.
    assert house.params["hour_pool"].default == 10
