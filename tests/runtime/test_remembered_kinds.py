"""The kinds a program writer settled on, remembered between runs (runtime/remembered_kinds.py).

A program written from remembered kinds must be exactly the program written from scratch, in one
pass instead of several; a remembered file that is damaged, foreign, stale or holds wrong kinds must
change nothing but the number of passes (the program is written from scratch, and is the same); a
second run writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from ruleset_engine import cache
from ruleset_engine.dice.kinds import ANY, BOOL, NUM, POOL, STR
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import program as program_module
from ruleset_engine.runtime import remembered_kinds
from ruleset_engine.runtime.limits import DEFAULT_RUN_LIMITS
from ruleset_engine.runtime.params import resolve_params
from ruleset_engine.runtime.program import ProgramError, ProgramWriter

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = [p.stem for p in sorted((ROOT / "rulesets").glob("*.yaml"))] + \
    [str(p) for p in sorted((ROOT / "rulesets" / "house").glob("*.yaml"))]
_LOADED: dict = {}


def ruleset(name):
    if name not in _LOADED:
        _LOADED[name] = load(name)
    return _LOADED[name]


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """The cache folder of this test alone; its `kinds/` folder is where the memos go."""
    monkeypatch.setenv("DUSK_CACHE_DIR", str(tmp_path))
    return tmp_path / "kinds"


@pytest.fixture
def passes(monkeypatch) -> list:
    """passes[-1]: the passes of the last build (each call of ProgramWriter.write)."""
    counted: list = []
    write = ProgramWriter.write

    def counting(self):
        if counted:
            counted[-1] += 1
        return write(self)
    monkeypatch.setattr(ProgramWriter, "write", counting)
    return counted


def build(name, passes=None, *, traced=True, coverage=False, params=None):
    r = ruleset(name) if isinstance(name, str) else name
    if passes is not None:
        passes.append(0)
    return program_module.build(r, params if params is not None else resolve_params(r, None), traced=traced,
                                run_limits=DEFAULT_RUN_LIMITS, coverage=coverage)


def scratch(name, monkeypatch, **how):
    """The program written with no memo at all."""
    with monkeypatch.context() as m:
        m.setattr(remembered_kinds.Memo, "of", classmethod(lambda cls, *a, **k: None))
        return build(name, **how)


def memo_file(folder: Path) -> Path:
    files = sorted(folder.glob("*.json"))
    assert len(files) == 1, files
    return files[0]


def held(path: Path) -> dict:
    body = path.read_bytes().partition(b"\n")[2]
    return json.loads(body)


def seal(path: Path, data) -> None:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    path.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


# ---- the same program, in one pass ---------------------------------------------------------------


@pytest.mark.parametrize("traced", [True, False], ids=["traced", "untraced"])
@pytest.mark.parametrize("name", BUNDLED, ids=lambda n: Path(n).stem)
def test_a_bundled_ruleset_written_from_its_memo_is_the_program_from_scratch(name, traced, folder, passes,
                                                                            monkeypatch):
    fresh = scratch(name, monkeypatch, traced=traced)
    first = build(name, passes, traced=traced)          # no memo yet: from scratch, then remembered
    assert passes[-1] > 1 and first.source == fresh.source
    second = build(name, passes, traced=traced)
    assert passes[-1] == 1
    assert second.source == fresh.source
    assert second.state_kinds == fresh.state_kinds and second.field_kinds == fresh.field_kinds


@pytest.mark.parametrize("name", ["attack-of-the-vampires", "noche-de-los-vampiros"])
def test_coverage_mode_numbers_its_steps_the_same_from_a_memo(name, folder, passes, monkeypatch):
    fresh = scratch(name, monkeypatch, traced=False, coverage=True)
    build(name, passes, traced=False, coverage=True)
    again = build(name, passes, traced=False, coverage=True)
    assert passes[-1] == 1 and again.source == fresh.source
    assert [id(step) for step in again.sites] == [id(step) for step in fresh.sites]


def test_each_mode_and_each_set_of_params_has_its_own_memo(folder, passes):
    name = "attack-of-the-vampires"
    build(name, passes, traced=True)
    build(name, passes, traced=False)
    build(name, passes, traced=False, coverage=True)
    build(name, passes, traced=True)
    assert passes == [4, 4, 4, 1]
    assert len(list(folder.glob("*.json"))) == 3


def test_an_edited_ruleset_is_not_written_from_the_memo_of_the_old_one(written, folder, passes):
    text = """
        ruleset: t
        title: T
        state:
          n: 0
          m: 0
        actions:
          go:
            steps:
              - set: {n: "n + 1"}
              - set: {m: "n"}
        report:
          n: "n"
    """
    build(written(text), passes)
    build(written(text), passes)
    edited = build(written(text.replace('{m: "n"}', '{m: "2d6"}')), passes)
    assert passes[0] > 1 and passes[1] == 1 and passes[2] > 1
    assert len(list(folder.glob("*.json"))) == 2
    assert edited.state_kinds["m"] != NUM        # a pool or a number: the old memo's NUM was not taken


def test_a_second_run_writes_nothing(folder, passes, monkeypatch):
    name = "noche-de-los-vampiros"
    build(name, passes)
    path = memo_file(folder)
    before = path.read_bytes()
    written_now = []
    monkeypatch.setattr(cache, "write_sealed", lambda *a: written_now.append(a))
    build(name, passes)
    assert passes == [4, 1] and written_now == [] and path.read_bytes() == before


def test_the_same_kinds_give_the_same_file(folder, passes, monkeypatch):
    """Written from scratch again (the memo removed), the file is byte for byte the one before: the
    rows are sorted, whatever order the writer's dictionaries were filled in."""
    build("attack-of-the-vampires", passes, traced=False)
    path = memo_file(folder)
    before = path.read_bytes()
    path.unlink()
    build("attack-of-the-vampires", passes, traced=False)
    assert passes == [4, 4] and path.read_bytes() == before


# ---- wrong kinds: passes lost, never another program -----------------------------------------------


def _rotated(rows):
    turn = {NUM: BOOL, BOOL: STR, STR: POOL, POOL: ANY, ANY: NUM, None: NUM}
    return [row[:-1] + [turn[row[-1]]] for row in rows]


def _all(kind):
    return lambda rows: [row[:-1] + [kind] for row in rows]


WRONG = {
    "rotated": lambda part, rows: _rotated(rows),
    "all any": lambda part, rows: _all(ANY)(rows),
    "all numbers": lambda part, rows: _all(NUM)(rows),
    "all strings": lambda part, rows: _all(STR)(rows),
    "half dropped": lambda part, rows: rows[::2],
    "none known": lambda part, rows: [],
    "names unknown": lambda part, rows: rows + [["nobody"] * (len(rows[0]) - 1 if rows else 1) + [NUM]],
    "procedures swapped": lambda part, rows: [[r[1], r[0], r[2]] for r in rows] if part == "procs" else rows,
}


@pytest.mark.parametrize("which", ["assumed", "observed", "both"])
@pytest.mark.parametrize("wrong", list(WRONG))
@pytest.mark.parametrize("name,traced", [("attack-of-the-vampires", True), ("noche-de-los-vampiros", False)])
def test_a_memo_of_wrong_kinds_gives_the_program_from_scratch(name, traced, wrong, which, folder, passes,
                                                              monkeypatch):
    fresh = scratch(name, monkeypatch, traced=traced)
    build(name, passes, traced=traced)
    path = memo_file(folder)
    data = held(path)
    for side in ("assumed", "observed") if which == "both" else (which,):
        data[side] = {part: WRONG[wrong](part, rows) for part, rows in data[side].items()}
    seal(path, data)
    got = build(name, passes, traced=traced)
    assert got.source == fresh.source
    if wrong == "names unknown" and which == "assumed":
        # Kinds assumed for names the program has not: nothing reads them, the pass checks as it is.
        assert passes[-1] == 1
        return
    assert passes[-1] == 5      # the pass under the wrong kinds, then the four from scratch
    build(name, passes, traced=traced)
    assert passes[-1] == 1      # the right kinds are remembered again


def test_a_crafted_memo_that_checks_is_believed_and_its_program_plays_the_same_games(folder, passes):
    """The limit of the check, shown: a file made on purpose to hold other kinds that do check (every
    value assumed `any`, with what a pass under that observes) is believed, as the cache's files are
    (docs/limits.md). Its program is another (it checks at run time what the settled kinds knew),
    but every kind written is within the kind assumed, so it plays every game as the program from
    scratch plays it."""
    from ruleset_engine.analysis.simulate import play_game

    name = "noche-de-los-vampiros"
    fresh = build(name, passes, traced=False)
    path = memo_file(folder)
    data = held(path)
    writer = ProgramWriter(ruleset(name), resolve_params(ruleset(name), None), traced=False,
                           run_limits=DEFAULT_RUN_LIMITS)
    wide = remembered_kinds.decode({part: _all(ANY)(rows) for part, rows in data["assumed"].items()})
    writer.state_kinds, writer.field_kinds, writer.proc_kinds, writer.local_kinds = \
        wide.state, wide.fields, wide.procs, wide.locals
    writer.write()
    data["assumed"] = remembered_kinds.encode(wide)
    data["observed"] = remembered_kinds.encode(writer._observed())
    seal(path, data)
    crafted = build(name, passes, traced=False)
    assert passes[-1] == 1 and crafted.source != fresh.source
    for seed in range(30):
        assert play_game(crafted, seed)[:3] == play_game(fresh, seed)[:3]


def test_kinds_under_which_the_ruleset_has_problems_cost_a_pass_not_an_error(written, folder, passes, monkeypatch):
    """A memo saying a reported value is a text: that pass finds a problem the ruleset does not
    have; the program is written from scratch, and no error is said."""
    r = written("""
        ruleset: t
        title: T
        state:
          n: 0
        actions:
          go:
            steps:
              - set: {n: "n + 1"}
        report:
          n: "n"
    """)
    fresh = scratch(r, monkeypatch)
    build(r, passes)
    path = memo_file(folder)
    data = held(path)
    for side in ("assumed", "observed"):
        data[side]["state"] = [["n", STR]]
    seal(path, data)
    assert build(r, passes).source == fresh.source
    assert passes[-1] > 1


def test_a_pass_that_fails_under_remembered_kinds_costs_that_pass(folder, passes, monkeypatch):
    name = "attack-of-the-vampires"
    fresh = scratch(name, monkeypatch)
    build(name, passes)
    write = ProgramWriter.write

    def failing_once(self):
        if not hasattr(failing_once, "done"):
            failing_once.done = True
            raise KeyError("a kind nobody expected")
        return write(self)
    monkeypatch.setattr(ProgramWriter, "write", failing_once)
    assert build(name).source == fresh.source


def test_a_ruleset_with_problems_says_them_and_remembers_nothing(written, folder):
    r = written("""
        ruleset: t
        title: T
        params:
          rule: {type: choice, choices: [classic, revised], default: classic}
        state:
          n: 0
        actions:
          go:
            steps:
              - set: {n: "n + 1"}
        report:
          r: "params.rule"
    """)
    for _ in range(2):
        with pytest.raises(ProgramError):
            build(r)
    assert not folder.exists() or list(folder.glob("*.json")) == []


# ---- damaged and hostile files -----------------------------------------------------------------------


def _cut(path):
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])


def _flipped(path):
    raw = bytearray(path.read_bytes())
    raw[len(raw) * 2 // 3] ^= 0x04
    path.write_bytes(bytes(raw))


def _reshaped(change):
    def damage(path):
        data = held(path)
        seal(path, change(data))
    return damage


def _huge(path):
    body = b'{"code": "' + b"x" * (remembered_kinds.MAX_FILE + 10) + b'"}'
    seal(path, body)


def _deep(path):
    seal(path, b"[" * 100_000 + b"]" * 100_000)


def _fifo(path):
    path.unlink()
    os.mkfifo(path)


def _folder_in_place(path):
    path.unlink()
    path.mkdir()


DAMAGE = {
    "cut short": _cut,
    "a bit flipped": _flipped,
    "empty": lambda path: path.write_bytes(b""),
    "not JSON": lambda path: seal(path, b"\xff\xfe not json"),
    "a list": _reshaped(lambda d: [d]),
    "another code": _reshaped(lambda d: dict(d, code="0" * 64)),
    "a part missing": _reshaped(lambda d: dict(d, assumed={k: v for k, v in d["assumed"].items() if k != "fields"})),
    "a part more": _reshaped(lambda d: dict(d, observed=dict(d["observed"], more=[]))),
    "a key more": _reshaped(lambda d: dict(d, more=1)),
    "a row too long": _reshaped(lambda d: dict(d, assumed=dict(d["assumed"], state=[r + [NUM] for r in d["assumed"]["state"]]))),
    "a row not a list": _reshaped(lambda d: dict(d, assumed=dict(d["assumed"], state=[{"n": 1}]))),
    "a kind not a kind": _reshaped(lambda d: dict(d, assumed=dict(d["assumed"], state=[[r[0], "integer"] for r in d["assumed"]["state"]]))),
    "a kind a number": _reshaped(lambda d: dict(d, observed=dict(d["observed"], state=[[r[0], 1] for r in d["observed"]["state"]]))),
    "a name a number": _reshaped(lambda d: dict(d, assumed=dict(d["assumed"], procs=[[1, r[1], r[2]] for r in d["assumed"]["procs"]]))),
    "a name twice": _reshaped(lambda d: dict(d, assumed=dict(d["assumed"], state=d["assumed"]["state"] * 2))),
    "a name too long": _reshaped(lambda d: dict(d, assumed=dict(d["assumed"], state=d["assumed"]["state"] + [["n" * 10_000, NUM]]))),
    "huge": _huge,
    "deeply nested": _deep,
    "a FIFO": _fifo,
    "a folder": _folder_in_place,
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_or_hostile_memo_is_passed_over(damage, folder, passes, monkeypatch):
    name = "attack-of-the-vampires"
    fresh = scratch(name, monkeypatch)
    build(name, passes)
    path = memo_file(folder)
    DAMAGE[damage](path)
    got = build(name, passes)
    assert got.source == fresh.source
    assert passes[-1] == 4                       # from scratch: the file was not believed


# ---- the data: plain, strictly read ------------------------------------------------------------------


def test_kinds_go_to_plain_data_and_back():
    kinds = remembered_kinds.Kinds({"n": NUM, "t": None}, {("hunter", "life"): POOL},
                                   {("attack", "roll"): ANY}, {"p_attack": {"x": STR, "y": BOOL}})
    data = remembered_kinds.encode(kinds)
    assert json.loads(json.dumps(data)) == data
    assert data["state"] == [["n", "number"], ["t", None]]
    assert data["locals"] == [["p_attack", "x", "string"], ["p_attack", "y", "true/false"]]
    assert remembered_kinds.decode(data) == kinds


@pytest.mark.parametrize("data", [
    None, [], {"state": [], "fields": [], "procs": []},
    {"state": [], "fields": [], "procs": [], "locals": [], "more": []},
    {"state": {}, "fields": [], "procs": [], "locals": []},
    {"state": [["n"]], "fields": [], "procs": [], "locals": []},
    {"state": [["n", "number", "x"]], "fields": [], "procs": [], "locals": []},
    {"state": [["n", "Number"]], "fields": [], "procs": [], "locals": []},
    {"state": [["n", True]], "fields": [], "procs": [], "locals": []},
    {"state": [[["n"], "number"]], "fields": [], "procs": [], "locals": []},
    {"state": [["n", "number"], ["n", "pool"]], "fields": [], "procs": [], "locals": []},
    {"state": [], "fields": [["e", "number"]], "procs": [], "locals": []},
    {"state": [], "fields": [], "procs": [], "locals": [["f", "x", "number"], ["f", "x", "number"]]},
])
def test_the_decoder_refuses_what_the_encoder_never_writes(data):
    with pytest.raises(remembered_kinds._Unfit):
        remembered_kinds.decode(data)
