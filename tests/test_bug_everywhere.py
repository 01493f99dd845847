"""A bug in dusk is no ruleset error: injected into one helper (every form of the `sum` function,
replaced in a subprocess before dusk runs), it gives the same exit status (70), the same one line
naming bugs.log, and a log holding the injected exception, from every command and backend."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

RULESET = textwrap.dedent("""\
    ruleset: a-sum-each-round
    title: A sum each round (test)
    state: {total: 0}
    loop:
      - name: round
        times: 3
        steps:
          - set: {total: total + sum(2d6)}
    end:
      - when: loop.round.done == 3
        result: done
    report: {total: total}
""")

# The bug: every form of `sum` (the primitive both table and simulation run, the vector form of
# lockstep, the exact form of prob) raises an error no rule could cause. Then the command runs.
INJECT = textwrap.dedent("""\
    import sys
    from ruleset_engine.dice.functions import FUNCTIONS

    def broken(*args, **kwargs):
        raise ZeroDivisionError("an injected bug")

    for form in FUNCTIONS["sum"].forms:
        for field in ("primitive", "exact", "vector"):
            object.__setattr__(form, field, broken)
    from ruleset_engine.cli import main
    sys.exit(main(sys.argv[1:]))
""")

COMMANDS = {
    "roll": ["roll", "sum(2d6)", "--seed", "1"],
    "play": ["play", "{ruleset}", "--seed", "1", "-c", "round"],
    "simulate-lockstep": ["simulate", "{ruleset}", "-n", "20", "--workers", "1", "--backend", "lockstep"],
    "simulate-untraced": ["simulate", "{ruleset}", "-n", "20", "--workers", "1", "--backend", "untraced"],
    "prob": ["prob", "sum(2d6)"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bug_gives_70_and_its_log_from_every_command(command, tmp_path):
    ruleset = tmp_path / "a-sum-each-round.yaml"
    ruleset.write_text(RULESET, encoding="utf-8")
    data = tmp_path / "data"
    args = [word.format(ruleset=ruleset) for word in COMMANDS[command]]
    env = {"DUSK_DATA_DIR": str(data), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    out = subprocess.run([sys.executable, "-c", INJECT, *args], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 70, (out.returncode, out.stdout, out.stderr)
    shown = out.stdout + out.stderr
    assert "Traceback" not in shown and "an injected bug" not in shown
    assert f"something went wrong inside dusk (a bug); the details are in {data / 'bugs.log'}" in shown.lower()
    log = (data / "bugs.log").read_text(encoding="utf-8")
    assert "ZeroDivisionError: an injected bug" in log
    if command != "roll" and command != "prob":     # run in a ruleset: the bug is said at its place
        assert "a bug in dusk" in log and "a-sum-each-round.yaml:" in log


def test_a_bug_crosses_from_a_worker_whole():
    """multiprocessing pickles a worker's exception: the bug arrives with its message and place."""
    import pickle

    from ruleset_engine.errors import DuskBug, DuskError
    from ruleset_engine.ruleset.problems import Position

    bug = DuskBug.of(KeyError("x"), Position("game.yaml", 3, 9), ("loop", 0), "its lockstep backend")
    again = pickle.loads(pickle.dumps(bug))
    assert str(again) == ("game.yaml:3:9: dusk failed here (a bug in dusk, in its lockstep backend, not in the "
                          "ruleset): KeyError: 'x'")
    assert again.path == ("loop", 0) and not isinstance(again, DuskError)
