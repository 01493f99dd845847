"""--records FILE and the Python face's records: a row per game, read back from each format.

Each file is read back and checked against the summary printed with it: the row count, the
columns, and the summary recomputed here from the rows (counts, rates, mean, median, 90th
percentile, min, max, worked out with the statistics module, not dusk's histograms) equal to the
printed one; and the same rows with --workers 1 and 2. Within one backend the same seed gives the
same rows; the two backends draw different dice (docs/simulate.md), so no test asks them to agree.
"""

import csv
import json
import math
import statistics
import sys
from collections import Counter
from pathlib import Path

import pytest

import ruleset_engine as dusk
from ruleset_engine import cli
from ruleset_engine.analysis.simulate import LOCKSTEP_CHUNK, game_seed

RULESET = str(Path(__file__).parent / "rulesets" / "records.yaml")
# Each round divides by zero once in 5,000: a run of 100,000 games of 8 rounds fails, most likely
# a few ranges in (one in e^160 plays every game).
FAILS = """\
ruleset: fails
title: Fails
state: {n: 0}
loop:
  - name: round
    max: 8
    steps: [{set: {n: "n + 10 // (1d5000 - 1)"}}]
"""
FORMATS = ["parquet", "csv", "jsonl"]
COLUMNS = ["game", "seed", "result", "rounds", "sides", "score", "lucky"]


def run(capsys, *args) -> tuple[int, dict, str]:
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 else {}), out.err


def _cell(text: str):
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


def read(path: Path) -> tuple[list[str], list[dict]]:
    """The columns and the rows of a records file, each value as Python."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(path)
        return table.column_names, table.to_pylist()
    if path.suffix == ".csv":
        with open(path, newline="", encoding="utf-8") as file:
            reader = csv.DictReader(file)
            rows = [{k: _cell(v) for k, v in row.items()} for row in reader]
            return reader.fieldnames, rows
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return list(rows[0]), rows


def summary_of(rows: list[dict], suffix: str = "", report=("score", "lucky")) -> dict:
    """What the report says, recomputed from the rows."""
    n = len(rows)
    counts = Counter(row["result" + suffix] for row in rows)
    results = {name: {"count": c, "rate": round(c / n, 6)} for name, c in sorted(counts.items())}

    def numbers(values: list[int], full: bool = True) -> dict:
        ordered = sorted(values)
        data = {"mean": round(statistics.fmean(values), 4), "median": statistics.median(values),
                "p90": ordered[math.ceil(0.9 * n) - 1]}
        if full:
            data.update(min=ordered[0], max=ordered[-1])
        return data

    values = {}
    for name in report:
        column = [row[name + suffix] for row in rows]
        if all(isinstance(v, bool) for v in column):
            values[name] = {"rate": round(sum(column) / n, 6)}
        else:
            values[name] = numbers(column)
    return {"games": n, "results": results, "length": numbers([row["rounds" + suffix] for row in rows], False),
            "report": values}


def printed(data: dict) -> dict:
    """The printed summary, without what the rows cannot give (the intervals)."""
    return {"games": sum(r["count"] for r in data["results"].values()),
            "results": {k: {"count": r["count"], "rate": r["rate"]} for k, r in data["results"].items()},
            "length": data["length"],
            "report": {k: ({"rate": r["rate"]} if "rate" in r else r) for k, r in data["report"].items()}}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("backend, games", [("untraced", 1_200), ("lockstep", LOCKSTEP_CHUNK + 7_000)])
def test_simulate_writes_a_row_per_game_that_give_the_printed_summary(capsys, tmp_path, fmt, backend, games):
    rows = {}
    for workers in (1, 2):
        path = tmp_path / f"w{workers}.{fmt}"
        code, data, err = run(capsys, "simulate", RULESET, "-n", str(games), "--seed", "4", "--workers",
                              str(workers), "--backend", backend, "--json", "--records", str(path))
        assert code == 0 and f"a row per game written to {path}" in err
        columns, rows[workers] = read(path)
        assert columns == (COLUMNS if backend == "untraced" else [c for c in COLUMNS if c != "seed"])
        assert len(rows[workers]) == games
        assert [row["game"] for row in rows[workers]] == list(range(games))
        assert summary_of(rows[workers]) == printed(data)
        assert not list(tmp_path.glob("*.partial"))
    assert rows[1] == rows[2]
    sample = rows[1][games - 1]
    assert sample["sides"] == 6 and sample["result"] in ("lucky", "done") and 1 <= sample["rounds"] <= 8
    if backend == "untraced":
        assert all(row["seed"] == game_seed(4, row["game"]) for row in rows[1][:50])


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_sweep_writes_every_cell_in_turn_each_cell_its_printed_summary(capsys, tmp_path, fmt):
    rows = {}
    for workers in (1, 2):
        path = tmp_path / f"w{workers}.{fmt}"
        code, data, _ = run(capsys, "simulate", RULESET, "-n", "700", "--seed", "2", "--workers", str(workers),
                            "--sweep", "sides=4,9", "--json", "--records", str(path))
        assert code == 0
        columns, rows[workers] = read(path)
        assert columns == COLUMNS and len(rows[workers]) == 1_400
        assert [(r["sides"], r["game"]) for r in rows[workers]] == [(s, g) for s in (4, 9) for g in range(700)]
        for cell in data["cells"]:
            mine = [r for r in rows[workers] if r["sides"] == cell["values"]["sides"]]
            assert summary_of(mine) == printed(cell)
    assert rows[1] == rows[2]


@pytest.mark.parametrize("fmt", FORMATS)
def test_compare_writes_a_row_per_pair_with_each_sides_summary(capsys, tmp_path, fmt):
    other = tmp_path / "other.yaml"
    other.write_text(Path(RULESET).read_text(encoding="utf-8").replace("ruleset: records", "ruleset: other")
                     .replace("default: 6", "default: 10"), encoding="utf-8")
    rows = {}
    for workers in (1, 2):
        path = tmp_path / f"w{workers}.{fmt}"
        code, data, err = run(capsys, "compare", RULESET, str(other), "-n", "900", "--seed", "6", "--workers",
                              str(workers), "--json", "--records", str(path))
        assert code == 0 and "a row per pair of games written to" in err
        columns, rows[workers] = read(path)
        side = ["result", "rounds", "sides", "score", "lucky"]
        assert columns == ["game", "seed"] + [c + "_a" for c in side] + [c + "_b" for c in side]
        assert len(rows[workers]) == 900 and {r["sides_a"] for r in rows[workers]} == {6}
        assert {r["sides_b"] for r in rows[workers]} == {10}
        for suffix in ("_a", "_b"):
            mine = summary_of(rows[workers], suffix)
            assert {k: v["count"] for k, v in mine["results"].items()} == \
                {k: v[suffix[1]]["count"] for k, v in data["results"].items() if v[suffix[1]]["count"]}
            assert mine["length"]["mean"] == data["length"][suffix[1]]
            assert mine["report"]["score"]["mean"] == data["report"]["score"][suffix[1]]
        difference = statistics.fmean(r["score_b"] - r["score_a"] for r in rows[workers])
        assert round(difference, 4) == data["report"]["score"]["difference"]
    assert rows[1] == rows[2]


def test_the_python_face_gives_frames_with_the_rows_of_the_file(capsys, tmp_path):
    path = tmp_path / "games.csv"
    assert run(capsys, "simulate", RULESET, "-n", "800", "--seed", "9", "--backend", "untraced", "--json",
               "--records", str(path))[0] == 0
    _, rows = read(path)
    summary = dusk.simulate(RULESET, 800, seed=9, records=True)
    frame = summary.to_frame()
    assert list(frame.columns) == COLUMNS and len(frame) == 800
    assert [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            for row in frame.to_dict("records")] == rows
    assert summary.to_arrow().to_pylist() == rows
    assert summary.to_json()["games"] == 800
    swept = dusk.sweep(RULESET, 300, {"sides": [4, 9]}, seed=1, records=True).to_frame()
    assert len(swept) == 600 and swept.groupby("sides")["game"].count().to_dict() == {4: 300, 9: 300}
    pairs = dusk.compare(RULESET, RULESET, 200, seed=1, records=True).to_frame()
    # A ruleset against itself: the same games twice, column for column.
    assert len(pairs) == 200 and (pairs["score_a"] == pairs["score_b"]).all()
    assert (pairs["result_a"] == pairs["result_b"]).all()


def test_a_run_without_records_says_how_to_keep_them():
    summary = dusk.simulate(RULESET, 10)
    with pytest.raises(dusk.DuskError, match="records=True"):
        summary.to_frame()


def test_prob_gives_the_distribution_as_a_frame():
    odds = dusk.prob("2d6")
    frame = odds.to_frame()
    assert frame["value"].tolist() == list(range(2, 13))
    assert frame.loc[frame["value"] == 7, "p"].item() == pytest.approx(6 / 36)
    assert frame["p"].sum() == pytest.approx(1.0)
    assert frame.loc[frame["value"] == 10, "at_least"].item() == pytest.approx(6 / 36)
    assert float(odds.mean) == 7
    lucky = dusk.prob("count(pool, == params.sides) > 0", lets={"pool": "2d(params.sides)"}, ruleset=RULESET,
                      params={"sides": 4}).to_frame()
    assert lucky.loc[lucky["value"], "p"].item() == pytest.approx(7 / 16)     # 1 - (3/4)^2


def test_without_pandas_and_pyarrow_the_summary_works_and_a_frame_names_the_extra(monkeypatch, capsys, tmp_path):
    for name in ("pandas", "pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, name, None)      # import fails as when not installed
    summary = dusk.simulate(RULESET, 300, seed=1, records=True)
    assert summary.to_json()["games"] == 300
    for call in (summary.to_frame, summary.to_arrow, dusk.prob("1d6").to_frame):
        with pytest.raises(dusk.DuskError, match=r"pip install 'dusk\[data\]'"):
            call()
    path = tmp_path / "games.parquet"
    code, _, err = run(capsys, "simulate", RULESET, "-n", "300", "--records", str(path))
    assert code == 2 and "needs pyarrow" in err and "dusk[data]" in err and "Traceback" not in err
    assert "backend" not in err and list(tmp_path.iterdir()) == []      # said before any game
    csv_path = tmp_path / "games.csv"
    assert run(capsys, "simulate", RULESET, "-n", "300", "--records", str(csv_path), "--json")[0] == 0
    assert len(read(csv_path)[1]) == 300                  # .csv and .jsonl need neither


def test_a_bad_records_file_is_refused_and_a_failed_run_leaves_no_file(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", RULESET, "-n", "10", "--records", str(tmp_path / "games.xlsx"))
    assert code == 2 and ".parquet, .csv, .jsonl" in err
    code, _, err = run(capsys, "simulate", RULESET, "-n", "10", "--records", str(tmp_path))
    assert code == 2 and "a folder" in err
    fails = tmp_path / "fails.yaml"
    fails.write_text(FAILS, encoding="utf-8")
    code, _, err = run(capsys, "simulate", str(fails), "-n", "100000", "--backend", "untraced", "--records",
                       str(tmp_path / "games.csv"))
    assert code == 1 and "stopped" in err and sorted(p.name for p in tmp_path.iterdir()) == ["fails.yaml"]
