"""An action parameter's default written as a formula (`default: params.rouses`): checked at
load, read as the action starts, held to the bounds in both modes. Worked out by hand."""

import textwrap
from pathlib import Path

import pytest

import ruleset_engine as dusk
from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.runtime import resolve_params

RULESET = Path(__file__).resolve().parents[1] / "rulesets" / "formula-defaults.yaml"


def test_the_default_is_read_from_the_state_as_each_round_starts():
    game = dusk.Game.start(load(str(RULESET)), seed=1)
    game.perform("night")                  # rouse 2 (params.rouses), extra 1 (hunger): spent 3, hunger 2
    assert (game.values["spent"], game.values["hunger"]) == (3, 2)
    game.perform("night", extra=0)         # an argument given wins: 3 + 2 + 0
    assert game.values["spent"] == 5
    game.perform("night")                  # extra is hunger, now 3: 5 + 2 + 3
    assert game.values["spent"] == 10
    game = dusk.Game.start(load(str(RULESET)), params={"rouses": 0}, seed=1)
    while not game.over:
        game.perform("night")
    assert game.report() == {"spent": 1 + 2 + 3 + 3, "hunger": 3}


def test_a_simulation_reads_the_default_the_same_way():
    ruleset = load(str(RULESET))
    program = simulation_program(ruleset, resolve_params(ruleset, {}))
    assert play_game(program, 1)[2] == {"spent": 17, "hunger": 3}      # 3 + 4 + 5 + 5


def write(tmp_path, text):
    (tmp_path / "r.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return str(tmp_path / "r.yaml")


OUT_OF_BOUNDS = """\
    ruleset: t
    title: T
    state: {n: 5}
    loop:
      - name: go
        times: 2
        params:
          k: {type: integer, min: 0, max: 3, default: n - 1}
        steps: [{set: {n: n + k}}]
    """


def test_a_default_out_of_its_bounds_is_the_rulesets_error_in_both_modes(tmp_path):
    ruleset = load(write(tmp_path, OUT_OF_BOUNDS))
    game = dusk.Game.start(ruleset, seed=1)
    with pytest.raises(dusk.RuleError) as table:
        game.perform("go")
    assert "go k: the default n - 1 gives 4, not a whole number from 0 to 3" in str(table.value)
    assert "r.yaml:8:" in str(table.value) and game.values["n"] == 5
    with pytest.raises(dusk.DuskError) as simulated:
        play_game(simulation_program(ruleset, resolve_params(ruleset, {})), 1)
    assert "go k: the default n - 1 gives 4, not a whole number from 0 to 3" in str(simulated.value)
    assert "r.yaml:8:" in str(simulated.value)


def test_a_default_formula_is_checked_at_load(tmp_path):
    with pytest.raises(RulesetError) as info:
        load(write(tmp_path, OUT_OF_BOUNDS.replace("default: n - 1", "default: params.rouses")))
    assert "r.yaml:8:51: unknown param 'rouses'" in str(info.value)
    with pytest.raises(RulesetError) as info:
        load(write(tmp_path, OUT_OF_BOUNDS.replace("default: n - 1", "default: 1d6")))
    assert "this formula is read at any time" in str(info.value)


SWITCHES = Path(__file__).resolve().parents[1] / "rulesets" / "switch-defaults.yaml"


@pytest.mark.parametrize("params, rotes, wilds", [({}, 0, 0), ({"rote": True}, 3, 0),
                                                   ({"rote": True, "style": "wild"}, 3, 3)])
def test_a_yes_no_or_choice_default_read_from_a_param_is_the_same_at_the_table_and_in_a_simulation(
        params, rotes, wilds):
    ruleset = load(str(SWITCHES))
    game = dusk.Game.start(ruleset, params=params, seed=1)
    while not game.over:
        game.perform("round")
    assert (game.report()["rotes"], game.report()["wilds"]) == (rotes, wilds)
    program = simulation_program(ruleset, resolve_params(ruleset, params))
    report = play_game(program, 1)[2]
    assert (report["rotes"], report["wilds"]) == (rotes, wilds)
    # An argument given wins over the default.
    game = dusk.Game.start(ruleset, params=params, seed=1)
    game.perform("round", use_rote=False, how="calm")
    assert (game.values["rotes"], game.values["wilds"]) == (0, 0)


def test_a_choice_default_that_is_one_of_its_choices_stays_that_choice(tmp_path):
    text = SWITCHES.read_text(encoding="utf-8").replace("default: params.style}", "default: wild}")
    game = dusk.Game.start(load(write(tmp_path, text)), seed=1)
    game.perform("round")
    assert game.values["wilds"] == 1


@pytest.mark.parametrize("old, new, message, line", [
    ("default: params.rote}", "default: total}", "round use_rote: the default total gives 0, not true or false", 14),
    ("default: params.style}", "default: \"'odd'\"}", "round how: the default 'odd' gives 'odd', not one of calm, wild",
     15),
])
def test_a_yes_no_or_choice_default_of_the_wrong_value_is_the_rulesets_error_in_every_mode(tmp_path, old, new,
                                                                                             message, line):
    ruleset = load(write(tmp_path, SWITCHES.read_text(encoding="utf-8").replace(old, new)))
    game = dusk.Game.start(ruleset, seed=1)
    with pytest.raises(dusk.RuleError) as table:
        game.perform("round")
    program = simulation_program(ruleset, resolve_params(ruleset, {}))
    with pytest.raises(dusk.RuleError) as simulated:
        play_game(program, 1)
    for err in (table.value, simulated.value):
        assert message in str(err) and f"r.yaml:{line}:" in str(err)
    from ruleset_engine.analysis.simulate import simulate
    with pytest.raises(dusk.DuskError) as lockstep:
        simulate(str(tmp_path / "r.yaml"), games=20, seed=1, backend="lockstep")
    assert message in str(lockstep.value) and f"r.yaml:{line}:" in str(lockstep.value)


CHOICE = """\
    ruleset: t
    title: T
    state: {mode: "'slow'", steps: 0}
    loop:
      - name: go
        times: 3
        params:
          pace: {type: choice, choices: [slow, fast], default: mode}
        steps:
          - set: {mode: pace, steps: "steps + (2 if pace == 'fast' else 1)"}
    """


def test_a_choice_default_formula_reads_the_choice_in_force(tmp_path):
    # slow (the state's mode: 1 step), fast given (2, and it stays), then fast read from mode (2): 5.
    ruleset = load(write(tmp_path, CHOICE))
    game = dusk.Game.start(ruleset, seed=1)
    game.perform("go")
    game.perform("go", pace="fast")
    game.perform("go")
    assert game.values["steps"] == 5
    # Simulated (no argument given): slow every time, 3 steps.
    assert play_game(simulation_program(ruleset, resolve_params(ruleset, {})), 1)[1] is not None
    game = dusk.Game.start(ruleset, seed=1)
    while not game.over:
        game.perform("go")
    assert game.values["steps"] == 3


def test_a_choice_default_giving_no_choice_is_the_rulesets_error_in_both_modes(tmp_path):
    ruleset = load(write(tmp_path, CHOICE.replace("""state: {mode: "'slow'", steps: 0}""",
                                                  """state: {mode: "'crawl'", steps: 0}""")))
    game = dusk.Game.start(ruleset, seed=1)
    with pytest.raises(dusk.RuleError) as table:
        game.perform("go")
    assert "go pace: the default mode gives 'crawl', not one of slow, fast" in str(table.value)
    assert game.values["steps"] == 0
    with pytest.raises(dusk.DuskError) as simulated:
        play_game(simulation_program(ruleset, resolve_params(ruleset, {})), 1)
    assert "go pace: the default mode gives 'crawl', not one of slow, fast" in str(simulated.value)
