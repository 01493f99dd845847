"""seats: GROUP, the group whose instances people play: checked where it is written, and read by the
public face (whose a question is, which parameter of an action names the seat acting)."""

import textwrap

import pytest

import ruleset_engine as dusk
from ruleset_engine.ruleset import RulesetError, load

TABLE = """\
    ruleset: t
    title: T
    seats: {seats}
    entities:
      hero:
        count: 2
        fields: {{grit: 2}}
      world:
        fields: {{dread: 0}}
    setup:
      - for_each: h
        in: hero
        do:
          - set: {{h.name: "'Ana' if h.index == 1 else 'Beto'"}}
    actions:
      dare:
        params:
          who: {{type: entity, of: hero, word: as}}
          other: {{type: entity, of: hero}}
        steps:
          - ask: "{{who.name}}: how far?"
            as: far
            who: "{{who.name}}"
            number: {{min: 1, max: 3}}
            auto: 1
          - ask: "How dark is it?"
            as: dark
            number: {{min: 0, max: 2}}
            auto: 0
      hit:
        params:
          target: {{type: entity, of: hero, acts: false}}
          hitter: {{type: entity, of: hero}}
        steps: [{{say: "hit"}}]
      night:
        steps: [{{say: "night"}}]
    """


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def ruleset(tmp_path, seats):
    (tmp_path / "t.yaml").write_text(textwrap.dedent(TABLE.format(seats=seats)), encoding="utf-8")
    return load("t.yaml")


@pytest.mark.parametrize("seats,said", [("heroes", "no entity of this ruleset"),
                                        ("world", "a single entity, not a group")])
def test_seats_names_a_group_else_it_says_where(tmp_path, seats, said):
    with pytest.raises(RulesetError) as info:
        ruleset(tmp_path, seats)
    problems = [str(p) for p in info.value.problems]
    assert len(problems) == 1 and said in problems[0] and "the groups: hero" in problems[0]
    assert seats != "heroes" or "(did you mean 'hero'?)" in problems[0]
    assert problems[0].startswith("t.yaml:3:")          # the line of seats:


def test_a_question_for_an_instance_is_its_seat_s_and_any_other_the_gm_s(tmp_path):
    rules = ruleset(tmp_path, "hero")
    game = dusk.Game.start(rules, seed=1)
    assert dusk.seat_names(rules, game.values) == ["Ana", "Beto"]
    asked = game.perform("dare", who="Beto", other="Ana").decision
    assert asked.who == "Beto" and dusk.seat_of(rules, game.values, asked) == "Beto"
    then = game.answer(asked, 2).decision
    assert then.who is None and dusk.seat_of(rules, game.values, then) is None


def test_the_parameter_of_the_seat_acting(tmp_path):
    rules = ruleset(tmp_path, "hero")
    assert dusk.seat_parameter(rules, "dare") == "who"          # typed after `as`
    assert dusk.seat_parameter(rules, "hit") == "hitter"        # the first that acts (the target does not)
    assert dusk.seat_parameter(rules, "night") is None          # the GM's
    assert dusk.seat_parameter(rules, "no such action") is None


def test_a_ruleset_without_seats_has_no_seat(tmp_path):
    (tmp_path / "t.yaml").write_text(textwrap.dedent(TABLE.format(seats="hero")).replace("seats: hero\n", ""),
                                     encoding="utf-8")
    rules = load("t.yaml")
    game = dusk.Game.start(rules, seed=1)
    asked = game.perform("dare", who="Ana", other="Beto").decision
    assert rules.seats is None and dusk.seat_of(rules, game.values, asked) is None
    assert dusk.seat_names(rules, game.values) == [] and dusk.seat_parameter(rules, "dare") is None


def test_the_bundled_tables_name_their_seats():
    assert load("noche-de-los-vampiros").seats == "character"
    assert load("vampire-the-masquerade").seats == "character"
