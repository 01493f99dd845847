"""At the table, a loop's counters (issue 11, items 6 and 11): `state` shows each level's iteration
and how many are done, `roll` and `prob` read `loop.LEVEL.done`, Tab offers both names, and an
action done once per iteration of a level says so."""

from ruleset_engine.repl.completer import TableCompleter
from tests.repl.conftest import RULESETS, make_repl, run

GAME = str(RULESETS / "loop-counters.yaml")


def test_state_roll_and_completion_read_both_counters():
    repl, out = make_repl(GAME, seed=2)
    run(repl, out, "round", "round", "round")       # night 2, its first round played
    state = run(repl, out, "state")
    assert any(line.split() == ["│", "loop.night", "│", "2", "(1", "done)", "│"] for line in state.splitlines())
    assert any(line.split() == ["│", "loop.round", "│", "2", "(1", "done)", "│"] for line in state.splitlines())
    # 1 night done, round 2 being played: 1 * 10 + 2
    assert "loop.night.done * 10 + loop.round = 12" in run(repl, out, "roll loop.night.done * 10 + loop.round")
    assert "100%" in run(repl, out, "prob loop.night.done == 1")
    names = TableCompleter(repl).candidates("roll ", "")
    assert {"loop.night", "loop.night.done", "loop.round", "loop.round.done"} <= set(names)


def test_help_and_a_refusal_say_once_per():
    repl, out = make_repl(str(RULESETS / "toolkit-clock.yaml"))
    assert "done at most once per night" in run(repl, out, "help feed")
    run(repl, out, "feed")
    assert "feed is done once per night, and it was done in this one" in run(repl, out, "feed")
