"""Attack of the Vampires by the numbers, played round by round at the table (the traced mode;
the parity tests hold it equal to the untraced mode of `dusk simulate`, game for game).

Bounds are about five standard errors wide, so a correct implementation does not fail
them by chance (and the seeds are fixed, so a run is repeatable anyway):
kill rate 34.4% +- 1.7% (standard error 0.34%), house rule 72.4% +- 1.7% (0.32%), mean
search length 10.56 +- 0.25 rolls (standard error about 0.045).
"""

import pytest

from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game

N = 20_000


def fresh_game(name, seed):
    game = Game.start(load(name), seed=seed, record=False, auto=True)
    game.values["hunter"]["life"] = 10**9      # nobody dies while we count
    return game


def reset(values, fighting):
    values.update(fighting=fighting, ones=0, kill_kept=[], blue=[], vampires=3)
    values["loop"]["round"] = 1                 # the loop's bound counts rounds; keep it far


def kill_rate(name, seed):
    game = fresh_game(name, seed)
    values = game.values
    kills = 0
    for _ in range(N):
        reset(values, fighting=True)
        before = values["kills"]
        while values["fighting"]:
            game.perform("round")
        kills += values["kills"] - before
    return kills / N


@pytest.mark.timeout(600)
def test_kill_rate_under_the_rules():
    assert kill_rate("attack-of-the-vampires", 1) == pytest.approx(0.344, abs=0.017)


@pytest.mark.timeout(600)
def test_kill_rate_under_the_house_rule():
    assert kill_rate("attack-keep-sets", 2) == pytest.approx(0.724, abs=0.017)


@pytest.mark.timeout(600)
def test_mean_search_length():
    game = fresh_game("attack-of-the-vampires", 3)
    values = game.values
    rolls = 0
    for _ in range(N):
        reset(values, fighting=False)
        before = values["coffins"]
        while values["coffins"] == before:
            game.perform("round")
            rolls += 1
    assert rolls / N == pytest.approx(10.56, abs=0.25)
