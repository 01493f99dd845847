"""Vampire: the Masquerade, part 2: health, damage and the attack, with scripted dice, every expected
value worked out by hand from the summary's rules (docs/rulings.md says how each is read).

The summary's worked example (in its Chinese): Dr. Tenma shoots the brute standing in his way at
difficulty 6 and gets 6 successes; the brute dodges with 2, so 4 are left; the pistol's damage 5 plus
those 4 makes 9 dice, which show 2 3 5 6 9 8 8 7 7 at 6: six successes; the brute, Stamina 4 and no
armour, soaks 3 of them and is Injured. The brute is a vampire here: under the summary's own rule a
human cannot soak a bullet (lethal damage).
"""

import pytest

from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game
from tests.games.vtm_table import said, start


def rolled(outcome):
    return [[d["face"] for d in e["dice"]] for e in outcome.events if e["kind"] == "roll"]


def sheet(game, name):
    return next(c for c in game.values["character"] if c["name"] == name)


def npc(game, name, **traits):
    game.perform("npc", name=name, **traits)


# ---- the summary's worked example ---------------------------------------------------------------

TENMA = [6, 7, 8, 9, 10, 6, 2]          # Ana, Dexterity 3 + Firearms 4: 6 successes at 6
DODGE = [6, 6, 2, 3, 4]                 # the brute, Dexterity 3 + Dodge 2: 2 successes
DAMAGE = [2, 3, 5, 6, 9, 8, 8, 7, 7]    # the summary's own nine dice: 6 successes
SOAK = [6, 7, 8, 2]                     # Stamina 4: 3 soaked


def test_the_summarys_shot_at_the_brute():
    game, source = start(TENMA + DODGE + DAMAGE + SOAK)
    npc(game, "Brute", nature="vampire", str=4, dex=3, sta=4, dodge=2)
    out = game.perform("attack", who="Ana", target="Brute", kind="firearms", diff=6, defend="dodge", damage=5)
    assert rolled(out) == [TENMA, DODGE, DAMAGE, SOAK]
    assert said(out) == [
        "6✓ 7✓ 8✓ 9✓ 10✓ 6✓ 2 = 6 successes: Phenomenal",
        "6✓ 6✓ 2 3 4 = 2 successes: Moderate",
        "6 - 2 (dodge) = 4.",
        "Damage: 5 + 4 successes = 9 dice.",
        "2 3 5 6✓ 9✓ 8✓ 8✓ 7✓ 7✓ = 6",
        "6✓ 7✓ 8✓ 2 = 3",
        "6 - 3 soaked = 3.",
        "Brute takes 3 lethal: Injured (-1); 3/7 (lethal 3).",
    ]
    assert said(out, "zh")[2:] == [
        "6 - 2（闪避）= 4。",
        "伤害值：5 + 4 个成功 = 9 个骰子。",
        "2 3 5 6✓ 9✓ 8✓ 8✓ 7✓ 7✓ = 6",
        "6✓ 7✓ 8✓ 2 = 3",
        "6 - 吸收 3 = 3。",
        "Brute 受到 3 级普通伤害：负伤（-1）；3/7 (普通 3)。"     # the marks by their Chinese words (words: zh:),
    ]
    assert sheet(game, "Brute")["health"]["marks"] == ["lethal"] * 3
    assert source.remaining == 0


def test_the_same_shot_at_a_human_brute_cannot_be_soaked():
    # The summary's own rule: a human cannot soak lethal damage. No soak roll: 6 levels, Crippled.
    game, source = start(TENMA + DODGE + DAMAGE)
    npc(game, "Brute", nature="human", str=4, dex=3, sta=4, dodge=2)
    out = game.perform("attack", who="Ana", target="Brute", kind="firearms", defend="dodge", damage=5)
    assert said(out)[-4:] == ["2 3 5 6✓ 9✓ 8✓ 8✓ 7✓ 7✓ = 6", "Brute cannot soak lethal damage.",
                              "Brute takes 6 lethal: Crippled (-5); 6/7 (lethal 6).",
                              "6 levels in one attack, more than Brute can take: dazed, Brute loses the next turn."]
    assert source.remaining == 0


def test_the_firearm_bonus_param_extra_counts_successes_beyond_the_first():
    game, source = start(TENMA + DODGE + [6] * 8 + [1, 1, 1, 1], firearm_bonus="extra")
    npc(game, "Brute", nature="vampire", sta=4, dex=3, dodge=2)
    out = game.perform("attack", who="Ana", target="Brute", kind="firearms", defend="dodge", damage=5)
    assert "Damage: 5 + 3 successes = 8 dice." in said(out)
    # Four 1s on the soak: no botch, nothing soaked: 8 levels on a track of 7: past Incapacitated.
    assert said(out)[-4:] == ["1 1 1 1 = 0", "8 - 0 soaked = 8.",
                              "Brute takes 8 lethal: past Incapacitated, torpor; 7/7 (lethal 7).",
                              "Brute sleeps two weeks (Humanity 7): no awakening before day 15 (today is day 1)."]
    assert sheet(game, "Brute")["condition"] == "torpor" and sheet(game, "Brute")["torpor_cause"] == "wounds"
    assert source.remaining == 0


# ---- damage and soak rolls: difficulty 6, never a botch, 1s as the param says --------------------

@pytest.mark.parametrize("cancel, damage_line, levels", [
    (False, "1 1 6✓ 7✓ = 2", 2),       # 1s take nothing away (the default)
    (True, "1⊘ 1⊘ 6✓ 7✓ = 0", 0),      # each 1 cancels one, never below 0, and no botch
])
def test_ones_on_a_damage_roll(cancel, damage_line, levels):
    # Ana punches Kojiro: Dexterity 3 + Brawl 1 = 4 dice; damage: Strength 2 + 2 (bashing, no weapon
    # in a brawl) with `damage 2` = 4 dice; Kojiro soaks with Stamina 3, all failing.
    game, source = start([6, 2, 2, 2] + [1, 1, 6, 7] + ([2, 3, 4] if levels else []), damage_ones_cancel=cancel)
    out = game.perform("attack", who="Ana", target="Kojiro", kind="brawl", damage=2)
    assert "Damage: 2 + Strength 2 = 4 dice." in said(out) and damage_line in said(out)
    if levels:
        assert said(out)[-2:] == ["2 - 0 soaked = 2.", "Kojiro takes 2 bashing: Hurt (-1); 2/7 (bashing 2)."]
    else:
        assert said(out)[-1] == "No damage."
    assert sheet(game, "Kojiro")["health"]["marked"] == levels and source.remaining == 0


def test_who_may_soak_what():
    # Bashing: anyone, Stamina + armour. Lethal: armour for anyone, Stamina only for a vampire.
    # Aggravated: only a power's dice.
    cases = [
        ("human", "bashing", 0, 2 + 1),      # Stamina 2 + armour 1
        ("human", "lethal", 0, 1),           # armour only
        ("ghoul", "lethal", 0, 1),           # a ghoul is mortal: armour only
        ("vampire", "lethal", 0, 2 + 1),
        ("vampire", "aggravated", 0, 0),
        ("vampire", "aggravated", 2, 2),     # a power (Fortitude 2) soaks it
        ("human", "aggravated", 2, 2),
    ]
    for nature, kind, power, soak_dice in cases:
        faces = [6, 2, 2] + [6] * 3 + [2] * soak_dice
        game, source = start(faces)
        npc(game, "X", nature=nature, sta=2, armour=1)
        out = game.perform("attack", who="Ana", target="X", kind="melee", damage=1, type=kind, power=power, diff=6)
        rolls = rolled(out)
        assert len(rolls[-1]) == soak_dice if soak_dice else len(rolls) == 2, (nature, kind, power)
        if not soak_dice:
            assert f"X cannot soak {kind} damage." in said(out)
        assert source.remaining == 0, (nature, kind, power)


# ---- the wound penalty on later rolls, Incapacitated, torpor, Final Death, death ---------------

def test_the_new_wound_penalty_takes_dice_off_later_rolls_not_soak():
    game, source = start(TENMA + DODGE + DAMAGE + SOAK + [6] * 5 + [6] * 4)
    npc(game, "Brute", nature="vampire", str=4, dex=3, sta=4, dodge=2, brawl=3)
    game.perform("attack", who="Ana", target="Brute", kind="firearms", defend="dodge", damage=5)
    # Injured (-1): Dexterity 3 + Brawl 3 = 6, less 1 = 5 dice.
    out = game.perform("test", who="Brute", dice="dexterity + brawl")
    assert len(rolled(out)[0]) == 5
    # Soak is not reduced: Stamina 4, four dice (a test with `wounds never`: Stamina is Physical, but a soak no bodily action).
    out = game.perform("test", who="Brute", dice="stamina", wounds="never")
    assert len(rolled(out)[0]) == 4


def test_incapacitated_can_only_spend_blood():
    game, source = start([])
    game.perform("wound", who="Ana", levels=7, type="lethal")
    out = game.perform("test", who="Ana", dice="dexterity + firearms")
    assert said(out) == ["Ana cannot act: incapacitated."] and rolled(out) == []


def test_past_incapacitated_a_vampire_sleeps_and_unsoakable_damage_ends_it():
    # Kojiro (Stamina 3) at 6 lethal; a blow for 3 bashing levels (4 hits, 1 soaked): one fills the
    # track, two are past it: torpor. Then an aggravated level (unsoakable): Final Death.
    game, source = start([6, 6, 6] + [6, 6, 6, 6, 2, 2] + [6, 2, 2] + [6, 6, 6] + [6, 2, 2, 2])
    game.perform("wound", who="Kojiro", levels=6, type="lethal")
    npc(game, "Brute", nature="human", str=4, dex=3, sta=4, brawl=0)
    out = game.perform("attack", who="Brute", target="Kojiro", kind="brawl", damage=2)
    assert "4 - 1 soaked = 3." in said(out)
    assert said(out)[-2:] == ["Kojiro takes 3 bashing: past Incapacitated, torpor; 7/7 (lethal 6, bashing 1).",
                              "Kojiro sleeps a year (Humanity 5): no awakening before day 366 (today is day 1)."]
    assert sheet(game, "Kojiro")["condition"] == "torpor"
    out = game.perform("attack", who="Brute", target="Kojiro", kind="melee", damage=0, type="aggravated")
    assert "Kojiro cannot soak aggravated damage." in said(out)
    assert said(out)[-1] == "Kojiro takes 1 aggravated that cannot be soaked, past Incapacitated or in torpor: Final Death."
    assert sheet(game, "Kojiro")["condition"] == "final death"
    out = game.perform("attack", who="Brute", target="Kojiro", kind="brawl")
    assert said(out) == ["Refused: Kojiro is final death."] and rolled(out) == []
    out = game.perform("attack", who="Kojiro", target="Brute", kind="brawl")
    assert said(out) == ["Kojiro cannot act: final death."]
    assert source.remaining == 0


def test_a_mortal_past_incapacitated_dies_once_no_bashing_is_left():
    # A human at 7 bashing: each level past the track upgrades a bashing one to lethal (the track's
    # full: upgrade), and the mortal dies only when no bashing is left.
    game, source = start([6, 2, 2, 2] + [6, 6, 6] + [2, 2] + [6, 2, 2, 2] + [6] * 7 + [2, 2])
    npc(game, "Victim", nature="human", sta=2)
    game.perform("wound", who="Victim", levels=7, type="bashing")
    out = game.perform("attack", who="Ana", target="Victim", kind="brawl", damage=1)   # 2 + 1 = 3 dice: 3 levels
    assert said(out)[-1] == "Victim takes 3 bashing: Incapacitated, on the edge of unconsciousness; 7/7 (lethal 3, bashing 4)."
    assert sheet(game, "Victim")["condition"] == "none"
    out = game.perform("attack", who="Ana", target="Victim", kind="brawl", damage=5)   # 7 dice: 7 levels
    assert said(out)[-1] == "Victim takes 7 bashing: past Incapacitated, dead; 7/7 (lethal 7)."
    assert sheet(game, "Victim")["condition"] == "dead" and source.remaining == 0


def test_dazed_more_levels_in_one_attack_than_stamina_loses_the_next_turn():
    # A human of Stamina 2 takes 3 lethal levels: dazed (more than 2); a vampire needs more than Stamina + 2.
    game, source = start([6, 2, 2] + [6, 6, 6] + [6, 6, 6] + [2, 2, 2])
    npc(game, "Guard", nature="human", sta=2, dex=2, brawl=2)
    out = game.perform("attack", who="Ana", target="Guard", kind="melee", damage=1, type="lethal")
    assert said(out)[-1] == "3 levels in one attack, more than Guard can take: dazed, Guard loses the next turn."
    assert game.perform("test", who="Guard", dice="dexterity + brawl").events       # this turn it still acts (4 - 1)
    game.perform("turn")
    out = game.perform("attack", who="Guard", target="Ana", kind="brawl")
    assert said(out) == ["Guard cannot act: dazed, this turn is lost."] and rolled(out) == []
    game.perform("turn")
    out = game.perform("attack", who="Guard", target="Ana", kind="brawl")
    assert len(rolled(out)[0]) == 2 + 2 - 1          # Injured (3 levels): -1
    assert source.remaining == 0


# ---- defences -------------------------------------------------------------------------------------

def test_a_block_answers_close_combat_only_and_cancels_successes():
    game, source = start([6, 6, 2, 2] + [7, 7, 7, 1])
    npc(game, "Brute", nature="vampire", dex=3, brawl=1)
    out = game.perform("attack", who="Ana", target="Brute", kind="brawl", defend="block")
    # Brute blocks with Dexterity 3 + Brawl 1: 7 7 7 1 = 2; 2 - 2 = 0.
    assert said(out)[-2:] == ["2 - 2 (block) = 0.", "The attack is cancelled."]
    out = game.perform("attack", who="Ana", target="Brute", kind="firearms", defend="block")
    assert said(out) == ["Refused: a block answers close combat only; dodge a ranged attack."] and rolled(out) == []
    assert source.remaining == 0


def test_a_parry_beyond_the_attack_turns_on_the_attacker():
    # Brute attacks Ana in melee with 1 success; Ana parries (Dexterity 3 + Melee 2) with 3: 2 more.
    # Ana's weapon is her pistol (damage 4, lethal) + Strength 2 + 2 = 8 dice against the Brute.
    game, source = start([6, 2, 2, 2] + [6, 6, 6, 2, 2] + [6, 6, 2, 2, 2, 2, 2, 2] + [2, 2, 2, 2])
    npc(game, "Brute", nature="vampire", str=3, dex=3, sta=4, melee=1, weapon=2, wtype="lethal")
    out = game.perform("npc", name="Parrier", nature="vampire", dex=3, melee=2, str=2, weapon=4, wtype="lethal")
    out = game.perform("attack", who="Brute", target="Parrier", kind="melee", defend="parry")
    assert said(out)[2:5] == ["1 - 3 (parry) = 0.", "Parrier's parry turns on Brute: 2 more dice of damage.",
                              "6✓ 6✓ 2 2 2 2 2 2 = 2"]
    assert sheet(game, "Brute")["health"]["marks"] == ["lethal", "lethal"]
    assert said(out)[-1] == "The attack is cancelled."
    assert source.remaining == 0


def test_no_parry_damage_when_the_param_is_off():
    game, source = start([6, 2, 2, 2] + [6, 6, 6, 2, 2], parry_damage=False)
    npc(game, "Brute", nature="vampire", dex=3, melee=1)
    npc(game, "Parrier", nature="vampire", dex=3, melee=2)
    out = game.perform("attack", who="Brute", target="Parrier", kind="melee", defend="parry")
    assert said(out)[-2:] == ["1 - 3 (parry) = 0.", "The attack is cancelled."] and source.remaining == 0


# ---- the attack's modifiers -------------------------------------------------------------------------

def test_aimed_flank_rear_blind_and_multiple_actions():
    # Ana (Dexterity 3, Brawl 1) at the head of a human: difficulty 6 + 3 = 9, damage +2; from the rear
    # +2 dice: 6 dice. One success at 9: damage 0 + Strength 2 + 2 = 4 dice, bashing made lethal by
    # head_heart_lethal.
    game, source = start([9, 2, 2, 2, 2, 2] + [6, 2, 2, 2], head_heart_lethal=True)
    npc(game, "Guard", nature="human", sta=2)
    out = game.perform("attack", who="Ana", target="Guard", kind="brawl", aim="head", side="rear")
    assert said(out)[:2] == ["Aimed at the head: difficulty +3, damage +2.", "From the rear: +2 dice."]
    assert rolled(out)[0] == [9, 2, 2, 2, 2, 2] and "Ana attacks Guard (brawl) at 9" == out.events[[e["kind"] for e in out.events].index("roll")]["label"]["en"]
    assert "A bashing blow to the head: lethal." in said(out)
    assert "Damage: 0 + Strength 2 + 2 (head) = 4 dice." in said(out)
    assert "Guard cannot soak lethal damage." in said(out)
    assert source.remaining == 0
    # Blind: +2 difficulty in close combat, no ranged attack at all.
    game, source = start([2, 2, 2, 2, 2])
    npc(game, "Guard", nature="human", sta=2)
    out = game.perform("attack", who="Ana", target="Guard", kind="brawl", side="flank", blind=True)
    assert "Unseen target: difficulty +2." in said(out) and len(rolled(out)[0]) == 3 + 1 + 1
    assert out.events[[e["kind"] for e in out.events].index("roll")]["label"]["en"] == "Ana attacks Guard (brawl) at 8"
    out = game.perform("attack", who="Ana", target="Guard", kind="firearms", blind=True)
    assert said(out) == ["Refused: no ranged attack at a target one cannot see."]
    # Two actions: the attack loses 2 dice; a defence that is one of two actions loses 2.
    game, source = start([6] * 5 + [6, 2, 2] + [2] * 8)
    npc(game, "Guard", nature="human", sta=2, dex=3, dodge=2)
    out = game.perform("attack", who="Ana", target="Guard", kind="firearms", actions=2, nth=1, defend="dodge", defence_actions=2)
    assert len(rolled(out)[0]) == 3 + 4 - 2 and len(rolled(out)[1]) == 3 + 2 - 2
    assert said(out)[-1] == "No damage." and source.remaining == 0


def test_in_torpor_any_damage_that_cannot_be_soaked_is_final_death():
    # Kojiro in torpor (past Incapacitated), healed of two levels with blood: the track has room, yet
    # one aggravated level (no power to soak it) ends him; a lethal one he soaks is only marked.
    game, source = start([6, 6, 6] + [6, 6, 6, 6, 2, 2] + [2, 2, 2] + [6, 6, 6] + [6, 2, 2, 2] + [2, 2, 2]
                         + [6, 6, 6] + [6, 2, 2, 2])
    game.perform("wound", who="Kojiro", levels=6, type="lethal")
    npc(game, "Brute", nature="human", str=4, dex=3, sta=4)
    game.perform("attack", who="Brute", target="Kojiro", kind="brawl", damage=2)
    assert sheet(game, "Kojiro")["condition"] == "torpor"
    assert said(game.perform("heal", who="Kojiro", levels=2))[-1].startswith("Kojiro spends 2 blood and heals 2 levels")
    out = game.perform("attack", who="Brute", target="Kojiro", kind="melee", damage=0, type="lethal")
    assert said(out)[-1] == "Kojiro takes 1 lethal: Crippled (-5); 6/7 (lethal 6)." and sheet(game, "Kojiro")["condition"] == "torpor"
    out = game.perform("attack", who="Brute", target="Kojiro", kind="melee", damage=0, type="aggravated")
    assert said(out)[-1] == "Kojiro takes 1 aggravated that cannot be soaked, past Incapacitated or in torpor: Final Death."
    assert source.remaining == 0


# ---- staking, emergency dodge, surprise, knockdown, movement ---------------------------------------

def test_a_stake_at_the_heart_paralyses_with_three_levels():
    # Ana (Dexterity 3, Melee 0) at difficulty 9: 9 9 2, two successes; damage: `damage 2` + Strength 2
    # = 4 dice, all hits, of her weapon's type (lethal); the Brute (vampire, Stamina 2) soaks none: 4.
    game, source = start([9, 9, 2] + [6, 6, 6, 6] + [2, 2] + [9, 2, 2] + [6, 6, 2, 2] + [2, 2])
    npc(game, "Brute", nature="vampire", sta=2, dex=2, brawl=2)
    npc(game, "Other", nature="vampire", sta=2)
    out = game.perform("attack", who="Ana", target="Brute", kind="melee", stake=True, damage=2)
    assert said(out)[0] == "A stake at the heart: difficulty 9."
    assert [e["label"]["en"] for e in out.events if e["kind"] == "roll"][0] == "Ana attacks Brute (melee) at 9"
    assert said(out)[-1] == "The stake pierces Brute's heart: paralysed until it is drawn out."
    out = game.perform("attack", who="Brute", target="Ana", kind="brawl")
    assert said(out) == ["Brute cannot act: a stake through the heart."]
    game.perform("unstake", who="Brute")
    assert sheet(game, "Brute")["staked"] is False
    # Two levels only: the stake misses the heart.
    out = game.perform("attack", who="Ana", target="Other", kind="melee", stake=True, damage=2)
    assert said(out)[-1] == "Fewer than 3 levels: the stake misses the heart." and not sheet(game, "Other")["staked"]
    assert source.remaining == 0


def test_an_emergency_dodge_takes_a_willpower_roll_or_a_point():
    # Ana shoots (7 dice, one success); the Guard (Willpower 3) rolls 2 2 2 at 6: no switch, no dodge.
    game, source = start([6, 2, 2, 2, 2, 2, 2] + [2, 2, 2] + [2, 2, 2, 2, 2])
    npc(game, "Guard", nature="human", dex=3, dodge=2)
    out = game.perform("attack", who="Ana", target="Guard", kind="firearms", defend="dodge", emergency="roll")
    assert said(out)[1:4] == ["Guard drops an action to defend: a Willpower roll.", "2 2 2 = 0 successes: Failure",
                              "Guard cannot switch to a defence."]
    assert "Damage: 4 + 1 success = 5 dice." in said(out) and source.remaining == 0
    # A point of Willpower: the dodge is made (3 + 2 = 5 dice), and the pool goes down.
    game, source = start([6, 2, 2, 2, 2, 2, 2] + [6, 2, 2, 2, 2])
    npc(game, "Guard", nature="human", dex=3, dodge=2)
    out = game.perform("attack", who="Ana", target="Guard", kind="firearms", defend="dodge", emergency="point")
    assert said(out)[1:4] == ["Guard spends a point of Willpower to drop an action and defend.",
                              "6✓ 2 2 2 2 = 1 success: Marginal", "1 - 1 (dodge) = 0."]
    assert sheet(game, "Guard")["willpower_pool"] == 2 and source.remaining == 0


@pytest.mark.parametrize("rule, bonus", [("more", 2), ("net", 1)])
def test_surprise_won_gives_a_free_attack_with_the_successes(rule, bonus):
    # Ana, Dexterity 3 + Stealth 0: 6 6 2 (2); the Guard, Perception 2 + Alertness 0: 6 2 (1).
    game, source = start([6, 6, 2] + [6, 2] + [6, 2, 2, 2, 2, 2, 2] + [2] * (4 + 1 + bonus), resisted_rule=rule)
    npc(game, "Guard", nature="human", dex=3, dodge=2, per=2)
    out = game.perform("surprise", who="Ana", target="Guard")
    assert said(out)[-1] == f"Ana takes Guard by surprise (2 to 1): a free attack, {bonus} {'success' if bonus == 1 else 'successes'} added to it."
    out = game.perform("attack", who="Ana", target="Guard", kind="firearms", defend="dodge")
    assert said(out)[1:3] == [f"The ambush adds {bonus}: 1 + {bonus} = {1 + bonus}.", "Guard is taken by surprise: no defence."]
    assert f"Damage: 4 + {1 + bonus} successes = {5 + bonus} dice." in said(out) and source.remaining == 0
    assert sheet(game, "Ana")["ambush_on"] == ""        # once only


def test_surprise_tied_or_lost():
    game, source = start([6, 2, 2] + [6, 2] + [2, 2, 2] + [6, 6])
    npc(game, "Guard", nature="human", per=2)
    assert said(game.perform("surprise", who="Ana", target="Guard"))[-1] == \
        "A tie (1 to 1): Ana strikes first, and Guard may defend."
    assert said(game.perform("surprise", who="Ana", target="Guard"))[-1] == "Guard sees it coming (2 to 0): an ordinary fight."
    assert source.remaining == 0


def test_knocked_down_rise_fail_or_botch():
    # Ana, Dexterity 3 + Athletics 2 = 5 dice at 6.
    game, source = start([6, 2, 2, 2, 2] + [2, 2, 2, 2, 2] + [1, 2, 2, 2, 2] + [5, 5] + [5, 5])
    assert said(game.perform("knockdown", who="Ana"))[-1] == "Ana is up at once; initiative -2 next turn."
    game.perform("turn")
    out = game.perform("knockdown", who="Ana")
    assert said(out)[-1] == "Ana stays down: rising takes an action."
    out = game.perform("knockdown", who="Ana")
    assert said(out)[-2:] == ["Ana lands badly: hurt where they fell.", "Ana takes 1 bashing: Bruised (0); 1/7 (bashing 1)."]
    # The -2 was for turn 2: this is turn 2, so initiative counts it (Ana 3 + 3 + 5 - 2 = 9; Kojiro 3 + 4 + 5).
    out = game.perform("initiative")
    assert said(out)[:2] == ["Ana: -2 this turn (risen from a fall).", "Ana: 3 + 3 + 5 (wounds 0, armour -0) = 9"]
    # It held until the next turn ended (set ... until: loop.turn + 2): turn 3 counts it no more.
    game.perform("turn")
    assert said(game.perform("initiative"))[0] == "Ana: 3 + 3 + 5 (wounds 0, armour -0) = 11"
    assert source.remaining == 0


def test_movement_by_health_level():
    game, _ = start([])
    lines = [said(game.perform("move", who="Ana"))[0]]
    for level in range(7):
        game.perform("wound", who="Ana", levels=1)
        lines.append(said(game.perform("move", who="Ana"))[0])
    assert lines == [
        "Ana moves 7.5 metres a turn at most.",                      # 6 + 3 / 2
        "Ana moves 7.5 metres a turn at most.",                      # Bruised
        "Ana moves 7.5 metres a turn at most.",                      # Hurt
        "Ana moves 3.5 metres a turn at most (Injured: half speed).",   # 7.5 / 2, to the half metre below
        "Ana walks 7.5 metres a turn at most, and cannot run (Wounded).",
        "Ana moves slowly, 3 yards a turn (Mauled).",
        "Ana crawls 1 yard a turn (Crippled).",
        "Ana cannot move.",
    ]


def test_real_dice_say_whose_roll_and_what_for():
    # A roll's label that reads nothing the roll gives is rendered before its dice: real dice are
    # asked for under it (the attacker, the target and the kind; the defender and the defence).
    from ruleset_engine.ruleset import load as load_ruleset
    from ruleset_engine.runtime import Game

    game = Game.start(load_ruleset("vampire-the-masquerade"), seed=1, manual_dice=True)
    out = game.perform("attack", who="Ana", target="Kojiro", kind="firearms", defend="dodge")
    assert out.decision.prompt == "Ana attacks Kojiro (firearms) at 6: 7d10"
    out = game.answer(out.decision, [6, 7, 8, 2, 3, 9, 10])
    assert out.decision.prompt == "Kojiro defends (dodge) at 6: 6d10"
    assert out.decision.texts["zh"] == "Kojiro 防御（闪避），难易度 6: 6d10"


def labels(outcome):
    return [e["label"]["en"] for e in outcome.events if e["kind"] == "roll"]


def test_a_defender_who_cannot_act_is_refused_in_the_groups_words_and_the_blow_lands():
    # The Guard (human, Stamina 2) dazed by 3 lethal levels; next turn Ana attacks again and he would
    # dodge: the group's one refusal is said inside her attack (no defence roll), the blow lands.
    # Ana's blade: 6 2 2 (1 success), damage 1 + Strength 2 = 3 dice: 6 6 6 (3), no soak for lethal.
    # Next turn: 6 2 2 again (1 success), no dodge, 3 dice: 6 2 2 (1 level).
    game, source = start([6, 2, 2] + [6, 6, 6] + [6, 2, 2] + [6, 2, 2])
    npc(game, "Guard", nature="human", sta=2, dex=2, dodge=3)
    game.perform("attack", who="Ana", target="Guard", kind="melee", damage=1, type="lethal")
    game.perform("turn")
    out = game.perform("attack", who="Ana", target="Guard", kind="melee", damage=1, type="lethal", defend="dodge")
    assert said(out)[1] == "Guard cannot act: dazed, this turn is lost."
    assert labels(out) == ["Ana attacks Guard (melee) at 6", "Damage to Guard at 6"]
    assert said(out)[-1] == "Guard takes 1 lethal: Wounded (-2); 4/7 (lethal 4)."
    assert source.remaining == 0


def test_every_roll_says_what_it_is_for():
    # A test names the traits rolled (or the number of dice), the damage and the soak whose they are.
    game, source = start([6, 6, 6, 6, 6, 6, 6] + [6, 6, 6, 6] + [2, 2, 2, 2] + [6] * 7 + [6, 6] + [2, 2])
    assert labels(game.perform("test", who="Ana", dice="dexterity + firearms")) == ["Ana rolls dexterity + firearms at 6"]
    assert labels(game.perform("test", who="Ana", dice=4)) == ["Ana rolls 4 dice at 6"]
    out = game.perform("attack", who="Ana", target="Kojiro", kind="brawl", damage=0, diff=6)
    # Dexterity 3 + Brawl 1: 2 2 2 2 at 6, a miss. Then Kojiro's bare hands, Dexterity 3 + Brawl 4: seven
    # 6s; damage 0 + Strength 2 = 2 dice, 6 6; Ana soaks bashing with Stamina 2: 2 2.
    assert labels(out) == ["Ana attacks Kojiro (brawl) at 6"]
    out = game.perform("attack", who="Kojiro", target="Ana", kind="brawl")
    assert labels(out) == ["Kojiro attacks Ana (brawl) at 6", "Damage to Ana at 6", "Ana soaks at 6"]
    assert said(out)[-2:] == ["2 - 0 soaked = 2.", "Ana takes 2 bashing: Hurt (-1); 2/7 (bashing 2)."]
    assert source.remaining == 0
