"""Vampire: the Masquerade at the table, in the source's Chinese (`--lang zh`): a seeded Storyteller
session with two characters (the ruleset's example sheets): a shot with Willpower, a failed shot and
its retry, an extended action that a botch sends back to 0. The facts are asserted by hand (the
dice of seed 527 read off the transcript), then the whole transcript is compared with its golden
file, tests/golden/vtm/storyteller-zh.txt. After a deliberate change, regenerate and review it:

    DUSK_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_vtm_session.py
"""

import os
from pathlib import Path

import pytest

from tests.repl.conftest import make_repl, run

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "vtm" / "storyteller-zh.txt"
COMMANDS = [
    "test dexterity + firearms wp",
    "test dexterity + firearms diff 7",
    "turn",
    "test dexterity + firearms diff 7 retry 1",
    "extended intelligence + investigation diff 8 target 15 as Kojiro",
    "extended intelligence + investigation diff 8 as Kojiro",
    "status",
]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """The session file goes to a data dir of the test's own, never the person's."""
    monkeypatch.setenv("DUSK_DATA_DIR", str(tmp_path / "data"))


def test_a_storyteller_session_in_chinese():
    repl, out = make_repl("vampire-the-masquerade", seed=527, lang="zh")
    assert out.getvalue().splitlines()[-2:] == ["— 夜晚 1 —", "— 场景 1 —"]     # the levels' own labels
    lines = []
    for command in COMMANDS:
        lines.append(f"> {command}")
        lines.extend(run(repl, out, command).rstrip("\n").splitlines())
    text = "\n".join(lines) + "\n"
    characters = {c["name"]: c for c in repl.session.game.values["character"]}
    # Ana: Dexterity 3 + Firearms 4 = 7 dice. 7 6 3 6 4 5 9 at 6: four successes and Willpower's, 5.
    assert "7✓ 6✓ 3 6✓ 4 5 9✓ +1（意志力）= 5 个成功：神奇" in text
    assert characters["Ana"]["willpower_pool"] == 4
    # 1 1 3 5 8 6 2 at 7: one success, two 1s: a failure (a success was rolled, so no botch).
    assert "1⊘ 1⊘ 3 5 8✓ 6 2 = 0 个成功：失败" in text
    # Its first retry, the next turn, at 7 + 1 = 8: 10 is the one success, the 1 cancels it.
    assert "第 1 次重新尝试：难易度 7 + 1 = 8。" in text and "7 3 7 1⊘ 6 3 10✓ = 0 个成功：失败" in text
    # Kojiro: Intelligence 5 + Investigation 4 = 9 dice at 8: 8, 8 and 10 less one 1: 2 of 15; then
    # no success and four 1s: a botch, and the 2 gathered are lost.
    assert "累积 2 / 15 个成功。" in text and "4 5 1⊘ 6 4 7 1⊘ 1⊘ 1⊘ = 严重失误！" in text
    assert (characters["Kojiro"]["task_total"], characters["Kojiro"]["task_target"]) == (0, 15)
    assert text.splitlines()[-1] == "Ana：身体状态 0/7（0），意志力 4/5，血量 10/10 | 第 1 夜，第 1 场景，第 2 回合 | 上次：0 严重失误"
    if os.environ.get("DUSK_REGENERATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert GOLDEN.exists(), f"no golden file {GOLDEN.name}: run with DUSK_REGENERATE_GOLDEN=1"
    assert text == GOLDEN.read_text(encoding="utf-8"), f"the transcript differs from {GOLDEN.name}"
