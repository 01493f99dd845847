"""Records between two instances of a group (pairs:): read as NAME(a, b).FIELD, written by the
pair: step, one record for either order or two (ordered: true), defaults until written, in both
modes alike; misuse refused at load with its place, bad instances refused where they are read."""

import pytest

from ruleset_engine.dice import compile as dice_compile, DiceError
from ruleset_engine.dice.ast import Member
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import Game, RuleError
from ruleset_engine.dice import ScriptedDice
from tests.runtime.helpers import ruleset

TIES = """\
ruleset: ties
title: Ties
entities:
  who: {count: 3, names: "W{index}", fields: {}}
pairs:
  link:
    between: who
    fields: {n: 0, note: {text: "-"}, close: false}
  owe:
    between: who
    ordered: true
    fields: {n: 0}
actions:
  tie:
    params:
      a: {type: entity, of: who}
      b: {type: entity, of: who}
      n: {type: integer, min: 0, max: 9, default: 1}
    steps:
      - pair: link
        of: [a, b]
        fields: {n: "link(a, b).n + n", close: "link(a, b).n + n >= 5"}
      - pair: owe
        of: [a, b]
        fields: {n: "owe(a, b).n + n"}
      - say: "{a.name} and {b.name}: link {link(b, a).n}, owed {owe(a, b).n}, back {owe(b, a).n}"
  peek:
    params: {who_name: {type: text}}
    steps:
      - let: {seen: "link(who_name, 'W1').n"}
report:
  link_21: link('W2', 'W1').n
  link_13: link('W1', 'W3').n
  owe_12: owe('W1', 'W2').n
  owe_21: owe('W2', 'W1').n
"""


def test_an_unordered_pair_is_one_record_and_an_ordered_pair_two(written):
    game = Game.start(written(TIES), seed=1)
    game.perform("tie", a="W1", b="W2", n=2)
    game.perform("tie", a="W2", b="W1", n=3)
    # link: 2 then 3 more on the same record; owe: 2 from W1 to W2, 3 from W2 to W1.
    assert game.report() == {"link_21": 5, "link_13": 0, "owe_12": 2, "owe_21": 3}
    assert game.values["link"] == {"1,2": {"n": 5, "note": "-", "close": True}}
    assert game.values["owe"] == {"1,2": {"n": 2}, "2,1": {"n": 3}}
    says = [e["text"] for e in game.log if e["kind"] == "say"]
    assert says == ["W1 and W2: link 2, owed 2, back 0", "W2 and W1: link 5, owed 3, back 2"]
    sets = [e["target"] for e in game.log if e["kind"] == "set"]
    assert sets[:3] == ["link(W1, W2).n", "link(W1, W2).close", "owe(W1, W2).n"]
    assert game.pair_records("owe") == [("W1", "W2", {"n": 2}), ("W2", "W1", {"n": 3})]


def test_records_are_undone_saved_and_restored(written):
    r = written(TIES)
    game = Game.start(r, seed=1)
    game.perform("tie", a="W1", b="W3", n=4)
    snap = game.snapshot()
    game.perform("tie", a="W3", b="W1", n=1)
    assert game.report()["link_13"] == 5
    game.undo()
    assert game.report()["link_13"] == 4 and game.values["owe"] == {"1,3": {"n": 4}}
    restored = Game.restore(r, snap)
    assert restored.report() == game.report() and restored.values["link"] == game.values["link"]


def test_a_pair_of_an_instance_with_itself_fails_at_the_step_and_changes_nothing(written):
    game = Game.start(written(TIES), seed=1)
    game.perform("tie", a="W1", b="W2", n=2)
    before = game.values
    with pytest.raises(RuleError) as err:
        game.perform("tie", a="W3", b="W3")
    assert "link(..) joins two different instances, not 'W3' with itself" in str(err.value)
    assert "t.yaml:" in str(err.value)
    assert game.values == before


def test_a_name_outside_the_group_is_said_in_its_formula_with_a_caret(written):
    game = Game.start(written(TIES), seed=1)
    with pytest.raises(RuleError) as err:
        game.perform("peek", who_name="W9")
    text = str(err.value)
    assert "link(..): no instance is named 'W9'" in text and "(at actions.peek.steps[0].let.seen)" in text
    assert "link(who_name, 'W1').n\n  ^~~~" in text


def test_the_test_ruleset_plays_its_hand_worked_nights():
    # Setup rolls the bonds 1-2, 1-3, 2-3: faces 4, 1, 6. Each night every p holds every q whose
    # bond with p is 3 or more (1-2 and 2-3, both ways): 4 holds a night, stage +1 up to 3.
    game = Game.start(ruleset("pair-records"), rng=ScriptedDice([4, 1, 6]), auto=True)
    while not game.over:
        game.perform("night")
    assert game.report() == {"held": 12, "stage_1_2": 3, "stage_2_1": 3, "strength": 4}
    assert game.values["bond"]["1,3"] == {"kind": "rival", "strength": 1, "words": ""}
    assert game.values["bond"]["1,2"]["words"] == "night 3: ally"
    assert "2,1" not in game.values["bond"]          # unordered: one record, the smaller index first
    assert game.status() == "P1 and P2 are ally, held 12 times"
    # Both modes play this ruleset alike: tests/test_parity.py plays every file of tests/rulesets/.


def test_a_field_of_a_call_parses_and_a_builtin_has_no_fields():
    tree = dice_compile("bond(a, b).kind", functions=frozenset({"bond"})).tree
    assert isinstance(tree, Member) and tree.path == ("kind",) and tree.value.function == "bond"
    with pytest.raises(DiceError, match=r"count\(..\) gives a number, which has no field 'x'"):
        dice_compile("count(3d6, >= 4).x")
    with pytest.raises(DiceError, match="unknown function 'bond'"):
        dice_compile("bond(a, b).kind")          # no ruleset gives it


@pytest.mark.parametrize("change, message", [
    ("fields: {n: \"link(a, b).n + n\"", "the records of 'link' have no field 'nn' (did you mean 'n'?)"),
    ("link(b, a).n}", "link(..) takes two instances of 'who': link(a, b)"),
    ("between: who\n    fields: {n: 0, note", "there is no entity 'whom'"),
    ("- pair: owe", "there is no pair 'ow' (did you mean 'owe'?)"),
    ("fields: {n: 0, note", "a pair's default is the same for every pair"),
    ("  owe:\n", "the pair 'count' has the name of a function of the dice language"),
])
def test_misuse_is_refused_at_load_with_its_place(written, change, message):
    bad = {
        "fields: {n: \"link(a, b).n + n\"": "fields: {n: \"link(a, b).nn + n\"",
        "link(b, a).n}": "link(b).n}",
        "between: who\n    fields: {n: 0, note": "between: whom\n    fields: {n: 0, note",
        "- pair: owe": "- pair: ow",
        "fields: {n: 0, note": "fields: {n: 1d6, note",
        "  owe:\n": "  count:\n",
    }[change]
    text = TIES.replace(change, bad, 1)
    assert text != TIES
    with pytest.raises(RulesetError) as err:
        written(text)
    found = [p for p in err.value.problems if message in p.message]
    assert found, [p.message for p in err.value.problems]
    assert found[0].position is not None and found[0].position.line > 1
