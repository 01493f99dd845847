"""A character made at the real prompt (`dusk play vampire-the-masquerade` in a pseudo-terminal), as a
Storyteller types it: `character Marcus` (nature, generation), `fill Marcus` a column of the sheet at a
time (Attributes, then `skip` for the rest of them; Abilities named with Tab; a weapon), `set Marcus
firearms 4`, `sheet Marcus` laid out as the paper sheet, then a fight with real dice typed in, each
roll asked for by whose roll it is and what for. The numbers are worked by hand in the comments."""

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from tests.repl.test_terminal_game import BACK_AT_PROMPT, LEAVES_PROMPT, screen_lines

DUSK = str(Path(sys.executable).parent / "dusk")
PROMPT = "vampire-the-masquerade>"
pytestmark = pytest.mark.timeout(240)


def answer(child, expected: str, typed: str) -> list[str]:
    """Wait for a question showing `expected`, type the answer and Enter; the lines before the question."""
    child.expect_exact(expected)
    before = screen_lines(child.before)
    child.sendline(typed)
    return before


def test_a_character_made_filled_set_shown_and_fighting_with_real_dice(data_dir):
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="160", LINES="60")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, ["play", "vampire-the-masquerade", "--seed", "5"], env=env, encoding="utf-8",
                          timeout=60, dimensions=(60, 160))
    try:
        child.expect_exact(PROMPT)
        child.sendline("character Marcus")
        answer(child, "Marcus: nature?", "vampire")
        answer(child, "Marcus: generation (4-15)?", "12")
        child.expect_exact("fill Marcus sets the traits")
        child.expect_exact(PROMPT)

        child.sendline("fill Marcus")
        answer(child, "Marcus, Attributes, Physical: strength dexterity stamina [1 1 1;", "2 3 2")
        answer(child, "Marcus, Attributes, Social: charisma manipulation appearance [1 1 1;", "skip")
        # Abilities: Tab completes the names (the screen shows what Tab added).
        child.expect_exact("Marcus, Abilities, Talents:")
        child.send("dod\t")
        child.expect_exact("ge")
        child.send(" 2 bra\t")
        child.expect_exact("wl")
        child.send(" 1\r")
        answer(child, "Marcus, Abilities, Skills:", "firearms 3")
        answer(child, "Marcus, Abilities, Knowledges:", "keep")
        answer(child, "Marcus, Advantages, Disciplines:", "skip")
        answer(child, "Marcus, Weapon and armour: weapon weapon_damage weapon_type weapon_diff", "pistol 4 lethal 6")
        answer(child, "Marcus, Weapon and armour: armour_rating armour_penalty", "done")
        child.expect_exact(LEAVES_PROMPT)
        child.expect_exact(BACK_AT_PROMPT)
        filled = " ".join(screen_lines(child.before))     # the line may wrap at the terminal's width
        child.expect_exact(PROMPT)
        assert ("Marcus: strength 2 (was 1), dexterity 3 (was 1), stamina 2 (was 1), dodge 2 (was 0), brawl 1 "
                "(was 0), firearms 3 (was 0), weapon pistol (was ''), weapon_damage 4 (was 0), weapon_type lethal "
                "(was bashing).") in filled, filled

        child.sendline("set Marcus firearms 4")
        child.expect_exact("Marcus: firearms 4 (was 3).")
        child.expect_exact(PROMPT)
        child.sendline("sheet Marcus")
        child.expect_exact(LEAVES_PROMPT)
        child.expect_exact(BACK_AT_PROMPT)
        shown = screen_lines(child.before)
        child.expect_exact(PROMPT)
        assert any("Physical" in line and "Social" in line and "Mental" in line for line in shown), shown
        text = "\n".join(shown)
        assert "dexterity ●●●○○ 3" in text and "firearms ●●●●○ 4" in text and "weapon pistol" in text
        assert "init" not in text and "dazed" not in text

        # The fight, with real dice. Dexterity 3 + Firearms 4 = 7 dice at 6: 6 7 8 9 10 2 3 is 5 successes
        # (no 1 to cancel one). Damage: the pistol's 4 + 5 successes = 9 dice, 6 6 6 and six 2s: 3.
        # Kojiro (a vampire, Stamina 3, no armour) soaks lethal with 3 dice: 2 2 2, none. 3 lethal levels.
        child.sendline("dice manual")
        child.expect_exact(PROMPT)
        child.sendline("attack Marcus Kojiro firearms")
        answer(child, "Marcus attacks Kojiro (firearms) at 6: roll 7d10", "6 7 8 9 10 2 3")
        fought = answer(child, "Damage to Kojiro at 6: roll 9d10", "6 6 6 2 2 2 2 2 2")
        fought += answer(child, "Kojiro soaks at 6: roll 3d10", "2 2 2")
        child.expect_exact(LEAVES_PROMPT)
        child.expect_exact(BACK_AT_PROMPT)
        fought += screen_lines(child.before)
        child.expect_exact(PROMPT)
        assert any(re.search(r"6✓ 7✓ 8✓ 9✓ 10✓ 2 3 = 5 successes", line) for line in fought), fought
        assert "3 - 0 soaked = 3." in fought, fought
        assert "Kojiro takes 3 lethal: Injured (-1); 3/7 (lethal 3)." in fought, fought
        child.sendline("sheet Kojiro")
        child.expect_exact("health ///□□□□ 3/7 (lethal 3)")
        child.expect_exact(PROMPT)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
