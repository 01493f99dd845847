"""The engine API: determinism, undo, snapshot and restore, limits, bad requests."""

import json
import textwrap

import pytest

from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game, GameError, RuleError, RunLimits
from tests.runtime.helpers import play, ruleset


def run_game(seed, rounds=30, answers=4):
    game = Game.start(ruleset("pool-conflict"), params={"ghosts": 1}, seed=seed)
    for _ in range(rounds):
        if game.over:
            break
        play(game, "conflict", answers=[1, 0, 1, 0], scale="scene")
    return game


def test_same_seed_same_answers_same_log_byte_for_byte():
    a, b = run_game(11), run_game(11)
    assert json.dumps(a.log, sort_keys=True) == json.dumps(b.log, sort_keys=True)
    assert json.dumps(a.log) != json.dumps(run_game(12).log)


def test_undo_rewinds_state_and_dice_and_marks_the_log():
    game = Game.start(ruleset("search-and-kill"), seed=5)
    play(game, "round")
    before = game.state
    first = play(game, "round")
    game.undo()
    assert game.state == before
    assert all(e["undone"] for e in game.log if e["turn"] == first[0]["turn"] and e["kind"] != "undo")
    assert game.log[-1]["kind"] == "undo"
    again = play(game, "round")
    strip = lambda events: [{k: v for k, v in e.items() if k not in ("seq",)} for e in events]  # noqa: E731
    assert [e["pool"] for e in again if e["kind"] == "roll"] == [e["pool"] for e in first if e["kind"] == "roll"]
    assert strip(again) != [] and len(again) == len(first)


def test_undo_with_nothing_to_undo():
    game = Game.start(ruleset("search-and-kill"), seed=5)
    with pytest.raises(GameError, match="nothing to undo"):
        game.undo()


def test_snapshot_and_restore_continue_identically():
    game = Game.start(ruleset("search-and-kill"), seed=9)
    for _ in range(5):
        play(game, "round")
    snap = json.loads(json.dumps(game.snapshot()))   # it is plain JSON
    restored = Game.restore(ruleset("search-and-kill"), snap)
    for _ in range(5):
        a, b = play(game, "round"), play(restored, "round")
        assert a == b
        if game.over:
            break
    assert restored.state == game.state


def test_decision_during_setup_is_asked_and_replayed(written):
    path = written.path(textwrap.dedent("""\
        ruleset: ask-at-start
        title: Ask at start
        state: {n: 0}
        setup:
          - ask: How many?
            as: k
            number: {min: 1, max: 3}
            auto: 2
          - set: {n: k}
        """), "ask.yaml")
    game = Game.start(load(str(path)), seed=1)
    decision = game.last_outcome.decision
    assert decision.prompt == "How many?" and game.actions() == []
    game.answer(decision, 3)
    assert game.values["n"] == 3
    auto = Game.start(load(str(path)), seed=1, auto=True)
    assert auto.values["n"] == 2


def limited(written, body, **limits):
    path = written.path("ruleset: limits\ntitle: Limits\nstate: {n: 0}\n" + textwrap.dedent(body), "limits.yaml")
    return Game.start(load(str(path)), seed=1, limits=RunLimits(**limits))


def test_step_limit_names_the_loop_and_leaves_the_state(written):
    game = limited(written, """\
        actions:
          spin:
            steps:
              - set: {n: 1}
              - repeat: {while: "1 > 0", max: 1000000}
                do: [{set: {n: n + 1}}]
        """, max_steps=1000)
    before = game.state
    with pytest.raises(RuleError) as info:
        game.perform("spin")
    assert "more than 1,000 steps in one action; stopped in the loop here" in str(info.value)
    assert str(info.value).startswith("limits.yaml:9:11:") or "(at actions.spin.steps[1])" in str(info.value)
    assert game.state == before


def test_call_depth_limit(written):
    game = limited(written, """\
        actions:
          go: {steps: [{call: again}]}
        procedures:
          again: {steps: [{call: again}]}
        """, max_call_depth=64)
    with pytest.raises(RuleError, match="calls nested more than 64 deep: 'again' calls itself"):
        game.perform("go")
    assert game.values["n"] == 0


def test_a_runtime_formula_error_is_located_with_a_caret(written):
    game = limited(written, """\
        actions:
          bad: {steps: [{set: {n: "n // 0"}}]}
        """)
    with pytest.raises(RuleError) as info:
        game.perform("bad")
    lines = str(info.value).splitlines()
    assert "division by zero (at actions.bad.steps[0].set.n)" in lines[0]
    assert lines[1:] == ["  n // 0", "       ^"]


def test_bad_requests_change_nothing():
    game = Game.start(ruleset("pool-conflict"), seed=1)
    with pytest.raises(GameError, match="no action 'confict' \\(did you mean conflict\\?\\)"):
        game.perform("confict")
    with pytest.raises(GameError, match="expected one of: hour, scene, shot"):
        game.perform("conflict", scale="week")
    with pytest.raises(GameError, match="has no parameter 'size'"):
        game.perform("conflict", size=3)
    with pytest.raises(GameError, match="has no param 'player'"):
        Game.start(ruleset("pool-conflict"), params={"player": 3})
    with pytest.raises(GameError, match="above the maximum 6"):
        Game.start(ruleset("pool-conflict"), params={"players": 7})


def test_a_roll_label_is_a_text_that_reads_the_roll(written):
    labelled = written("""\
        ruleset: label
        title: Label
        state: {n: 0}
        actions:
          throw:
            steps:
              - roll: {ones: "count(3d6, == 1)"}
                label: "{ones} {plural(ones, 'one', 'ones')}"
        """)
    from ruleset_engine.dice import ScriptedDice
    for faces, shown in (([1, 5, 6], "1 one"), ([1, 1, 3], "2 ones"), ([2, 3, 4], "0 ones")):
        game = Game.start(labelled, rng=ScriptedDice(faces))
        (event,) = [e for e in play(game, "throw") if e["kind"] == "roll"]
        assert event["label"] == shown, faces


def test_each_undo_names_the_turn_it_took_back_and_stays_in_the_log():
    game = Game.start(ruleset("search-and-kill"), seed=5)
    for _ in range(3):
        play(game, "round")           # turns 1, 2, 3 (setup was turn 0)
    game.undo()
    game.undo()
    undos = [e for e in game.log if e["kind"] == "undo"]
    assert [u["of"] for u in undos] == [3, 2]
    assert not any(u.get("undone") for u in undos)
    assert {e["turn"] for e in game.log if e.get("undone")} == {2, 3}
