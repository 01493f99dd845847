"""Dice sources: where the faces come from.

Any object with `randint(a, b)` is a dice source: a seeded `random.Random` at the
table and in simulations, a ScriptedDice in tests. The global `random` is never used.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ruleset_engine import i18n

from .errors import DiceSourceExhausted


def default_source(seed: int | None = None) -> random.Random:
    """A fresh source: OS-seeded when seed is None."""
    return random.Random(seed)


class ScriptedDice:
    """Faces given in advance, drawn in order; raises when a face is out of range or the script runs out.

    `ScriptedDice([])` fails on the first die drawn, which is how tests prove that a
    limit was checked before any die was rolled.
    """

    def __init__(self, faces: Iterable[int]):
        self.faces = list(faces)
        self.drawn = 0

    def randint(self, low: int, high: int) -> int:
        if self.drawn >= len(self.faces):
            raise DiceSourceExhausted(
                i18n._("the scripted dice ran out after {drawn} dice (asked for a d{high})").format(
                    drawn=self.drawn, high=high)
            )
        face = self.faces[self.drawn]
        if not low <= face <= high:
            raise DiceSourceExhausted(
                i18n._("scripted die #{n} is {face}, but a d{high} shows {low}..{high}").format(
                    n=self.drawn + 1, face=face, high=high, low=low)
            )
        self.drawn += 1
        return face

    # getstate/setstate, like random.Random: a game rewinds its dice for undo and replay.
    def getstate(self) -> int:
        return self.drawn

    def setstate(self, state: int) -> None:
        self.drawn = state

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.drawn
