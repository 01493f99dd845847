"""Sessions hardened (issue 24): a session on a read-only file system said so with the way on, hand-edited
values of the wrong kind refused at resume naming the entry and the field, a bounded number of questions
in one action, and entries that keep what changed rather than the whole game."""

import re
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ruleset_engine.repl.journal import JournalError
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, as_first_format, make_repl, run

DUSK = str(Path(sys.executable).parent / "dusk")


# ---- 12: a session on a read-only file system

def test_a_session_on_a_read_only_file_system_says_so_and_how_to_go_on(tmp_path):
    # A real read-only mount (a bind mount remounted read-only, in a user namespace of its own).
    repl, out = make_repl(GAMES["attack"], seed=3)
    run(repl, out, "auto 2")
    repl.session.close()
    (tmp_path / "rw").mkdir()
    (tmp_path / "ro").mkdir()
    shutil.copy(repl.session.journal.path, tmp_path / "rw" / "my game.dusk")
    data = tmp_path / "ro-data"
    (data / "sessions").mkdir(parents=True)
    shutil.copy(repl.session.journal.path, data / "sessions" / "kept.dusk")
    script = (f"mount --bind {tmp_path}/rw {tmp_path}/ro && mount -o remount,ro,bind {tmp_path}/ro && "
              f"mount --bind {data} {data} && mount -o remount,ro,bind {data} && "
              f"{DUSK} resume '{tmp_path}/ro/my game.dusk' -c state; echo rc=$?; {DUSK} sessions")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, DUSK_DATA_DIR=str(data)))
    path = f"{tmp_path}/ro/my game.dusk"
    assert done.stdout.startswith(
        f"{path} is a dusk session, but it cannot be played where it is: it is on a read-only file system, and "
        f"every command is saved into it as it is done. Copy it somewhere you can write (cp '{path}' "
        f"~/'my game.dusk') and resume the copy; it was left as it is\nrc=2\n"), done.stdout
    assert "not a dusk session" not in done.stderr + done.stdout and "Traceback" not in done.stderr
    # dusk sessions reads the sessions of a read-only data folder as they are.
    listed = [line for line in done.stdout.splitlines() if line.endswith("kept.dusk")]
    assert len(listed) == 1 and "attack-of-the-vampires" in listed[0] and "not a dusk session" not in listed[0]
    assert (tmp_path / "rw" / "my game.dusk").read_bytes() == (data / "sessions" / "kept.dusk").read_bytes()


# ---- 14: answers to one action replay it from its start: the questions of one action are bounded

MANY = str(Path(__file__).resolve().parents[1] / "rulesets" / "heavy" / "many-questions.yaml")


def test_an_action_asking_past_the_limit_of_questions_is_refused_and_undo_drops_it():
    from ruleset_engine.runtime.limits import DEFAULT_RUN_LIMITS

    assert DEFAULT_RUN_LIMITS.max_questions == 1_000
    repl, out = make_repl(MANY, seed=1)
    run(repl, out, "tally 20000")
    for _ in range(999):
        repl.run_line("7")
    assert repl.errors == 0 and repl.decision is not None
    text = run(repl, out, "7")
    assert text == ("tally asks more than 1,000 questions (the most one action may ask at the table, as each answer "
                    "replays it from its start): it cannot be finished; undo drops it (the game is as before it)\n")
    assert repl.decision is not None and repl.session.game.values["total"] == 0
    run(repl, out, "undo")
    assert repl.decision is None and repl.session.game.pending is None
    # An action within the limit is played to its end, every answer counted.
    run(repl, out, "tally 3", "1", "2", "3")
    assert repl.session.game.values["total"] == 6 and repl.errors == 1
    repl.session.close()


def test_auto_answers_do_not_replay_and_are_not_bounded():
    repl, out = make_repl(MANY, seed=1)
    run(repl, out, "tally 5000", "auto")
    assert repl.errors == 0 and repl.session.game.values["total"] == 5000
    repl.session.close()


# ---- 11: a hand-edited value of the wrong kind is refused at resume, naming the entry and the field

def _saved(game, tmp_path, *lines):
    repl, out = make_repl(GAMES[game] if game in GAMES else game, seed=4)
    run(repl, out, *lines)
    repl.session.close()
    return repl.session.journal.path


def _edit_last_game(path, change):
    import json
    import sqlite3

    as_first_format(path)       # every game whole, as a hand edits it
    db = sqlite3.connect(path)
    n, text = db.execute("SELECT n, game FROM entries ORDER BY n DESC LIMIT 1").fetchone()
    game = json.loads(text)
    change(game["values"])
    db.execute("UPDATE entries SET game = ? WHERE n = ?", (json.dumps(game), n))
    db.commit()
    db.close()
    return n


GROUP = str(Path(__file__).resolve().parents[1] / "rulesets" / "pair-records.yaml")


@pytest.mark.parametrize("game, change, said", [
    ("attack", lambda v: v.update(vampires="three"), "value vampires is a text, not a whole number within ±2^53"),
    ("attack", lambda v: v.update(vampires=2**53 + 1), "value vampires is the number 9007199254740993, not a "
                                                       "whole number within ±2^53"),
    ("attack", lambda v: v.update(ones=float("inf")), "value ones is inf (a number with a fraction, or not a "
                                                      "number), not a whole number within ±2^53"),
    ("attack", lambda v: v.update(ones=float("nan")), "value ones is nan (a number with a fraction"),
    ("attack", lambda v: v.update(fighting=1), "value fighting is the number 1, not true/false"),
    ("attack", lambda v: v.update(track=[6, "6"]), "value track is a list, not a pool of dice"),
    ("attack", lambda v: v.update(hunter=["hunter", 19]), "value hunter is a list, not an instance"),
    ("attack", lambda v: v["hunter"].pop("life"), "value hunter has no life"),
    ("attack", lambda v: v["hunter"].update(life=10**40), "value hunter.life is a number past ±2^53"),
    (GROUP, lambda v: v.update(person={"1": v["person"][0]}), "value person is a mapping, not a list of instances"),
    (GROUP, lambda v: v["person"][1].update(owed="lots"), "value person[2].owed is a text, not a whole number"),
    (GROUP, lambda v: v["person"][2].pop("name"), "value person[3] has no name"),
    (GROUP, lambda v: v["person"][0].update(index=2), "value person[1].index is the number 2, not 1"),
    (GROUP, lambda v: v["bond"]["1,2"].update(strength=[1]), "value bond[1,2].strength is a list, not a whole number"),
])
def test_a_value_of_the_wrong_kind_is_refused_at_resume_naming_entry_and_field(tmp_path, game, change, said):
    path = _saved(game, tmp_path, "auto 2")
    n = _edit_last_game(path, change)
    with pytest.raises(JournalError) as refused:
        Session.resume(path)
    text = str(refused.value)
    assert f"is damaged or its ruleset changed: entry {n} (" in text and said in text, text
    assert not re.search(r"\bbug\b", text) and "Traceback" not in text


def test_a_track_whose_numbers_do_not_agree_with_its_marks_is_refused():
    source = "vampire-the-masquerade"
    path = _saved(source, None, "auto 1")
    n = _edit_last_game(path, lambda v: v["character"][0]["health"].update(marked=5))
    with pytest.raises(JournalError, match=rf"entry {n} .*value character\[1\]\.health\.marked does not agree "
                                           "with the track's marks"):
        Session.resume(path)
    n = _edit_last_game(path, lambda v: v["character"][0]["health"].update(marked=0, marks=["nothing"]))
    with pytest.raises(JournalError, match=r"value character\[1\]\.health\.marks is not a list of at most 7 marks"):
        Session.resume(path)


def test_a_game_keeping_timers_resumes_and_a_damaged_timer_is_refused():
    # VtM keeps values until the turn ends (set: ... until: turn): its sessions hold _timers.
    path = _saved("vampire-the-masquerade", None, "test 3 as Ana")
    resumed = Session.resume(path)
    assert resumed.game.values["_timers"] and resumed.game.values["resolving"] is True
    resumed.close()
    n = _edit_last_game(path, lambda v: v["_timers"].append(["s", "no_such", 0, [1], 0]))
    with pytest.raises(JournalError, match=rf"entry {n} .*_timers\[1\] names no state variable or field"):
        Session.resume(path)
    _edit_last_game(path, lambda v: v["_timers"].__setitem__(1, "x"))
    with pytest.raises(JournalError, match=r"_timers\[1\] is not a timer"):
        Session.resume(path)


# ---- 4: what one action keeps of its chronicle is bounded; the rest is counted

CHATTY = str(Path(__file__).resolve().parents[1] / "rulesets" / "heavy" / "chatty.yaml")


def test_an_action_keeps_about_a_million_characters_of_its_chronicle_and_counts_the_rest():
    from ruleset_engine.runtime.run import MAX_EVENT_WEIGHT, _weight

    repl, out = make_repl(CHATTY, seed=1)
    text = run(repl, out, "talk")
    game = repl.session.game
    assert game.values["said"] == 20_000                 # every turn of the loop was played
    events = [e for e in game.log if e["kind"] != "start"]
    kept = [e for e in events if e["kind"] in ("note", "say", "set")]
    elided = [e for e in events if e["kind"] == "elided"]
    assert len(elided) == 1 and elided[0] is events[-1]
    # Every line of the loop is either kept or counted: three of each kind per turn.
    counted = elided[0]["kinds"]
    for kind in ("note", "say", "set"):
        assert sum(1 for e in kept if e["kind"] == kind) + counted.get(kind, 0) == 20_000
    assert elided[0]["count"] == 60_000 - len(kept)
    weight = sum(_weight({k: v for k, v in e.items() if k not in ("seq", "turn", "kind")}) for e in kept)
    assert MAX_EVENT_WEIGHT <= weight < MAX_EVENT_WEIGHT + 1_000          # the last one kept passes it
    assert text.rstrip().endswith(f"(and {elided[0]['count']:,} more lines of this action, not kept: an action "
                                  "keeps about a million characters of the chronicle)")
    path = repl.session.journal.path
    repl.session.close()
    assert path.stat().st_size < 3 * MAX_EVENT_WEIGHT          # 12 MB before the bound
    resumed = Session.resume(path)
    assert resumed.game.log[-1] == elided[0]
    resumed.undo()
    assert resumed.game.values["said"] == 0 and resumed.game.log[-2]["undone"]
    resumed.close()


# ---- 4: each entry keeps what changed, not the whole game; sessions of the first format go on

CROWD = str(Path(__file__).resolve().parents[1] / "rulesets" / "heavy" / "crowd.yaml")


def _column_sizes(path):
    import sqlite3

    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT n, length(game) + length(free_rng) FROM entries ORDER BY n").fetchall()
    finally:
        db.close()


def entries_first_values(path):
    from ruleset_engine.repl.journal import read_session

    return read_session(path)[1][0].game["values"]


def test_an_entry_keeps_what_changed_not_the_whole_crowd():
    import json

    repl, out = make_repl(CROWD, seed=2, people=2000)
    run(repl, out, "auto 5")
    game = repl.session.game
    whole = len(json.dumps(game.core())) + len(json.dumps(repl.session.journal._last[1]))
    path = repl.session.journal.path
    repl.session.close()
    sizes = _column_sizes(path)
    assert len(sizes) == 6 and whole > 60_000            # the start, five rounds; 2,000 instances
    assert sizes[0][1] > 60_000                            # the start keeps the game whole
    # A round changes one instance, the round's counters and the dice: a few hundred bytes, not the crowd
    # (and the dice source's 625 numbers when it draws them anew, every 624 draws: about 7 KB).
    assert all(size < 10_000 for _, size in sizes[1:]), sizes
    assert sum(size for _, size in sizes[1:]) < whole // 5
    resumed = Session.resume(path)
    assert resumed.game.core() == game.core() and resumed.game.values["rounds"] == 5
    resumed.undo()                                         # auto 5 is one command: its five rounds
    assert resumed.game.values["rounds"] == 0 and resumed.game.core()["values"] == entries_first_values(path)
    resumed.close()


def test_a_session_of_the_first_format_resumes_and_goes_on_in_this_one():
    from ruleset_engine.repl.journal import read_session

    repl, out = make_repl(GAMES["attack"], seed=8)
    run(repl, out, "auto 3", "undo", "roll 2d6")
    path = repl.session.journal.path
    state = repl.session.game.state
    repl.session.close()
    as_first_format(path)
    meta, _ = read_session(path)
    assert meta["format"] == "dusk-session/1"
    session = Session.resume(path)
    assert session.game.state == state
    session.perform("round", {}, "round")
    after = session.game.state
    session.close()
    meta, entries = read_session(path)
    assert meta["format"] == "dusk-session/2" and entries[-1].game["values"] == after["values"]
    again = Session.resume(path)
    assert again.game.state == after and [c.text for c in again.commands] == ["round"]
    again.close()


@pytest.mark.parametrize("change, said", [
    ('{"changed": {"[": {}, "n": 625}}', "entry 2 (auto 2): game changes a list, but the value before it is not one"),
    ('{"changed": {"{": {"values": {"{": {"nobody": {"{": {}}}}}}}', "entry 2 (auto 2): game.values.nobody "
                                                                    "adds a key without its value"),
    ('{"changed": {"{": {}, "-": ["rng"]}}', "entry 2 (auto 2): game has no rng"),
    ('{"changed": 7}', "entry 2 (auto 2): game is not a change"),
])
def test_a_damaged_change_is_refused_with_its_place(change, said):
    import sqlite3

    repl, out = make_repl(GAMES["attack"], seed=8)
    run(repl, out, "auto 2")
    path = repl.session.journal.path
    repl.session.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE entries SET game = ? WHERE n = 2", (change,))
    db.commit()
    db.close()
    with pytest.raises(JournalError) as refused:
        Session.resume(path)
    assert said in str(refused.value) and "it was left as it is" in str(refused.value), str(refused.value)
