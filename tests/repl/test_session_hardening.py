"""Sessions hardened (issue 24): a session on a read-only file system said so with the way on, hand-edited
values of the wrong kind refused at resume naming the entry and the field, a bounded number of questions
in one action, and entries that keep what changed rather than the whole game."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.repl.journal import JournalError
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, make_repl, run

DUSK = str(Path(sys.executable).parent / "dusk")


# ---- 12: a session on a read-only file system

def test_a_session_on_a_read_only_file_system_says_so_and_how_to_go_on(tmp_path):
    # A real read-only mount (a bind mount remounted read-only, in a user namespace of its own).
    repl, out = make_repl(GAMES["attack"], seed=3)
    run(repl, out, "auto 2")
    repl.session.close()
    (tmp_path / "rw").mkdir()
    (tmp_path / "ro").mkdir()
    shutil.copy(repl.session.journal.path, tmp_path / "rw" / "my game.dusk")
    data = tmp_path / "ro-data"
    (data / "sessions").mkdir(parents=True)
    shutil.copy(repl.session.journal.path, data / "sessions" / "kept.dusk")
    script = (f"mount --bind {tmp_path}/rw {tmp_path}/ro && mount -o remount,ro,bind {tmp_path}/ro && "
              f"mount --bind {data} {data} && mount -o remount,ro,bind {data} && "
              f"{DUSK} resume '{tmp_path}/ro/my game.dusk' -c state; echo rc=$?; {DUSK} sessions")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, DUSK_DATA_DIR=str(data)))
    path = f"{tmp_path}/ro/my game.dusk"
    assert done.stdout.startswith(
        f"{path} is a dusk session, but it cannot be played where it is: it is on a read-only file system, and "
        f"every command is saved into it as it is done. Copy it somewhere you can write (cp '{path}' "
        f"~/'my game.dusk') and resume the copy; it was left as it is\nrc=2\n"), done.stdout
    assert "not a dusk session" not in done.stderr + done.stdout and "Traceback" not in done.stderr
    # dusk sessions reads the sessions of a read-only data folder as they are.
    listed = [line for line in done.stdout.splitlines() if line.endswith("kept.dusk")]
    assert len(listed) == 1 and "attack-of-the-vampires" in listed[0] and "not a dusk session" not in listed[0]
    assert (tmp_path / "rw" / "my game.dusk").read_bytes() == (data / "sessions" / "kept.dusk").read_bytes()


# ---- 14: answers to one action replay it from its start: the questions of one action are bounded

MANY = str(Path(__file__).resolve().parents[1] / "rulesets" / "many-questions.yaml")


def test_an_action_asking_past_the_limit_of_questions_is_refused_and_undo_drops_it():
    from ruleset_engine.runtime.limits import DEFAULT_RUN_LIMITS

    assert DEFAULT_RUN_LIMITS.max_questions == 1_000
    repl, out = make_repl(MANY, seed=1)
    run(repl, out, "tally 20000")
    for _ in range(999):
        repl.run_line("7")
    assert repl.errors == 0 and repl.decision is not None
    text = run(repl, out, "7")
    assert text == ("tally asks more than 1,000 questions (the most one action may ask at the table, as each answer "
                    "replays it from its start): it cannot be finished; undo drops it (the game is as before it)\n")
    assert repl.decision is not None and repl.session.game.values["total"] == 0
    run(repl, out, "undo")
    assert repl.decision is None and repl.session.game.pending is None
    # An action within the limit is played to its end, every answer counted.
    run(repl, out, "tally 3", "1", "2", "3")
    assert repl.session.game.values["total"] == 6 and repl.errors == 1
    repl.session.close()


def test_auto_answers_do_not_replay_and_are_not_bounded():
    repl, out = make_repl(MANY, seed=1)
    run(repl, out, "tally 5000", "auto")
    assert repl.errors == 0 and repl.session.game.values["total"] == 5000
    repl.session.close()
