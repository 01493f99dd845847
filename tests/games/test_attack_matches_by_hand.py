"""The YAML game and the hand-written one (benchmarks/attack_by_hand.py) draw their dice in the
same order, so with the same seed they must play the same game: same result, same number of
rounds, same life and vampires left. A rule read differently in either shows up here."""

import random
import sys
from pathlib import Path

import pytest

from ruleset_engine.analysis.simulate import game_seed, play_game, simulation_program
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game, resolve_params

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from attack_by_hand import play_attack  # noqa: E402


@pytest.mark.parametrize("name, house", [("attack-of-the-vampires", False), ("attack-keep-sets", True)])
def test_same_seed_same_game_as_dusk_simulate_plays_it(name, house):
    ruleset = load(name)
    program = simulation_program(ruleset, resolve_params(ruleset, {}))
    for i in range(300):
        seed = game_seed(2026, i)
        result, rounds, report, _ = play_game(program, seed)
        expected, hand_rounds, life, vampires = play_attack(random.Random(seed), house)
        assert (result, rounds, report["life"], report["vampires_left"]) == \
            (expected, hand_rounds, max(0, life), vampires), f"game {i} differs"


@pytest.mark.parametrize("name, house", [("attack-of-the-vampires", False), ("attack-keep-sets", True)])
def test_same_seed_same_game_at_the_table(name, house):
    ruleset = load(name)
    for i in range(40):
        seed = game_seed(2027, i)
        game = Game.start(ruleset, seed=seed, auto=True)
        rounds = 0
        while not game.over:
            game.perform("round")
            rounds += 1
        expected, hand_rounds, life, vampires = play_attack(random.Random(seed), house)
        assert (game.result, rounds, game.report()["life"]) == (expected, hand_rounds, max(0, life)), f"game {i}"
