"""The Vampire: the Masquerade toolkit at the real prompt (`dusk play vampire-the-masquerade` in a
pseudo-terminal), typed as a person types it, Tab included, and read from the screen: an extra made
at the table from one line, a roll of its traits named by completion, the toolbar's sheet line."""

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from tests.repl.test_terminal_game import BACK_AT_PROMPT, LEAVES_PROMPT, screen_lines

DUSK = str(Path(sys.executable).parent / "dusk")
PROMPT = "vampire-the-masquerade>"
pytestmark = pytest.mark.timeout(180)


def test_an_extra_made_at_the_table_rolls_traits_named_by_completion(data_dir):
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, ["play", "vampire-the-masquerade", "--seed", "3"], env=env, encoding="utf-8",
                          timeout=60, dimensions=(40, 120))
    try:
        child.expect_exact(PROMPT)
        opening = screen_lines(child.before)
        assert "Added to character: Ana." in opening and "Added to character: Kojiro." in opening

        child.sendline("npc Rosa nature ghoul dex 4 firearms 3")
        child.expect_exact(LEAVES_PROMPT)
        child.expect_exact(BACK_AT_PROMPT)
        assert "Rosa, ghoul, joins the scene." in screen_lines(child.before)
        child.expect_exact(PROMPT)

        # Typed in pieces, each finished by Tab: the fields of the sheet, then the names. The screen
        # shows what Tab added (the lexer colours the word, so its start and the rest come apart).
        child.send("test dext\t")
        child.expect_exact("erity")
        child.send(" + firea\t")
        child.expect_exact("rms")
        child.send(" as Ro\t")
        child.expect_exact("sa")
        child.send("\r")
        child.expect_exact(LEAVES_PROMPT)
        child.expect_exact(BACK_AT_PROMPT)
        printed = screen_lines(child.before)
        child.expect_exact(PROMPT)
        # Dexterity 4 + Firearms 3: seven dice at 6, each shown with its fate.
        roll = [line for line in printed if line.startswith("Rosa rolls dexterity + firearms at 6  ")]
        assert len(roll) == 1, printed
        fates = [line for line in printed if re.fullmatch(r"(?:\d+[✓⊘]? ?)+= \d+ successes?: \w+|(?:\d+[✓⊘]? ?)+= Botch!",
                                                          line)]
        assert len(fates) == 1, printed
        faces = roll[0].split("  ")[1].split()
        assert [re.match(r"\d+", f).group(0) for f in fates[0].split(" = ")[0].split()] == faces

        child.sendline("status")
        child.expect_exact(LEAVES_PROMPT)
        child.expect_exact(BACK_AT_PROMPT)
        assert any(line.startswith("Ana: health 0/7 (0), Willpower 5/5, blood 10/10 | night 1, scene 1, turn 1")
                   for line in screen_lines(child.before))
        child.expect_exact(PROMPT)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
