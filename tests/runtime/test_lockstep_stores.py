"""What the lockstep machine keeps for its games reads back what was written, however it keeps it.

A Store written the same number, true/false or text by every game that wrote it keeps that value
once (no array of the batch), and reads back, for every slot written, what an array of the batch
would hold: the type its first value gave it, each slot the last value written to it (held here to
that array, written as the store was before, over random sequences of writes). A lookup: whose keys
are the same in every game finds its row once: the same cells as the general way, the default, the
error. A local that nothing a simulation plays reads (only a say: or an unread note: shows it) is
found, per procedure, and its let:/set: keep nothing while the report stays what the untraced
program gives.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ruleset_engine.analysis.simulate import simulate
from ruleset_engine.dice.vector import VPool
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.ruleset import walk
from ruleset_engine.ruleset.steps import StepFailed
from ruleset_engine.runtime.lockstep_values import NeverWritten, Store
from ruleset_engine.runtime.vectorizable import _read_names, unread_locals

SIZE = 64


def _array_of_batch(first):
    """The array the store made on its first value (before it kept a value once): its type."""
    if isinstance(first, np.ndarray):
        kind = first.dtype.kind
        return np.zeros(SIZE, object if kind in "UO" else first.dtype)
    return np.zeros(SIZE, bool if type(first) is bool else np.int64 if type(first) is int else object)


def _value(rng: random.Random, n: int, texts: bool):
    kind = rng.choice(["text", "texts"] if texts else ["int", "int", "bool", "ints", "bools"])
    if kind == "int":
        return rng.choice([0, 1, 2, -3])
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "text":
        return rng.choice(["", "a", "none"])
    if kind == "ints":
        return np.array([rng.randint(-2, 3) for _ in range(n)], np.int64)
    if kind == "bools":
        return np.array([rng.random() < 0.5 for _ in range(n)], bool)
    out = np.empty(n, object)
    out[:] = [rng.choice(["a", "b"]) for _ in range(n)]
    return out


@pytest.mark.parametrize("seed", range(40))
def test_a_store_reads_back_what_an_array_of_the_batch_holds(seed):
    rng = random.Random(f"store/{seed}")
    store, reference, written = Store(), None, np.zeros(SIZE, bool)
    # Numbers and true/false, or texts, as a place holds; one constant again and again, as arguments are.
    texts = seed % 3 == 0
    again = "none" if texts else 1
    for _ in range(rng.randint(1, 12)):
        rows = np.sort(np.array(rng.sample(range(SIZE), rng.randint(0, SIZE)), np.int64))
        value = _value(rng, len(rows), texts) if rng.random() < 0.5 or reference is None else again
        if reference is None:
            reference = _array_of_batch(value)
        reference[rows] = value
        written[rows] = True
        store.put(rows, value, SIZE)
        read = store.get(np.flatnonzero(written))
        got = np.broadcast_to(np.asarray(read, reference.dtype if not isinstance(read, np.ndarray) else None),
                              (int(written.sum()),))
        assert got.tolist() == reference[written].tolist(), seed
        # An array read back is of the first value's type, as the array of the batch is.
        assert not isinstance(read, np.ndarray) or read.dtype == reference.dtype, seed


def test_one_value_for_every_game_is_kept_once_until_another_comes():
    store = Store()
    for rows in (np.arange(10), np.arange(5, 40), np.arange(0)):
        store.put(rows, "none", SIZE)
    assert store.data is None and store.get(np.arange(3)) == "none"     # no array of the batch made
    store.put(np.array([7]), "dodge", SIZE)
    assert store.data is not None and store.get(np.array([6, 7, 8])).tolist() == ["none", "dodge", "none"]
    numbers = Store()
    numbers.put(np.arange(4), 1, SIZE)
    numbers.put(np.arange(4), True, SIZE)       # 1 and True are equal, not the same value: an array of numbers
    assert numbers.get(np.arange(4)).tolist() == [1, 1, 1, 1] and numbers.get(np.arange(4)).dtype == np.int64


def test_a_store_keeps_one_kind_whether_its_value_was_kept_once_or_not():
    store = Store()
    store.put(np.arange(4), 3, SIZE)
    with pytest.raises(StepFailed, match="a number is now a pool"):
        store.put(np.arange(4), VPool(np.ones((4, 2), np.int16)), SIZE)
    pool = Store()
    pool.put(np.arange(4), VPool(np.ones((4, 2), np.int16)), SIZE)
    with pytest.raises(StepFailed, match="a pool is now a number"):
        pool.put(np.arange(4), 3, SIZE)


def test_a_store_no_game_wrote_is_a_bug_when_read_not_a_value():
    # The checker refuses a read of a local not set on every way (ruleset/assigned.py): a read of a
    # store no game wrote is dusk's fault, raised (a DuskBug at its place), never a marker read as a value.
    for store in (Store(), Store(keeps_aside=True)):
        with pytest.raises(NeverWritten):
            store.get(np.arange(4))
    store = Store()
    store.put(np.arange(4), 7, SIZE)
    assert store.get(np.arange(4)) == 7


LOOKUP = """ruleset: lookups
title: Lookups (test)
params:
  kind: {{type: choice, choices: [brawl, melee, firearms, thrown], default: {kind}}}
tables:
  attacks:
    key: [kind, reach]
{default}    rows:
      - {{kind: brawl, reach: 1, dice: 2, label: fists}}
      - {{kind: melee, reach: "1..3", dice: 4, label: blade}}
      - {{kind: firearms, reach: 1, dice: 6, label: gun}}
state: {{total: 0, reach: 1}}
loop:
  - name: turn
    max: 3
    steps:
      - {{lookup: attacks, keys: {{kind: params.kind, reach: reach}}, as: a, quiet: true}}
      - set: {{total: "total + a.dice + (1 if a.label == 'blade' else 0)"}}
      - let: {{r: 1d6}}
      - {{lookup: attacks, keys: {{kind: params.kind, reach: "reach if sum(r) > 3 else 2"}}, as: b, quiet: true}}
      - set: {{total: "total + b.dice * 10"}}
end:
  - {{when: "total < 0", result: never}}
report: {{total: total}}
"""


@pytest.mark.parametrize("kind, default, low, high", [
    # Keys the same in every game (the first lookup), then per game (the second): brawl matches reach 1
    # only (2 dice; reach 2 finds the default's 1), melee every reach 1-3 (4 dice, and 1 more for a blade).
    ("brawl", "    default: {dice: 1, label: none}\n", 3 * (2 + 10), 3 * (2 + 20)),
    ("melee", "    gaps: true\n", 3 * (5 + 40), 3 * (5 + 40)),
])
def test_a_lookup_whose_keys_every_game_shares_finds_the_general_ways_row(tmp_path, kind, default, low, high):
    path = tmp_path / "lookups.yaml"
    path.write_text(LOOKUP.format(kind=kind, default=default))
    for backend in ("lockstep", "untraced"):
        run = simulate(str(path), 300, seed=5, backend=backend)
        report = run.to_json()["report"]["total"]
        assert (report["min"], report["max"]) == (low, high), (backend, report)


def test_a_lookup_whose_shared_keys_match_no_row_stops_with_the_untraced_message(tmp_path):
    path = tmp_path / "lookups.yaml"
    path.write_text(LOOKUP.format(kind="thrown", default="    gaps: true\n"))
    messages = []
    for backend in ("lockstep", "untraced"):
        with pytest.raises(Exception) as caught:
            simulate(str(path), 50, seed=5, backend=backend)
        messages.append(str(caught.value))
    assert all("no row of table 'attacks' matches thrown, 1" in m for m in messages), messages


UNREAD = """ruleset: unread
title: Unread locals (test)
state: {{total: 0, line: {{text: ""}}}}
procedures:
  shown:
    params: [n]
    steps:
      - let: {{sep: "''", names: "''"}}
      - repeat: {{times: n}}
        do:
          - note: {{names: "{{names}}{{sep}}x"}}
          - set: {{sep: "', '"}}
      - for_each: f
        in: 3d6
        do: [{{note: {{names: "{{names}}{{f}}"}}}}]
      - say: "{{names}}"
      - roll: {{d: 1d6}}
        label: "{{sep}}"
      - set: {{total: total + sum(d)}}
  kept:
    params: [n]
    steps:
      - let: {{sep: "''"}}
      - repeat: {{times: n}}
        do:
          - note: {{line: "{{line}}{{sep}}x"}}
          - set: {{sep: "', '"}}
      - set: {{total: "total + (1 if line != '' else 0)"}}
loop:
  - name: turn
    max: 4
    steps:
      - call: shown
        with: {{n: 3}}
      - call: kept
        with: {{n: 2}}
{extra}end:
  - {{when: "total > 1000", result: never}}
report: {{total: total}}
"""


def test_a_local_only_shown_is_found_unread_in_its_procedure_only(tmp_path):
    path = tmp_path / "unread.yaml"
    path.write_text(UNREAD.format(extra=""))
    ruleset = load(str(path))
    found = unread_locals(ruleset, _read_names(ruleset))
    where = {id(step): step.path for step in walk.all_steps(ruleset)}
    step = {id(one): one for one in walk.all_steps(ruleset)}
    unread = sorted((where[k][1], walk.kind_of(step[k]).key, sorted(names)) for k, names in found.items())
    # In shown, sep is read by a note nothing reads (names: only said) and by a roll's label: unread,
    # at its let: and its set:; so is f, the for_each's name. In kept, the note writes line, a state
    # variable a formula reads: sep is read there.
    assert unread == [("shown", "for_each", ["f"]), ("shown", "let", ["sep"]), ("shown", "set", ["sep"])], unread
    for backend in ("lockstep", "untraced"):
        run = simulate(str(path), 200, seed=9, backend=backend)
        report = run.to_json()["report"]["total"]
        # Each turn: a d6, and 1 once kept's note wrote line (from the first turn on).
        assert report["min"] >= 4 * (1 + 1) and report["max"] <= 4 * (6 + 1), (backend, report)


def test_a_local_a_move_reads_is_not_unread(tmp_path):
    path = tmp_path / "unread.yaml"
    text = UNREAD.format(extra="").replace(
        "      - say: \"{names}\"\n",
        "      - say: \"{names}\"\n      - let: {have: 3, got: 0}\n      - move: {count: 2, from: have, to: got}\n"
        "      - set: {total: total + got}\n")
    path.write_text(text)
    ruleset = load(str(path))
    found = unread_locals(ruleset, _read_names(ruleset))
    assert all(names in ({"sep"}, {"f"}) for names in found.values()), found


THROUGH = """ruleset: through
title: Fields written through locals
entities:
  character:
    count: 3
    names: "{'A' if index == 1 else 'B' if index == 2 else 'C'}"
    fields:
      done: 0
state:
  total: 0
loop:
  - name: round
    max: 2
    steps:
      - for_each: c
        in: character
        do:
          - set: {c.done: 1}
      - let: {first: "instance(character, 1)"}
      - set: {first.done: 5}
      - set: {total: "total + sum_of(character, done)"}
end:
  - {when: "total > 1000", result: never}
report: {total: total}
"""


def test_a_local_a_set_writes_through_is_kept_and_both_backends_agree(written):
    # Each round: the 3 instances done 1, then A's 5: the sum 7, so total 14 after two rounds, in
    # every game (the places are written through c and first, which no formula reads).
    path = written.path(THROUGH, "through.yaml")
    ruleset = load(str(path))
    found = unread_locals(ruleset, _read_names(ruleset))
    assert not any({"c", "first"} & names for names in found.values()), found
    for backend in ("lockstep", "untraced"):
        report = simulate(str(path), 50, seed=3, backend=backend).to_json()["report"]["total"]
        assert report["min"] == report["max"] == 14, (backend, report)


EMPTY_TABLE = """ruleset: empty
title: A table emptied (test)
tables:
  t:
    key: k
{default}    rows:
      - {{k: 1, v: 5}}
state: {{total: 0}}
loop:
  - name: turn
    max: 2
    steps:
      - let: {{r: 1d6}}
      - {{lookup: t, keys: {{k: "{key}"}}, as: a, quiet: true}}
      - set: {{total: "total + a.v"}}
end:
  - {{when: "total < 0", result: never}}
report: {{total: total}}
"""


def _emptied(tmp_path, key: str, default: str):
    """The ruleset with its table's rows taken away after the checker accepted it (it refuses
    rows: [], as the test below holds): how both backends meet a table of no row."""
    path = tmp_path / "empty.yaml"
    path.write_text(EMPTY_TABLE.format(key=key, default=default))
    ruleset = load(str(path))
    ruleset.tables["t"].rows = []
    return ruleset


def _both_backends(ruleset, games: int = 40):
    """(lockstep's, untraced's) totals of `games` games, or the message each stopped with."""
    from ruleset_engine.analysis.simulate import DEFAULT_RUN_LIMITS, MAX_ROUNDS, play_game, simulation_program
    from ruleset_engine.analysis.summary import Totals
    from ruleset_engine.runtime import lockstep, resolve_params

    params = resolve_params(ruleset, {})
    out = []
    try:
        tally = Totals()
        lockstep.play_range(ruleset, params, 1, 0, games, tally, DEFAULT_RUN_LIMITS, MAX_ROUNDS)
        out.append(sorted(tally.values["total"].counts.items()))
    except Exception as err:
        out.append(str(err))
    program = simulation_program(ruleset, params)
    try:
        totals = [play_game(program, seed)[2]["total"] for seed in range(games)]
        out.append(sorted({t: totals.count(t) for t in totals}.items()))
    except Exception as err:
        out.append(str(err))
    return out


@pytest.mark.parametrize("key", [
    "7",                # the same in every game: the row found once (_lookup_once, find_row)
    "sum(r) + 6",       # per game: the general way
])
def test_a_table_of_no_row_says_what_the_untraced_backend_says(tmp_path, key):
    # No default: no row matches, in the words find_row says it (the key each game was given
    # differs between the backends' dice when it is per game: 7 to 12)
    lockstep_said, untraced_said = _both_backends(_emptied(tmp_path, key, ""))
    shared = key == "7"
    for said in (lockstep_said, untraced_said):
        assert isinstance(said, str) and "no row of table 't' matches " in said, said
        assert "(add a row, or a default:)" in said and said.endswith("(at loop[0].steps[1])"), said
    if shared:      # the same key in every game: the same words, to the letter
        assert lockstep_said == untraced_said and "matches 7 (add a row" in lockstep_said
    # A default: every game finds it, twice (2 each): the same totals in both
    lockstep_found, untraced_found = _both_backends(_emptied(tmp_path, key, "    default: {v: 2}\n"))
    assert lockstep_found == untraced_found == [(4, 40)]


def test_a_table_of_no_row_is_refused_before_any_game(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text(EMPTY_TABLE.format(key="7", default="    default: {v: 2}\n").replace(
        "    rows:\n      - {k: 1, v: 5}\n", "    rows: []\n"))
    with pytest.raises(RulesetError) as err:
        load(str(path))
    assert [p.message for p in err.value.problems] == ["this must not be empty"]
