"""A procedure parameter that holds an instance of a group ({who: {of: fighter}}): its tracks are
marked through it and its fields read, in both modes alike; a wrong argument stops the call with
its place, and the misuses `dusk check` refuses. Worked by hand on tests/rulesets/procedure-instance.yaml."""

import pytest

from pathlib import Path

from ruleset_engine.analysis.simulate import SimulationError, play_game, simulate, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import Game, resolve_params
from tests.runtime.helpers import kinds, play, ruleset

ROOT = Path(__file__).resolve().parents[2]


def said(events):
    return [e["text"] for e in kinds(events, "say")]


def test_one_procedure_marks_whichever_instance_it_is_given():
    # strike Beto 2: the cut die shows 5 (>= 5: deep), so two cuts on Beto's track.
    # Then a round: who 1 (Ana), blow 3, edge 2 (a bruise): three bruises on Ana's.
    game = Game.start(ruleset("procedure-instance"), rng=ScriptedDice([5, 1, 3, 2]))
    assert said(play(game, "strike", target="Beto", n=2)) == ["Beto: 2/4 (cut 2), penalty -1"]
    assert said(play(game, "round")) == ["Ana: 3/4 (bruise 3), penalty -2"]
    ana, beto = game.values["fighter"]
    assert (ana["health"]["marks"], beto["health"]["marks"]) == (["bruise"] * 3, ["cut", "cut"])
    assert game.values["blows"] == 2 and not game.over


def test_both_modes_play_it_alike():
    r = ruleset("procedure-instance")
    program = simulation_program(r, resolve_params(r, {}))
    for seed in range(20):
        result, _, report, _ = play_game(program, seed)
        table = Game.start(r, seed=seed, auto=True)
        while not table.over:
            table.perform("round")
        assert (result, report) == (table.result, table.report())


BASE = """\
ruleset: t
title: T
entities:
  f:
    count: 2
    tracks:
      health: {boxes: 3}
state: {n: 0}
procedures:
  hurt:
    params: [{who: {of: f}}]
    steps:
      - {mark: who.health, count: 1}
      - set: {n: n + 1}
actions:
  hit:
    steps:
      - call: hurt
        with: {who: "'f 2'"}
"""


@pytest.mark.parametrize("old, new, message, where", [
    ("{who: {of: f}}", "{who: {of: g}}", "procedure parameter 'who': 'g' is not an entity", ":11:"),
    ("[{who: {of: f}}]", "[who]", "a procedure's parameter that holds an instance is declared {who: {of: GROUP}}", ":13:"),
    ("{of: f}}", "{of: f, as: x}}", "procedures", ":11:"),
    ("{who: {of: f}}", "{who: f}", "procedures", ":11:"),
])
def test_misuse_is_refused_with_its_place(written, old, new, message, where):
    written(BASE)          # the base is sound
    with pytest.raises(RulesetError) as err:
        written(BASE.replace(old, new))
    text = str(err.value)
    assert message in text and where in text, text


@pytest.mark.parametrize("argument, message", [
    ("3", "hurt: who is an instance of f, not '3'"),
    ("'nobody'", "hurt: who is an instance of f, and none is named 'nobody'"),
])
def test_a_wrong_argument_stops_the_call_in_both_modes(written, argument, message):
    r = written(BASE.replace("\"'f 2'\"", f'"{argument}"')
                + "loop:\n  - name: r\n    max: 1\n    steps:\n      - call: hurt\n"
                  f"        with: {{who: \"{argument}\"}}\n")
    game = Game.start(r, seed=1)
    with pytest.raises(DuskError) as err:
        game.perform("hit")
    assert message in str(err.value) and ":18:" in str(err.value)
    assert game.values["n"] == 0 and game.values["f"][1]["health"]["marked"] == 0     # nothing changed
    with pytest.raises(DuskError) as err:
        play_game(simulation_program(r, resolve_params(r, {})), 1)
    assert message in str(err.value) and ":24:" in str(err.value)


def test_the_lockstep_backend_plays_it_as_the_untraced_one_does():
    # Each game's instance passed on, its track marked through the parameter (5 SE bounds).
    from tests.runtime.test_lockstep import assert_parity
    assert_parity(str(ROOT / "tests" / "rulesets" / "procedure-instance.yaml"), 20_000, 3_000)


@pytest.mark.parametrize("argument, message", [
    ("3", "hurt: who is an instance of f, not '3'"),
    ("'nobody'", "hurt: who is an instance of f, and none is named 'nobody'"),
    # 'f 2' in the first round, then 'f 3', which no instance has
    ("'f 2' if n == 0 else 'f 3'", "hurt: who is an instance of f, and none is named 'f 3'"),
])
def test_a_wrong_argument_stops_a_lockstep_run_with_the_untraced_message(written, argument, message):
    r = written(BASE + "loop:\n  - name: r\n    max: 3\n    steps:\n      - call: hurt\n"
                f"        with: {{who: \"{argument}\"}}\nend: []\nreport: {{n: n}}\n")
    with pytest.raises(SimulationError) as err:
        simulate(str(r.file), 50, seed=1, backend="lockstep")
    assert message in str(err.value) and ":24:" in str(err.value), str(err.value)
