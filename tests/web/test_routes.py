"""Every route of the served table, in-process (Starlette's TestClient): auth, the JSON face, the pages,
the join, the export, the bounds."""

import sqlite3

import pytest
from starlette.testclient import TestClient

from ruleset_engine.web.app import MAX_BODY, make_app
from ruleset_engine.web.table import GM
from tests.web.conftest import bearer, seat_token

JSON_ROUTES = [("GET", "/api/state"), ("POST", "/api/command"), ("GET", "/api/events"), ("GET", "/api/export"),
               ("POST", "/api/join")]


def journal_rows(table) -> int:
    return sqlite3.connect(table.session.journal.path).execute("SELECT count(*) FROM entries").fetchone()[0]


@pytest.mark.parametrize("method,path", JSON_ROUTES)
@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"},
                                     {"Cookie": "dusk_seat=nope"}, {"Authorization": "Bearer \u00f1".encode("latin-1")},
                                     {"Authorization": "Bearer " + "x" * 5000}])
def test_a_wrong_or_missing_token_is_401_and_says_nothing_more(client, method, path, headers):
    answer = client.request(method, path, headers={**headers, "Content-Type": "application/json"},
                            content=b'{"line": "conflict"}')
    assert answer.status_code == 401
    assert answer.json() == {"error": "unauthorized"}


def test_the_pages_refuse_a_wrong_token_without_naming_the_game(client, table):
    for path in ("/", "/?seat=nope", "/join", "/join?key=nope"):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code == 401
        assert "noche" not in answer.text.lower() and table.session.journal.path.name not in answer.text


def test_the_join_key_is_no_seat(client, table):
    assert client.get("/api/state", headers=bearer(table.join_key)).status_code == 401
    assert client.post("/api/command", headers=bearer(table.join_key), json={"line": "conflict"}).status_code == 401


def test_the_gm_sees_every_seat_and_every_action(client, table):
    state = client.get("/api/state", headers=bearer(table.gm_token)).json()
    assert state["me"] == {"role": "gm", "seat": None}
    assert [s["name"] for s in state["seats"]["list"]] == ["Ana", "Beto", "Carla"]
    assert [s["name"] for s in state["sheets"]] == ["Ana", "Beto", "Carla"] and state["sheet"] is None
    assert {a["name"] for a in state["actions"]} == {"conflict", "scale"}
    assert state["question"] is None and state["ruleset"]["id"] == "noche-de-los-vampiros"
    assert "undo" in state["commands"] and "quit" not in state["commands"]
    said = [e["text"] for e in state["log"]]
    assert "Ana has a Bond with Beto: old friends" in said or any("Bond" in t for t in said)


def test_the_gm_s_state_lists_the_ruleset_s_tables_as_table_names_them(client, table):
    """Noche's one table and one pair, by the names `table` takes and their titles (rulesets/noche-de-los-vampiros.yaml)."""
    gm = bearer(table.gm_token)
    tables = client.get("/api/state", headers=gm).json()["tables"]
    assert tables == [{"name": "outcomes", "title": "Outcomes (after Zak Arntson's grid, in our own words)"},
                      {"name": "relationships", "title": "Relationships"}]
    listed = client.post("/api/command", headers=gm, json={"line": "table"}).json()
    assert listed["ok"] and "outcomes, relationships" in listed["output"]       # the REPL's own list
    for item in tables:          # each as the picker sends it: its table shown, under its title
        shown = client.post("/api/command", headers=gm, json={"line": f"table {item['name']}"}).json()
        assert shown["ok"] and item["title"] in shown["output"], shown
    assert client.get("/api/state", headers=bearer(seat_token(table, "Ana"))).json()["tables"] is None


def test_a_player_sees_their_own_sheet_and_no_gm_action(client, table):
    state = client.get("/api/state", headers=bearer(seat_token(table, "Beto"))).json()
    assert state["me"] == {"role": "player", "seat": "Beto"}
    assert state["sheet"]["name"] == "Beto" and state["sheets"] is None
    dice = next(f for f in state["sheet"]["fields"] if f["name"] == "dice")
    assert dice["value"] == 10            # 2 x 5 boxes at the night's start
    assert state["actions"] == []         # Noche's actions are the GM's: none has an `as`
    assert "undo" not in state["commands"] and "roll" in state["commands"]


def test_a_conflict_asks_each_seat_its_own_question(client, table):
    gm, ana, beto = bearer(table.gm_token), bearer(seat_token(table, "Ana")), bearer(seat_token(table, "Beto"))
    reply = client.post("/api/command", headers=gm, json={"line": "conflict"}).json()
    assert reply["ok"] and reply["question"]["owner"] == "Ana" and reply["question"]["kind"] == "number"
    assert client.get("/api/state", headers=ana).json()["question"]["mine"] is True
    assert client.get("/api/state", headers=beto).json()["question"]["mine"] is False
    rows, version = journal_rows(table), table.version
    wrong = client.post("/api/command", headers=beto, json={"line": "2"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "forbidden"
    assert (journal_rows(table), table.version) == (rows, version)
    assert table.repl.decision is not None and table.session.game.pending.answers == []
    refused = client.post("/api/command", headers=ana, json={"line": "99"}).json()
    assert refused["ok"] is False and "not a valid answer" in refused["refused"]
    assert refused["question"]["owner"] == "Ana" and table.session.game.pending.answers == []
    taken = client.post("/api/command", headers=ana, json={"line": "2"}).json()
    assert taken["ok"] and table.session.game.pending.answers == [2]
    assert taken["entries"][0]["kind"] == "ask" and taken["entries"][0]["text"].endswith("? 2")


@pytest.mark.parametrize("line", ["undo", "auto 1", "dice manual", "set Ana dice 3", "state", "request Beto 1d6",
                                  "roll --secret 1d6", "conflict", "scale hour", "sheet Ana", "save", "new", "quit"])
def test_a_player_may_not_type_the_gm_s_commands(client, table, line):
    beto = bearer(seat_token(table, "Beto"))
    before = (journal_rows(table), table.version, table.session.game.core())
    answer = client.post("/api/command", headers=beto, json={"line": line})
    assert answer.status_code == 403 if line not in ("new", "quit") else answer.json()["ok"] is False
    assert (journal_rows(table), table.version, table.session.game.core()) == before


def test_a_player_may_read_and_roll(client, table):
    beto = bearer(seat_token(table, "Beto"))
    for line in ("help", "status", "log 3", "rules", "sheet Beto", "prob 2d6"):
        reply = client.post("/api/command", headers=beto, json={"line": line})
        assert reply.status_code == 200 and reply.json()["ok"], line
    rolled = client.post("/api/command", headers=beto, json={"line": "roll 2d6"}).json()
    assert rolled["ok"] and rolled["entries"][0]["kind"] == "free-roll" and len(rolled["entries"][0]["dice"]) == 2


@pytest.mark.parametrize("line", ["quit", "exit", "new", "export chronicle.md", "export sheets out", "save elsewhere.dusk",
                                  "fill Ana"])
def test_the_gm_s_lines_that_would_leave_or_write_files_are_refused(client, table, line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    reply = client.post("/api/command", headers=bearer(table.gm_token), json={"line": line})
    assert reply.status_code == 200 and reply.json()["ok"] is False and reply.json()["refused"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_secret_roll_is_the_gm_s_alone_and_marked_in_the_export(client, table):
    gm, ana = bearer(table.gm_token), bearer(seat_token(table, "Ana"))
    reply = client.post("/api/command", headers=gm, json={"line": "roll --secret 3d10"}).json()
    entry = reply["entries"][0]
    assert entry["secret"] and entry["expression"] == "3d10" and len(entry["dice"]) == 3
    assert entry["text"].startswith("secret roll")
    assert any(e["seq"] == entry["seq"] for e in client.get("/api/state", headers=gm).json()["log"])
    assert not any(e["secret"] for e in client.get("/api/state", headers=ana).json()["log"])
    export = client.get("/api/export", headers=gm)
    assert export.status_code == 200 and "attachment" in export.headers["content-disposition"]
    assert "secret roll  3d10" in export.text
    assert client.get("/api/export", headers=ana).status_code == 403
    rows = sqlite3.connect(table.session.journal.path).execute(
        "SELECT command, events FROM entries ORDER BY n DESC LIMIT 1").fetchone()
    assert rows[0] == "roll --secret 3d10" and '"secret": true' in rows[1]


def test_a_roll_asked_of_a_seat_is_made_by_that_seat(client, table):
    gm, ana, beto = bearer(table.gm_token), bearer(seat_token(table, "Ana")), bearer(seat_token(table, "Beto"))
    asked = client.post("/api/command", headers=gm, json={"line": "request Ana 3d6"}).json()
    assert asked["ok"] and asked["entries"][0]["kind"] == "roll-request"
    mine = client.get("/api/state", headers=ana).json()["requests"]
    assert [(r["seat"], r["expression"], r["mine"]) for r in mine] == [("Ana", "3d6", True)]
    assert client.get("/api/state", headers=beto).json()["requests"] == []
    assert client.post("/api/command", headers=beto, json={"line": "roll"}).json()["ok"] is False   # nothing asked of Beto
    made = client.post("/api/command", headers=ana, json={"line": "roll"}).json()
    roll = made["entries"][0]
    assert made["ok"] and roll["who"] == "Ana" and roll["expression"] == "3d6" and len(roll["dice"]) == 3
    assert client.get("/api/state", headers=gm).json()["requests"] == []
    assert any(e["seq"] == roll["seq"] for e in client.get("/api/state", headers=beto).json()["log"])


def test_a_request_names_a_seat(client, table):
    reply = client.post("/api/command", headers=bearer(table.gm_token), json={"line": "request Zed 1d6"}).json()
    assert reply["ok"] is False and "Ana, Beto, Carla" in reply["refused"]


def test_the_join_link_takes_a_free_seat_once(client, table):
    key = bearer(table.join_key)
    assert client.post("/api/join", headers=key, json={}).json()["free"] == ["Ana", "Beto", "Carla"]
    joined = client.post("/api/join", headers=key, json={"seat": "beto"}).json()
    assert joined["seat"] == "Beto"
    assert client.get("/api/state", headers=bearer(joined["token"])).json()["me"]["seat"] == "Beto"
    again = client.post("/api/join", headers=key, json={"seat": "Beto"})
    assert again.status_code == 409 and again.json()["free"] == ["Ana", "Carla"]
    assert client.post("/api/join", headers=key, json={"seat": "Zed"}).status_code == 409
    # The GM gives a taken seat again (a lost phone): the old token stops working.
    given = client.post("/api/join", headers=bearer(table.gm_token), json={"seat": "Beto"}).json()
    assert given["seat"] == "Beto" and given["token"] != joined["token"]
    assert client.get("/api/state", headers=bearer(joined["token"])).status_code == 401


def test_a_page_opened_with_its_token_keeps_it_in_a_cookie(client, table):
    opened = client.get(f"/?seat={table.gm_token}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    cookie = opened.headers["set-cookie"]
    assert f"dusk_seat={table.gm_token}" in cookie and "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    page = client.get("/")
    assert page.status_code == 200 and "Noche de los Vampiros" in page.text
    assert client.get("/api/state").json()["me"]["role"] == "gm"      # the cookie authenticates the API too
    joined = client.get(f"/join?key={table.join_key}", follow_redirects=False)
    assert joined.status_code == 303 and "dusk_join=" in joined.headers["set-cookie"]


def test_the_gm_s_page_gives_a_seat_with_its_own_cookie(client, table):
    """The GM's page (its seat cookie, no join key) gives a seat; a player's page gives none."""
    client.get(f"/?seat={table.gm_token}")
    given = client.post("/api/join", json={"seat": "Carla"})
    assert given.status_code == 200 and given.json()["seat"] == "Carla" and given.json()["link"].startswith("/?seat=")
    assert "set-cookie" not in given.headers           # the GM's page stays the GM's
    client.cookies.clear()
    client.get(f"/?seat={seat_token(table, 'Ana')}")
    assert client.post("/api/join", json={"seat": "Beto"}).status_code == 401


@pytest.mark.parametrize("method,path", [("GET", "/api/state"), ("POST", "/api/command"), ("GET", "/api/export"),
                                         ("POST", "/api/join"), ("GET", "/api/events")])
def test_every_route_counts_against_the_seat_s_rate(table, method, path):
    """One bucket a token, whatever route spends it: the GM's burst of 2 spent on the state, the next asks wait."""
    with TestClient(make_app(table, rate=0.0001, burst=2)) as client:
        gm = bearer(table.gm_token)
        assert [client.get("/api/state", headers=gm).status_code for _ in range(2)] == [200, 200]
        answer = client.request(method, path, headers={**gm, "Content-Type": "application/json"}, content=b"{}")
        assert answer.status_code == 429 and answer.headers["retry-after"] == "1"


def test_a_body_past_the_bound_is_refused_unread(client, table):
    gm = bearer(table.gm_token)
    big = client.post("/api/command", headers={**gm, "Content-Type": "application/json"},
                      content=b'{"line": "' + b"1" * MAX_BODY + b'"}')
    assert big.status_code == 413
    assert client.post("/api/command", headers={**gm, "Content-Type": "text/plain"}, content=b"conflict").status_code == 415
    assert client.post("/api/command", headers={**gm, "Content-Type": "application/json"}, content=b"{no").status_code == 400
    assert client.post("/api/command", headers=gm, json=["conflict"]).status_code == 400
    assert client.post("/api/command", headers=gm, json={"line": 3}).status_code == 400
    assert client.post("/api/command", headers=gm, json={"line": "x" * 10_001}).status_code == 400
    assert table.version == table.version and table.session.game.pending is None


def test_a_seat_past_its_rate_waits(table):
    with TestClient(make_app(table, rate=0.0001, burst=5)) as client:
        ana = bearer(seat_token(table, "Ana"))
        codes = [client.get("/api/state", headers=ana).status_code for _ in range(8)]
        assert codes == [200] * 5 + [429] * 3
        assert client.get("/api/state", headers=bearer(table.gm_token)).status_code == 200   # a bucket per token


def test_the_streams_are_bounded(table):
    with TestClient(make_app(table, max_streams=0)) as client:
        assert client.get("/api/events", headers=bearer(table.gm_token)).status_code == 503


def test_a_typed_script_shows_as_text_on_every_page(tmp_path):
    from ruleset_engine.repl.session import Session
    from ruleset_engine.web.table import Table
    from tests.web.conftest import SHEETS

    session, reply = Session.new("vampire-the-masquerade", None, 3, tmp_path / "vtm.dusk", sheets=SHEETS)
    table = Table(session, reply, "en")
    try:
        made = table.run(GM, 'character "<script>alert(1)</script>"')
        while table.repl.decision is not None:
            table.run(GM, "auto")
        assert made.ok and "<script>alert(1)</script>" in table.seats()
        with TestClient(make_app(table)) as client:
            client.get(f"/?seat={table.gm_token}")
            page = client.get("/").text
        assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    finally:
        session.close()


def test_every_setup_question_is_the_gm_s(tmp_path):
    """At dusk serve, Noche's setup asks before any character exists (a seat is a character): every
    question, even one that names a character (Beto's Bond with Ana), is the GM's to answer on the GM's
    screen; the join link has no seat to give until the setup made them."""
    from ruleset_engine.repl.session import Session
    from ruleset_engine.web.table import Table

    session, reply = Session.new("noche-de-los-vampiros", {"players": 2}, 7, tmp_path / "setup.dusk")
    table = Table(session, reply, "en")
    try:
        with TestClient(make_app(table)) as client:
            gm, key = bearer(table.gm_token), bearer(table.join_key)
            asked, answers = [], iter(["2", "Ana", "Beto"])
            while (question := client.get("/api/state", headers=gm).json()["question"]) is not None:
                asked.append(question["prompt"])
                assert question["mine"] and question["owner"] is None, question
                assert question["owner_label"] == "the GM's question"
                assert client.post("/api/join", headers=key, json={}).json()["free"] == []
                assert client.post("/api/join", headers=key, json={"seat": "Ana"}).status_code == 409
                answer = client.post("/api/command", headers=gm, json={"line": next(answers, "old friends")}).json()
                assert answer["ok"], answer
            assert asked[0] == "How many characters tonight (2 to 8)?" and len(asked) == 5, asked
            assert any(p.startswith("Beto: your Bond with Ana") or p.startswith("Ana: your Bond with Beto")
                       for p in asked), asked
            assert client.post("/api/join", headers=key, json={}).json()["free"] == ["Ana", "Beto"]
    finally:
        session.close()
