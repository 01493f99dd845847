"""The loop plan (runtime/loop_plan.py): the order of a round and of a turn is said once, as ops, and
both machines have a handler for every op the plan gives them (machine.WRITE writes it, lockstep.RUN
runs it). The ops below are worked out by hand from the ruleset's text."""

from __future__ import annotations

from ruleset_engine.runtime import lockstep, loop_plan, machine


RULESET = """ruleset: plan-order
title: Plan order (test)
state: {n: 0}
loop:
  - name: night
    times: 2
    finish: [{set: {n: n + 1}}]
  - name: turn
    max: 3
    begin: [{set: {n: n + 1}}]
    steps: [{set: {n: n + 1}}]
triggers:
  - when: n > 5
    do: [{set: {n: 0}}]
end:
  - when: n > 100
    result: done
"""


def ops(move) -> list:
    return [(op.kind, op.level, op.part) for op in move]


def test_a_round_is_the_action_the_triggers_the_endings_the_jumped_level_then_the_loop(written):
    plan = loop_plan.plan(written(RULESET), timed=False)
    assert ops(plan.round) == [
        ("args", 0, ""), ("action", 0, "loop"), ("triggers", 0, ""), ("endings", 0, "stop"), ("jumped", 0, ""),
        # the innermost level moves on: its iteration ends, the next begins (its begin:), or it completes
        ("event", 1, "end"), ("moves_on", 1, ""), ("if_done", 1, "endings"), ("event", 1, "begin"),
        ("block", 1, "begin"),
        ("endings", 1, ""),         # again: a block ran
    ]
    # A turn at the table: no arguments to read (the table bound them), the innermost level's advance
    # only when the action plays it.
    assert ops(plan.turn) == [("action", 0, "chosen"), ("triggers", 0, ""), ("endings", 0, "stop"),
                              ("jumped", 0, ""), ("played", 1, "")]
    assert ops(plan.advance[0]) == [("event", 1, "end"), ("event", 0, "end"), ("block", 0, "finish"),
                                    ("next", 0, "")]


def test_without_triggers_or_blocks_the_round_says_only_what_runs(written):
    text = RULESET.replace("    begin: [{set: {n: n + 1}}]\n", "").split("triggers:")[0] + \
        "end:\n  - when: n > 100\n    result: done\n"
    plan = loop_plan.plan(written(text), timed=False)
    assert ops(plan.round) == [
        ("args", 0, ""), ("action", 0, "loop"), ("endings", 0, "stop"), ("jumped", 0, ""),
        ("event", 1, "end"), ("moves_on", 1, ""), ("if_done", 1, "endings"), ("event", 1, "begin"),
    ]


def test_both_machines_have_a_handler_for_every_op(written):
    plan = loop_plan.plan(written(RULESET), timed=True)
    moves = [plan.round, *plan.start, *plan.next, *plan.complete, *plan.advance]
    kinds = {op.kind for move in moves for op in move}
    assert kinds <= set(machine.WRITE) and kinds <= set(lockstep.RUN), kinds - set(machine.WRITE) - set(lockstep.RUN)
    assert {op.kind for op in plan.turn} <= set(machine.WRITE)     # a turn is the table's: written only
    assert {"args", "action", "triggers", "endings", "jumped", "clock"} <= kinds
