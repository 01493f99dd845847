"""The dice language: one grammar for every formula, roll and condition.

    >>> from ruleset_engine import dice
    >>> expr = dice.compile("4d6kh3")          # parse and check once
    >>> result = expr.evaluate(rng=random.Random(1))
    >>> result.value, result.steps            # the value and how it was made

Layers: parser (text -> AST, grammar/dice.lark), the registry (functions.py, modifiers.py: one
entry per construct, its primitive over faces; aliases.py: other tools' notations, rewritten by the
parser onto those entries), lowering (AST -> Python source, traced or
untraced), runtime (the helpers that source calls), values (dice, pools, the trace), render
(the trace as text or rich). See docs/dice-language.md.
"""

from .errors import (
    DiceError, DiceLimitError, DiceSourceExhausted, DiceSyntaxError, DiceTypeError, DiceValueError,
    UnknownName,
)
from .expression import Expression, compile, roll
from .limits import DEFAULT_LIMITS, Limits
from .sources import ScriptedDice, default_source
from .values import Die, FacesList, Pool, Result, TraceStep

__all__ = [
    "compile", "roll", "Expression", "FacesList", "Result", "TraceStep", "Die", "Pool", "Limits", "DEFAULT_LIMITS",
    "ScriptedDice", "default_source", "DiceError", "DiceSyntaxError", "DiceLimitError", "DiceTypeError",
    "DiceValueError", "DiceSourceExhausted", "UnknownName",
]
