"""What one evaluation carries: the dice source, the environment, the trace and the dice budget."""

from __future__ import annotations

from .errors import DiceLimitError
from .values import Step


class Context:
    __slots__ = ("randint", "env", "steps", "budget", "limit")

    def __init__(self, rng, env, limit: int):
        self.randint = rng.randint
        self.env = env
        self.steps: list[Step] = []
        self.budget = limit
        self.limit = limit

    def spend(self, n: int, span) -> None:
        """Count n more dice against the evaluation's limit; stop the moment it is passed."""
        self.budget -= n
        if self.budget < 0:
            raise DiceLimitError(
                f"this evaluation rolled more than {self.limit:,} dice "
                f"(re-rolls and explosions included); it was stopped here",
                span=span,
            )
