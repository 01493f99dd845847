"""The limits of one action at the table or in a simulation, the same in both modes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RunLimits:
    max_steps: int = 100_000      # steps in one action, counted as each block of steps starts
    max_call_depth: int = 64      # nested calls of procedures that can call themselves


DEFAULT_RUN_LIMITS = RunLimits()
