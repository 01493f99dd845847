"""Sheets (ruleset/sheets.py): instances written in files of their own, checked against the template
a group declares, every problem at its place in the sheet's file; made as the game starts, the
ruleset's first, then the table's, alike in both modes; refused templates at their place."""

import subprocess
import sys
from pathlib import Path

import pytest

import ruleset_engine as dusk
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.ruleset.sheets import read_all
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, resolve_params
from ruleset_engine.runtime.program import build
from ruleset_engine.runtime.run import Run

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "tests" / "rulesets" / "with-sheets.yaml"


def hunters(values):
    return {h["name"]: h for h in values["hunter"]}


def test_the_rulesets_sheets_are_made_as_the_game_starts():
    game = dusk.Game.start(load(str(RULESET)), seed=1)
    made = hunters(game.values)
    assert list(made) == ["Mara", "Tom"]
    assert (made["Mara"]["kind"], made["Mara"]["grit"], made["Mara"]["aim"], made["Mara"]["index"]) == ("ghoul", 3, 2, 1)
    assert made["Mara"]["wounds"]["marked"] == 1 and made["Mara"]["wounds"]["marks"] == ["deep"]
    assert (made["Tom"]["kind"], made["Tom"]["grit"], made["Tom"]["aim"], made["Tom"]["notes"]) == \
        ("human", 2, 0, "one line of notes")            # what a sheet leaves out keeps the group's value
    assert [e["name"] for e in game.log if e["kind"] == "create"] == ["Mara", "Tom"]


def write(folder, name, text):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_tables_sheets_come_after_and_both_modes_make_them_alike(tmp_path):
    ruleset = load(str(RULESET))
    write(tmp_path, "ines.yaml", "name: Ines\ngrit: 5\nwounds: {light: 2, deep: 1}\n")
    write(tmp_path, "notes.txt", "not a sheet")
    sheets = read_all([tmp_path], ruleset)
    game = dusk.Game.start(ruleset, seed=4, sheets=sheets)
    ines = hunters(game.values)["Ines"]
    assert (ines["index"], ines["grit"], ines["wounds"]["marks"]) == (3, 5, ["deep", "light", "light"])
    program = build(ruleset, resolve_params(ruleset, {}), traced=False, run_limits=DEFAULT_RUN_LIMITS)
    run = Run(traced=False, auto=True, max_steps=DEFAULT_RUN_LIMITS.max_steps,
              max_depth=DEFAULT_RUN_LIMITS.max_call_depth)
    run.sheets = tuple(sheets)
    entry = program.bind(__import__("random").Random(4).randint, run)
    entry["start"]()
    assert entry["values"]()["hunter"] == game.values["hunter"]


BAD = """\
sheet: hunter
name: Bad
kind: werewolf
traits:
  grit: 7
  aim: two
gritt: 1
grit: 2
wounds: {deep: 1, burn: 1, light: -1}
"""


def test_every_problem_of_a_sheet_at_its_place(tmp_path):
    path = write(tmp_path, "bad.yaml", BAD)
    with pytest.raises(RulesetError) as err:
        read_all([path], load(str(RULESET)))
    assert [str(p).split(" (at ")[0] for p in err.value.problems] == [
        f"{path}:3:7: kind must be one of human, ghoul, not 'werewolf'",
        f"{path}:5:9: grit must be 1..5",
        f"{path}:6:8: aim must be 0..5",
        f"{path}:7:1: 'gritt' is not a field a sheet of hunter may give (did you mean grit?)",
        f"{path}:8:1: grit is given twice on this sheet",
        f"{path}:9:19: the track wounds takes marks of light, deep, not 'burn'",
        f"{path}:9:35: wounds.light must be 0..1000 (boxes marked)",
    ]


@pytest.mark.parametrize("text, message", [
    ("grit: 2\n", ":1:1: name: the instance's name, a text of 1 to 80 characters on one line"),
    ("sheet: ghost\nname: A\n", ":1:8: sheet: names the group this sheet belongs to (hunter), not 'ghost'"),
    ("- a\n- b\n", ":1:1: a sheet is a mapping of keys: name:, then its fields and tracks"),
    ("name: A\nnotes: [1, 2]\n", ":2:8: notes must be a text"),
    ("name: A\nkind: [\n", ":3:1: YAML: "),
    ("name: A\nwounds: 3\n", ":2:9: wounds takes the boxes marked: {light: 1}"),
    # four boxes: 1000 of each once passed and were cut to four without a word
    ("name: A\nwounds: {deep: 3, light: 2}\n", ":2:9: wounds has 4 boxes: 5 cannot be marked"),
])
def test_a_sheet_that_cannot_be_read_says_why(tmp_path, text, message):
    path = write(tmp_path, "s.yaml", text)
    with pytest.raises(RulesetError) as err:
        read_all([path], load(str(RULESET)))
    assert str(err.value.problems[0]).startswith(f"{path}{message}"), str(err.value)


def test_two_sheets_of_one_name_a_sheet_in_place_of_the_rulesets_and_its_own(tmp_path):
    ruleset = load(str(RULESET))
    write(tmp_path / "a", "one.yaml", "name: Ines\n")
    write(tmp_path / "a", "two.yaml", "name: ines\n")
    with pytest.raises(RulesetError) as err:
        read_all([tmp_path / "a"], ruleset)
    assert "'ines' is the name of another sheet" in str(err.value)
    # A sheet the table brings, named like one of the ruleset's, takes its place (an exported one).
    write(tmp_path / "b", "mara.yaml", "name: Mara\ngrit: 5\n")
    game = dusk.Game.start(ruleset, seed=1, sheets=read_all([tmp_path / "b"], ruleset))
    assert [(h["name"], h["grit"], h["kind"]) for h in game.values["hunter"]] == [("Tom", 2, "human"), ("Mara", 5, "human")]
    # The ruleset's own sheet, named again, is checked and left out (the game has it already).
    assert read_all([ROOT / "tests" / "rulesets" / "with-sheets" / "mara.yaml"], ruleset) == []


def test_a_folder_is_not_a_sheet_and_a_ruleset_without_templates_reads_none(tmp_path):
    with pytest.raises(RulesetError) as err:
        read_all([tmp_path], load("attack-of-the-vampires"))
    assert "reads no sheets" in str(err.value)


TEMPLATE = """\
ruleset: r
title: r
entities:
  one: {fields: {a: 1}, sheet: {fields: {a: {}}}}
  band:
    count: 0
    fields: {a: 1, t: {text: ""}}
    tracks: {hp: {boxes: 3}}
    sheet:
      fields:
        b: {}
        a: {min: 3, max: 2, choices: [x]}
        t: {min: 1}
      tracks: [hq]
      files: [../outside.yaml, nowhere.yaml, notes.txt]
"""


def test_the_checker_refuses_a_template_at_its_place(tmp_path):
    path = write(tmp_path / "r", "r.yaml", TEMPLATE)
    with pytest.raises(RulesetError) as err:
        load(str(path))
    messages = [p.message for p in err.value.problems]
    for expected in [
        "sheet: makes instances of a group: give it count: (0 when sheets make them all)",
        "the group has no field 'b'",
        "a is a number: give it min:/max:, not choices:",
        "min 3 is above max 2",
        "t is a text: give it choices:, not min:/max:",
        "the group has no track 'hq'",
        "sheet: '../outside.yaml' is outside the folder of the ruleset that includes it; a ruleset includes files in its own folder or below",
        "sheet: there is no file 'nowhere.yaml' (a path is read from the folder of the file that names it)",
        "sheet: names a .yaml file, not 'notes.txt'",
    ]:
        assert any(m.startswith(expected) for m in messages), (expected, messages)
    assert all(p.position is not None for p in err.value.problems)


def dusk_cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_dusk_check_checks_sheets_against_a_ruleset(tmp_path):
    write(tmp_path, "ok.yaml", "name: Ines\ngrit: 4\n")
    out = dusk_cli("check", str(RULESET), "--sheets", "ok.yaml", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[1] == "ok.yaml: ok: Ines (hunter), 1 field"
    write(tmp_path, "bad.yaml", "name: Bad\ngrit: 9\n")
    out = dusk_cli("check", str(RULESET), "--sheets", "bad.yaml", cwd=tmp_path)
    assert out.returncode == 1
    assert out.stdout.splitlines()[1:] == ["bad.yaml:2:7: grit must be 1..5 (at grit)", "1 problem"]


def test_confusable_sheet_names_are_one_name_and_mixed_scripts_are_refused(tmp_path):
    # issue 24 (16): full-width Ｂｏｂ is Bob after NFKC; Bοb (a Greek omicron) mixes scripts.
    ruleset = load(str(RULESET))
    write(tmp_path / "a", "one.yaml", "name: Bob\n")
    write(tmp_path / "a", "two.yaml", "name: Ｂｏｂ\n")
    with pytest.raises(RulesetError) as err:
        read_all([tmp_path / "a"], ruleset)
    assert "'Ｂｏｂ' is the name of another sheet" in str(err.value)
    path = write(tmp_path / "b", "greek.yaml", "name: Bοb\n")
    with pytest.raises(RulesetError) as err:
        read_all([path], ruleset)
    assert [str(p) for p in err.value.problems] == [
        f"{path}:1:7: name: it mixes Latin and Greek letters, so it could look like another name; write it in "
        "one script (at name)"]


def test_the_problems_of_many_sheets_are_the_first_ones_and_a_count(tmp_path):
    # issue 24 (6): every problem of every sheet was kept (40 sheets of 150,000 unknown fields: a
    # MemoryError); now the first 100 and how many more. Here 3 sheets of 400 unknown fields.
    from ruleset_engine.ruleset.problems import MAX_KEPT

    for n in range(3):
        write(tmp_path / "many", f"s{n}.yaml", f"name: S{n}\n" + "".join(f"x{k}: 1\n" for k in range(400)))
    with pytest.raises(RulesetError) as err:
        read_all([tmp_path / "many"], load(str(RULESET)))
    assert len(err.value.problems) == MAX_KEPT == 100
    assert err.value.problems.total == 1200
    assert str(err.value).endswith("\n1,200 problems (the first 100 shown)")
    out = dusk_cli("check", str(RULESET), "--sheets", str(tmp_path / "many"), cwd=tmp_path)
    assert out.returncode == 1 and out.stdout.endswith("\n1,200 problems (the first 100 shown)\n")
    assert out.stdout.count("\n") == 102 and "Traceback" not in out.stderr
