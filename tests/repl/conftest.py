"""Fixtures for the REPL tests: a data dir of their own, and sessions over any ruleset."""

import io
from pathlib import Path

import pytest

from ruleset_engine import i18n
from ruleset_engine.repl.app import make_console, seat, table_language
from ruleset_engine.repl.session import Session

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"
# The same REPL tests run on a bundled game and on a test ruleset, so nothing in repl/ leans on one game.
GAMES = {"attack": "attack-of-the-vampires", "pool": str(RULESETS / "pool-conflict.yaml")}


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    path = tmp_path / "data"
    monkeypatch.setenv("DUSK_DATA_DIR", str(path))
    return path


def make_repl(source, seed=1, lang=None, ascii_only=False, dice="auto", **params):
    """A table over `source` writing plain text to `out`, as `dusk play --lang LANG` sets one (`lang` None:
    no --lang, so DUSK_LANG's, which tests/conftest.py sets to English): dusk's own words (the catalog)
    and the game's both in that language, through the CLI's own functions (tests/conftest.py puts the
    catalog back after each test). `dice="manual"`: real dice (the setup may ask)."""
    i18n.set_language(i18n.choose(lang))         # as cli.main does first, from --lang
    session, reply = Session.new(source, params or None, seed, lang=lang, dice=dice)
    out = io.StringIO()
    repl = seat(session, make_console(False, out), table_language(lang, session), ascii_only)
    repl._after(reply)
    return repl, out


def run(repl, out, *lines):
    """Run lines; return what they printed."""
    out.seek(0)
    out.truncate()
    for line in lines:
        repl.run_line(line)
    return out.getvalue()


def as_first_format(path) -> None:
    """Rewrite a session as the first format kept it (dusk-session/1: every entry's game and dice source
    whole), as sessions saved before entries kept what changed are, and as a hand edits most easily."""
    import json
    import sqlite3

    from ruleset_engine.repl.journal import read_session

    _, entries = read_session(path)
    db = sqlite3.connect(path)
    for entry in entries:
        db.execute("UPDATE entries SET game = ?, free_rng = ? WHERE n = ?",
                   (json.dumps(entry.game), json.dumps(entry.free_rng), entry.n))
    db.execute("UPDATE meta SET value = ? WHERE key = 'format'", (json.dumps("dusk-session/1"),))
    db.commit()
    db.close()
