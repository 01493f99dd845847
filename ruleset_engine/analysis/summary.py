"""Running summaries of a simulation: what the report needs, kept in constant memory.

A Totals keeps, for any number of games, the count of each result, and for the game lengths and
each report value a Histogram (exact counts of each value) or, for true/false values, a count.
Totals merge (workers each keep their own), and the merged report is the same whatever the
order of merging, so the same seed gives the same report whatever the number of workers.

A histogram holds at most MAX_DISTINCT values; past that its values are counted in bins of a
width that doubles until they fit (the same width however the games were shared out), so its
median and 90th percentile become a bin's lower end and the report says `approximate`. Its mean,
min and max stay exact.
"""

from __future__ import annotations

import math
import statistics

MAX_DISTINCT = 65_536


def wilson(count: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate."""
    if n == 0:
        return (0.0, 0.0)
    p = count / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Histogram:
    __slots__ = ("counts", "width", "n", "total", "low", "high")

    def __init__(self):
        self.counts: dict = {}
        self.width = 1
        self.n = 0
        self.total = 0
        self.low = None
        self.high = None

    def add(self, value: int, times: int = 1) -> None:
        key = value if self.width == 1 else (value // self.width) * self.width
        self.counts[key] = self.counts.get(key, 0) + times
        self.n += times
        self.total += value * times
        self.low = value if self.low is None or value < self.low else self.low
        self.high = value if self.high is None or value > self.high else self.high
        if len(self.counts) > MAX_DISTINCT:
            self._widen(self.width * 2)

    def _widen(self, width: int) -> None:
        while True:
            binned: dict = {}
            for key, count in self.counts.items():
                b = (key // width) * width
                binned[b] = binned.get(b, 0) + count
            self.counts, self.width = binned, width
            if len(binned) <= MAX_DISTINCT:
                return
            width *= 2

    def merge(self, other: "Histogram") -> None:
        if other.width > self.width:
            self._widen(other.width)
        for key, count in other.counts.items():
            b = key if self.width == other.width or self.width == 1 else (key // self.width) * self.width
            self.counts[b] = self.counts.get(b, 0) + count
        self.n += other.n
        self.total += other.total
        for value in (other.low, other.high):
            if value is not None:
                self.low = value if self.low is None or value < self.low else self.low
                self.high = value if self.high is None or value > self.high else self.high
        if len(self.counts) > MAX_DISTINCT:
            self._widen(self.width * 2)

    def _at(self, index: int):
        """The value at a 0-based position of the sorted values."""
        seen = 0
        for key in sorted(self.counts):
            seen += self.counts[key]
            if index < seen:
                return key
        return None

    def median(self):
        n = self.n
        if n % 2:
            return self._at(n // 2)
        return (self._at(n // 2 - 1) + self._at(n // 2)) / 2

    def percentile(self, q: float):
        """The value below which a share q of the values fall (the nearest rank)."""
        return self._at(max(0, math.ceil(q * self.n) - 1))

    def to_json(self, full: bool = True) -> dict:
        data = {"mean": round(statistics.fmean([self.total / self.n]), 4) if self.n else None,
                "median": self.median(), "p90": self.percentile(0.9)}
        if full:
            data.update(min=self.low, max=self.high)
        if self.width > 1:
            data["approximate"] = True
        return data


def _add_counts(histogram: Histogram, values) -> None:
    """Each distinct value once, with how many times it came (numpy's unique)."""
    import numpy as np

    distinct, counts = np.unique(values, return_counts=True)
    for value, count in zip(distinct.tolist(), counts.tolist()):
        histogram.add(value, count)


def _carried(result: str) -> tuple:
    """The key of the values a result carries, beside the report's (names: never tuples)."""
    return ("result", result)


class Totals:
    """The running summary of a simulation's games."""

    def __init__(self):
        self.games = 0
        self.results: dict = {}
        self.lengths = Histogram()
        self.values: dict = {}      # report key -> Histogram
        self.trues: dict = {}       # report key -> how many games gave true
        self.booleans: dict = {}    # report key -> whether every value so far was true/false
        self.per: dict = {}         # report key -> iteration -> [games that played it, sum of the values]

    def add(self, result: str, rounds: int, report: dict, value=None, tallies=None) -> None:
        """One game; `value`: what its result carries (an end condition's value:), or None;
        `tallies`: report value -> iteration -> its value as that iteration ended (report: per:)."""
        self.games += 1
        self.results[result] = self.results.get(result, 0) + 1
        self.lengths.add(rounds)
        for key, one in report.items():
            self._add(key, one)
        if value is not None:
            self._add(_carried(result), value)
        for name, iterations in (tallies or {}).items():
            per = self.per.setdefault(name, {})
            for k, one in iterations.items():
                kept = per.setdefault(k, [0, 0])
                kept[0] += 1
                kept[1] += int(one)

    def add_per(self, name: str, iterations: dict) -> None:
        """Many games' values per iteration at once (the lockstep backend): iteration -> [games, sum]."""
        per = self.per.setdefault(name, {})
        for k, (games, total) in iterations.items():
            kept = per.setdefault(k, [0, 0])
            kept[0] += games
            kept[1] += total

    def _add(self, key, value) -> None:
        histogram = self.values.get(key)
        if histogram is None:
            histogram = self.values[key] = Histogram()
            self.trues[key] = 0
            self.booleans[key] = True
        if isinstance(value, bool):
            self.trues[key] += value
        else:
            self.booleans[key] = False
        histogram.add(int(value))

    def add_many(self, results: list, rounds, report: dict) -> None:
        """Many games at once (the lockstep backend): their results, lengths (an integer array) and
        report values (key -> an array, one value per game); the same totals as add, game by game."""
        import numpy as np

        self.games += len(results)
        for name in results:
            self.results[name] = self.results.get(name, 0) + 1
        _add_counts(self.lengths, np.asarray(rounds))
        for key, values in report.items():
            self._add_array(key, values)

    def add_values(self, result: str, values) -> None:
        """The values some games of this result carry (an array, one per game; the lockstep backend):
        as add gives them, game by game."""
        self._add_array(_carried(result), values)

    def _add_array(self, key, values) -> None:
        import numpy as np

        histogram = self.values.get(key)
        if histogram is None:
            histogram = self.values[key] = Histogram()
            self.trues[key] = 0
            self.booleans[key] = True
        values = np.asarray(values)
        if values.dtype == bool:
            self.trues[key] += int(values.sum())
        else:
            self.booleans[key] = False
        _add_counts(histogram, values.astype(np.int64))

    def merge(self, other: "Totals") -> None:
        self.games += other.games
        for name, count in other.results.items():
            self.results[name] = self.results.get(name, 0) + count
        self.lengths.merge(other.lengths)
        for key, histogram in other.values.items():
            if key not in self.values:
                self.values[key] = Histogram()
                self.trues[key] = 0
                self.booleans[key] = True
            self.values[key].merge(histogram)
            self.trues[key] += other.trues[key]
            self.booleans[key] = self.booleans[key] and other.booleans[key]
        for name, iterations in other.per.items():
            self.add_per(name, iterations)

    def distribution(self, key) -> list:
        """How many games gave each value of a report value, in value order: [{value, count, rate}]
        (a value past MAX_DISTINCT distinct ones is the lower end of its bin). A result's value: its
        rates are of the games that gave one."""
        n = self.games if not isinstance(key, tuple) else self.values[key].n
        if self.booleans[key]:
            counts = {False: n - self.trues[key], True: self.trues[key]}
        else:
            counts = self.values[key].counts
        return [{"value": value, "count": counts[value], "rate": round(counts[value] / n, 6)}
                for value in sorted(counts) if counts[value]]

    def to_json(self, distributions=(), result_distributions=(), tallies=None) -> dict:
        """The report; `distributions`: the report values also given value by value (distribution);
        `result_distributions`: the results whose values are given so; `tallies`: report value ->
        the level it is also given per iteration of (per:)."""
        n = self.games
        results = {}
        for name in sorted(self.results):
            count = self.results[name]
            lo, hi = wilson(count, n)
            results[name] = {"count": count, "rate": round(count / n, 6), "ci95": [round(lo, 6), round(hi, 6)]}
            key = _carried(name)
            if key in self.values:
                results[name]["value"] = self._summary(key)
                if name in result_distributions:
                    results[name]["value"]["distribution"] = self.distribution(key)
        report = {}
        for key, histogram in self.values.items():
            if isinstance(key, tuple):
                continue            # a result's value: under its result
            if self.booleans[key]:
                lo, hi = wilson(self.trues[key], n)
                report[key] = {"rate": round(self.trues[key] / n, 6), "ci95": [round(lo, 6), round(hi, 6)]}
            else:
                report[key] = histogram.to_json()
            if key in distributions:
                report[key]["distribution"] = self.distribution(key)
            if tallies and key in tallies:
                per = self.per.get(key, {})
                report[key]["per"] = {"level": tallies[key], "iterations": [
                    {"iteration": k, "games": per[k][0], "mean": round(per[k][1] / per[k][0], 4)} for k in sorted(per)]}
        return {"results": results, "length": self.lengths.to_json(full=False), "report": report}

    def _summary(self, key) -> dict:
        """A result's value: its mean, median, 90th percentile, min and max (a rate for true/false),
        over the games that gave one (`games`)."""
        histogram = self.values[key]
        if self.booleans[key]:
            lo, hi = wilson(self.trues[key], histogram.n)
            data = {"rate": round(self.trues[key] / histogram.n, 6), "ci95": [round(lo, 6), round(hi, 6)]}
        else:
            data = histogram.to_json()
        data["games"] = histogram.n
        return data
