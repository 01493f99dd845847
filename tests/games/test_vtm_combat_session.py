"""Vampire: the Masquerade at the table: a seeded fight, in English and in the source's Chinese
(`--lang zh`): three characters (Ana and Kojiro from the ruleset's sheets, a human Brute made from one
line), initiative and whose action it is, a dodge, a parry that turns on the attacker, damage of each
type, a vampire into torpor. The facts are asserted by hand (the dice of seed 53 read off the
transcript), then each transcript is compared with its golden file, tests/golden/vtm/combat-en.txt and
combat-zh.txt. After a deliberate change, regenerate and review them:

    DUSK_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_vtm_combat_session.py
"""

import os
from pathlib import Path

import pytest

from tests.repl.conftest import make_repl, run

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "vtm"
COMMANDS = [
    "npc Brute nature human str 4 dex 3 sta 4 wit 2 brawl 2 dodge 2 melee 2 weapon 2 type lethal",
    "initiative",
    "attack Ana Brute firearms defend dodge",
    "done",
    "attack Brute Kojiro melee defend parry",
    "done",
    "attack Kojiro Brute brawl type aggravated",
    "done",
    "next turn",
    "attack Brute Ana brawl defend dodge",
    "wound 6 lethal as Kojiro",
    "attack Ana Kojiro firearms",
    "status",
]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """The session file goes to a data dir of the test's own, never the person's."""
    monkeypatch.setenv("DUSK_DATA_DIR", str(tmp_path / "data"))


def transcript(lang):
    repl, out = make_repl("vampire-the-masquerade", seed=53, lang=lang)
    lines = []
    for command in COMMANDS:
        lines.append(f"> {command}")
        lines.extend(run(repl, out, command).rstrip("\n").splitlines())
    return "\n".join(lines) + "\n", {c["name"]: c for c in repl.session.game.values["character"]}


def compare(text, name):
    golden = GOLDEN / name
    if os.environ.get("DUSK_REGENERATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden file {golden.name}: run with DUSK_REGENERATE_GOLDEN=1"
    assert text == golden.read_text(encoding="utf-8"), f"the transcript differs from {golden.name}"


def test_a_seeded_fight_in_english():
    text, sheets = transcript("en")
    # Initiative: Ana 3 + 3 + 10 = 16, the Brute 3 + 2 + 8 = 13, Kojiro 3 + 4 + 4 = 11.
    assert "Initiative: 1. Ana (16), 2. Brute (13), 3. Kojiro (11)" in text
    # Ana's shot, 3 successes; the Brute's dodge 3 6 3 5 1: none left (the 1 cancels the 6). 4 + 3 = 7
    # dice, 2 hits; a human cannot soak lethal: 2 levels.
    assert "3 - 0 (dodge) = 3." in text and "Damage: 4 + 3 successes = 7 dice." in text
    assert "Brute takes 2 lethal: Hurt (-1); 2/7 (lethal 2)." in text
    # The Brute's blade (5 dice less Hurt's 1: 4) 2 successes; Kojiro parries with 3: 1 more die, so
    # Strength 2 + 1 = 3 dice of his bare hands (bashing) back at the Brute, 1 hit, soaked 2.
    assert "2 - 3 (parry) = 0." in text and "Kojiro's parry turns on Brute: 1 more die of damage." in text
    assert "1 - 2 soaked = 0." in text
    # Kojiro's bite: aggravated, which a human cannot soak.
    assert "Brute takes 1 aggravated: Injured (-1); 3/7 (aggravated 1, lethal 2)." in text
    # Next turn: the Brute's fist on Ana (5 dice less Injured's 1), 1 success through a failed dodge:
    # Strength 4, 2 hits, 1 soaked by Stamina 2: a bashing level.
    assert "Ana takes 1 bashing: Bruised (0); 1/7 (bashing 1)." in text
    # Kojiro at 6 lethal takes 5 - 1 = 4 more: one box left, three past it: torpor.
    assert "Kojiro takes 4 lethal: past Incapacitated, torpor; 7/7 (lethal 7)." in text
    assert sheets["Kojiro"]["condition"] == "torpor" and sheets["Brute"]["health"]["marked"] == 3
    # Every roll says what it is for: the damage and the soak too.
    assert "Damage to Kojiro at 6  4 8 4 9 8 6 3 8" in text and "Kojiro soaks at 6  4 10 5" in text
    assert text.splitlines()[-1] == "Ana: health 1/7 (0), Willpower 5/5, blood 10/10 | night 1, scene 1, turn 2 | last: 4"
    compare(text, "combat-en.txt")


def test_the_same_fight_in_chinese():
    text, sheets = transcript("zh")
    assert "优先权：1. Ana (16), 2. Brute (13), 3. Kojiro (11)" in text
    assert "3 - 0（闪避）= 3。" in text and "2 - 3（架开）= 0。" in text
    assert "Kojiro 受到 4 级普通伤害：超过无法行动，休眠（Torpor）；7/7 (普通 7)。" in text      # the marks by their Chinese words (words: zh:)
    assert sheets["Kojiro"]["condition"] == "torpor"
    compare(text, "combat-zh.txt")
