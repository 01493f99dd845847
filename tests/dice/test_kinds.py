"""Dice of kinds in one roll (kinds(..), of(..), count(.., kind=)) and the re-roll of chosen dice
(reroll(pool, chosen, sides)): what they mean, worked out by hand, in both modes, and their errors."""

import pytest

from ruleset_engine import dice
from ruleset_engine.dice.render import render_text
from ruleset_engine.dice.values import kind_of
from tests.conftest import error_of, roll


def plain(text, faces):
    """The untraced value, as a simulation runs it, with each face's kind."""
    value = dice.compile(text).plain(rng=dice.ScriptedDice(faces))
    return [(int(f), kind_of(f)) for f in value] if isinstance(value, tuple) else value


def kinds_of(result):
    return [(d.face, d.kind) for d in result.pool.dice]


def test_kinds_marks_the_first_dice_in_roll_order_then_the_next_kind():
    result = roll("kinds(5d10, wild=2, hunger=1)", faces=[1, 10, 3, 4, 5])
    expected = [(1, "wild"), (10, "wild"), (3, "hunger"), (4, None), (5, None)]
    assert kinds_of(result) == expected and result.value == 23
    assert plain("kinds(5d10, wild=2, hunger=1)", [1, 10, 3, 4, 5]) == expected
    # More dice of kinds than the pool holds: every die is of a kind, the first kinds first.
    assert kinds_of(roll("kinds(2d6, wild=1, hunger=5)", faces=[2, 3])) == [(2, "wild"), (3, "hunger")]


def test_every_pool_function_keeps_the_kinds_of_the_dice_it_keeps():
    faces = [6, 6, 2, 6, 1]            # wild: the first two
    for text, expected in [
        ("sort(kinds(5d6, wild=2))", [(1, None), (2, None), (6, "wild"), (6, "wild"), (6, None)]),
        ("unpair(kinds(5d6, wild=2))", [(6, "wild"), (6, "wild"), (2, None), (1, None)]),
        ("keep(kinds(5d6, wild=2), == 6)", [(6, "wild"), (6, "wild"), (6, None)]),
        ("highest(kinds(5d6, wild=2), 2)", [(6, "wild"), (6, "wild")]),
        ("cancel(kinds(5d6, wild=2), [6])", [(6, "wild"), (2, None), (6, None), (1, None)]),
        ("[kinds(5d6, wild=2)]kh2", [(6, "wild"), (6, "wild")]),
        ("[kinds(5d6, wild=2), 3]dl2", [(6, "wild"), (6, "wild"), (6, None), (3, None)]),
    ]:
        assert kinds_of(roll(text, faces=list(faces))) == expected, text
        assert plain(text, list(faces)) == expected, text


def test_of_and_count_read_the_kinds():
    faces = [1, 10, 1, 10, 5]           # wild: 1 and 10; plain: 1, 10, 5
    assert roll("count(kinds(5d10, wild=2), == 1, kind=wild)", faces=list(faces)).value == 1
    assert roll("count(kinds(5d10, wild=2), == 1)", faces=list(faces)).value == 2
    assert roll("sum(of(kinds(5d10, wild=2), wild))", faces=list(faces)).value == 11
    assert roll("size(of(kinds(5d10, wild=2, hunger=0), hunger))", faces=list(faces)).value == 0
    assert plain("count(kinds(5d10, wild=2), >= 10, kind=wild)", list(faces)) == 1
    assert plain("of(kinds(5d10, wild=2), wild)", list(faces)) == [(1, "wild"), (10, "wild")]
    # A face of a kind taken out of its pool is a plain number again.
    assert plain("[highest(kinds(2d6, wild=1))]", [6, 2]) == [(6, None)]


def test_the_trace_shows_a_kind_by_a_letter_as_well_as_colour():
    text = render_text(roll("kinds(3d6, wild=1, hunger=1)", faces=[4, 5, 6]))
    assert "4w 5h 6" in text and "(h hunger, w wild)" in text
    # Two kinds starting alike are told apart by as many letters as it takes.
    text = render_text(roll("kinds(2d6, wild=1, wound=1)", faces=[4, 5]))
    assert "4wi 5wo" in text


def test_reroll_of_chosen_dice_rerolls_them_in_place_keeping_their_kinds():
    # 1w 4 4 1: the chosen 1 is the earliest 1 (the wild die), the chosen 4 the earliest 4.
    result = roll("reroll(kinds(4d10, wild=1), [1, 4], 10)", faces=[1, 4, 4, 1, 7, 8])
    assert kinds_of(result) == [(7, "wild"), (8, None), (4, None), (1, None)] and result.value == 20
    assert result.pool.dice[0].history == (1,) and result.pool.dice[2].history == ()
    assert "1→7w 4→8 4 1" in render_text(result)
    assert plain("reroll(kinds(4d10, wild=1), [1, 4], 10)", [1, 4, 4, 1, 7, 8]) == \
        [(7, "wild"), (8, None), (4, None), (1, None)]


def test_reroll_of_a_chosen_die_of_a_kind_takes_only_a_die_of_that_kind():
    # The pool: 1 (plain), then 1 (wild). Chosen: a wild 1, so the second die, not the earliest 1.
    text = "reroll([1d6, kinds(1d6, wild=1)], kinds(1d6, wild=1), 6)"
    result = roll(text, faces=[1, 1, 1, 6])
    assert kinds_of(result) == [(1, None), (6, "wild")]
    assert plain(text, [1, 1, 1, 6]) == [(1, None), (6, "wild")]


@pytest.mark.parametrize("text, message", [
    ("of(kinds(5d10, wild=2), wlid)", "unknown kind of dice 'wlid' (did you mean wild?)"),
    ("count(kinds(5d10, wild=2), == 1, kind=hunger)", "unknown kind of dice 'hunger'"),
    ("kinds([1, 2], wild=1)", "[1, 2] is a constant pool"),
    ("kinds(2d6)", "kinds(..) names at least one kind"),
    ("kinds(2d6, wild=-1)", "kinds(..) needs a number of dice of 0 or more, not -1"),
    ("of(2d6, 3)", "of(..) needs the name of a kind of dice here"),
    ("reroll(3d6, [1], 0)", "a die needs at least 1 side, not 0"),
])
def test_misuse_is_refused_before_any_die_is_rolled(text, message):
    err = error_of(text)
    assert message in err.message and "^" in str(err)


def test_a_chosen_die_the_pool_does_not_hold_is_a_located_error():
    with pytest.raises(dice.DiceError, match="a chosen die shows 6, and 2d6 has no such die left") as info:
        roll("reroll(2d6, [6, 6], 6)", faces=[6, 2])
    assert "^" in str(info.value)
    with pytest.raises(dice.DiceError, match="a chosen die shows 6"):
        dice.compile("reroll(2d6, [6, 6], 6)").plain(rng=dice.ScriptedDice([6, 2]))


# ---- dice of no kind, and the kind of a die rolled again --------------------------------------


def test_none_names_the_dice_no_kinds_marked():
    faces = [6, 1, 7, 2, 9]            # wild: the first two
    text = "of(kinds(5d10, wild=2), none)"
    assert kinds_of(roll(text, faces=faces)) == [(7, None), (2, None), (9, None)]
    assert plain(text, faces) == [(7, None), (2, None), (9, None)]
    # Among the plain dice, 7 and 9 are 6 or more; the wild 6 is not counted.
    assert roll("count(kinds(5d10, wild=2), >= 6, kind=none)", faces=faces).value == 2
    assert plain("count(kinds(5d10, wild=2), >= 6, kind=none)", faces) == 2
    # A pool with no kinds at all: every die is of no kind, and none needs no kinds(..) to be read.
    assert roll("count(3d6, >= 4, kind=none)", faces=[4, 3, 6]).value == 2
    assert plain("size(of(3d6, none))", [4, 3, 6]) == 3


def test_none_cannot_be_given_as_a_kind():
    err = error_of("kinds(3d6, none=1)")
    assert isinstance(err, dice.DiceTypeError) and "none names the dice of no kind" in err.message
    assert err.span == (11, 17)


def test_a_die_exploded_or_rerolled_keeps_its_kind():
    # 4 (hunger) explodes on >= 4 into 7, which is hunger too and explodes into 3 (hunger); 5 into 8, then 2.
    text = "[kinds(3d10, hunger=1)]!>=4"
    faces = [4, 5, 2, 7, 8, 3, 2]
    expected = [(4, "hunger"), (5, None), (2, None), (7, "hunger"), (8, None), (3, "hunger"), (2, None)]
    assert kinds_of(roll(text, faces=faces)) == expected
    assert plain(text, faces) == expected
    assert roll(f"sum(of({text}, hunger))", faces=faces).value == 14
    # Re-rolled below 5, each die keeps its kind: 4h -> 7h, 5h stays, 2 -> 8.
    text = "[kinds(3d10, hunger=2)]r<5"
    assert kinds_of(roll(text, faces=[4, 5, 2, 7, 8])) == [(7, "hunger"), (5, "hunger"), (8, None)]
    assert plain(text, [4, 5, 2, 7, 8]) == [(7, "hunger"), (5, "hunger"), (8, None)]
    # Explode once: the added die is of its parent's kind and does not explode.
    assert plain("[kinds(2d6, wild=1)]!o", [6, 6, 6, 1]) == [(6, "wild"), (6, None), (6, "wild"), (1, None)]
    # A capped explosion: the wild 6 adds a wild 6, which adds one more (the cap, 2); the plain 6 adds a 1.
    text = "[kinds(2d6, wild=1)]!t2"
    expected = [(6, "wild"), (6, None), (6, "wild"), (6, "wild"), (1, None)]
    assert kinds_of(roll(text, faces=[6, 6, 6, 6, 1])) == expected
    assert plain(text, [6, 6, 6, 6, 1]) == expected


def test_a_roll_shows_each_die_once_as_it_ended():
    # The table's roll line and the JSON list every die once: given a kind, it is shown with its kind.
    result = roll("kinds(5d10, hunger=4)", faces=[5, 8, 10, 4, 9])
    assert [(d.face, d.kind) for d, _ in result.dice] == \
        [(5, "hunger"), (8, "hunger"), (10, "hunger"), (4, "hunger"), (9, None)]
    result = roll("count([kinds(2d10, hunger=1)]!>=10, >= 6)", faces=[10, 3, 7])
    assert [(d.face, d.kind, f) for d, f in result.dice] == \
        [(10, "hunger", "counted"), (3, None, "kept"), (7, "hunger", "counted")]
    assert len(result.to_json()["dice"]) == 3


def test_the_parser_reads_a_kind_where_the_calls_binding_takes_one():
    """`of(p, wild)` and `count(p, >= 6, kind=wild)`: `wild` is a kind's name (dice/binding.bind gives the
    argument its kind), while the same bare name elsewhere is a name to read, and a call that binds to
    no form keeps its names for its compilation to refuse."""
    from ruleset_engine.dice import ast
    from ruleset_engine.dice.parser import parse

    of = parse("of(p, wild)")
    assert [type(a) for a in of.args] == [ast.Name, ast.KindName] and of.args[1].name == "wild"
    count = parse("count(p, >= 6, kind=wild)")
    assert type(count.keywords[0].value) is ast.KindName and type(count.args[0]) is ast.Name
    assert [type(a) for a in parse("max(wild, 2)").args] == [ast.Name, ast.Integer]
    assert all(type(a) is ast.Name for a in parse("of(p, wild, hunger)").args)     # no form of 3 arguments
