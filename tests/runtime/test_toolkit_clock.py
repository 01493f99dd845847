"""A toolkit's clock (issue 11, item 11): loop levels used as counters that actions advance
(`end: scene`, the level's own action), rules read (`loop.turn`, a level's `begin:`), and
`once_per: LEVEL` (an action done at most once in each iteration of a level). Every value is
worked out by hand from tests/rulesets/toolkit-clock.yaml."""

import pytest

from ruleset_engine.errors import DuskError
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, Game, GameError, resolve_params
from ruleset_engine.runtime.program import build
from tests.runtime.helpers import ruleset
from tests.test_parity import traced, untraced


def offered(game):
    return [a.name for a in game.actions()]


def test_once_per_turn_and_per_night_with_the_clock():
    game = Game.start(ruleset("toolkit-clock"), seed=1)
    # night 1 began: waking cost one blood
    assert game.status() == "night 1, scene 1, turn 1: blood 9"
    game.perform("dodge")
    assert "dodge" not in offered(game)
    with pytest.raises(GameError, match="dodge is done once per turn, and it was done in this one; it can be "
                                        "done again when the turn moves on"):
        game.perform("dodge")
    game.perform("turn")                                     # turn 2: dodge again
    assert "dodge" in offered(game)
    game.perform("feed")                                     # 9 + 3 = 12, capped at 10
    game.perform("cut")                                      # scene 2, turn 1
    assert game.status() == "night 1, scene 2, turn 1: blood 10"
    assert "feed" not in offered(game)                       # once a night, and it is still night 1
    game.perform("dodge")
    game.perform("cut")                                      # a new scene is a new turn 1: dodge again
    assert "dodge" in offered(game) and "feed" not in offered(game)
    game.perform("dawn")                                     # night 2: waking costs one: blood 9
    assert game.status() == "night 2, scene 1, turn 1: blood 9"
    assert "feed" in offered(game)
    says = [e["text"] for e in game.log if e["kind"] == "say"]
    assert says == ["dodged in night 1, scene 1, turn 1", "dodged in night 1, scene 2, turn 1"]


def test_undo_gives_the_action_back():
    game = Game.start(ruleset("toolkit-clock"), seed=1)
    game.perform("feed")
    assert "feed" not in offered(game)
    game.undo()
    assert "feed" in offered(game)


def test_a_limit_per_turn_is_a_counter_the_turn_resets():
    game = Game.start(ruleset("toolkit-clock"), seed=1)
    game.perform("spend")
    game.perform("spend")                                   # two a turn: 9 - 2 = 7
    assert "spend" not in offered(game) and game.values["blood"] == 7
    game.perform("turn")
    assert "spend" in offered(game)


def test_both_modes_keep_the_same_clock():
    rules = ruleset("toolkit-clock")
    params = resolve_params(rules, {})
    program = build(rules, params, traced=False, run_limits=DEFAULT_RUN_LIMITS)
    script = [("dodge", {}), ("feed", {}), ("turn", {}), ("dodge", {}), ("cut", {}), ("spend", {}),
              ("dawn", {}), ("feed", {}), ("dodge", {})]
    table = traced(rules, params, 3, script)
    assert table[-1] is None and table[3]["once_per"] == {"feed": [2], "dodge": [2, 1, 1]}
    # 10, woke 9, fed 10 (capped), spent 9, woke on night 2: 8, fed: 10 (capped again)
    assert table[2] == {"blood": 10, "nights": 2, "woke": 2}
    assert untraced(rules, params, 3, script, program) == table


@pytest.mark.parametrize("once_per, message", [
    ("turns", "once_per: names a loop level, and 'turns' is none (did you mean 'turn'?)"),
])
def test_once_per_names_a_loop_level(written, once_per, message):
    with pytest.raises(DuskError) as caught:
        written(f"""
            ruleset: wrong
            title: Wrong
            loop:
              - name: turn
                max: 5
                steps: []
            actions:
              act: {{once_per: {once_per}, steps: []}}
            """)
    assert message in str(caught.value) and "t.yaml:9:" in str(caught.value)


def test_once_per_without_a_loop_says_so(written):
    with pytest.raises(DuskError, match="'turn' is none \\(this ruleset has no loop:\\)"):
        written("""
            ruleset: wrong
            title: Wrong
            actions:
              act: {once_per: turn, steps: []}
            """)


@pytest.mark.parametrize("section, message", [
    ("state: {once_per: 5}", "the state variable 'once_per' has the name of an entity or a built-in name"),
    ("state: {loop_done: 5}", "the state variable 'loop_done' has the name of an entity or a built-in name"),
    ("entities: {once_per: {fields: {a: 1}}}", "the entity 'once_per' has a built-in name"),
    ("entities: {loop: {fields: {a: 1}}}", "the entity 'loop' has a built-in name"),
])
def test_the_names_the_engine_keeps_are_refused(written, section, message):
    # a state variable named once_per once passed the check and crashed the table at its start
    with pytest.raises(DuskError) as caught:
        written(f"ruleset: t\ntitle: T\n{section}\nactions:\n  go: {{steps: []}}\n")
    assert message in str(caught.value) and "t.yaml:3:" in str(caught.value)
