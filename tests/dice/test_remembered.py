"""Parses remembered between runs (dice/remembered.py): the same trees as Lark's, and never trusted blindly.

A remembered tree must be exactly the one Lark builds from the same text; a file that is damaged,
foreign, made by other code or unreadable must change nothing (the text is parsed again, the same
errors are raised), and a folder that cannot be written must not stop a ruleset loading.
"""

from __future__ import annotations

import json

import pytest

from ruleset_engine.dice import parser as lark_parser
from ruleset_engine.dice import remembered
from ruleset_engine.dice.errors import DiceSyntaxError
from ruleset_engine.dice.expression import _compile_cached
from ruleset_engine.dice.limits import Limits
from ruleset_engine.ruleset.loader import load
from tests import cache_damage

# Between them, every class of the syntax tree (checked below, so a new class is not forgotten).
TEXTS = [
    "1 + -2 * x.y", "'a' == 'b' and true or not false", "3 if x > 2 else 4", "count(10d10, >= 6, kind=wild)",
    "kinds(5d10, wild=2, hunger=1)", "roll(2d6).total", "[1, 2, 2]kh2", "4d6dl1!", "10d10cs>=6df=1",
    "of(p, wild)", "players[2].blood", "(1 + 2)", "2d6r<2",
]
SOURCE = [b"a ruleset's file"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DUSK_CACHE_DIR", str(tmp_path))
    return tmp_path / "parses"


def classes_in(data, seen: set) -> set:
    if isinstance(data, dict):
        (name, values), = data.items()
        seen.add(name)
        classes_in(values, seen)
    elif isinstance(data, list):
        for item in data:
            classes_in(item, seen)
    return seen


def lark_refused(monkeypatch) -> list:
    """Lark's parse made to fail loudly; the list of the texts it was asked for."""
    asked = []

    def refuse(text, limits=None):
        asked.append(text)
        raise AssertionError(f"Lark asked to parse {text!r}")
    monkeypatch.setattr(lark_parser, "parse", refuse)
    return asked


def counting(monkeypatch) -> list:
    asked = []
    real = lark_parser.parse

    def count(text, limits=lark_parser.DEFAULT_LIMITS):
        asked.append(text)
        return real(text, limits)
    monkeypatch.setattr(lark_parser, "parse", count)
    return asked


def test_encoding_gives_back_the_same_tree_for_every_class():
    seen = set()
    for text in TEXTS:
        tree = lark_parser.parse(text)
        data = remembered.encode(tree)
        assert remembered.decode(json.loads(json.dumps(data))) == tree
        classes_in(data, seen)
    assert seen == set(remembered._NODES)


def test_a_second_load_reads_the_trees_lark_built(cache, monkeypatch):
    with remembered.remembering(SOURCE):
        built = [remembered.parse(text) for text in TEXTS]
    assert len(list(cache.iterdir())) == 1
    asked = lark_refused(monkeypatch)
    with remembered.remembering(SOURCE):
        again = [remembered.parse(text) for text in TEXTS]
    assert again == built and asked == []
    # Fresh nodes each time: a caller that changed one could not change another's.
    assert all(a is not b for a, b in zip(again, built))


def test_outside_a_load_nothing_is_read_or_kept(cache, monkeypatch):
    asked = counting(monkeypatch)
    remembered.parse("1d6")
    assert asked == ["1d6"] and not cache.exists()


def test_other_limits_or_another_file_parse_anew(cache, monkeypatch):
    with remembered.remembering(SOURCE):
        remembered.parse("1d6 + 1")
    asked = counting(monkeypatch)
    with remembered.remembering(SOURCE):
        remembered.parse("1d6 + 1", Limits(max_depth=3))
    with remembered.remembering([b"another ruleset"]):
        remembered.parse("1d6 + 1")
    assert asked == ["1d6 + 1", "1d6 + 1"]


def test_errors_are_not_remembered_and_are_raised_again(cache):
    for _ in range(2):
        with remembered.remembering(SOURCE):
            with pytest.raises(DiceSyntaxError) as err:
                remembered.parse("2d6 +")
        assert "ends there" in str(err.value)
    assert not cache.exists() or all(json.loads(p.read_bytes().partition(b"\n")[2])["trees"] == {}
                                     for p in cache.iterdir())


def damaged_files(path):
    """(what, bytes) of files a damaged or foreign cache could hold at `path`."""
    yield from cache_damage.damaged_files(path)
    data = cache_damage.held(path)
    unknown = dict(data, trees={k: {"Popen": ["rm -rf /"]} for k in data["trees"]})
    yield "a class that is no node", cache_damage.seal_json(unknown)
    short = dict(data, trees={k: {next(iter(v)): []} for k, v in data["trees"].items()})
    yield "fields missing", cache_damage.seal_json(short)
    body = ('{"code": %s, "trees": {%s}}' % (json.dumps(data["code"]), ", ".join(
        f"{json.dumps(k)}: {cache_damage.DEEP}" for k in data["trees"]))).encode()
    yield "deep", cache_damage.seal(body)


def test_a_damaged_or_foreign_file_changes_nothing(cache, monkeypatch):
    with remembered.remembering(SOURCE):
        built = [remembered.parse(text) for text in TEXTS]
    path, = cache.iterdir()
    for what, content in list(damaged_files(path)):
        path.write_bytes(content)
        asked = counting(monkeypatch)
        with remembered.remembering(SOURCE):
            again = [remembered.parse(text) for text in TEXTS]
        assert again == built, what
        assert asked == TEXTS, what       # every text parsed by Lark again
        monkeypatch.undo()
        monkeypatch.setenv("DUSK_CACHE_DIR", str(cache.parent))


def test_a_folder_that_cannot_be_used_is_passed_over(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DUSK_CACHE_DIR", str(blocker))
    with remembered.remembering(SOURCE):
        assert remembered.parse("1d6") == lark_parser.parse("1d6")
    (tmp_path / "cache" / "parses").mkdir(parents=True)
    (tmp_path / "cache" / "parses" / "x").mkdir()
    monkeypatch.setenv("DUSK_CACHE_DIR", str(tmp_path / "cache"))
    with remembered.remembering(SOURCE):
        assert remembered.parse("1d6") == lark_parser.parse("1d6")


def test_a_ruleset_loads_the_same_from_remembered_and_from_damaged_trees(cache, monkeypatch):
    _compile_cached.cache_clear()
    first = load("attack-of-the-vampires")
    path, = cache.iterdir()
    asked = lark_refused(monkeypatch)
    _compile_cached.cache_clear()
    second = load("attack-of-the-vampires")
    assert asked == []
    assert second.formulas.keys() == first.formulas.keys()
    monkeypatch.undo()
    monkeypatch.setenv("DUSK_CACHE_DIR", str(cache.parent))
    for _what, content in damaged_files(path):
        path.write_bytes(content)
        _compile_cached.cache_clear()
        assert load("attack-of-the-vampires").formulas.keys() == first.formulas.keys()
    _compile_cached.cache_clear()


def test_the_expressions_asked_keep_the_last_ones(cache, monkeypatch):
    monkeypatch.setattr(remembered, "KEEP_ASKED", 3)
    for text in ["1d4", "1d6", "1d8", "1d6", "1d10"]:   # 1d6 asked again is read, not kept again
        with remembered.asked():
            remembered.parse(text)
    asked = counting(monkeypatch)
    with remembered.asked():
        trees = [remembered.parse(text) for text in ["1d6", "1d8", "1d10", "1d4"]]
    assert asked == ["1d4"]         # the oldest, past the three kept
    assert trees == [lark_parser.parse(text) for text in ["1d6", "1d8", "1d10", "1d4"]]


def test_a_ruleset_loaded_inside_the_asked_keeps_its_own_file(cache, monkeypatch):
    expected = {text: lark_parser.parse(text) for text in ("2d6", "3d6", "4d6")}
    with remembered.asked():
        remembered.parse("2d6")
        with remembered.remembering(SOURCE):
            remembered.parse("3d6")
        remembered.parse("4d6")
    asked = lark_refused(monkeypatch)
    with remembered.asked():
        assert [remembered.parse("2d6"), remembered.parse("4d6")] == [expected["2d6"], expected["4d6"]]
    with remembered.remembering(SOURCE):
        assert remembered.parse("3d6") == expected["3d6"]
    assert asked == []
    monkeypatch.undo()
    monkeypatch.setenv("DUSK_CACHE_DIR", str(cache.parent))
    asked = counting(monkeypatch)
    with remembered.remembering(SOURCE):
        remembered.parse("2d6")       # kept in the file of the expressions asked, not the ruleset's
    assert asked == ["2d6"]
