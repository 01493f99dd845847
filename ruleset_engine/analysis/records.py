"""Simulation records: one row per game, for pandas, Arrow and spreadsheets (`--records FILE`).

A worker gathers the rows of the games it plays in a `Rows` (columns, in game order whatever order
the games ended in: the lockstep backend retires them as they end). The parent lays each range's
rows out as the columns of the file (`layout`, `pair_layout`) and hands them to a sink as the ranges
come back, in the order of the games, so a file holds the same rows whatever `--workers` is and
memory holds a few ranges, never the run: `.parquet` (pyarrow, a row group per range), `.csv`,
`.jsonl`, or a list kept in memory for the Python face (`records=True`: `.to_frame()`,
`.to_arrow()`).

The columns: `game` (its index), `seed` (the game's seed: the untraced backend only), `result`,
`rounds`, each param of the cell, then each report value, named as the report names it. A param or
a report value whose name is already a column's is written `param.NAME` or `report.NAME`. A
comparison writes one row per pair of games: `game`, `seed`, then A's columns with `_a` after their
names and B's with `_b`.

pandas and pyarrow are the optional extra `dusk[data]`, imported only when a file or a frame needs
them (`need`).
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from ruleset_engine.i18n import _
from ruleset_engine.runtime import GameError

EXTRA = "pip install 'dusk[data]'"
FORMATS = (".parquet", ".csv", ".jsonl")


class MissingExtra(GameError):
    """pandas or pyarrow is not installed: the message names the extra that brings them."""


def need(module: str, why: str):
    """`module` (pandas or pyarrow) imported, or an error that names the extra."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{why} needs {module}, from dusk's optional extra `data`: {EXTRA}") from None


def report_columns(report: dict) -> dict:
    """The columns of report values: name -> the values of many games (a list or an array), each a
    number or true/false (a pool already its total). The one place a row reads report values: a
    true/false column stays true/false, any other is whole numbers."""
    import numpy as np

    columns = {}
    for name, values in report.items():
        values = np.asarray(values)
        columns[name] = values if values.dtype == bool else values.astype(np.int64)
    return columns


class Rows:
    """The rows of the games of one range, gathered where they are played."""

    def __init__(self):
        self.games: list = []
        self.seeds: list = []
        self.results: list = []
        self.rounds: list = []
        self.reports: list = []      # untraced: one dict per game; lockstep: one dict of arrays per batch
        self.many = False

    def add(self, game: int, result: str, rounds: int, report: dict, seed: int | None = None) -> None:
        """One game (the untraced backend, in game order)."""
        self.games.append(game)
        if seed is not None:
            self.seeds.append(seed)
        self.results.append(result)
        self.rounds.append(rounds)
        self.reports.append(report)

    def add_many(self, games, results: list, rounds, report: dict) -> None:
        """Games that ended together (the lockstep backend): their indices, results, lengths and
        report values (name -> an array)."""
        import numpy as np

        self.many = True
        self.games.append(games)
        self.results.append(results)
        self.rounds.append(rounds)
        self.reports.append({name: np.array(values) for name, values in report.items()})   # a copy

    def columns(self) -> dict:
        """game, seed (if kept), result, rounds and the report values, in game order."""
        import numpy as np

        if self.many:
            if not self.games:
                return {"game": np.zeros(0, np.int64), "result": np.zeros(0, object),
                        "rounds": np.zeros(0, np.int64)}
            games = np.concatenate(self.games)
            order = np.argsort(games, kind="stable")
            results = np.concatenate([np.asarray(r, dtype=object) for r in self.results])
            report = {name: np.concatenate([batch[name] for batch in self.reports]) for name in self.reports[0]}
            data = {"game": games[order].astype(np.int64), "result": results[order],
                    "rounds": np.concatenate(self.rounds)[order].astype(np.int64)}
            data.update({name: values[order] for name, values in report_columns(report).items()})
            return data
        data = {"game": np.asarray(self.games, dtype=np.int64)}
        if self.seeds:
            data["seed"] = np.asarray(self.seeds, dtype=np.uint64)
        data["result"] = np.asarray(self.results, dtype=object)
        data["rounds"] = np.asarray(self.rounds, dtype=np.int64)
        names = list(self.reports[0]) if self.reports else []
        data.update(report_columns({name: [r[name] for r in self.reports] for name in names}))
        return data


class PairRows:
    """The rows of a range of paired games (`dusk compare`): A's and B's, on the same seeds."""

    def __init__(self):
        self.a = Rows()
        self.b = Rows()

    def add(self, game: int, seed: int, one: tuple, two: tuple) -> None:
        self.a.add(game, *one, seed=seed)
        self.b.add(game, *two)


FIXED = ("game", "seed", "result", "rounds")


def layout(columns: dict, params: dict, suffix: str = "", fixed: tuple = FIXED) -> dict:
    """A range's columns as written: the fixed ones, each param (the same in every row), the report
    values; a name already taken gets `param.` or `report.` before it."""
    import numpy as np

    n = len(columns["game"])
    out = {name + suffix: columns[name] for name in fixed if name in columns}
    taken = set(fixed)
    for name, value in params.items():
        key = name if name not in taken else f"param.{name}"
        taken.add(key)
        out[key + suffix] = np.full(n, value, dtype=object if isinstance(value, str) else None)
    for name, values in columns.items():
        if name in FIXED:
            continue
        key = name if name not in taken else f"report.{name}"
        taken.add(key)
        out[key + suffix] = values
    return out


def pair_layout(rows: PairRows, params: tuple[dict, dict]) -> dict:
    a, b = rows.a.columns(), rows.b.columns()
    out = {"game": a["game"], "seed": a["seed"]}
    out.update(layout(a, params[0], "_a", ("result", "rounds")))
    out.update(layout(b, params[1], "_b", ("result", "rounds")))
    return out


def _plain(value):
    """A cell as Python (numpy's numbers as int and bool), for csv and json."""
    return value.item() if hasattr(value, "item") else value


class FileSink:
    """Rows written to a file next to the one named, renamed to it once the run is done: an
    interrupted or failed run leaves no half-written file under the name asked for."""

    def __init__(self, path: str):
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.rows = 0

    def write(self, columns: dict) -> None:
        self.rows += len(columns["game"])
        self._write(columns)

    def done(self) -> None:
        self._close()
        os.replace(self.partial, self.path)

    def abandon(self) -> None:
        try:
            self._close()
        finally:
            self.partial.unlink(missing_ok=True)


class ParquetSink(FileSink):
    """Apache Parquet through pyarrow, the schema set by the first range. Ranges are written as row
    groups of at least ROW_GROUP rows (a lockstep range is one; the small ranges of the untraced
    backend are gathered first), so memory holds at most about one row group."""

    ROW_GROUP = 50_000

    def __init__(self, path: str):
        super().__init__(path)
        self.pa = need("pyarrow", "--records FILE.parquet")
        self.pq = need("pyarrow.parquet", "--records FILE.parquet")
        self.writer = None
        self.schema = None
        self.pending: list = []
        self.waiting = 0
        self.partial.touch()             # an unwritable place is said before any game

    def _write(self, columns: dict) -> None:
        table = self.pa.table(columns)
        if self.schema is None:
            self.schema = table.schema
        elif table.schema != self.schema:
            changed = next(f.name for f, g in zip(table.schema, self.schema) if f != g)
            # TRANSLATORS: {column} is the name of a column of the records file
            raise GameError(_("--records: {column} gave true/false in some games and a number in others; a "
                              "column of a .parquet file keeps one type (write .csv or .jsonl)").format(column=changed))
        self.pending.append(table)
        self.waiting += table.num_rows
        if self.waiting >= self.ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if not self.pending:
            return
        if self.writer is None:
            self.writer = self.pq.ParquetWriter(str(self.partial), self.schema)
        self.writer.write_table(self.pa.concat_tables(self.pending))
        self.pending, self.waiting = [], 0

    def _close(self) -> None:
        self._flush()
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    def abandon(self) -> None:
        self.pending = []
        super().abandon()


class TextSink(FileSink):
    """A text file, written a range at a time."""

    def __init__(self, path: str):
        super().__init__(path)
        self.file = open(self.partial, "w", encoding="utf-8", newline="")

    def _close(self) -> None:
        if not self.file.closed:
            self.file.close()


class CsvSink(TextSink):
    """Comma-separated values with a header line; true/false as `true` and `false`."""

    def __init__(self, path: str):
        super().__init__(path)
        self.header = False

    def _write(self, columns: dict) -> None:
        buffer = io.StringIO()
        out = csv.writer(buffer, lineterminator="\n")
        if not self.header:
            out.writerow(list(columns))
            self.header = True
        cells = [[("true" if v else "false") for v in values.tolist()] if getattr(values, "dtype", None) == bool
                 else values.tolist() for values in columns.values()]
        out.writerows(zip(*cells))
        self.file.write(buffer.getvalue())


class JsonlSink(TextSink):
    """One JSON object per line, its keys in the columns' order."""

    def _write(self, columns: dict) -> None:
        names = list(columns)
        cells = [values.tolist() for values in columns.values()]
        self.file.write("".join(json.dumps(dict(zip(names, row)), ensure_ascii=False) + "\n"
                                for row in zip(*cells)))


SINKS = {".parquet": ParquetSink, ".csv": CsvSink, ".jsonl": JsonlSink}


def check_target(records) -> None:
    """A records file's ending, that it is no folder, and pyarrow for .parquet: checked first, before
    the ruleset is read (None, False and True need nothing)."""
    if records is None or isinstance(records, bool):
        return
    path = str(records)
    suffix = Path(path).suffix.lower()
    if os.path.isdir(path):
        raise GameError(_("--records {path}: a folder, not a file").format(path=path))
    if suffix not in SINKS:
        # TRANSLATORS: {formats} are the file endings --records writes (.csv, .jsonl, .parquet)
        raise GameError(_("--records writes {formats}: {path} ends otherwise").format(
            formats=", ".join(FORMATS), path=repr(path)))
    if suffix == ".parquet":
        need("pyarrow.parquet", "--records FILE.parquet")


def open_sink(path) -> FileSink:
    """The sink for FILE by its ending, opened before any game (a folder that cannot be written is
    said at once)."""
    check_target(path)
    return SINKS[Path(str(path)).suffix.lower()](str(path))


class Kept:
    """Records kept in memory (the Python face's `records=True`): `.to_frame()`, `.to_arrow()`."""

    def __init__(self):
        self.batches: list = []
        self.rows = 0

    def write(self, columns: dict) -> None:
        self.rows += len(columns["game"])
        self.batches.append(columns)

    def done(self) -> None:
        pass

    def abandon(self) -> None:
        self.batches = []

    def _joined(self) -> dict:
        import numpy as np

        if not self.batches:
            return {}
        return {name: np.concatenate([batch[name] for batch in self.batches]) for name in self.batches[0]}

    def to_frame(self):
        """A pandas DataFrame, a row per game."""
        pandas = need("pandas", ".to_frame()")
        return pandas.DataFrame(self._joined())

    def to_arrow(self):
        """A pyarrow Table, a row per game."""
        pa = need("pyarrow", ".to_arrow()")
        return pa.table(self._joined())


def sink_for(records):
    """None (no records), a Kept (records=True) or a file sink (a path)."""
    if records is None or records is False:
        return None
    if records is True:
        return Kept()
    return open_sink(records)


class Recorded:
    """What the Python face's results share: `.to_frame()` and `.to_arrow()` of their records."""

    records = None

    def _kept(self) -> Kept:
        if not isinstance(self.records, Kept):
            raise GameError("this run kept no records: run it again with records=True")
        return self.records

    def to_frame(self):
        """A pandas DataFrame, a row per game (needs records=True and pandas, `dusk[data]`)."""
        return self._kept().to_frame()

    def to_arrow(self):
        """A pyarrow Table, a row per game (needs records=True and pyarrow, `dusk[data]`)."""
        return self._kept().to_arrow()
