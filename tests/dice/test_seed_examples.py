"""The worked examples of the seed texts that are pure dice."""

from tests.conftest import roll

SUCCESSES = "count(pool, >= difficulty) - count(pool, == 1)"


def test_vtm_difficulty_6_on_2_3_6_9_is_two_successes():
    assert roll(SUCCESSES, faces=[], env={"pool": [2, 3, 6, 9], "difficulty": 6}).value == 2


def test_vtm_1_4_4_5_7_at_difficulty_8_has_no_success_and_a_one():
    env = {"pool": [1, 4, 4, 5, 7], "difficulty": 8}
    assert roll("count(pool, >= difficulty)", faces=[], env=env).value == 0
    assert roll("count(pool, == 1)", faces=[], env=env).value == 1
    # no success and at least one 1: a botch, as the Revised rule reads it
    assert roll("count(pool, >= difficulty) == 0 and count(pool, == 1) > 0", faces=[], env=env).value is True


def test_vtm_damage_2_3_5_6_9_8_8_7_7_at_6_is_six_successes():
    assert roll("count(9d10, >= 6)", faces=[2, 3, 5, 6, 9, 8, 8, 7, 7]).value == 6


def test_noche_pairs_and_matching():
    assert roll("unpair(8d6)", faces=[1, 2, 2, 2, 4, 5, 5, 6]).pool.faces == [1, 2, 2, 4, 5, 6]
    assert roll("aside(unpair(8d6))", faces=[1, 2, 2, 2, 4, 5, 5, 6]).pool.faces == [2, 5]
    vampire_pool = {"vp": [1, 2, 2, 3, 4, 5]}
    assert roll("highest(cancel([1, 2, 3, 3], vp), default=0)", faces=[], env=vampire_pool).value == 3
    assert roll("highest(cancel([3, 4, 4, 6], vp), default=0)", faces=[], env=vampire_pool).value == 6
    assert roll("highest(cancel([1, 2], vp), default=0)", faces=[], env=vampire_pool).value == 0
