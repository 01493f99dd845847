"""One table per session (issue 9, class 4): a second opener is refused with a message naming the
first (its pid, host and since when), and the lock dies with its process, kill -9 included."""

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from ruleset_engine.repl.journal import JournalError, read_session
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES

DUSK = str(Path(sys.executable).parent / "dusk")
PROMPT = "attack-of-the-vampires>"
pytestmark = pytest.mark.timeout(120)


def test_a_second_opener_in_this_process_is_refused(tmp_path):
    first, _ = Session.new(GAMES["attack"], seed=1, save=tmp_path / "game.dusk")
    first.perform("round", {}, "round")
    with pytest.raises(JournalError, match=rf"is open at another dusk \(pid {os.getpid()} on "
                                           rf"{socket.gethostname()}, since \d{{4}}-\d\d-\d\d \d\d:\d\d\)"):
        Session.resume(tmp_path / "game.dusk")
    first.close()
    second = Session.resume(tmp_path / "game.dusk")      # closed, the session is free again
    assert second.game.turn == 2
    # `save PATH` moves the lock with the session: the new file is held, the old one free
    second.save_as(tmp_path / "moved.dusk")
    with pytest.raises(JournalError, match="is open at another dusk"):
        Session.resume(tmp_path / "moved.dusk")
    Session.resume(tmp_path / "game.dusk").close()
    second.close()


def test_two_resumes_of_one_file_and_kill_9(tmp_path, data_dir):
    save = tmp_path / "game.dusk"
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir))
    plain = dict(os.environ, DUSK_DATA_DIR=str(data_dir))
    # a table playing the session it created (`dusk play --save`), then one that resumed it
    for args in (["play", "--seed", "3", "--save", str(save)], ["resume", str(save)]):
        child = pexpect.spawn(DUSK, args, env=env, encoding="utf-8", timeout=30, dimensions=(40, 120))
        child.expect_exact(PROMPT)
        child.sendline("round")
        child.expect_exact(PROMPT)
        second = subprocess.run([DUSK, "resume", str(save), "-c", "round"], capture_output=True, text=True,
                                env=plain, timeout=60)
        assert second.returncode == 2 and "Traceback" not in second.stdout + second.stderr
        assert f"is open at another dusk (pid {child.pid} on {socket.gethostname()}, since " in second.stdout
        assert "a session is played at one table at a time" in second.stdout
        os.kill(child.pid, signal.SIGKILL)          # no goodbye: the kernel drops the lock
        child.expect(pexpect.EOF)
        child.close()
    # each table's rounds are in the file once: no round twice, no round of the refused one
    _, entries = read_session(save)
    assert [e.kind for e in entries] == ["start", "action", "action"]
    assert [e.game["turn"] for e in entries] == [1, 2, 3]
    resumed = subprocess.run([DUSK, "resume", str(save), "-c", "round"], capture_output=True, text=True, env=plain,
                             timeout=60)
    assert resumed.returncode == 0, resumed.stdout
