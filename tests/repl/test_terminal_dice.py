"""Real dice typed at the real prompt (`dusk play --dice manual` in a pseudo-terminal): each roll asks
for its faces in the prompt itself, a wrong answer is refused and asked again, the roll is shown as the
game's own would be, the status line says the dice are manual, and `dice auto` gives the rolls back."""

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tests.repl.test_terminal_game import BACK_AT_PROMPT, LEAVES_PROMPT, screen_lines

DUSK = str(Path(sys.executable).parent / "dusk")
TABLE = "attack-of-the-vampires>"
SEARCH = "Search: roll 3d6 [3 faces from 1 to 6, separated by spaces or commas] >"
pytestmark = pytest.mark.timeout(120)


def type_line(child, line: str, prompt: str) -> list[str]:
    """Type a line and Enter, wait for the next prompt (`prompt`, a question or the table's); the lines
    printed between."""
    child.sendline(line)
    child.expect_exact(LEAVES_PROMPT)
    child.expect_exact(BACK_AT_PROMPT)
    printed = screen_lines(child.before)
    child.expect_exact(prompt)
    return printed


def test_real_dice_typed_at_the_prompt(data_dir, tmp_path):
    save = tmp_path / "table.dusk"
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, ["play", "--seed", "1", "--dice", "manual", "--save", str(save)], env=env,
                          encoding="utf-8", timeout=60, dimensions=(40, 120))
    try:
        child.expect_exact("life_roll: roll 1d20 [1 face from 1 to 20] >")
        assert "Real dice: every roll the game needs asks for the faces rolled" in " ".join(screen_lines(child.before))
        assert type_line(child, "8", "life_roll: roll 1 more d20 [1 face from 1 to 20] >") == []
        opening = type_line(child, "13", TABLE)
        assert opening[0] == "life_roll  8→13  (→ re-rolled)"
        assert opening[1].startswith("The hunt begins with 13 life")

        assert type_line(child, "round", SEARCH) == []
        assert type_line(child, "6 6", SEARCH) == [
            "6 6 is not a valid answer: 2 faces, not 3 (expected 3 faces from 1 to 6, separated by spaces or "
            "commas) - try again"]
        assert type_line(child, "6 2 6", TABLE) == ["Search  6 2 6"]
        # the status line (the toolbar's, which a terminal without cursor reports does not draw) says so
        assert type_line(child, "status", TABLE) == [
            "Life 13 | Vampires 3 | Track 5 6 6 6 | Blue kept 6 6 | Ones aside 0 | dice: manual"]

        assert type_line(child, "dice auto", TABLE) == [
            "The game rolls its own dice from now on, going on where they left off."]
        rolled = type_line(child, "round", TABLE)
        assert len(rolled) == 1 and rolled[0].startswith("Search  6 6 ")     # rolled by the game: no question
    finally:
        child.sendeof()
    child.expect("Saved in")
    child.expect(pexpect.EOF)
    # The game typed at the prompt is the game of the same faces in a script.
    scripted = subprocess.run([DUSK, "play", "--seed", "1", "--dice", "manual", "--save", str(tmp_path / "s.dusk"),
                               "-c", "8; 13; round; 6 2 6; dice auto; round; state"], capture_output=True,
                              text=True, env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)), timeout=60)
    assert f"Search  {rolled[0].split('  ')[1]}" in scripted.stdout
    resumed = subprocess.run([DUSK, "resume", str(save), "-c", "state"], capture_output=True, text=True,
                             env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)), timeout=60)
    assert resumed.stdout.split("> state")[1] == scripted.stdout.split("> state")[1]
