"""The roots of everything dusk raises: DuskError for what a person can see, DuskBug for what only
dusk's authors can fix, Signal for control flow.

Every error a user can meet (bad dice text, a broken ruleset, a rule that failed at a place, a
request the game cannot take, a damaged session file) is a DuskError, and carries its place all
the way to the message. A DuskBug is dusk failing by its own fault while it ran a ruleset: it is
no DuskError, so no front end shows it as the person's mistake; every command logs it with its
cause (the exception dusk raised by mistake, kept as `__cause__`) in bugs.log and exits 70.
Signals (the end of a loop level, the end of the game, a decision that needs an answer) are not
errors: they derive from BaseException, so no `except Exception` swallows them by mistake.
"""

from __future__ import annotations


class DuskError(Exception):
    """Anything wrong that a person can fix; `str(err)` is the whole message, with its place."""


class InputError(DuskError):
    """Words a person typed that dusk cannot read as asked (a --set pair, a command's arguments)."""


class DuskBug(Exception):
    """A bug in dusk, not in the ruleset nor in what was typed: raised `from` the exception that
    went wrong (its cause, with its traceback), at the place of the ruleset that was running."""

    def __init__(self, message: str, where=None, path=()):
        super().__init__(message)
        self.message = message
        self.where = where
        self.path = tuple(path)

    @classmethod
    def of(cls, err: BaseException, where=None, path=(), backend: str = "") -> "DuskBug":
        """The bug `err` is, said at the place it happened; raise it `from err`."""
        within = f", in {backend}" if backend else ""
        return cls(f"dusk failed here (a bug in dusk{within}, not in the ruleset): {type(err).__name__}: {err}",
                   where, path)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def __reduce__(self):          # a worker's bug reaches the parent whole (multiprocessing pickles it)
        return type(self), (self.message, self.where, self.path)


class Signal(BaseException):
    """Control flow between the generated code of a ruleset and the machine that runs it."""


def get_close_matches(word: str, possibilities, n: int = 1) -> list:
    """difflib's guess of the name meant (`did you mean ...?`), imported only when a message needs
    one: a start that makes no mistake does not import difflib."""
    from difflib import get_close_matches as close_matches

    return close_matches(word, possibilities, n=n)
