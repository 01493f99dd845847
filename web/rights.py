"""Who may run a line at the served table: the GM anything but leaving or writing files, a player
their own seat's answers, actions and rolls and the commands that only read.

`judge` reads a line as the REPL will (repl/commands.py: a waiting question takes any line that is
not a command that runs while it waits, a command's first word may be its label) and says, before
anything runs, whether this seat may run it: the line to run (a player's action without its seat
gets it), or Forbidden (403, nothing run) or Refused (200, the server runs no such command).
"""

from __future__ import annotations

import shlex

import ruleset_engine as dusk
from ruleset_engine import DuskError
from ruleset_engine.i18n import _
from ruleset_engine.repl.commands import BUILTINS, parse_action_args

# The commands a player may type: they read the game, or roll beside it (their own requested roll).
PLAYER_COMMANDS = frozenset({"help", "status", "log", "rules", "table", "sheet", "prob", "roll"})
# The commands no one types at a served table: they leave it, start another game, write a file of
# their own choosing, or ask several questions of the terminal (the chronicle is GET /api/export).
NOT_SERVED = frozenset({"quit", "exit", "new", "export", "fill"})


class Forbidden(Exception):
    """This seat may not run this line (403): nothing was run."""


class Refused(Exception):
    """No one runs this line at a served table (200, refused in words)."""


def judge(repl, seat: str | None, line: str) -> str:
    """The line to run for `seat` (None: the GM), or Forbidden / Refused."""
    text = line.strip()
    if repl.decision is not None and (not text or not repl._is_escape(text)):
        if seat is not None and repl.owner() != seat:
            raise Forbidden(_("this question is not yours to answer"))
        return line
    if not text or text.startswith("#"):
        return line
    word, _sep, rest = text.partition(" ")
    word = repl.labels.name(word).lower()
    if word in NOT_SERVED or (word == "save" and rest.strip()):
        raise Refused(_("{command} is not done at a served table (the GM downloads the chronicle from the "
                        "page; the session is saved as it goes)").format(command=word))
    if seat is None:
        return line
    if word in BUILTINS:
        return _player_builtin(repl, seat, word, rest.strip(), line)
    if word in repl.session.game.ruleset.actions:
        return _player_action(repl, seat, word, rest, line)
    return line        # no such command: the REPL says so (nothing runs)


def _player_builtin(repl, seat: str, word: str, rest: str, line: str) -> str:
    if word not in PLAYER_COMMANDS:
        raise Forbidden(_("only the GM may type {command}").format(command=word))
    if word == "roll" and rest.startswith("--secret"):
        raise Forbidden(_("only the GM rolls in secret"))
    if word == "sheet" and rest and rest.casefold() != seat.casefold():
        raise Forbidden(_("a player sees their own sheet only"))
    return line


def _player_action(repl, seat: str, word: str, rest: str, line: str) -> str:
    ruleset = repl.session.game.ruleset
    param = dusk.seat_parameter(ruleset, word)
    if param is None:
        raise Forbidden(_("only the GM may do {action}").format(action=repl.labels.shown(word)))
    try:
        args = parse_action_args(repl.labels.read(rest), ruleset.actions[word])
    except DuskError:
        return line        # the REPL refuses it the same way, running nothing
    given = args.get(param)
    if given is None:
        return f"{line.rstrip()} {shlex.quote(f'{param}={seat}')}"
    if str(given).casefold() != seat.casefold():
        raise Forbidden(_("a player acts as their own character only ({seat})").format(seat=seat))
    return line
