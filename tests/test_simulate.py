"""`dusk simulate`: the report's shape, its determinism across workers, --set, and bad input."""

import json
import subprocess
import sys

from ruleset_engine.analysis.simulate import game_seed, simulate, wilson


def dusk(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_json_report_has_the_documented_shape():
    out = dusk("simulate", "attack-of-the-vampires", "-n", "60", "--seed", "5", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"ruleset", "seed", "games", "params", "results", "length", "report", "backend"}
    assert data["backend"] == "lockstep"     # auto: every construct of the game has a vector form
    assert data["games"] == 60 and data["seed"] == 5 and data["params"]["vampires"] == 3
    assert sum(r["count"] for r in data["results"].values()) == 60
    for r in data["results"].values():
        assert r["ci95"][0] <= r["rate"] <= r["ci95"][1]
    assert set(data["length"]) == {"mean", "median", "p90"}
    assert {"life", "vampires_left"} <= set(data["report"])
    # No progress bar on a pipe: only the backend played, and why.
    assert out.stderr == "dusk simulate: backend lockstep: every construct the ruleset uses has a vector form\n"


def test_same_seed_same_report_whatever_the_workers():
    one = simulate("attack-of-the-vampires", 40, seed=9, workers=1).to_json()
    two = simulate("attack-of-the-vampires", 40, seed=9, workers=2).to_json()
    assert one == two
    assert one != simulate("attack-of-the-vampires", 40, seed=10).to_json()


def test_set_overrides_params():
    data = simulate("attack-of-the-vampires", 20, seed=1, params={"vampires": "1", "garlic_on": "1"}).to_json()
    assert data["params"]["vampires"] == 1
    # garlic on every face: the hunter is never hurt, so every game is won
    assert data["results"] == {"won": {"count": 20, "rate": 1.0, "ci95": [data["results"]["won"]["ci95"][0], 1.0]}}


def test_a_test_ruleset_with_decisions_simulates_with_its_auto_answers(tmp_path):
    from pathlib import Path

    path = Path(__file__).parent / "rulesets" / "pool-conflict.yaml"
    out = dusk("simulate", str(path), "-n", "10", "--json", "--set", "hours=2", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["results"]["done"]["count"] == 10 and data["params"]["hours"] == 2


def test_bad_input_is_one_line():
    out = dusk("simulate", "attack-of-the-vampires", "-n", "5", "--set", "vampires=99")
    assert out.returncode == 2 and "above the maximum 20" in out.stderr and "Traceback" not in out.stderr
    out = dusk("simulate", "attack-of-the-vampires", "-n", "5", "--set", "vampire")
    assert out.returncode == 2 and "--set takes PARAM=VALUE" in out.stderr
    out = dusk("simulate", "no-such-game", "-n", "5")
    assert out.returncode == 1 and "no bundled ruleset 'no-such-game'" in out.stderr


def test_text_report():
    out = dusk("simulate", "attack-of-the-vampires", "-n", "30", "--seed", "2")
    assert out.returncode == 0
    assert "results:" in out.stdout and "95% CI" in out.stdout and "length in rounds: mean" in out.stdout


def test_seeds_and_intervals():
    assert game_seed(1, 0) != game_seed(1, 1) and game_seed(1, 0) == game_seed(1, 0)
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60


def test_a_progress_bar_on_a_terminal_for_a_long_run():
    import os

    import pexpect

    dusk_bin = os.path.join(os.path.dirname(sys.executable), "dusk")
    # Untraced: 8,000 games take it a few seconds (lockstep plays them in one range, well under a second).
    child = pexpect.spawn(dusk_bin, ["simulate", "attack-of-the-vampires", "-n", "8000", "--backend", "untraced"],
                          encoding="utf-8",
                          timeout=120, env=dict(os.environ, TERM="xterm-256color"))
    assert child.expect(["simulating", pexpect.EOF]) == 0   # shown once the run passes about a second
    child.expect("results:")
    child.expect(pexpect.EOF)


SURVIVORS = str(__import__("pathlib").Path(__file__).parent / "rulesets" / "survivors.yaml")


def test_a_report_value_shown_as_its_distribution_has_the_binomial_chances():
    # Each of 8 survives four hours with chance (5/6)^4: survivors are Binomial(8, 625/1296).
    from math import comb, sqrt
    p = (5 / 6) ** 4
    games = 20_000
    for backend in ("untraced", "lockstep"):
        report = simulate(SURVIVORS, games, seed=3, backend=backend).to_json()["report"]
        rows = report["survivors"]["distribution"]
        assert [row["value"] for row in rows] == sorted(row["value"] for row in rows)
        assert sum(row["count"] for row in rows) == games and {"mean", "median", "p90"} <= set(report["survivors"])
        for row in rows:
            want = comb(8, row["value"]) * p ** row["value"] * (1 - p) ** (8 - row["value"])
            assert abs(row["rate"] - want) <= 5 * sqrt(want * (1 - want) / games) + 1e-6, (backend, row, want)
            assert row["rate"] == round(row["count"] / games, 6)
        # A true/false value: false, then true; a value without distribution: has none.
        assert [row["value"] for row in report["all_alive"]["distribution"]] in ([False, True], [False])
        assert "distribution" not in report["half"]


def test_the_terminal_shows_a_distribution_as_bars_scaled_to_the_most_common_value():
    from ruleset_engine.cli import distribution_lines
    rows = [{"value": 0, "count": 1, "rate": 0.1}, {"value": 1, "count": 6, "rate": 0.6},
            {"value": 12, "count": 3, "rate": 0.3}]
    assert distribution_lines(rows, indent=2, width=6) == ["   0   10.00%  █", "   1   60.00%  ██████",
                                                           "  12   30.00%  ███"]
    out = dusk("simulate", SURVIVORS, "-n", "200", "--seed", "1")
    assert out.returncode == 0, out.stderr
    chart = out.stdout.split("survivors  mean", 1)[1].splitlines()[1:]
    assert chart and all("%" in line and "█" in line for line in chart[:3])
