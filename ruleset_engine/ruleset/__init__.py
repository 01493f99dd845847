"""Rulesets as data: load YAML with positions, resolve `extends:`, validate, compile.

    ruleset = load("my-game")          # a bundled id, or a path to a YAML file
"""

from .bundled import bundled_files
from .loader import load, read_merged
from .model import Ruleset
from .problems import Position, Problem, RulesetError

__all__ = ["load", "read_merged", "bundled_files", "Ruleset", "RulesetError", "Problem", "Position"]
