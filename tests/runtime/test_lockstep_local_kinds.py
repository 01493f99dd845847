"""What a name holds, known before any game (runtime/vectorizable.py): a conditional whose side is a
local, a state variable or a procedure parameter that holds a pool while the other side is a number
is refused before any game, with its place, so `--backend auto` plays the ruleset untraced up front
(before, the lockstep backend took it and stopped once a batch's games took both sides); so is a name
bound to a pool in one place and to a number in another. A name some binding leaves open (an answer)
stays unknown, and a conditional whose sides agree is played in lockstep."""

from __future__ import annotations

import pytest

from ruleset_engine.analysis.simulate import simulate
from ruleset_engine.ruleset import load
from ruleset_engine.runtime.vectorizable import refusal

RULESET = """ruleset: local-sides
title: Local sides (test)
state: {total: 0, kept: "[]"}
procedures:
  grab:
    params: [got]
    steps:
      - set: {total: "total + (got if total > 3 else 1)"}
loop:
  - name: turn
    max: 5
    steps:
      - let: {r: 2d6}
      - let: {same: r}
{step}
triggers:
  - when: total > 30
    do: [{let: {c: 3}}, {set: {total: total + c}}]
end:
  - when: total > 40
    result: done
report: {total: total}
"""

REFUSED = "a conditional giving a pool in some games and a number in others"


@pytest.mark.parametrize("step, line, column", [
    # A local bound to a pool (through another local), the other side a number: the sides' kinds differ
    # in the games whose test differs.
    ('      - let: {c: "same if sum(r) > 6 else 3"}\n      - set: {total: total + c}', 15, 19),
    # A state variable that holds a pool wherever it is set.
    ('      - set: {kept: "[r, 1d4]"}\n      - set: {total: "total + (kept if total > 9 else 2)"}', 16, 23),
    # A procedure's parameter, given a pool by its one call.
    ("      - call: grab\n        with: {got: r}", 8, 23),
    # A local that is a pool here and a number in the trigger's steps: either, so refused too.
    ('      - let: {c: "r"}\n      - set: {total: "total + (c if total > 6 else 3)"}', 16, 23),
])
def test_a_pool_or_a_number_by_game_is_refused_before_any_game(written, step, line, column):
    path = written.path(RULESET.replace("{step}", step), "local-sides.yaml")
    ruleset = load(str(path))
    found = refusal(ruleset, {})
    assert found is not None and REFUSED in found.what, found
    # Placed at the formula (its line and column in the file), the caret under the conditional.
    assert found.error.where is not None and (found.error.where.line, found.error.where.column) == (line, column)
    text, caret = str(found).splitlines()[-2:]
    assert text[caret.index("^"):].lstrip("(").split(" if ")[0] in ("same", "kept", "got", "c"), str(found)
    run = simulate(str(path), 200, seed=3, backend="auto")        # --backend auto: untraced, chosen before any game
    assert run.backend == "untraced" and run.tally.games == 200


@pytest.mark.parametrize("step", [
    # Both sides numbers: the local holds a pool's total.
    '      - let: {c: "sum(r)"}\n      - set: {total: "total + (c if total > 6 else 3)"}',
    # Both sides pools.
    '      - set: {total: "total + sum(same if total > 6 else [3])"}',
    # A local some binding leaves open (an answer, given by auto:): known only as the game runs.
    '      - ask: "How many?"\n        as: d\n        number: {min: 0, max: 5}\n        auto: 2\n'
    '      - set: {total: "total + (d if total > 6 else 3)"}',
])
def test_sides_of_one_kind_or_unknown_are_played_in_lockstep(written, step):
    path = written.path(RULESET.replace("{step}", step), "local-sides.yaml")
    assert refusal(load(str(path)), {}) is None
    run = simulate(str(path), 200, seed=3, backend="auto")
    assert run.backend == "lockstep" and run.tally.games == 200
