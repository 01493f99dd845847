"""Before any game, a simulation loads and checks its ruleset (simulate.load_and_check); a sweep and a
comparison, which play the untraced program, also write it then (load_and_write_program), so that its
problems come first. The one checks and writes nothing, the other writes the program; both refuse a loop
action a simulation cannot play, with the same words."""

import textwrap

import pytest

from ruleset_engine.analysis import simulate
from ruleset_engine.analysis.simulate import SimulationError, load_and_check, load_and_write_program

RULESET = """\
    ruleset: t
    title: T
    params: {hits: {type: integer, default: 2}}
    state: {n: 0}
    loop:
      - name: round
        times: 2
        PARAMS
        steps: [{set: {n: n + params.hits}}]
    end: []
    report: {n: n}
    """


def written(tmp_path, params: str = "") -> str:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(RULESET).replace("PARAMS", params), encoding="utf-8")
    return str(path)


def programs_of(source: str) -> list:
    return [key for key in simulate._PROGRAMS if key[0] == source]


def test_load_and_check_writes_no_program_and_load_and_write_program_writes_one(tmp_path):
    source = written(tmp_path)
    ruleset, params = load_and_check(source, {"hits": 3})
    assert ruleset.id == "t" and params == {"hits": 3} and programs_of(source) == []
    ruleset, params = load_and_write_program(source, {"hits": 3})
    assert params == {"hits": 3} and len(programs_of(source)) == 1
    load_and_check(source, None)            # read afresh: the program written before is forgotten
    assert programs_of(source) == []


@pytest.mark.parametrize("prepare", [load_and_check, load_and_write_program])
def test_both_refuse_a_loop_action_a_simulation_cannot_play(tmp_path, prepare):
    source = written(tmp_path, "params: {bet: {type: integer}}")
    with pytest.raises(SimulationError, match="the loop action 'round' needs bet and has no default for it"):
        prepare(source, None)
    assert programs_of(source) == []
