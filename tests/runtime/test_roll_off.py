"""roll_off: each instance of a group rolls, the highest wins, the tied roll again among themselves
(tests/rulesets/roll-off.yaml). Worked out by hand: the dice of a three-way tie, then a winner; the
chance of each fighter, from an exact recursion over the faces, against a simulation."""

from fractions import Fraction
from itertools import product
from math import sqrt
from pathlib import Path

import pytest

from ruleset_engine import dice
from ruleset_engine.analysis.simulate import simulate
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.runtime import Game, RuleError

ROLL_OFF = Path(__file__).parents[1] / "rulesets" / "roll-off.yaml"
WITS = {"Ana": 0, "Beto": 1, "Dani": 2}


def test_the_tied_roll_again_among_themselves_and_the_highest_wins():
    # Round 1: d10s 10, 9, 8 with wits 0, 1, 2: 10, 10, 10, all tied. Again: 5, 7, 3: 5, 8, 5: Beto.
    # Round 2: 9, 9, 1: 9, 10, 3: Beto outright.
    game = Game.start(load(str(ROLL_OFF)), rng=dice.ScriptedDice([10, 9, 8, 5, 7, 3, 9, 9, 1]))
    game.perform("round")
    assert game.values["last"] == "Beto"
    rolls = [(e["label"], e["value"]) for e in game.log if e["kind"] == "roll"]
    assert rolls == [("Ana", 10), ("Beto", 10), ("Dani", 10), ("Ana", 5), ("Beto", 8), ("Dani", 5)]
    (event,) = [e for e in game.log if e["kind"] == "roll_off"]
    assert (event["winner"], event["rounds"]) == ("Beto", 2)
    game.perform("round")
    assert game.values["last"] == "Beto" and [f["firsts"] for f in game.values["fighter"]] == [0, 2, 0]


def test_only_the_tied_roll_again():
    # 6, 9, 8: 6, 10, 10: Beto and Dani tied; Ana does not roll again. Then 4, 1: 5, 3: Beto.
    game = Game.start(load(str(ROLL_OFF)), rng=dice.ScriptedDice([6, 9, 8, 4, 1]))
    game.perform("round")
    rolls = [e["label"] for e in game.log if e["kind"] == "roll"]
    assert rolls == ["Ana", "Beto", "Dani", "Beto", "Dani"] and game.values["last"] == "Beto"


def chances(fighters: tuple) -> dict:
    """Each fighter's chance to win a roll-off among `fighters`, exactly: over every face of a d10 each,
    a single highest wins; a tie among all of them again is the same roll-off (so divided out), a tie
    among fewer is their own roll-off."""
    wins = {f: Fraction(0) for f in fighters}
    again = Fraction(0)
    for faces in product(range(1, 11), repeat=len(fighters)):
        scores = {f: face + WITS[f] for f, face in zip(fighters, faces)}
        top = max(scores.values())
        tied = tuple(f for f in fighters if scores[f] == top)
        p = Fraction(1, 10 ** len(fighters))
        if len(tied) == 1:
            wins[tied[0]] += p
        elif len(tied) == len(fighters):
            again += p
        else:
            for f, q in chances(tied).items():
                wins[f] += p * q
    return {f: w / (1 - again) for f, w in wins.items()}


def test_each_fighter_wins_as_often_as_the_exact_chance():
    exact = chances(("Ana", "Beto", "Dani"))
    assert sum(exact.values()) == 1 and exact["Dani"] > exact["Beto"] > exact["Ana"]
    games = 4_000          # six roll-offs a game
    report = simulate(str(ROLL_OFF), games, seed=2, backend="untraced").to_json()["report"]
    for name, key in (("Ana", "ana"), ("Dani", "dani")):
        p = float(exact[name])
        se = sqrt(6 * p * (1 - p) / games)
        assert abs(report[key]["mean"] - 6 * p) <= 5 * se, (name, report[key]["mean"], 6 * p)


def write(written, text):
    path = written.path(text, "r.yaml")
    return str(path)


@pytest.mark.parametrize("old, new, message", [
    ('rolls: "1d10 + f.wits"', 'rolls: "f.wits"', "roll_off: each instance rolls dice, and 'f.wits' rolls none"),
    ("roll_off: fighter", "roll_off: figter", "there is no entity 'figter' (did you mean 'fighter'?)"),
    ('rolls: "1d10 + f.wits"', 'rolls: "1d10 + f.wit"', "wit"),
])
def test_misuse_is_refused_at_load_with_its_place(written, old, new, message):
    with pytest.raises(RulesetError) as err:
        load(write(written, ROLL_OFF.read_text(encoding="utf-8").replace(old, new)))
    assert message in str(err.value) and "r.yaml:1" in str(err.value)
    assert len(err.value.problems) == 1         # the steps after it are not refused for the same mistake


def test_a_roll_off_among_no_one_is_an_error_at_its_step_in_both_modes(written):
    from ruleset_engine.analysis.simulate import play_game, simulation_program
    from ruleset_engine.runtime import resolve_params
    ruleset = load(write(written, ROLL_OFF.read_text(encoding="utf-8").replace("count: 3", "count: 0")))
    with pytest.raises(RuleError, match="roll_off: fighter has no instances to roll") as table:
        Game.start(ruleset, seed=1).perform("round")
    with pytest.raises(RuleError, match="roll_off: fighter has no instances to roll") as simulated:
        play_game(simulation_program(ruleset, resolve_params(ruleset, {})), 1)
    assert "r.yaml:16:9:" in str(table.value) and "r.yaml:16:9:" in str(simulated.value)
