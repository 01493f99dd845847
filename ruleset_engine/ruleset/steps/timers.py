"""Timed values: `set:` with `until:`, a value that holds until a later point of the game's clock.

`until: scene` holds until the current iteration of the loop level `scene` ends; `until: loop.turn + 2`
holds until the counter of `turn` reaches the value the formula gave when the step ran (turn 5, when
set in turn 3), or until the iteration of the level around `turn` ends, whichever comes first (the
turns start again from 1 then). When the point comes, each place the step wrote takes back the value
it held before the step, the timers that end together undone last set first.

A timer is kept as plain data, in the game's values (the table's snapshots and undo keep it):
[place, value before, stamp, level, point], where place is ["s", NAME] (a state variable) or
["e", ENTITY, POSITION or None, FIELD] (an entity's field, or an instance's by its place in the
group), stamp the loop counters of the levels around the level (and the level's own, for the end of
an iteration) when it was set, and point the counter it ends at (None: at the end of the iteration).
The loop machine (runtime/machine.py) asks `due` each time a counter moves, in both modes.
"""

from __future__ import annotations

from ruleset_engine.i18n import _

from .kind import StepFailed

STORE = "_timers"        # the key of the game's values that holds the timers (no ruleset name starts with _)


def check_until(c, item, path, scope, targets):
    """(level index, formula or None) for a set: step's until:, or None after a problem."""
    value = item["until"]
    p = tuple(path) + ("until",)
    levels = list(c.levels)
    if not levels:
        c.problem(_("until: counts by the loop's levels, and this ruleset has no loop"), p)
        return None
    for target in targets:
        head = target[0]
        info = scope.local.get(head) if head in scope.local else None
        if head in scope.local and (len(target) == 1 or not info or info[0] != "entity"):
            c.problem(_("until: gives back what a place held: {target} is a local, which ends with its "
                        "steps (write a state variable or a field)").format(
                          target='.'.join(target)), tuple(path) + ("set", ".".join(target)),
                      at_key=True)
            return None
    if isinstance(value, str) and value in levels:
        return levels.index(value), None
    formula = c.formula(value, p, scope)
    if formula is None:
        return None
    read = {name[1] for name, _ in formula.expr.names if name[0] == "loop" and len(name) >= 2}
    if len(read) != 1:
        c.problem(_("until: is a loop level (the end of its current iteration: {levels}) or a formula "
                    "of one level's counter (loop.{levels2} + 2), not {value!r}").format(
                      levels=', '.join(levels), levels2=levels[-1], value=value), p)
        return None
    c.no_dice(formula.expr.tree, formula.text, p, _("until: is a point of the game's clock, and rolls "
                                                    "no dice"))
    return levels.index(read.pop()), formula


def position(group: list, held, target: tuple) -> int:
    """The place in its group of the instance a local holds (a timer keeps it by its place)."""
    for k, instance in enumerate(group):
        if instance is held:
            return k
    raise StepFailed(_("until: {target} is not a field of an instance of its group").format(target='.'.join(target)))


def add(store: list, where: list, before, counters: list, level: int, point) -> None:
    """A timer kept: the value before, and the point it ends at."""
    if point is not None and type(point) is not int:
        raise StepFailed(_("until: gives the turn of the clock a value ends at, a whole number, not "
                           "{point!r}").format(point=point))
    stamp = list(counters[:level] if point is not None else counters[:level + 1])
    store.append([where, before, stamp, level, point])


def due(store: list, counters: list) -> list:
    """The timers whose point has come, taken from the store: the last set first."""
    ended, kept = [], []
    for timer in store:
        _, _, stamp, level, point = timer
        over = list(counters[:len(stamp)]) != stamp or (point is not None and counters[level] >= point)
        (ended if over else kept).append(timer)
    store[:] = kept
    return ended[::-1]
