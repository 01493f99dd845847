"""One game, one journal: a game served to the browser resumes at the REPL and back, nothing lost; a
server killed with -9 keeps every answer it answered 200 to; the live stream tells every screen."""

import io
import json
import os
import signal
import subprocess
import sys
import threading

import httpx
import pytest

from ruleset_engine.repl.app import make_console
from ruleset_engine.repl.commands import Repl
from ruleset_engine.repl.render import Style
from ruleset_engine.repl.session import Session
from ruleset_engine.web.app import make_app
from ruleset_engine.web.serve import bind
from ruleset_engine.web.table import GM, Table
from tests.web.conftest import SHEETS, noche_table


def play_a_conflict(table, answers_by_seat):
    """The GM starts a conflict; each seat answers its own questions (risk, then bring none), as its screen does."""
    assert table.run(GM, "conflict").ok
    while table.repl.decision is not None:
        owner = table.repl.owner()
        decision = table.repl.decision
        line = str(answers_by_seat[owner]) if decision.kind == "number" else "none" if decision.kind == "instances" \
            else "auto"
        reply = table.run(owner if decision.kind != "yes_no" else GM, line if decision.kind != "yes_no" else "yes")
        assert reply.ok, reply.refused


def test_a_served_game_resumes_at_the_repl_and_back_with_nothing_lost(tmp_path):
    table = noche_table(tmp_path)
    path = table.session.journal.path
    play_a_conflict(table, {"Ana": 2, "Beto": 3, "Carla": 1})
    assert table.run(GM, "roll --secret 2d10").ok
    assert table.run(GM, "request Beto 4d6").ok
    served = table.session.game.core()
    shown = [(e["kind"], e["text"]) for e in table.state(GM)["log"]]
    rolls = [e for _, e in table.session.rolls]
    table.session.close()

    # At the REPL: the same game, the same rolls beside it, the request still waiting.
    session = Session.resume(path)
    assert session.game.core() == served
    assert [e for _, e in session.rolls] == rolls
    assert [r["who"] for r in session.pending_requests()] == ["Beto"]
    out = io.StringIO()
    repl = Repl(session, make_console(False, out), Style("en"))
    repl.run_line("roll")                  # the REPL is the whole table: it makes Beto's roll
    repl.run_line("conflict")
    assert "(Ana answers)" in repl.prompt_text           # whose the question is, at the prompt
    while repl.decision is not None:
        repl.run_line("1" if repl.decision.kind == "number" else "none" if repl.decision.kind == "instances" else "auto")
    assert repl.errors == 0, out.getvalue()
    at_the_repl = session.game.core()
    session.close()

    # Served again: both parts in its log, the game as the REPL left it.
    again = Table(Session.resume(path), None, "en")
    try:
        assert again.session.game.core() == at_the_repl
        log = [(e["kind"], e["text"]) for e in again.state(GM)["log"]]
        assert log[:len(shown)] == shown[:len(log)] or set(shown) <= set(log)
        assert sum(1 for kind, text in log if text.startswith("Beto rolls  4d6")) == 1
        assert sum(1 for kind, text in log if text.startswith("secret roll  2d10")) == 1
        assert again.session.pending_requests() == []
        assert again.run(GM, "conflict").ok and again.repl.owner() is not None
    finally:
        again.session.close()


def test_the_gm_answers_for_a_seat_that_left(tmp_path):
    table = noche_table(tmp_path)
    try:
        assert table.run(GM, "conflict").ok
        assert table.repl.owner() == "Ana" and table.run(GM, "2").ok
        assert table.session.game.pending.answers == [2]
    finally:
        table.session.close()


def test_a_vtm_player_acts_as_their_own_character_only(tmp_path):
    session, reply = Session.new("vampire-the-masquerade", None, 5, tmp_path / "vtm.dusk", sheets=SHEETS)
    table = Table(session, reply, "en")
    try:
        assert table.seats() == ["Ana", "Kojiro"]
        ana = table.take_seat("Ana", by_gm=False).seat
        state = table.state(ana)
        attack = next(a for a in state["actions"] if a["name"] == "attack")
        assert attack["seat_param"] == "who" and {"test", "attack"} <= {a["name"] for a in state["actions"]}
        assert "scene" not in {a["name"] for a in state["actions"]}     # the GM's
        from ruleset_engine.web.rights import Forbidden

        for line in ("attack Kojiro Ana", "attack who=Kojiro target=Ana", "scene", "test as Kojiro dex + brawl"):
            with pytest.raises(Forbidden):
                table.run(ana, line)
        done = table.run(ana, "attack target=Kojiro defend dodge")   # played as Ana: `who=Ana` added
        assert done.ok, done.refused
        assert any(e["kind"] == "roll" for e in done.entries)
        action = table.session.commands[-1].text
        assert action == "attack target=Kojiro defend dodge who=Ana"
        # The defender chooses on their own screen: `defend ask` asks Kojiro's seat.
        kojiro = table.take_seat("Kojiro", by_gm=False).seat
        asked = table.run(ana, "attack target=Kojiro defend ask")
        assert asked.ok and asked.question["owner"] == "Kojiro" and asked.question["kind"] == "choice"
        assert asked.question["mine"] is False and table.state(kojiro)["question"]["mine"] is True
        with pytest.raises(Forbidden):
            table.run(ana, "none")
        dodged = table.run(kojiro, "dodge")
        assert dodged.ok and table.repl.decision is None
        assert dodged.entries[0]["kind"] == "ask" and dodged.entries[0]["text"].endswith("or none? dodge")
        assert table.session.commands[-1].text == "attack target=Kojiro defend ask who=Ana"
    finally:
        session.close()


# ---- a real server: the live stream, and kill -9

def serve_in_thread(table):
    import uvicorn

    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(make_app(table), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{sock.getsockname()[1]}"


def read_update(lines) -> dict:
    """The next `update` of a stream (comments and ids passed over)."""
    data = []
    for line in lines:
        if line.startswith("data: "):
            data.append(line[len("data: "):])
        elif line == "" and data:
            return json.loads("\n".join(data))
    raise AssertionError("the stream ended")


def test_every_screen_s_stream_shows_a_roll_but_only_the_gm_s_a_secret_one(tmp_path):
    table = noche_table(tmp_path)
    server, thread, base = serve_in_thread(table)
    try:
        gm = {"Authorization": f"Bearer {table.gm_token}"}
        ana = {"Authorization": f"Bearer {table.take_seat('Ana', False).token}"}
        with httpx.Client(base_url=base, timeout=30) as client, \
                client.stream("GET", "/api/events", headers=gm) as gm_stream, \
                client.stream("GET", "/api/events", headers=ana) as ana_stream:
            gm_lines, ana_lines = gm_stream.iter_lines(), ana_stream.iter_lines()
            assert read_update(gm_lines)["entries"] == [] and read_update(ana_lines)["entries"] == []
            with httpx.Client(base_url=base, timeout=30) as poster:
                secret = poster.post("/api/command", headers=gm, json={"line": "roll --secret 1d10"}).json()
                public = poster.post("/api/command", headers=gm, json={"line": "roll 2d6"}).json()
            seen_by_gm = read_update(gm_lines)["entries"]
            while len(seen_by_gm) < 2:
                seen_by_gm += read_update(gm_lines)["entries"]
            assert [e["seq"] for e in seen_by_gm] == [secret["entries"][0]["seq"], public["entries"][0]["seq"]]
            seen_by_ana = read_update(ana_lines)["entries"]
            while not seen_by_ana:
                seen_by_ana += read_update(ana_lines)["entries"]
            assert [e["seq"] for e in seen_by_ana] == [public["entries"][0]["seq"]]
            assert seen_by_ana[0]["dice"] == public["entries"][0]["dice"]
    finally:
        server.should_exit = True
        thread.join(10)
        table.session.close()


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9 is POSIX")
def test_kill_9_loses_no_answer_the_server_accepted(tmp_path, data_dir):
    path = tmp_path / "killed.dusk"
    env = dict(os.environ, DUSK_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "ruleset_engine", "serve", "noche-de-los-vampiros", "--seed", "4",
                                "--set", "players=2", "--save", str(path), "--port", "0", "--lang", "en"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        link = None
        for line in process.stdout:          # the GM's link is the first http link printed
            if "http://" in line:
                link = line[line.index("http://"):].split()[0]
                break
        assert link is not None and "/?seat=" in link
        base, token = link.split("/?seat=")
        headers = {"Authorization": f"Bearer {token}"}
        accepted = []
        with httpx.Client(base_url=base, timeout=30) as client:
            for _ in range(100):
                try:
                    client.get("/api/state", headers=headers)
                    break
                except httpx.TransportError:
                    import time
                    time.sleep(0.1)
            for line in ["2", "Ana", "Beto", "old friends", "old friends", "conflict", "3"]:
                reply = client.post("/api/command", headers=headers, json={"line": line}).json()
                assert reply["ok"], reply
                accepted.append(line)
            state = client.get("/api/state", headers=headers).json()
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        assert state["question"] is not None        # Ana's risk given (3), the Relationships to bring wait
        session = Session.resume(path, force=False)
        try:
            # The setup's answers, and the conflict under way with Ana's risk: its next question waits again.
            assert [i["name"] for i in session.game.values["character"]] == ["Ana", "Beto"]
            assert session.game.pending is not None and session.game.pending.answers == [3]
            assert session.reply.decision.prompt == state["question"]["prompt"]
            reply = session.reply
            while reply.decision is not None:                     # and it goes on, and is saved
                line = "1" if reply.decision.kind == "number" else "none"
                reply = session.answer(reply.decision, line, line)
            assert session.commands[-1].text == "conflict"
            assert session.journal.entries()[-1].kind == "action"
        finally:
            session.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)


def test_an_answer_mid_action_is_saved_and_an_undone_question_is_saved_as_dropped(tmp_path):
    table = noche_table(tmp_path)
    path = table.session.journal.path
    assert table.run(GM, "conflict").ok and table.run("Ana", "2").ok
    table.session.close()
    session = Session.resume(path)          # at the REPL: Ana's answer given again, her next question waits
    assert session.game.pending.answers == [2] and session.reply.decision.who == "Ana"
    session.close()
    resumed = Session.resume(path)
    table = Table(resumed, resumed.reply, "en")
    assert table.repl.decision is not None and table.repl.owner() == "Ana"
    assert table.run(GM, "undo").ok and table.repl.decision is None      # the question dropped, and saved so
    table.session.close()
    session = Session.resume(path)
    try:
        assert session.game.pending is None and session.reply is None
    finally:
        session.close()
