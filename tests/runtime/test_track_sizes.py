"""A track's number of boxes as a formula (issue 11, item 4): `boxes: params.willpower` is read as
each instance is made, from the params and the entities made before it, numbered 1..n; a size
outside 1..1000 stops the game with its place, and `dusk check` finds it for the default params.
Every value is worked out by hand from tests/rulesets/track-sizes.yaml."""

import pytest

from ruleset_engine.analysis.check import check
from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.errors import DuskError
from ruleset_engine.runtime import Game, RuleError, resolve_params
from tests.runtime.helpers import ruleset


def sizes(game):
    return game.values["hero"]["will"]["size"], [c["grit"]["size"] for c in game.values["crew"]]


@pytest.mark.parametrize("willpower, hero, crew", [(3, 3, [2, 3]), (4, 4, [3, 4]), (10, 10, [9, 10])])
def test_each_instance_reads_its_size_as_it_is_made(willpower, hero, crew):
    # crew N has N + (hero's boxes) - 2 boxes
    game = Game.start(ruleset("track-sizes"), params={"willpower": willpower}, seed=1)
    assert sizes(game) == (hero, crew)
    assert game.values["hero"]["will"]["labels"] == list(range(1, hero + 1))


def test_a_size_below_one_stops_the_start_with_its_place():
    # willpower 1: crew 1 would have 1 + 1 - 2 = 0 boxes
    with pytest.raises(RuleError) as caught:
        Game.start(ruleset("track-sizes"), params={"willpower": 1}, seed=1)
    assert "crew.grit: boxes index + hero.will.size - 2 gives 0: a track has 1 to 1,000 boxes" in str(caught.value)
    assert "track-sizes.yaml:16:" in str(caught.value)


def test_marks_fill_the_sized_tracks_in_both_modes():
    rules = ruleset("track-sizes")
    game = Game.start(rules, params={"willpower": 3}, seed=1)
    while not game.over:
        game.perform("round")
    # four rounds: three boxes of will (the fourth mark is lost), last label 3; crew 2 and 3 boxes full
    assert game.report() == {"will_marked": 3, "will_last": 3, "hero_size": 3}
    assert [(c["grit"]["marked"], c["grit"]["gash"]) for c in game.values["crew"]] == [(2, 2), (3, 3)]
    program = simulation_program(rules, resolve_params(rules, {"willpower": 5}))
    assert play_game(program, 1)[2] == {"will_marked": 4, "will_last": 4, "hero_size": 5}


def test_check_starts_a_game_with_the_default_params(written):
    path = written.path("""\
ruleset: zero
title: Zero
params:
  willpower: {type: integer, default: 0, min: 0, max: 10}
entities:
  hero:
    tracks:
      will: {boxes: params.willpower}
""", "zero.yaml")
    _, problems = check(str(path))
    assert [str(p) for p in problems] == [
        f"{path}:8:21: a game with the default params cannot start: hero.will: boxes params.willpower gives 0: "
        "a track has 1 to 1,000 boxes (at entities.hero.tracks.will.boxes)"]


@pytest.mark.parametrize("boxes, message", [
    ("hero.will.size", "the starting value of hero.tracks.will.boxes reads 'hero' itself, which is still being made"),
    ("crew.size", "the starting value of hero.tracks.will.boxes reads 'crew', which is made after it"),
    ("spent", "reads the state variable 'spent', which starts after every entity"),
    ("'three'", "boxes: 'three' gives a text: write how many boxes (a number), or their labels as a list"),
])
def test_a_size_that_cannot_be_read_there_is_refused_at_load(written, boxes, message):
    with pytest.raises(DuskError) as caught:
        written(f"""
            ruleset: wrong
            title: Wrong
            state: {{spent: 0}}
            entities:
              hero:
                tracks:
                  will: {{boxes: "{boxes}"}}
              crew:
                count: 2
            """)
    assert message in str(caught.value) and "t.yaml:8:" in str(caught.value)
