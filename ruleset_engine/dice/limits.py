"""The limits that keep every roll finite, with their documented defaults.

Static limits (pool size, text length, nesting depth, re-roll and explode
conditions that every face meets) are checked before any die is rolled; the
dynamic one (dice rolled in one evaluation) stops the evaluation the moment it
is passed.
"""

from __future__ import annotations

from dataclasses import dataclass


# Frozen and compared by value: it is part of the key a compiled expression is cached under
# (expression._compile_cached), so equal limits made apart share the cache.
@dataclass(frozen=True, slots=True)
class Limits:
    """What one dice expression may ask for, refused before any work when exceeded."""

    max_pool_dice: int = 1_000       # dice in one pool, before re-rolls and explosions
    max_length: int = 4_096          # characters in one expression
    max_depth: int = 100             # nesting of brackets and operators
    max_dice_rolled: int = 100_000   # dice rolled in one evaluation, re-rolls and explosions included


DEFAULT_LIMITS = Limits()
