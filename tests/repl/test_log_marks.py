"""The rolls of a game in the log, marked as `dusk roll` marks them: each die with its fate, and a
sum only where the roll's value is a number."""

import re


import ruleset_engine as dusk
from ruleset_engine.repl.render import Style, event
from tests.repl.conftest import GAMES, make_repl, run


def die(face, fate="kept", sides=6, **more):
    return {"face": face, "sides": sides, "fate": fate, **more}


def kill_roll(**more):
    # A kill roll whose dice carry the fates a ruleset can give them: the set counted, the rest set aside.
    return {"seq": 9, "turn": 4, "kind": "roll", "name": "kill", "label": "Kill",
            "expression": "[kill_kept, 5d6]", "value": 18, "pool": [6, 6, 6],
            "dice": [die(3, "aside"), die(6, "counted"), die(1, "aside"), die(6, "counted"), die(6, "counted")],
            "steps": [], **more}


def test_a_kill_roll_shows_which_dice_made_the_set_and_which_went_aside():
    assert event(kill_roll(), Style()).plain == "Kill  3↓ 6✓ 1↓ 6✓ 6✓  (✓ counted, ↓ set aside)"
    assert event(kill_roll(), Style(ascii_only=True)).plain == "Kill  3v 6* 1v 6* 6*  (* counted, v set aside)"
    assert event(kill_roll(undone=True), Style()).plain.startswith("Kill (undone)  3↓ 6✓ 1↓ 6✓ 6✓")


def test_the_marks_have_the_styles_of_dusk_roll():
    shown = event(kill_roll(), Style())
    from_roll = dusk.render_rich({"expression": "x", "value": 0, "pool": None,
                                  "steps": [{"label": "x", "dice": [die(6, "counted"), die(3, "aside")]}]})
    styles = lambda text: [str(s.style) for s in text.spans if text.plain[s.start:s.end].strip()[:1].isdigit()]  # noqa: E731
    assert styles(shown)[:2] == styles(from_roll)[::-1] and styles(from_roll) == ["bold green", "yellow"]


def test_a_number_shows_its_value_and_a_pool_never_its_total():
    hits = {"kind": "roll", "name": "hits", "expression": "count(3d10, >= 6)", "value": 2, "pool": None,
            "dice": [die(6, "counted", 10), die(2, sides=10), die(9, "counted", 10)], "steps": []}
    assert event(hits, Style()).plain == "hits  6✓ 2 9✓ = 2  (✓ counted)"
    best = {"kind": "roll", "name": "best", "label": "Best", "expression": "4d6kh3", "value": 13,
            "pool": [5, 2, 6], "dice": [die(5), die(1, "dropped"), die(2), die(6)], "steps": []}
    assert event(best, Style()).plain == "Best  5 1✗ 2 6  (✗ dropped)"      # roll order, as dusk roll shows it
    life = {"kind": "roll", "name": "params.life_roll", "expression": "1d20rr<10", "value": 19, "pool": [19],
            "dice": [die(19, sides=20, rerolled_from=[5])], "steps": []}
    assert event(life, Style()).plain == "life_roll  5→19  (→ re-rolled)"


def test_a_pool_of_dice_kept_from_before_shows_them_in_its_order():
    search = {"kind": "roll", "name": "roll", "label": "Search", "expression": "[blue, 2d6]", "value": 15,
              "pool": [6, 4, 5], "dice": [die(4), die(5), die(6, sides=None)], "steps": []}
    assert event(search, Style()).plain == "Search  6 4 5"
    # and a pool whose dice cannot all be matched to its faces is shown in roll order
    odd = dict(search, pool=[6, 4, 3])
    assert event(odd, Style()).plain == "Search  4 5 6"


def test_the_rolls_of_a_game_at_the_table():
    repl, out = make_repl(GAMES["attack"], seed=1)
    text = run(repl, out, "auto 12")
    rolls = [e for e in repl.session.game.log if e["kind"] == "roll" and e["turn"] > 0]
    lines = [line for line in text.splitlines() if re.match(r"(Search|Coffin|Kill|Attack)  ", line)]
    assert len(lines) == len(rolls) and any(line.startswith("Kill  ") for line in lines)
    assert any(line.startswith("Kill  ") and "1↓" in line and line.endswith("(↓ set aside)") for line in lines)
    for line, e in zip(lines, rolls):
        assert " = " not in line                          # every roll of this game is a pool: no totals
        marked = sorted(f"{d['face']}{'↓' if d['fate'] == 'aside' else ''}" for d in e["dice"])
        assert sorted(line.split("  ")[1].split()) == marked     # the kill roll sets its ones aside: 1↓


def test_a_roll_that_sets_dice_aside_at_the_table():
    repl, out = make_repl(GAMES["pool"], seed=2)
    text = run(repl, out, "conflict scene", "3", "0", "4", "1")
    hands = [line for line in text.splitlines() if line.startswith("hand  ")]
    rolls = [e for e in repl.session.game.log if e.get("name") == "hand"]
    assert len(hands) == len(rolls) == 2
    for line, e in zip(hands, rolls):      # the dice in roll order, as dusk roll shows them
        marked = " ".join(f"{d['face']}{'↓' if d['fate'] == 'aside' else ''}" for d in e["dice"])
        assert line == f"hand  {marked}  (↓ set aside)"


def test_a_free_roll_keeps_the_layout_of_dusk_roll():
    repl, out = make_repl(GAMES["attack"], seed=1)
    text = run(repl, out, "roll 4d6kh3")
    assert text.startswith("4d6kh3  ") and " = " in text.splitlines()[0] and "(✗ dropped)" in text
