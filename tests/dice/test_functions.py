"""The pool functions, each with exact dice."""


from ruleset_engine import dice
from tests.conftest import error_of, roll


def test_count_marks_the_dice_it_counts():
    result = roll("count(5d10, >= 6)", faces=[2, 7, 9, 1, 6])
    assert result.value == 3
    assert result.steps[-1].marks == ("kept", "counted", "counted", "kept", "counted")


def test_sum_size_highest_lowest():
    assert roll("sum([3, 4, 5])", faces=[]).value == 12
    assert roll("size([3, 4, 5])", faces=[]).value == 3
    assert roll("highest([3, 6, 5])", faces=[]).value == 6
    assert roll("lowest([3, 6, 5])", faces=[]).value == 3
    assert roll("highest([3, 6, 5], 2)", faces=[]).pool.faces == [6, 5]
    assert roll("lowest([3, 6, 5], 2)", faces=[]).pool.faces == [3, 5]


def test_highest_of_an_empty_pool_needs_a_default():
    assert roll("highest(0d6, default=0)", faces=[]).value == 0
    err = error_of("highest(0d6)")
    assert isinstance(err, dice.DiceValueError)
    assert "highest(0d6) of an empty pool" in err.message and "default=0" in err.message


def test_largest_set_prefers_bigger_groups_then_higher_faces():
    assert roll("largest_set([2, 5, 2, 5, 1])", faces=[]).pool.faces == [5, 5]
    assert roll("size(largest_set([2, 2, 2, 6, 6]))", faces=[]).value == 3
    assert roll("largest_set([1, 1, 1, 4], ignore=[1])", faces=[]).pool.faces == [4]
    assert roll("largest_set([1, 1], ignore=[1])", faces=[]).pool.faces == []


def test_unpair_sets_aside_floor_half_of_each_face():
    # The rule as the text states it (its printed result is a slip): for each face rolled c times, floor(c/2) go aside.
    # (The seed text's "1,2,2,4,6" drops the second 5 as well; its own words, "one 2
    # and one 5 set aside", give 1,2,2,4,5,6: see docs/dice-language.md.)
    result = roll("unpair([1, 2, 2, 2, 4, 5, 5, 6])", faces=[])
    assert result.pool.faces == [1, 2, 2, 4, 5, 6]
    assert roll("aside(unpair([1, 2, 2, 2, 4, 5, 5, 6]))", faces=[]).pool.faces == [2, 5]
    assert roll("unpair([3, 3, 3, 3])", faces=[]).pool.faces == [3, 3]


def test_cancel_matches_the_seed_example():
    # Noche: you 1,2,3,3; Joe 3,4,4,6; the Vampire Pool 1,2,2,3,4,5.
    assert roll("cancel([1, 2, 3, 3], [1, 2, 2, 3, 4, 5])", faces=[]).pool.faces == [3]
    assert roll("cancel([3, 4, 4, 6], [1, 2, 2, 3, 4, 5])", faces=[]).pool.faces == [4, 6]
    result = roll("aside(cancel([1, 2, 3, 3], [1, 2, 2, 3, 4, 5]))", faces=[])
    assert result.pool.faces == [1, 2, 3]


def test_cancel_marks_cancelled_dice():
    result = roll("cancel([1, 2, 3, 3], [3])", faces=[])
    assert result.steps[-1].marks == ("kept", "kept", "cancelled", "kept")


def test_keep_and_drop_by_condition():
    assert roll("keep([1, 6, 3, 6], == 6)", faces=[]).pool.faces == [6, 6]
    assert roll("drop([1, 6, 3, 6], == 6)", faces=[]).pool.faces == [1, 3]
    assert roll("aside(keep([1, 6, 3, 6], == 6))", faces=[]).pool.faces == [1, 3]
    assert roll("aside(4d6kh3)", faces=[5, 3, 2, 6]).pool.faces == [2]


def test_conditions_may_use_names():
    env = {"params": {"difficulty": 8}}
    assert roll("count([1, 4, 4, 5, 7], >= params.difficulty)", faces=[], env=env).value == 0


def test_a_bound_pool_is_not_changed_by_later_operations():
    pool = dice.roll("[1, 1, 2]").pool
    roll("unpair(p)", faces=[], env={"p": pool})
    assert pool.faces == [1, 1, 2] and pool.aside == ()


def test_functions_check_their_arguments_before_rolling():
    assert "count(..) takes 2 arguments, not 1" in error_of("count(5d6)").message
    assert "needs a pool" in error_of("count(5, >= 3)").message
    assert "needs a condition" in error_of("count(5d6, 3)").message
    assert "no keyword 'ignor'" in error_of("largest_set(5d6, ignor=[1])").message
    assert "unknown function 'cuont' (did you mean count?)" in error_of("cuont(5d6, >= 1)").message


def test_plural_picks_the_first_word_for_exactly_one():
    assert roll("plural(1, 'die', 'dice')", faces=[]).value == "die"
    assert roll("plural(0, 'die', 'dice')", faces=[]).value == "dice"
    assert roll("plural(2d6, 'die', 'dice')", faces=[1, 1]).value == "dice"    # 2, not 1
    assert roll("plural(1d6 - 2, 'die', 'dice')", faces=[3]).value == "die"


def test_set_aside_keeps_the_rest_and_marks_what_went_aside():
    result = roll("set_aside(5d6, == 1)", faces=[5, 1, 3, 1, 1])
    assert result.pool.faces == [5, 3] and result.value == 8
    assert result.steps[-1].marks == ("kept", "aside", "kept", "aside", "aside")
    assert roll("size(aside(set_aside(5d6, == 1)))", faces=[5, 1, 3, 1, 1]).value == 3


def test_plural_of_a_name_holding_a_number_is_refused_when_it_runs():
    err = error_of("plural(1, y, 'many')", env={"y": 3})
    assert isinstance(err, dice.DiceTypeError) and "needs a word here" in err.message
    assert roll("plural(1, y, 'many')", faces=[], env={"y": "one"}).value == "one"
