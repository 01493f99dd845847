"""Fuzzing the session files (issue 9): real saved sessions, mutated as a hand, a crash or a bad disk
would (keys deleted, values of other kinds, rows gone, bytes cut or flipped, tables dropped), are
resumed. Each either resumes (and plays on) or is refused with a DuskError; nothing else escapes, and
nothing is logged as a bug. About ten seconds in `make test`; `make fuzz` (DUSK_FUZZ_SCALE=20) runs
twenty times more examples."""

import json
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleset_engine import DuskError
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, make_repl, run

pytestmark = pytest.mark.fuzz
SCALE = int(os.environ.get("DUSK_FUZZ_SCALE", "1"))   # make fuzz: many times more examples
EXAMPLES = 100 * SCALE
COLUMNS = ["kind", "command", "events", "game", "free_rng", "command_no", "answers"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
cells = (json_values.map(json.dumps) | st.text(max_size=20) | st.integers(-2**63, 2**63 - 1)
         | st.binary(max_size=20) | st.none()
         | st.sampled_from(["{}", "[]", "null", '{"rng": 1}', "[3, [], null]", "\"start\"", "action", "undo"]))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Real sessions: a game with undo, a free roll and real dice; a game of questions answered."""
    folder = tmp_path_factory.mktemp("saved")
    os.environ["DUSK_DATA_DIR"] = str(folder / "data")
    files = []
    for source, lines in ((GAMES["attack"], ("auto 3", "undo", "round", "roll d6", "dice manual", "round", "1 2",
                                            "dice auto")),
                          (GAMES["pool"], ("conflict hour", "auto", "conflict hour", "auto"))):
        repl, out = make_repl(source, seed=4)
        run(repl, out, *lines)
        assert repl.errors == 0
        repl.session.close()
        files.append(repl.session.journal.path)
    return files


def mutate(path: Path, data, how: str) -> None:
    """One damage of kind `how`, its details drawn from `data`."""
    raw = path.read_bytes()
    if not raw:
        return
    if how == "cut":
        path.write_bytes(raw[:data.draw(st.integers(0, len(raw) - 1))])
        return
    if how == "flip":
        raw = bytearray(raw)
        for _ in range(data.draw(st.integers(1, 8))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
        path.write_bytes(bytes(raw))
        return
    db = sqlite3.connect(path)
    try:
        rows = [n for (n,) in db.execute("SELECT n FROM entries")]
        keys = [k for (k,) in db.execute("SELECT key FROM meta")]
        if (not rows and how in ("cell", "inside", "row-delete")) or (not keys and how.startswith("meta")):
            return
        if how == "meta-delete":
            db.execute("DELETE FROM meta WHERE key = ?", (data.draw(st.sampled_from(keys)),))
        elif how == "meta-value":
            db.execute("UPDATE meta SET value = ? WHERE key = ?", (data.draw(cells), data.draw(st.sampled_from(keys))))
        elif how == "cell":
            db.execute(f"UPDATE entries SET {data.draw(st.sampled_from(COLUMNS))} = ? WHERE n = ?",
                       (data.draw(cells), data.draw(st.sampled_from(rows))))
        elif how == "inside":        # one value deep inside a JSON column, deleted or replaced
            n = data.draw(st.sampled_from(rows))
            column = data.draw(st.sampled_from(["game", "events", "free_rng", "answers"]))
            (text,) = db.execute(f"SELECT {column} FROM entries WHERE n = ?", (n,)).fetchone()
            if text is None:
                return
            value = json.loads(text)
            node = value
            while isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
                key = data.draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
                if not isinstance(node[key], (dict, list)) or not node[key]:
                    break
                node = node[key]
            if isinstance(node, (dict, list)) and node:
                key = data.draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
                if data.draw(st.booleans()):
                    del node[key]
                else:
                    node[key] = data.draw(json_values)
            db.execute(f"UPDATE entries SET {column} = ? WHERE n = ?", (json.dumps(value), n))
        elif how == "row-delete":
            db.execute("DELETE FROM entries WHERE n = ?", (data.draw(st.sampled_from(rows)),))
        elif how == "sql":
            db.execute(data.draw(st.sampled_from([
                "DROP TABLE meta", "DROP TABLE entries", "ALTER TABLE entries DROP COLUMN answers",
                "ALTER TABLE entries DROP COLUMN free_rng", "CREATE TABLE extra (x)", "DELETE FROM meta",
                "UPDATE entries SET n = n * 7", "INSERT INTO entries (kind, command, events, game, free_rng, at) "
                "SELECT kind, command, events, game, free_rng, at FROM entries ORDER BY n LIMIT 1 OFFSET 2"])))
        db.commit()
    finally:
        db.close()


HOW = st.sampled_from(["cut", "flip", "meta-delete", "meta-value", "cell", "inside", "inside", "row-delete", "sql"])


@pytest.mark.timeout(max(120, EXAMPLES // 4))
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), which=st.integers(0, 1), damages=st.lists(HOW, min_size=1, max_size=3))
def test_a_damaged_session_resumes_or_is_refused_in_words(saved, data_dir, data, which, damages):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.dusk"
        shutil.copy(saved[which], path)
        for how in damages:
            try:
                mutate(path, data, how)
            except sqlite3.DatabaseError:
                break             # damaged past what SQLite can edit: resumed as it is
        try:
            session = Session.resume(path)
        except DuskError as err:
            assert str(err) and "Traceback" not in str(err)
            return
        try:                      # resumed: it plays on, or refuses in words
            if session.game.pending is None and not session.game.over:
                action = session.loop_action() or next(iter(session.game.ruleset.actions))
                try:
                    session.perform(action, {} if action == session.loop_action() else {"scale": "hour"}, action)
                except DuskError:
                    pass
        finally:
            session.close()
    assert not (data_dir / "bugs.log").exists()
    shutil.rmtree(data_dir, ignore_errors=True)
