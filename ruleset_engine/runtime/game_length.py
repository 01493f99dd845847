"""The fewest rounds a simulated game can play, known from the ruleset alone, and the refusal of a
ruleset whose every game would pass the simulation's limit of rounds.

A simulated game ends in one of three ways: an `end:` condition holds, a step `end: game` runs, or
the outermost loop level runs out of iterations. A step `end: LEVEL` ends an iteration early, so a
level it can end may play as few rounds as that. When a ruleset has none of these but the loop
running out (a toolkit's clock of nights, scenes and turns, counted by `max:`), every game plays
exactly the loop's iterations multiplied out, one round per iteration of the innermost level: when
that is past the limit, no game can end within it, and a run is refused before its first game
instead of playing each game to the limit (minutes of rounds, in either backend, and the lockstep
backend's rounds cost the most when few games are left).

The bound is a lower bound, never more than a game can play: any construct that could end a game
sooner (an end condition, an `end:` step in any block a simulation plays, a `times:` that is a
formula) makes it 0, so a ruleset that may end is never refused here; its games meet the limit of
rounds as they play, as before.
"""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.ruleset import model, walk
from ruleset_engine.ruleset.steps.control import EndStep

from .errors import RuleError


def _iterations(level: model.Level) -> int | None:
    """The iterations a level plays in each iteration of the one around it, when the ruleset says
    so in numbers (max:, or times: written as a number); None when a formula decides."""
    counts = []
    if level.times is not None:
        tree = level.times.expr.tree
        if not isinstance(tree, dice_ast.Integer):
            return None             # read as the game plays: it may be any number, 0 included
        counts.append(max(0, tree.value))
    if level.max is not None:
        counts.append(level.max)
    return min(counts) if counts else None


def _ends_early(ruleset: model.Ruleset) -> bool:
    """Whether anything a simulation plays can end a game, or an iteration of a level, before the
    loop runs out: an end condition, or an `end:` step in a block it plays. The outermost level's
    then: runs only once the loop has run out, so an `end: game` there ends no game sooner."""
    if ruleset.end:
        return True
    outermost = ruleset.loop[0].name if ruleset.loop else None
    for block in walk.blocks(ruleset):
        if not block.played or (block.part == "then" and block.owner == outermost):
            continue
        if any(isinstance(step, EndStep) for step in walk.steps(block.steps)):
            return True
    return False


def fewest_rounds(ruleset: model.Ruleset) -> int:
    """A lower bound of the rounds every simulated game plays: the loop's iterations multiplied out
    when nothing can end a game sooner, else 0."""
    if not ruleset.loop or _ends_early(ruleset):
        return 0
    rounds = 1
    for level in ruleset.loop:
        count = _iterations(level)
        if count is None:
            return 0
        rounds *= count
    return rounds


def refuse_endless(ruleset: model.Ruleset, max_rounds: int) -> None:
    """Refuse, before any game, a ruleset whose every game would go past `max_rounds` rounds; the
    message names the limit in the words a game past it stops with, and says why, at the loop."""
    rounds = fewest_rounds(ruleset)
    if rounds <= max_rounds:
        return
    levels = " x ".join(f"{level.name} {i18n.number(_iterations(level))}" for level in ruleset.loop)
    raise RuleError(i18n._("every game would go past {limit} rounds, so none is played: no end: condition and "
                           "no end: step can end a game before its loop has run out, and the loop plays "
                           "{rounds} rounds ({levels}); a simulation needs a way for a game to end").format(
                        limit=i18n.number(max_rounds), rounds=i18n.number(rounds), levels=levels),
                    ruleset.loop[0].where)
