"""`group[n]` in a formula: the group's instance number n, the query instance(group, n) written as
a reader expects (grammar/dice.lark's `indexed`); `group[n].field` reads its field."""

import re

import pytest

from ruleset_engine.dice import ast
from ruleset_engine.dice.parser import parse
from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.runtime import Game, GameError, RuleError, resolve_params


RULES = """\
ruleset: t
title: T
entities:
  character:
    count: 3
    names: "{'Ana' if index == 1 else 'Beto' if index == 2 else 'Dani'}"
    fields: {blood: "index * 10"}
state: {second: {text: ""}, sum: 0, k: 2}
setup:
  - set: {second: "character[2].name", sum: "character[1].blood + character[k + 1].blood"}
loop:
  - name: round
    max: 1
    steps:
      - set: {sum: sum + 1}
report:
  last: character[3].blood
  second: character[k].blood
"""


def test_an_index_reads_the_instance_in_both_modes(written):
    r = written(RULES)
    game = Game.start(r, seed=1, auto=True)
    assert (game.values["second"], game.values["sum"]) == ("Beto", 10 + 30)
    while not game.over:
        game.perform("round")
    result, _, report, _ = play_game(simulation_program(r, resolve_params(r, {})), 1)
    assert report == game.report() == {"last": 30, "second": 20}


def test_it_is_the_instance_query():
    def shape(node):
        return [type(n).__name__ for n in ast.walk(node)]
    indexed, called = parse("players[n + 1].name"), parse("instance(players, n + 1).name")
    assert shape(indexed) == shape(called) and indexed.value.function == "instance"
    assert indexed.span == (0, len("players[n + 1].name"))


def test_an_index_past_the_group_stops_the_game_with_its_place(written):
    r = written(RULES.replace("sum: sum + 1", "sum: 'character[k + 5].blood'"))
    game = Game.start(r, seed=1, auto=True)
    with pytest.raises((RuleError, GameError), match=re.escape("has 3 instances")):
        game.perform("round")
    assert game.values["sum"] == 40            # the game as it was
