"""The runtime: a ruleset's program (one lowered form, traced or untraced), the loop machine,
and the Game that front ends drive.

    from ruleset_engine.runtime import Game
    game = Game.start(ruleset, params={}, seed=7)
"""

from .decisions import Decision
from .errors import DecisionError, GameError, RuleError
from .game import ActionInfo, Game, Outcome
from .params import resolve_params
from .limits import DEFAULT_RUN_LIMITS, RunLimits

__all__ = ["Game", "Outcome", "ActionInfo", "Decision", "DecisionError", "GameError", "RuleError", "RunLimits",
           "DEFAULT_RUN_LIMITS", "resolve_params"]
