"""What can go wrong while a game runs, in words for people.

RuleError: the ruleset itself failed at a place (a formula that met a bad value,
a limit passed); it is located like a load-time problem. GameError: the caller
asked for something the game cannot do now (an unknown action, a bad argument).
DecisionError: an answer outside the valid ones; it says which are valid.
In every case the game state is as it was before the action.
"""

from __future__ import annotations

from ruleset_engine.errors import DuskError
from ruleset_engine.i18n import _
from ruleset_engine.ruleset.problems import Position, dotted


class RuleError(DuskError):
    def __init__(self, message: str, where: Position | None = None, path=(), detail=()):
        super().__init__(message)
        self.message = message
        self.where = where
        self.path = tuple(path)
        self.detail = list(detail)

    def __str__(self) -> str:
        head = f"{self.where}: " if self.where else ""
        at = _(" (at {path})").format(path=dotted(self.path)) if self.path else ""
        return "\n".join([f"{head}{self.message}{at}", *self.detail])


class BoundReached(RuleError):
    """A safety limit of the run stopped the game (steps in one action, nested calls): a rule that
    may not end, rather than a formula that failed."""


class GameError(DuskError):
    """A request the game cannot take now; nothing was changed."""


class DecisionError(GameError):
    """An answer that is not one of the valid ones; the decision is still waiting."""

    def __init__(self, message: str, decision=None):
        super().__init__(message)
        self.decision = decision
