"""The real `dusk play` in a pseudo-terminal (pexpect), as a person at the table runs it."""

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

DUSK = str(Path(sys.executable).parent / "dusk")
PROMPT = "attack-of-the-vampires>"   # the trailing space is drawn as a cursor move
pytestmark = pytest.mark.timeout(120)


def spawn(args, data_dir):
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, args, env=env, encoding="utf-8", timeout=30, dimensions=(40, 120))
    return child


def plain(text):
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][AB0]|\r", "", text)


def test_a_seeded_game_played_to_its_end(data_dir):
    child = spawn(["play", "--seed", "7"], data_dir)
    try:
        child.expect("Type help for the commands")
        child.expect_exact(PROMPT)
        child.send("hel")
        child.expect_exact("hel")           # drawn: the prompt has it, so Tab completes it
        child.send("\t")
        child.expect_exact("p")             # completed to "help" (only "hel" was typed)
        child.send("\r")
        child.expect("Built-in commands")
        child.expect_exact(PROMPT)
        child.sendline("round")
        child.expect("Search")
        child.expect_exact(PROMPT)
        child.sendline("auto 500")
        child.expect(r"The game is over: (won|lost)")
        result = child.match.group(1)
        child.expect(r"rounds? played")
        child.expect_exact(PROMPT)
        child.sendline("state")
        child.expect("Vampire Hunter")
        child.expect_exact(PROMPT)
    finally:
        child.sendeof()                      # Ctrl-D: leaves, saved
    child.expect("Saved in")
    child.expect(pexpect.EOF)
    # The same seed in a script plays the same game.
    out = subprocess.run([DUSK, "play", "--seed", "7", "-c", "round; auto 500"], capture_output=True, text=True,
                         env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)), timeout=60)
    assert f"The game is over: {result}." in out.stdout


def test_killed_mid_session_resumes_with_nothing_lost(data_dir, tmp_path):
    save = tmp_path / "game.dusk"
    child = spawn(["play", "--seed", "11", "--save", str(save)], data_dir)
    child.expect_exact(PROMPT)
    for _ in range(4):
        child.sendline("round")
        child.expect_exact(PROMPT)
    child.sendline("state")
    child.expect("midnights")          # the table's last row: every row before it is in `before`
    searches = re.search(r"searches\W+(\d+)", plain(child.before)).group(1)
    child.expect_exact(PROMPT)
    assert searches == "4"
    os.kill(child.pid, signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()

    env = dict(os.environ, DUSK_DATA_DIR=str(data_dir))
    resumed = subprocess.run([DUSK, "resume", str(save), "-c", "state; round; round"], capture_output=True,
                             text=True, env=env, timeout=60)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert re.search(rf"searches\W+{searches}\b", resumed.stdout)
    # Rounds 5 and 6 bring the dice an uninterrupted game of the same seed brings.
    straight = subprocess.run([DUSK, "play", "--seed", "11", "-c", "round; round; round; round; round; round"],
                              capture_output=True, text=True, env=env, timeout=60)
    tail = lambda text: text.split("> round")[-2:]  # noqa: E731
    assert tail(resumed.stdout) == tail(straight.stdout)


def test_resume_of_a_damaged_file_says_so(data_dir, tmp_path):
    bad = tmp_path / "bad.dusk"
    bad.write_text("not a session")
    out = subprocess.run([DUSK, "resume", str(bad), "-c", "state"], capture_output=True, text=True,
                         env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)), timeout=60)
    assert out.returncode == 2 and "is not a dusk session" in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr and bad.read_text() == "not a session"


def test_commands_from_a_pipe_a_script_file_and_no_color(data_dir, tmp_path):
    env = dict(os.environ, DUSK_DATA_DIR=str(data_dir), NO_COLOR="1")
    piped = subprocess.run([DUSK, "play", "--seed", "3"], input="round\nrond\nround\n", capture_output=True,
                           text=True, env=env, timeout=60)
    assert piped.stdout.count("> round") == 2 and "no command 'rond'" in piped.stdout
    assert piped.returncode == 1 and "\x1b[" not in piped.stdout     # a refused command; plain text
    script = tmp_path / "moves.txt"
    script.write_text("round\nround\n")
    scripted = subprocess.run([DUSK, "play", "--seed", "3", "--script", str(script)], capture_output=True,
                              text=True, env=env, timeout=60)
    assert scripted.returncode == 0
    rounds = lambda text: [line for line in text.splitlines() if line.startswith("Search")]  # noqa: E731
    assert rounds(scripted.stdout) == rounds(piped.stdout)


def test_no_color_in_a_terminal(data_dir):
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               NO_COLOR="1")
    child = pexpect.spawn(DUSK, ["play", "--seed", "3"], env=env, encoding="utf-8", timeout=30)
    try:
        child.expect_exact(PROMPT)
        child.sendline("roll 4d6kh3")
        child.expect("dropped")
        colour = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7]|4[0-8])[;m]")
        assert "✗" in child.before and not colour.search(child.before)   # the symbol, no colour
        child.expect_exact(PROMPT)
    finally:
        child.sendeof()
    child.expect(pexpect.EOF)
