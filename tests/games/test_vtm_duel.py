"""Vampire: the Masquerade: the duel (rulesets/vtm-duel.yaml), who wins a fight of two sheets and in
how many turns. One turn worked by hand with scripted dice each way, the turn limit, names that are
no sheet's, the dodging tactic's dice; then two equal sheets (tests/rulesets/vtm-twins.yaml: Ana and
Bea, every trait the same), where initiative decides who acts first each turn and a die the order of
a tie, so each side must win as often as the other.
"""

import math

import pytest

import ruleset_engine as dusk
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game, GameError

DUEL = load("vtm-duel")


def fight(faces, **params):
    source = ScriptedDice(faces)
    game = Game.start(DUEL, params=params, rng=source)
    while not game.over:
        game.perform("turn")
    return game, source


def rolls(game):
    return [len(e["dice"]) for e in game.log if e["kind"] == "roll"]


def test_ana_first_puts_kojiro_in_torpor_in_one_turn():
    # Initiative: Ana 3 + 3 + 10 = 16, Kojiro 3 + 4 + 1 = 8. Ana shoots (Firearms 4 is her best:
    # 7 dice, all 10s), 4 + 7 = 11 damage dice, all hits; Kojiro soaks with Stamina 3 (2 2 2): 11
    # levels, past Incapacitated: torpor, and he never acts.
    game, source = fight([10, 1, 1] + [10] * 7 + [6] * 11 + [2] * 3)
    assert game.result == "attacker_wins" and source.remaining == 0
    assert game.report() == {"turns": 1, "attacker_lost": 0, "defender_lost": 7}


def test_a_fight_still_on_after_the_last_turn_is_a_draw():
    # Kojiro first (3 + 4 + 10 = 17 against 3 + 3 + 1 = 7): his Brawl 4 (his best: 7 dice) misses,
    # then Ana's shot misses.
    game, source = fight([1, 10, 2] + [2] * 7 + [2] * 7, turns=1)
    assert game.result == "draw" and source.remaining == 0
    assert rolls(game) == [1, 1, 1, 7, 7]


def test_the_dodging_tactic_costs_dice_as_multiple_actions():
    # Each attacks as the first of two actions (2 dice fewer) and dodges as the second (3 fewer):
    # Ana shoots with 7 - 2 = 5 dice, Kojiro dodges with 3 + 3 - 3 = 3; both miss.
    game, source = fight([10, 1, 1] + [6] + [2] * 4 + [6, 6, 2] + [2] * 5, tactic="dodge", turns=1)
    assert rolls(game)[3:] == [5, 3, 5] and game.result == "draw" and source.remaining == 0


def test_a_name_that_is_no_sheet_is_refused_and_one_fighter_twice_ends_it_at_once():
    # attacker and defender name a character (names: character): a name no sheet has is refused
    # before the game, with the sheets there are; the same sheet twice is no duel.
    with pytest.raises(GameError, match=r"param attacker: no sheet of character is named 'Nobody' \(the sheets: Ana, Kojiro\)"):
        Game.start(DUEL, params={"attacker": "Nobody"}, seed=1)
    game = Game.start(DUEL, params={"defender": "Ana"}, seed=1)
    assert game.over and game.result == "no_duel"


def test_two_equal_sheets_win_as_often_as_each_other():
    # N = 4,000 games. The difference of the two win counts has a variance of at most N (p_a + p_d),
    # so 5 standard errors is 5 * sqrt((p_a + p_d) / N) of the rates: about 0.079 here.
    n = 4000
    # Played in lockstep (the twins play alike in both backends: the parity test below).
    results = dusk.simulate("tests/rulesets/vtm-twins.yaml", n, seed=7, workers=1, backend="lockstep").to_json()["results"]
    wins_a = results.get("attacker_wins", {}).get("count", 0)
    wins_d = results.get("defender_wins", {}).get("count", 0)
    draws = results.get("draw", {}).get("count", 0)
    assert wins_a + wins_d + draws == n
    p_a, p_d = wins_a / n, wins_d / n
    assert abs(p_a - p_d) <= 5 * math.sqrt((p_a + p_d) / n)
    assert p_a > 0.3 and p_d > 0.3          # both win often: neither side is favoured by the order


def test_the_duel_plays_alike_in_lockstep_and_untraced():
    # The whole toolkit in lockstep (procedures given instances, for_each by initiative, field(who, name),
    # values set until the turn ends, the sheets as each game starts): every rate and mean within 5 SE.
    from tests.runtime.test_lockstep import assert_parity
    assert_parity("vtm-duel", 10_000, 1_500)


def test_two_equal_sheets_play_alike_in_lockstep_and_untraced():
    # The house rule's sheets, and a fight whose every rate is far from 0 and 1.
    from tests.runtime.test_lockstep import assert_parity
    assert_parity("tests/rulesets/vtm-twins.yaml", 6_000, 1_000)
