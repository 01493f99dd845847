"""A whole Attack of the Vampires game in Spanish (`--lang es`): the ruleset's Spanish texts, and dusk's own
words in Spanish too. Spanish shares letters with English, so the transcript's words are checked
against dusk's English ones: every word of the English messages of the catalog that its Spanish
translations never use (`rounds`, `played`, `Undone`, `dropped`, ...) must be absent, outside the names
the ruleset gives and the commands typed."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from ruleset_engine.repl.commands import BUILTINS
from tests.games.test_table_in_chinese import LATIN, PATH, play, ruleset_names

CATALOG = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES" / "dusk.po"


def english_words() -> set[str]:
    """The words of dusk's English messages that no Spanish translation uses."""
    with open(CATALOG, "rb") as handle:
        catalog = read_po(handle, locale="es")
    english, spanish = set(), set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= set(LATIN.findall(re.sub(r"\{\w*\}", " ", text)))
        for text in strings:
            spanish |= set(LATIN.findall(re.sub(r"\{\w*\}", " ", text)))
    return {word for word in english - spanish if len(word) > 2}


def test_an_attack_of_the_vampires_game_in_spanish(tmp_path):
    commands = ["round", "help", "auto 80", "status", "undo", "roll 4d6kh3", "roll 2d6 +", "dice"]
    transcript = play("attack-of-the-vampires", 5, commands, tmp_path, refused=True, lang="es")
    names = ruleset_names("attack-of-the-vampires") | set(BUILTINS) | {"attack", "of", "the", "vampires"}
    forbidden = english_words() - names
    assert {"rounds", "played", "Undone", "dropped", "commands"} <= forbidden     # the check can fail
    found = [(word, line) for line in transcript.splitlines()
             for word in LATIN.findall(PATH.sub(" ", line)) if word in forbidden]
    assert not found, found
    assert "El ataque de los vampiros. Una partida nueva, semilla 5, guardada en" in transcript
    assert "Escribe help para ver las órdenes; Tab completa; Ctrl-D sale (la partida queda guardada)." in transcript
    assert "La caza empieza con" in transcript and "El cazador cae. Ganan los vampiros, con 3 aún en la reserva." \
        in transcript
    assert "Deshecho: auto 80 (turnos 2–60)." in transcript
    assert "  (✗ descartado)" in transcript
    assert "se esperaba un valor después de '+', pero la expresión termina ahí" in transcript
