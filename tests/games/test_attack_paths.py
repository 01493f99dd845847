"""Attack of the Vampires, each path of the rules with scripted dice.

Each test asserts hand-written facts (life, vampires, track, kept dice, result) and compares
the whole event log with a committed golden file in tests/golden/attack/. After a deliberate
change to the ruleset or the log format, regenerate them and review the diff:

    DUSK_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_attack_paths.py
"""

import json
import os
from pathlib import Path

import pytest

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "attack"
NO_SIX = [2, 3, 4]          # a search roll with no six
RULESET = load("attack-of-the-vampires")


def play(faces, rounds, left=0, **params):
    source = ScriptedDice(faces)
    game = Game.start(RULESET, params=params, rng=source)
    for _ in range(rounds):
        if game.over:
            break
        game.perform("round")
    assert source.remaining == left, f"{source.remaining} scripted dice left"
    return game


def en(text):
    """The English of a text the game stored or said (the bundled game speaks English and Chinese)."""
    return text["en"] if isinstance(text, dict) else text


def says(game, lang="en"):
    return [e["text"][lang] for e in game.log if e["kind"] == "say"]


def golden(name, game):
    path = GOLDEN / f"{name}.json"
    text = json.dumps(game.log, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if os.environ.get("DUSK_REGENERATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with DUSK_REGENERATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"the event log differs from {path.name}"


def test_a_vampire_found_and_killed():
    game = play([15] + [6, 6, 6] + [2] + [4, 4, 4, 2, 3], rounds=1)
    v = game.values
    assert (v["hunter"]["life"], v["vampires"], v["kills"]) == (15, 2, 1)
    assert v["fighting"] is False and v["blue"] == [] and v["track"] == [5, 6, 6, 6]
    assert en(v["latest_discovery"]) == "The vampire is destroyed (4 4 4)! 2 remain."
    golden("found-and-killed", game)


def test_a_kill_that_fails_on_the_third_one():
    game = play([15] + [6, 6, 6] + [1] + [1, 1, 2, 3, 5] + [1, 2, 3] + [4], rounds=2)
    v = game.values
    # The attempt ended on its third one, so its ones are cleared (the status line shows 0).
    assert v["ones"] == 0 and v["fighting"] is False and v["vampires"] == 3
    assert v["hunter"]["life"] == 11 and v["blue"] == []
    assert en(v["latest_attack"]) == "The vampire attacks: white 4, 4 damage; life 11."
    assert "A third one: the vampire attacks!" in says(game)
    golden("third-one", game)


def test_an_empty_coffin_starts_the_search_afresh():
    game = play([12] + [6, 2, 6] + [6] + [5], rounds=2)
    v = game.values
    assert v["blue"] == [] and v["fighting"] is False and v["coffins"] == 1
    assert en(v["latest_discovery"]) == "An empty coffin (green 5). The search begins fresh."
    golden("empty-coffin", game)


def test_midnight_with_two_vampires_left():
    game = play([20] + NO_SIX * 20 + [3, 5], rounds=20, vampires=2)
    v = game.values
    assert v["midnights"] == 1 and v["track"] == [6, 6, 6, 6]
    assert v["hunter"]["life"] == 12 and v["attacks"] == 2
    assert "Midnight strikes! 2 vampires attack." in says(game)
    tracks = [e["value"] for e in game.log if e["kind"] == "set" and e["target"] == "track"]
    assert tracks[:7] == [[], [6], [6, 6], [6, 6, 6], [6, 6, 6, 6], [5, 6, 6, 6], [4, 6, 6, 6]]
    golden("midnight-two-vampires", game)


def test_midnight_during_a_kill_attempt():
    faces = [15] + NO_SIX * 19 + [6, 6, 6] + [3] + [2, 2, 3, 3, 5] + [2] + [5, 5, 5, 2, 3]
    game = play(faces, rounds=20, left=5, vampires=1)
    v = game.values
    assert v["fighting"] is True and v["midnights"] == 1 and v["hunter"]["life"] == 13
    assert not game.over   # the vampire being fought attacked too, and the attempt goes on
    game.perform("round")
    assert game.over and game.result == "won" and game.values["kills"] == 1
    golden("midnight-mid-attempt", game)


def test_garlic():
    game = play([15] + [6, 6, 6] + [1] + [1, 1, 2, 3, 5] + [1, 2, 3] + [6], rounds=2)
    v = game.values
    assert v["hunter"]["life"] == 15 and v["garlic"] == 1
    assert en(v["latest_attack"]) == "The vampire attacks: white 6, garlic! No damage."
    golden("garlic", game)


def test_death():
    # Life 10; at midnight three vampires attack: 5, then 5 brings life to 0 and the game ends at
    # once (at_once): the third vampire never attacks, so no third die is rolled.
    game = play([10] + NO_SIX * 20 + [5, 5], rounds=20)
    assert game.over and game.result == "lost"
    assert game.values["hunter"]["life"] == 0 and game.report()["life"] == 0 and game.values["attacks"] == 2
    assert says(game)[-2:] == ["A vampire attacks: white 5, 5 damage; life 0.",
                               "The hunter falls. The vampires win, with 3 still in the pool."]
    golden("death", game)


def test_victory():
    game = play([15] + [6, 6, 6] + [1] + [3, 3, 3, 1, 2], rounds=1, vampires=1)
    assert game.over and game.result == "won" and game.values["vampires"] == 0
    assert says(game)[-1] == "Every vampire is destroyed. The hunter wins, with 15 life left."
    assert game.actions() == []
    golden("victory", game)


def test_the_house_rule_keeps_a_pair_between_kill_rolls():
    house = load("attack-keep-sets")
    source = ScriptedDice([15] + [6, 6, 6] + [1] + [4, 4, 2, 3, 5] + [4, 6, 2])
    game = Game.start(house, rng=source)
    game.perform("round")
    assert game.values["kill_kept"] == [4, 4]
    game.perform("round")            # only three dice rolled beside the kept pair: 4 4 + 4 6 2
    assert game.values["kills"] == 1 and source.remaining == 0


@pytest.mark.parametrize("name", ["attack-of-the-vampires", "attack-keep-sets"])
def test_every_param_named_by_the_rulings_exists(name):
    params = load(name).params
    for param in ["life_roll", "vampires", "track_dice", "track_start", "search_dice", "vampire_on",
                  "kill_dice", "garlic_on"]:
        assert param in params


def test_counts_of_one_are_singular_in_english():
    # Two vampires; the kill roll 1 4 4 4 2 leaves 1; a failed roll first sets one 1 aside.
    game = play([15] + [6, 6, 6] + [2] + [1, 2, 3, 4, 5] + [4, 4, 4, 2], rounds=2, vampires=2)
    assert "No three of a kind; 1 one set aside." in says(game)
    assert en(game.values["latest_discovery"]) == "The vampire is destroyed (4 4 4)! 1 remains."
    assert game.values["ones"] == 0        # the attempt is over: its ones are cleared

    lone = play([20] + NO_SIX * 20 + [3], rounds=20, vampires=1)
    assert "Midnight strikes! 1 vampire attacks." in says(lone)
    assert "The hunt begins with 20 life, 1 vampire in the pool, and the track at 6 6 6 6." in says(lone)


def test_the_texts_carry_chinese_and_spanish_beside_english():
    game = play([15] + [6, 6, 6] + [1] + [3, 3, 3, 1, 2], rounds=1, vampires=1)
    assert says(game, "zh")[-1] == "所有吸血鬼都被消灭了。猎人获胜，剩余生命 15。"
    assert says(game, "es")[-1] == "Todos los vampiros han sido destruidos. Gana el cazador, con 15 de vida."
    rolls = [e for e in game.log if e["kind"] == "roll" and "label" in e]
    assert [r["label"] for r in rolls] == [{"en": "Search", "zh": "搜索", "es": "Búsqueda"},
                                           {"en": "Coffin", "zh": "棺材", "es": "Ataúd"},
                                           {"en": "Kill", "zh": "猎杀", "es": "Caza"}]
    assert says(game, "zh")[0] == "狩猎开始：生命 15，池中有 1 个吸血鬼，时间轨为 6 6 6 6。"
    # plural() in the Spanish text: one vampire, then "Quedan 0" after the kill
    assert says(game, "es")[0] == ("La caza empieza con 15 de vida, 1 vampiro en la reserva y el marcador de "
                                   "tiempo en 6 6 6 6.")
    assert "¡El vampiro queda destruido (3 3 3)! Quedan 0." in says(game, "es")
