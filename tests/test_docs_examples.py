"""Every `dusk ...` example in the README and docs/*.md agrees with the program.

Two kinds of example are found in the fenced blocks of the Markdown:

- a line `$ dusk ARGS` followed by lines of output: the command is run (from the repository's
  root, in a fresh data directory, its output on a pipe) and what it prints, standard output
  then standard error, must equal those lines. A line `...` stands for any number of lines and
  `...` inside a line for any text (a fresh path, say), as in doctest;
- a line `dusk ARGS` (or `.venv/bin/dusk ARGS`) in a `sh` block, shown without output: its
  arguments must parse as the command line says (an option that does not exist, or a value
  of the wrong type, fails), without running it.

A synopsis with [optional] parts is not an example: it is written in a `text` block. The
tutorial's examples are run by tests/test_tutorial.py (which can also rewrite them), with the
`pattern` and `run_dusk` of this module.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from ruleset_engine import cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "tutorial.md")]
PROGRAM = ("dusk", ".venv/bin/dusk")


@dataclass
class Example:
    page: Path
    line: int
    command: str
    output: list[str] | None      # None: shown without output, only parsed

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}: {self.command}"


def _blocks(path: Path):
    """(first line number, language, lines) of each fenced block of a page."""
    block, language, first = None, "", 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("```"):
            if block is None:
                block, language, first, indent = [], stripped[3:].strip(), number + 1, len(raw) - len(raw.lstrip())
            else:
                yield first, language, block
                block = None
            continue
        if block is not None:
            block.append(raw[indent:] if raw[:indent].strip() == "" else raw)


def examples() -> list[Example]:
    found = []
    for page in PAGES:
        for first, language, lines in _blocks(page):
            i = 0
            while i < len(lines):
                line = lines[i]
                if line.startswith("$ "):
                    j = i + 1
                    while j < len(lines) and not lines[j].startswith("$ "):
                        j += 1
                    output = lines[i + 1:j]
                    while output and not output[-1].strip():
                        output.pop()
                    found.append(Example(page, first + i, line[2:], output))
                    i = j
                    continue
                words = line.split("#")[0].strip()
                if language == "sh" and words.split(" ", 1)[0] in PROGRAM:
                    found.append(Example(page, first + i, words, None))
                i += 1
    return found


EXAMPLES = examples()


def pattern(expected: list[str]) -> re.Pattern:
    """The output shown as a pattern, as doctest reads it: a line `...` stands for any lines, and
    `...` inside a line for any text."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.rstrip().split("...")) + r"[ \t]*\n")
    return re.compile("".join(parts))


def test_the_pages_have_examples_of_both_kinds():
    # The finder itself can break: a page rewritten in another format would silently test nothing.
    run = [e for e in EXAMPLES if e.output is not None]
    parsed = [e for e in EXAMPLES if e.output is None]
    assert len(run) >= 8 and len(parsed) >= 8
    assert {e.page.name for e in run} >= {"README.md", "dice-language.md", "simulate.md"}


def test_the_pattern_matches_as_doctest_does():
    assert pattern(["a ... z", "...", "end"]).fullmatch("a b c z\nx\ny\nend\n")
    assert not pattern(["a", "b"]).fullmatch("a\nc\n")
    assert pattern(["a", "...", "b"]).fullmatch("a\nb\n")


def run_dusk(command: str, data_dir: Path) -> str:
    """A `dusk ...` line as a reader runs it: from the top of the checkout, in a data directory of
    its own, its output on a pipe; what it prints, standard output then standard error."""
    argv = shlex.split(command)
    assert argv[0] in PROGRAM, f"{command}: an example runs dusk"
    env = {**os.environ, "DUSK_DATA_DIR": str(data_dir), "NO_COLOR": "1", "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "ruleset_engine", *argv[1:]], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.output is not None], ids=str)
def test_a_shown_command_prints_what_the_page_shows(example, tmp_path):
    printed = run_dusk(example.command, tmp_path)
    assert "Traceback" not in printed
    expected = pattern(example.output)
    assert expected.fullmatch(printed), (
        f"{example}\n--- the page shows:\n" + "\n".join(example.output) + "\n--- dusk printed:\n" + printed)


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.output is None], ids=str)
def test_a_command_line_in_the_docs_parses(example, capsys):
    argv = shlex.split(example.command)[1:]
    try:
        cli.build_parser().parse_args(argv)
    except SystemExit as stop:
        pytest.fail(f"{example}: {capsys.readouterr().err.strip()} (exit {stop.code})")


def test_the_generated_code_shown_in_engine_md_is_what_dusk_writes():
    # docs/engine.md shows the procedure `attack` of the bundled game and the code written for it
    # in both modes; the page and the program must not drift apart.
    from ruleset_engine.ruleset import load
    from ruleset_engine.runtime import RunLimits, resolve_params
    from ruleset_engine.runtime.program import build

    page = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    ruleset = load("attack-of-the-vampires")
    shown = 0
    for mode in ("untraced", "traced"):
        marker = f"<!-- generated: {mode} attack -->\n```python\n"
        start = page.index(marker) + len(marker)
        block = page[start:page.index("```", start)]
        source = build(ruleset, resolve_params(ruleset, {}), traced=mode == "traced", run_limits=RunLimits()).source
        assert block in source, f"docs/engine.md: the {mode} code shown is not what dusk writes now"
        shown += 1
    assert shown == 2


def notebook_cells(page: Path) -> list[str]:
    """The `python` blocks of a page, in order: the cells of a notebook."""
    return ["\n".join(lines) for _, language, lines in _blocks(page) if language == "python"]


@pytest.mark.timeout(900)
def test_the_notebook_page_runs_and_draws_its_chart(tmp_path, monkeypatch, capsys):
    # docs/notebooks.md: its cells run in order in one namespace, as a notebook runs them, in a
    # folder of their own; the chart it commits is the one it draws.
    page = ROOT / "docs" / "notebooks.md"
    cells = notebook_cells(page)
    assert len(cells) >= 5
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("DUSK_DATA_DIR", str(tmp_path / "data"))
    namespace: dict = {}
    for cell in cells:
        exec(compile(cell, str(page), "exec"), namespace)    # noqa: S102 - the page's own cells
    chart = tmp_path / "notebooks-survivors.png"
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "notebooks-survivors.png" in page.read_text(encoding="utf-8")
    assert (ROOT / "docs" / "notebooks-survivors.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    games, survivors = namespace["games"], namespace["survivors"]
    assert len(games) == 25 * 8 and {"game", "seed", "players", "cancelled_dice_to_pool", "survivors"} <= set(games)
    assert list(survivors.index) == [3, 4, 5, 6] and survivors.shape == (4, 2)
    for players, row in survivors.iterrows():       # a mean of survivors lies between none and everyone
        assert all(0 <= value <= players for value in row)
    odds = namespace["odds"]
    assert abs(odds["p"].sum() - 1) < 1e-9 and list(odds["value"]) == [0, 1, 2, 3, 4, 5]
    assert len(namespace["pairs"]) == 20
