"""A loop's counters (issue 11, item 6): `loop.LEVEL` is the iteration being played, and once the
level has run all its iterations it stays at the last one (never one past the end);
`loop.LEVEL.done` counts the iterations done. Every value below was worked out by hand from
tests/rulesets/loop-counters.yaml: two nights of two rounds."""

import pytest

from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.errors import DuskError
from ruleset_engine.runtime import Game, resolve_params
from tests.runtime.helpers import ruleset

NIGHT_1 = ["begin night 1, 0 done",
           "night 1 round 1, 0 done",
           "night 1 round 2, 1 done", "then round 2, 2 done", "finish night 1, 0 done"]
NIGHT_2 = ["begin night 2, 1 done",
           "night 2 round 1, 0 done",
           "night 2 round 2, 1 done", "then round 2, 2 done", "finish night 2, 1 done",
           "then night 2, 2 done"]


def says(game):
    return [e["text"] for e in game.log if e["kind"] == "say"]


def test_the_counters_at_every_block_of_two_nights():
    game = Game.start(ruleset("loop-counters"), seed=1)
    assert game.status() == "Night 1/2 (0 done), round 1"
    game.perform("round")
    assert game.status() == "Night 1/2 (0 done), round 2"      # between actions: the round to be played
    game.perform("round")
    assert says(game) == NIGHT_1 + NIGHT_2[:1]
    assert game.status() == "Night 2/2 (1 done), round 1"
    game.perform("round")
    game.perform("round")
    assert game.over and game.result == "done"
    assert says(game) == NIGHT_1 + NIGHT_2
    # the complaint was `Night 3/2` here: the last night played, and every night done
    assert game.status() == "Night 2/2 (2 done), round 2"
    assert game.values["loop"] == {"night": 2, "round": 2}
    assert game.values["loop_done"] == {"night": 2, "round": 2}
    assert game.report() == {"nights": 2, "nights_done": 2, "rounds_done": 2}


def test_a_simulation_reports_the_same_counters():
    rules = ruleset("loop-counters")
    for nights in (1, 3):
        program = simulation_program(rules, resolve_params(rules, {"nights": nights}))
        result, rounds, report, _ = play_game(program, 5)
        assert (result, rounds) == ("done", 2 * nights)
        assert report == {"nights": nights, "nights_done": nights, "rounds_done": 2}


def test_a_game_ended_in_the_middle_of_a_level_shows_the_iteration_it_was_in(written):
    rules = written("""
        ruleset: stops
        title: Stops
        state: {n: 0}
        loop:
          - name: round
            times: 10
            steps: [{set: {n: n + 1}}]
        end:
          - {when: n == 3, result: won}
        report: {round: loop.round, done: loop.round.done}
        """)
    game = Game.start(rules, seed=1)
    for _ in range(3):
        game.perform("round")
    # ended by the condition after the third round's steps, before the loop moved on
    assert game.over and game.report() == {"round": 3, "done": 2}
    _, _, report, _ = play_game(simulation_program(rules, resolve_params(rules, {})), 1)
    assert report == {"round": 3, "done": 2}


@pytest.mark.parametrize("name, message", [
    ("loop.round.left", "loop.round has one field, done (how many of its iterations are done), not 'left'"),
    ("loop.round.done.x", "not 'done.x'"),
    ("loop.rund.done", "unknown loop level 'rund' (did you mean 'round'?)"),
])
def test_a_counter_field_that_does_not_exist_is_refused_at_load(written, name, message):
    with pytest.raises(DuskError) as caught:
        written(f"""
            ruleset: wrong
            title: Wrong
            loop:
              - name: round
                times: 2
                steps: [{{say: "{{{name}}}"}}]
            """)
    assert message in str(caught.value) and "t.yaml:7:" in str(caught.value)


def test_an_actions_when_reads_the_counters(written):
    rules = written("""
        ruleset: late
        title: Late
        loop:
          - name: night
            times: 3
            steps: []
        actions:
          remember:
            when: loop.night.done >= 1
            steps: []
        """)
    game = Game.start(rules, seed=1)
    assert [a.name for a in game.actions()] == ["night"]
    game.perform("night")
    assert sorted(a.name for a in game.actions()) == ["night", "remember"]
