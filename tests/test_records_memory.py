"""`--records FILE.parquet` writes the rows as the games end: the peak memory of a run with records
does not grow with the number of games (the rows of a range, then of a row group, are all it holds)."""

import subprocess
import sys
from pathlib import Path

import pytest

RULESET = Path(__file__).parent / "analysis" / "rulesets" / "records.yaml"

PEAK = """
import resource, sys
import pyarrow.parquet as pq
from ruleset_engine.analysis.simulate import simulate
games = int(sys.argv[2])
data = simulate(sys.argv[1], games, seed=1, backend="lockstep", records=sys.argv[3]).to_json()
assert data["games"] == games == pq.ParquetFile(sys.argv[3]).metadata.num_rows, data
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_kib(target: Path, games: int) -> int:
    out = subprocess.run([sys.executable, "-c", PEAK, str(RULESET), str(games), str(target)], capture_output=True,
                         text=True, timeout=600, check=True)
    return int(out.stdout.strip())


@pytest.mark.timeout(600)
def test_peak_memory_with_records_does_not_grow_with_the_number_of_games(tmp_path):
    # Both sizes fill the lockstep batch (4,096 games) and a range (50,000): only the number of
    # ranges differs, 2 against 24.
    small = peak_kib(tmp_path / "small.parquet", 60_000)
    large = peak_kib(tmp_path / "large.parquet", 1_200_000)
    # Rows kept until the end would hold 1,200,000 games of six columns (game, result, rounds, sides,
    # score, lucky), 8 bytes each at the least: over 50 MiB (measured: 51 MiB more kept in memory
    # with records=True). Written as they come, a range's rows: measured within 9 MiB, the
    # allocators' slack (pyarrow's pool keeps what it freed), the bound issue 30 sets being 20 MB.
    assert large - small < 20 * 1000 * 1000 / 1024, f"peak memory grew from {small} KiB to {large} KiB"
