"""Ctrl-C (issue 9, class 13): at the table it stops `auto N` and any command under way and returns to
the prompt, the game as saved after its last finished round; `dusk simulate` exits 130 with one line,
whenever it comes (while the workers start, or while they play), and memory does not grow with -n."""

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from ruleset_engine.repl.journal import read_session
from tests.repl.conftest import make_repl, run

DUSK = str(Path(sys.executable).parent / "dusk")
pytestmark = pytest.mark.timeout(120)

# A game that does not end, each round a heavy roll: auto N is still playing when Ctrl-C comes.
ENDLESS = """\
ruleset: endless
title: Endless
state: {total: 0}
loop:
  - name: round
    max: 100000000
    steps:
      - roll: {d: 300d6}
      - set: {total: "total + sum(d)"}
status: "Round {loop.round}, total {total}"
"""


def test_ctrl_c_stops_auto_and_the_table_goes_on(tmp_path, data_dir):
    ruleset = tmp_path / "endless.yaml"
    ruleset.write_text(ENDLESS)
    save = tmp_path / "game.dusk"
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir))
    child = pexpect.spawn(DUSK, ["play", str(ruleset), "--seed", "1", "--save", str(save)], env=env,
                          encoding="utf-8", timeout=30, dimensions=(40, 120))
    child.expect_exact("endless>")
    child.sendline("auto 100000")
    child.expect(r"\x1b\[1m[1-6]\x1b\[0m \x1b\[1m[1-6]")     # a round's dice are shown: auto is under way
    time.sleep(1)
    child.sendintr()
    child.expect(r"\(auto 100000 stops at Ctrl-C: (\d+) rounds? played and saved\)")
    played = int(child.match.group(1))
    child.expect_exact("endless>")            # the prompt, not the shell
    child.sendline("status")
    child.expect(r"Round (\d+), total (\d+)")
    assert int(child.match.group(1)) == played + 1
    child.expect_exact("endless>")
    _, entries = read_session(save)
    assert entries[-1].game["turn"] == played + 1          # saved up to the last finished round
    resumed = subprocess.run([DUSK, "resume", str(save), "-c", "status"], capture_output=True, text=True,
                             env=dict(env, DUSK_DATA_DIR=str(data_dir)), timeout=60)
    assert "is open at another dusk" in resumed.stdout       # still this table's
    child.sendline("undo")                                  # the rounds played are one command
    child.expect_exact("endless>")
    child.sendline("status")
    child.expect(r"Round (\d+)")
    assert child.match.group(1) == "1"
    child.expect_exact("endless>")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    resumed = subprocess.run([DUSK, "resume", str(save), "-c", "status"], capture_output=True, text=True,
                             env=env, timeout=60)
    assert resumed.stdout.splitlines()[-1] == "Round 1, total 0"      # the undo was saved too


def test_ctrl_c_in_the_middle_of_an_action_leaves_nothing_half_done(monkeypatch):
    """KeyboardInterrupt raised inside the engine, half-way through a round: the game is as before it."""
    repl, out = make_repl("attack-of-the-vampires", seed=3)
    run(repl, out, "round")
    before, log = repl.session.game.core(), len(repl.session.game.log)
    session = repl.session
    journal_write = type(session.journal)._write

    def interrupted(journal, row):      # the round has been played in memory; Ctrl-C comes before it is saved
        raise KeyboardInterrupt

    monkeypatch.setattr(type(session.journal), "_write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        repl.run_line("round")
    assert session.game.core() == before and len(session.game.log) == log
    monkeypatch.setattr(type(session.journal), "_write", journal_write)
    run(repl, out, "round")
    assert read_session(session.journal.path)[1][-1].game == session.game.core()


def test_ctrl_c_that_comes_while_an_entry_is_written_waits_for_it(monkeypatch):
    repl, out = make_repl("attack-of-the-vampires", seed=3)
    session = repl.session
    journal_write = type(session.journal)._write

    def written_then_interrupted(journal, row):
        journal_write(journal, row)
        os.kill(os.getpid(), signal.SIGINT)     # Ctrl-C as the entry is written

    monkeypatch.setattr(type(session.journal), "_write", written_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        repl.run_line("round")
    # the round is in the file and in the game, and it was shown before Ctrl-C was acted on
    assert session.game.turn == 2 and read_session(session.journal.path)[1][-1].game == session.game.core()
    assert "Search" in out.getvalue()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


BACKEND = "dusk simulate: backend lockstep: every construct the ruleset uses has a vector form"


def said_first(process) -> str:
    """The first line the process writes on stderr (the backend's, said inside the command, where its
    Ctrl-C handler is already set), or what came of it should it end or say nothing for a minute (never
    a hang). Read byte by byte from the pipe, so that what follows is left for communicate()."""
    fd, line = process.stderr.fileno(), b""
    while not line.endswith(b"\n") and select.select([fd], [], [], 60)[0]:
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
    return line.decode().rstrip("\n")


@pytest.mark.parametrize("delay", [0.3, 0.8, 3.0])
def test_ctrl_c_ends_simulate_with_one_line(tmp_path, delay):
    # -n 10^12: nothing is made for each game up front, so it starts at once and stays small
    process = subprocess.Popen([DUSK, "simulate", "attack-of-the-vampires", "-n", str(10**12), "--workers", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env=dict(os.environ, DUSK_DATA_DIR=str(tmp_path)))
    try:
        # Ctrl-C once the command is under way (a fixed wait from the start could come, on a loaded
        # machine, while Python still starts, before any handler): the backend's line says so; then
        # the delay, so it comes while the workers start or while they play.
        first = said_first(process)
        time.sleep(delay)
        memory = rss_kib(process.pid)
        os.killpg(process.pid, signal.SIGINT)     # as the terminal sends Ctrl-C: to the parent and its workers
        out, err = process.communicate(timeout=60)
    finally:
        # Should Ctrl-C fail to end it, a trillion games must not outlive the test.
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert first == BACKEND
    assert process.returncode == 130
    assert err.splitlines() == ["dusk simulate: interrupted (Ctrl-C); no summary"] and out == ""
    assert memory < 200 * 1024
    assert not re.search(r"Traceback|KeyboardInterrupt", err)
