"""Input labels (`words:`): a table in Chinese types the ruleset's names in Chinese, answers a choice by
its label, and Tab completes labels and names alike; colliding labels are refused at load, with the
place. The test ruleset is tests/rulesets/labelled-words.yaml (its labels worked out by hand below)."""

from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

import ruleset_engine as dusk
from ruleset_engine import i18n
from ruleset_engine.repl.completer import TableCompleter
from tests.repl.conftest import RULESETS, make_repl, run

LABELLED = str(RULESETS / "labelled-words.yaml")


@pytest.fixture
def chinese():
    i18n.set_language("zh")
    yield
    i18n.set_language("en")


def complete(repl, text):
    return [c.text for c in TableCompleter(repl).get_completions(Document(text), CompleteEvent(completion_requested=True))]


def test_an_action_typed_in_labels_is_the_action_typed_in_names(chinese):
    by_label, out = make_repl(LABELLED, seed=4, lang="zh")
    shown = run(by_label, out, "检定 力量 + 格斗 难度 7 由 Beto")
    by_name, out = make_repl(LABELLED, seed=4, lang="zh")
    assert run(by_name, out, "throw strength + brawl at 7 as Beto") == shown
    # Beto: strength 2 + 2 = 4, brawl 1: five dice, counted at 7 or more
    assert shown.splitlines()[0].split()[0] == "Beto" and len(shown.splitlines()[0].split()) == 6
    assert by_label.session.game.values["last"] == by_name.session.game.values["last"]
    assert shown.splitlines()[1] == f"Beto：7 点以上 {by_label.session.game.values['last']} 个"


def test_a_choice_is_answered_by_its_label_and_its_hint_shows_the_labels(chinese):
    repl, out = make_repl(LABELLED, seed=1, lang="zh")
    run(repl, out, "心情")
    assert repl.prompt_text == "怎样？ [以下之一：冷静, 大胆] > "
    run(repl, out, "大胆")
    assert repl.session.game.values["manner"] == "bold"
    run(repl, out, "mood", "calm")                    # the name is still read as itself
    assert repl.session.game.values["manner"] == "calm"


def test_help_takes_a_label_and_shows_the_action_s_label(chinese):
    repl, out = make_repl(LABELLED, seed=1, lang="zh")
    assert run(repl, out, "help 检定").splitlines()[0] == "检定: 掷出所列特质的骰子，计算 6 点以上的骰子数。"
    listing = run(repl, out, "help").splitlines()
    # what a person types: the formula in its place, then each word in the table's words (as: 由, at: 难度)
    assert listing[1].startswith("  检定 [TRAITS] [由 NAME] [难度 N] ")
    assert "=.." not in "\n".join(listing)


def test_tab_completes_labels_and_names(chinese):
    repl, _ = make_repl(LABELLED, seed=1, lang="zh")
    assert complete(repl, "检") == ["检定"]
    assert complete(repl, "th") == ["throw"]
    assert complete(repl, "检定 力") == ["力量"]              # after the label, the action's traits
    assert set(complete(repl, "throw ")) >= {"strength", "力量", "brawl", "格斗"}
    repl.run_line("心情")
    assert complete(repl, "") == ["calm", "bold", "冷静", "大胆"]


def test_an_english_table_reads_no_chinese_label():
    repl, out = make_repl(LABELLED, seed=1, lang="en")
    assert "no command '检定'" in run(repl, out, "检定 力量")
    assert complete(repl, "th") == ["throw"] and complete(repl, "检") == []


BASE = """ruleset: words-test
title: Words
entities:
  person: {count: 1, names: "{'Ana'}", fields: {strength: 2, brawl: 1}}
actions:
  throw:
    params: {n: {type: integer, default: 1}}
    steps: [{roll: {pool: "(n)d10"}}]
words:
  zh:
"""


@pytest.mark.parametrize("lines, message", [
    (["    strength: 力量", "    brawl: 力量"], "the label '力量' is given to both 'strength' and 'brawl' in zh"),
    (["    strength: Brawl"], "the label 'Brawl' of 'strength' is also the name 'brawl' of this ruleset"),
    (["    strenght: 力量"], "'strenght' names nothing a table types in this ruleset"),
    (["    brawl: 徒手 格斗"], "the label '徒手 格斗' of 'brawl' is not one word"),
    # A label that is a built-in command's word, in any case: typed first on a line it would mean the action,
    # or a trait (no command), and the command would never run.
    (["    throw: roll"], "the label 'roll' of 'throw' is the built-in command roll"),
    (["    strength: Sheet"], "the label 'Sheet' of 'strength' is the built-in command sheet"),
])
def test_colliding_or_unreadable_labels_are_refused_at_load_with_their_place(tmp_path, lines, message):
    path = tmp_path / "words.yaml"
    path.write_text(BASE + "\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(dusk.RulesetError) as info:
        dusk.load(str(path))
    problems = [str(p) for p in info.value.problems]
    assert len(problems) == 1 and message in problems[0], problems
    line = BASE.count("\n") + len(lines)          # the last label written is the one refused
    assert problems[0].startswith(f"{path}:{line}:"), problems


def test_the_bundled_and_test_rulesets_load_with_their_words():
    ruleset = dusk.load(LABELLED)
    assert ruleset.words["zh"]["throw"] == "检定" and ruleset.words["zh"]["bold"] == "大胆"
    assert Path(LABELLED).is_file()


def test_the_built_in_commands_the_checker_refuses_as_labels_are_the_tables():
    from ruleset_engine.repl.commands import BUILTINS
    from ruleset_engine.ruleset.words import BUILTIN_COMMANDS

    assert set(BUILTIN_COMMANDS) == set(BUILTINS)


def test_a_label_that_is_a_built_in_command_is_refused_in_every_language_of_words(tmp_path):
    path = tmp_path / "words.yaml"
    path.write_text(BASE + "    strength: 力量\n  es:\n    brawl: undo\n", encoding="utf-8")
    with pytest.raises(dusk.RulesetError) as info:
        dusk.load(str(path))
    problems = [str(p) for p in info.value.problems]
    assert len(problems) == 1 and "the label 'undo' of 'brawl' is the built-in command undo" in problems[0], problems
    assert problems[0].startswith(f"{path}:{BASE.count(chr(10)) + 3}:"), problems
