"""dusk simulate --sweep and dusk compare: common random numbers, the numbers they report, and
arguments refused before any game."""

import json
import subprocess
import sys

import pytest

from ruleset_engine.analysis.compare import compare
from ruleset_engine.analysis.simulate import simulate
from ruleset_engine.analysis.sweep import sweep
from ruleset_engine.runtime import GameError


def dusk(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})


def test_sweeping_vampire_on_raises_the_win_rate_and_each_cell_is_its_single_run():
    result = sweep("attack-of-the-vampires", 1500, ["vampire_on=1..6"], seed=3)
    rates = [cell.tally.results.get("won", 0) / 1500 for cell in result.cells]
    assert [cell.values for cell in result.cells] == [(v,) for v in range(1, 7)]
    # 1: about 1% won, 6: about 15%: intervals thousands of games wide apart, never crossed by chance.
    first, last = result.cells[0].tally, result.cells[-1].tally
    assert rates[-1] - rates[0] > 0.08
    assert json.loads(json.dumps(result.to_json()))["cells"][-1]["results"]["won"]["ci95"][0] > \
        result.to_json()["cells"][0]["results"]["won"]["ci95"][1]
    assert result.main == "won"
    # Common random numbers: a cell plays the very games a single run with that value plays.
    single = simulate("attack-of-the-vampires", 1500, seed=3, params={"vampire_on": "6"})
    assert single.tally.results == last.results and single.tally.lengths.total == last.lengths.total
    assert first.games == last.games == 1500


def test_two_sweeps_play_every_combination():
    result = sweep("attack-of-the-vampires", 20, ["vampire_on=2,4", "garlic_on=5..6"])
    assert [cell.values for cell in result.cells] == [(2, 5), (2, 6), (4, 5), (4, 6)]
    data = result.to_json()
    assert data["sweep"] == {"vampire_on": [2, 4], "garlic_on": [5, 6]}
    assert data["cells"][1]["values"] == {"vampire_on": 2, "garlic_on": 6}


def test_compare_finds_keep_sets_significant_and_a_ruleset_against_itself_exactly_equal():
    data = compare("attack-of-the-vampires", "attack-keep-sets", 1000, seed=2).to_json()
    won = data["results"]["won"]
    # Under the rules about 7% won, keeping sets about 33%: a difference of 26 points, its interval
    # about 3 points wide.
    assert won["significant"] and won["ci95"][0] > 0.1 and won["a"]["rate"] < won["b"]["rate"]
    same = compare("attack-of-the-vampires", "attack-of-the-vampires", 300, seed=2).to_json()
    for entry in list(same["results"].values()) + list(same["report"].values()) + [same["length"]]:
        assert entry["difference"] == 0 and entry["ci95"] == [0, 0] and not entry["significant"]


def test_compare_with_workers_gives_the_same_numbers():
    one = compare("attack-of-the-vampires", "attack-keep-sets", 1200, seed=5).to_json()
    two = compare("attack-of-the-vampires", "attack-keep-sets", 1200, seed=5, workers=2).to_json()
    assert one == two


@pytest.mark.parametrize("args, message", [
    (["--sweep", "nope=1..3"], "has no param 'nope'"),
    (["--sweep", "vampire_on=1..9"], "7 is above the maximum 6"),
    (["--sweep", "life_roll=1..3"], "a range a..b is for whole numbers"),
    (["--sweep", "vampire_on=a..3"], "a range a..b takes two whole numbers"),
    (["--sweep", "vampire_on=1..99999999999999"], "99,999,999,999,999 values, more than 400"),
    (["--sweep", "vampire_on=1..6", "--sweep", "kill_dice=3..12", "--sweep", "vampires=1..2"], "one or two"),
    (["--sweep", "vampire_on=1..3", "-n", "999999999999"], "more than 1,000,000,000,000 games in all"),
    (["--sweep", "vampire_on=1..3", "--plot", "chart.jpg"], "--plot writes .png or .svg"),
    (["--plot", "chart.png"], "--plot draws a sweep"),
    # issue 24.13: a folder that does not exist was found after the whole sweep.
    (["--sweep", "vampire_on=1..3", "--plot", "no/such/folder/chart.png"],
     "--plot no/such/folder/chart.png: the folder no/such/folder does not exist; make it first"),
    (["--sweep", "vampire_on=1..3", "--plot", "a-file.txt/chart.svg"], "the folder a-file.txt is not a folder"),
])
def test_bad_sweeps_are_refused_with_exit_2_before_any_game(args, message, tmp_path):
    argv = ["simulate", "attack-of-the-vampires", "-n", "5", *args]
    if "-n" in args:
        argv = ["simulate", "attack-of-the-vampires", *args]
    (tmp_path / "a-file.txt").write_text("", encoding="utf-8")
    out = dusk(*argv, cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert message in out.stderr and "Traceback" not in out.stderr


def test_bad_sweep_values_are_game_errors():
    with pytest.raises(GameError, match="listed twice"):
        sweep("attack-of-the-vampires", 5, ["vampire_on=1,1"])
    with pytest.raises(GameError, match="both swept and --set"):
        sweep("attack-of-the-vampires", 5, ["vampire_on=1,2"], params={"vampire_on": "3"})


def test_the_sweep_and_compare_commands_print_tables_and_a_plain_chart_on_a_pipe(tmp_path):
    out = dusk("simulate", "attack-of-the-vampires", "-n", "40", "--sweep", "vampire_on=1..3", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "won by vampire_on:" in out.stdout and "#" in out.stdout and "\x1b[" not in out.stdout
    as_json = dusk("simulate", "attack-of-the-vampires", "-n", "40", "--sweep", "vampire_on=1..3", "--json",
                   cwd=tmp_path)
    assert len(json.loads(as_json.stdout)["cells"]) == 3
    compared = dusk("compare", "attack-of-the-vampires", "attack-keep-sets", "-n", "40", cwd=tmp_path)
    assert compared.returncode == 0 and "B - A" in compared.stdout and "significant" in compared.stdout
    bad = dusk("compare", "attack-of-the-vampires", "attack-keep-sets", "-n", "0", cwd=tmp_path)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("as_json", [False, True])
def test_the_sweep_is_printed_before_its_figure_is_drawn(tmp_path, monkeypatch, capsys, as_json):
    # issue 24.13: a figure that failed printed nothing of the sweep; now the table (or JSON) comes first.
    from ruleset_engine import cli
    from ruleset_engine.analysis import plot

    monkeypatch.setattr(plot, "check_target", lambda path: None)     # matplotlib need not be here

    def fails(data, path):
        raise plot.PlotError(f"cannot write {path}: disk full")

    monkeypatch.setattr(plot, "write", fails)
    argv = ["simulate", "attack-of-the-vampires", "-n", "20", "--sweep", "vampire_on=1,2",
            "--plot", str(tmp_path / "chart.png")] + (["--json"] if as_json else [])
    assert cli.main(argv) == 1
    out, err = capsys.readouterr()
    if as_json:
        assert len(json.loads(out)["cells"]) == 2
    else:
        assert "won by vampire_on:" in out and "figure written" not in out
    assert err.endswith(f"dusk simulate: the figure was not written: cannot write {tmp_path / 'chart.png'}: "
                        "disk full\n")
