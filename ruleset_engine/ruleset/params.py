"""A ruleset's params: whether a value fits a param, and a value given as text read in its type.

Used when a ruleset is checked (its defaults) and when a game starts (`--set NAME=VALUE`).
"""

from __future__ import annotations

from ruleset_engine.i18n import _

from ruleset_engine import dice
from ruleset_engine.errors import InputError

from .model import Param


def param_value_problem(param: Param, value) -> str | None:
    """Why `value` cannot be this param's value, or None."""
    kind = param.type
    if kind == "integer":
        if type(value) is not int:
            return _("expected a whole number, not {value!r}").format(value=value)
        if param.min is not None and value < param.min:
            return _("{value} is below the minimum {min}").format(value=value, min=param.min)
        if param.max is not None and value > param.max:
            return _("{value} is above the maximum {max}").format(value=value, max=param.max)
    elif kind == "boolean":
        if not isinstance(value, bool):
            return _("expected true or false, not {value!r}").format(value=value)
    elif kind == "choice":
        if value not in param.choices:
            return _("{value!r} is not one of {choices}").format(value=value, choices=", ".join(param.choices))
    elif kind == "dice":
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            return _("expected a dice expression, not {value!r}").format(value=value)
        try:
            dice.compile(str(value))
        except dice.DiceError as err:
            return _("not a dice expression: {error}").format(error=err.message)
    elif kind == "text":
        if not isinstance(value, str):
            return _("expected text, not {value!r}").format(value=value)
    return None


def parse_param(param: Param, value):
    """A value from the command line (text) in the param's type; InputError naming the param if it is none."""
    if not isinstance(value, str) or param.type in ("choice", "dice", "text"):
        return value
    if param.type == "integer":
        try:
            return int(value)
        except ValueError:
            raise InputError(_("param {name}: expected a whole number, not {value!r}").format(
                                 name=param.name, value=value)) from None
    if param.type == "boolean":
        word = value.strip().lower()
        if word in ("true", "yes", "on", "1"):
            return True
        if word in ("false", "no", "off", "0"):
            return False
        raise InputError(_("param {name}: expected true or false, not {value!r}").format(
                             name=param.name, value=value))
    return value


def parse_sets(pairs: list[str] | None) -> dict:
    """`--set NAME=VALUE` pairs as {NAME: VALUE text}; InputError naming a pair that is not one."""
    params = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InputError(_("--set takes PARAM=VALUE, not {pair!r}").format(pair=pair))
        params[name.strip()] = value.strip()
    return params
