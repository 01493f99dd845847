"""Vampire: the Masquerade, part 2: initiative and blood, with scripted dice, every expected value
worked out by hand (docs/rulings.md says how each rule of the summary is read).

Initiative: Dexterity + Wits + 1d10 with the wound penalty and less the armour's penalty; a tie goes
to the higher Dexterity + Wits, then the characters act at once. Blood: a point heals a level of
bashing or lethal damage, or raises Strength, Dexterity or Stamina a dot for the scene, never more
points a turn than the generation allows; feeding fills the pool to its maximum.
"""

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game

RULESET = load("vampire-the-masquerade")


def start(faces, **params):
    source = ScriptedDice(faces)
    return Game.start(RULESET, params=params, rng=source), source


def said(outcome, lang="en"):
    return [e["text"][lang] if isinstance(e["text"], dict) else e["text"] for e in outcome.events if e["kind"] == "say"]


def sheet(game, name):
    return next(c for c in game.values["character"] if c["name"] == name)


# ---- initiative -----------------------------------------------------------------------------------

def test_initiative_orders_ties_by_dexterity_plus_wits_then_at_once():
    # Ana 3 + 3 + 4 = 10; Kojiro 3 + 4 + 3 = 10, Dexterity + Wits 7 > 6: before Ana; the Brute,
    # Injured (-1), 3 + 3 + 5 - 1 = 10 and 6 like Ana: they act at once. The Guard's armour costs 2:
    # 2 + 2 + 9 - 2 = 11, first.
    game, source = start([4, 3, 5, 9])
    game.perform("npc", name="Brute", nature="vampire", dex=3, wit=3)
    game.perform("npc", name="Guard", nature="human", dex=2, wit=2, armour=2, penalty=2)
    game.perform("wound", who="Brute", levels=3, type="bashing")
    out = game.perform("initiative")
    assert said(out) == [
        "Ana: 3 + 3 + 4 (wounds 0, armour -0) = 10",
        "Kojiro: 3 + 4 + 3 (wounds 0, armour -0) = 10",
        "Brute: 3 + 3 + 5 (wounds -1, armour -0) = 10",
        "Guard: 2 + 2 + 9 (wounds 0, armour -2) = 11",
        "Initiative: 1. Guard (11), 2. Kojiro (10), 3. Ana (10) = Brute (10)",
        "Guard acts (initiative 11).",
    ]
    assert said(out, "zh")[-2:] == ["优先权：1. Guard (11), 2. Kojiro (10), 3. Ana (10) = Brute (10)", "轮到 Guard 行动（优先权 11）。"]
    assert game.status().endswith("| acting: Guard")
    assert said(game.perform("done")) == ["Kojiro acts (initiative 10)."]
    assert said(game.perform("done")) == ["Ana acts (initiative 10).", "Brute acts (initiative 10)."]
    assert game.status().endswith("| acting: Ana and Brute")     # the names as a sentence (list_of)
    assert said(game.perform("done")) == ["Everyone has acted: next turn."]
    assert "acting" not in game.status() and source.remaining == 0


def test_delay_leave_and_who_cannot_act():
    # Kojiro in torpor and the Guard out of the scene roll nothing; Ana 3 + 3 + 9 = 15, Brute 3 + 3 + 2 = 8.
    game, source = start([9, 2])
    game.perform("npc", name="Brute", nature="vampire", dex=3, wit=3)
    game.perform("npc", name="Guard", nature="human")
    game.perform("leave", who="Guard")
    game.perform("wound", who="Kojiro", levels=7, type="lethal")
    out = game.perform("initiative")
    assert said(out)[-2:] == ["Initiative: 1. Ana (15), 2. Brute (8)", "Ana acts (initiative 15)."]
    out = game.perform("delay", who="Ana")
    assert said(out) == ["Ana delays: acts last this turn.", "Brute acts (initiative 8)."]
    assert said(game.perform("done")) == ["Ana acts (initiative 15)."]
    game.perform("turn")
    assert "acting" not in game.status()
    assert said(game.perform("done")) == ["No initiative order this turn: roll initiative first."]
    assert source.remaining == 0


# ---- blood ----------------------------------------------------------------------------------------

def test_blood_heals_bashing_first_then_lethal_within_the_blood_per_turn():
    game, _ = start([])
    game.perform("wound", who="Kojiro", levels=2, type="lethal")
    game.perform("wound", who="Kojiro", levels=2, type="bashing")
    # Kojiro, generation 8: 3 blood a turn. Three points: both bashing, then one lethal.
    out = game.perform("heal", who="Kojiro", levels=3)
    assert said(out) == ["Kojiro spends 3 blood and heals 3 levels: 1/7 (lethal 1), blood 12/15."]
    out = game.perform("heal", who="Kojiro", levels=1)
    assert said(out) == ["Refused: Kojiro may spend 3 blood a turn, and has spent 3 this turn."]
    game.perform("turn")
    assert said(game.perform("heal", who="Kojiro", levels=5)) == [
        "Kojiro spends 1 blood and heals 1 level: 0/7, blood 11/15."]
    game.perform("wound", who="Kojiro", levels=1, type="aggravated")
    assert said(game.perform("heal", who="Kojiro")) == [
        "Kojiro has no bashing or lethal damage to heal with blood."]
    game.perform("npc", name="Guard", nature="human")
    game.perform("wound", who="Guard", levels=1)
    assert said(game.perform("heal", who="Guard")) == ["Refused: Guard is human and has no blood to spend."]


def test_blood_raises_a_physical_attribute_for_the_scene():
    game, _ = start([])
    # Ana, generation 13: a blood a turn, traits up to 5.
    out = game.perform("boost", who="Ana", attribute="strength")
    assert said(out) == ["Ana spends 1 blood: strength 2 + 1 = 3 for the scene; blood 9/10."]
    assert said(game.perform("boost", who="Ana", attribute="dexterity")) == [
        "Refused: Ana may spend 1 blood a turn, and has spent 1 this turn."]
    game.perform("turn")
    assert said(game.perform("boost", who="Ana", attribute="strength", points=3)) == [
        "Refused: generation 13 raises a trait to 5 at most (strength is 3)."]
    game.perform("boost", who="Ana", attribute="dexterity")
    assert (sheet(game, "Ana")["strength"], sheet(game, "Ana")["dexterity"], sheet(game, "Ana")["blood"]) == (3, 4, 8)
    game.perform("turn")
    game.perform("boost", who="Ana", attribute="strength")          # a second raise in the scene: 3 + 1
    assert (sheet(game, "Ana")["strength"], sheet(game, "Ana")["blood"]) == (4, 7)
    game.perform("scene")
    ana = sheet(game, "Ana")
    # Every raise ends with the scene (set ... until: scene): both of strength's, back to 2.
    assert (ana["strength"], ana["dexterity"], ana["blood"]) == (2, 3, 7)     # the blood stays spent


def test_feeding_fills_the_pool_to_its_maximum():
    game, _ = start([])
    game.perform("boost", who="Ana", attribute="stamina")
    assert said(game.perform("feed", who="Ana", points=3)) == ["Ana drinks 1 point: blood 10/10."]
    game.perform("npc", name="Guard", nature="human")
    assert said(game.perform("feed", who="Guard", points=3)) == [
        "Refused: Guard is human and keeps no blood pool."]
