"""The params a game is played with: the ruleset's defaults, with what the player gave over them."""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine import dice
from ruleset_engine.dice.ast import names_in
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.params import param_value_problem, parse_param

from ruleset_engine.errors import InputError

from .errors import GameError


def resolve_params(ruleset: model.Ruleset, given: dict | None) -> dict:
    """The ruleset's params with `given` over the defaults; GameError on an unknown name or bad value."""
    params = {name: p.default for name, p in ruleset.params.items()}
    for name, value in (given or {}).items():
        if name not in ruleset.params:
            known = ", ".join(sorted(ruleset.params)) or i18n._("none")
            raise GameError(i18n._("{id} has no param {name} (its params: {known})").format(
                                id=ruleset.id, name=repr(name), known=known))
        param = ruleset.params[name]
        try:
            value = parse_param(param, value)
        except InputError as err:
            raise GameError(str(err)) from None
        problem = param_value_problem(param, value) or _reads_problem(ruleset, param, value)
        if problem:
            raise GameError(i18n._("param {name}: {problem}").format(name=name, problem=problem))
        params[name] = value
    return params


def _reads_problem(ruleset: model.Ruleset, param: model.Param, value) -> str | None:
    """A `dice` param given at the start is rolled before the game has any values, so it may read only
    the other params (`params.NAME`, not a dice one): why it reads something else, or None. (Found here,
    a `--set life_roll=abc` is refused before any game, not by every game as it starts.)"""
    if param.type != "dice":
        return None
    text = str(value)
    for path, span in names_in(dice.compile(text).tree):
        plain = len(path) == 2 and path[0] == "params" and path[1] in ruleset.params \
            and ruleset.params[path[1]].type != "dice"
        if not plain:
            name = ".".join(path)
            start, end = span
            caret = f"\n  {text}\n  {' ' * start}^{'~' * max(0, end - start - 1)}"
            return (i18n._("{text} reads {name}, which a dice param cannot: it is rolled as the game starts, "
                           "before the game has values (it may read params.NAME){caret}").format(
                        text=repr(text), name=name, caret=caret))
    return None


def check_named(ruleset: model.Ruleset, params: dict, sheets=()) -> None:
    """GameError, before any game, when a param that names an instance (`names: GROUP`) names none
    the game starts with: the group's instances are its sheets, the ruleset's and those brought."""
    for name, param in ruleset.params.items():
        if param.names is None or name not in params:
            continue
        spec = ruleset.entities.get(param.names)
        there = [s.name for s in (spec.sheet.sheets if spec is not None and spec.sheet is not None else ())]
        there += [s.name for s in sheets if s.group == param.names and s.name not in there]
        if params[name] not in there:
            listed = ", ".join(there) if there else i18n._("none")
            raise GameError(i18n._("param {name}: no sheet of {group} is named {value} (the sheets: "
                                   "{listed})").format(name=name, group=param.names, value=repr(params[name]),
                                                       listed=listed))
