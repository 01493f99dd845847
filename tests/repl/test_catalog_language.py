"""A table made in the tests with a language speaks it as `dusk play --lang LANG` does: dusk's own words
(its catalog, ruleset_engine/i18n.py) as well as the game's. The tests' tables once set only the game's
language, so the Chinese golden transcripts held dusk's English ("Added to character: Brute.") where
the real table says "新人物：Brute。". Each golden transcript in another language is read for any line
that is one of dusk's own English messages (its placeholders filled by anything); and a table of the
tests is checked against the real `dusk play` itself.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ruleset_engine import i18n
from tests.repl.conftest import make_repl, run

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
BRUTE = "npc Brute nature human str 4 dex 3 sta 4 wit 2 brawl 2 dodge 2 melee 2 weapon 2 type lethal"


def english_messages(lang: str) -> list[tuple[str, re.Pattern]]:
    """Each of dusk's English messages that `lang`'s catalog words otherwise, as a pattern any filling of
    its placeholders matches. Only messages with an English word of their own (not "{a}: {b}") count:
    a line of names and numbers is in no language."""
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "dusk.po", "rb") as handle:
        catalog = read_po(handle, locale=lang)
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in ids:
            if english in texts:         # the same in both languages: nothing to tell apart
                continue
            pieces = PLACEHOLDER.split(english)
            if not any(ENGLISH_WORD.search(piece) for piece in pieces):
                continue
            found.append((english, re.compile(".+?".join(re.escape(piece) for piece in pieces))))
    return found


def english_lines(text: str, lang: str) -> list[tuple[str, str]]:
    """(line, the English message it holds) for each line of `text` that holds one of dusk's own."""
    messages = english_messages(lang)
    return [(line, english) for line in text.splitlines() if not line.startswith("> ")
            for english, pattern in messages if pattern.search(line)]


def golden_in(lang: str) -> list[Path]:
    """The golden transcripts of the table in `lang` (named NAME-LANG.txt)."""
    return sorted(GOLDEN.rglob(f"*-{lang}.txt"))


def test_the_check_finds_dusks_english_in_the_transcript_the_old_tables_wrote():
    # The first lines of combat-zh.txt as the tests' tables wrote them before they set the catalog's language.
    old = "> " + BRUTE + "\nAdded to character: Brute.\nBrute（人类）加入场景。\n"
    assert english_lines(old, "zh") == [("Added to character: Brute.", "Added to {entity}: {name}.")]
    assert english_lines(old.replace("Added to character: Brute.", "新人物：Brute。"), "zh") == []


@pytest.mark.parametrize("lang", ["zh", "es"])
def test_no_golden_transcript_in_another_language_holds_dusks_english(lang):
    for path in golden_in(lang):
        assert english_lines(path.read_text(encoding="utf-8"), lang) == [], path.name
    if lang == "zh":      # the check read something: the Chinese tables of tests/games/test_vtm_*
        assert {p.name for p in golden_in(lang)} >= {"combat-zh.txt", "storyteller-zh.txt"}


def test_a_tests_table_in_chinese_says_dusks_words_as_dusk_play_does(tmp_path):
    repl, out = make_repl("vampire-the-masquerade", seed=53, lang="zh")
    assert i18n.language() == "zh"
    shown = run(repl, out, BRUTE, "undo")
    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "cli"), NO_COLOR="1")
    real = subprocess.run([sys.executable, "-m", "ruleset_engine", "play", "vampire-the-masquerade", "--lang", "zh",
                           "--seed", "53", "-c", f"{BRUTE}; undo"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert real.returncode == 0, real.stderr
    # The CLI's transcript echoes each command after its prompt and starts with the game's first lines.
    said = [line for line in real.stdout.splitlines() if not line.startswith("> ")]
    assert "新人物：Brute。" in shown.splitlines() and shown.splitlines() == said[-len(shown.splitlines()):]
    assert english_lines(shown, "zh") == []


def test_a_table_in_chinese_leaves_the_next_test_in_english_a():
    make_repl("vampire-the-masquerade", seed=53, lang="zh")
    assert i18n.language() == "zh" and i18n._("Added to {entity}: {name}.") == "新{entity}：{name}。"


def test_a_table_in_chinese_leaves_the_next_test_in_english_b():
    # Run after the test above (pytest keeps a file's order): tests/conftest.py put English back.
    assert i18n.language() == "en" and i18n._("Added to {entity}: {name}.") == "Added to {entity}: {name}."
