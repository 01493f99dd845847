"""The real `dusk play --lang zh` in a pseudo-terminal (pexpect): the table's own words in Chinese, as
a person reading only Chinese meets them: the start, help, a question's hint, a refusal, Tab, Ctrl-D."""

import os
import sys
from pathlib import Path

import pexpect
import pytest

DUSK = str(Path(sys.executable).parent / "dusk")
PROMPT = "vampire-the-masquerade>"
pytestmark = pytest.mark.timeout(120)


def test_a_table_in_chinese_at_the_prompt(data_dir):
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="120", LINES="40", DUSK_LANG="en")     # --lang zh decides, over DUSK_LANG
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, ["play", "vampire-the-masquerade", "--seed", "2", "--lang", "zh"], env=env,
                          encoding="utf-8", timeout=30, dimensions=(40, 120))
    try:
        child.expect_exact("新游戏，种子 2，保存于")
        child.expect_exact("输入 help 查看命令；Tab 键补全；Ctrl-D 离开（游戏已保存）。")
        child.expect_exact("新人物：Ana。")
        child.expect_exact(PROMPT)
        child.send("hel")
        child.expect_exact("hel")
        child.send("\t")                      # Tab completes the command as it is typed
        child.expect_exact("p")
        child.send("\r")
        child.expect_exact("内置命令")
        child.expect_exact("行动和命令；help 行动 查看其参数")
        child.expect_exact(PROMPT)
        child.sendline("character Bea")
        # The question and its hint, the natures by their Chinese words (words: zh:; its last space a cursor move)
        child.expect_exact("Bea：种类？ [以下之一：人类, Ghoul, 血族] >")
        child.send("血")
        child.send("\t")                      # Tab completes the nature's Chinese word
        child.expect_exact("族")
        child.send("\r")
        child.expect_exact("Bea：世代（4-15）？ [4 到 15 之间的整数] >")
        child.sendline("99")
        child.expect_exact("99 不是有效的答案：应为4 到 15 之间的整数 - 请重试")
        child.expect_exact("[4 到 15 之间的整数] >")
        child.sendline("undo")
        child.expect_exact("问题已放弃；该行动没有发生。")
        child.expect_exact(PROMPT)
        child.sendline("roll 4d6kh3")
        child.expect_exact("(✗ 舍弃)")
        child.expect_exact(PROMPT)
    finally:
        child.sendeof()                        # Ctrl-D: leaves, saved
    child.expect_exact("已保存于")
    child.expect_exact("dusk resume 可继续。")
    child.expect(pexpect.EOF)


def test_tab_completes_a_labelled_word_in_chinese(data_dir):
    """tests/rulesets/labelled-words.yaml gives its names Chinese words (words:): Tab completes them."""
    ruleset = str(Path(__file__).resolve().parents[1] / "rulesets" / "labelled-words.yaml")
    env = dict(os.environ, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", DUSK_DATA_DIR=str(data_dir),
               COLUMNS="120", LINES="40", DUSK_LANG="zh")         # the language from DUSK_LANG this time
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(DUSK, ["play", ruleset, "--seed", "4"], env=env, encoding="utf-8", timeout=30,
                          dimensions=(40, 120))
    try:
        child.expect_exact("输入 help 查看命令")
        child.expect_exact("labelled-words>")
        child.send("检")
        child.expect_exact("检")
        child.send("\t")                      # the action's label, completed
        child.expect_exact("定")
        child.send(" 力")
        child.expect_exact("力")
        child.send("\t")                      # a trait's label, after the action's label
        child.expect_exact("量")
        child.send(" 由 Beto\r")
        child.expect_exact("Beto：6 点以上")
        child.expect_exact("labelled-words>")
        child.sendline("心情")
        child.expect_exact("怎样？ [以下之一：冷静, 大胆] >")
        child.send("大")
        child.send("\t")
        child.expect_exact("胆")
        child.send("\r")
        child.expect_exact("方式：大胆。")        # a choice said in a text by its label (words: zh:)
        child.expect_exact("labelled-words>")
    finally:
        child.sendeof()
    child.expect_exact("已保存于")
    child.expect(pexpect.EOF)
