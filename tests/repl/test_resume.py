"""Resuming a saved session: the same state, the random sequence where it was; bad files refused."""

import sqlite3

import pytest

from ruleset_engine.repl.journal import Journal, JournalError
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, make_repl, run


def test_resume_from_the_file_as_it_was(tmp_path):
    repl, out = make_repl(GAMES["attack"], seed=4)
    run(repl, out, "auto 3", "undo", "auto 1", "roll d6")
    state, log = repl.session.game.state, list(repl.session.game.log)
    path = repl.session.journal.path
    repl.session.close()
    copy = tmp_path / "copy.dusk"
    source = sqlite3.connect(path)
    source.backup(sqlite3.connect(copy))   # a consistent copy of the session as it stands
    repl2 = Session.resume(path)
    reference = [repl2.perform("round", {}, "round").events for _ in range(3)]
    repl2.close()

    resumed = Session.resume(copy)
    assert resumed.game.state == state
    assert resumed.game.log == log
    assert [resumed.perform("round", {}, "round").events for _ in range(3)] == reference
    # The free rolls go on from where the file has them: a second copy, resumed, rolls the same die.
    again = tmp_path / "again.dusk"
    sqlite3.connect(copy).backup(sqlite3.connect(again))
    rolled = resumed.free_roll("d6").value
    other = Session.resume(again)
    assert other.free_roll("d6").value == rolled
    other.close()
    # undo still reaches back before the resume, a command as typed at a time (`auto 3` was undone whole)
    resumed.undo()
    assert resumed.game.turn == 4 and resumed.game.state != state
    assert [c.text for c in resumed.undo(3)] == ["round", "round", "auto 1"] and resumed.game.turn == 1
    with pytest.raises(Exception, match="nothing to undo"):
        resumed.undo()


@pytest.mark.parametrize("content, message", [
    (b"", "is not a dusk session"),
    (b"this is not a database at all" * 100, "is not a dusk session"),
])
def test_a_foreign_or_corrupt_file_is_refused_and_left_untouched(tmp_path, content, message):
    path = tmp_path / "bad.dusk"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=message):
        Journal.open(path)
    assert path.read_bytes() == content


def test_another_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE people (name TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="another SQLite database"):
        Journal.open(path)
    assert path.read_bytes() == before


def test_a_truncated_session_is_refused(tmp_path):
    repl, out = make_repl(GAMES["attack"])
    run(repl, out, "auto 5")
    repl.session.close()
    data = repl.session.journal.path.read_bytes()
    path = tmp_path / "cut.dusk"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(JournalError):
        Journal.open(path)
    assert path.read_bytes() == data[: len(data) // 2]


def test_resume_without_any_session(capsys):
    from ruleset_engine.repl.app import run as run_app

    class Args:
        command, path, lang, ascii, c, script = "resume", None, "en", False, "state", None

    assert run_app(Args()) == 2


def test_undo_down_to_the_start_then_play_on_resumes_with_undo_intact(tmp_path):
    repl, out = make_repl(GAMES["attack"], seed=6)
    run(repl, out, "round", "undo", "round", "round")
    path = repl.session.journal.path
    repl.session.close()
    resumed = Session.resume(path)
    assert resumed.game.turn == 3
    resumed.undo()
    resumed.undo()
    assert resumed.game.turn == 1
    with pytest.raises(Exception, match="nothing to undo"):
        resumed.undo()


NOCHE = "noche-de-los-vampiros"


def test_a_setup_left_waiting_resumes_where_it_stopped(tmp_path):
    # Two characters named and the first Relationship written, then the table leaves: the file holds one
    # entry per answer, and the game resumed from it asks the second Relationship; answered the same way,
    # the game is the one a setup played without leaving gives (same seed, same answers).
    answers = ["2", "Rosa", "Tina", "an old debt", "a stolen car"]
    whole, out = make_repl(NOCHE, seed=5)
    run(whole, out, *answers)
    assert not whole.session.game.starting
    whole.session.close()

    repl, out = make_repl(NOCHE, seed=5)
    run(repl, out, *answers[:4])
    path = repl.session.journal.path
    assert [e.kind for e in repl.session.journal.entries()] == ["setup"] * 4
    assert repl.session.setup_saved
    repl.session.close()

    resumed = Session.resume(path)
    assert resumed.game.starting and resumed.reply.decision is not None
    assert "a few words?" in resumed.reply.decision.prompt
    shown = [e.get("text") for e in resumed.reply.events if e["kind"] == "say"]
    assert any("an old debt" in str(text) for text in shown)      # what the setup said so far, shown again
    resumed.answer(resumed.reply.decision, "a stolen car", "a stolen car")
    assert not resumed.game.starting
    assert resumed.game.state == whole.session.game.state
    resumed.close()
    # Resumed again, the game is the started one (the start entry after the setup's).
    again = Session.resume(path)
    assert again.reply is None and again.game.state == whole.session.game.state
    assert [e.kind for e in again.journal.entries()] == ["setup"] * 4 + ["start"]
    again.close()
