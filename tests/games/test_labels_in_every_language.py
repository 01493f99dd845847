"""Every name a table shows, in the table's language: each bundled ruleset gives, in Chinese and in
Spanish, a `words:` label to each of its state names, loop levels, params, groups, fields, tracks,
pairs, tables, actions, their parameters and words, and the choices of each.

The names are read from the loaded ruleset (the model the table shows them from), never listed here,
so a name added to a ruleset without its labels fails here. A transcript then checks the state screen
at a Chinese (and a Spanish) Attack of the Vampires table: its rows are the labels, none of the
English names (`track`, `kill_kept`, `loop.round`, the sheet's `life`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import ruleset_engine as dusk
from ruleset_engine.ruleset.bundled import bundled_files

LANGUAGES = ("zh", "es")


def shown_names(ruleset) -> dict[str, list[str]]:
    """What a table shows or types of a ruleset, by kind, from the loaded model."""
    names: dict[str, list[str]] = {
        "state": list(ruleset.state),
        "loop level": [level.name for level in ruleset.loop],
        "param": list(ruleset.params),
        "group": list(ruleset.entities),
        "table": list(ruleset.tables),
        "pair": list(ruleset.pairs),
        "action": list(ruleset.actions),
        "field or track": [], "action parameter or word": [], "choice": [],
    }
    for spec in ruleset.entities.values():
        names["field or track"] += list(spec.fields) + list(spec.tracks)
    for pair in ruleset.pairs.values():
        names["field or track"] += list(pair.fields)
    for param in ruleset.params.values():
        names["choice"] += list(param.choices)
    for action in list(ruleset.actions.values()) + list(ruleset.loop):
        for name, param in action.params.items():
            names["action parameter or word"] += [name] + ([param.word] if param.word else [])
            names["choice"] += list(param.choices)
    return names


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("ruleset_id", sorted(bundled_files()))
def test_every_shown_name_has_a_label(ruleset_id, lang):
    ruleset = dusk.load(ruleset_id)
    labels = ruleset.words.get(lang, {})
    missing = {kind: sorted(set(names) - set(labels)) for kind, names in shown_names(ruleset).items()}
    assert {kind: names for kind, names in missing.items() if names} == {}, (ruleset_id, lang)


def test_the_names_are_many_and_their_labels_are_not_english():
    """The lists above are not empty by mistake, and a label is the language's word, not the name again
    (aside the few names a language keeps as they are: ghoul, diablerie, extra, Spanish per and gen)."""
    ruleset = dusk.load("vampire-the-masquerade")
    names = {name for kind in shown_names(ruleset).values() for name in kind}
    assert len(names) > 250 and {"strength", "attack", "diff", "bashing", "turn", "health"} <= names
    kept = {"ghoul", "diablerie", "extra", "per", "gen"}
    for lang in LANGUAGES:
        same = {name for name, label in ruleset.words[lang].items() if label.casefold() == name.casefold()}
        assert same <= kept, (lang, same)


def state_screen(lang: str, tmp_path) -> str:
    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data"), DUSK_LANG="en", NO_COLOR="1", COLUMNS="120")
    argv = [sys.executable, "-m", "ruleset_engine", "play", "attack-of-the-vampires", "--seed", "1",
            "--lang", lang, "-c", "state"]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def first_cells(transcript: str) -> list[str]:
    """The first column of the state screen's tables (the names), header rows included."""
    return [line.split("│")[1].strip() for line in transcript.splitlines() if line.startswith("│")]


# The state screen of a new game, row by row, as the ruleset's words: label it (worked out from the
# ruleset's state: and loop:, in their order, then the hunter's table: its header, then its one row).
CHINESE_ROWS = ["名字", "吸血鬼", "时间轨", "保留蓝骰", "猎杀中", "搁置一点", "猎杀保留骰", "最新发现", "最近攻击",
                "搜索次数", "棺材数", "猎杀次数", "消灭数", "攻击次数", "大蒜次数", "午夜次数", "回合", "名字", "hunter"]
SPANISH_ROWS = ["nombre", "vampiros", "tiempo", "azules_guardados", "cazando", "unos_apartados", "guardados_de_caza",
                "último_hallazgo", "último_ataque", "búsquedas", "ataúdes", "intentos", "destruidos", "ataques", "ajos",
                "medianoches", "ronda", "nombre", "hunter"]


@pytest.mark.parametrize("lang, rows, life, rolled", [("zh", CHINESE_ROWS, "生命", "初始生命"),
                                                     ("es", SPANISH_ROWS, "vida", "vida_inicial")])
def test_the_state_screen_shows_no_english_name(lang, rows, life, rolled, tmp_path):
    transcript = state_screen(lang, tmp_path)
    # the dice param rolled at the start (life_roll), shown by its word before the first screen
    assert re.search(rf"^{rolled}  \d+→\d+", transcript, re.M) and "life_roll" not in transcript
    assert first_cells(transcript) == rows
    english = set(dusk.load("attack-of-the-vampires").state) | {"loop.round", "round"}
    assert not english & set(first_cells(transcript))
    assert "loop.round" not in transcript
    assert re.search(rf"│ {rows[0]} +│ {life} +│", transcript)       # the hunter's table: its field by its label
    assert not re.search(r"│ *life *│", transcript)
