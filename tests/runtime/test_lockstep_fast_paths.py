"""The shortcuts the lockstep backend takes for speed give what the general way gives, row by row.

unpair(..) and cancel(..) count a pool's dice face by face when its faces are few (functions.py's
_face_codes) and sort each row otherwise: both are held here to the registry's own primitives
(unpair_aside, cancel_aside: the dice the untraced program sets aside), for pools of few faces and of
many, empty slots anywhere. compact() moves only the dice after a packed left part (a pool joined to
a kept one), distinct_rows() reads each row as one number, factorized() codes a column per distinct
value, _each_once() writes a text per distinct values: each is held to the plain Python answer.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ruleset_engine.dice.functions import FUNCTIONS, cancel_aside, unpair_aside
from ruleset_engine.dice.vector import EMPTY, FACE, Vectors, VPool, compact, distinct_rows
from ruleset_engine.runtime.lockstep import _each_once
from ruleset_engine.runtime.lockstep_values import factorized
from ruleset_engine.ruleset.templates import LocalText


def _pools(rng: random.Random, games: int, width: int, faces: range, empty: float) -> np.ndarray:
    out = np.full((games, width), EMPTY, FACE)
    for r in range(games):
        for c in range(width):
            if rng.random() >= empty:
                out[r, c] = rng.choice(faces)
    return out


def _rows(faces: np.ndarray) -> list:
    return [[int(f) for f in row if f != EMPTY] for row in faces]


def _kept(row: list, aside: list) -> list:
    return [f for i, f in enumerate(row) if i not in set(aside)]


# Few faces (a d6; negative faces too) are counted face by face; a span of 200 faces is sorted.
SPANS = [range(1, 7), range(-2, 3), range(1, 201), range(-100, 101)]


@pytest.mark.parametrize("faces", SPANS)
def test_unpair_keeps_what_the_untraced_program_keeps(faces):
    rng = random.Random(f"unpair/{faces}")
    form = FUNCTIONS["unpair"].forms[0]
    for width in (0, 1, 3, 8):
        pool = _pools(rng, 40, width, faces, empty=rng.choice([0.0, 0.3]))
        got = _rows(form.vector(Vectors(None, None), VPool(pool)).faces)
        assert got == [_kept(row, unpair_aside(row)) for row in _rows(pool)], (faces, width)


@pytest.mark.parametrize("faces", SPANS)
def test_cancel_keeps_what_the_untraced_program_keeps(faces):
    rng = random.Random(f"cancel/{faces}")
    form = FUNCTIONS["cancel"].forms[0]
    for width, against in ((0, 2), (1, 1), (4, 0), (6, 5), (3, 9)):
        pool = _pools(rng, 40, width, faces, empty=rng.choice([0.0, 0.3]))
        other = _pools(rng, 40, against, faces, empty=rng.choice([0.0, 0.3]))
        got = _rows(form.vector(Vectors(None, None), VPool(pool), VPool(other)).faces)
        want = [_kept(row, cancel_aside(row, theirs)) for row, theirs in zip(_rows(pool), _rows(other))]
        assert got == want, (faces, width, against)


def test_compact_moves_each_rows_dice_left_in_order_kinds_with_them():
    rng = random.Random("compact")
    for _ in range(300):
        games, width = rng.randint(0, 6), rng.choice([rng.randint(0, 7), rng.randint(17, 30)])
        faces = _pools(rng, games, width, range(1, 7), empty=rng.random())
        if games and width and rng.random() < 0.5:        # a packed pool (wide: 20 or more), dice joined after it
            kept = np.full((games, max(20, width)), EMPTY, FACE)
            for r in range(games):
                kept[r, :rng.randint(0, kept.shape[1])] = rng.randint(1, 6)
            faces = np.concatenate([kept, faces[:, :rng.randint(0, width)]], axis=1)
        kinds = np.array([[rng.randint(1, 3) for _ in range(faces.shape[1])] for _ in range(games)],
                         np.int16).reshape(faces.shape)
        rows = _rows(faces)
        most = max((len(r) for r in rows), default=0)
        want = np.full((games, most), EMPTY, FACE)
        want_kinds = np.zeros((games, most), np.int16)
        for r, row in enumerate(rows):
            want[r, :len(row)] = row
            want_kinds[r, :len(row)] = [k for f, k in zip(faces[r], kinds[r]) if f != EMPTY]
        assert np.array_equal(compact(faces), want)
        got, got_kinds = compact(faces, kinds)
        assert np.array_equal(got, want) and np.array_equal(got_kinds, want_kinds)


def test_distinct_rows_are_numpys_distinct_rows_in_its_order():
    rng = np.random.default_rng(7)
    for scale in (1, 1000, 10 ** 9, 10 ** 17):       # the last: too wide for one number, sorted as rows
        for _ in range(40):
            table = rng.integers(-3, 4, (int(rng.integers(1, 30)), int(rng.integers(1, 4)))) * scale
            _, first, inverse = np.unique(table, axis=0, return_index=True, return_inverse=True)
            got_first, got_inverse = distinct_rows(table)
            assert np.array_equal(got_first, first) and np.array_equal(got_inverse, inverse.reshape(-1))


def test_factorized_codes_equal_values_alike_and_keeps_types_apart():
    column = np.empty(6, object)
    column[:] = ["Ana", "Beto", "Ana", 1, True, LocalText({"en": "Ana", "es": "Ana"})]
    codes, values = factorized(column, 6)
    assert codes[0] == codes[2] and len(set(codes.tolist())) == 5
    assert [values[c] for c in codes] == ["Ana", "Beto", "Ana", 1, True, "Ana"]
    assert type(values[codes[4]]) is bool and type(values[codes[5]]) is LocalText
    codes, values = factorized(np.array([3, 1, 3]), 3)
    assert [values[c] for c in codes] == [3, 1, 3] and type(values[0]) is int
    codes, values = factorized(VPool(np.array([[2, EMPTY], [2, EMPTY], [5, 1]], FACE)), 3)
    assert [values[c] for c in codes] == [(2,), (2,), (5, 1)]


def test_each_once_writes_each_game_its_own_text_once_per_distinct_values():
    written = []

    def write(pieces):
        written.append(pieces)
        return "".join(map(str, pieces))

    names = np.empty(5, object)
    names[:] = ["Ana", "Beto", "Ana", "Ana", "Beto"]
    columns = ["hello ", factorized(names, 5), " ", factorized(np.array([1, 1, 2, 1, 1]), 5)]
    assert list(_each_once(write, columns, 5)) == ["hello Ana 1", "hello Beto 1", "hello Ana 2", "hello Ana 1",
                                                   "hello Beto 1"]
    assert len(written) == 3
