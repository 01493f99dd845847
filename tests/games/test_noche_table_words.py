"""A seeded night of Noche de los Vampiros at the table (`dusk play ... -c`), read as the GM reads it:
the screen never shows the engine's names (a field path, a track's marks, a trigger's id, a step's
place, the ruleset's file), and says in the game's words what the engine did: dice put into the
Vampire Pool, a box checked, the pool full, each hand at the Hour's end. A yes or no is echoed once."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Three characters, the Relationships partly typed, the status asked during the setup, a Scene played
# by hand (each brings in one Relationship, named: "ro" is Rosa's start), a yes typed to the whole Hour, then the night played by the automatic answers (bold: whole
# Hours, whole hands staked, so boxes are checked and characters die) to dawn, and its chronicle read.
SCRIPT = ("status; 3; status; Rosa; Tina; Ugo; an old debt; a stolen car; auto; status; conflict scene; 3; Tina; 3; "
          "ro; 3; Rosa; conflict; y; auto; auto 40; log 30")
ENGINE_NAMES = [r"\.dice\b", r"\bmarks\b", r"setup\[", r"\.yaml:", r"\(pool_full\)", r"\bunknown name\b",
                r"\.boxes\b", r"Traceback"]


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    env = {**os.environ, "DUSK_DATA_DIR": str(data), "NO_COLOR": "1", "COLUMNS": "120"}
    done = subprocess.run([sys.executable, "-m", "ruleset_engine", "play", "noche-de-los-vampiros", "--seed", "4",
                           "--set", "policy=bold", "--set", "max_conflicts=1", "-c", SCRIPT],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_the_screen_shows_no_engine_name(night):
    for name in ENGINE_NAMES:
        found = [line for line in night.splitlines() if re.search(name, line)]
        assert not found, f"{name}: {found[:3]}"


def test_the_night_is_told_in_the_games_words(night):
    lines = night.splitlines()
    assert "Rosa puts 1 die into the Vampire Pool." in lines            # the Scene: one die of a pair
    assert any(re.fullmatch(r"The Vampire Pool is full \(\d+ dice\): the Hour ends\.", line) for line in lines)
    assert "Rosa ends the Hour with one die and checks the 10 box." in lines
    # The Hour's end: every living hand and its boxes, and the pool.
    at = lines.index("Hour 1 ends with the Vampire Pool at 38.")
    assert lines[at + 1:at + 4] == ["  Rosa: 1 die in hand, 1 of 5 boxes checked (next Hour: 8 dice).",
                                    "  Tina: 2 dice in hand, 0 of 5 boxes checked (next Hour: 10 dice).",
                                    "  Ugo: 2 dice in hand, 0 of 5 boxes checked (next Hour: 10 dice)."]
    assert "Every character is dead before dawn. The night belongs to the vampires." in lines


def test_during_the_setup_the_status_line_says_nothing_wrong(night):
    before = night.split("The night begins")[0]
    assert "status:" not in before and "A question of the game's setup waits" in before


def test_a_yes_typed_is_echoed_once(night):
    asked = [line for line in night.splitlines() if "this Hour already" in line and "(auto)" not in line]
    assert asked == ["1 conflict this Hour already: resolve the rest of the Hour at once? [yes or no] > y"]
