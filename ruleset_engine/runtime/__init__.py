"""The runtime: game state, the step interpreter, decisions and the event log.

    from ruleset_engine.runtime import Game
    game = Game.start(ruleset, params={}, seed=7)
"""

from .decisions import Decision
from .errors import DecisionError, GameError, RuleError
from .game import ActionInfo, Game, Outcome, resolve_params
from .interpreter import RunLimits

__all__ = ["Game", "Outcome", "ActionInfo", "Decision", "DecisionError", "GameError", "RuleError", "RunLimits",
           "resolve_params"]
