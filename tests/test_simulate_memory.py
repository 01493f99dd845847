"""`dusk simulate` keeps running summaries, not a record per game: its peak memory does not grow with
the number of games, and a number of games no machine could play is refused before the first."""

import subprocess
import sys
import textwrap

QUICK = textwrap.dedent("""\
    ruleset: quick
    title: Quick
    state: {score: 0, lucky: false}
    loop:
      - name: round
        max: 1
        steps:
          - roll: {d: 1d100}
          - set: {score: "sum(d) * 7 + 3d6", lucky: "sum(d) > 90"}
    report: {score: score, lucky: lucky}
    """)

PEAK = """
import resource, sys
from ruleset_engine.analysis.simulate import simulate
data = simulate(sys.argv[1], int(sys.argv[2]), seed=1).to_json()
assert data["games"] == int(sys.argv[2]), data
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_kib(path, games: int) -> int:
    out = subprocess.run([sys.executable, "-c", PEAK, str(path), str(games)], capture_output=True, text=True,
                         timeout=600, check=True)
    return int(out.stdout.strip())


def test_peak_memory_does_not_grow_with_the_number_of_games(tmp_path):
    path = tmp_path / "quick.yaml"
    path.write_text(QUICK, encoding="utf-8")
    small = peak_kib(path, 1_000)
    large = peak_kib(path, 100_000)
    # A record per game (the result, the rounds, a report of two values) would add well over 10 MB
    # at 100,000 games; running summaries add the histogram of ~700 distinct scores.
    assert large - small < 4 * 1024, f"peak memory grew from {small} KiB to {large} KiB"


def test_a_number_of_games_no_machine_could_play_is_refused_at_once():
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "simulate", "attack-of-the-vampires", "-n",
                          str(10**15)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "-n takes 1 to" in out.stderr and "Traceback" not in out.stderr
