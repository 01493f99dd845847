"""`dusk prob` as a person runs it: its first line, its table, its JSON, its chart and its errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine import cli

RULESETS = Path(__file__).resolve().parent / "rulesets"


def dusk(*args, cwd):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_the_table_says_exact_first_and_shows_every_value(tmp_path):
    out = dusk("prob", "count(3d10, >= 8)", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Exact odds."
    assert lines[3].split() == ["value", "P(=x)", "P(>=x)", "P(<=x)"]
    assert lines[4].split()[:4] == ["0", "34.30%", "100%", "34.30%"]
    assert lines[-1].strip() == "mean 0.9, standard deviation 0.7937"


def test_a_fallback_says_so_on_its_first_line_and_in_json(tmp_path):
    out = dusk("prob", "size(aside(unpair(6d6)))", "--samples", "500", "--seed", "4", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Estimated, not exact (aside(..) has no exact form): 500 seeded rolls (seed 4)")
    data = json.loads(dusk("prob", "size(aside(unpair(6d6)))", "--samples", "500", "--json", cwd=tmp_path).stdout)
    assert data["exact"] is False and data["samples"] == 500 and "aside" in data["why_estimated"]
    assert all("ci95" in row for row in data["questions"][0]["distribution"])


def test_json_is_one_object_with_fractions_and_floats(tmp_path):
    out = dusk("prob", "highest(cancel(unpair(5d6), 3d6), default=0)", "--json", cwd=tmp_path)
    data = json.loads(out.stdout)
    assert data["exact"] is True and data["depth"] is None
    rows = data["questions"][0]["distribution"]
    assert rows[0]["value"] == 0 and rows[0]["p"] == "1013/139968"
    assert rows[0]["float"] == pytest.approx(1013 / 139968)
    assert sum(float(eval(r["p"])) for r in rows) == pytest.approx(1)    # noqa: S307 - our own fractions


def test_lets_ask_several_questions_of_one_roll(tmp_path):
    out = dusk("prob", "--let", "pool=5d10", "--let", "hits=count(pool, >= 8)", "--let", "ones=count(pool, == 1)",
               "max(0, hits - ones)", "ones > hits", "--json", cwd=tmp_path)
    data = json.loads(out.stdout)
    assert data["lets"] == {"pool": "5d10", "hits": "count(pool, >= 8)", "ones": "count(pool, == 1)"}
    assert [q["kind"] for q in data["questions"]] == ["number", "true/false"]


def test_the_chart_for_a_table(tmp_path):
    out = dusk("prob", "count((N)d10, >= D)", "--grid", "N=1..3", "--grid", "D=6..8", "--at-least", "1",
               cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Exact odds."
    assert lines[1] == "P(count((N)d10, >= D) >= 1), N down, D across"
    assert lines[3].split() == ["N\\D", "6", "7", "8"]
    assert lines[4].split() == ["1", "50.00%", "40.00%", "30.00%"]
    data = json.loads(dusk("prob", "count((N)d10, >= D)", "--grid", "N=1..3", "--grid", "D=6..8", "--at-least",
                           "1", "--json", cwd=tmp_path).stdout)
    assert data["rows"] == {"name": "N", "values": [1, 2, 3]} and data["columns"]["name"] == "D"
    assert data["cells"][1][0]["value"] == "3/4" and data["reads"] == "chance"


def test_explosions_print_their_depth(tmp_path):
    out = dusk("prob", "3d10!", "--depth", "3", cwd=tmp_path)
    assert out.stdout.startswith("Exact odds, with explosions followed 3 deep")


def test_a_ruleset_gives_its_params(tmp_path):
    source = str(RULESETS / "success-pool.yaml")
    expression = "1 if params.botch_rule == 'classic' else 0"
    classic = json.loads(dusk("prob", expression, "--ruleset", source, "--set", "botch_rule=classic", "--json",
                              cwd=tmp_path).stdout)
    revised = json.loads(dusk("prob", expression, "--ruleset", source, "--json", cwd=tmp_path).stdout)
    assert classic["questions"][0]["distribution"][0]["value"] == 1
    assert revised["questions"][0]["distribution"][0]["value"] == 0


def test_a_ruleset_is_loaded_and_checked_once(monkeypatch, capsys):
    """`--ruleset` with `--set` and a named formula: one load gives the params and the formulas
    (it was two loads, each reading, validating and checking the file)."""
    import ruleset_engine.ruleset as ruleset_package
    from ruleset_engine.ruleset import loader

    loads = []

    def counted(source):
        loads.append(source)
        return loader.load(source)

    monkeypatch.setattr(ruleset_package, "load", counted)
    source = str(RULESETS / "named-formulas.yaml")
    assert cli.main(["prob", "success(2d10, 6)", "--ruleset", source, "--set", "ones_cancel=false", "--json"]) == 0
    assert loads == [source]
    assert json.loads(capsys.readouterr().out)["exact"] is True


@pytest.mark.parametrize("args, message", [
    (["count(5d10 >= 6)"], "^"),
    (["highest(cancel(2d6, 3d6))"], "default="),
    (["'words'"], "numbers and true/false"),
    (["count(500d10, >= 6)"], "at most 100 dice"),
    (["2d6", "3d6", "--grid", "N=1..3"], "a chart (--grid) asks one expression"),
    (["2d6", "--at-least", "3"], "--grid"),
    (["2d6", "--let", "2=3"], "cannot be a name"),
    (["(N)d6", "--grid", "N=1..50", "--grid", "M=1..50"], "cells"),
    (["2d6!", "--depth", "99"], "--depth"),
    (["2d6", "--set", "x=1"], "--ruleset"),
    # a --grid name the expression never reads would chart one value everywhere
    (["count((params.dice)d10, >= 6)", "--grid", "dice=2..6"],
     "--grid dice: the expression does not read dice; it reads params.dice"),
    (["(N)d10", "--grid", "N=1..2", "--grid", "D=6..7"], "--grid D: the expression does not read D; it reads N"),
    (["count(5d10, >= 6)", "--grid", "dice=2..6"], "--grid dice: the expression reads no names"),
])
def test_bad_input_is_a_message_and_exit_2(args, message, capsys):
    assert cli.main(["prob", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dusk prob: ") and message in err and "Traceback" not in err


def test_a_grid_name_read_only_through_a_let_is_read(capsys):
    # P = N: the mean count of tens in 1d10 is 1/10, in 2d10 2/10
    assert cli.main(["prob", "count((P)d10, == 10)", "--let", "P=N", "--grid", "N=1..2"]) == 0
    out = capsys.readouterr().out
    assert "0.10" in out and "0.20" in out
