"""`dusk serve` as a command: the links printed first (the GM's before any other), their QR codes, what
--host 0.0.0.0 means, a port in use said in words, a session resumed and let go at Ctrl-C."""

import io
import os
import re
import signal
import socket
import subprocess
import sys

from ruleset_engine.repl.session import Session
from ruleset_engine.web.serve import announce
from ruleset_engine.web.table import Table
from tests.web.conftest import noche_table


def test_the_gm_s_link_is_the_first_link_printed_each_with_its_qr_code(tmp_path):
    session, reply = Session.new("noche-de-los-vampiros", None, 1, tmp_path / "a.dusk")
    try:
        table = Table(session, reply, "en")
        out = io.StringIO()
        gm, join = announce(table, "127.0.0.1", 8765, out)
        text = out.getvalue()
        assert gm == f"http://127.0.0.1:8765/?seat={table.gm_token}" and join.endswith(f"/join?key={table.join_key}")
        assert text[text.index("http://"):].startswith(gm)
        assert text.index(gm) < text.index(join)
        assert text.count("█████") >= 2          # two QR codes, drawn with blocks
        assert "Only this computer" in text
        everyone = io.StringIO()
        announce(table, "0.0.0.0", 8765, everyone, codes=False)
        assert "every network" in everyone.getvalue() and "http://0.0.0.0" not in everyone.getvalue()
    finally:
        session.close()


def test_what_docs_serve_md_shows_printed_is_what_dusk_serve_prints(tmp_path):
    # docs/serve.md shows the lines `dusk serve` prints before it serves ([QR code] for each code;
    # `...` for a path or a token, as in doctest); the page and the program must not drift apart.
    from tests.test_docs_examples import ROOT, pattern

    page = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    start = page.index("before it serves:\n\n") + len("before it serves:\n\n")
    shown = []
    for line in page[start:].splitlines():
        if not line.startswith("    "):
            break
        shown.append(line[4:])
    assert len(shown) >= 5 and shown.count("[QR code]") == 2
    session, reply = Session.new("noche-de-los-vampiros", None, 1, tmp_path / "a.dusk")
    try:
        out = io.StringIO()
        announce(Table(session, reply, "en"), "127.0.0.1", 8765, out, codes=False)
    finally:
        session.close()
    # The page's path and tokens are a reader's (seat=Wm9...): any path, any token.
    lines = [re.sub(r"=\w+\.\.\.", "=...", line.replace("/home/ana/.local/share/dusk/sessions/", "..."))
             for line in shown if line != "[QR code]"]
    assert pattern(lines).fullmatch(out.getvalue()), f"docs/serve.md shows:\n{chr(10).join(lines)}\ndusk serve prints:\n{out.getvalue()}"


def serve(args, data_dir):
    env = dict(os.environ, DUSK_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "ruleset_engine", "serve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)


def test_a_port_in_use_is_said_in_words(data_dir):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        process = serve(["noche-de-los-vampiros", "--port", str(taken.getsockname()[1])], data_dir)
        out, _ = process.communicate(timeout=120)
        assert process.returncode == 2 and "cannot listen on 127.0.0.1:" in out and "Traceback" not in out
    finally:
        taken.close()


def test_a_saved_session_is_served_again_and_let_go_at_ctrl_c(tmp_path, data_dir):
    table = noche_table(tmp_path)          # a game begun: its setup answered
    path = table.session.journal.path
    table.session.close()
    process = serve(["--resume", str(path), "--port", "0"], data_dir)
    try:
        first = None
        for line in process.stdout:
            if "http://" in line:
                first = line
                break
        assert first is not None and "/?seat=" in first
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
        assert process.returncode in (0, 130) and "Traceback" not in out     # 130: stopped by Ctrl-C, as every command
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
    Session.resume(path).close()           # its lock was let go
