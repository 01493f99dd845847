"""A failed save undoes the command (issue 9, class 5): nothing is shown before it is saved; when the
save fails the game in memory is put back as the file has it, the message says why, and `save PATH`
goes on in a new file. A real file size limit in a real process, and a full disk made to order for
every kind of command (an action, an answer, an undo, a free roll, a switch of dice)."""

import errno
import os
import re
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.repl.journal import Journal, read_session
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, make_repl, run

DUSK = str(Path(sys.executable).parent / "dusk")
FULL = "the session file could not be written: disk full"


class Disk:
    """The session file's disk: it takes `room` more entries, then it is full (ENOSPC), until freed."""

    def __init__(self, monkeypatch, room: int):
        self.room = room
        write = Journal._write

        def limited(journal, row):
            if self.room <= 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            write(journal, row)
            self.room -= 1

        monkeypatch.setattr(Journal, "_write", limited)


def file_game(session) -> dict:
    """The game as the session file has it (its last entry)."""
    return read_session(session.journal.path)[1][-1].game


def test_a_full_disk_in_the_middle_of_auto(monkeypatch, tmp_path):
    repl, out = make_repl(GAMES["attack"], seed=2)
    disk = Disk(monkeypatch, room=3)
    shown = run(repl, out, "auto 10")
    assert f"{FULL}; round was not played: the game is as it was before it" in shown
    assert "save PATH copies the session to a new file and goes on there" in shown
    assert "(auto 10 stops at an error: 3 rounds played and saved)" in shown
    assert shown.count("Search") == 3               # the round that was not saved was not shown
    session = repl.session
    assert session.game.turn == 4 and session.game.core() == file_game(session)
    assert "Traceback" not in shown and "a bug" not in shown
    # the table goes on in a new file, with everything so far
    disk.room = 100
    old = session.journal.path
    said = run(repl, out, f"save {tmp_path / 'new.dusk'}")
    assert f"now saved in {tmp_path / 'new.dusk'}, and goes on there ({old} stays as it was)" in said
    run(repl, out, "round", "undo", "round")
    state = session.game.state
    session.close()
    resumed = Session.resume(tmp_path / "new.dusk")
    assert resumed.game.state == state
    assert [(c.text, c.turns) for c in resumed.commands] == [("auto 10", [1, 2, 3]), ("round", [4])]
    resumed.close()


def test_an_undo_a_roll_and_a_switch_that_cannot_be_saved_did_not_happen(monkeypatch):
    repl, out = make_repl(GAMES["attack"], seed=5)
    run(repl, out, "round", "auto 2")
    session = repl.session
    log = [dict(e) for e in session.game.log]
    commands = [(c.text, list(c.turns)) for c in session.commands]
    rng = session.free_rng.getstate()
    Disk(monkeypatch, room=0)
    said = run(repl, out, "undo")
    assert f"{FULL}; the undo did not happen" in said
    assert session.game.log == log and [(c.text, c.turns) for c in session.commands] == commands
    said = run(repl, out, "roll 3d6")
    assert f"{FULL}; the roll was not made" in said and "3d6" not in said.split(FULL)[0]
    assert session.free_rng.getstate() == rng
    said = run(repl, out, "dice manual")
    assert f"{FULL}; the dice stay as they were" in said and not session.manual_dice
    assert session.game.core() == file_game(session)


def test_an_answer_that_cannot_be_saved_leaves_the_question_waiting(monkeypatch):
    repl, out = make_repl(GAMES["pool"], seed=3)
    run(repl, out, "conflict hour")
    assert repl.decision is not None
    waiting = repl.decision
    disk = Disk(monkeypatch, room=0)
    said = run(repl, out, "auto")
    assert f"{FULL}; the answer was not taken: the question waits again" in said
    assert repl.decision is waiting and repl.session.game.pending is not None
    assert repl.session.game.core() == file_game(repl.session)
    disk.room = 10          # the disk freed: the same answer now plays and is saved
    run(repl, out, "auto")
    assert repl.decision is None and repl.session.game.core() == file_game(repl.session)


def test_a_game_that_cannot_start_leaves_no_file(monkeypatch, tmp_path):
    Disk(monkeypatch, room=0)
    with pytest.raises(Exception, match=f"{FULL}; the game did not start"):
        Session.new(GAMES["attack"], seed=1, save=tmp_path / "game.dusk")
    assert list(tmp_path.iterdir()) == []


def _small_files():
    # A real limit on the size of a file this process writes: the session file stops growing.
    resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, 256 * 1024))


def test_a_file_that_cannot_grow_in_a_real_process(tmp_path, data_dir):
    save = tmp_path / "game.dusk"
    out = subprocess.run([DUSK, "play", "--seed", "9", "--save", str(save), "-c",
                          "round; undo; auto 400; status"], capture_output=True, text=True, timeout=120,
                         preexec_fn=_small_files, env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)))
    assert "the session file could not be written:" in out.stdout, out.stdout[-2000:] + out.stderr
    assert "round was not played" in out.stdout and "Traceback" not in out.stdout + out.stderr
    played = re.search(r"\(auto 400 stops at an error: (\d+) rounds? played and saved\)", out.stdout)
    assert played and int(played.group(1)) >= 1
    assert "a bug" not in out.stdout
    status = out.stdout.splitlines()[-1]          # the game in memory after the failure
    resumed = subprocess.run([DUSK, "resume", str(save), "-c", "status"], capture_output=True, text=True,
                             timeout=60, env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)))
    assert resumed.returncode == 0 and resumed.stdout.splitlines()[-1] == status


SPLIT = """\
ruleset: split
title: Split
state: {share: 0, asked: 0}
actions:
  split:
    doc: Split 12 among some players.
    steps:
      - set: {asked: asked + 1}
      - ask: "Among how many?"
        as: n
        number: {min: 0, max: 4}
        auto: 2
      - set: {share: 12 // n}
"""


def test_an_error_in_the_middle_of_an_answered_action_leaves_nothing_half_done(tmp_path):
    """A rule that fails after its question was answered: nothing of the action is in the game, and
    the question waits again (the table and the game agree on it), so another answer plays it."""
    ruleset = tmp_path / "split.yaml"
    ruleset.write_text(SPLIT)
    repl, out = make_repl(str(ruleset))
    said = run(repl, out, "split", "0")
    assert "division by zero" in said
    session = repl.session
    assert repl.decision is not None and session.game.pending is not None
    assert session.game.values["asked"] == 0 and session.game.core() == file_game(session)
    said = run(repl, out, "3")
    assert repl.errors == 1 and session.game.values["share"] == 4 and session.game.values["asked"] == 1
    assert session.game.core() == file_game(session)


def test_a_session_copied_by_save_is_in_wal_mode_and_plays_on(tmp_path):
    # save PATH copies the session (SQLite's backup) into a new file: the copy is made as a new
    # session is, WAL and synchronous=FULL (so a committed entry there survives a kill -9 too)
    repl, out = make_repl(GAMES["attack"], seed=4)
    run(repl, out, "round")
    session = repl.session
    said = run(repl, out, f"save {tmp_path / 'copy.dusk'}")
    assert "now saved in" in said and session.journal.path == tmp_path / "copy.dusk"
    assert session.journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2       # FULL
    run(repl, out, "round")
    state, turn = session.game.state, session.game.turn
    seen = sqlite3.connect(tmp_path / "copy.dusk")
    try:
        assert seen.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert [k for (k,) in seen.execute("SELECT kind FROM entries ORDER BY n")] == ["start", "action", "action"]
    finally:
        seen.close()
    session.close()
    resumed = Session.resume(tmp_path / "copy.dusk")
    assert resumed.game.state == state and resumed.game.turn == turn == 3
    resumed.close()
