"""Which session `dusk resume` continues, and `dusk sessions`: the saved sessions, the last played first."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from ruleset_engine.repl.journal import last_session, list_sessions
from ruleset_engine.repl.session import Session

DUSK = str(Path(sys.executable).parent / "dusk")
pytestmark = pytest.mark.timeout(120)


def dusk(*args, data_dir, input=None):
    return subprocess.run([DUSK, *args], capture_output=True, text=True, input=input, timeout=60,
                          env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)))


def test_only_an_interactive_session_moves_the_pointer(data_dir):
    played, _ = Session.new("attack-of-the-vampires", seed=1, interactive=True)
    played.close()
    assert last_session() == played.journal.path.resolve()
    scripted, _ = Session.new("attack-of-the-vampires", seed=2)
    scripted.close()
    Session.resume(scripted.journal.path).close()
    assert last_session() == played.journal.path.resolve()
    Session.resume(scripted.journal.path, interactive=True).close()
    assert last_session() == scripted.journal.path.resolve()


def test_without_a_pointer_resume_takes_the_newest_session_played_at_the_prompt(data_dir):
    played, _ = Session.new("attack-of-the-vampires", seed=1, interactive=True)
    played.close()
    time.sleep(0.01)
    scripted, _ = Session.new("attack-of-the-vampires", seed=2)
    scripted.close()
    (data_dir / "last-session").unlink()
    assert last_session() == played.journal.path.resolve()


def test_scripts_pipes_and_simulate_leave_the_pointer_alone(data_dir):
    out = dusk("play", "--seed", "3", "-c", "round", data_dir=data_dir)
    assert out.returncode == 0
    out = dusk("resume", data_dir=data_dir, input="state\n")
    assert out.returncode == 2 and "no session played at the prompt" in out.stdout
    assert "dusk sessions lists them" in out.stdout

    child = pexpect.spawn(DUSK, ["play", "--seed", "5"], encoding="utf-8", timeout=30, dimensions=(40, 120),
                          env=dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1",
                                   DUSK_DATA_DIR=str(data_dir)))
    child.expect_exact("attack-of-the-vampires>")
    child.sendline("round")
    child.expect("Search")
    child.expect_exact("attack-of-the-vampires>")
    child.sendeof()
    child.expect("Saved in")
    child.expect(pexpect.EOF)
    pointer = (data_dir / "last-session").read_text()

    assert dusk("play", "--seed", "6", "-c", "round; round", data_dir=data_dir).returncode == 0
    assert dusk("play", "--seed", "8", data_dir=data_dir, input="round\n").returncode == 0
    assert dusk("resume", "-c", "round", data_dir=data_dir).returncode == 0
    assert dusk("simulate", "attack-of-the-vampires", "-n", "3", data_dir=data_dir).returncode == 0
    assert (data_dir / "last-session").read_text() == pointer
    resumed = dusk("resume", "-c", "state", data_dir=data_dir)
    assert "Resumed, seed 5" in resumed.stdout


def test_sessions_lists_them_the_last_played_first(data_dir):
    assert dusk("sessions", data_dir=data_dir).stdout.startswith("no saved sessions in ")
    first, _ = Session.new("attack-of-the-vampires", seed=1, interactive=True)
    first.close()
    time.sleep(0.02)
    second = Session.new("attack-of-the-vampires", seed=2)[0]
    for _ in range(3):
        second.perform("round", {}, "round")
    second.close()
    damaged = data_dir / "sessions" / "damaged.dusk"
    damaged.write_bytes(b"not a session at all")
    os.utime(damaged, (0, 0))
    out = dusk("sessions", data_dir=data_dir)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["last", "played", "started", "ruleset", "turns", "file"]
    assert lines[1].split()[-2:] == ["3", str(second.journal.path)]
    assert lines[2].startswith("*") and lines[2].split()[-2:] == ["0", str(first.journal.path)]
    assert "attack-of-the-vampires" in lines[1] and "not a dusk session" in lines[3]
    assert lines[4].startswith("* the session dusk resume continues")
    assert damaged.read_bytes() == b"not a session at all"
    assert [s.path for s in list_sessions()][:2] == [second.journal.path.resolve(), first.journal.path.resolve()]


def test_a_finished_game_shows_its_result(data_dir):
    session = Session.new("attack-of-the-vampires", seed=1)[0]
    while not session.game.over:
        session.perform("round", {}, "round")
    session.close()
    line = dusk("sessions", data_dir=data_dir).stdout.splitlines()[1]
    assert f"{session.game.turn - 1} ({session.game.result})" in line
