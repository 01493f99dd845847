"""The user's cache folder kept from growing (ruleset_engine/cache.py): files unused for MAX_AGE are
removed, files in use are not, and a folder is pruned at most once a day, never raising; what a
remembered file is named by follows the code that made it."""

from __future__ import annotations

import os
import time

import pytest

from ruleset_engine import cache
from ruleset_engine.dice import remembered as parses
from ruleset_engine.ruleset import remembered as verdicts
from tests import cache_damage

NOW = 2_000_000_000.0
DAY = 86400


def aged(path, days: float) -> None:
    path.write_bytes(b"x")
    os.utime(path, (NOW - days * DAY, NOW - days * DAY))


def test_old_files_go_recent_ones_stay(tmp_path):
    folder = tmp_path / "parses"
    folder.mkdir()
    aged(folder / "old", 31)
    aged(folder / "recent", 29)
    (folder / "a folder").mkdir()
    os.utime(folder / "a folder", (NOW - 90 * DAY, NOW - 90 * DAY))
    assert cache.prune(str(folder), now=NOW) == 1
    assert sorted(p.name for p in folder.iterdir()) == ["a folder", "recent"]
    assert (tmp_path / ".pruned-parses").exists()       # the stamp is beside the folder, not in it


def test_a_folder_is_pruned_at_most_once_a_day(tmp_path):
    folder = tmp_path / "reads"
    folder.mkdir()
    assert cache.prune(str(folder), now=NOW) == 0
    aged(folder / "old", 40)
    assert cache.prune(str(folder), now=NOW + DAY / 2) == 0 and (folder / "old").exists()
    assert cache.prune(str(folder), now=NOW + DAY + 1) == 1 and not (folder / "old").exists()


def test_the_work_of_one_pruning_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "MAX_SCAN", 10)
    folder = tmp_path / "verdicts"
    folder.mkdir()
    for i in range(25):
        aged(folder / f"f{i}", 60)
    assert cache.prune(str(folder), now=NOW) == 10
    assert len(list(folder.iterdir())) == 15


def test_a_file_in_use_is_kept_fresh(tmp_path):
    folder = tmp_path / "parses"
    folder.mkdir()
    aged(folder / "in use", 31)
    aged(folder / "read today", 0.5)
    cache.used(str(folder / "in use"), now=NOW)
    cache.used(str(folder / "read today"), now=NOW)
    assert os.stat(folder / "in use").st_mtime == NOW
    assert os.stat(folder / "read today").st_mtime == NOW - 0.5 * DAY     # not touched again the same day
    assert cache.prune(str(folder), now=NOW) == 0


def test_nothing_raises_on_a_folder_that_is_not_there_or_not_one(tmp_path):
    assert cache.prune(str(tmp_path / "missing" / "parses"), now=NOW) == 0
    (tmp_path / "file").write_text("x")
    assert cache.prune(str(tmp_path / "file" / "parses"), now=NOW) == 0
    cache.used(str(tmp_path / "missing"), now=NOW)


def test_the_caches_prune_when_they_write(tmp_path, monkeypatch):
    """Remembering a parse or a verdict removes the files of earlier versions (unused for a month)."""
    monkeypatch.setenv("DUSK_CACHE_DIR", str(tmp_path))
    now = time.time()
    for name in ("parses", "verdicts"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "of an earlier version").write_bytes(b"x")
        os.utime(tmp_path / name / "of an earlier version", (now - 45 * DAY, now - 45 * DAY))
    with parses.remembering([b"a ruleset's file for the pruning test"]):
        parses.parse("1d6 + 2")
    verdicts.remember("0" * 64)
    for name in ("parses", "verdicts"):
        assert not (tmp_path / name / "of an earlier version").exists(), name
        assert len(list((tmp_path / name).iterdir())) == 1, name


def test_a_sealed_file_reads_back_and_anything_else_is_passed_over(tmp_path):
    path = str(tmp_path / "reads" / "a.json")
    cache.write_sealed(path, b'{"x": 1}')
    assert cache.read_sealed(path, 100) == b'{"x": 1}'
    assert cache.read_sealed(path, 5) is None            # more than the limit
    with open(path, "r+b") as handle:                     # one byte of the body changed
        handle.seek(-2, os.SEEK_END)
        handle.write(b"2")
    assert cache.read_sealed(path, 100) is None


def test_the_tests_damaged_files_start_from_what_write_sealed_writes(tmp_path):
    # tests/cache_damage.py seals bodies by hand: the same bytes as write_sealed, and read back
    path = tmp_path / "reads" / "b.json"
    cache.write_sealed(str(path), b'{"code": "c"}')
    assert path.read_bytes() == cache_damage.seal(b'{"code": "c"}')
    assert cache.read_sealed(str(path), 100) == b'{"code": "c"}'
    for what, content in list(cache_damage.damaged_files(path)):
        path.write_bytes(content)
        # the first five break the seal; the last two are sealed soundly, and left to the reader
        assert (cache.read_sealed(str(path), 1000) is None) == (what not in ("other code", "not a mapping")), what


def test_a_fifo_or_a_link_under_a_cache_files_name_is_not_read(tmp_path):
    # A FIFO would block open() for ever (no writer); a link may point anywhere. Neither is read.
    fifo = str(tmp_path / "fifo.json")
    os.mkfifo(fifo)
    assert cache.read_sealed(fifo, 100) is None
    real = str(tmp_path / "real.json")
    cache.write_sealed(real, b"{}")
    link = str(tmp_path / "link.json")
    os.symlink(real, link)
    try:
        found = cache.read_sealed(link, 100)
    except OSError:
        found = None
    assert found is None


def test_the_code_key_follows_every_file_it_names(tmp_path):
    """A remembered thing is named by the code it was made by: the key changes when a file is
    rewritten (another size, or the same size written later), moved, or when the label changes, and
    stays the same while nothing changes; a missing file is an OSError (the caller then remembers
    nothing), never a key."""
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text("x = 1\n")
    second.write_text("y = 2\n")
    key = cache.code_key("parses/1", [first, second])
    assert cache.code_key("parses/1", [first, second]) == key
    assert cache.code_key("parses/2", [first, second]) != key
    assert cache.code_key("parses/1", [second, first]) != key
    first.write_text("x = 10\n")                              # another size
    assert cache.code_key("parses/1", [first, second]) != key
    first.write_text("x = 1\n")
    os.utime(first, ns=(1, 1))
    dated = cache.code_key("parses/1", [first, second])
    first.write_text("x = 2\n")                               # the same size, written later
    os.utime(first, ns=(2, 2))
    assert cache.code_key("parses/1", [first, second]) != dated
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (moved / "a.py").write_text("x = 2\n")
    os.utime(moved / "a.py", ns=(2, 2))
    assert cache.code_key("parses/1", [moved / "a.py", second]) != cache.code_key("parses/1", [first, second])
    with pytest.raises(OSError):
        cache.code_key("parses/1", [tmp_path / "gone.py"])
