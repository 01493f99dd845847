"""Whole nights of Noche de los Vampiros, seeded, with scripted answers: each test asserts facts worked
out by hand from the rulings, and freezes the night's chronicle (every question and answer, every
die with its fate, every line said) in a golden transcript in tests/golden/noche/. After a deliberate
change to the ruleset or the log, regenerate them and read the diff:

    DUSK_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_noche_nights.py
"""

import os
from pathlib import Path

from ruleset_engine.runtime import Game
from tests.games.noche_table import NAMES, RULESET, answer_all, who

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "noche"
MARKS = {"aside": "↓", "cancelled": "⊘", "dropped": "✗"}


def text(value):
    return value["en"] if isinstance(value, dict) else value


def transcript(game) -> str:
    """The chronicle as lines: actions, questions with their answers, rolls die by die, says, and the marks
    the table shows (not a quiet one, which the ruleset says in its own words)."""
    lines = []
    for e in game.log:
        kind = e["kind"]
        if kind == "action":
            args = " ".join(f"{k}={v}" for k, v in e.get("args", {}).items())
            lines.append(f"> {e['name']} {args}".rstrip())
        elif kind == "ask":
            lines.append(f"? {e['decision']['prompt']} {e['answer']}")
        elif kind == "roll":
            dice = " ".join(f"{d['face']}{MARKS.get(d['fate'], '')}" for d in e["dice"])
            lines.append(f"  {text(e.get('label')) or e['expression']}: {dice}")
        elif kind == "say":
            lines.append(text(e["text"]))
        elif kind == "mark" and not e.get("quiet"):    # a quiet mark is said by the ruleset, in its words
            lines.append(f"  [{e['track']} marked: {e['marked']}]")
        elif kind == "level" and e["level"] == "hour" and e["event"] == "begin":
            lines.append(f"=== Hour {e['iteration']}")
        elif kind == "end":
            lines.append(f"=== over: {e['result']}")
    return "\n".join(lines) + "\n"


def golden(name, game):
    path = GOLDEN / f"{name}.txt"
    written = transcript(game)
    if os.environ.get("DUSK_REGENERATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(written, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with DUSK_REGENERATE_GOLDEN=1"
    assert written == path.read_text(encoding="utf-8"), f"the night's chronicle differs from {path.name}"


def start(n, seed, **params):
    game = Game.start(RULESET, params=params, seed=seed)

    def setup(decision):
        if decision.var == "n":
            return n
        if decision.var == "who":
            return NAMES[int(decision.prompt.split()[1].rstrip(",")) - 1]
        if decision.var == "words":
            return f"{decision.who} words {decision.prompt.split()[2]} {decision.prompt.split()[4].rstrip('?,')}"
        raise AssertionError(decision)

    answer_all(game, game.last_outcome, setup)
    return game


def play(game, policy, before=lambda game: None, conflicts=1000):
    """Conflicts until the night ends (or `conflicts` of them); before(game) may switch the scale."""
    for _ in range(conflicts):
        if game.over:
            break
        before(game)
        answer_all(game, game.perform("conflict"), lambda d: policy(game, d))
    return game


def ana_bleeds(game, d):
    """Ana risks every die and brings in nothing; the others risk one die; the whole Hour after
    max_conflicts only once Ana is down to one die."""
    if d.var == "whole":
        return who(game, "Ana")["dice"] == 1
    if d.var == "risk":
        return d.max if d.who == "Ana" else 1
    if d.var == "ties":
        return []
    raise AssertionError(d)


def test_a_night_in_which_someone_dies():
    # Ana stakes everything every conflict; her pairs and her cancelled dice feed the pool (Beto risks
    # a single die, which never pairs and goes only when the pool cancels it), so she ends each Hour on
    # her floor of one die and checks a box. Five Hours check her five boxes; she dies in the first conflict of Hour 6.
    game = play(start(2, seed=5, hours=6), ana_bleeds)
    ana = who(game, "Ana")
    assert ana["alive"] is False and ana["boxes"]["marked"] == 5
    assert game.values["first_death"] == 6 and game.values["deaths"] == 1
    assert game.over and game.result == "dawn" and game.values["living"] == 1
    said = transcript(game)
    assert "Ana dies in this conflict. Ana's player narrates the death, then plays for the vampires." in said
    # From then on Ana rolls a share of the pool and her own die: 1 // 2 = 0 dice of the pool, 1 own.
    assert "Ana's own die:" in said
    golden("someone-dies", game)


def test_a_night_switching_scales_mid_hour():
    # One Hour, three characters: a Scene, then two Shots, then the rest of the Hour in one roll.
    scales = iter(["scene", "shot", "shot", "hour"])

    def before(game):
        game.perform("scale", to=next(scales))

    # Under the pairs-only reading, so that the pool stays under ten for the three conflicts before.
    game = play(start(3, seed=2, hours=1, cancelled_dice_to_pool=False), lambda g, d: {"risk": 2, "ties": list(d.choices[:1])}[d.var],
                before)
    said = transcript(game)
    assert said.count("Scale: shot, for the conflicts to come.") == 2
    assert "Conflict 1 of Hour 1, a scene." in said and "Conflict 2 of Hour 1, a shot." in said
    assert "Conflict 4 of Hour 1: the whole Hour at once. The Vampire Pool rises to 10 dice." in said
    assert game.over and game.values["all_conflicts"] == 4
    golden("switching-scales", game)


def test_a_night_of_whole_hour_conflicts():
    # scale hour: each Hour is one conflict against a pool of ten dice, and then it ends.
    game = play(start(3, seed=3, hours=3, scale="hour"), lambda g, d: {"risk": 3, "ties": list(d.choices[:1])}[d.var])
    assert game.values["conflict_hours"] == [1, 2, 3] and game.over and game.result == "dawn" and game.values["living"] == 3
    gm = [line for line in transcript(game).splitlines() if line.startswith("  GM (")]
    assert len(gm) == 3 and all(line.startswith("  GM (10 of the Vampire Pool):") for line in gm)
    golden("whole-hours", game)


def test_every_box_checked_at_the_twelfth_hour():
    # Ana plays it safe for seven Hours (one die each, whole Hours), then bleeds for five: her last
    # box is checked at the end of Hour 12, so she lives to see the sun and dies at dawn.
    def before(game):
        wanted = "hour" if game.values["loop"]["hour"] <= 7 else "scene"
        if game.values["in_force"] != wanted:
            game.perform("scale", to=wanted)

    def policy(game, d):
        if game.values["loop"]["hour"] <= 7:
            return {"risk": 1, "ties": []}[d.var]
        return ana_bleeds(game, d)

    game = play(start(2, seed=7), policy, before)
    ana = who(game, "Ana")
    assert ana["alive"] is False and ana["boxes"]["marked"] == 5
    assert game.values["death_hours"] == [12] and game.result == "dawn" and game.values["living"] == 1
    lines = transcript(game).splitlines()
    assert "Ana ends the Hour with one die and checks the last box: death comes in the next conflict." in lines
    assert lines[-3:] == ["Ana lives to see the sun rise, and dies of the night's wounds.",
                          "Dawn. 1 character lives another day: Beto.", "=== over: dawn"]
    golden("last-box-at-dawn", game)
