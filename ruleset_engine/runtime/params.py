"""The params a game is played with: the ruleset's defaults, with what the player gave over them."""

from __future__ import annotations

from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.params import param_value_problem, parse_param

from .errors import GameError


def resolve_params(ruleset: model.Ruleset, given: dict | None) -> dict:
    """The ruleset's params with `given` over the defaults; GameError on an unknown name or bad value."""
    params = {name: p.default for name, p in ruleset.params.items()}
    for name, value in (given or {}).items():
        if name not in ruleset.params:
            known = ", ".join(sorted(ruleset.params)) or "none"
            raise GameError(f"{ruleset.id} has no param {name!r} (its params: {known})")
        param = ruleset.params[name]
        try:
            value = parse_param(param, value)
        except ValueError as err:
            raise GameError(str(err)) from None
        problem = param_value_problem(param, value)
        if problem:
            raise GameError(f"param {name}: {problem}")
        params[name] = value
    return params
