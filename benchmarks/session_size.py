"""What a session file and a resume cost at full size (issue 24.4), measured on whole `dusk` processes.

Two rulesets of tests/rulesets/heavy/: crowd.yaml (10,000 instances, each round changes one of them) and
chatty.yaml (an action of N long lines). For each: the session file's size after the start and after
more rounds (so the bytes a round adds), the peak memory (max RSS) of the playing process and of a
`dusk resume` of the file. The sizes the tests hold at a small scale, here at the issue's:

    python benchmarks/session_size.py [--rounds 40] [--lines 30000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
DUSK = str(Path(sys.executable).parent / "dusk")


def run(*args, data: Path) -> tuple[float, int]:
    """(seconds, peak memory in KB) of one dusk process."""
    done = subprocess.run(["/usr/bin/time", "-f", "%e %M", DUSK, *args], capture_output=True, text=True,
                          env={"DUSK_DATA_DIR": str(data), "PATH": "/usr/bin:/bin"})
    seconds, kb = done.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kb)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--lines", type=int, default=30_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        crowd = str(HERE / "tests" / "rulesets" / "heavy" / "crowd.yaml")
        sizes = []
        for rounds in (1, 1 + args.rounds):
            path = data / f"crowd-{rounds}.dusk"
            seconds, kb = run("play", crowd, "--seed", "1", "--save", str(path), "-c", f"auto {rounds}", data=data)
            sizes.append(path.stat().st_size)
            print(f"crowd, auto {rounds}: {sizes[-1]:,} bytes, {seconds:.1f} s, {kb:,} KB peak")
        print(f"crowd: {(sizes[1] - sizes[0]) / args.rounds:,.0f} bytes a round")
        seconds, kb = run("resume", str(data / f"crowd-{1 + args.rounds}.dusk"), "-c", "status", data=data)
        print(f"crowd: resume {seconds:.1f} s, {kb:,} KB peak")
        chatty = str(HERE / "tests" / "rulesets" / "heavy" / "chatty.yaml")
        path = data / "chatty.dusk"
        seconds, kb = run("play", chatty, "--set", f"lines={args.lines}", "--save", str(path), "-c", "talk",
                          data=data)
        print(f"chatty, {args.lines:,} lines: {path.stat().st_size:,} bytes, {seconds:.1f} s, {kb:,} KB peak")
        seconds, kb = run("resume", str(path), "-c", "status", data=data)
        print(f"chatty: resume {seconds:.1f} s, {kb:,} KB peak")


if __name__ == "__main__":
    main()
