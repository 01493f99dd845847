"""Session files as paths and as input (issue 9, classes 3 and 10): the file named is the file written,
never a file that is not a new session; a damaged or hand-edited session, or one whose ruleset changed,
is refused on resume with the place of its problem, never with a traceback."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.repl.journal import JournalError, read_session
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, as_first_format, make_repl, run

DUSK = str(Path(sys.executable).parent / "dusk")
ATTACK = Path(__file__).resolve().parents[2] / "rulesets" / "attack-of-the-vampires.yaml"


def dusk(*args, data_dir, cwd=None, timeout=60):
    return subprocess.run([DUSK, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)))


# ---- class 3: a path is a path

@pytest.mark.parametrize("name", ["game#1.dusk", "m.dusk?vfs=memdb&", "50%41.dusk", "a b?mode=ro.dusk"])
def test_the_file_named_is_the_file_written(tmp_path, data_dir, name):
    out = dusk("play", "--seed", "4", "--save", name, "-c", "round; round", data_dir=data_dir, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    # exactly that file (and SQLite's own files beside it while open: none after), nothing else
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    meta, entries = read_session(tmp_path / name)
    assert meta["seed"] == 4 and [e.kind for e in entries] == ["start", "action", "action"]
    resumed = dusk("resume", name, "-c", "status", data_dir=data_dir, cwd=tmp_path)
    assert resumed.returncode == 0 and f"saved in {name}." in resumed.stdout


def test_a_file_that_is_not_a_new_session_is_never_written_into(tmp_path, data_dir):
    notes = tmp_path / "notes.sqlite"
    db = sqlite3.connect(notes)
    db.execute("CREATE TABLE people (name TEXT)")
    db.commit()
    db.close()
    before = notes.read_bytes()
    # the example: a '#' once cut the path to notes.sqlite
    out = dusk("play", "--seed", "1", "--save", "notes.sqlite#.dusk", "-c", "round", data_dir=data_dir, cwd=tmp_path)
    assert out.returncode == 0 and (tmp_path / "notes.sqlite#.dusk").exists()
    # the file itself, and a symlink to a file that is not there yet: both refused, neither written
    for name in ("notes.sqlite",):
        out = dusk("play", "--save", name, "-c", "round", data_dir=data_dir, cwd=tmp_path)
        assert out.returncode == 2 and "already exists" in out.stdout
    (tmp_path / "link.dusk").symlink_to(tmp_path / "elsewhere.dusk")
    out = dusk("play", "--save", "link.dusk", "-c", "round", data_dir=data_dir, cwd=tmp_path)
    assert out.returncode == 2 and "already exists" in out.stdout
    assert not (tmp_path / "elsewhere.dusk").exists()
    assert notes.read_bytes() == before


def test_resume_takes_only_a_regular_file(tmp_path, data_dir):
    os.mkfifo(tmp_path / "pipe.dusk")          # opened, a named pipe would wait for a writer forever
    (tmp_path / "folder.dusk").mkdir()
    for name, said in (("pipe.dusk", "not a regular file"), ("folder.dusk", "is a folder"),
                       ("missing.dusk", "no session file at")):
        out = dusk("resume", name, "-c", "status", data_dir=data_dir, cwd=tmp_path, timeout=20)
        assert out.returncode == 2 and said in out.stdout, out.stdout + out.stderr
        assert "Traceback" not in out.stdout + out.stderr


def test_save_into_a_folder_that_cannot_be_made(tmp_path, data_dir):
    (tmp_path / "plain").write_text("a file, not a folder")
    out = dusk("play", "--save", str(tmp_path / "plain" / "game.dusk"), "-c", "round", data_dir=data_dir)
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr
    assert "cannot be created: its folder" in out.stdout and "a file, not a folder" in out.stdout
    out = dusk("play", "--save", "", "-c", "round", data_dir=data_dir)
    assert out.returncode == 2 and "--save takes the path of a new session file" in out.stdout
    assert not (data_dir / "sessions").exists() or not list((data_dir / "sessions").iterdir())


# ---- class 10: session files are input too

def saved_game(tmp_path, source=GAMES["attack"], lines=("auto 3", "undo", "round", "roll d6")) -> Path:
    repl, out = make_repl(source, seed=3)
    run(repl, out, *lines)
    path = repl.session.journal.path
    repl.session.close()
    copy = tmp_path / "saved.dusk"
    shutil.copy(path, copy)
    as_first_format(copy)      # each game whole, as a hand edits it (and a session of the first format is read)
    return copy


def edit(path: Path, *statements) -> bytes:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()
    return path.read_bytes()


@pytest.mark.parametrize("statements, message", [
    # the example: the game object replaced by {}
    (["UPDATE entries SET game = '{}' WHERE n = (SELECT max(n) FROM entries)"], r"entry 7 \(roll d6\): game has no rng"),
    (["DELETE FROM meta WHERE key = 'seed'"], "meta has no seed"),
    (["UPDATE meta SET value = '[1, 2]' WHERE key = 'params'"], "meta.params is a list, not a mapping"),
    (["UPDATE meta SET value = '\"7\"' WHERE key = 'seed'"], "meta.seed is a text, not a whole number"),
    (["UPDATE entries SET game = json_set(game, '$.turn', 'three') WHERE n = 2"], r"entry 2 .*game.turn is a text"),
    (["UPDATE entries SET events = '{\"kind\": 1}' WHERE n = 3"], r"entry 3 .*events is a mapping, not a list"),
    (["UPDATE entries SET events = 'not json' WHERE n = 3"], r"entry 3 .*events is not valid JSON"),
    (["UPDATE entries SET kind = 'teleport' WHERE n = 2"], "kind is 'teleport', not one of"),
    (["UPDATE entries SET free_rng = '[3, [1, 2], null]' WHERE n = 4"], r"free_rng\[1\] has 2 numbers, not 625"),
    (["UPDATE entries SET game = json_remove(game, '$.values.vampires')"], "the game has no vampires"),
    (["UPDATE entries SET game = json_set(game, '$.values.loop_done', json('{\"round\": \"2\"}'))"],
     "the game holds loop_done in a shape it never has"),
    (["UPDATE entries SET game = json_set(game, '$.values.loop', json('{\"turn\": 2}'))"],
     "the game holds loop in a shape it never has"),
    (["UPDATE meta SET value = '{\"vampires\": \"many\"}' WHERE key = 'params'"], "meta.params: param vampires"),
    (["DELETE FROM entries WHERE kind = 'start'"], "not the game's start"),
    (["DELETE FROM entries"], "holds no game yet"),
    (["UPDATE entries SET kind = 'setup' WHERE n = 3"], r"entry 3 is an answer of the setup, after the game's start"),
    (["UPDATE entries SET game = x'00ff' WHERE n = 2"], "binary data"),
    (["ALTER TABLE entries DROP COLUMN game"], "the entries have no column game"),
    # issue 24 (8): texts a terminal would obey (clear the screen, write the clipboard), anywhere.
    (["UPDATE entries SET game = json_set(game, '$.result', 'won' || char(27) || '[2J') WHERE n = 2"],
     r"entry 2 \(.*\): game holds a text with the control character U\+001B \(ESC\), which a terminal"),
    (["UPDATE entries SET command = 'round' || char(27) || ']52;c;aGk=' || char(7) WHERE n = 3"],
     r"entry 3: command holds a text with the control character U\+001B \(ESC\)"),
    (["UPDATE entries SET events = '[{\"kind\": \"say\", \"text\": \"a\\u009b2Jb\"}]' WHERE n = 3"],
     r"entry 3 .*events holds a text with the control character U\+009B \(CSI\)"),
    (["UPDATE meta SET value = '{\"vampires\": 3, \"x\\u202e\": 1}' WHERE key = 'params'"],
     r"meta.params holds a text with the control character U\+202E"),
])
def test_a_damaged_session_is_refused_with_its_place(tmp_path, data_dir, statements, message):
    path = saved_game(tmp_path)
    before = edit(path, *statements)
    with pytest.raises(JournalError, match=message) as caught:
        Session.resume(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == before                 # left as it is
    out = dusk("resume", str(path), "-c", "status", data_dir=data_dir)
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr and str(path) in out.stdout
    assert not (data_dir / "bugs.log").exists()


def test_dusk_sessions_lists_a_damaged_session_as_one(tmp_path, data_dir):
    sessions = data_dir / "sessions"
    sessions.mkdir(parents=True)
    path = saved_game(tmp_path)
    edit(path, "UPDATE entries SET game = '[]'", "UPDATE meta SET value = '\"soon\"' WHERE key = 'created'")
    shutil.copy(path, sessions / "bad.dusk")
    os.mkfifo(sessions / "pipe.dusk")
    out = dusk("sessions", data_dir=data_dir, timeout=20)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    assert "not a dusk session" in out.stdout and "not a regular file" in out.stdout


def test_a_changed_ruleset_is_named_and_refused_unless_forced(tmp_path, data_dir):
    ruleset = tmp_path / "house.yaml"
    shutil.copy(ATTACK, ruleset)
    save = tmp_path / "game.dusk"
    assert dusk("play", str(ruleset), "--seed", "2", "--save", str(save), "-c", "round; round",
                data_dir=data_dir).returncode == 0
    # a comment or the layout is no change of rules
    ruleset.write_text("# our table's copy\n" + ruleset.read_text())
    assert dusk("resume", str(save), "-c", "status", data_dir=data_dir).returncode == 0
    # a default changed: the rules the game was played under are gone
    ruleset.write_text(ruleset.read_text().replace("vampires: {type: integer, default: 3,",
                                                   "vampires: {type: integer, default: 4,"))
    before = save.read_bytes()
    out = dusk("resume", str(save), "-c", "status", data_dir=data_dir)
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr
    assert f"the ruleset {ruleset} ({ruleset}) changed since the session was saved" in out.stdout
    assert "dusk resume --force" in out.stdout and save.read_bytes() == before
    forced = dusk("resume", str(save), "--force", "-c", "round", data_dir=data_dir)
    assert forced.returncode == 0
    assert "changed since this session was saved; --force: the game goes on under the ruleset as it is now" \
        in forced.stdout
    # taken once, the new rules are the session's: no --force again
    again = dusk("resume", str(save), "-c", "status", data_dir=data_dir)
    assert again.returncode == 0 and "changed since" not in again.stdout


def test_a_renamed_ruleset_is_named(tmp_path, data_dir):
    ruleset = tmp_path / "house.yaml"
    shutil.copy(ATTACK, ruleset)
    save = tmp_path / "game.dusk"
    assert dusk("play", str(ruleset), "--save", str(save), "-c", "round", data_dir=data_dir).returncode == 0
    ruleset.write_text(ruleset.read_text().replace("ruleset: attack-of-the-vampires", "ruleset: our-hunt"))
    out = dusk("resume", str(save), "-c", "status", data_dir=data_dir)
    assert out.returncode == 2 and "it is now 'our-hunt', not 'attack-of-the-vampires'" in out.stdout
    ruleset.unlink()
    out = dusk("resume", str(save), "-c", "status", data_dir=data_dir)
    assert out.returncode == 2 and "its ruleset" in out.stdout and "cannot be loaded" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_a_session_from_before_fingerprints_resumes_and_gets_one(tmp_path):
    path = saved_game(tmp_path)
    edit(path, "DELETE FROM meta WHERE key = 'fingerprint'")
    Session.resume(path).close()
    meta, _ = read_session(path)
    assert "fingerprint" not in meta          # it is only written when a changed ruleset is taken
    assert json.loads(json.dumps(meta))["seed"] == 3


def test_a_session_from_before_loops_counted_what_is_done_resumes(tmp_path):
    path = saved_game(tmp_path)
    edit(path, "UPDATE entries SET game = json_remove(game, '$.values.loop_done')")
    session = Session.resume(path)
    # `auto 3` taken back by undo, then one round: the second round is being played, one is done
    assert session.game.values["loop"] == {"round": 2} and session.game.values["loop_done"] == {"round": 1}
    session.close()
