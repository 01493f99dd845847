"""A whole game of Attack of the Vampires at the real prompt (`dusk play --seed 1` in a pseudo-terminal),
typed as a person types it and read from the screen: the dice and their marks, an undo and what it
says, the end of the game."""

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

DUSK = str(Path(sys.executable).parent / "dusk")
PROMPT = "attack-of-the-vampires>"
pytestmark = pytest.mark.timeout(180)

# A die as the table shows it: its face, earlier faces when re-rolled (5→19), a mark for its fate.
DIE = r"(?:\d+(?:→|->))*\d+!?[✓↓✗⊘]?"
# A roll of the game: its label, its dice, a legend of the marks when there are any; a pool has no total.
POOL_ROLL = re.compile(rf"^(Search|Coffin|Kill|Attack)  {DIE}(?: {DIE})*(?:  \((?:[✓↓✗⊘!→] [a-z -]+(?:, )?)+\))?$")


def screen_lines(text: str) -> list[str]:
    """What the terminal shows, line by line: the stream without its control sequences."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][AB0]|\x1b[=>]", "", text)
    return [line.rstrip() for line in re.split(r"\r?\n|\r", text) if line.strip()]


# prompt_toolkit turns bracketed paste off when a line is entered and on when the next prompt is drawn:
# what comes between is the command's output, whatever the prompt redrew while it was typed.
LEAVES_PROMPT, BACK_AT_PROMPT = "\x1b[?2004l", "\x1b[?2004h"


def type_line(child, line: str) -> list[str]:
    """Type a command and Enter, wait for the next prompt; the lines it printed."""
    child.sendline(line)
    child.expect_exact(LEAVES_PROMPT)
    child.expect_exact(BACK_AT_PROMPT)
    printed = screen_lines(child.before)
    child.expect_exact(PROMPT)
    return printed


def test_a_whole_game_at_the_prompt(data_dir):
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, ["play", "--seed", "1"], env=env, encoding="utf-8", timeout=60,
                          dimensions=(40, 120))
    try:
        child.expect_exact(PROMPT)
        opening = screen_lines(child.before)
        assert "life_roll  5→19  (→ re-rolled)" in opening        # the starting life, re-rolled under 10
        assert any(line.startswith("The hunt begins with 19 life") for line in opening)

        first = type_line(child, "round")
        assert first == ["Search  1 3 1"]

        played = type_line(child, "auto 8")
        rolls = [line for line in played if POOL_ROLL.match(line)]
        assert len(rolls) >= 8 and "(8 rounds played)" in played
        assert not any(" = " in line for line in rolls)             # a pool shows its dice, not a total
        assert type_line(child, "undo") == ["Undone: auto 8 (turns 2–9)."]

        marked = type_line(child, "roll 4d6kh3")
        assert marked[0].startswith("4d6kh3  ") and "✗" in marked[0] and "  (✗ dropped)" in marked

        ended = type_line(child, "auto 500")
        assert ended[-2:] == ["The game is over: won.", "(29 rounds played)"], ended[-3:]
        rolls = [line for line in ended if re.match(r"(Search|Coffin|Kill|Attack)  ", line)]
        assert all(POOL_ROLL.match(line) for line in rolls), [x for x in rolls if not POOL_ROLL.match(x)]
        # A kill roll shows its dice as they fell, each with the mark of its fate when the roll gives it one
        # (see repl/render.py named_roll), and no total: what matters is the set, not the sum.
        kills = [line for line in rolls if line.startswith("Kill  ")]
        assert len(kills) == 5
        for line in kills:
            assert POOL_ROLL.match(line), line
            dice = line.split("  ")[1].split()
            assert 1 <= len(dice) <= 5                               # the kill dice, less the ones set aside
        assert sum(line.startswith("The vampire is destroyed") for line in ended) == 3
        assert any(line.startswith("Every vampire is destroyed. The hunter wins") for line in ended)

        assert type_line(child, "round") == ["the game is over (won)"]
        taken_back = type_line(child, "undo")
        assert len(taken_back) == 1 and re.fullmatch(r"Undone: auto 500 \(turns 2–30\)\.", taken_back[0])
        assert re.search(r"Search  \d", "\n".join(type_line(child, "round")))   # the game goes on
    finally:
        child.sendeof()
    child.expect("Saved in")
    child.expect(pexpect.EOF)
