"""(c) The search-and-kill loop: sixes kept between rounds, ones set aside over an attempt."""

from tests.runtime.helpers import kinds, play, scripted_game

LIFE = [15]


def test_search_keeps_sixes_then_a_kill_over_two_rounds():
    game, source = scripted_game("search-and-kill", LIFE + [6, 2, 6] + [6] + [2] + [1, 4, 4, 2, 1] + [4, 4, 4])
    assert game.values["hunter"]["life"] == 15

    events = play(game, "round")
    assert kinds(events, "roll")[0]["pool"] == [6, 2, 6]
    assert game.values["kept"] == [6, 6]

    events = play(game, "round")   # one die rolled beside the two kept sixes; the coffin; the first kill roll
    rolls = kinds(events, "roll")
    assert [r["pool"] for r in rolls] == [[6, 6, 6], [2], [1, 4, 4, 2, 1]]
    assert len(rolls[0]["dice"]) == 3 and rolls[0]["expression"] == "[kept, (params.search_dice - size(kept))d6]"
    assert game.values["fighting"] is True and game.values["ones"] == 2

    events = play(game, "round")   # the two ones stay aside: three dice rolled
    rolls = kinds(events, "roll")
    assert [r["pool"] for r in rolls] == [[4, 4, 4]]
    assert game.values["targets"] == 1 and game.values["fighting"] is False
    assert game.values["kept"] == []
    assert kinds(events, "say")[0]["text"] == "Destroyed with 4 4 4."
    assert source.remaining == 0


def test_a_third_one_means_an_attack_and_a_fresh_search():
    faces = LIFE + [6, 6, 6] + [1] + [1, 1, 2, 3, 5] + [1, 2, 3] + [4]
    game, source = scripted_game("search-and-kill", faces, params={"targets": 1})
    play(game, "round")
    assert game.values["ones"] == 2
    events = play(game, "round")
    assert [e["text"] for e in kinds(events, "say")] == ["A third one: it strikes."]
    assert game.values["hunter"]["life"] == 11 and game.values["targets"] == 1
    assert game.values["fighting"] is False and game.values["kept"] == []
    assert source.remaining == 0


def test_garlic_death_and_victory_end_the_game():
    faces = [10] + [6, 6, 6] + [1] + [1, 1, 2, 3, 5] + [1, 2, 3] + [6]
    game, _ = scripted_game("search-and-kill", faces, params={"targets": 1})
    play(game, "round")
    events = play(game, "round")
    assert "Garlic!" in [e["text"] for e in kinds(events, "say")] and game.values["hunter"]["life"] == 10

    game, _ = scripted_game("search-and-kill", [10] + [6, 6, 6] + [1] + [1, 1, 2, 3, 5] + [1, 2, 3] + [5])
    game.values["hunter"]["life"] = 4
    play(game, "round")
    events = play(game, "round")
    assert game.over and game.result == "lost" and kinds(events, "end") == [kinds(events, "end")[0]]
    assert game.actions() == []

    game, _ = scripted_game("search-and-kill", [10] + [6, 6, 6] + [1] + [5, 5, 5, 2, 3], params={"targets": 1})
    events = play(game, "round")
    assert game.over and game.result == "won"
    assert game.report() == {"life": 10, "targets_left": 0}
