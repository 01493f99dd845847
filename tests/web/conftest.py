"""Fixtures for the served table: a data dir of its own, a Noche table with three seats, its client."""

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ruleset_engine.repl.session import Session
from ruleset_engine.web.app import make_app
from ruleset_engine.web.table import GM, Table

NAMES = ["Ana", "Beto", "Carla"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    path = tmp_path / "data"
    monkeypatch.setenv("DUSK_DATA_DIR", str(path))
    return path


def noche_table(tmp_path, names=NAMES, seed=7) -> Table:
    """Noche with these characters, its setup answered by the GM (the Relationships in words)."""
    session, reply = Session.new("noche-de-los-vampiros", {"players": len(names)}, seed, tmp_path / "game.dusk")
    table = Table(session, reply, "en")
    table.run(GM, str(len(names)))
    for name in names:
        table.run(GM, name)
    while table.repl.decision is not None:      # the Relationships, in a few words
        assert table.run(GM, "old friends").ok
    return table


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def table(tmp_path):
    made = noche_table(tmp_path)
    yield made
    made.session.close()


@pytest.fixture
def client(table):
    with TestClient(make_app(table)) as made:
        yield made


def seat_token(table, name: str) -> str:
    return table.take_seat(name, by_gm=True).token

SHEETS = tuple(str(Path(__file__).resolve().parents[2] / "rulesets" / "vampire-the-masquerade" / name)
               for name in ("ana.yaml", "kojiro.yaml"))
