"""`dusk simulate --sheets`: the sheets a run brings are made in every game, as `dusk play --sheets`
makes them at the table: checked before any game, the same with any number of workers, in either
backend; a sweep does not take them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.analysis.simulate import simulate
from ruleset_engine.errors import DuskError

TWINS = Path(__file__).resolve().parent / "rulesets" / "vtm-twins"


def dusk(*args):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], capture_output=True, text=True, timeout=300)


def test_brought_sheets_play_as_the_rulesets_own():
    # The duel of the bundled ruleset with the twins' sheets brought (Ana's in place of its own Ana,
    # Bea beside her) plays the very games of tests/rulesets/vtm-twins.yaml, whose own sheets they are:
    # the third character, Kojiro, stays out of the scene and rolls nothing.
    # So in each backend: untraced game for game, lockstep (the same dice for the same instances) too.
    for backend in ("untraced", "lockstep"):
        brought = simulate("vtm-duel", 300, seed=3, params={"defender": "Bea"}, sheets=[TWINS], backend=backend)
        own = simulate(str(TWINS.parent / "vtm-twins.yaml"), 300, seed=3, backend=backend)
        assert brought.backend == own.backend == backend
        assert brought.to_json()["results"] == own.to_json()["results"]
        assert brought.to_json()["report"] == own.to_json()["report"]
    # Without them, Bea is nobody: the duel's defender names a character (names: character), so the
    # run is refused before any game, naming the sheets there are.
    with pytest.raises(DuskError, match=r"param defender: no sheet of character is named 'Bea' \(the sheets: Ana, Kojiro\)"):
        simulate("vtm-duel", 20, seed=3, params={"defender": "Bea"})


def test_a_duel_with_no_sheet_of_that_name_exits_2_before_any_game():
    done = dusk("simulate", "vtm-duel", "-n", "50", "--set", "attacker=Ana", "--set", "defender=Brute")
    assert done.returncode == 2 and done.stdout == ""
    assert "param defender: no sheet of character is named 'Brute' (the sheets: Ana, Kojiro)" in done.stderr
    # The sheet brought by name, the duel is played.
    root = Path(__file__).resolve().parents[1]
    done = dusk("simulate", "vtm-duel", "-n", "20", "--sheets", str(root / "characters"), "--set", "defender=Brute")
    assert done.returncode == 0 and "attacker_wins" in done.stdout and "no_duel" not in done.stdout


def test_names_is_checked_at_the_table_too_and_in_the_ruleset(tmp_path):
    from ruleset_engine.ruleset import RulesetError, load
    from ruleset_engine.runtime import Game, GameError

    with pytest.raises(GameError, match="no sheet of character is named 'Nobody'"):
        Game.start(load("vtm-duel"), {"attacker": "Nobody"})
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: bad\ntitle: Bad\nparams:\n  who: {type: text, names: crew, default: A}\n"
                   "  n: {type: integer, names: crew, default: 1}\nentities:\n  crew: {count: 2, fields: {hp: 1}}\n"
                   "actions:\n  go: {steps: []}\n", encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load(str(bad))
    text = str(err.value)
    assert "names: the group 'crew' must be made from sheets only (count: 0 and a sheet:)" in text
    assert "names: is for a text param (the name of an instance), not a param of type integer" in text


def test_the_same_games_with_two_workers():
    one = simulate("vtm-duel", 200, seed=5, params={"defender": "Bea"}, sheets=[TWINS / "bea.yaml"])
    two = simulate("vtm-duel", 200, seed=5, params={"defender": "Bea"}, sheets=[TWINS / "bea.yaml"], workers=2)
    assert one.to_json()["results"] == two.to_json()["results"] and one.to_json()["report"] == two.to_json()["report"]


def test_a_bad_sheet_is_refused_with_its_place_before_any_game(tmp_path):
    (tmp_path / "bad.yaml").write_text("sheet: character\nname: Bad\ndexterity: 9\n", encoding="utf-8")
    with pytest.raises(DuskError, match=r"bad.yaml:3:12: dexterity must be 1..5"):
        simulate("vtm-duel", 10, sheets=[tmp_path])
    out = dusk("simulate", "vtm-duel", "-n", "10", "--sheets", str(tmp_path))
    assert out.returncode == 1 and "bad.yaml:3:12: dexterity must be 1..5 (at dexterity)" in out.stderr


def test_lockstep_takes_them_and_sweeps_do_not():
    out = dusk("simulate", "vtm-duel", "-n", "10", "--sheets", str(TWINS), "--set", "defender=Bea", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["backend"] == "lockstep", out.stderr
    out = dusk("simulate", "vtm-duel", "-n", "10", "--sheets", str(TWINS), "--sweep", "turns=1..2")
    assert out.returncode == 2 and out.stderr == "dusk simulate: --sheets goes with a plain run, not a --sweep\n"
