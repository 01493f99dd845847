"""Real dice at the table: every die the game draws is a face a person rolled and typed.

A game with manual dice draws from a ManualDice instead of its seeded source. Before the first
die of a pool, the traced runtime tells it how many dice of which size are coming (Tally.expect);
ManualDice asks for all their faces at once as a decision of kind `dice`, and hands them out one
by one as the dice are drawn. A die drawn beyond a pool (a re-roll, an explosion) is asked for
alone. The faces are answers like any other: they replay with the action, are saved with it, and
undo takes them back with it. Only the table runs traced, so a simulation never asks.
"""

from __future__ import annotations

from .decisions import Decision
from .run import NOTHING
from .signals import NeedDecision


def _named(purpose) -> tuple[str, dict]:
    """A purpose (a text, a text per language, or nothing) as (English, every language)."""
    if isinstance(getattr(purpose, "texts", None), dict):     # a label rendered before the roll
        return str(purpose), dict(purpose.texts)
    if isinstance(purpose, dict):
        english = purpose.get("en") or next(iter(purpose.values()), "")
        return english, dict(purpose)
    text = "" if purpose is None else str(purpose)
    return text, {}


class ManualDice:
    """The faces a person rolled, asked for through the game's run, pool by pool."""

    def __init__(self, run):
        self.run = run
        self.faces: list[int] = []      # the rest of the pool being drawn

    def expect(self, n: int, sides: int, term: str) -> None:
        self.faces = self._ask(n, sides, term, f"{n}d{sides}")

    def randint(self, low: int, high: int) -> int:
        if not self.faces:            # a die beyond its pool: re-rolled or exploded
            self.faces = self._ask(1, high, None, f"+1d{high}")
        return self.faces.pop(0)

    def _ask(self, n: int, sides: int, term: str | None, dice: str) -> list[int]:
        answer = self.run.given()
        if answer is not NOTHING:
            return list(answer)
        english, texts = _named(self.run.purpose if self.run.purpose is not None else term)
        decision = Decision(id="dice", var="dice", kind="dice", prompt=f"{english}: {dice}" if english else dice,
                            min=n, max=n, sides=sides)
        decision.texts = {lang: f"{text}: {dice}" for lang, text in texts.items()}
        raise NeedDecision(decision)

    # Manual dice keep no state of their own: the faces are the action's answers.
    def getstate(self):
        return None

    def setstate(self, state) -> None:
        self.faces = []
