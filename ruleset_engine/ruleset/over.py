"""A formula over one instance's fields: what an action parameter of type `formula` holds.

The table types `grit + aim` and the action reads it as a number, the sum of those two
fields of the instance its `over:` parameter names (the current crew, or the one named).
One definition serves the checker (a default in the ruleset), the table (what a person types,
refused before the action runs) and the program of both modes (the value the steps read)."""

from __future__ import annotations

from ruleset_engine.i18n import _, number

from ..errors import get_close_matches

from ruleset_engine import dice
from ruleset_engine.dice.named import first_roll

MAX_TEXT = 200        # characters of a formula typed at the table


class _NoRolls:
    def randint(self, a, b):
        raise dice.DiceError(_("a formula over a sheet's fields reads them and rolls no dice"))


def problem(text, fields, whose: str = "") -> str | None:
    """Why `text` is not a formula over these fields (names read as numbers), or None. `whose`: the
    instance's name, for the message."""
    if not isinstance(text, str) or not text.strip():
        return _("expected a formula over the fields, such as a + b")
    if len(text) > MAX_TEXT:
        return _("a formula of at most {most} characters, not {n}").format(most=MAX_TEXT, n=number(len(text)))
    try:
        expr = dice.compile(text)
    except dice.DiceError as err:
        return str(err).splitlines()[0]
    fields = list(fields)
    for path, _span in expr.names:
        if len(path) != 1 or path[0] not in fields:
            name = ".".join(path)
            guess = get_close_matches(path[0], fields, n=1)
            hint = _(" (did you mean {guess}?)").format(guess=guess[0]) if guess else ""
            if whose:
                return _("{name!r} is not a field of {whose}{hint}").format(name=name, whose=whose, hint=hint)
            return _("{name!r} is not a field{hint}").format(name=name, hint=hint)
    if first_roll(expr.tree, {}) is not None:   # on any branch, whatever the fields hold
        return _("a formula over a sheet's fields reads them and rolls no dice")
    return None


def evaluate(text: str, instance: dict) -> int:
    """The formula's value for this instance: a whole number, or a DiceError that says why not."""
    fields = [k for k, v in instance.items() if type(v) is int]
    why = problem(text, fields)
    if why is not None:
        raise dice.DiceError(_("{text}: {why}").format(text=text, why=why))
    value = dice.compile(text).evaluate(rng=_NoRolls(), env=instance).value
    if type(value) is not int:
        raise dice.DiceError(_("{text}: gives {value!r}, not a whole number").format(text=text, value=value))
    return value


def names_read(text: str) -> list[str]:
    """The names a formula over fields reads, each once, in the order written (`grit + aim`
    gives [grit, aim]); a plain number reads none."""
    seen: list[str] = []
    for path, _ in dice.compile(text).names:
        if path[0] not in seen:
            seen.append(path[0])
    return seen


def formula_over_fields(text, group) -> str | None:
    """The checker's reading of a default: a formula over the numeric fields a group declares."""
    if group is None:
        return None        # the over: parameter is wrong, and that is said already
    return problem(text, group["fields"])
