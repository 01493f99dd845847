"""The limits of one action at the table or in a simulation, the same in both modes."""

from __future__ import annotations

from dataclasses import dataclass

from ruleset_engine import i18n


# Frozen and compared by value: it is part of the key a program is kept under (program.program_for), so a
# game started with RunLimits(...) equal to an earlier one's reuses its program.
@dataclass(frozen=True, slots=True)
class RunLimits:
    """What one action may do before it is stopped."""

    max_steps: int = 100_000      # steps in one action, counted as each block of steps starts
    max_call_depth: int = 64      # nested calls of procedures that can call themselves
    # Questions one action asks at the table: each answer replays the action from its start (same dice,
    # the answers so far), so an action of N questions costs N^2 / 2 steps; one past this is refused.
    max_questions: int = 1_000
    # Steps of one whole simulated game, its rounds together (a game of 10^11 steps, each action
    # within its limit, would run for a day): checked as each round starts.
    max_game_steps: int = 100_000_000


def game_too_long(limit: int) -> str:
    """What a simulated game past max_game_steps says (both backends)."""
    return (i18n._("a game went past {limit} steps in all (its rounds together); a game that long is stopped "
                   "(fewer rounds, or fewer steps a round)").format(limit=i18n.number(limit)))


def too_many_steps(limit: int, in_loop: bool) -> str:
    """What an action past max_steps says, at the loop or the procedure it was in (every backend)."""
    where = i18n._("in the loop here (a loop that never ends?)") if in_loop else \
        i18n._("here, in a procedure (one that calls itself without end?)")
    return i18n._("more than {limit} steps in one action; stopped {where}").format(
               limit=i18n.number(limit), where=where)


def nested_too_deep(limit: int, procedure: str) -> str:
    """What a call past max_call_depth says (every backend)."""
    return i18n._("calls nested more than {limit} deep: {procedure} calls itself without end?").format(
               limit=limit, procedure=repr(procedure))


DEFAULT_RUN_LIMITS = RunLimits()
