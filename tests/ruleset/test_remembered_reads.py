"""YAML reads remembered between runs (ruleset/remembered_reads.py): the same data as PyYAML's, never trusted blindly.

A remembered read must be exactly what yamlparse builds from the same text, every position included;
a file that is damaged, foreign, written by other code, or that holds a value no read can give (a
control character, a number past the limit, a key twice, a position 0, nesting past the limit) must
change nothing: the text is read by PyYAML again and gives what it gives (its problems too).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.ruleset import remembered_reads, yamlparse
from ruleset_engine.ruleset.located import LDict, LList
from ruleset_engine.ruleset.problems import RulesetError
from ruleset_engine.ruleset.yamlio import load_yaml_text
from tests import cache_damage

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for folder in ("rulesets", "characters") for p in (ROOT / folder).rglob("*.yaml"))
TEXT = 'ruleset: t\ntitle: "T"\nsteps:\n  - roll: 2d6\n    say: "x: {n}"\n  - [1, -2, true, ~]\n7: seven\nnull: nothing\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DUSK_CACHE_DIR", str(tmp_path))
    return tmp_path / "reads"


def same(a, b, where="") -> None:
    """a and b equal, of the same types, with the same positions everywhere."""
    assert type(a) is type(b), where
    if isinstance(a, LDict):
        assert list(a) == list(b) and a.pos == b.pos, where
        assert a.key_pos == b.key_pos and a.value_pos == b.value_pos, where
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, LList):
        assert len(a) == len(b) and a.pos == b.pos and a.item_pos == b.item_pos, where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def pyyaml_refused(monkeypatch) -> list:
    asked = []

    def refuse(text, filename):
        asked.append(filename)
        raise AssertionError(f"PyYAML asked to read {filename}")
    monkeypatch.setattr(yamlparse, "parse", refuse)
    return asked


def counting(monkeypatch) -> list:
    asked, real = [], yamlparse.parse

    def count(text, filename):
        asked.append(filename)
        return real(text, filename)
    monkeypatch.setattr(yamlparse, "parse", count)
    return asked


def test_every_bundled_file_reads_back_the_same_from_the_cache(cache, monkeypatch):
    assert len(FILES) >= 5
    first = {}
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        try:
            first[path] = load_yaml_text(text, path.name)
        except RulesetError:
            continue
    assert len(first) >= 5
    asked = pyyaml_refused(monkeypatch)
    for path, data in first.items():
        again = load_yaml_text(path.read_text(encoding="utf-8"), "another name.yaml")
        # Positions name the file by the name it is read under now.
        assert all(p.file == "another name.yaml" for p in again.key_pos.values())
        same(remembered_reads.decode(remembered_reads.encode(data), "another name.yaml"), again, str(path))
        same(load_yaml_text(path.read_text(encoding="utf-8"), path.name), data, str(path))
    assert asked == []


def test_keys_of_every_kind_and_positions_inside_quotes_come_back(cache, monkeypatch):
    built = load_yaml_text(TEXT, "t.yaml")
    assert list(built) == ["ruleset", "title", "steps", 7, None]
    assert built.value_pos["title"].column == 9      # inside the quotes
    asked = pyyaml_refused(monkeypatch)
    same(load_yaml_text(TEXT, "t.yaml"), built)
    assert asked == []


def test_a_read_with_a_problem_is_not_kept_and_says_it_again(cache):
    text = "ruleset: t\ntitle: T\nodds: 0.5\n"
    for _ in range(2):
        with pytest.raises(RulesetError) as err:
            load_yaml_text(text, "f.yaml")
        assert "f.yaml:3:7" in str(err.value) and "fraction" in str(err.value)
    assert not cache.exists() or not list(cache.iterdir())


def damaged_files(path):
    """(what, bytes) of files a damaged, foreign or hostile cache could hold at `path`."""
    yield from cache_damage.damaged_files(path)
    held = cache_damage.held(path)
    signed = cache_damage.seal_json
    yield "no data", signed({"code": held["code"]})
    yield "a scalar read", signed(dict(held, data="just a text"))
    data = held["data"]

    def with_first_value(value):
        entries = [list(e) for e in data[3]]
        entries[0][5] = value
        return signed(dict(held, data=[data[0], data[1], data[2], entries]))
    yield "a control character", with_first_value("\x1b]52;c;aGk=\x07")
    yield "a number past the limit", with_first_value(10 ** 40)
    yield "a fraction", with_first_value(0.5)
    yield "a bool as a position", signed(dict(held, data=["d", True, 1, data[3]]))
    yield "a position 0", signed(dict(held, data=["d", 0, 1, data[3]]))
    yield "a key twice", signed(dict(held, data=["d", 1, 1, data[3] + data[3][:1]]))
    yield "an unknown container", signed(dict(held, data=["s", 1, 1, data[3]]))
    yield "an entry too short", signed(dict(held, data=["d", 1, 1, [e[:5] for e in data[3]]]))
    yield "a list as a key", with_first_value(["d", 1, 1, [[["x"], 1, 1, 1, 1, 1]]])
    deep = 1
    for _ in range(70):
        deep = ["l", 1, 1, [[1, 1, deep]]]
    yield "nested too deep", with_first_value(deep)
    body = ('{"code": %s, "data": %s}' % (json.dumps(held["code"]), cache_damage.DEEP)).encode()
    yield "nested past Python's stack", cache_damage.seal(body)


def test_a_damaged_or_hostile_file_changes_nothing(cache, monkeypatch):
    built = load_yaml_text(TEXT, "t.yaml")
    path, = cache.iterdir()
    for what, content in list(damaged_files(path)):
        path.write_bytes(content)
        asked = counting(monkeypatch)
        same(load_yaml_text(TEXT, "t.yaml"), built, what)
        assert asked == ["t.yaml"], what       # read by PyYAML again
        monkeypatch.undo()
        monkeypatch.setenv("DUSK_CACHE_DIR", str(cache.parent))


def test_a_folder_that_cannot_be_used_is_passed_over(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DUSK_CACHE_DIR", str(blocker))
    same(load_yaml_text(TEXT, "t.yaml"), yamlparse.parse(TEXT, "t.yaml"))
    monkeypatch.setenv("DUSK_CACHE_DIR", str(tmp_path / "cache"))
    load_yaml_text(TEXT, "t.yaml")
    path, = (tmp_path / "cache" / "reads").iterdir()
    path.unlink()
    path.mkdir()            # a folder where the file would be: read again, nothing raised
    same(load_yaml_text(TEXT, "t.yaml"), yamlparse.parse(TEXT, "t.yaml"))


def test_a_second_start_does_not_import_pyyaml(tmp_path):
    code = ("import sys; from ruleset_engine.ruleset.loader import load; load('attack-of-the-vampires'); "
            "print('yaml' in sys.modules)")
    env = dict(os.environ, DUSK_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                           timeout=120).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]
