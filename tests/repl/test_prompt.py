"""The prompt in-process: pipe input, a dummy output, Tab completion, Ctrl-C and Ctrl-D."""

import threading
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from ruleset_engine.repl.app import interactive_loop, make_prompt
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
    """Run the prompt loop in this thread while `script(pipe, prompt)` types from another."""
    with create_pipe_input() as pipe:
        prompt = make_prompt(repl, input=pipe, output=DummyOutput())
        failure = []

        def typist():
            try:
                wait_for(lambda: prompt.app.is_running, "the prompt")
                script(pipe, prompt)
            except BaseException as err:  # noqa: BLE001 - reported by the test below
                failure.append(err)
            finally:
                pipe.send_text("\x04")     # Ctrl-D, always, so the loop ends

        thread = threading.Thread(target=typist)
        thread.start()
        interactive_loop(repl, prompt)
        thread.join(10)
        if failure:
            raise failure[0]


def type_line(pipe, prompt, text):
    before = prompt.app.current_buffer.text
    pipe.send_text(text)
    wait_for(lambda: prompt.app.current_buffer.text == before + text, f"{text!r} typed")


def press_enter_and_wait(pipe, prompt, repl, turn):
    pipe.send_text("\r")
    wait_for(lambda: repl.session.game.turn >= turn and prompt.app.is_running, "the command to finish")


@pytest.mark.parametrize("game", GAMES)
def test_tab_completes_an_action_and_enter_performs_it(game):
    repl, out = make_repl(GAMES[game])
    action = repl.session.loop_action()

    def script(pipe, prompt):
        type_line(pipe, prompt, action[:3])
        pipe.send_text("\t")
        wait_for(lambda: prompt.app.current_buffer.text == action, "the completion")
        pipe.send_text("\r")
        if game == "pool":
            wait_for(lambda: repl.decision is not None, "the decision")
        else:
            wait_for(lambda: repl.session.game.turn == 2, "the round")

    drive(repl, script)
    assert "Saved in" in out.getvalue()
    if game == "pool":
        assert repl.decision.prompt.endswith("how many of your 10 dice do you risk?")
    else:
        assert "Search" in out.getvalue()


def test_ctrl_c_clears_the_line_and_never_leaves():
    repl, out = make_repl(GAMES["attack"])

    def script(pipe, prompt):
        type_line(pipe, prompt, "rou")
        pipe.send_text("\x03")        # Ctrl-C
        wait_for(lambda: prompt.app.current_buffer.text == "" and prompt.app.is_running, "a clear line")
        type_line(pipe, prompt, "round")
        press_enter_and_wait(pipe, prompt, repl, 2)

    drive(repl, script)
    assert repl.session.game.turn == 2


def test_toolbar_and_history(data_dir):
    repl, out = make_repl(GAMES["attack"])
    seen = {}

    def script(pipe, prompt):
        seen["toolbar"] = prompt.bottom_toolbar()
        type_line(pipe, prompt, "round")
        press_enter_and_wait(pipe, prompt, repl, 2)

    drive(repl, script)
    assert seen["toolbar"].startswith(" Life ") and "Vampires 3" in seen["toolbar"]
    assert "round" in (data_dir / "history").read_text()


def test_leaving_while_a_question_waits_says_what_was_not_played():
    repl, out = make_repl(GAMES["pool"])
    seen = {}

    def script(pipe, prompt):
        type_line(pipe, prompt, "conflict")
        pipe.send_text("\r")
        wait_for(lambda: repl.decision is not None and prompt.app.is_running, "the question")
        seen["toolbar"] = prompt.bottom_toolbar()

    drive(repl, script)        # ends with Ctrl-D, the question unanswered
    assert seen["toolbar"].endswith("(as before conflict: a question waits)")
    text = out.getvalue()
    assert ("You left with a question unanswered, so conflict was not played: the session file keeps the game as "
            "it was before it (resume it, and conflict rolls the same dice again).") in text
    assert "Saved in" in text and repl.session.game.turn == 1


def test_the_prompt_opens_when_the_data_folder_cannot_be_used(tmp_path, monkeypatch):
    # issue 24.9: a data folder that is a file (DUSK_DATA_DIR) cost the table its prompt, as a bug.
    from prompt_toolkit.history import InMemoryHistory

    repl, out = make_repl(GAMES["attack"], seed=2)
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("DUSK_DATA_DIR", str(tmp_path / "a-file"))
    with create_pipe_input() as pipe:
        prompt = make_prompt(repl, input=pipe, output=DummyOutput())
    assert isinstance(prompt.history, InMemoryHistory)
    repl.session.close()
