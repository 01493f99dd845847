"""Paired differences of two rulesets played on the same per-game seeds (`dusk compare`).

Game i of A and game i of B draw from the same seed, so each game gives a pair, and the difference
of a rate or a mean is estimated from the per-game differences d_i (B's minus A's: a result counts 1 in
the game that gave it; a length or a report value is its number). The pairs carry the luck both games
share, so the interval of the mean difference is narrower than two independent intervals would
give, and a ruleset against itself differs by exactly zero. Kept as sums (of d and of d squared)
that merge in any order: memory does not grow with the games.
"""

from __future__ import annotations

import math

from .summary import Totals

Z95 = 1.959964


class Difference:
    """Running sums of one per-game difference."""

    __slots__ = ("n", "total", "squares")

    def __init__(self):
        self.n = 0
        self.total = 0
        self.squares = 0

    def add(self, d) -> None:
        self.n += 1
        self.total += d
        self.squares += d * d

    def merge(self, other: "Difference") -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def to_json(self, digits: int = 6) -> dict:
        """The mean difference, its 95% interval (normal, from the pairs' variance), and whether that
        interval leaves out zero."""
        n = self.n
        mean = self.total / n if n else 0.0
        variance = (self.squares - self.total * self.total / n) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(max(0.0, variance) / n) if n else 0.0
        low, high = mean - half, mean + half
        return {"difference": round(mean, digits), "ci95": [round(low, digits), round(high, digits)],
                "significant": low > 0 or high < 0}


class Paired:
    """Two summaries of the same games (A's and B's) and the differences of each pair."""

    def __init__(self):
        self.a = Totals()
        self.b = Totals()
        self.results: dict = {}     # result name -> Difference of (B gave it) - (A gave it)
        self.length = Difference()
        self.values: dict = {}      # report key -> Difference of B's value - A's

    @property
    def games(self) -> int:
        return self.a.games

    def add(self, one: tuple, two: tuple) -> None:
        """One pair of games, each (result, rounds, report)."""
        n = self.a.games
        self.a.add(*one)
        self.b.add(*two)
        for name in {one[0], two[0]} - set(self.results):
            self.results[name] = _zeros(n)
        for name, d in self.results.items():
            d.add((two[0] == name) - (one[0] == name))
        self.length.add(two[1] - one[1])
        for key, value in one[2].items():
            if key in two[2]:
                if key not in self.values:
                    self.values[key] = _zeros(n)
                self.values[key].add(int(two[2][key]) - int(value))

    def merge(self, other: "Paired") -> None:
        n, m = self.a.games, other.a.games
        self.a.merge(other.a)
        self.b.merge(other.b)
        for table, theirs in ((self.results, other.results), (self.values, other.values)):
            for name in [name for name in theirs if name not in table]:   # in their order
                table[name] = _zeros(n)
            for name, d in table.items():
                d.merge(theirs.get(name) or _zeros(m))
        self.length.merge(other.length)


def _zeros(n: int) -> Difference:
    """A difference that was zero in each of n games (a result neither side gave yet)."""
    d = Difference()
    d.n = n
    return d
