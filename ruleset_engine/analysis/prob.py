"""The odds of dice expressions (`dusk prob`, `prob` at the table): exact, or said to be estimated.

    answer = ask(["count(7d10, >= 8)"])                      # every value with its exact chance
    answer = ask(["max(0, hits - ones)", "ones > hits"],     # several questions about one roll:
                 lets=[("pool", "7d10"), ("hits", "count(pool, >= 8)"), ("ones", "count(pool, == 1)")])
    chart = grid("count((N)d10, >= D)", [("N", range(1, 11)), ("D", range(3, 10))], at_least=1)

A let binds a name to one evaluation that every later let and question reads (as a ruleset's
roll: and let: steps do), so questions about the same roll are answered jointly. The answer is
exact when every construct has an exact form (analysis/exact.py, the registry's entries);
otherwise it is a seeded Monte Carlo estimate of the same expressions, run by the language's
untraced evaluation, with its sample size, seed and 95% intervals, and `exact` false.
"""

from __future__ import annotations

import bisect
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from ruleset_engine import i18n
from ruleset_engine.dice import compile as compile_expression
from ruleset_engine.dice.errors import DiceTypeError
from ruleset_engine.dice.kinds import BOOL, STR
from ruleset_engine.dice.named import NO_FORMULAS
from ruleset_engine.errors import DuskError

DEFAULT_SAMPLES = 10_000
MAX_SAMPLES = 1_000_000
MAX_GRID_CELLS = 400
MAX_GRID_VALUES = 100
MAX_ESTIMATE_DICE = 20_000_000   # dice rolled by one estimate (every sample, every let and question)
PROBE = 100                      # samples rolled first, to know the dice of one before rolling them all
Z95 = 1.959963984540054


class ProbError(DuskError):
    """A question that cannot be asked as given (a bad let, grid or option)."""


@dataclass
class Odds:
    """One question's answer: each value with its chance (exact, or the share of the samples)."""

    expression: str
    kind: str                                  # "number" or "true/false"
    chances: list[tuple[object, Fraction]]     # in order of value
    samples: int | None = None                 # None: exact

    def at_least(self, value) -> Fraction:
        values, below = self._cumulative()
        return below[-1] - below[bisect.bisect_left(values, value)]

    def at_most(self, value) -> Fraction:
        values, below = self._cumulative()
        return below[bisect.bisect_right(values, value)]

    def _cumulative(self) -> tuple[list, list]:
        """The values in order and the chance below each (kept: a table of 10,000 values reads
        P(>=x) and P(<=x) for each, which summed afresh would be 10^8 additions)."""
        key = id(self.chances), len(self.chances)
        if getattr(self, "_sums", (None,))[0] != key:
            values = [v for v, _ in self.chances]
            below = [Fraction(0)]
            for _, p in self.chances:
                below.append(below[-1] + p)
            self._sums = (key, values, below)
        return self._sums[1], self._sums[2]

    @property
    def mean(self) -> Fraction:
        return sum((int(v) * p for v, p in self.chances), Fraction(0))

    @property
    def sd(self) -> float:
        mean = self.mean
        return math.sqrt(sum((int(v) - mean) ** 2 * p for v, p in self.chances))

    def interval(self, p: Fraction) -> tuple[float, float]:
        """The 95% (Wilson) interval of an estimated chance; the chance itself twice when exact."""
        if self.samples is None:
            return float(p), float(p)
        n, q = self.samples, float(p)
        centre = (q + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
        half = Z95 * math.sqrt(q * (1 - q) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def to_json(self) -> dict:
        rows = []
        for value, p in self.chances:
            row = {"value": value, "p": str(p), "float": float(p)}
            if self.kind != BOOL:
                row.update(at_least=str(self.at_least(value)), at_least_float=float(self.at_least(value)),
                           at_most=str(self.at_most(value)), at_most_float=float(self.at_most(value)))
            if self.samples is not None:
                row["ci95"] = list(self.interval(p))
            rows.append(row)
        data = {"expression": self.expression, "kind": self.kind, "distribution": rows}
        if self.kind != BOOL:
            data.update(mean=str(self.mean), mean_float=float(self.mean), sd_float=self.sd)
        return data

    def to_frame(self):
        """A pandas DataFrame, a row per value: `value`, `p` and, for a number, `at_least` and
        `at_most` (floats; the exact fractions are in `chances`); an estimate adds `ci_low`, `ci_high`.
        Needs pandas (`dusk[data]`)."""
        from .records import need

        pandas = need("pandas", ".to_frame()")
        columns: dict = {"value": [v for v, _ in self.chances], "p": [float(p) for _, p in self.chances]}
        if self.kind != BOOL:
            columns["at_least"] = [float(self.at_least(v)) for v, _ in self.chances]
            columns["at_most"] = [float(self.at_most(v)) for v, _ in self.chances]
        if self.samples is not None:
            bounds = [self.interval(p) for _, p in self.chances]
            columns["ci_low"], columns["ci_high"] = [b[0] for b in bounds], [b[1] for b in bounds]
        return pandas.DataFrame(columns)


@dataclass
class Answer:
    """The answers to questions asked together, and how they were found."""

    questions: list[Odds]
    exact: bool
    why: str | None = None                     # why not exact
    lets: list[tuple[str, str]] = field(default_factory=list)
    depth: int | None = None                   # explosions followed this deep (None: none exploded)
    cut: float | None = None                   # the most likely chance that a die's explosions were cut
    samples: int | None = None
    seed: int | None = None

    def method_json(self) -> dict:
        return {"exact": self.exact, "why_estimated": self.why, "depth": self.depth, "cut_chance": self.cut,
                "samples": self.samples, "seed": self.seed}

    def to_json(self) -> dict:
        return {**self.method_json(), "lets": {name: text for name, text in self.lets},
                "questions": [q.to_json() for q in self.questions]}


@dataclass
class Chart:
    """One question over a grid of values of one or two names: a chance (or the mean) per cell."""

    expression: str
    rows: tuple[str, list[int]]
    columns: tuple[str, list[int]] | None
    cells: list[list[Odds]]
    answers: list[list[Answer]]
    at_least: int | None = None
    at_most: int | None = None

    @property
    def exact(self) -> bool:
        return all(a.exact for row in self.answers for a in row)

    def reading(self, odds: Odds) -> Fraction:
        """What a cell shows: P(value >= at_least), P(value <= at_most), P(true), or the mean."""
        if odds.kind == BOOL:
            return sum((p for v, p in odds.chances if v), Fraction(0))
        if self.at_least is not None:
            return odds.at_least(self.at_least)
        if self.at_most is not None:
            return odds.at_most(self.at_most)
        return odds.mean

    @property
    def shows_chance(self) -> bool:
        return self.at_least is not None or self.at_most is not None or (
            bool(self.cells) and self.cells[0][0].kind == BOOL)

    def first(self) -> Answer:
        """How the chart was found: the first estimated cell's answer, else the first cell's."""
        return next((a for row in self.answers for a in row if not a.exact), self.answers[0][0])

    def to_json(self) -> dict:
        method = self.first().method_json()
        method["exact"] = self.exact
        return {**method, "expression": self.expression, "at_least": self.at_least, "at_most": self.at_most,
                "reads": "chance" if self.shows_chance else "mean",
                "rows": {"name": self.rows[0], "values": self.rows[1]},
                "columns": {"name": self.columns[0], "values": self.columns[1]} if self.columns else None,
                "cells": [[{"value": str(self.reading(o)), "float": float(self.reading(o)),
                            "exact": a.exact} for o, a in zip(row, answers)]
                          for row, answers in zip(self.cells, self.answers)]}


def _compiled(text: str, formulas=NO_FORMULAS):
    expr = compile_expression(text, formulas=formulas)
    if expr.kind == STR:
        raise DiceTypeError(i18n._("prob answers for numbers and true/false, and this expression gives words"), text,
                            (0, len(text)))
    return expr


def _let_name(name: str) -> str:
    from ruleset_engine.dice import ast

    try:
        tree = compile_expression(name).tree
    except DuskError:
        tree = None
    if not isinstance(tree, ast.Name) or len(tree.path) != 1:
        raise ProbError(i18n._("{name} cannot be a name (a let is NAME=EXPR, with NAME a word such as pool)").format(
                            name=repr(name)))
    return name


def parse_let(text: str) -> tuple[str, str]:
    """NAME=EXPR, as --let takes it."""
    name, sep, expression = text.partition("=")
    if not sep or not expression.strip():
        raise ProbError(i18n._("--let takes NAME=EXPR, such as pool=7d10, not {text}").format(text=repr(text)))
    return _let_name(name.strip()), expression.strip()


def parse_axis(text: str) -> tuple[str, list[int]]:
    """NAME=a..b, as --grid takes it."""
    name, sep, span = text.partition("=")
    low, dots, high = span.partition("..")
    try:
        values = list(range(int(low), int(high) + 1)) if dots else [int(span)]
    except ValueError:
        values = None
    if not sep or values is None:
        raise ProbError(i18n._("--grid takes NAME=a..b, such as N=1..10, not {text}").format(text=repr(text)))
    if not values:
        raise ProbError(i18n._("--grid {text}: the range is empty (a..b with a <= b)").format(text=text))
    if len(values) > MAX_GRID_VALUES:
        raise ProbError(i18n._("--grid {text}: {count} values, more than {limit}").format(
                            text=text, count=len(values), limit=MAX_GRID_VALUES))
    return _let_name(name.strip()), values


def _check_options(depth, samples) -> None:
    from ruleset_engine.analysis.exact import EXACT_LIMITS

    if depth is not None and not 1 <= depth <= EXACT_LIMITS.max_depth:
        raise ProbError(i18n._("--depth takes 1 to {limit}, not {depth}").format(
                            limit=EXACT_LIMITS.max_depth, depth=depth))
    if not 1 <= samples <= MAX_SAMPLES:
        raise ProbError(i18n._("--samples takes 1 to {limit}, not {samples}").format(
                            limit=i18n.number(MAX_SAMPLES), samples=i18n.number(samples)))


def ask(questions: list[str], *, lets=(), env=None, depth: int | None = None, estimate: bool = False,
        samples: int = DEFAULT_SAMPLES, seed: int = 0, formulas=NO_FORMULAS) -> Answer:
    """The odds of each question, every let read once by all (see the module's doc). `formulas`:
    the named formulas the expressions may call (a ruleset's, from ruleset_formulas)."""
    _check_options(depth, samples)
    env = dict(env or {})
    compiled_lets = [(name, compile_expression(text, formulas=formulas)) for name, text in lets]
    compiled = [_compiled(text, formulas) for text in questions]
    why = i18n._("--estimate asked for a simulation") if estimate else None
    if not estimate:
        from ruleset_engine.analysis.exact import NoExact, Unordered

        try:
            return _exact(compiled_lets, compiled, env, depth, list(lets))
        except NoExact as err:
            why = str(err)
        except Unordered:
            # icepool finds no order to read the dice in (a keep on a pool whose size is known only
            # when rolled, inside another): no exact odds, said so, never a failure.
            why = i18n._("exact odds cannot read these dice in order (a pool whose size is known only when rolled)")
    return _estimate(compiled_lets, compiled, env, samples, seed, why, list(lets))


def _exact(compiled_lets, compiled, env, depth, lets) -> Answer:
    from ruleset_engine.analysis.exact import Exact, distribution, env_names, share

    bound: dict = {}
    depths: list = []
    for name, expr in compiled_lets:
        x = Exact(expr.text, env_names(env, bound), depth=depth, formulas=expr.formulas)
        bound[name] = share(x.node(expr.tree))
        depths += x.depths
    answers = []
    for expr in compiled:
        x = Exact(expr.text, env_names(env, bound), depth=depth, formulas=expr.formulas)
        value = x.node(expr.tree)
        depths += x.depths
        chances = distribution(x.finish(value))
        answers.append(Odds(expr.text, _kind(chances), chances))
    return Answer(answers, True, lets=lets, depth=max((d for d, _ in depths), default=None),
                  cut=max((c for _, c in depths), default=None))


def _kind(chances) -> str:
    values = [v for v, _ in chances]
    if values and all(type(v) is bool for v in values):
        return BOOL
    for v in values:
        if type(v) not in (int, bool):
            raise DiceTypeError(i18n._("prob answers for numbers and true/false, not {value}").format(value=repr(v)))
    return "number"


class _Counted:
    """A dice source that counts the dice it rolls (the work of an estimate)."""

    __slots__ = ("rng", "rolled")

    def __init__(self, rng):
        self.rng = rng
        self.rolled = 0

    def randint(self, a: int, b: int) -> int:
        self.rolled += 1
        return self.rng.randint(a, b)


def _estimate(compiled_lets, compiled, env, samples, seed, why, lets) -> Answer:
    rng = _Counted(random.Random(seed))
    counts = [Counter() for _ in compiled]
    for done in range(samples):
        if done == PROBE and rng.rolled * samples > MAX_ESTIMATE_DICE * PROBE:
            # Known after the first samples: the whole estimate would roll past the limit.
            each = rng.rolled / PROBE
            fewer = max(1, int(MAX_ESTIMATE_DICE / each))
            raise ProbError(i18n._("{samples} samples would roll about {dice} dice ({each} a sample), more than "
                                   "the {limit} an estimate rolls; ask for --samples {fewer} or fewer").format(
                                samples=i18n.number(samples), dice=i18n.number(int(each * samples)),
                                each=i18n.number(each, 0), limit=i18n.number(MAX_ESTIMATE_DICE),
                                fewer=i18n.number(fewer)))
        if rng.rolled > MAX_ESTIMATE_DICE:
            raise ProbError(i18n._("the estimate rolled more than {limit} dice in its first {done} samples (more "
                                   "a sample than the first {probe} did); ask for fewer --samples").format(
                                limit=i18n.number(MAX_ESTIMATE_DICE), done=i18n.number(done), probe=PROBE))
        scope = dict(env)
        for name, expr in compiled_lets:
            scope[name] = expr.plain(rng, scope)
        for expr, counter in zip(compiled, counts):
            value = expr.plain(rng, scope)
            counter[sum(value) if isinstance(value, tuple) else value] += 1
    answers = []
    for expr, counter in zip(compiled, counts):
        chances = sorted(((v, Fraction(c, samples)) for v, c in counter.items()), key=lambda item: item[0])
        answers.append(Odds(expr.text, _kind(chances), chances, samples))
    return Answer(answers, False, why, lets, samples=samples, seed=seed)


def grid(expression: str, axes: list[tuple[str, list[int]]], *, at_least: int | None = None,
         at_most: int | None = None, lets=(), env=None, depth: int | None = None, estimate: bool = False,
         samples: int = DEFAULT_SAMPLES, seed: int = 0, formulas=NO_FORMULAS) -> Chart:
    """One question asked for every value of one or two names (rows, then columns)."""
    if not 1 <= len(axes) <= 2:
        raise ProbError(i18n._("a chart has one or two --grid names, not {count}").format(count=len(axes)))
    if len(axes) == 2 and axes[0][0] == axes[1][0]:
        raise ProbError(i18n._("--grid names {name} twice").format(name=axes[0][0]))
    if at_least is not None and at_most is not None:
        raise ProbError(i18n._("a chart reads --at-least or --at-most, not both"))
    rows, columns = axes[0], axes[1] if len(axes) == 2 else None
    cells = len(rows[1]) * (len(columns[1]) if columns else 1)
    if cells > MAX_GRID_CELLS:
        raise ProbError(i18n._("the chart would have {cells} cells, more than {limit}").format(
                            cells=i18n.number(cells), limit=MAX_GRID_CELLS))
    _check_options(depth, samples)
    compiled = _compiled(expression, formulas)     # a bad expression is refused before any cell is worked out
    # A --grid name the expression (or a --let it reads) never reads would give a flat chart: refused.
    read = {".".join(path) for expr in [compiled] + [compile_expression(text, formulas=formulas) for _, text in lets]
            for path, _ in expr.names}
    for name, _values in axes:
        if name not in {dotted.split(".")[0] for dotted in read}:
            raise ProbError((i18n._("--grid {name}: the expression does not read {name}; it reads {names}") if read
                             else i18n._("--grid {name}: the expression reads no names")).format(
                                 name=name, names=", ".join(sorted(read))))
    table, answers = [], []
    for r in rows[1]:
        line, found = [], []
        for c in (columns[1] if columns else [None]):
            scope = dict(env or {})
            scope[rows[0]] = r
            if columns:
                scope[columns[0]] = c
            answer = ask([expression], lets=lets, env=scope, depth=depth, estimate=estimate, samples=samples,
                         seed=seed, formulas=formulas)
            line.append(answer.questions[0])
            found.append(answer)
        table.append(line)
        answers.append(found)
    return Chart(expression, rows, columns, table, answers, at_least, at_most)


def odds(expression: str, *, lets: dict | None = None, ruleset: str | None = None, params: dict | None = None,
         depth: int | None = None, estimate: bool = False, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Odds:
    """The Python face's `dusk.prob`: one expression's distribution (`.to_frame()` for pandas), exact or
    a seeded estimate (`samples` not None); `lets` NAME -> EXPR as `--let`; `ruleset` and `params` give
    `params.NAME` as `--ruleset` and `--set` do."""
    if params and ruleset is None:
        raise ProbError(i18n._("params change a ruleset's params: name the ruleset too"))
    env, formulas = {}, NO_FORMULAS
    if ruleset is not None:
        from ruleset_engine.ruleset import load
        from ruleset_engine.runtime import resolve_params

        loaded = load(ruleset)
        env, formulas = {"params": resolve_params(loaded, dict(params or {}))}, loaded.formulas
    pairs = [(_let_name(name), text) for name, text in (lets or {}).items()]
    return ask([expression.strip()], lets=pairs, env=env, depth=depth, estimate=estimate, samples=samples,
               seed=seed, formulas=formulas).questions[0]


def ruleset_names(ruleset: str, sets: list[str] | None) -> tuple[dict, object]:
    """What questions about a ruleset read, from one load (and one check) of it: the names its formulas
    get before a game starts (`params`: defaults, --set over them) and its named formulas."""
    from ruleset_engine.ruleset import load
    from ruleset_engine.ruleset.params import parse_sets
    from ruleset_engine.runtime import resolve_params

    loaded = load(ruleset)
    return {"params": resolve_params(loaded, parse_sets(sets))}, loaded.formulas


def ruleset_env(ruleset: str, sets: list[str] | None) -> dict:
    """The names a ruleset gives its formulas before a game starts: `params` (defaults, --set over them)."""
    return ruleset_names(ruleset, sets)[0]


def ruleset_formulas(ruleset: str):
    """The named formulas of a ruleset (its `formulas:`), which questions about it may call."""
    return ruleset_names(ruleset, [])[1]


__all__ = ["ask", "grid", "odds", "Odds", "Answer", "Chart", "ProbError", "parse_let", "parse_axis", "ruleset_env",
           "ruleset_formulas", "ruleset_names"]
