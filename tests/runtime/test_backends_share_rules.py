"""Rules both simulation backends need, kept in one place beside their entry and called by both: the
untraced program's helper and the lockstep backend's vector form give the same answer, the same
message, for each of them (issue 23, 2): create:'s name rule (steps/instances.py), finding an
instance by its name (instance_names.py), the loop's limits (limits.py) and what end: LEVEL says
where no iteration runs (loop_plan.py).

Each case runs the same ruleset under both backends: both play it (with the same report: these
games roll no dice), or both stop with the same message at the same place.
"""

from __future__ import annotations

import pytest

from ruleset_engine.analysis.simulate import SimulationError, simulate


def _outcome(path: str, backend: str):
    """('ok', the report's totals) or ('stopped', what the run says from its place on)."""
    try:
        run = simulate(path, 3, seed=1, backend=backend)
    except SimulationError as err:
        message = str(err)
        assert " stopped: " in message, message
        return "stopped", message.split(" stopped: ", 1)[1]
    return "ok", {key: (h.n, h.total) for key, h in run.tally.values.items()}


def _both(written, text: str):
    path = written.path(text, "rules.yaml")
    untraced, lockstep = _outcome(str(path), "untraced"), _outcome(str(path), "lockstep")
    assert untraced == lockstep, f"untraced: {untraced}\nlockstep: {lockstep}"
    return untraced


def _named(first: str, second: str | None = None) -> str:
    """One round that makes an instance named `first` (YAML double-quoted text) and maybe a second."""
    second_step = f'      - create: character\n        name: "{second}"\n' if second is not None else ""
    return ("ruleset: names\ntitle: names (test)\n"
            "entities:\n  character:\n    count: 0\n    max: 4\n    fields: {nerve: 1}\n"
            "state: {made: 0}\n"
            "loop:\n  - name: round\n    times: 1\n    steps:\n"
            f'      - create: character\n        name: "{first}"\n{second_step}'
            "      - set: {made: made + 1}\n"
            "end: []\nreport: {made: made}\n")


@pytest.mark.parametrize("name", [
    r"Ana\_Bel",         # a no-break space inside: a space, on one line
    "Ana Bel",
    r"\u00C9lodie",      # a letter with its accent
])
def test_a_name_on_one_line_is_made_by_both_backends(written, name):
    assert _both(written, _named(name)) == ("ok", {"made": (3, 3)})


@pytest.mark.parametrize("name, said", [
    # The line separator U+2028 breaks the line: today's untraced helper took it, lockstep refused it.
    (r"Ana\LBel", "the name of a new 'character' is 1 to 80 characters on one line, not 'Ana\\u2028Bel'"),
    (r"Ana\PBel", "the name of a new 'character' is 1 to 80 characters on one line, not 'Ana\\u2029Bel'"),
    (r"Ana\tBel", "the name of a new 'character' is 1 to 80 characters on one line, not 'Ana\\tBel'"),
    (r"Ana\u200BBel", "the name of a new 'character' is 1 to 80 characters on one line, not 'Ana\\u200bBel'"),
    ("B\u03bfb", "the name 'B\u03bfb' of a new 'character': it mixes Latin and Greek letters"),
    ("x" * 81, "is 1 to 80 characters on one line"),
])
def test_a_name_either_backend_refuses_the_other_refuses_with_the_same_words(written, name, said):
    kind, message = _both(written, _named(name))
    assert kind == "stopped" and said in message, message
    assert "(at loop[0].steps[0])" in message, message


def test_a_name_that_looks_like_one_taken_is_refused_by_both(written):
    kind, message = _both(written, _named("Ana", "\uff21\uff2e\uff21"))      # full-width ＡＮＡ
    assert kind == "stopped" and "the group 'character' has an instance named 'Ana' already" in message


def test_a_full_group_is_refused_by_both(written):
    text = _named("A", "B").replace("max: 4", "max: 1")
    kind, message = _both(written, text)
    assert kind == "stopped" and "the group 'character' holds 1 instances, as many as it may" in message


PAIRS = """ruleset: pairs
title: pairs (test)
entities:
  character:
    count: 2
    names: "C{index}"
    fields: {nerve: 1}
pairs:
  link:
    between: character
    fields: {strength: 0}
state: {seen: 0}
loop:
  - name: round
    times: 2
    steps:
      - set: {seen: "link(WHO, 'C1').strength + 1"}
end: []
report: {seen: seen}
"""


def test_an_instance_is_found_by_its_name_in_both_backends(written):
    assert _both(written, PAIRS.replace("WHO", "'C2'")) == ("ok", {"seen": (3, 3)})


def test_a_name_no_instance_has_says_so_in_both_backends_naming_the_call(written):
    kind, message = _both(written, PAIRS.replace("WHO", "'W9'"))
    assert kind == "stopped" and "link(..): no instance is named 'W9'" in message, message


DEEP = """ruleset: deep
title: deep (test)
state: {n: 0}
procedures:
  down:
    steps:
      - set: {n: n + 1}
      - call: down
loop:
  - name: round
    times: 1
    steps:
      - call: down
end: []
report: {n: n}
"""


def test_calls_nested_too_deep_say_the_same_in_both_backends(written):
    kind, message = _both(written, DEEP)
    assert kind == "stopped" and "calls nested more than 64 deep: 'down' calls itself without end?" in message


def test_end_level_inside_a_levels_block_says_the_same_in_both_backends(written):
    text = ("ruleset: ends\ntitle: ends (test)\nstate: {n: 0}\n"
            "procedures:\n  leave:\n    steps:\n      - end: round\n"
            "loop:\n  - name: round\n    times: 2\n    begin:\n      - call: leave\n"
            "    steps:\n      - set: {n: n + 1}\nend: []\nreport: {n: n}\n")
    kind, message = _both(written, text)
    assert kind == "stopped" and "end: round inside the begin: of loop level 'round' is not allowed" in message
    assert "(at procedures.leave.steps[0])" in message


def test_end_level_in_setup_says_the_same_in_both_backends(written):
    text = ("ruleset: ends\ntitle: ends (test)\nstate: {n: 0}\n"
            "procedures:\n  leave:\n    steps:\n      - end: round\n"
            "setup:\n  - call: leave\n"
            "loop:\n  - name: round\n    times: 2\n    steps:\n      - set: {n: n + 1}\nend: []\nreport: {n: n}\n")
    kind, message = _both(written, text)
    assert kind == "stopped" and "end: round is not allowed in setup: (no loop runs yet)" in message
    assert "(at procedures.leave.steps[0])" in message


# ---- a call's errors: one binding (dice/binding.py), the same words and place from every evaluator


def _formula(expression: str, state: str = "{k: -1}") -> str:
    return ("ruleset: calls\ntitle: calls (test)\n"
            f"state: {state}\n"
            "loop:\n  - name: round\n    times: 1\n    steps:\n"
            f"      - let: {{v: \"{expression}\"}}\n"
            "end: []\nreport: {k: k}\n")


@pytest.mark.parametrize("expression, said", [
    # A pool left empty: the vector form names the call and its pool, at the call, as the untraced helper.
    ("highest(keep(2d6, > 6)) + 1",
     "highest(keep(2d6, > 6)) of an empty pool: give a default, as in highest(keep(2d6, > 6), default=0)"),
    ("lowest(drop(3d6, <= 6))",
     "lowest(drop(3d6, <= 6)) of an empty pool: give a default, as in lowest(drop(3d6, <= 6), default=0)"),
    # A count below 0 read from the game: named with the first game's value, at the argument.
    ("sum(highest(3d6, k))", "highest(..) needs a count of 0 or more, not -1"),
])
def test_a_vector_forms_error_names_the_call_as_the_untraced_helper_does(written, expression, said):
    kind, message = _both(written, _formula(expression))
    assert kind == "stopped" and said in message, message
    # The caret lines are the same too (_both compared the whole message): the place is the call's.
    assert "^" in message, message
