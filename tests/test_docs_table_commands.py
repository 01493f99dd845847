"""Every command docs/table.md shows works, not only those shown with their output.

Two kinds are found on the page:

- a `dusk ...` command line, in a `sh` block or in running text (a bare `dusk play`, naming the
  command, is not a command line; one with a placeholder in capitals, `--sheets DIR`, is a
  synopsis): it is run, from a folder of its own with a data directory of its own. One that would
  open the prompt is given `-c quit`; a `--script FILE` it names is written with one line; `dusk resume`
  finds a session to continue. It must exit 0, with no traceback;
- a command typed at the prompt, shown in running text (`conflict hour`, `roll hunter.life`,
  `auto 100`): the first word is one of the REPL's commands or an action of a bundled game, and no
  placeholder follows it. It is run through `-c` on each bundled game in turn (after the setup's
  answers, alone and then after one round played) until a game takes it with exit status 0; one that
  no game takes fails, with what each printed.

tests/test_docs_examples.py runs the examples shown with their output, and parses the others.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.repl.commands import BUILTINS
from ruleset_engine.ruleset import load

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "table.md"
ANALYSIS = ROOT / "docs" / "analysis" / "noche.md"
# The bundled games a prompt command is tried on, each with the answers its setup asks for.
GAMES = [("attack-of-the-vampires", []), ("noche-de-los-vampiros", ["2", "Ana", "Beto", "auto"]),
         ("vampire-the-masquerade", [])]
PLACEHOLDER = re.compile(r"\b[A-Z]+\b|\[")
# Spans that begin with a command's word but are shown as something else, with the page's reason.
NOT_COMMANDS = {
    "undo the past": "the page shows it as an answer to a question in words",
    "roll": "the command's name: it takes an expression, which the page's other spans give",
}
FOLLOW_UP = {"new": ["y"]}          # new asks first; an action's questions get their automatic answers


def spans(text: str) -> list[str]:
    return [s.strip() for s in re.findall(r"(?<!`)`([^`\n]+)`(?!`)", text)]


def sh_lines(text: str) -> list[str]:
    found, block = [], None
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            block = stripped[3:].strip() if block is None else None
            continue
        if block == "sh" and stripped.startswith("dusk "):
            found.append(stripped.split(" #")[0].strip())
    return found


def dusk_lines() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    lines = sh_lines(text) + [s for s in spans(text) if s.startswith("dusk ") and len(shlex.split(s)) > 2]
    return sorted({line for line in lines if not PLACEHOLDER.search(line)})


def action_words() -> set[str]:
    words = set()
    for name, _ in GAMES:
        words |= set(load(name).actions)
    return words


ACTIONS = action_words()


def prompt_commands() -> list[str]:
    words = set(BUILTINS) | ACTIONS
    found = []
    for span in spans(PAGE.read_text(encoding="utf-8")):
        first = span.split(" ")[0]
        if first in words and not PLACEHOLDER.search(span) and span not in NOT_COMMANDS and not span.endswith(":"):
            found.append(span)
    return sorted(set(found))


def run(argv: list[str], cwd: Path, data: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DUSK_DATA_DIR": str(data), "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


def test_the_page_shows_commands_of_both_kinds():
    # The finder can break: a page rewritten in another form would silently test nothing.
    assert "dusk play attack-of-the-vampires --seed 7 -c \"round; round; state\"" in dusk_lines()
    assert "dusk play --dice manual" in dusk_lines()
    commands = prompt_commands()
    assert {"conflict hour", "conflict scale=hour", "auto 100", "roll hunter.life", "help dice"} <= set(commands)
    assert "help [topic]" not in commands and "undo the past" not in commands


@pytest.mark.parametrize("line", dusk_lines())
def test_a_dusk_command_line_of_the_page_runs(line, tmp_path):
    data = tmp_path / "data"
    argv = shlex.split(line)[1:]
    if argv[0] in ("play", "resume") and not {"-c", "--script"} & set(argv):
        argv += ["-c", "quit"]                 # it would open the prompt: a script leaves at once
    if "--script" in argv:
        (tmp_path / argv[argv.index("--script") + 1]).write_text("round\nstatus\n", encoding="utf-8")
    if argv[0] == "resume":
        # A session played at the prompt for `dusk resume` to continue (the pointer a person's session sets).
        saved = tmp_path / "evening.dusk"
        made = run(["play", "attack-of-the-vampires", "--seed", "1", "--save", str(saved), "-c", "round"], tmp_path,
                   data)
        assert made.returncode == 0, made.stdout + made.stderr
        data.mkdir(exist_ok=True)
        (data / "last-session").write_text(str(saved), encoding="utf-8")
    done = run(argv, tmp_path, data)
    printed = done.stdout + done.stderr
    assert "Traceback" not in printed
    # Real dice ask for faces at once (the setup's roll): a script that leaves then ends on that question,
    # which is status 1 with the question said; nothing may be refused.
    asked = done.returncode == 1 and "The script ended with a question unanswered" in printed \
        and "--dice" in argv and "not a valid answer" not in printed
    assert done.returncode == 0 or asked, \
        f"{line} (run as dusk {shlex.join(argv)}) exits {done.returncode}:\n{printed}"


def analysis_lines() -> list[str]:
    return sh_lines(ANALYSIS.read_text(encoding="utf-8"))


def test_the_analysis_page_shows_its_commands():
    lines = analysis_lines()
    assert len(lines) == 3 and all(line.startswith("dusk simulate ") and "--json" in line for line in lines)
    # The script beside the page runs the same commands, at the page's N and seed, drawing its chart.
    import importlib.util

    spec = importlib.util.spec_from_file_location("noche_figures", ANALYSIS.parent / "noche.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    made = ["dusk " + command.format(n=1000, seed=1, plot="docs/analysis/noche-house.png")
            for _, command in script.FIGURES]
    assert made == lines


@pytest.mark.parametrize("line", analysis_lines())
def test_an_analysis_command_runs_at_a_small_n_with_the_fields_the_page_shows(line, tmp_path):
    import json

    argv = shlex.split(line)[1:]
    argv[argv.index("-n") + 1] = "8"
    if "--plot" in argv:
        argv[argv.index("--plot") + 1] = str(tmp_path / "chart.png")
    done = run(argv, ROOT, tmp_path / "data")
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout)
    for cell in found["cells"]:
        assert {"survivors", "deaths", "conflicts", "hour_deaths", "hour_conflicts"} <= set(cell["report"])
        assert set(cell["results"]) <= {"dawn", "nobody_alive"}
        # Survivors at dawn as a distribution; deaths and conflicts read as each Hour ends.
        assert sum(d["count"] for d in cell["report"]["survivors"]["distribution"]) == 8
        for name in ("hour_deaths", "hour_conflicts"):
            assert cell["report"][name]["per"]["level"] == "hour" and cell["report"][name]["per"]["iterations"]
    if "--plot" in argv:
        assert (tmp_path / "chart.png").stat().st_size > 0


@pytest.mark.parametrize("command", prompt_commands())
def test_a_prompt_command_of_the_page_runs_at_a_table(command, tmp_path):
    tried = []
    for game, setup in GAMES:
        for before in ([], ["auto"]):
            after = ["auto"] if command.split(" ")[0] in ACTIONS else FOLLOW_UP.get(command.split(" ")[0], [])
            script = "; ".join(setup + before + [command] + after)
            done = run(["play", game, "--seed", "1", "-c", script], tmp_path, tmp_path / "data")
            printed = done.stdout + done.stderr
            assert "Traceback" not in printed
            if done.returncode == 0:
                return
            tried.append(f"--- {game}: {script}\n{printed[-1500:]}")
    pytest.fail(f"no bundled game takes {command!r}:\n" + "\n".join(tried))
