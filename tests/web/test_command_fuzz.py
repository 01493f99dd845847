"""Fuzzing the command route: any body, any line, from a player and from the GM. Each answer is a
200 (done or refused in words), a 403 (nothing run), or a 400/413/415 for a body that is not a
command; never a 500, never a traceback, never a bug logged; a 403 leaves the game and its file
as they were. `make fuzz` (DUSK_FUZZ_SCALE=20) runs twenty times more examples."""

import os
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from ruleset_engine.web.app import make_app
from tests.web.conftest import bearer, noche_table

pytestmark = pytest.mark.fuzz
SCALE = int(os.environ.get("DUSK_FUZZ_SCALE", "1"))
EXAMPLES = 60 * SCALE

WORDS = ["conflict", "scale", "hour", "undo", "auto", "roll", "--secret", "request", "Ana", "Beto", "Carla", "as",
         "who=Ana", "dice", "manual", "set", "sheet", "state", "help", "log", "export", "save", "quit", "none",
         "1", "2", "99", "-1", "3d6", "<script>", "'", '"', "\\", ";", "\x00", "１", "ñ", "人"]
lines = st.one_of(st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join), st.text(max_size=60))
bodies = st.one_of(lines.map(lambda line: {"line": line}), st.just({}), st.just({"line": None}),
                   st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    os.environ["DUSK_DATA_DIR"] = str(folder / "data")
    table = noche_table(folder)
    with TestClient(make_app(table, rate=1e9, burst=10**9), raise_server_exceptions=True) as client:
        yield table, client, {"Ana": table.take_seat("Ana", False).token, None: table.gm_token}
    table.session.close()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=bodies, seat=st.sampled_from(["Ana", None]))
def test_any_body_is_answered_in_words(served, body, seat):
    table, client, tokens = served
    path = table.session.journal.path
    rows = sqlite3.connect(path).execute("SELECT count(*) FROM entries").fetchone()[0]
    core, bugs = table.session.game.core(), table.repl.bugs
    answer = client.post("/api/command", headers=bearer(tokens[seat]), json=body)
    assert answer.status_code in (200, 400, 403), answer.text
    data = answer.json()
    if answer.status_code == 200:
        assert set(data) == {"ok", "refused", "output", "entries", "question", "version"}
        assert data["ok"] is (data["refused"] is None)
    else:
        assert sqlite3.connect(path).execute("SELECT count(*) FROM entries").fetchone()[0] == rows
        assert table.session.game.core() == core
    assert table.repl.bugs == bugs, data
    assert "Traceback" not in answer.text
