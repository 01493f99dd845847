"""A procedure that returns a record (`return: {successes: s, critical: c}`), read as r.successes
after `call: ... as: r`; its fields checked at load. Expected values are worked out by hand."""

import textwrap
from pathlib import Path

import pytest

import ruleset_engine as dusk
from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.runtime import resolve_params

RULESET = Path(__file__).resolve().parents[1] / "rulesets" / "procedure-record.yaml"


def test_the_caller_reads_each_field():
    game = dusk.Game.start(load(str(RULESET)), rng=ScriptedDice([10, 10, 3, 1, 2, 3]))
    game.perform("round")
    # 10, 10, 3 at difficulty 6: two successes, two tens (a critical), margin 2 - 1
    assert (game.values["total"], game.values["criticals"], game.values["last_margin"]) == (2, 1, 1)
    game.perform("round")
    # 1, 2, 3: no success, so the early return: margin 0 - 6
    assert (game.values["total"], game.values["criticals"], game.values["last_margin"]) == (2, 1, -6)
    assert [e["text"] for e in game.log if e["kind"] == "say"] == [
        "2 successes and a critical, margin 1", "0 successes, margin -6"]


def test_a_simulation_reads_the_same_record():
    ruleset = load(str(RULESET))
    program = simulation_program(ruleset, resolve_params(ruleset, {}))
    for seed in range(5):
        result, _, report, _ = play_game(program, seed)
        game = dusk.Game.start(ruleset, seed=seed)
        while not game.over:
            game.perform("round")
        assert report == game.report()


HEAD = "ruleset: t\ntitle: T\nstate: {x: 0}\n"


def problems(tmp_path, text):
    (tmp_path / "r.yaml").write_text(HEAD + textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(tmp_path / "r.yaml"))
    return [str(p) for p in info.value.problems]


def test_a_field_the_record_lacks_is_refused_where_it_is_read(tmp_path):
    found = problems(tmp_path, """\
        procedures:
          two:
            steps: [{return: {hits: 1, ones: 0}}]
        setup:
          - {call: two, as: r}
          - set: {x: r.hit}
        """)
    assert any("r.yaml:9:14: 'r' is the record 'two' returns, with hits, ones: it has no 'hit' "
               "(did you mean 'hits'?)" in p for p in found), found


def test_every_return_gives_the_same_fields(tmp_path):
    found = problems(tmp_path, """\
        procedures:
          mixed:
            params: [n]
            steps:
              - if: n > 1
                then: [{return: {hits: 1}}]
              - if: n > 2
                then: [{return: 3}]
              - return: {hits: 1, ones: 2}
        """)
    assert any("procedure 'mixed' returns a record elsewhere (hits): return one here too" in p for p in found), found
    assert any("r.yaml:12:17: procedure 'mixed' returns a record of hits elsewhere, and hits, ones here" in p
               for p in found), found
