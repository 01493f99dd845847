"""What `dusk` writes to a pipe or a file: whole lines, never broken to fit a width."""

import os
import re
import subprocess
import sys
from pathlib import Path

RULESET = Path(__file__).resolve().parents[1] / "rulesets" / "attack-of-the-vampires.yaml"
DUSK = str(Path(sys.executable).parent / "dusk")


def broken_ruleset(tmp_path) -> Path:
    folder = tmp_path / ("a-folder-with-a-long-name-" * 3) / "and-another-folder-below-it"
    folder.mkdir(parents=True)
    path = folder / "a-broken-ruleset-whose-name-is-long-too.yaml"
    path.write_text(RULESET.read_text("utf-8").replace("max: 1000", "max: lots_of_rounds"), encoding="utf-8")
    return path


def test_a_place_in_a_ruleset_stays_on_one_line_in_a_pipe(tmp_path):
    path = broken_ruleset(tmp_path)
    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data"), COLUMNS="40")
    line = next(n for n, text in enumerate(path.read_text("utf-8").splitlines(), 1) if "lots_of_rounds" in text)
    expected = f"{path}:{line}:10: expected a whole number, not the text 'lots_of_rounds' (at loop[0].max)"
    assert len(expected) > 150
    for args in (["check", str(path)], ["play", str(path), "-c", "state"], ["simulate", str(path), "-n", "2"]):
        out = subprocess.run([DUSK, *args], capture_output=True, text=True, env=env, timeout=60)
        assert out.returncode != 0, args
        assert expected in (out.stdout + out.stderr).splitlines() or \
            any(line.endswith(expected) for line in (out.stdout + out.stderr).splitlines()), args


def test_the_table_writes_whole_lines_to_a_pipe(tmp_path):
    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "d" / ("deep-folder-name-" * 6)), COLUMNS="40")
    out = subprocess.run([DUSK, "play", "--seed", "3", "-c", "help; help nothing-of-the-kind"], capture_output=True,
                         text=True, env=env, timeout=60)
    lines = out.stdout.splitlines()
    first = lines[0]
    assert re.fullmatch(r"Attack of the Vampires\. A new game, seed 3, saved in .+\.dusk\.", first), first
    assert any(line.startswith("no help for 'nothing-of-the-kind'; help takes one of: ")
               and line.endswith(", dice, steps, formulas") for line in lines)
    assert "help ACTION or help COMMAND for more; help dice for the dice language, help steps for the steps of " \
           "a ruleset." in lines
