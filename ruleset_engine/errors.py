"""The roots of everything dusk raises: DuskError for what a person can see, Signal for control flow.

Every error a user can meet (bad dice text, a broken ruleset, a rule that failed at a place, a
request the game cannot take, a damaged session file) is a DuskError, and carries its place all
the way to the message. Signals (the end of a loop level, the end of the game, a decision that
needs an answer) are not errors: they derive from BaseException, so no `except Exception`
swallows them by mistake.
"""

from __future__ import annotations


class DuskError(Exception):
    """Anything wrong that a person can fix; `str(err)` is the whole message, with its place."""


class Signal(BaseException):
    """Control flow between the generated code of a ruleset and the machine that runs it."""
