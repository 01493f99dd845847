"""Arguments at their edges (issue 9, class 11): a bad --set is refused before any game (exit 2),
--workers is capped at the CPUs, and --script takes only a readable text file; each in plain words,
never a traceback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

DUSK = str(Path(sys.executable).parent / "dusk")


def dusk(*args, data_dir, timeout=60):
    return subprocess.run([DUSK, *args], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, DUSK_DATA_DIR=str(data_dir)))


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


@pytest.mark.parametrize("value, reads", [("abc", "abc"), ("hunter.life + 1d6", "hunter.life"),
                                          ("(params.life_roll)d6", "params.life_roll"), ("vampires", "vampires")])
def test_a_dice_param_that_reads_what_is_not_there_is_refused_before_any_game(data_dir, value, reads):
    for command in (["simulate", "attack-of-the-vampires", "-n", "5"], ["play", "-c", "round"]):
        out = dusk(*command, "--set", f"life_roll={value}", data_dir=data_dir)
        text = out.stdout + out.stderr
        assert out.returncode == 2, text
        assert f"param life_roll: {value!r} reads {reads}, which a dice param cannot" in text
        assert "game 0" not in text and "Traceback" not in text and "a bug" not in text
    assert not (data_dir / "sessions").exists() or not list((data_dir / "sessions").iterdir())
    # what it may read: the other params
    ok = dusk("simulate", "attack-of-the-vampires", "-n", "5", "--set", "life_roll=(params.vampires)d6 + 3",
              data_dir=data_dir)
    assert ok.returncode == 0, ok.stderr


def test_workers_are_capped_at_the_cpus_and_it_is_said(data_dir):
    cpus = len(os.sched_getaffinity(0))
    out = dusk("simulate", "attack-of-the-vampires", "-n", "40", "--workers", "100", data_dir=data_dir)
    assert out.returncode == 0
    assert out.stderr == (f"dusk simulate: --workers 100 is more than the {cpus} CPU{'s' if cpus != 1 else ''} "
                          f"here; using {cpus}\n"
                          "dusk simulate: backend lockstep: every construct the ruleset uses has a vector form\n")
    assert f"{cpus} worker" in out.stdout
    capped = dusk("simulate", "attack-of-the-vampires", "-n", "40", "--workers", str(cpus), "--json",
                  data_dir=data_dir)
    assert capped.stderr == "dusk simulate: backend lockstep: every construct the ruleset uses has a vector form\n"
    # the siblings that share the workers: a sweep, and dusk compare
    sweep = dusk("simulate", "attack-of-the-vampires", "-n", "20", "--sweep", "vampires=2..3", "--workers", "64",
                 data_dir=data_dir)
    assert sweep.returncode == 0 and sweep.stderr.startswith("dusk simulate: --workers 64 is more than the ")
    compare = dusk("compare", "attack-of-the-vampires", "attack-of-the-vampires", "-n", "20", "--workers", "64",
                   data_dir=data_dir)
    assert compare.returncode == 0 and compare.stderr.startswith("dusk compare: --workers 64 is more than the ")


def test_a_number_of_games_past_the_limit_is_refused(data_dir):
    out = dusk("simulate", "attack-of-the-vampires", "-n", str(10**13), data_dir=data_dir)
    assert out.returncode == 2 and "-n takes 1 to 1,000,000,000,000 games" in out.stderr


def test_script_files_at_their_edges(tmp_path, data_dir):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("round\nstatus # café\n".encode("latin-1"))
    nul = tmp_path / "nul.txt"
    nul.write_bytes(b"round\n\0status\n")
    big = tmp_path / "big.txt"
    big.write_bytes(b"status\n" * (5 * 1024 * 1024 // 7 + 1))
    os.mkfifo(tmp_path / "pipe.txt")           # read, it would wait forever for a writer
    cases = [(tmp_path / "missing.txt", ":1:1: cannot read the file: No such file or directory"),
             (tmp_path, ":1:1: this is a folder, not a script"),
             (tmp_path / "pipe.txt", ":1:1: this is a named pipe, not a script"),
             (latin, ":2:13: this is not UTF-8 text (byte 0xe9 here); save the script as UTF-8"),
             (nul, ":2:1: this is not a text file (it holds NUL bytes)"),
             (big, ":1:1: the file is 5.0 MB; a script over 5 MB is refused")]
    for path, said in cases:
        out = dusk("play", "--seed", "1", "--script", str(path), data_dir=data_dir, timeout=20)
        assert out.returncode == 2, out.stdout + out.stderr
        assert f"--script {path}{said}" in out.stdout, out.stdout
        assert "Traceback" not in out.stdout + out.stderr
    good = tmp_path / "moves.txt"
    good.write_text("round\nstatus\n", encoding="utf-8")
    assert dusk("play", "--seed", "1", "--script", str(good), data_dir=data_dir).returncode == 0
