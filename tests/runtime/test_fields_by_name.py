"""field(who, name) and a mark: whose type: is a formula, worked by hand on
tests/rulesets/fields-by-name.yaml: Ana (might 2, guile 3), Beto (might 3, guile 2); a test rolls the
trait named by the answer in d6; two 1s mark a cut, else a bruise."""

import math
import re

import pytest

from ruleset_engine.analysis.simulate import SimulationError, play_game, simulate, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError
from ruleset_engine.runtime import Game, RuleError, resolve_params
from ruleset_engine.runtime.vectorizable import refusal
from tests.runtime.helpers import play, ruleset


def test_the_trait_answered_is_the_field_rolled_and_the_harm_picks_the_mark():
    game = Game.start(ruleset("fields-by-name"), rng=ScriptedDice([1, 1, 5, 2, 3, 4]))
    play(game, "night", ["guile", "might"])     # Ana: guile 3 -> 1 1 5 (a cut); Beto: might 3 -> 2 3 4 (a bruise)
    ana, beto = game.values["hunter"]
    assert game.values["rolled"] == 6
    assert (ana["health"]["marks"], beto["health"]["marks"]) == (["cut"], ["bruise"])
    assert game.report()["cuts"] == 1


def test_both_modes_and_lockstep_agree_on_what_they_can():
    r = ruleset("fields-by-name")
    program = simulation_program(r, resolve_params(r, {}))
    for seed in range(20):
        result, _, report, rng = play_game(program, seed)
        table = Game.start(r, seed=seed, auto=True)
        while not table.over:
            table.perform("night")
        assert (result, report, rng.getstate()) == (table.result, table.report(), table.rng.getstate())
        assert report["rolled"] == 3 * 2 + 3 * 2      # auto: Ana might (2), Beto guile (2), three nights
    assert refusal(r, resolve_params(r, {})) is None


def test_the_lockstep_backend_plays_it_as_the_untraced_one_does():
    from tests.runtime.test_lockstep import assert_parity
    assert_parity(ruleset("fields-by-name").file, 20_000, 3_000)       # 5 SE bounds


@pytest.mark.parametrize("step, expected", [
    ("set: {n: \"field(h, t) * 10\"}", 20),
    ("set: {n: \"field(h, 'might') + (1 if field(h, 'name') == 'Ana' else 0)\"}", 3),
])
def test_field_reads_by_name_in_lockstep(written, step, expected):
    r = written(BASE.replace("STEP", step) + "end: []\nreport: {n: n}\n")
    run = simulate(str(r.file), 10, seed=1, backend="lockstep")
    assert run.backend == "lockstep" and run.tally.values["n"].total == 10 * expected


def test_games_reading_different_names_each_get_their_own_field(written):
    # A 1 reads might (2): 21; a 2 reads index (1): 12. Nothing else can come out.
    step = "roll: {d: 1d2}\n          - set: {n: \"field(h, 'might' if sum(d) == 1 else 'index') * 10 + sum(d)\"}"
    r = written(BASE.replace("STEP", step) + "end: []\nreport: {n: n}\n")
    run = simulate(str(r.file), 400, seed=1, backend="lockstep")
    assert run.backend == "lockstep" and set(run.tally.values["n"].counts) == {12, 21}


BASE = """\
ruleset: f
title: F
entities:
  g:
    count: 1
    names: Ana
    fields: {might: 2, word: "'cut'"}
    tracks:
      health: {boxes: 3, marks: {bruise: "/", cut: X}}
state: {n: 0, t: {text: "might"}}
loop:
  - name: round
    max: 1
    steps:
      - for_each: h
        in: g
        do:
          - STEP
"""


@pytest.mark.parametrize("step, expected", [
    ("set: {n: \"field(h, t) * 10\"}", 20),
    ("set: {n: \"field(h, 'might') + (1 if field(h, 'name') == 'Ana' else 0)\"}", 3),
])
def test_field_reads_by_name(written, step, expected):
    game = Game.start(written(BASE.replace("STEP", step)), seed=1, auto=True)
    game.perform("round")
    assert game.values["n"] == expected


def test_a_type_formula_marks_with_the_type_it_gives(written):
    game = Game.start(written(BASE.replace("STEP", "{mark: h.health, type: h.word, count: 2}")), seed=1,
                      auto=True)
    game.perform("round")
    assert game.values["g"][0]["health"]["marks"] == ["cut", "cut"]


@pytest.mark.parametrize("step, message", [
    ("set: {n: \"field(h, 'mite')\"}", "'h' has no 'mite' (did you mean 'might'?)"),
    ("set: {n: \"field(h, 'health')\"}", "field(..) reads fields, and 'health' is a track of g"),
    ("set: {n: field(h)}", "field(who, name) takes 2 arguments, not 1"),
    ("{mark: h.health, type: cutt}", "takes marks of the types bruise, cut, not 'cutt' (did you mean 'cut'?) "
                                     "(or a formula giving one)"),
])
def test_misuse_is_refused_at_load(written, step, message):
    with pytest.raises(RulesetError, match=re.escape(message)):
        written(BASE.replace("STEP", step))


@pytest.mark.parametrize("step, message", [
    ("note: {t: mightx}\n          - set: {n: \"field(h, 'might') + field(h, t)\"}",
     "field(..): Ana has no field 'mightx' (did you mean 'might'?)"),
    ("{mark: h.health, type: \"'cuts' if h.might > 1 else 'cut'\", count: 1}", "h.health takes marks of the types bruise, cut, not "
                                                          "'cuts'"),
    ("set: {n: \"field(n, t)\"}", "field(..) reads a field of an instance or an entity, not '0'"),
])
def test_a_name_known_only_as_it_runs_is_checked_then_in_both_modes(written, step, message):
    r = written(BASE.replace("STEP", step))
    game = Game.start(r, seed=1, auto=True)
    with pytest.raises(RuleError, match=re.escape(message)):
        game.perform("round")
    assert game.values["n"] == 0
    with pytest.raises(Exception, match=re.escape(message)):
        play_game(simulation_program(r, resolve_params(r, {})), 1)
    with pytest.raises(SimulationError, match=re.escape(message)):
        simulate(str(r.file), 10, seed=1, backend="lockstep")


HARM = """\
ruleset: harm
title: Harm
entities:
  guard:
    tracks:
      health: {boxes: 5, marks: {bruise: "/", cut: X}}
loop:
  - name: round
    max: 3
    steps:
      - roll: {d: 1d6}
      - let: {kind: "'cut' if sum(d) >= 4 else 'bruise'"}
      - {mark: guard.health, type: kind, count: 1}
report: {cut: guard.health.cut, bruise: guard.health.bruise}
"""


def test_a_type_formula_plays_in_lockstep_as_untraced(written):
    from ruleset_engine.analysis.simulate import simulate
    from tests.runtime.test_lockstep import _moments, assert_parity

    path = written.path(HARM, "harm.yaml")
    assert_parity(str(path), 8_000, 2_000)
    # Each round a cut with probability 1/2: 1.5 cuts in 3 rounds; the SE of 8,000 games is 0.0097.
    run = simulate(str(path), 8_000, seed=3, backend="lockstep")
    mean, se = _moments(run.tally.values["cut"])
    assert abs(mean - 1.5) <= 5 * math.sqrt(0.75 / 8_000) and run.backend == "lockstep"
