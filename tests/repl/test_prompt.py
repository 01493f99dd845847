"""The prompt in-process: pipe input, a dummy output, Tab completion, Ctrl-C and Ctrl-D."""

import threading
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from ruleset_engine.repl.app import interactive_loop, make_session
from tests.repl.conftest import GAMES, make_repl

pytestmark = pytest.mark.timeout(60)


def wait_for(condition, what, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def drive(repl, script):
    """Run the prompt loop in this thread while `script(pipe, session)` types from another."""
    with create_pipe_input() as pipe:
        session = make_session(repl, input=pipe, output=DummyOutput())
        failure = []

        def typist():
            try:
                wait_for(lambda: session.app.is_running, "the prompt")
                script(pipe, session)
            except BaseException as err:  # noqa: BLE001 - reported by the test below
                failure.append(err)
            finally:
                pipe.send_text("\x04")     # Ctrl-D, always, so the loop ends

        thread = threading.Thread(target=typist)
        thread.start()
        interactive_loop(repl, session)
        thread.join(10)
        if failure:
            raise failure[0]


def type_line(pipe, session, text):
    before = session.app.current_buffer.text
    pipe.send_text(text)
    wait_for(lambda: session.app.current_buffer.text == before + text, f"{text!r} typed")


def press_enter_and_wait(pipe, session, repl, turn):
    pipe.send_text("\r")
    wait_for(lambda: repl.table.game.turn >= turn and session.app.is_running, "the command to finish")


@pytest.mark.parametrize("game", GAMES)
def test_tab_completes_an_action_and_enter_performs_it(game):
    repl, out = make_repl(GAMES[game])
    action = repl.table.loop_action()

    def script(pipe, session):
        type_line(pipe, session, action[:3])
        pipe.send_text("\t")
        wait_for(lambda: session.app.current_buffer.text == action, "the completion")
        pipe.send_text("\r")
        if game == "pool":
            wait_for(lambda: repl.decision is not None, "the decision")
        else:
            wait_for(lambda: repl.table.game.turn == 2, "the round")

    drive(repl, script)
    assert "Saved in" in out.getvalue()
    if game == "pool":
        assert repl.decision.prompt.endswith("how many of your 10 dice do you risk?")
    else:
        assert "Search" in out.getvalue()


def test_ctrl_c_clears_the_line_and_never_leaves():
    repl, out = make_repl(GAMES["attack"])

    def script(pipe, session):
        type_line(pipe, session, "rou")
        pipe.send_text("\x03")        # Ctrl-C
        wait_for(lambda: session.app.current_buffer.text == "" and session.app.is_running, "a clear line")
        type_line(pipe, session, "round")
        press_enter_and_wait(pipe, session, repl, 2)

    drive(repl, script)
    assert repl.table.game.turn == 2


def test_toolbar_and_history(data_dir):
    repl, out = make_repl(GAMES["attack"])
    seen = {}

    def script(pipe, session):
        seen["toolbar"] = session.bottom_toolbar()
        type_line(pipe, session, "round")
        press_enter_and_wait(pipe, session, repl, 2)

    drive(repl, script)
    assert seen["toolbar"].startswith(" Life ") and "Vampires 3" in seen["toolbar"]
    assert "round" in (data_dir / "history").read_text()
