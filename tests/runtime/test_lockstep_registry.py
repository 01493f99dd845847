"""Every vector form in the registry against the plain evaluation, row by row, with no hand list.

Random expressions come from the registry's own builder (tests/dice/test_registry_parity.py), so
every function form and modifier with a vector form is reached; one without is skipped, as the
lockstep backend refuses it (dice/vectorizable.py). Each expression is evaluated for many games at
once (dice/vector.py), each game (row) with its own values of the names, and each row is held to the
plain (untraced) evaluation of the same expression with that row's values and the same faces: every
die drawn shows the same face in both (one face per run, three runs: dice that would explode or
re-roll without end stop at the dice limit in both). A row's value, or its error, must be the plain
evaluation's (errors compared by their kind: the messages of the vector forms are issue 23's item 4).
An entry added to the registry is covered here with no change to this file.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ruleset_engine import dice
from ruleset_engine.dice.functions import FUNCTIONS
from ruleset_engine.dice.modifiers import MODIFIERS
from ruleset_engine.dice.vector import EMPTY, Vectors, VPool
from ruleset_engine.dice.vectorizable import unsupported
from tests.dice.test_registry_parity import ENV, Builder, entries_in

# Dice that show one face may re-roll or explode to the limit of dice rolled: a low one, alike in both.
LIMITS = dice.Limits(max_dice_rolled=100)

# One game per row: the builder's names, with values that differ from row to row.
ROWS = [
    {**ENV},
    {**ENV, "x": 0, "y": 1, "p": [], "q": [4, 4], "flag": False},
    {**ENV, "x": 1, "y": -1, "p": [2, 2, 2], "q": [1]},
    {**ENV, "x": 5, "y": 2, "p": [6, 1, 6, 1, 3], "q": [6], "flag": False},
    {**ENV, "x": 2, "y": 0, "p": [3], "q": [3, 1, 2]},
]

# What each name holds in every row, as a ruleset's declarations say it (a conditional choosing between
# a pool and a number is refused before any game: dice/vectorizable.py).
KINDS = {"x": "number", "y": "number", "flag": "number", "p": "pool", "q": "pool", "params.difficulty": "number",
         "params.rule": "text"}


class SameFace:
    """A dice source whose every die shows one face (or the die's highest, when it has fewer sides),
    for the plain evaluation (randint) and for the vector evaluation (numpy's integers) alike."""

    def __init__(self, face: int):
        self.face = face

    def randint(self, low: int, high: int) -> int:
        return min(self.face, high)

    def integers(self, low, high, size=None, dtype=np.int64):
        return np.array(np.broadcast_to(np.minimum(self.face, np.asarray(high) - 1), size), dtype=dtype)


def _names(rows_env):
    """The vector evaluator's names: each row's value, as an array (a pool as games x slots)."""
    def names(path, rows, span):
        if path[0] == "params":
            return ENV["params"][path[1]]
        values = [rows_env[r][path[0]] for r in rows]
        if isinstance(values[0], list):
            faces = np.full((len(values), max(1, max(len(v) for v in values))), EMPTY, np.int16)
            for i, v in enumerate(values):
                faces[i, :len(v)] = v
            return VPool(faces)
        return np.array(values)
    return names


def _plain(text: str, env: dict, face: int):
    try:
        value = dice.compile(text, LIMITS).plain(SameFace(face), {**env, "p": tuple(env["p"]), "q": tuple(env["q"])})
    except dice.DiceError as err:
        return ("error", type(err).__name__)
    if isinstance(value, tuple):
        return ("pool", sorted(int(f) for f in value))
    return ("value", int(value))


def _rows(text: str, face: int, rows: list[int]) -> list:
    """Each row's outcome of one vector evaluation of these rows (an error is every row's)."""
    v = Vectors(SameFace(face), _names(ROWS), max_dice_rolled=LIMITS.max_dice_rolled)
    v.begin(text=text)
    try:
        got = v.value(dice.compile(text, LIMITS).tree, np.array(rows))
    except dice.DiceError as err:
        return [("error", type(err).__name__)] * len(rows)
    if isinstance(got, VPool):
        return [("pool", sorted(int(f) for f in got.faces[i] if f != EMPTY)) for i in range(len(rows))]
    got = np.broadcast_to(np.asarray(got), (len(rows),))
    return [("value", int(g)) for g in got]


def held_row_by_row(text: str) -> bool:
    """False when the lockstep backend has no vector form for the expression (it refuses it); else
    every row of every run matches the plain evaluation."""
    try:
        tree = dice.compile(text, LIMITS).tree
    except dice.DiceError:
        return False
    if unsupported(tree, kinds=KINDS) is not None or dice.compile(text, LIMITS).kind == "string":
        return False
    everyone = list(range(len(ROWS)))
    for face in (1, 2, 6):
        plain = [_plain(text, env, face) for env in ROWS]
        together = _rows(text, face, everyone)
        if all(p[0] != "error" for p in plain):
            assert together == plain, (text, face)
        else:
            # One row's error stops the whole batch (the first game is named); alone, each row is its own.
            assert together[0][0] == "error", (text, face, plain, together)
            for r in everyone:
                assert _rows(text, face, [r]) == [plain[r]], (text, face, r, ROWS[r])
    return True


@pytest.mark.parametrize("token", [t for t, m in MODIFIERS.items() if m.vector is not None])
def test_every_modifier_with_a_vector_form_gives_each_row_its_plain_value(token):
    builder = Builder(random.Random(f"lockstep/{token}"))
    held = 0
    for _ in range(60):
        text = builder.dice(1, MODIFIERS[token])
        if builder.rng.random() < 0.3:
            text = f"count({text}, >= 4)"
        held += held_row_by_row(text)
    assert held >= 20, token


@pytest.mark.parametrize("name, index", [(e.name, i) for e in FUNCTIONS.values() for i, f in enumerate(e.forms)
                                         if f.vector is not None and f.result != "string"])
def test_every_function_form_with_a_vector_form_gives_each_row_its_plain_value(name, index):
    entry = FUNCTIONS[name]
    form = entry.forms[index]
    builder = Builder(random.Random(f"lockstep/{name}/{index}"))
    held = 0
    for _ in range(40):
        held += held_row_by_row(builder.call(2, form.result, entry, form))
    assert held >= 8, name


@pytest.mark.parametrize("batch", range(3))
def test_random_expressions_give_each_row_its_plain_value(batch):
    builder = Builder(random.Random(500 + batch))
    held, reached = 0, set()
    for _ in range(60):
        text = builder.pick([builder.number, builder.pool, builder.truth])(3)
        if held_row_by_row(text):
            held += 1
            reached |= entries_in(text)
    assert held >= 25 and len(reached) >= 8, (held, reached)


@pytest.mark.parametrize("text, expected", [
    # Row 1's pool is empty (y = 1: its default is 6); row 4's is not, and its y = 0 would fail 6 // y.
    ("lowest(p, default=6 // y)", [("value", 1), ("value", 6), ("value", 2), ("value", 1), ("value", 3)]),
    ("highest(p, default=6 // y)", [("value", 6), ("value", 6), ("value", 2), ("value", 6), ("value", 3)]),
])
def test_a_default_is_read_only_by_the_games_whose_pool_is_empty(text, expected):
    assert held_row_by_row(text)
    assert _rows(text, 1, list(range(len(ROWS)))) == expected


@pytest.mark.parametrize("text, refused", [
    ("x if flag else p", True),                     # a pool in some games, a number in others
    ("3d6 if x > 2 else 5", True),
    ("sum(p) if flag else [x]", True),
    ("(3d6 if x > 2 else p) if flag else 4", True),
    ("3d6 if params.difficulty > 3 else 5", False),  # every game takes the same side
    ("x if flag else sum(p)", False),
    ("p if flag else [x]", False),
    ("x if flag else unknown", False),              # a name the game decides: its value is checked as it runs
])
def test_a_conditional_between_a_pool_and_a_number_is_refused_before_any_game(text, refused):
    found = unsupported(dice.compile(text, LIMITS).tree, kinds=KINDS)
    assert (found is not None and "a pool in some games and a number in others" in found[0]) == refused, found
