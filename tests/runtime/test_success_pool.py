"""(b) d10 success pools: botch under both rules, specialty tens, willpower, a health track."""

import pytest

from tests.runtime.helpers import kinds, play, scripted_game


def shoot(faces, params=None, **args):
    game, source = scripted_game("success-pool", faces, params)
    events = play(game, "shoot", **args)
    assert source.remaining == 0
    return game, events


@pytest.mark.parametrize("rule, faces, botch, net", [
    ("revised", [1, 4, 4, 5, 7, 2, 3], True, 0),    # no success and a 1
    ("classic", [1, 4, 4, 5, 7, 2, 3], True, 0),
    ("revised", [1, 1, 8, 2, 3, 4, 5], False, 0),   # a success, cancelled: a plain failure
    ("classic", [1, 1, 8, 2, 3, 4, 5], True, 0),    # more 1s than successes
    ("classic", [1, 9, 2, 3, 4, 5, 6], False, 0),   # as many 1s as successes
])
def test_botch_rules(rule, faces, botch, net):
    game, events = shoot(faces, {"botch_rule": rule}, difficulty=8)
    assert game.values["last_botch"] is botch
    assert game.values["last_net"] == net
    assert kinds(events, "say")[0]["text"]["en"] == ("Botch!" if botch else "0 successes: Failure")


def test_specialty_tens_are_rolled_again_and_may_explode_again():
    game, events = shoot([10, 2, 3, 4, 5, 6, 7, 10, 8], specialty=True, difficulty=6)
    roll = kinds(events, "roll")[0]
    assert roll["pool"] == [10, 2, 3, 4, 5, 6, 7, 10, 8]
    assert game.values["last_net"] == 5
    assert kinds(events, "say")[0]["text"] == {"en": "5 successes: Phenomenal", "zh": "5 个成功：惊人"}


def test_specialty_double_counts_tens_twice_without_rolling_more():
    game, _ = shoot([10, 2, 3, 4, 5, 6, 7], {"specialty": "double"}, specialty=True, difficulty=6)
    assert game.values["last_net"] == 4   # 10 (twice), 6, 7


def test_willpower_success_is_not_cancelled_by_ones():
    game, _ = shoot([1, 1, 3, 4, 5, 2, 2], willpower=True, difficulty=6)
    assert game.values["last_net"] == 1 and game.values["last_botch"] is False
    game, _ = shoot([1, 1, 3, 4, 5, 2, 2], {"willpower_cancelable": True}, willpower=True, difficulty=6)
    assert game.values["last_net"] == 0


def test_damage_on_the_health_track_takes_dice_off_the_next_roll():
    game, source = scripted_game("success-pool", [6] * 7 + [6] * 6)
    play(game, "shoot", difficulty=6)
    assert game.values["last_net"] == 7
    events = play(game, "wound", levels=2)
    assert kinds(events, "mark")[0] == {**kinds(events, "mark")[0], "track": "character.health", "marked": 2}
    assert game.status() == "health 2/7 (penalty -1) | last 7"
    events = play(game, "shoot", difficulty=6)
    assert len(kinds(events, "roll")[0]["dice"]) == 6
    assert game.values["last_net"] == 6 and source.remaining == 0


def test_bilingual_status_and_labels():
    game, _ = shoot([6, 6, 2, 2, 2, 2, 2], difficulty=6)
    assert kinds(game.log, "lookup")[0]["row"]["label"] == {"en": "Moderate", "zh": "一般"}
    assert game.ruleset.title.get("zh") == "成功骰池（测试）"
