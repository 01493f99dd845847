"""What a game reads against its state as it stands, between actions: whether an action is offered
(its when:), and an action's arguments checked against their types and bounds before it runs.
These formulas roll no dice (the checker refuses dice in them), so reading them changes nothing."""

from __future__ import annotations

from ruleset_engine import dice
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.instance_names import name_key

from ruleset_engine.i18n import _

from . import support
from .decisions import Decision
from .errors import GameError, RuleError


def read(game, formula: model.Formula):
    """A formula read against the state as it stands (it rolls no dice: the checker saw to it)."""
    try:
        return formula.expr.evaluate(rng=_NO_ROLLS, env=game.text_env()).value
    except dice.DiceError as err:
        err.located(formula.text, err.span)
        raise RuleError(err.message, formula.where, formula.path, err.caret_lines()) from None

def offered(game, action: model.Action) -> bool:
    if action.once_per is not None and done_this_time(game, action):
        return False
    if action.when is None:
        return True
    value = read(game, action.when)
    return value is True or (type(value) is int and value != 0)


def done_this_time(game, action: model.Action) -> bool:
    """The action has been done in the iteration of its once_per: level being played."""
    counters = []
    for level in game.ruleset.loop:
        counters.append(game.values["loop"][level.name])
        if level.name == action.once_per:
            break
    return game.values["once_per"].get(action.name) == counters


def check_args(game, action: model.Action, args: dict) -> dict:
    out = {}
    for key in args:
        if key not in action.params:
            raise GameError(_("{action} has no parameter {key} (its parameters: {params})").format(
                action=action.name, key=repr(key), params=", ".join(action.params) or _("none")))
    for key, param in action.params.items():
        if key in args:
            value = args[key]
        elif isinstance(param.default, model.Formula) and param.type == "entity":
            value = default_entity(game, action, param)
        elif isinstance(param.default, model.Formula):
            out[key] = default_arg(game, action, param)
            continue
        elif param.default is not None:
            value = param.default
        else:
            raise GameError(_("{action} needs {key}").format(action=action.name, key=key))
        out[key] = check_arg(game, action, param, value, out)
    return out


def default_entity(game, action: model.Action, param: model.ActionParam) -> str:
    """An entity parameter's default that is a formula (a state variable naming the current
    character), read now: the name of an instance of its group, else the ruleset's error."""
    from ruleset_engine.ruleset.steps import StepFailed

    from .support import default_entity as checked

    formula = param.default
    try:
        return checked(read(game, formula), game.values.get(param.of), support.default_said(action, param, formula))
    except StepFailed as err:
        raise GameError(str(err)) from None


def default_arg(game, action: model.Action, param: model.ActionParam):
    """An integer, yes/no or choice parameter's default that is a formula, read now and held to the
    parameter's values: a value out of them is the ruleset's error, at the default (the simulation
    writes the same check)."""
    from ruleset_engine.ruleset.steps import StepFailed

    from .support import default_arg as checked, default_choice, default_truth

    formula = param.default
    what = support.default_said(action, param, formula)
    try:
        if param.type == "boolean":
            return default_truth(read(game, formula), what)
        if param.type == "choice":
            return default_choice(read(game, formula), tuple(param.choices), what)
        low = bound(game, param.min) if param.min is not None else None
        high = bound(game, param.max) if param.max is not None else None
        return checked(read(game, formula), low, high, what)
    except StepFailed as err:
        raise RuleError(str(err), formula.where, formula.path) from None


def check_arg(game, action, param: model.ActionParam, value, given: dict | None = None):
    kind = param.type
    name = f"{action.name} {param.name}"
    if kind == "formula":
        # A formula over the fields of the instance its over: parameter names, refused here with the
        # reason (the action reads its value as it starts, with over.evaluate).
        from ruleset_engine.ruleset import over

        who = (given or {}).get(param.over)
        instance = next((i for i in instances(game, action.params[param.over].of) if i.get("name") == who), {})
        why = over.problem(str(value), [k for k, v in instance.items() if type(v) is int], str(who or ""))
        if why is not None:
            # TRANSLATORS: {name} is the action and its parameter (heal amount); {why} what is wrong with the value
            raise GameError(_("{name}: {why}").format(name=name, why=why))
        return str(value)
    if kind == "integer":
        try:
            value = int(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            value = None
        lo = bound(game, param.min) if param.min is not None else None
        hi = bound(game, param.max) if param.max is not None else None
        if value is None or (lo is not None and value < lo) or (hi is not None and value > hi):
            expected = _("a whole number from {low} to {high}").format(low=lo, high=hi) \
                if lo is not None and hi is not None else \
                _("a whole number of at least {low}").format(low=lo) if lo is not None else \
                _("a whole number of at most {high}").format(high=hi) if hi is not None else _("a whole number")
            raise GameError(_("{name}: expected {what}").format(name=name, what=expected))
        return value
    if kind in ("boolean", "choice"):
        asked = Decision("", param.name, "yes_no" if kind == "boolean" else "choice", choices=param.choices)
        try:
            return asked.check(value)
        except GameError:
            raise GameError(_("{name}: expected {what}, not {value}").format(
                name=name, what=asked.describe_valid(), value=repr(value))) from None
    if kind == "dice":
        try:
            dice.compile(str(value))
        except dice.DiceError as err:
            raise GameError(_("{name}: {why}").format(name=name, why=err)) from None
        return str(value)
    if kind == "entity":
        candidates = instances(game, param.of)
        for instance in candidates:
            if name_key(instance.get("name", "")) == name_key(value):
                return instance["name"]
        raise GameError(_("{name}: expected one of {names}").format(
            name=name, names=", ".join(i["name"] for i in candidates)))
    return str(value)


def bound(game, formula: model.Formula) -> int:
    value = read(game, formula)
    if type(value) is not int:
        raise RuleError(_("a bound must be a whole number, not {value}").format(value=repr(value)), formula.where,
                        formula.path)
    return value

def instances(game, entity: str) -> list:
    value = game.values.get(entity)
    return list(value) if isinstance(value, list) else [value] if isinstance(value, dict) else []


class _NoRolls:
    """The dice source of formulas read at any time (an action's when:, a bound): they roll nothing."""

    def randint(self, a, b):
        raise dice.DiceError(_("this formula is read at any time, so it cannot roll dice"))


_NO_ROLLS = _NoRolls()
