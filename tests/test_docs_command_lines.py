"""Every `dusk ...` command line the README and docs/*.md show without output is run, not only parsed.

tests/test_docs_examples.py runs the examples shown with their output and only parses the others;
tests/test_docs_table_commands.py runs those of docs/table.md and docs/analysis/noche.md, and
tests/web/test_serve_cli.py runs `dusk serve` (which serves until stopped). This test runs the rest, each at a small N (`-n 20`, `--playouts 10`: what it shows is the command working,
not its numbers), from a folder of its own holding the files the pages name (`my-game.yaml`, a
copy of a bundled ruleset; `characters/`, a sheet of Ana), with a data directory of its own. Each
must exit 0, with no traceback.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_docs_examples import examples

ROOT = Path(__file__).resolve().parents[1]
# Run by tests/test_docs_table_commands.py, which knows what a table's command needs.
ELSEWHERE = {ROOT / "docs" / "table.md"}
SMALL = {"-n": "20", "--playouts": "10"}


def lines() -> list:
    # `dusk serve` serves until it is stopped: tests/web/test_serve_cli.py runs it, and stops it.
    return [e for e in examples() if e.output is None and e.page not in ELSEWHERE
            and shlex.split(e.command)[1:2] != ["serve"]]


def shrunk(argv: list[str]) -> list[str]:
    out = list(argv)
    for i, word in enumerate(out[:-1]):
        if word in SMALL:
            out[i + 1] = SMALL[word]
    return out


def test_the_pages_show_command_lines_without_output():
    found = lines()
    assert len(found) >= 15 and all(e.command.split()[0].endswith("dusk") for e in found)


@pytest.mark.parametrize("example", lines(), ids=str)
def test_a_command_line_of_the_docs_runs(example, tmp_path):
    shutil.copy(ROOT / "rulesets" / "attack-of-the-vampires.yaml", tmp_path / "my-game.yaml")
    shutil.copytree(ROOT / "characters", tmp_path / "characters")     # the sheets the checkout ships
    argv = shrunk(shlex.split(example.command)[1:])
    env = {**os.environ, "DUSK_DATA_DIR": str(tmp_path / "data"), "NO_COLOR": "1", "COLUMNS": "120"}
    done = subprocess.run([sys.executable, "-m", "ruleset_engine", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    printed = done.stdout + done.stderr
    assert done.returncode == 0 and "Traceback" not in printed, f"{example} (run as dusk {shlex.join(argv)}):\n{printed}"
