"""Undo at the table: it takes back the last command as typed (all the rounds of `auto 12`), says what
it took back, `undo N` takes back N, the session file records it, and resume rebuilds the same history."""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, make_repl, run

DUSK = str(Path(sys.executable).parent / "dusk")


def undo_events(path) -> list[dict]:
    db = sqlite3.connect(path)
    rows = db.execute("SELECT events FROM entries WHERE kind = 'undo' ORDER BY n").fetchall()
    return [e for (events,) in rows for e in json.loads(events) if e["kind"] == "undo"]


def test_the_reproduction_of_the_issue(data_dir, tmp_path):
    save = tmp_path / "game.dusk"
    out = subprocess.run([DUSK, "play", "--seed", "7", "--save", str(save), "-c", "auto 5; undo; undo; log 8"],
                         capture_output=True, text=True, env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)),
                         timeout=60)
    assert out.stdout.count("Undone: auto 5 (turns 1–5).") == 2      # the undo, then the log's line
    assert "> undo\nnothing to undo\n" in out.stdout
    assert [e["of"] for e in undo_events(save)] == [5, 4, 3, 2, 1]


def test_each_undo_names_the_turn_it_took_back():
    repl, out = make_repl(GAMES["attack"], seed=7)
    run(repl, out, *["round"] * 5)
    assert run(repl, out, "undo") == "Undone: round (turn 5).\n"
    assert run(repl, out, "undo") == "Undone: round (turn 4).\n"
    assert [e["of"] for e in undo_events(repl.session.journal.path)] == [5, 4]
    # an undo's own event is never marked undone by a later undo
    assert not any(e.get("undone") for e in repl.session.game.log if e["kind"] == "undo")
    log = run(repl, out, "log 4")
    assert log.splitlines()[-2:] == ["Undone: round (turn 5).", "Undone: round (turn 4)."]


def test_undo_takes_back_all_the_rounds_of_auto():
    repl, out = make_repl(GAMES["attack"], seed=3)
    run(repl, out, "auto 4")
    game = repl.session.game
    before, dice = game.state, game.rng.getstate()
    played = run(repl, out, "auto 12")
    assert run(repl, out, "undo") == "Undone: auto 12 (turns 5–16).\n"
    assert game.state == before and game.rng.getstate() == dice
    assert run(repl, out, "auto 12") == played                      # the same dice again
    assert run(repl, out, "undo", "undo") == "Undone: auto 12 (turns 5–16).\nUndone: auto 4 (turns 1–4).\n"
    assert game.turn == 1


def test_undo_n_takes_back_n_commands_and_refuses_more_than_there_are():
    repl, out = make_repl(GAMES["attack"], seed=3)
    run(repl, out, "round", "auto 3", "roll 2d6", "state", "round")
    game = repl.session.game
    state = game.state
    assert run(repl, out, "undo 4") == "only 3 commands can be undone (undo 3 takes them all back)\n"
    assert game.state == state
    assert run(repl, out, "undo 2") == "Undone: round (turn 5).\nUndone: auto 3 (turns 2–4).\n"
    assert game.turn == 2
    assert run(repl, out, "undo 2") == "only 1 command can be undone (undo takes it back)\n"
    assert run(repl, out, "undo x") == "undo takes a number of commands, 1 or more (undo 5), not 'x'\n"
    assert run(repl, out, "undo 1") == "Undone: round (turn 1).\n" and game.turn == 1
    entries = sqlite3.connect(repl.session.journal.path).execute(
        "SELECT kind, command FROM entries WHERE kind IN ('undo', 'roll')").fetchall()
    assert entries == [("roll", "roll 2d6"), ("undo", "undo 2"), ("undo", "undo 1")]


def test_an_action_that_asked_is_undone_as_the_command_that_began_it():
    repl, out = make_repl(GAMES["pool"], seed=2)
    run(repl, out, "conflict scene", "1", "0", "1", "0", "conflict", "2")
    assert repl.decision is not None
    assert run(repl, out, "auto 2").endswith("(2 rounds played)\n")   # finishes `conflict`, plays one more
    assert run(repl, out, "undo 3") == ("Undone: auto 2 (turn 3).\nUndone: conflict (turn 2).\n"
                                        "Undone: conflict scene (turn 1).\n")
    # undo while a question waits drops the question, and counts as one
    run(repl, out, "conflict", "1")
    assert run(repl, out, "undo 2") == "The question is dropped; the action did not happen.\n"
    assert repl.decision is None and repl.session.game.turn == 1


@pytest.mark.parametrize("game", GAMES)
def test_resume_rebuilds_the_same_undo_history(game, tmp_path):
    params = {"hours": 12} if game == "pool" else {}
    repl, out = make_repl(GAMES[game], seed=5, **params)
    run(repl, out, "auto 3", "auto 2", "undo", "auto 4", "round" if game == "attack" else "auto 1", "auto 1")
    path = repl.session.journal.path
    copy = tmp_path / "copy.dusk"
    sqlite3.connect(path).backup(sqlite3.connect(copy))
    commands = [(c.number, c.text, c.turns) for c in repl.session.commands]
    assert len(commands) == 4 and commands[0][1:] == ("auto 3", [1, 2, 3])
    live = [(run(repl, out, "undo"), repl.session.game.state) for _ in range(5)]
    repl.session.close()

    resumed = Session.resume(copy)
    assert [(c.number, c.text, c.turns) for c in resumed.commands] == commands
    again, again_out = repl_of(resumed)
    assert [(run(again, again_out, "undo"), resumed.game.state) for _ in range(5)] == live
    assert live[0][0].startswith("Undone: ") and live[-1][0] == "nothing to undo\n"


def repl_of(session):
    import io

    from ruleset_engine.repl.app import make_console
    from ruleset_engine.repl.commands import Repl
    from ruleset_engine.repl.render import Style

    out = io.StringIO()
    return Repl(session, make_console(False, out), Style()), out


def test_a_session_saved_before_commands_were_numbered_undoes_an_action_at_a_time(tmp_path):
    repl, out = make_repl(GAMES["attack"], seed=5)
    run(repl, out, "auto 3")
    path = repl.session.journal.path
    repl.session.close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE entries DROP COLUMN command_no")
    db.execute("UPDATE entries SET command = 'auto (round)' WHERE kind = 'action'")
    db.commit()
    db.close()
    resumed = Session.resume(path)
    assert [c.turns for c in resumed.commands] == [[1], [2], [3]]
    assert [c.text for c in resumed.undo(2)] == ["auto (round)", "auto (round)"]
    resumed.close()
    again = Session.resume(path)       # the column is there now, and the undo in it
    assert [c.turns for c in again.commands] == [[1]] and again.game.turn == 2
