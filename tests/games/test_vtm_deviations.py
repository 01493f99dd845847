"""Vampire: the Masquerade, where dusk once read the text otherwise (issue 28, section 1), each with
the text's numbers or worked by hand, with scripted dice.

The text (in its Chinese): the wound penalty takes dice off rolls that involve a bodily action, not
off a soak or resisting with the mind; Musashi (Dexterity 3, Brawl 4, Dodge 3) punches and dodges two
brutes, three actions: 4, 2 and 1 dice; a point of Willpower is one success, once a turn; a
character past Incapacitated does nothing but spend blood; torpor lasts as its table says by Humanity.
Kojiro (Intelligence 5, Investigation 4, Occult 5) searches a library with Intelligence + Investigation.
"""

import pytest
from tests.games.vtm_table import RULESET, said, start


def sizes(outcome):
    return [len(e["dice"]) for e in outcome.events if e["kind"] == "roll"]


def sheet(game, name):
    return next(c for c in game.values["character"] if c["name"] == name)


# ---- the wound penalty, decided from the traits rolled, in every kind of roll ---------------------

def wounded_kojiro(faces):
    game, source = start(faces)
    game.perform("wound", who="Kojiro", levels=4, type="lethal")        # Wounded: -2
    return game, source


def test_a_wounded_kojiro_researching_rolls_nine_dice_not_seven():
    game, _ = wounded_kojiro([2] * 40)
    assert sizes(game.perform("test", who="Kojiro", dice="intelligence + investigation", diff=8)) == [9]
    assert sizes(game.perform("test", who="Kojiro", dice="intelligence + occult", diff=8)) == [10]
    # A bodily roll: Dexterity 3 + Brawl 4 = 7, less 2.
    assert sizes(game.perform("test", who="Kojiro", dice="dexterity + brawl")) == [5]


def test_extended_teamwork_and_resisted_rolls_read_the_traits_too():
    game, _ = wounded_kojiro([2] * 60)
    out = game.perform("extended", who="Kojiro", dice="intelligence + investigation", diff=8, target=15)
    assert sizes(out) == [9]
    assert sizes(game.perform("team", who="Kojiro", dice="intelligence + investigation")) == [9]
    # Resisted: Kojiro's Wits + Alertness (mind: 4 + 3) against Ana's Dexterity + Athletics (3 + 2);
    # then Kojiro's Strength + Brawl (2 + 4, bodily: less 2) against Ana's Perception + Alertness.
    game.perform("wound", who="Ana", levels=2, type="bashing")            # Ana Hurt: -1
    out = game.perform("resisted", who="Kojiro", dice="wits + alertness", vs="Ana", vs_dice="dexterity + athletics")
    assert sizes(out) == [7, 5 - 1]
    out = game.perform("resisted", who="Kojiro", dice="strength + brawl", vs="Ana", vs_dice="perception + alertness")
    assert sizes(out) == [6 - 2, 5]


# ---- several actions, the defences among them ------------------------------------------------------

def test_musashi_punches_and_dodges_two_brutes_through_attack_four_two_and_one_dice():
    game, source = start([2, 2, 2, 2] + [6, 6, 2, 2] + [6, 6] + [6, 2, 2, 2] + [6])
    game.perform("npc", name="Musashi", nature="vampire", dex=3, brawl=4, dodge=3)
    game.perform("npc", name="A", dex=2, brawl=2)
    game.perform("npc", name="B", dex=2, brawl=2)
    # His punch, the first of three actions: 3 + 4 - 3 = 4 dice (a miss).
    punch = game.perform("attack", who="Musashi", target="A", kind="brawl", actions=3, nth=1)
    assert sizes(punch) == [4] and said(punch)[0] == "3 actions: this one, number 1, loses 3 dice."
    # A's blow (2 successes), dodged as his second action: 3 + 3 - 4 = 2 dice, both successes.
    first = game.perform("attack", who="A", target="Musashi", kind="brawl", defend="dodge", defence_actions=3,
                         defence_nth=2)
    assert sizes(first) == [4, 2]
    assert "Musashi defends as action 2 of 3: 4 dice fewer." in said(first)
    assert said(first)[-1] == "The attack is cancelled."
    # B's blow (1 success), dodged as his third: 6 - 5 = 1 die.
    second = game.perform("attack", who="B", target="Musashi", kind="brawl", defend="dodge", defence_actions=3,
                          defence_nth=3)
    assert sizes(second) == [4, 1] and said(second)[-1] == "The attack is cancelled."
    assert source.remaining == 0


@pytest.mark.parametrize("split, nth, dice", [(1, 1, 5), (2, 1, 3), (2, 2, 2), (3, 1, 2), (3, 3, 0)])
def test_split_costs_as_the_defences_place_among_the_actions(split, nth, dice):
    # Brute dodges with Dexterity 3 + Dodge 2 = 5: as action nth of split, it loses split + nth - 1.
    game, _ = start([6] * 7 + [2] * dice + [2] * 30)
    game.perform("npc", name="Brute", dex=3, dodge=2)
    out = game.perform("attack", who="Ana", target="Brute", kind="firearms", defend="dodge", damage=0,
                       defence_actions=split, defence_nth=nth)
    # With no dice left the dodge fails unrolled: the next roll is the damage (0 + 7 successes).
    assert sizes(out)[:2] == ([7, dice] if dice else [7, 7])
    assert ("No dice left: the action fails." in said(out)) == (dice == 0)


def test_a_defence_past_the_defenders_actions_is_refused():
    game, source = start([])
    out = game.perform("attack", who="Ana", target="Kojiro", kind="firearms", defend="dodge", defence_actions=2,
                       defence_nth=3)
    assert said(out) == ["Refused: action 3 of 2?"] and sizes(out) == []


# ---- Willpower is spent only when a roll happens ----------------------------------------------------

@pytest.mark.parametrize("args, line", [
    ({"dice": 5, "diff": 10, "retry": 1}, "Difficulty 11 is above 10: the action cannot succeed."),
    ({"dice": 3, "actions": 3}, "No dice left: the action fails."),
])
def test_no_roll_no_willpower(args, line):
    game, source = start([6, 6])
    game.perform("turn")
    out = game.perform("test", who="Ana", wp=True, **args)
    assert said(out)[-1] == line and sizes(out) == []
    assert sheet(game, "Ana")["willpower_pool"] == 5 and not sheet(game, "Ana")["wp_spent"]
    # The point is still there to spend this turn, on a roll that happens.
    out = game.perform("test", who="Ana", dice=2, wp=True)
    assert sizes(out) == [2] and sheet(game, "Ana")["willpower_pool"] == 4


def test_an_incapacitated_character_spends_no_willpower():
    game, _ = start([])
    game.perform("wound", who="Ana", levels=7, type="bashing")
    out = game.perform("test", who="Ana", dice=5, wp=True)
    assert said(out) == ["Ana cannot act: incapacitated."]
    assert sheet(game, "Ana")["willpower_pool"] == 5


def test_an_attack_with_willpower_refused_rolls_nothing():
    game, _ = start([6] * 7)
    game.perform("turn")
    game.perform("test", who="Ana", dice=0, wp=True)               # no dice: nothing spent
    game.perform("test", who="Ana", dice="dexterity", wp=True)     # spent: 3 dice
    out = game.perform("attack", who="Ana", target="Kojiro", kind="firearms", wp=True)
    assert said(out)[-1] == "Refused: Ana has spent Willpower this turn already (one point a turn)."
    assert sizes(out) == []


# ---- who may act ------------------------------------------------------------------------------------

def torpid_kojiro():
    game, source = start([6] * 40)
    game.perform("wound", who="Kojiro", levels=7, type="lethal")
    game.perform("wound", who="Kojiro", levels=1, type="lethal")           # past Incapacitated: torpor
    assert sheet(game, "Kojiro")["condition"] == "torpor"
    return game


@pytest.mark.parametrize("action, args", [
    ("test", {"who": "Kojiro", "dice": "wits + alertness"}),
    ("seduce", {"who": "Kojiro", "target": "Ana"}),
    ("seduce", {"who": "Ana", "target": "Kojiro"}),
    ("resisted", {"who": "Ana", "vs": "Kojiro"}),
    ("team", {"who": "Kojiro"}),
    ("frenzy", {"who": "Kojiro", "diff": 5}),
    ("knockdown", {"who": "Kojiro"}),
])
def test_a_torpid_character_cannot_act_and_says_so(action, args):
    game = torpid_kojiro()
    before = sheet(game, "Kojiro")
    team = game.values["team_rolls"]
    out = game.perform(action, **args)
    assert said(out) == ["Kojiro cannot act: torpor."] and sizes(out) == []
    assert sheet(game, "Kojiro") == before and game.values["team_rolls"] == team
    assert not sheet(game, "Kojiro")["frenzied"]


# ---- torpor has a length, counted on the chronicle's calendar -----------------------------------------

def test_torpor_lasts_as_the_table_says_and_no_one_wakes_the_night_they_fell():
    # Ana, Humanity 7: two weeks, 14 days. She falls on day 1: no awakening before day 15.
    game, source = start([8, 2, 2, 2, 2, 2, 2])
    game.perform("wound", who="Ana", levels=7, type="lethal")
    out = game.perform("wound", who="Ana", levels=1, type="lethal")
    assert said(out)[-1] == "Ana sleeps two weeks (Humanity 7): no awakening before day 15 (today is day 1)."
    assert sheet(game, "Ana")["torpor_until"] == 15
    assert said(game.perform("awaken", who="Ana")) == ["Refused: Ana's torpor (two weeks) lasts until day 15; today is day 1."]
    for _ in range(13):
        game.perform("night")                    # nights played count: day 14
    assert game.values["day"] == 14 and said(game.perform("awaken", who="Ana"))[0].startswith("Refused")
    game.perform("night")
    out = game.perform("awaken", who="Ana")
    assert said(out)[-1] == "Ana wakes: 6/7 (lethal 6), Crippled."
    assert source.remaining == 0


@pytest.mark.parametrize("amount, unit, day", [(3, "nights", 4), (2, "weeks", 15), (1, "months", 31), (50, "years", 18251),
                                               (2, "centuries", 73001)])
def test_time_passes_in_the_texts_units(amount, unit, day):
    game, _ = start([])
    out = game.perform("pass", amount=amount, unit=unit)
    assert game.values["day"] == day
    # the unit's days from the calendar table: 2 centuries are 2 x 36,500 days
    assert said(out) == [f"{amount} {unit} pass ({day - 1} days): it is day {day} of the chronicle."]


# Torpor's length by Humanity, in the calendar's units (table torpor x table calendar), as days: the
# text's day, three days, week, two weeks, month, year, ten years, fifty years, century, five
# centuries, and a millennium for 0.
@pytest.mark.parametrize("humanity, days", [(10, 1), (9, 3), (8, 7), (7, 14), (6, 30), (5, 365), (4, 3650), (3, 18250),
                                            (2, 36500), (1, 182500), (0, 365000)])
def test_torpor_is_counted_in_the_calendars_units(humanity, days):
    game, _ = start([])
    game.values["character"][0]["humanity"] = humanity
    game.perform("wound", who="Ana", levels=7, type="lethal")
    game.perform("wound", who="Ana", levels=1, type="lethal")
    assert sheet(game, "Ana")["torpor_until"] == 1 + days
    # by choice, half as long, rounded up
    game, _ = start([])
    game.values["character"][0]["humanity"] = humanity
    game.perform("sleep", who="Ana")
    assert sheet(game, "Ana")["torpor_until"] == 1 + (days + 1) // 2


def test_the_texts_chapters_and_stories_are_counted_and_each_begins_a_night():
    game, _ = start([])
    assert said(game.perform("next", what="chapter")) == ["Story 1, chapter 2: a new night, day 2 of the chronicle."]
    assert (game.values["chapter"], game.values["story"], game.values["day"]) == (2, 1, 2)     # a new night: day 2
    out = game.perform("next", what="story")
    assert said(out) == ["Story 2, chapter 1: a new night, day 3 of the chronicle."]
    assert (game.values["chapter"], game.values["story"], game.values["day"]) == (1, 2, 3)


# ---- delay: to any later point of the turn, never a second action ---------------------------------------

def test_a_delay_moves_to_any_later_point_and_who_has_acted_cannot_delay():
    # Ana 3 + 3 + 9 = 15, Brute 3 + 3 + 2 = 8, Guard 2 + 2 + 1 = 5 (Kojiro out of the scene).
    game, source = start([9, 2, 1])
    game.perform("npc", name="Brute", nature="vampire", dex=3, wit=3)
    game.perform("npc", name="Guard", nature="human")
    game.perform("leave", who="Kojiro")
    out = game.perform("initiative")
    assert said(out)[-2:] == ["Initiative: 1. Ana (15), 2. Brute (8), 3. Guard (5)", "Ana acts (initiative 15)."]
    out = game.perform("delay", who="Ana", after="Brute")
    assert said(out) == ["Ana delays: acts right after Brute this turn.", "Brute acts (initiative 8)."]
    assert said(game.perform("delay", who="Guard", after="Brute")) == [
        "Refused: Brute acts before Guard; a delay moves later in the turn."]
    assert said(game.perform("done")) == ["Ana acts (initiative 15)."]
    assert said(game.perform("done")) == ["Guard acts (initiative 5)."]
    # Ana has acted: no delay to act again this turn; the Guard, acting now, may still delay.
    assert said(game.perform("delay", who="Ana")) == ["Refused: Ana has acted this turn; a delay does not act twice."]
    assert said(game.perform("delay", who="Guard")) == ["Guard delays: acts last this turn.", "Guard acts (initiative 5)."]
    assert said(game.perform("done")) == ["Everyone has acted: next turn."]
    game.perform("turn")
    assert not sheet(game, "Ana")["acted"]            # the next turn, a new order
    assert source.remaining == 0


# ---- switches for the text's optional or double-read rules ----------------------------------------------

def test_dazed_is_a_switch():
    # A human guard of Stamina 2 takes 3 lethal levels: dazed when the rule is on (the default), not off.
    for on in (True, False):
        game, _ = start([6, 2, 2] + [6, 6, 6] + [6, 6, 6] + [2] * 10, dazed=on)
        game.perform("npc", name="Guard", nature="human", sta=2, dex=2, brawl=2)
        out = game.perform("attack", who="Ana", target="Guard", kind="melee", damage=1, type="lethal")
        assert ("dazed" in said(out)[-1]) == on
        game.perform("turn")
        out = game.perform("attack", who="Guard", target="Ana", kind="brawl")
        assert (said(out) == ["Guard cannot act: dazed, this turn is lost."]) == on


def test_seduction_resisted_by_difficulty_under_the_switch():
    # Ana against Kojiro, the target's trait + 3 as Ana's difficulty: Appearance 3 + Subterfuge 0 at
    # Wits 4 + 3 = 7 (7 2 2: one success); Wits 3 + 1 at Intelligence 5 + 3 = 8 (8 8 2 2: two);
    # Charisma 3 + 1 at Perception 4 + 3 = 7 (7 2 2 2: one). Kojiro rolls nothing.
    game, source = start([7, 2, 2] + [8, 8, 2, 2] + [7, 2, 2, 2], seduction_resist="difficulty")
    out = game.perform("seduce", who="Ana", target="Kojiro")
    assert sizes(out) == [3, 4, 4]
    assert said(out)[-1] == "1 to 0: Kojiro is taken with Ana and goes somewhere quieter; the rest is roleplayed."
    assert source.remaining == 0


def test_seduction_is_no_bodily_action():
    # A Wounded Ana (-2) still rolls Appearance 3 + Subterfuge 0 = 3 dice against Wits 4 + 3 = 7.
    game, _ = start([1, 2, 2] + [2] * 7)
    game.perform("wound", who="Ana", levels=4, type="lethal")
    assert sizes(game.perform("seduce", who="Ana", target="Kojiro")) == [3, 7]


def declaring(faces):
    # Ana 3 + 3 + 9 = 15, Kojiro 3 + 4 + 2 = 9: the text's full turn.
    game, source = start([9, 2] + faces, declare_phase=True)
    out = game.perform("initiative")
    return game, source, out


def test_the_full_turn_declares_from_the_lowest_initiative_up():
    game, _, out = declaring([])
    assert said(out)[-2] == ("Declare, lowest initiative first: Kojiro, Ana. Blood and Willpower for the turn "
                             "are declared now (declare NAME wp, blood N); several actions resolve at its end.")
    game, _, out = start([9, 2])[0], None, None
    assert not any("Declare" in line for line in said(game.perform("initiative")))      # off: a quick table


def test_blood_and_willpower_are_declared_at_the_turns_start():
    game, source, _ = declaring([6, 6, 2] + [6, 6])
    assert said(game.perform("declare", who="Ana", wp=True, blood=1)) == [
        "Ana declares for this turn: Willpower 1, blood 1."]
    game.perform("declare", who="Kojiro", blood=1)
    # Kojiro declared no Willpower: it is refused, no die rolled.
    out = game.perform("test", who="Kojiro", dice=3, wp=True)
    assert said(out)[-1] == "Refused: Kojiro did not declare Willpower at the turn's start (declare NAME wp)."
    assert sheet(game, "Kojiro")["willpower_pool"] == 8
    out = game.perform("test", who="Ana", dice=3, wp=True)          # 6 6 2 + 1
    assert said(out)[-1] == "6✓ 6✓ 2 +1 (Willpower) = 3 successes: Complete"
    # The rolls have begun: no more declaring.
    assert said(game.perform("declare", who="Kojiro", wp=True)) == [
        "Refused: this turn's rolls have begun; blood and Willpower are declared at its start."]
    # Kojiro (3 blood a turn) declared 1.
    game.perform("wound", who="Kojiro", levels=2, type="bashing")
    assert said(game.perform("heal", who="Kojiro", levels=2))[-1] == (
        "Refused: Kojiro declared 1 blood left to spend this turn, not 2 (declare NAME blood N, at the turn's start).")
    assert sheet(game, "Kojiro")["blood"] == 15
    game.perform("heal", who="Kojiro", levels=1)
    assert (sheet(game, "Kojiro")["blood"], sheet(game, "Kojiro")["blood_declared"]) == (14, 0)
    # Several actions wait for the end of the turn: once everyone has acted, they resolve.
    out = game.perform("test", who="Ana", dice="dexterity + firearms", actions=2, nth=1)
    assert said(out) == ["Refused: several actions resolve at the end of the turn, once everyone has acted (done)."]
    game.perform("done")
    game.perform("done")
    out = game.perform("test", who="Ana", dice=4, actions=2, nth=1)
    assert sizes(out) == [2]
    game.perform("turn")
    assert (sheet(game, "Ana")["wp_declared"], sheet(game, "Ana")["blood_declared"]) == (False, 0)
    assert source.remaining == 0


# ---- small ones -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, refused", [
    ({"kind": "brawl"}, True),
    ({"kind": "firearms"}, True),
    ({"kind": "melee"}, True),                      # Ana's sheet weapon, a pistol, cannot stake
    ({"kind": "melee", "damage": 2}, False),        # a weapon named at the table: the Storyteller's stake
])
def test_a_stake_needs_a_weapon_that_can_stake(args, refused):
    game, _ = start([2] * 30)
    game.perform("npc", name="Brute", nature="vampire")
    out = game.perform("attack", who="Ana", target="Brute", stake=True, **args)
    assert said(out)[0].startswith("Refused: a stake needs a weapon that can stake") == refused
    assert (sizes(out) == []) == refused


def test_an_extra_with_a_stake_stakes_with_the_sheets_weapon():
    # The Hunter: Dexterity 2 + Melee 3 at 9 (9 9 9 2 2: 3), a stake of damage 2 + Strength 2 + ... at 6.
    game, _ = start([9, 9, 9, 2, 2] + [6, 6, 6, 6] + [2, 2])
    game.perform("npc", name="Hunter", melee=3, weapon=2, wtype="lethal", stakes=True)
    game.perform("npc", name="Brute", nature="vampire")
    out = game.perform("attack", who="Hunter", target="Brute", kind="melee", stake=True)
    assert said(out)[-1] == "The stake pierces Brute's heart: paralysed until it is drawn out."


def test_only_blood_may_be_spent_is_not_said_of_a_human():
    game, _ = start([])
    game.perform("npc", name="Guard", nature="human")
    out = game.perform("wound", who="Guard", levels=7, type="bashing")
    assert said(out)[-1] == "Guard takes 7 bashing: Incapacitated, on the edge of unconsciousness; 7/7 (bashing 7)."
    out = game.perform("wound", who="Ana", levels=7, type="bashing")
    assert said(out)[-1] == "Ana takes 7 bashing: Incapacitated, only blood may be spent; 7/7 (bashing 7)."


def test_the_npc_armour_help_says_what_the_rules_do():
    penalty = RULESET.actions["npc"].params["penalty"].doc
    assert "initiative" in penalty["en"] and "Dexterity" not in penalty["en"]
    assert "优先权" in penalty["zh"] and "敏捷" not in penalty["zh"]
    # The armour's penalty comes off initiative: Dexterity 2 + Wits 2 + 5 - 2 = 7.
    game, _ = start([5, 2, 2])
    game.perform("npc", name="Knight", armour=3, penalty=2)
    game.perform("leave", who="Ana")
    game.perform("leave", who="Kojiro")
    out = game.perform("initiative")
    assert "Knight: 2 + 2 + 5 (wounds 0, armour -2) = 7" in said(out)


def test_teamwork_counts_no_one_who_cannot_act():
    game, _ = start([6, 6] + [6, 6, 6])
    game.perform("wound", who="Kojiro", levels=7, type="lethal")           # Incapacitated
    game.perform("team", who="Ana", dice=2)
    assert said(game.perform("team", who="Kojiro", dice=3)) == ["Kojiro cannot act: incapacitated."]
    assert (game.values["team_net"], game.values["team_rolls"]) == (2, 1)
