"""The `dusk` command beside `roll`: check, list, show, and what a person sees when something breaks."""

import subprocess
import sys

import pytest

from ruleset_engine import cli


def dusk(*args, cwd, env=None):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60, env=env)


def test_check_ok_is_one_line_per_ruleset(tmp_path):
    out = dusk("check", "attack-of-the-vampires", "attack-keep-sets", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("attack-of-the-vampires: ok: attack-of-the-vampires (Attack of the Vampires), ")
    assert lines[1].startswith("attack-keep-sets: ok: attack-keep-sets (")


def test_check_sheets_before_the_ruleset_as_a_sheet_file_shows_it(tmp_path):
    # rulesets/vampire-the-masquerade/ana.yaml: "`dusk check --sheets FILE RULESET` checks one".
    from pathlib import Path
    ana = Path(__file__).resolve().parents[1] / "rulesets" / "vampire-the-masquerade" / "ana.yaml"
    for args in (["--sheets", str(ana), "vampire-the-masquerade"], ["vampire-the-masquerade", "--sheets", str(ana)]):
        out = dusk("check", *args, cwd=tmp_path)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "ana.yaml: ok: Ana (character), " in out.stdout.splitlines()[-1]
    out = dusk("check", cwd=tmp_path)
    assert out.returncode == 2 and "name a ruleset FILE" in out.stderr


def test_check_of_a_missing_ruleset_is_a_problem_not_a_traceback(tmp_path):
    out = dusk("check", "no-such-game", str(tmp_path / "nowhere.yaml"), cwd=tmp_path)
    assert out.returncode == 1
    assert out.stdout.count("1 problem\n") == 2 and "no bundled ruleset 'no-such-game'" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_list_and_show(tmp_path):
    listed = dusk("list", cwd=tmp_path)
    assert listed.returncode == 0 and "attack-keep-sets" in listed.stdout and "(extends " in listed.stdout
    shown = dusk("show", "attack-keep-sets", cwd=tmp_path)
    assert shown.returncode == 0 and "extends:" in shown.stdout
    resolved = dusk("show", "attack-keep-sets", "--resolved", cwd=tmp_path)
    assert resolved.returncode == 0 and "resolved over rulesets/attack-of-the-vampires.yaml" in resolved.stdout
    missing = dusk("show", "no-such-game", cwd=tmp_path)
    assert missing.returncode == 1 and "no bundled ruleset" in missing.stderr and "Traceback" not in missing.stderr


def test_a_bug_is_one_line_naming_the_log(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("DUSK_DATA_DIR", str(tmp_path))

    def broken(args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(cli, "cmd_list", broken)
    assert cli.main(["list"]) == 70
    err = capsys.readouterr().err
    assert err == f"dusk: something went wrong inside dusk (a bug); the details are in {tmp_path / 'bugs.log'}\n"
    log = (tmp_path / "bugs.log").read_text()
    assert log.startswith("--- dusk list (") and "ZeroDivisionError: a bug" in log


@pytest.mark.parametrize("args, message", [
    (["simulate", "attack-of-the-vampires", "-n", "5", "--set", "nonsense"], "--set takes PARAM=VALUE"),
    (["simulate", "attack-of-the-vampires", "-n", "5", "--set", "nope=1"], "has no param 'nope'"),
])
def test_simulate_bad_arguments_exit_2(args, message, capsys):
    assert cli.main(args) == 2
    assert message in capsys.readouterr().err


def test_simulate_of_a_ruleset_without_params_shows_no_params_line(capsys):
    from pathlib import Path

    ruleset = Path(__file__).parent / "rulesets" / "end-at-once.yaml"      # no params:
    assert cli.main(["simulate", str(ruleset), "-n", "3", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("end-at-once: 3 games, seed 1") and lines[1] == "results:", lines
    assert not any(line.startswith("params:") for line in lines)


def test_simulate_of_a_ruleset_with_params_names_them(capsys):
    assert cli.main(["simulate", "attack-of-the-vampires", "-n", "3", "--seed", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("params: ")


def test_a_missing_script_file_is_one_line(tmp_path):
    import os

    out = dusk("play", "--seed", "1", "--script", str(tmp_path / "nowhere.txt"), cwd=tmp_path,
               env=dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data")))
    assert out.returncode == 2 and "nowhere.txt" in out.stdout and "Traceback" not in out.stdout + out.stderr


def test_version_is_the_packages(tmp_path):
    from importlib.metadata import version

    out = dusk("--version", cwd=tmp_path)
    assert out.returncode == 0 and out.stdout == f"dusk {version('dusk')}\n"


def test_play_exits_1_when_the_script_ends_with_a_question_waiting(tmp_path):
    import os

    from pathlib import Path

    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data"))
    ruleset = Path(__file__).resolve().parent / "rulesets" / "pool-conflict.yaml"
    out = dusk("play", str(ruleset), "--seed", "1", "-c", "conflict scene", cwd=tmp_path, env=env)
    assert out.returncode == 1, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[-2] == "P1: how many of your 10 dice do you risk? [a whole number from 1 to 10] >"
    assert lines[-1].startswith("The script ended with a question unanswered, so conflict was not played")
    answered = dusk("play", str(ruleset), "--seed", "1", "-c", "conflict scene; 3; 0; 2; 1", cwd=tmp_path, env=env)
    assert answered.returncode == 0, answered.stdout + answered.stderr


def test_play_with_real_dice_from_a_script_and_a_pipe(tmp_path):
    import os

    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data"))
    out = dusk("play", "--seed", "3", "--dice", "manual", "-c", "12; round; 6 2 6; status", cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Search: roll 3d6 [3 faces from 1 to 6, separated by spaces or commas] > 6 2 6\nSearch  6 2 6\n" in out.stdout
    assert out.stdout.endswith(" | dice: manual\n")
    # the faces from a pipe, one a line, as the lines of a script; a face off the die is refused: exit 1
    piped = subprocess.run([sys.executable, "-m", "ruleset_engine", "play", "--seed", "3", "--dice", "manual"],
                           input="12\nround\n6 2 9\n6 2 6\n", cwd=tmp_path, capture_output=True, text=True,
                           timeout=60, env=env)
    assert piped.returncode == 1
    assert "6 2 9 is not a valid answer: 9 is not on a d6" in piped.stdout and "Search  6 2 6\n" in piped.stdout
    assert "Traceback" not in piped.stdout + piped.stderr


@pytest.mark.parametrize("shape", ["a file", "a full disk"])
def test_a_bug_is_one_line_even_when_its_log_cannot_be_written(monkeypatch, tmp_path, capsys, shape):
    # issue 24.9: the bug reporter crashed (two chained tracebacks) when the data folder was a file.
    if shape == "a file":
        (tmp_path / "data").write_text("not a folder", encoding="utf-8")
        why = f"its details could not be written down (the data folder {tmp_path / 'data'} (DUSK_DATA_DIR) " \
              "cannot be used: it is a file, not a folder; set DUSK_DATA_DIR to a folder)"
    else:
        (tmp_path / "data").mkdir()
        (tmp_path / "data" / "bugs.log").symlink_to("/dev/full")     # every write: no space left
        why = f"its details could not be written down ({tmp_path / 'data' / 'bugs.log'}: disk full)"
    monkeypatch.setenv("DUSK_DATA_DIR", str(tmp_path / "data"))

    def broken(args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(cli, "cmd_list", broken)
    assert cli.main(["list"]) == 70
    assert capsys.readouterr().err == f"dusk: something went wrong inside dusk (a bug); {why}\n"


def test_sessions_with_a_data_folder_that_is_a_file_says_so(tmp_path):
    (tmp_path / "data").write_text("not a folder", encoding="utf-8")
    import os

    done = dusk("sessions", cwd=tmp_path, env={**os.environ, "DUSK_DATA_DIR": str(tmp_path / "data")})
    assert done.returncode == 1 and "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr == (f"dusk sessions: the data folder {tmp_path / 'data'} (DUSK_DATA_DIR) cannot be used: "
                           "it is a file, not a folder; set DUSK_DATA_DIR to a folder\n")
