"""Timed values in the lockstep backend: `set:` with `until:` for many games at once.

The rule is ruleset/steps/timers.py's, kept per game as the untraced program keeps it: before the
step writes, each place's value and the point it comes back at (the counters of the levels around
its level as a stamp, and the counter it ends at, or None for the end of the iteration). A timer
here is one place for the games (rows) that ran the step; each time a counter moves (the loop plan's
`clock` op) the games whose point has come take back what the place held, the timers set last first.
A game slot that starts a new game forgets the timers of the one before.
"""

from __future__ import annotations

import numpy as np

from ruleset_engine import i18n
from ruleset_engine.ruleset.steps.kind import StepFailed

from .lockstep_values import Ref, RefStore, _by_instance, _part


class Timer:
    """One place, for the games of `rows`: the value it held before (one per row), where it goes back
    (`target`, or for an instance a local held: `group` and each game's instance), the stamp
    (rows x levels), the level and the point (one per row, or None)."""

    __slots__ = ("target", "group", "index", "before", "rows", "stamp", "level", "point")

    def __init__(self, target, group, index, before, rows, stamp, level, point):
        self.target, self.group, self.index = target, group, index
        self.before, self.rows, self.stamp, self.level, self.point = before, rows, stamp, level, point

    def take(self, keep) -> "Timer":
        return Timer(self.target, self.group, None if self.index is None else self.index[keep],
                     _part(self.before, np.flatnonzero(keep)), self.rows[keep], self.stamp[keep], self.level,
                     None if self.point is None else self.point[keep])


class Timers:
    """The timers of the games a machine plays, in the order they were set."""

    def __init__(self, machine):
        self.m = machine
        self.kept: list[Timer] = []

    def add(self, step, rows) -> None:
        """Before `step` (a set: with until:) writes for these rows: each place's value, and when it ends."""
        m = self.m
        level, formula = step.until
        point = None
        if formula is not None:
            point = m.per_row(m.number(formula, rows), rows)
            if point.dtype.kind not in "iu":
                raise StepFailed(i18n._("until: gives the turn of the clock a value ends at, a whole number, not "
                                        "{value}").format(value=repr(m.first_value(point, rows))))
            point = point.astype(np.int64)
        stamp = np.stack([m.counters[i][rows] for i in range(level if point is not None else level + 1)], axis=1) \
            if (level if point is not None else level + 1) else np.zeros((len(rows), 0), np.int64)
        for target, _ in step.assignments:
            head = target[0]
            held = m.frames[-1].locals.get(head)
            group = index = None
            if isinstance(held, RefStore) and len(target) > 1:
                ref = held.get(rows)
                group, index = ref.group, ref.index
            before = m.read(target, rows)
            self.kept.append(Timer(target, group, index, before, rows.copy(), stamp, level, point))

    def due(self, rows) -> None:
        """The timers of these games whose point has come: their places take back what they held."""
        if not self.kept:
            return
        m = self.m
        moved = np.zeros(m.size, bool)
        moved[rows] = True
        still = []
        for timer in reversed(self.kept):       # the last set first
            mine = moved[timer.rows]
            over = np.zeros(len(timer.rows), bool)
            if mine.any():
                counters = timer.rows
                for i in range(timer.stamp.shape[1]):
                    over |= m.counters[i][counters] != timer.stamp[:, i]
                if timer.point is not None:
                    over |= m.counters[timer.level][counters] >= timer.point
                over &= mine
            if over.any():
                self.restore(timer.take(over))
                timer = timer.take(~over)
            if len(timer.rows):
                still.append(timer)
        self.kept = still[::-1]

    def restore(self, timer: Timer) -> None:
        m = self.m
        if timer.group is None:
            m.assign(timer.target, timer.rows, timer.before)
            return
        for j, part, positions in _by_instance(Ref(timer.group, timer.index), timer.rows):
            m.assign((f"{timer.group}#{j}", timer.target[1]), part, _part(timer.before, positions))

    def forget(self, rows) -> None:
        """These slots start new games: the timers of the games they played are gone."""
        if not self.kept:
            return
        fresh = np.zeros(self.m.size, bool)
        fresh[rows] = True
        kept = []
        for timer in self.kept:
            keep = ~fresh[timer.rows]
            if keep.any():
                kept.append(timer if keep.all() else timer.take(keep))
        self.kept = kept
