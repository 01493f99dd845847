"""A whole table in Chinese (`--lang zh`): every word dusk says is Chinese, beside the ruleset's Chinese.

Seeded sessions are played through the `dusk` command (the language chosen as a person chooses it);
then every run of Latin letters in the transcript is listed, and each must be one of the words a
Chinese table still reads in Latin letters: the names the ruleset gives (its actions, params,
results, characters: what a player types), the table's commands as they are typed, and dice
notation. A word of dusk's own left in English (`rounds`, `dropped`, `one of`, `Undone`) fails,
named with its line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from ruleset_engine.repl.commands import BUILTINS

# Dice notation and keys: d (4d6), kh/kl (keep highest/lowest), x and P (the odds' P(=x)), N (a count in
# a usage), and the keys named (Tab, Ctrl-D). The ids of two-letter modifiers stay as typed.
NOTATION = {"d", "kh", "kl", "x", "P", "N", "Tab", "Ctrl", "D", "count"}
# Program and option names a person types: `dusk resume`, `dice manual`, `--force`, `--json`.
TYPED = {"dusk", "resume", "manual", "auto", "force", "json", "sheets", "docs", "dice", "language", "md", "secret", "cancel",
         "rulesets", "steps",
         "keep", "skip", "done"}             # the words typed while filling in a sheet (fill NAME)
# Names of other things: a file format.
PRODUCTS = {"Markdown"}
LATIN = re.compile(r"[A-Za-z][A-Za-z_]*")
PATH = re.compile(r"\S*/\S*")          # a file's path (the session file's, a doc's) is a name


def play(ruleset: str, seed: int, commands: list[str], tmp_path, refused: bool = False, lang: str = "zh") -> str:
    """The transcript of the commands; exit 1 when some are refused on purpose (a bad roll, a name)."""
    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data"), DUSK_LANG="en")   # --lang decides
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "play", ruleset, "--seed", str(seed),
                          "--lang", lang, "-c", "; ".join(commands)], capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == (1 if refused else 0), out.stdout + out.stderr
    return out.stdout


def ruleset_names(ruleset_id: str) -> set[str]:
    """The names a ruleset gives its things: what a player types or reads as a name."""
    import ruleset_engine as dusk

    ruleset = dusk.load(ruleset_id)
    names = set(ruleset.actions) | set(ruleset.params) | set(ruleset.state) | set(ruleset.entities)
    names |= {ending.result for ending in ruleset.end}
    for action in ruleset.actions.values():
        names |= set(action.params) | {p.word for p in action.params.values() if p.word}
    return {part for name in names for part in re.split(r"[^A-Za-z_]+", name) if part}


def foreign_words(transcript: str, allowed: set[str]) -> list[str]:
    found = []
    for number, line in enumerate(transcript.splitlines(), 1):
        for word in LATIN.findall(PATH.sub(" ", line)):
            if word not in allowed:
                found.append(f"line {number}: {word!r} in {line.strip()!r}")
    return found


def test_an_attack_of_the_vampires_game_in_chinese(tmp_path):
    commands = ["round", "help", "help round", "auto 80", "status", "log 3", "undo", "roll 4d6kh3",
                "roll 2d6 +", "table", "sheet", "sheet Nobody", "dice"]
    transcript = play("attack-of-the-vampires", 5, commands, tmp_path, refused=True)
    allowed = NOTATION | TYPED | PRODUCTS | set(BUILTINS) | ruleset_names("attack-of-the-vampires") | {"attack", "of", "the", "vampires", "Nobody"}
    assert not foreign_words(transcript, allowed), "\n".join(foreign_words(transcript, allowed))
    # What dusk said, in its Chinese (worked out from the catalog and seed 5's dice)
    assert "吸血鬼来袭。新游戏，种子 5，保存于" in transcript
    assert "输入 help 查看命令；Tab 键补全；Ctrl-D 离开（游戏已保存）。" in transcript
    assert "内置命令" in transcript and "  help [主题]                  行动和命令；help 行动 查看其参数" in transcript
    assert "猎人倒下了。吸血鬼获胜，池中还剩 3 个。\n游戏结束：吸血鬼获胜。" in transcript      # results: zh, before round 80
    assert "已撤销：auto 80（第 2–60 步）。" in transcript
    assert "没有表格" not in transcript and "表格：无" in transcript
    assert "没有人叫 'Nobody'；现有名字：" in transcript
    assert "应为一个值（在 '+' 之后），但表达式在此结束" in transcript
    assert "由游戏自己掷骰（dice manual：每次掷骰都询问实体骰子的点数）。" in transcript


def test_a_vampire_the_masquerade_roll_session_in_chinese(tmp_path):
    commands = ["use Ana", "test dice=6 diff=6", "test dice=3 diff=9", "roll 7d10", "roll count(6d10, >= 7)",
                "roll 5d10!", "prob count(5d10, >= 6)", "undo", "status", "log 4"]
    transcript = play("vampire-the-masquerade", 2, commands, tmp_path)
    allowed = NOTATION | TYPED | PRODUCTS | set(BUILTINS) | ruleset_names("vampire-the-masquerade") | {"Ana", "Kojiro"}
    assert not foreign_words(transcript, allowed), "\n".join(foreign_words(transcript, allowed))
    assert "新人物：Ana。" in transcript               # the group's Chinese label, not its name
    assert "（✓ 计入）" not in transcript and "(✓ 计入)" in transcript     # the legend of a count
    assert "精确概率。" in transcript and "均值 2.5，标准差 1.118" in transcript
    assert "已撤销：test dice=3 diff=9（第 3 步）。" in transcript


@pytest.mark.parametrize("word", ["rounds", "dropped", "Undone", "one"])
def test_the_allow_list_finds_an_english_word_of_dusk_s_own(word):
    """The check can fail: an English word of dusk's left among the Chinese is named with its line."""
    allowed = NOTATION | TYPED | set(BUILTINS)
    assert foreign_words(f"游戏\n（已进行 3 {word}）", allowed) == [f"line 2: {word!r} in '（已进行 3 {word}）'"]
