"""`dusk roll` as a person runs it: from another folder, through the installed entry point."""

import json
import subprocess
import sys

import pytest


def dusk(*args, cwd):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def test_roll_prints_the_expression_every_die_and_the_value(tmp_path):
    out = dusk("roll", "4d6kh3", "--seed", "3", cwd=tmp_path)
    assert out.returncode == 0
    first = out.stdout.splitlines()[0]
    assert first.startswith("4d6kh3  ")
    faces = first.split("  ")[1].split(" =")[0].split()
    assert len(faces) == 4 and sum(f.endswith("✗") for f in faces) == 1
    kept = [int(f) for f in faces if not f.endswith("✗")]
    assert f"= {sum(kept)}" in first
    assert "✗ dropped" in out.stdout


def test_same_seed_same_output(tmp_path):
    a = dusk("roll", "10d10!>=9 + count(6d6, >= 4)", "--seed", "11", cwd=tmp_path)
    b = dusk("roll", "10d10!>=9 + count(6d6, >= 4)", "--seed", "11", cwd=tmp_path)
    assert a.stdout == b.stdout and a.returncode == 0


def test_json_is_one_stable_object(tmp_path):
    out = dusk("roll", "count(5d10, >= 6)", "--seed", "1", "--json", cwd=tmp_path)
    data = json.loads(out.stdout)
    assert set(data) >= {"expression", "value", "dice", "steps", "pool", "seed"}
    assert data["expression"] == "count(5d10, >= 6)" and data["seed"] == 1
    assert len(data["dice"]) == 5
    assert data["value"] == sum(d["fate"] == "counted" for d in data["dice"])
    assert all(d["face"] >= 6 for d in data["dice"] if d["fate"] == "counted")
    assert all(d["face"] < 6 for d in data["dice"] if d["fate"] != "counted")


@pytest.mark.parametrize("expr, message", [
    ("2d", "expected a number after 'd'"),
    ("1d6rr<7", "would never end"),
    ("1000000d1000000", "too many dice in one pool"),
])
def test_bad_expression_exits_2_with_a_caret_and_no_traceback(tmp_path, expr, message):
    out = dusk("roll", expr, cwd=tmp_path)
    assert out.returncode == 2
    assert message in out.stderr
    assert "^" in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_ascii_mode_uses_no_symbols_outside_ascii(tmp_path):
    out = dusk("roll", "4d6kh3 + count(3d6, >= 4)", "--seed", "2", "--ascii", cwd=tmp_path)
    assert out.stdout.isascii() and "x dropped" in out.stdout


def test_roll_imports_the_dice_layer_only(tmp_path):
    """Start-up stays quick: `dusk roll` loads the dice language, not the rulesets, the runtime or the table."""
    code = ("import sys; from ruleset_engine.cli import main; main(['roll', '4d6kh3', '--seed', '1']); "
            "print(' '.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    loaded = set(out.stdout.splitlines()[-1].split())
    ours = {name for name in loaded if name.startswith("ruleset_engine.")}
    # argparse_words: the command line's own words in the table's language (a part of the command, like cli)
    # cache: the cache folder of the parses remembered (at the bottom, beside errors)
    assert ours and all(name.split(".")[1] in ("cli", "argparse_words", "errors", "i18n", "cache", "dice", "grammar")
                        for name in ours), sorted(ours)
    assert not loaded & {"yaml", "jsonschema", "prompt_toolkit", "rich", "sqlite3"}
    assert "babel" not in {name.split(".")[0] for name in loaded}     # English reads no catalog


def test_importing_the_package_imports_no_library(tmp_path):
    code = "import sys, ruleset_engine; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    loaded = set(out.stdout.split())
    assert not loaded & {"lark", "yaml", "jsonschema", "prompt_toolkit", "rich"}
    assert not {name for name in loaded if name.startswith("ruleset_engine.")}


def test_spaces_around_the_expression_change_nothing(tmp_path):
    plain = dusk("roll", "4d6", "--seed", "5", cwd=tmp_path)
    spaced = dusk("roll", "  4d6 ", "--seed", "5", cwd=tmp_path)
    assert spaced.returncode == 0 and spaced.stdout == plain.stdout
    assert spaced.stdout.startswith("4d6  ") and spaced.stdout.count("\n") == 1
    as_json = json.loads(dusk("roll", " 4d6 ", "--seed", "5", "--json", cwd=tmp_path).stdout)
    assert as_json["expression"] == "4d6"
