"""A short night of Noche de los Vampiros at the real prompt (`dusk play --seed 1 --set hours=3` in a
pseudo-terminal), typed as a table types it and read from the screen: three characters named, their
Relationships written in words, the toolbar's view, a conflict answered by hand, a switch to the
whole Hour, the rest of the night played by the automatic answers, dawn, and the chronicle exported."""

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from tests.repl.test_terminal_game import BACK_AT_PROMPT, LEAVES_PROMPT, screen_lines

DUSK = str(Path(sys.executable).parent / "dusk")
PROMPT = "noche-de-los-vampiros>"
QUESTION = re.compile(r"\] >")
pytestmark = pytest.mark.timeout(180)


def typed(child, line: str) -> list[str]:
    """Type a line and Enter; wait until the screen asks again (a question or the prompt): what it printed."""
    child.sendline(line)
    child.expect_exact(LEAVES_PROMPT)
    child.expect_exact(BACK_AT_PROMPT)
    return screen_lines(child.before)


def asked(child) -> str:
    """The question (or prompt) now on the screen."""
    index = child.expect([QUESTION, re.escape(PROMPT)])
    lines = screen_lines(child.before)
    return (lines[-1] if lines else "") if index == 0 else PROMPT


def test_a_short_night_at_the_prompt(data_dir, tmp_path):
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, ["play", "noche-de-los-vampiros", "--seed", "1", "--set", "hours=3"], env=env,
                          encoding="utf-8", timeout=60, dimensions=(40, 120))
    try:
        assert asked(child).startswith("How many characters tonight (2 to 8)?")
        printed = typed(child, "3")
        for name in ("Ana", "Beto", "Carla"):
            assert "first name?" in asked(child)
            printed = typed(child, name)
            assert f"Added to character: {name}." in printed
        # Who starts: three dice rolled, the highest (after any tie rolled again) starts.
        words = {}
        while True:
            question = asked(child)
            if question == PROMPT:
                break
            found = re.match(r"(\w+): your (Bond|Conflict) with (\w+), in a few words\?", question)
            assert found, question
            words[found.groups()] = f"{found[1]} owes {found[3]} a {found[2].lower()}"
            printed = typed(child, words[found.groups()])
            assert f"{found[1]} has a {found[2]} with {found[3]}: {words[found.groups()]}" in printed
        # Three characters: each holds a Bond toward one and a Conflict toward the other.
        assert sorted(words) == sorted(
            [(a, kind, b) for a, b, kind in words_expected(list(words))])
        assert typed(child, "status")[-1] == "Hour 1/3 | scene | pool 1 | Ana 10d 0/5 · Beto 10d 0/5 · Carla 10d 0/5"

        # A conflict answered by hand: Ana risks 3 and brings in her Relationship with Beto, named by
        # Tab from its start ("Be"); the others risk 2 and bring in none.
        hands = {"Ana": ("3", None), "Beto": ("2", "none"), "Carla": ("2", "none")}
        shown = typed(child, "conflict")
        while True:
            question = asked(child)
            if question == PROMPT:
                break
            if "risk?" in question:
                # A seat's question says whose it is first (seats: character): `(Ana answers) Ana: ...`
                whose, _, question = question.partition(" answers) ")
                name = question.split(":")[0]          # the same player's Relationships are asked next
                assert whose == f"({name}"
                shown += typed(child, hands[name][0])
                continue
            assert "none)" in question, question      # the long question wraps: its last line on screen
            if hands[name][1] is not None:
                shown += typed(child, hands[name][1])
                continue
            child.send("Be\t")
            child.expect_exact("to")            # Tab completed Beto, the one offered name that starts so
            child.send("\r")
            child.expect_exact(LEAVES_PROMPT)
            child.expect_exact(BACK_AT_PROMPT)
            shown += screen_lines(child.before)
        assert any(re.match(r"Ana brings in the (Bond|Conflict) with Beto\.", line) for line in shown), shown
        rolls = [line for line in shown if re.match(r"(Ana|Beto|Carla): \d risked, \d for Relationships  ", line)]
        assert [len(line.split("  ")[1].split()) for line in rolls] == [4, 2, 2]    # every die shown
        assert any(line.startswith("GM (1 of the Vampire Pool)  ") for line in shown)
        outcomes = [line for line in shown if re.match(r"(Ana|Beto|Carla): [0-6], ", line)]
        assert len(outcomes) == 3
        assert any(re.match(r"Highest die [1-6]: .* (narrates|share the narration)\.", line) for line in shown)

        printed = typed(child, "scale hour")
        assert "Scale: hour, for the conflicts to come." in printed
        child.expect_exact(PROMPT)
        printed = typed(child, "auto 20")
        assert any(line.startswith("Conflict 1 of Hour 2: the whole Hour at once.") for line in printed)
        assert any(line.startswith("Dawn.") for line in printed)
        assert printed[-2].startswith("The game is over: dawn") and printed[-1].endswith("played)")
        child.expect_exact(PROMPT)

        relationships = typed(child, "table relationships")
        child.expect_exact(PROMPT)
        for text in words.values():
            assert text in "\n".join(relationships)
        # How often each Relationship was brought in: Ana's with Beto once by hand, then the whole
        # Hours played by auto (one Relationship each conflict: the first open one around the table).
        used = [line for line in relationships if "Ana owes Beto" in line]
        cells = [cell.strip() for cell in used[0].split("│")] if len(used) == 1 else []
        assert cells[-4:-2] and int(cells[-3]) >= 1, relationships      # the columns ... words │ used │ hour
        chronicle = tmp_path / "night.md"
        typed(child, f"export {chronicle}")
        child.expect_exact(PROMPT)
        exported = chronicle.read_text(encoding="utf-8")
        assert "Ana owes" in exported and "Dawn." in exported and "GM (10 of the Vampire Pool)" in exported
    finally:
        child.sendeof()
    child.expect("Saved in")
    child.expect(pexpect.EOF)


def words_expected(asked_in_order):
    """What three characters hold, from the first to ask clockwise: a Bond to the next seat (left), a
    Conflict to the one before (right)."""
    seats = ["Ana", "Beto", "Carla"]
    first = seats.index(asked_in_order[0][0])
    out = []
    for k in range(3):
        me = seats[(first + k) % 3]
        out.append((me, seats[(first + k + 1) % 3], "Bond"))
        out.append((me, seats[(first + k - 1) % 3], "Conflict"))
    return out


def test_ctrl_d_during_the_setup_loses_nothing_typed(data_dir):
    # Four names and three Relationships typed, then Ctrl-D: the answers are in the session file, `dusk
    # sessions` marks the session as left in its setup, and `dusk resume` shows them again and asks the
    # fourth Relationship; the night then begins with every word typed before and after.
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, ["play", "noche-de-los-vampiros", "--seed", "1"], env=env, encoding="utf-8",
                          timeout=60, dimensions=(40, 120))
    words = {}

    def relate(question):
        found = re.match(r"(\w+): your (Bond|Conflict) with (\w+), in a few words\?", question)
        assert found, question
        words[found.groups()] = f"{found[1]} and {found[3]}, {len(words) + 1}"
        typed(child, words[found.groups()])

    try:
        assert asked(child).startswith("How many characters tonight (2 to 8)?")
        typed(child, "4")
        for name in ("Rosa", "Tina", "Ugo", "Vera"):
            assert "first name?" in asked(child)
            typed(child, name)
        for _ in range(3):
            relate(asked(child))
        waiting = asked(child)
    finally:
        child.sendeof()
    child.expect_exact("the answers given so far are saved")
    child.expect("Saved in")
    child.expect(pexpect.EOF)

    listed = pexpect.run(f"{DUSK} sessions", env=env, encoding="utf-8")
    row = next(line for line in listed.splitlines() if "noche-de-los-vampiros" in line)
    assert row.startswith("*") and " setup " in row
    assert "left during the game's setup" in listed

    child = pexpect.spawn(DUSK, ["resume"], env=env, encoding="utf-8", timeout=60, dimensions=(40, 120))
    try:
        child.expect_exact("Resumed, seed 1")
        question = asked(child)
        assert question.split("?")[0] == waiting.split("?")[0]
        relate(question)
        while True:
            question = asked(child)
            if question == PROMPT:
                break
            relate(question)
        assert len(words) == 12          # four characters: each holds one toward each of the three others
        relationships = "\n".join(typed(child, "table relationships"))
        child.expect_exact(PROMPT)
        for text in words.values():
            assert text in relationships
        assert typed(child, "status")[-1].startswith("Hour 1/12 | scene | pool 1 | Rosa 10d 0/5")
    finally:
        child.sendeof()
    child.expect("Saved in")
    child.expect(pexpect.EOF)
