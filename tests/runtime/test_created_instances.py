"""Instances made during play (create:): named by an answer or the group's template, their fields
the group's then the step's, bounded by the group's max:, refused with a name the group has,
changing side by a field, and undone, saved and restored with the rest of the game."""

import pytest

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import Game, RuleError
from tests.runtime.helpers import ruleset


def named(names, faces=None):
    """The test game after setup, with its characters named at the table (scripted dice, or seed 1)."""
    r = ruleset("made-at-the-table")
    game = Game.start(r, rng=ScriptedDice(list(faces))) if faces is not None else Game.start(r, seed=1)
    outcome = game.answer(game.last_outcome.decision, len(names))
    for name in names:
        outcome = game.answer(outcome.decision, name)
    assert outcome.decision is None
    return game


def test_setup_makes_the_characters_named_at_the_table_and_pairs_them():
    game = named(["Ana", "Beto", "Carla"])
    people = game.values["character"]
    # index 1, 2, 3 in the order made; nerve 2 + i from the step; side from the group's field.
    assert [(p["index"], p["name"], p["nerve"], p["side"]) for p in people] == [
        (1, "Ana", 3, "living"), (2, "Beto", 4, "living"), (3, "Carla", 5, "living")]
    # bond strength is the sum of the two indices: 1+2, 1+3, 2+3.
    assert game.pair_records("bond") == [("Ana", "Beto", {"strength": 3, "words": ""}),
                                         ("Ana", "Carla", {"strength": 4, "words": ""}),
                                         ("Beto", "Carla", {"strength": 5, "words": ""})]
    assert [e["name"] for e in game.log if e["kind"] == "create"] == ["Ana", "Beto", "Carla"]


def test_an_action_adds_one_that_undo_takes_back_and_a_snapshot_keeps():
    game = named(["Ana", "Beto"])
    outcome = game.perform("join", who="  Dora ")
    assert [e["text"] for e in outcome.events if e["kind"] == "say"] == ["Dora joins with nerve 3."]
    dora = game.values["character"][2]
    assert (dora["index"], dora["name"], dora["side"], dora["nerve"]) == (3, "Dora", "living", 3)
    snap = game.snapshot()
    game.perform("fall", who="dora")          # the table's names are read in any case
    assert game.values["character"][2]["side"] == "dead" and game.values["fallen"] == 1
    game.undo()
    assert game.values["character"][2]["side"] == "living" and game.values["fallen"] == 0
    game.undo()
    assert [p["name"] for p in game.values["character"]] == ["Ana", "Beto"]
    restored = Game.restore(ruleset("made-at-the-table"), snap)
    assert [p["name"] for p in restored.values["character"]] == ["Ana", "Beto", "Dora"]


@pytest.mark.parametrize("name, message", [
    ("ANA", "the group 'character' has an instance named 'Ana' already"),
    ("   ", "the name of a new 'character' is 1 to 80 characters on one line, not ''"),
    ("a\x1b[2Jb", "the name of a new 'character' is 1 to 80 characters on one line"),
    ("x" * 81, "the name of a new 'character' is 1 to 80 characters on one line"),
    # issue 24 (16): names that look alike are one name (NFKC, then case folding) ...
    ("Ａｎａ", "the group 'character' has an instance named 'Ana' already"),
    ("ａＮＡ", "the group 'character' has an instance named 'Ana' already"),
    # ... and a name may not mix scripts (a Greek omicron, a Cyrillic a: TR39's mixed-script test).
    ("Bοb", "the name 'Bοb' of a new 'character': it mixes Latin and Greek letters"),
    ("Аna", "the name 'Аna' of a new 'character': it mixes Cyrillic and Latin letters"),
])
def test_a_bad_name_is_refused_at_the_step_and_nothing_changes(name, message):
    game = named(["Ana", "Beto"])
    before = game.values
    with pytest.raises(RuleError) as err:
        game.perform("join", who=name)
    assert message in str(err.value) and "made-at-the-table.yaml:" in str(err.value)
    assert game.values == before


def test_names_of_one_script_each_are_made():
    game = named(["Ana", "Beto"])
    for name in ("Αθηνά", "山田たろう", "Jean-Luc 2", "Ñandú"):
        game.perform("join", who=name)
    assert [p["name"] for p in game.values["character"]][2:] == ["Αθηνά", "山田たろう", "Jean-Luc 2", "Ñandú"]
    game.perform("fall", who="ΑΘΗΝΆ")          # chosen by any case of it
    assert game.values["character"][2]["side"] == "dead"


def test_the_group_max_bounds_what_is_made():
    game = named(["A", "B", "C", "D", "E", "F", "G"])
    game.perform("join", who="H")             # the 8th: the group's max
    with pytest.raises(RuleError, match="the group 'character' holds 8 instances, as many as it may"):
        game.perform("join", who="I")
    assert len(game.values["character"]) == 8


def test_a_fallen_character_changes_side_and_acts_for_the_other():
    # Night 1 rolls 4: nerve 3 (Ana) is under it, 4 (Beto) is not. Night 2 rolls 5: Beto falls.
    game = named(["Ana", "Beto"], faces=[4, 5])
    game.perform("night")
    assert [p["side"] for p in game.values["character"]] == ["dead", "living"]
    assert game.values["night_score"] == 1
    game.perform("night")
    assert [p["side"] for p in game.values["character"]] == ["dead", "dead"]
    assert game.values["night_score"] == 1 + 2 and game.values["fallen"] == 2


MADE = """\
ruleset: made
title: Made
entities:
  one: {fields: {x: 0}}
  many: {count: 0, max: 3, fields: {x: 0}}
actions:
  go:
    steps:
      - create: many
        fields: {x: 1}
"""


@pytest.mark.parametrize("change, message", [
    ("- create: many", "'one' is one entity; create: makes instances of a group"),
    ("fields: {x: 1}", "'many' has no field 'y' (fields: x)"),
    ("one: {fields", "max: bounds a group: give it count:"),
])
def test_misuse_is_refused_at_load_with_its_place(written, change, message):
    bad = {"- create: many": "- create: one", "fields: {x: 1}": "fields: {y: 1}",
           "one: {fields": "one: {max: 2, fields"}[change]
    with pytest.raises(RulesetError) as err:
        written(MADE.replace(change, bad, 1))
    found = [p for p in err.value.problems if message in p.message]
    assert found and found[0].position is not None and found[0].position.line > 1, \
        [p.message for p in err.value.problems]


def test_without_a_name_the_template_names_it(written):
    game = Game.start(written(MADE), seed=1)
    game.perform("go")
    game.perform("go")
    assert [(m["index"], m["name"], m["x"]) for m in game.values["many"]] == [(1, "many 1", 1), (2, "many 2", 1)]
