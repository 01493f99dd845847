"""Fuzzing the values of saved games (issue 24): a real session's game, edited as a hand would (a value
swapped for one of another kind, a number past 2^53, Infinity or NaN, an instance turned into a list, a
field deleted or added), in any entry, is resumed and played on (`auto`, `undo`, `state`, `sheet`).
Each edit is refused at resume in words naming its entry, or the game plays on: never a traceback,
never the "bug" line. About ten seconds in `make test`; `make fuzz` (DUSK_FUZZ_SCALE=20) runs twenty
times more examples."""

import re
import io
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
from ruleset_engine.repl.app import make_console
from ruleset_engine.repl.commands import Repl
from ruleset_engine.repl.render import Style
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, RULESETS, as_first_format, make_repl, run

pytestmark = pytest.mark.fuzz
SCALE = int(os.environ.get("DUSK_FUZZ_SCALE", "1"))   # make fuzz: many times more examples
EXAMPLES = 60 * SCALE

# Values of every kind a JSON file can hold, those at and past the limits among them.
scalars = (st.none() | st.booleans() | st.integers(-2**60, 2**60)
           | st.sampled_from([2**53, 2**53 + 1, -2**53 - 1, 10**30, 0, -1, 1])
           | st.sampled_from([float("inf"), float("-inf"), float("nan"), 0.5, -0.0])
           | st.text(max_size=8) | st.sampled_from(["", "Ana", "x" * 200]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["en", "name", "index", "marked", "labels", "x"]), inner,
                                        max_size=3), max_leaves=6)
SOURCES = [GAMES["attack"], str(RULESETS / "pair-records.yaml"), str(RULESETS / "marked-track.yaml")]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Real sessions of a game with one entity, one with a group and pairs, one with typed tracks."""
    folder = tmp_path_factory.mktemp("saved")
    old = os.environ.get("DUSK_DATA_DIR")
    os.environ["DUSK_DATA_DIR"] = str(folder / "data")
    files = []
    try:
        for source in SOURCES:
            repl, out = make_repl(source, seed=6)
            run(repl, out, "auto 2", "undo", "auto 1")
            assert repl.errors == 0
            repl.session.close()
            as_first_format(repl.session.journal.path)     # every game whole, for the edits to reach
            files.append(repl.session.journal.path)
    finally:
        if old is not None:
            os.environ["DUSK_DATA_DIR"] = old
    return files


def edit(path: Path, data) -> None:
    """One value of one entry's game replaced, deleted or added, somewhere under its values."""
    db = sqlite3.connect(path)
    try:
        rows = [n for (n,) in db.execute("SELECT n FROM entries")]
        n = rows[-1] if data.draw(st.booleans()) else data.draw(st.sampled_from(rows))   # the game, or its past
        (text,) = db.execute("SELECT game FROM entries WHERE n = ?", (n,)).fetchone()
        game = json.loads(text)
        node = game["values"]
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = data.draw(st.sampled_from(keys))
            # Deep more often than not: a field of an instance, a box of a track, a die of a pool.
            if isinstance(node[key], (dict, list)) and node[key] and data.draw(st.integers(0, 4)) > 0:
                node = node[key]
                continue
            how = data.draw(st.sampled_from(["replace"] * 6 + ["delete", "add"]))
            if how == "replace":
                node[key] = data.draw(values)
            elif how == "delete":
                del node[key]
            elif isinstance(node, dict):
                node[data.draw(st.sampled_from(["extra", "name", "index", "marks"]))] = data.draw(values)
            else:
                node.append(data.draw(values))
            break
        db.execute("UPDATE entries SET game = ? WHERE n = ?", (json.dumps(game), n))
        db.commit()
    finally:
        db.close()


@pytest.mark.timeout(max(600, EXAMPLES * 5))       # a machine under load: well past the ~60 s it takes
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), which=st.integers(0, len(SOURCES) - 1), edits=st.integers(1, 3))
def test_an_edited_value_is_refused_at_resume_or_the_game_plays_on(saved, data_dir, data, which, edits):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.dusk"
        shutil.copy(saved[which], path)
        for _ in range(edits):
            edit(path, data)
        try:
            session = Session.resume(path)
        except DuskError as err:
            assert str(err) and "Traceback" not in str(err) and not re.search(r"\bbug\b", str(err))
            return
        out = io.StringIO()
        repl = Repl(session, make_console(False, out), Style("en", False))
        try:
            for line in ("state", "auto 2", "undo", "undo", "status", "log 5", "sheet P1", "auto"):
                repl.run_line(line)
        finally:
            session.close()
        assert "a bug" not in out.getvalue(), out.getvalue()
    assert not (data_dir / "bugs.log").exists()
    shutil.rmtree(data_dir, ignore_errors=True)
