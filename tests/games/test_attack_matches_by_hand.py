"""The YAML game and the hand-written one (benchmarks/attack_by_hand.py) draw their dice in the
same order, so with the same seed they must play the same game: same result, same number of
rounds, same life and vampires left. A rule read differently in either shows up here."""

import random
import sys
from pathlib import Path

import pytest

from ruleset_engine.analysis.compiled import compile_ruleset
from ruleset_engine.analysis.simulate import game_seed, play_one
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import resolve_params

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from attack_by_hand import play_attack  # noqa: E402


@pytest.mark.parametrize("compiled", [False, True], ids=["interpreted", "compiled"])
@pytest.mark.parametrize("name, house", [("attack-of-the-vampires", False), ("attack-keep-sets", True)])
def test_same_seed_same_game(name, house, compiled):
    ruleset = load(name)
    params = resolve_params(ruleset, {})
    fast = compile_ruleset(ruleset, params) if compiled else None
    for i in range(150):
        seed = game_seed(2026, i)
        ours = play_one(ruleset, params, seed, "round", compiled=fast)
        result, rounds, life, vampires = play_attack(random.Random(seed), house)
        assert (ours.result, ours.rounds, ours.report["life"], ours.report["vampires_left"]) == \
            (result, rounds, max(0, life), vampires), f"game {i} differs"
