"""Vampire: the Masquerade, part 2: the night's other rules with scripted dice, every expected value
worked out by hand from the summary (docs/rulings.md says how each is read): frenzy, the nights'
blood and starving, torpor and the awakening roll, blood bonds, diablerie, the Embrace table and
seduction.
"""

from pathlib import Path

import pytest
import yaml

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game

RULESET = load("vampire-the-masquerade")


def start(faces, **params):
    source = ScriptedDice(faces)
    return Game.start(RULESET, params=params, rng=source), source


def said(outcome, lang="en"):
    return [e["text"][lang] if isinstance(e["text"], dict) else e["text"] for e in outcome.events if e["kind"] == "say"]


def rolled(outcome):
    return [[d["face"] for d in e["dice"]] for e in outcome.events if e["kind"] == "roll"]


def sheet(game, name):
    return next(c for c in game.values["character"] if c["name"] == name)


# ---- frenzy ---------------------------------------------------------------------------------------

def test_frenzy_successes_gather_to_five():
    # Ana, Self-Control 3, at 5: 5 6 2 (2), then 5 5 5 (3): 5 gathered, the Beast mastered.
    game, source = start([5, 6, 2] + [5, 5, 5])
    assert said(game.perform("frenzy", who="Ana", diff=5))[-1] == "2 of 5: Ana holds it off this turn."
    assert said(game.perform("frenzy", who="Ana"))[-1] == "5 of 5: Ana masters the Beast."
    assert (sheet(game, "Ana")["frenzy_total"], sheet(game, "Ana")["frenzied"]) == (0, False)
    assert source.remaining == 0


def test_frenzy_failed_ignores_wound_penalties_until_calm():
    game, source = start([2, 2, 2] + [7] * 6 + [7] * 5)
    game.perform("wound", who="Ana", levels=3, type="lethal")           # Injured: -1
    out = game.perform("frenzy", who="Ana", diff=4)
    assert said(out)[-1] == "Ana falls into frenzy: wound penalties are ignored until it ends."
    assert len(rolled(game.perform("test", who="Ana", dice=6, wounds="always"))[0]) == 6
    assert said(game.perform("frenzy", who="Ana", diff=4)) == ["Ana is in frenzy already (calm NAME ends it)."]
    game.perform("calm", who="Ana")
    assert len(rolled(game.perform("test", who="Ana", dice=6, wounds="always"))[0]) == 5
    assert source.remaining == 0


def test_frenzy_botched_humanity_willpower_and_who_frenzies():
    game, source = start([1, 2, 2] + [2, 2, 2])
    out = game.perform("frenzy", who="Ana", diff=6)
    assert said(out)[-1] == "Ana falls into frenzy, and takes a derangement fitting the scene (the Storyteller's)."
    game.perform("calm", who="Ana")
    # A Humanity event: 9 - Humanity 7 = difficulty 2.
    out = game.perform("frenzy", who="Ana", humanity=True)
    assert [e["label"]["en"] for e in out.events if e["kind"] == "roll"] == ["Ana resists frenzy (self_control) at 2"]
    out = game.perform("frenzy", who="Ana", wp=True)
    assert said(out) == ["Ana holds the Beast off this turn with Willpower."] and sheet(game, "Ana")["willpower_pool"] == 4
    game.perform("npc", name="Guard", nature="human")
    assert said(game.perform("frenzy", who="Guard", diff=5)) == ["Refused: only a vampire frenzies."]
    assert source.remaining == 0


def test_each_night_costs_blood_and_an_empty_pool_withers_to_torpor():
    # Ana starts with 10 blood: ten nights later it is gone; each night after, a lethal level, and
    # past the seventh, torpor from lack of blood, which only blood ends.
    game, source = start([2, 2])
    for _ in range(10):
        game.perform("night")
    assert (sheet(game, "Ana")["blood"], sheet(game, "Kojiro")["blood"]) == (0, 5)
    game.perform("feed", who="Ana", points=2)
    # The Self-Control roll never has more dice than the blood pool: 2 of 3.
    out = game.perform("frenzy", who="Ana", diff=5)
    assert said(out)[0] == "Self-Control 3, but only 2 blood: 2 dice." and rolled(out) == [[2, 2]]
    game.perform("calm", who="Ana")
    game.perform("night")
    game.perform("night")
    assert sheet(game, "Ana")["blood"] == 0 and sheet(game, "Ana")["health"]["marked"] == 0
    lines = [said(game.perform("night"))[0] for _ in range(8)]
    assert lines[0] == "Ana has no blood: the body withers, 1/7 (lethal 1)."
    assert lines[6] == "Ana has no blood: the body withers, 7/7 (lethal 7)."
    assert lines[7] == "Ana has no blood left to wither: torpor, until blood is drunk."
    ana = sheet(game, "Ana")
    assert (ana["condition"], ana["torpor_cause"]) == ("torpor", "blood")
    assert said(game.perform("awaken", who="Ana")) == ["Ana starved into torpor: only blood wakes them (feed NAME N)."]
    assert said(game.perform("feed", who="Ana", points=3))[-1] == "The blood wakes Ana from torpor."
    assert sheet(game, "Ana")["condition"] == "none" and source.remaining == 0


def test_no_nightly_blood_when_the_param_is_off():
    game, _ = start([], nightly_blood=False)
    for _ in range(3):
        game.perform("night")
    assert sheet(game, "Ana")["blood"] == 10


# ---- torpor ---------------------------------------------------------------------------------------

def test_the_awakening_roll_from_wounds():
    # Kojiro (Humanity 5, 15 blood) past Incapacitated: torpor, a year by the text's table (day 1 + 365).
    # Before then no awakening; a year passes; a point of blood and Humanity at 8: 2 2 2 2 2 fails,
    # again next night (a second try tonight is refused); then 8 2 2 2 2: he wakes Crippled (the track
    # cleared to 6).
    game, source = start([2] * 5 + [8, 2, 2, 2, 2])
    out = game.perform("wound", who="Kojiro", levels=7, type="lethal")
    game.perform("wound", who="Kojiro", levels=1, type="lethal")
    assert sheet(game, "Kojiro")["condition"] == "torpor"
    assert said(game.perform("awaken", who="Kojiro")) == [
        "Refused: Kojiro's torpor (a year) lasts until day 366; today is day 1."]
    assert said(game.perform("pass", amount=364, unit="nights")) == ["364 nights pass (364 days): it is day 365 of the chronicle."]
    assert said(game.perform("awaken", who="Kojiro"))[0].startswith("Refused: Kojiro's torpor")
    game.perform("night")                                                  # day 366
    out = game.perform("awaken", who="Kojiro")
    assert said(out)[0] == "Kojiro spends a point of blood to wake (torpor of a year at Humanity 5)."
    assert said(out)[-1] == "Kojiro sleeps on: again next night." and sheet(game, "Kojiro")["blood"] == 14
    assert said(game.perform("awaken", who="Kojiro")) == ["Refused: Kojiro tried tonight; again next night."]
    game.perform("night")
    out = game.perform("awaken", who="Kojiro")
    assert said(out)[-1] == "Kojiro wakes: 6/7 (lethal 6), Crippled."
    assert sheet(game, "Kojiro")["blood"] == 13 and source.remaining == 0    # in torpor, no nightly blood


def test_torpor_by_choice_is_half_as_long_and_no_blood_no_roll():
    game, source = start([8, 8, 2, 2, 2, 2, 2])
    assert said(game.perform("sleep", who="Ana")) == [
        "Ana sinks into torpor by choice: half of two weeks (Humanity 7), until day 8 (today is day 1)."]
    assert said(game.perform("awaken", who="Ana")) == ["Refused: Ana's torpor (two weeks, halved) lasts until day 8; today is day 1."]
    game.perform("pass", amount=1, unit="weeks")
    out = game.perform("awaken", who="Ana")
    assert said(out)[0] == "Ana spends a point of blood to wake (torpor of two weeks at Humanity 7, halved: chosen)."
    assert said(out)[-1] == "Ana wakes, unhurt."
    game, _ = start([])
    for _ in range(10):
        game.perform("night")
    game.perform("sleep", who="Ana")
    game.perform("pass", amount=1, unit="months")
    assert said(game.perform("awaken", who="Ana")) == ["Refused: Ana has no blood for the awakening roll."]
    assert source.remaining == 0


CHAPTER = yaml.safe_load((Path(__file__).resolve().parents[2] / "rulesets" / "vampire-the-masquerade" / "night.yaml")
                         .read_text("utf-8"))


def test_the_torpor_table_is_the_summarys():
    rows = CHAPTER["tables"]["torpor"]["rows"]
    assert [row["humanity"] for row in rows] == list(range(10, -1, -1))
    assert [row["length"]["en"] for row in rows] == ["a day", "three days", "a week", "two weeks", "a month", "a year", "ten years",
                       "fifty years", "a century", "five centuries", "a millennium or more"]


# ---- blood bonds ----------------------------------------------------------------------------------

def test_a_bond_grows_on_three_different_nights():
    game, source = start([2, 2, 2, 2, 2] + [6, 2, 2, 2, 2] + [2, 2, 2, 2])
    game.perform("npc", name="Marcus", nature="vampire")
    out = game.perform("bond", who="Ana", regnant="Marcus")
    assert said(out) == ["First drink: Ana feels for Marcus in fits and starts, and dreams of them (roleplayed)."]
    assert said(game.perform("bond", who="Ana", regnant="Marcus")) == [
        "Ana drank Marcus's blood tonight already: a bond grows only on different nights."]
    game.perform("night")
    game.perform("bond", who="Ana", regnant="Marcus")
    assert sheet(game, "Ana")["bonds"] == "Marcus 2"
    # Stage 2: harming Marcus takes a Willpower roll (Willpower 5 at 6): 2 2 2 2 2 fails, no attack.
    out = game.perform("attack", who="Ana", target="Marcus", kind="brawl")
    assert said(out)[-1] == "Ana cannot bring themselves to strike." and len(rolled(out)) == 1
    # 6 2 2 2 2 passes: the attack is rolled (Dexterity 3 + Brawl 1, all failing).
    game.perform("turn")
    out = game.perform("attack", who="Ana", target="Marcus", kind="brawl")
    assert said(out)[-1] == "Ana misses Marcus."
    game.perform("night")
    assert said(game.perform("bond", who="Ana", regnant="Marcus"))[0] == \
        "Third drink: Ana is bound to Marcus, above lovers, kin and friends."
    assert (sheet(game, "Ana")["bound_to"], sheet(game, "Ana")["bonds"]) == ("Marcus", "Marcus 3")
    assert said(game.perform("bond", who="Ana", regnant="Kojiro")) == ["Ana is bound to Marcus: no other bond takes."]
    # The Storyteller wears it down to 1; then Marcus meets Final Death, and the bond breaks.
    assert said(game.perform("unbond", who="Ana", regnant="Marcus", stage=1)) == ["Ana's bond to Marcus: stage 1."]
    assert sheet(game, "Ana")["bound_to"] == ""
    out = game.perform("wound", who="Marcus", levels=7, type="aggravated")
    out = game.perform("wound", who="Marcus", levels=1, type="aggravated")
    assert said(out) == ["Marcus takes 1 aggravated that cannot be soaked, past Incapacitated or in torpor: Final Death.",
                         "Ana's bond to Marcus is broken."]
    assert sheet(game, "Ana")["bonds"] == "" and source.remaining == 0


# ---- diablerie ------------------------------------------------------------------------------------

def test_diablerie_on_an_elder():
    # Ana (generation 13, Strength 2) on Kojiro (generation 8): Strength at 9, 10 10 three times (six
    # aggravated levels), then 10 10 again: one fills the track, the next is past it: Final Death.
    # Self-Control at 10 - Humanity 7 = 3: 2 2 2 fails, frenzy. Generation 12; Humanity 6; the gap
    # of 5 generations: an aura of 5 years, suspicion for 5 months.
    game, source = start([10, 10] * 4 + [2, 2, 2])
    out = game.perform("diablerie", who="Ana", victim="Kojiro")
    lines = said(out)
    assert lines[0] == "Ana drains Kojiro's blood (0 into their own pool): now the soul."
    assert "Kojiro takes 2 aggravated that cannot be soaked, past Incapacitated or in torpor: Final Death." in lines
    assert "Ana falls into frenzy." in lines
    assert lines[-3].startswith("Kojiro was of a lower generation: Ana is now of the 12th")
    # The victim's Disciplines, the diablerist's to use for a while, on her sheet.
    assert lines[-1] == ("For a while Ana may use Kojiro's Disciplines (auspex 3, dementation 4, obfuscate 3: on the "
                         "sheet as learnable), or raise one of their own 1 to 3 dots (the Storyteller's).")
    assert sheet(game, "Ana")["learnable"] == "auspex 3, dementation 4, obfuscate 3"
    ana = sheet(game, "Ana")
    assert (ana["generation"], ana["blood_max"], ana["humanity"], ana["frenzied"]) == (12, 11, 6, True)
    assert ana["diablerie"]["en"] == "diablerie on Kojiro, night 1: aura 5 years, suspicion 5 months"
    assert sheet(game, "Kojiro")["blood"] == 0 and sheet(game, "Kojiro")["condition"] == "final death"
    assert source.remaining == 0


def test_the_embrace_table():
    rows = {row["being"]: row["result"]["en"] for row in CHAPTER["tables"]["embrace"]["rows"]}
    assert list(rows) == ["werewolf", "wraith", "changeling", "mummy", "risen", "mage", "ghoul", "animal", "object"]
    assert (rows["mage"], rows["ghoul"], rows["animal"]) == ("a vampire", "a vampire", "a dead animal")


# ---- seduction ------------------------------------------------------------------------------------

def test_seduction_three_steps_each_won_adding_a_die():
    # Ana: Appearance 3 + Subterfuge 0 = 3 dice against Kojiro's Wits 4 + 3 = 7; then Wits 3 + 0 + 1 = 4
    # against Intelligence 5 + 3 = 8; then Charisma 3 + Empathy 0 + 1 = 4 against Perception 4 + 3 = 7.
    game, source = start([6, 6, 6] + [2] * 7 + [6, 6, 2, 2] + [6] + [2] * 7 + [6, 6, 6, 2] + [6] + [2] * 6)
    out = game.perform("seduce", who="Ana", target="Kojiro")
    assert [len(r) for r in rolled(out)] == [3, 7, 4, 8, 4, 7]
    assert said(out)[-1] == "3 to 1: Kojiro is taken with Ana and goes somewhere quieter; the rest is roleplayed."
    assert source.remaining == 0


@pytest.mark.parametrize("faces, last", [
    ([1, 2, 2] + [2] * 7, "A botch: Kojiro is put off, even angry."),
    ([6, 2, 2] + [6, 2, 2, 2, 2, 2, 2], "1 to 1: Kojiro is not interested."),
    ([6, 6, 6] + [2] * 7 + [6, 2, 2, 2] + [6, 6] + [2] * 6,
     "1 to 2: Kojiro ends the talk, but may meet again (a good first impression)."),
    ([6, 6, 6] + [2] * 7 + [6, 6, 2, 2] + [2] * 8 + [1, 2, 2, 2] + [2] * 7,
     "A botch: a glass of water in Ana's face. It is over."),
])
def test_seduction_lost_or_botched(faces, last):
    game, source = start(faces)
    assert said(game.perform("seduce", who="Ana", target="Kojiro"))[-1] == last and source.remaining == 0
