"""A local read where some way to it does not set it (set in one branch of an if:, or in a loop that
may not run) is refused by the checker, at the place of the read (file:line:col, caret), in words a
designer reads; the same local set on every way (both branches, before the if:, a branch that
ends the block, a loop that surely runs) is accepted. Places worked out by hand from the YAML text."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ruleset_engine.ruleset import RulesetError, load

ROOT = Path(__file__).resolve().parents[2]
HEAD = "ruleset: t\ntitle: T\nstate: {n: 0}\n"
UNSET = ("'{name}' is not always set here: it is set only on some ways to this step (in one branch of an if:, "
         "or in a loop that may not run); give it a value before, or on every branch")


def write(tmp_path, body: str) -> Path:
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return path


def problems(tmp_path, body: str) -> list[str]:
    path = write(tmp_path, body)
    with pytest.raises(RulesetError) as info:
        load(str(path))
    return [str(p).split("/")[-1] for p in info.value.problems]


def accepted(tmp_path, body: str) -> None:
    assert load(str(write(tmp_path, body))).actions


ONE_BRANCH = """\
    actions:
      go:
        steps:
          - roll: {d: 1d6}
          - if: sum(d) > 3
            then:
              - let: {bonus: 2}
          - set: {n: n + bonus}
    """


def test_a_local_set_in_one_branch_is_refused_where_it_is_read(tmp_path):
    # line 11 is the set: (`      - set: {n: n + bonus}` once dedented): n + bonus starts at column 18, bonus at 22
    assert problems(tmp_path, ONE_BRANCH) == [
        f"r.yaml:11:22: {UNSET.format(name='bonus')} (at actions.go.steps[2].set.n)\n  n + bonus\n      ^~~~~"]


def test_dusk_check_refuses_it_with_its_place_and_caret(tmp_path):
    path = write(tmp_path, ONE_BRANCH)
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "check", str(path)], capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 1 and "Traceback" not in out.stderr + out.stdout
    said = out.stdout + out.stderr
    assert f"{path}:11:22: {UNSET.format(name='bonus')}" in said
    assert "  n + bonus\n      ^~~~~\n" in said


@pytest.mark.parametrize("steps", [
    # set on both branches
    """\
          - if: sum(d) > 3
            then: [{let: {bonus: 2}}]
            else: [{let: {bonus: 0}}]
    """,
    # set before the if:, set again in a branch
    """\
          - let: {bonus: 0}
          - if: sum(d) > 3
            then: [{set: {bonus: 2}}]
    """,
    # the other branch never runs through: it ends the action
    """\
          - if: sum(d) > 3
            then: [{let: {bonus: 2}}]
            else: [{say: "nothing"}, {return: 0}]
    """,
    # a loop that surely runs: a number of times written as a number, or until:
    """\
          - repeat: {times: 2}
            do: [{let: {bonus: 1}}]
    """,
    """\
          - repeat: {until: bonus > 1, max: 5}
            do: [{roll: {bonus: 1d6}}]
    """,
    # set in both branches of an if: inside a branch of another, and after it on the other
    """\
          - if: sum(d) > 3
            then:
              - if: sum(d) > 5
                then: [{let: {bonus: 3}}]
                else: [{let: {bonus: 2}}]
            else: [{let: {bonus: 0}}]
    """,
], ids=["both branches", "before the if", "the other branch ends", "times 2", "until", "nested ifs"])
def test_a_local_set_on_every_way_is_accepted(tmp_path, steps):
    accepted(tmp_path, "actions:\n  go:\n    steps:\n      - roll: {d: 1d6}\n"
             + textwrap.indent(textwrap.dedent(steps), "      ")
             + "      - set: {n: n + bonus}\n")


@pytest.mark.parametrize("steps, where", [
    # a loop that may run no time: a number of times read as it runs, a pool, a while:
    ("""\
          - repeat: {times: n}
            do: [{let: {bonus: 1}}]
    """, "steps[2]"),
    ("""\
          - for_each: f
            in: d
            do: [{let: {bonus: f}}]
    """, "steps[2]"),
    ("""\
          - repeat: {while: n < 3, max: 3}
            do: [{let: {bonus: 1}}]
    """, "steps[2]"),
    # set in only one branch of an inner if:
    ("""\
          - if: sum(d) > 3
            then:
              - if: sum(d) > 5
                then: [{let: {bonus: 3}}]
            else: [{let: {bonus: 0}}]
    """, "steps[2]"),
], ids=["times read as it runs", "for_each", "while", "one inner branch"])
def test_a_local_some_way_does_not_set_is_refused(tmp_path, steps, where):
    found = problems(tmp_path, "actions:\n  go:\n    steps:\n      - roll: {d: 1d6}\n"
                     + textwrap.indent(textwrap.dedent(steps), "      ")
                     + "      - set: {n: n + bonus}\n")
    assert len(found) == 1 and UNSET.format(name="bonus") in found[0] and \
        f"(at actions.go.{where}.set.n)" in found[0], found


def test_the_other_branch_may_not_read_what_one_branch_set(tmp_path):
    # line 9: `        else: [{set: {n: bonus}}]` once dedented: bonus starts at column 26
    assert problems(tmp_path, """\
        actions:
          go:
            steps:
              - if: n > 3
                then: [{let: {bonus: 2}}]
                else: [{set: {n: bonus}}]
        """) == [f"r.yaml:9:26: {UNSET.format(name='bonus')} (at actions.go.steps[0].else[0].set.n)\n"
                 "  bonus\n  ^~~~~"]


def test_a_text_that_reads_it_is_refused_at_the_placeholder(tmp_path):
    # line 10: `      - say: "bonus {bonus}"` once dedented: the placeholder's name starts at column 22
    assert problems(tmp_path, """\
        actions:
          go:
            steps:
              - if: n > 3
                then:
                  - let: {bonus: 2}
              - say: "bonus {bonus}"
        """) == [f"r.yaml:10:22: {UNSET.format(name='bonus')} (at actions.go.steps[1].say)\n  bonus\n  ^~~~~"]


def test_while_may_not_read_the_count_repeat_sets_after_it(tmp_path):
    # while: is read before each time sets as: (the first time, before any): line 7,
    # `      - repeat: {while: i < 3, max: 5}` once dedented, `i` at column 25
    found = problems(tmp_path, """\
        actions:
          go:
            steps:
              - repeat: {while: i < 3, max: 5}
                as: i
                do: [{set: {n: n + i}}]
        """)
    assert found == [f"r.yaml:7:25: {UNSET.format(name='i')} (at actions.go.steps[0].repeat.while)\n  i < 3\n  ^"]


def test_until_reads_what_the_loop_sets_and_its_count(tmp_path):
    accepted(tmp_path, """\
        actions:
          go:
            steps:
              - repeat: {until: "sum(r) + i >= 6", max: 5}
                as: i
                do: [{roll: {r: 1d6}}]
        """)


def test_a_field_of_an_instance_some_way_does_not_bind_is_refused_where_it_is_written(tmp_path):
    found = problems(tmp_path, """\
        entities:
          guard: {count: 2, fields: {life: 3}}
        actions:
          go:
            steps:
              - if: n > 0
                then: [{let: {g: "guard[1]"}}]
              - set: {g.life: 0}
        """)
    assert len(found) == 1 and found[0].startswith("r.yaml:11:") and UNSET.format(name="g") in found[0], found


def test_a_move_from_or_to_a_local_set_in_one_branch_is_refused(tmp_path):
    # move: reads both of its places (it takes from one and adds to the other): line 10 is the move
    # (`      - move: {count: 1, from: have, to: n}` once dedented), the key from: at column 26
    body = """\
    actions:
      go:
        steps:
          - roll: {d: 1d6}
          - if: sum(d) > 3
            then: [{let: {have: 3}}]
          - move: {count: 1, from: have, to: n}
    """
    assert problems(tmp_path, body) == [
        f"r.yaml:10:26: move from: {UNSET.format(name='have')} (at actions.go.steps[2].move.from)"]
    accepted(tmp_path, body.replace("then: [{let: {have: 3}}]", "then: [{set: {n: 1}}]").replace(
        "          - roll: {d: 1d6}\n", "          - roll: {d: 1d6}\n          - let: {have: 3}\n"))


def test_a_mark_of_an_instance_made_in_one_branch_is_refused(tmp_path):
    # line 16 is the mark: step (`      - mark: c.health` once dedented), its key at column 9
    body = """\
    entities:
      character:
        count: 0
        max: 5
        names: "{'X'}"
        tracks: {health: {boxes: 5}}
    actions:
      go:
        steps:
          - roll: {d: 1d6}
          - if: sum(d) > 3
            then: [{create: character, as: c}]
          - mark: c.health
    """
    assert problems(tmp_path, body) == [
        f"r.yaml:16:9: mark: {UNSET.format(name='c')} (at actions.go.steps[2].mark)"]
    accepted(tmp_path, body.replace("            then: [{create: character, as: c}]\n          - mark: c.health\n",
                                    "            then: [{create: character, as: c}, {mark: c.health}]\n"))


def test_a_refused_binding_is_said_once_not_again_where_it_is_read(tmp_path):
    # roll: {n: ..} would hide the state variable n: refused at its key (line 7, column 16); the say:
    # that reads n after it adds no second problem (it was the same mistake)
    body = """\
    actions:
      go:
        steps:
          - roll: {n: 1d6}
          - say: "{n}"
    """
    found = problems(tmp_path, body)
    assert len(found) == 1 and found[0].startswith("r.yaml:7:16: roll: 'n' is a state variable"), found


# A local set in one branch (lines 8-10), then bound again at the top by a step or binding the
# checker refuses: that refusal is the one problem; the read after it (line 12, 13 or 14) adds none.
BOUND_IN_ONE_BRANCH = """\
    actions:
      go:
        steps:
          - roll: {d: 1d6}
          - if: sum(d) > 3
            then:
              - let: {x: 2}
"""


def test_a_let_whose_value_is_refused_is_said_once_not_again_where_it_is_read(tmp_path):
    # the let: is accepted, its value refused (line 11, `1 +` from column 20): x counts as set after it
    found = problems(tmp_path, BOUND_IN_ONE_BRANCH + "          - let: {x: \"1 +\"}\n          - say: \"{x}\"\n")
    assert len(found) == 1 and found[0].startswith("r.yaml:11:22: expected a value after '+'"), found


def test_a_refused_step_binding_a_name_already_bound_is_said_once(tmp_path):
    # the ask: is refused by the schema (no auto:, a stray key): x, which it would set, counts as set after it
    found = problems(tmp_path, BOUND_IN_ONE_BRANCH + "          - ask: How many?\n            as: x\n"
                                                      "            bogus: 1\n          - say: \"{x}\"\n")
    assert [f.split(" (at ")[0] for f in found] == ["r.yaml:11:9: missing key 'auto'",
                                                     "r.yaml:13:9: unknown key 'bogus' in a step"], found


def test_a_binding_refused_in_one_branch_is_said_once_in_the_other_too(tmp_path):
    # roll: {n: ..} in then: is refused (it would hide the state variable n); else: reads n: no second problem
    body = """\
    actions:
      go:
        steps:
          - roll: {d: 1d6}
          - if: sum(d) > 3
            then:
              - roll: {n: 1d6}
            else:
              - say: "{n}"
          - say: "{n}"
    """
    found = problems(tmp_path, body)
    assert len(found) == 1 and found[0].startswith("r.yaml:10:20: roll: 'n' is a state variable"), found
