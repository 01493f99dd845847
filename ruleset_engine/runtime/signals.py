"""Control flow between a ruleset's generated program and the machine that runs it. Signals are
not errors: they derive from BaseException (through ruleset_engine.errors.Signal), so no
`except Exception` swallows them."""

from __future__ import annotations

from ruleset_engine.errors import Signal


class EndLevel(Signal):
    """`end: LEVEL`: the current iteration of that loop level (and of every level inside it) is over."""

    def __init__(self, level: str):
        super().__init__(level)
        self.level = level


class EndGame(Signal):
    """`end: game`, an end condition, or the last iteration of the loop: the game is over."""

    def __init__(self, result: str, value=None, text=None):
        super().__init__(result)
        self.result = result
        self.value = value      # what an end condition's value: gave (None without one)
        self.text = text        # its text:, rendered at the table (None untraced)


class NeedDecision(Signal):
    """A question nobody has answered yet: the game rolls back and waits for the answer."""

    def __init__(self, decision):
        super().__init__(decision.prompt)
        self.decision = decision


class RoundLimit(Signal):
    """A simulated game went past its bound on rounds (or, with a message, on its steps in all)."""
