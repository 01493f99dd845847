"""`dusk simulate --sweep`: one ruleset played for every value of one or two params.

Every cell (a value, or a combination of two) plays games 0..N-1 on the same per-game seeds
(common random numbers), so the differences between cells are the rule's, not the dice's. The
cells share one set of workers (simulate.run_tasks); each worker loads the ruleset once and writes
one program per cell it plays. Everything is checked before the first game: the names, the
values (each cell's params, as --set checks them) and the size of the whole run.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from ruleset_engine import i18n
from ruleset_engine.runtime import GameError, resolve_params

from .records import Recorded, check_target, layout, sink_for
from .simulate import Task, cell_program, check_games, load_and_write_program, recorded_run
from .summary import Totals

MAX_SWEEPS = 2
MAX_CELLS = 400       # a table (and a chart) a person can read
RANGE = ".."


@dataclass(frozen=True, slots=True)
class Axis:
    """One swept param and its values, in the param's own type."""

    param: str
    values: tuple


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """PARAM=a..b (whole numbers, both ends in) or PARAM=a,b,c: (name, value texts). The size of a
    range is worked out before its values are made, so a huge one is refused at once."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not name or not spec:
        raise GameError(i18n._("--sweep takes PARAM=a..b or PARAM=a,b,c, not {text}").format(text=repr(text)))
    if RANGE in spec and "," not in spec:
        low, _, high = spec.partition(RANGE)
        try:
            low, high = int(low), int(high)
        except ValueError:
            raise GameError(i18n._("--sweep {text}: a range a..b takes two whole numbers (list the values of "
                                   "other params: PARAM=a,b,c)").format(text=text)) from None
        if low > high:
            raise GameError(i18n._("--sweep {text}: the range is empty (a..b with a <= b)").format(text=text))
        if high - low + 1 > MAX_CELLS:
            raise GameError(i18n._("--sweep {text}: {count} values, more than {limit}").format(
                                text=text, count=i18n.number(high - low + 1), limit=MAX_CELLS))
        return name, [str(v) for v in range(low, high + 1)]
    values = [v.strip() for v in spec.split(",")]
    if any(not v for v in values):
        raise GameError(i18n._("--sweep {text}: an empty value in the list").format(text=text))
    if len(values) > MAX_CELLS:
        raise GameError(i18n._("--sweep {text}: {count} values, more than {limit}").format(
                            text=text, count=i18n.number(len(values)), limit=MAX_CELLS))
    return name, values


def axes_of(ruleset, specs: list[str], fixed: dict) -> list[Axis]:
    """The sweeps, each value checked as --set checks it (over the fixed params)."""
    if not 1 <= len(specs) <= MAX_SWEEPS:
        raise GameError(i18n._("--sweep takes one or two params, not {count}").format(count=len(specs)))
    axes = []
    for text in specs:
        name, texts = parse_sweep(text)
        if any(axis.param == name for axis in axes):
            raise GameError(i18n._("--sweep names {name} twice").format(name=name))
        if name in fixed:
            raise GameError(i18n._("{name} is both swept and --set: keep one").format(name=name))
        param = ruleset.params.get(name)
        if param is None:
            known = ", ".join(sorted(ruleset.params)) or i18n._("none")
            raise GameError(i18n._("{id} has no param {name} (its params: {known})").format(
                                id=ruleset.id, name=repr(name), known=known))
        if RANGE in text.partition("=")[2] and "," not in text and param.type != "integer":
            raise GameError(i18n._("--sweep {text}: {name} is a {type} param; a range a..b is for whole numbers "
                                   "(list its values: {name}=a,b)").format(text=text, name=name, type=param.type))
        values = tuple(resolve_params(ruleset, {**fixed, name: v})[name] for v in texts)
        if len(set(map(repr, values))) != len(values):
            raise GameError(i18n._("--sweep {text}: a value is listed twice").format(text=text))
        axes.append(Axis(name, values))
    cells = 1
    for axis in axes:
        cells *= len(axis.values)
    if cells > MAX_CELLS:
        raise GameError(i18n._("the sweeps make {cells} cells, more than {limit}").format(
                            cells=i18n.number(cells), limit=MAX_CELLS))
    return axes


@dataclass(slots=True)
class Cell:
    values: tuple            # one per axis
    tally: Totals


@dataclass
class Sweep(Recorded):
    ruleset: str
    seed: int
    games: int
    params: dict             # the params every cell shares (the swept ones at their defaults)
    axes: list[Axis]
    cells: list[Cell]
    main: str | None         # the result the chart shows
    seconds: float
    records: object = None   # records.Kept with records=True (`.to_frame()`), a file's sink, or None
    # As a simulation's (simulate.Summary): the report values given value by value, the results whose
    # values are, and the report values read per iteration of a level.
    distributions: tuple = ()
    result_distributions: tuple = ()
    tallies: dict = None

    def to_json(self) -> dict:
        cells = []
        for cell in self.cells:
            data = {"values": dict(zip((a.param for a in self.axes), cell.values))}
            data.update(cell.tally.to_json(self.distributions, self.result_distributions, self.tallies or {}))
            cells.append(data)
        return {"ruleset": self.ruleset, "seed": self.seed, "games": self.games, "params": self.params,
                "sweep": {a.param: list(a.values) for a in self.axes}, "main": self.main, "cells": cells}


def main_result(ruleset, tallies: list[Totals]) -> str | None:
    """The result a chart shows: the first the ruleset's end: conditions name that any game gave,
    else the one games gave most."""
    seen: dict = {}
    for tally in tallies:
        for name, count in tally.results.items():
            seen[name] = seen.get(name, 0) + count
    for ending in ruleset.end:
        if ending.result in seen:
            return ending.result
    return max(sorted(seen), key=seen.get) if seen else None


def specs_of(sweeps) -> list[str]:
    """--sweep's texts, from those texts or (the Python face) a mapping PARAM -> its values."""
    if isinstance(sweeps, str):
        return [sweeps]
    if isinstance(sweeps, dict):
        return [f"{name}={','.join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)}"
                if not isinstance(values, str) else f"{name}={values}" for name, values in sweeps.items()]
    return list(sweeps)


def sweep(source: str, games: int, specs, seed: int = 0, params: dict | None = None,
          workers: int = 1, progress=None, records=None) -> Sweep:
    """Play `games` games of every cell; `progress(done, total)` is called as games finish. `specs`:
    --sweep's texts (PARAM=a..b, PARAM=a,b,c) or a mapping {PARAM: values}. `records`: a row per game
    of every cell, cell by cell (records.py), to a file or, with True, kept for `.to_frame()`."""
    check_target(records)
    specs = specs_of(specs)
    ruleset, fixed = load_and_write_program(source, params)
    axes = axes_of(ruleset, specs, params or {})
    combos = list(itertools.product(*(axis.values for axis in axes)))
    check_games(games, len(combos))
    tasks = []
    for combo in combos:
        cell_params = {**fixed, **dict(zip((a.param for a in axes), combo))}
        tasks.append(Task("one", ((source, cell_params),)))
    # Each cell's program is written here first: a value that makes a formula impossible is said
    # before any game is played.
    for task in tasks:
        cell_program(*task.cells[0])
    sink = sink_for(records)
    if sink is not None:
        tasks = [Task(task.kind, task.cells, True) for task in tasks]
    started = time.perf_counter()
    total = games * len(tasks)
    tallies = recorded_run(tasks, games, seed, workers, (lambda done: progress(done, total)) if progress else None,
                           sink, lambda k, rows: layout(rows.columns(), tasks[k].cells[0][1]))
    cells = [Cell(combo, tally) for combo, tally in zip(combos, tallies)]
    return Sweep(ruleset.id, seed, games, fixed, axes, cells, main_result(ruleset, tallies),
                 time.perf_counter() - started, sink, ruleset.distributions,
                 tuple(e.result for e in ruleset.end if e.distribution), ruleset.tallies)
