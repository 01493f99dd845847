"""Tracks that remember what marked them: each rule worked by hand, in both modes, at the table
(undo, sessions), and the misuses `dusk check` refuses with their places."""

import json

import pytest

from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.ruleset.marks import MarkRule, mark_typed, start_marks
from ruleset_engine.ruleset.steps import new_track
from ruleset_engine.runtime import Game, resolve_params
from tests.runtime.helpers import ruleset

TYPES = ("light", "deep", "grave")


def track(rule, *marks):
    t = new_track(range(1, 6))
    start_marks(t, rule)
    for name in marks:
        mark_typed(t, 1, name, rule, False)
    return t


def test_strongest_first_a_new_mark_goes_before_weaker_ones():
    rule = MarkRule(TYPES, ("/", "X", "*"))
    t = track(rule, "light", "light", "deep")
    assert t["marks"] == ["deep", "light", "light"]
    mark_typed(t, 1, "grave", rule, False)
    assert t["marks"] == ["grave", "deep", "light", "light"]
    assert (t["light"], t["deep"], t["grave"], t["marked"], t["free"], t["last"]) == (2, 1, 1, 4, 1, 4)


def test_in_the_order_marked_a_new_mark_goes_last():
    rule = MarkRule(TYPES, ("/", "X", "*"), order="marked")
    assert track(rule, "light", "grave", "deep")["marks"] == ["light", "grave", "deep"]


def test_a_full_track_by_each_rule():
    # five boxes: grave, deep, light, light, light; one more mark of each type
    start = ("light", "light", "light", "deep", "grave")
    up = MarkRule(TYPES, ("/", "X", "*"), full="upgrade")
    t = track(up, *start)
    mark_typed(t, 1, "light", up, False)          # the last light becomes deep, and moves before the lights
    assert t["marks"] == ["grave", "deep", "deep", "light", "light"]
    mark_typed(t, 9, "light", up, False)          # every mark upgraded as far as it goes, then nothing
    assert t["marks"] == ["grave"] * 5 and t["grave"] == 5 and t["light"] == 0

    swap = MarkRule(TYPES, ("/", "X", "*"), full="replace")
    t = track(swap, *start)
    mark_typed(t, 1, "light", swap, False)        # no mark weaker than light: lost
    assert t["marks"] == ["grave", "deep", "light", "light", "light"]
    mark_typed(t, 2, "deep", swap, False)         # two lights become deep
    assert t["marks"] == ["grave", "deep", "deep", "deep", "light"]
    mark_typed(t, 3, "grave", swap, False)        # light, then deep, then deep become grave
    assert t["marks"] == ["grave"] * 4 + ["deep"]

    lost = MarkRule(TYPES, ("/", "X", "*"))
    t = track(lost, *start)
    mark_typed(t, 3, "grave", lost, False)
    assert t["marks"] == ["grave", "deep", "light", "light", "light"]


def test_clear_takes_the_last_marks_of_a_type_or_the_last_marks():
    rule = MarkRule(TYPES, ("/", "X", "*"))
    t = track(rule, "light", "deep", "light", "grave")       # grave deep light light
    mark_typed(t, 1, "deep", rule, True)
    assert t["marks"] == ["grave", "light", "light"] and t["deep"] == 0
    mark_typed(t, 5, "grave", rule, True)                    # only one grave to clear
    assert t["marks"] == ["light", "light"]
    mark_typed(t, 1, None, rule, True)
    assert t["marks"] == ["light"] and t["marked"] == 1 and t["next"] == 2


def test_a_huge_count_is_bounded_by_the_track():
    rule = MarkRule(TYPES, ("/", "X", "*"), full="upgrade")
    t = track(rule)
    mark_typed(t, 10 ** 15, "light", rule, False)
    assert t["marks"] == ["grave"] * 5


def test_the_test_ruleset_by_hand_and_in_both_modes():
    # blows 2, 5, 5, 2, 3 (two bruises), 5, 4: worked in the comments of each track
    faces = [2, 5, 5, 2, 3, 5, 4]
    game = Game.start(ruleset("marked-track"), rng=ScriptedDice(list(faces)))
    for _ in faces:
        game.perform("round")
    guard = game.values["guard"]
    assert guard["up"]["marks"] == ["cut"] * 5                           # every bruise upgraded
    assert guard["swap"]["marks"] == ["cut", "cut", "cut", "bruise", "bruise"]   # bruises lost, a cut replaced one
    assert guard["kept"]["marks"] == ["bruise", "cut", "cut", "bruise", "bruise"]  # in order; the rest lost
    assert game.result == "down"
    assert game.report() == {"blows": 7, "bruises": 0, "cuts": 5, "burns": 0, "swapped_cuts": 3, "kept_bruises": 3}
    assert game.status() == "Guard 5/5 (cut 5) penalty -2"
    marks = [e for e in game.log if e["kind"] == "mark" and e["track"] == "guard.swap"]
    assert marks[4]["type"] == "bruise" and marks[4]["count"] == 2 and marks[4]["marks"][-1] == "bruise"

    r = ruleset("marked-track")
    program = simulation_program(r, resolve_params(r, {}))
    for seed in range(20):
        result, _, report, _ = play_game(program, seed)
        table = Game.start(r, seed=seed, auto=True)
        while not table.over:
            table.perform("round")
        assert (result, report) == (table.result, table.report())


def test_undo_takes_a_typed_mark_back_and_a_snapshot_keeps_the_marks():
    game = Game.start(ruleset("marked-track"), rng=ScriptedDice([5, 1]))
    game.perform("round")
    game.perform("round")
    assert game.values["guard"]["up"]["marks"] == ["burn", "cut"]
    game.undo()
    assert game.values["guard"]["up"]["marks"] == ["cut"] and game.values["guard"]["up"]["burn"] == 0

    game = Game.start(ruleset("marked-track"), seed=3)
    for _ in range(4):
        game.perform("round")
    snap = json.loads(json.dumps(game.snapshot()))
    again = Game.restore(ruleset("marked-track"), snap)
    assert again.values == game.values and again.values["guard"]["up"]["marks"] == ["cut", "cut", "bruise", "bruise"]
    again.perform("round")
    assert again.values["guard"]["up"]["marks"] == ["cut", "cut", "cut", "bruise", "bruise"]


BASE = """\
ruleset: t
title: T
entities:
  sheet:
    tracks:
      health: {boxes: 3, marks: {light: "/", deep: X}}
      plain: {boxes: 3}
actions:
  hit:
    steps:
      - {mark: sheet.health, type: deep}
report: {deep: sheet.health.deep}
"""


@pytest.mark.parametrize("old, new, message, where", [
    ("{mark: sheet.health, type: deep}", "{mark: sheet.health}",
     "mark: 'sheet.health' takes marks of a type: say which with type: (one of light, deep)", ":11:"),
    ("type: deep}", "type: dep}", "takes marks of the types light, deep, not 'dep' (did you mean 'deep'?)", ":11:"),
    ("{mark: sheet.health, type: deep}", "{mark: sheet.plain, type: deep}",
     "mark: 'sheet.plain' takes plain marks; only a track with marks: takes a type:", ":11:"),
    ("sheet.health.deep}", "sheet.health.dep}", "a track has marked, free, size, next, last, labels, light, deep, "
     "not 'dep'", ":12:"),
    ("plain: {boxes: 3}", "plain: {boxes: 3, full: upgrade}",
     "full: is the rule of marks of a type: declare them first with marks:", ":7:"),
    ('{light: "/"', '{free: "/"', "'free' is what every track has; choose another name", ":6:"),
    ("full: upgrade", "", "", ""),
])
def test_misuse_is_refused_with_its_place(written, old, new, message, where):
    if not message:
        written(BASE)      # the base is sound
        return
    with pytest.raises(RulesetError) as err:
        written(BASE.replace(old, new))
    text = str(err.value)
    assert message in text and where in text, text


def test_the_schema_refuses_an_unknown_rule(written):
    with pytest.raises(RulesetError, match="full"):
        written(BASE.replace('deep: X}', 'deep: X}, full: explode'))


def test_two_types_may_share_a_symbol_and_the_table_says_which_in_words(written):
    # A paper sheet may draw two kinds alike (a slash for both): the boxes show the symbol, and the
    # counts in words follow them, strongest first, so the table still tells the two apart.
    from ruleset_engine.repl.render import Style, _cell

    ruleset = written(BASE.replace('deep: X}', 'deep: "/"}'))
    track = ruleset.entities["sheet"].tracks["health"]
    value = {"labels": [0, 0, 0, 0], "size": 4, "marked": 3, "free": 1, "marks": ["deep", "light", "light"],
             "light": 2, "deep": 1}
    assert _cell(value, Style(), track) == "///□ 3/4 (deep 1, light 2)"
