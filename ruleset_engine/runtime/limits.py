"""The limits of one action at the table or in a simulation, the same in both modes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RunLimits:
    max_steps: int = 100_000      # steps in one action, counted as each block of steps starts
    max_call_depth: int = 64      # nested calls of procedures that can call themselves
    # Questions one action asks at the table: each answer replays the action from its start (same dice,
    # the answers so far), so an action of N questions costs N^2 / 2 steps; one past this is refused.
    max_questions: int = 1_000


DEFAULT_RUN_LIMITS = RunLimits()
