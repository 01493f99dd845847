"""Real dice at the table (`dusk play --dice manual`, `dice manual`, `dice auto`): every roll the game
needs asks for the faces rolled, says how many dice of which size and what for, checks the answer and
plays it as the game's own roll would be played; undo, resume, export and the session file as ever."""

import io
import re

import pytest

from ruleset_engine.cli import build_parser
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.repl import render
from ruleset_engine.repl.app import run as run_table
from ruleset_engine.repl.app import toolbar
from ruleset_engine.repl.completer import TableCompleter
from ruleset_engine.repl.journal import read_session
from ruleset_engine.repl.session import Session
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game
from tests.repl.conftest import GAMES, make_repl, run

ATTACK = load(GAMES["attack"])
# The starting life 15; a search 6 6 6; a coffin 2 (a vampire); a kill roll 1 4 4 4 2: it is destroyed.
FACES = [15, 6, 6, 6, 2, 1, 4, 4, 4, 2]
TYPED = ["15", "round", "6 6 6", "2", "1 4 4 4 2"]
SEARCH = "Search: roll 3d6 [3 faces from 1 to 6, separated by spaces or commas] > "


def manual(**more):
    return make_repl(GAMES["attack"], dice="manual", **more)


def entries(repl):
    return read_session(repl.session.journal.path)[1]


def rolls(log):
    return [(e.get("name"), [d["face"] for d in e["dice"]]) for e in log if e["kind"] == "roll"]


def table(argv, stdin=""):
    """`dusk play` or `dusk resume` in-process, its output on a pipe: (exit status, lines)."""
    out = io.StringIO()
    status = run_table(build_parser().parse_args(argv), stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue().splitlines()


def test_a_round_with_typed_faces_plays_as_the_same_faces_scripted():
    repl, out = manual()
    shown = run(repl, out, *TYPED).splitlines()

    scripted = Game.start(ATTACK, rng=ScriptedDice(FACES))
    scripted.perform("round")
    assert repl.session.game.values == scripted.values
    assert rolls(repl.session.game.log) == rolls(scripted.log)
    # Each roll is shown as the game's own roll of the same faces is: its label, its dice and their marks.
    virtual = [render.event(e, repl.style, repl.innermost) for e in scripted.log]
    assert shown == [line.plain for line in virtual if line is not None]
    assert shown[-2:] == ["Kill  1↓ 4 4 4 2  (↓ set aside)", "The vampire is destroyed (4 4 4)! 2 remain."]
    # and saved: the start and the round, each with the faces typed as its answers
    start, played = entries(repl)
    assert start.answers == [{"answer": [15], "by": "person", "kind": "dice"}]
    assert [a["answer"] for a in played.answers] == [[6, 6, 6], [2], [1, 4, 4, 4, 2]]


def test_the_question_says_what_the_dice_are_for_and_how_many_of_which_size():
    repl, out = manual()
    assert repl.prompt_text == "life_roll: roll 1d20 [1 face from 1 to 20] > "
    run(repl, out, "15", "round")
    assert repl.prompt_text == SEARCH
    assert toolbar(repl) == ("Life 15 | Vampires 3 | Track 6 6 6 6 | Blue kept none | Ones aside 0 | dice: manual  "
                             "(as before round: a question waits)")
    chinese, out = manual(lang="zh")
    run(chinese, out, "15", "round")
    # the catalog's words too, as `dusk play --lang zh --dice manual` asks (they were English here before
    # the tests' tables set the catalog's language as the CLI does)
    assert chinese.prompt_text == "搜索：掷 3d6 [3 个 1 到 6 的点数，用空格或逗号分隔] > "
    assert TableCompleter(chinese).candidates("", "") == []      # faces are rolled, not completed


def test_a_wrong_count_or_a_face_off_the_die_is_refused_with_the_reason_and_nothing_changes():
    repl, out = manual()
    run(repl, out, "15", "round")
    before, saved = repl.session.game.state, len(entries(repl))
    said = run(repl, out, "6 6", "7 1 1", "six", "1 " * 50_000).splitlines()
    expected = "(expected 3 faces from 1 to 6, separated by spaces or commas) - try again"
    assert said[0] == f"6 6 is not a valid answer: 2 faces, not 3 {expected}"
    assert said[1] == f"7 1 1 is not a valid answer: 7 is not on a d6 {expected}"
    assert said[2] == "six is not a valid answer: expected 3 faces from 1 to 6, separated by spaces or commas - try again"
    assert said[3].startswith("an answer of 99,999 characters is not a valid answer (the longest read here is 200)")
    assert len(said) == 4 and len(said[3]) < 200          # a huge answer is refused in words, not echoed
    assert repl.errors == 4
    assert repl.session.game.state == before and len(entries(repl)) == saved
    assert repl.prompt_text == SEARCH                     # asked again
    assert run(repl, out, "[6, 2, 6]") == "Search  6 2 6\n" and repl.decision is None


def test_a_re_rolled_die_is_asked_for_alone():
    # life_roll is 1d20rr<10: an 8 is rolled again, and only that die is asked for
    repl, out = manual()
    assert run(repl, out, "8") == ""
    assert repl.prompt_text == "life_roll: roll 1 more d20 [1 face from 1 to 20] > "
    assert run(repl, out, "13").splitlines()[0] == "life_roll  8→13  (→ re-rolled)"
    assert repl.session.game.values["hunter"]["life"] == 13
    # The 8 was saved as the setup's answer while the re-roll waited; the start holds both.
    assert [e.kind for e in entries(repl)] == ["setup", "start"]
    assert entries(repl)[0].answers == [{"answer": [8], "by": "person", "kind": "dice"}]
    assert entries(repl)[1].answers == [{"answer": [8], "by": "person", "kind": "dice"},
                                        {"answer": [13], "by": "person", "kind": "dice"}]


def test_undo_takes_back_the_faces_and_the_round_asks_for_them_again():
    repl, out = manual()
    run(repl, out, "15")
    before = repl.session.game.state
    run(repl, out, "round", "6 2 6")
    assert repl.session.game.values["blue"] == [6, 6]
    assert run(repl, out, "undo") == "Undone: round (turn 1).\n"
    assert repl.session.game.state == before
    run(repl, out, "round")
    assert repl.prompt_text == SEARCH                    # asked again: the faces were answers, not dice kept
    assert run(repl, out, "1 1 1") == "Search  1 1 1\n"
    assert repl.session.game.values["blue"] == []
    # an undo while the faces are asked for drops the question
    run(repl, out, "round")
    assert run(repl, out, "undo") == "The question is dropped; the action did not happen.\n"
    assert repl.decision is None and repl.session.game.turn == 2


def test_the_setup_s_question_cannot_be_undone():
    repl, out = manual()
    assert run(repl, out, "undo") == "nothing to undo: the game's setup waits for this answer before the game begins\n"
    assert repl.session.game.starting and repl.prompt_text.startswith("life_roll: roll 1d20")


def test_auto_n_with_real_dice_asks_for_each_roll_and_is_one_command():
    repl, out = manual()
    run(repl, out, "15")
    assert run(repl, out, "auto 3") == ""
    assert repl.prompt_text == SEARCH                      # round 1 asks; auto never rolls real dice itself
    assert run(repl, out, "1 2 3") == "Search  1 2 3\n"
    assert repl.prompt_text == SEARCH                      # and goes on: round 2
    assert run(repl, out, "auto") == ("auto cannot roll real dice: type the faces rolled (dice auto lets the game "
                                      "roll them, from the next action)\n")
    run(repl, out, "6 6 5")
    assert repl.prompt_text.startswith("Search: roll 1d6 ")  # round 3: the two sixes kept
    assert run(repl, out, "4").splitlines() == ["Search  6 6 4", "(3 rounds played)"]
    assert repl.decision is None and repl.session.game.turn == 4
    assert run(repl, out, "undo") == "Undone: auto 3 (turns 1–3).\n"
    assert repl.session.game.turn == 1


def test_undo_while_auto_waits_for_faces_stops_it_after_the_rounds_played():
    repl, out = manual()
    run(repl, out, "15", "auto 5", "1 2 3")
    assert run(repl, out, "undo").splitlines() == ["The question is dropped; the action did not happen.",
                                                   "(auto 5 stops: 1 round played)"]
    assert repl.decision is None and repl.auto_run is None and repl.session.game.turn == 2
    assert run(repl, out, "undo") == "Undone: auto 5 (turn 1).\n"


def test_auto_answers_the_ruleset_s_own_questions_and_asks_only_for_the_dice():
    # pool-conflict asks each player how many dice they risk (auto: all) and how many ties (auto: 0), then
    # rolls: with real dice, auto answers both questions and the faces typed are the roll's, not answers.
    faces = [4, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 1, 1, 2, 3, 4, 5, 6, 6, 5, 4]
    repl, out = make_repl(GAMES["pool"], dice="manual")
    said = run(repl, out, "auto 1", "4", "1 2 3 4 5 6 1 2 3 4", "1 1 2 3 4 5 6 6 5 4").splitlines()
    assert "P1: how many of your 10 dice do you risk? 10 (auto)" in said
    assert "P2: how many relationships do you bring in? 0 (auto)" in said
    assert said[-1] == "(1 round played)" and repl.errors == 0

    scripted = Game.start(load(GAMES["pool"]), rng=ScriptedDice(faces))
    outcome = scripted.perform("conflict")
    while outcome.decision is not None:
        outcome = scripted.auto_answer(outcome.decision)
    assert repl.session.game.values == scripted.values
    assert rolls(repl.session.game.log) == rolls(scripted.log)


def test_export_and_log_show_the_rolls_of_real_dice(tmp_path):
    repl, out = manual()
    run(repl, out, *TYPED)
    assert run(repl, out, "log 4").splitlines() == ["Coffin  2", "A vampire in the coffin (green 2)! The attempt "
                                                     "to kill it begins.", "Kill  1↓ 4 4 4 2  (↓ set aside)",
                                                     "The vampire is destroyed (4 4 4)! 2 remain."]
    run(repl, out, f"export {tmp_path / 'chronicle.md'}")
    text = (tmp_path / "chronicle.md").read_text(encoding="utf-8")
    for line in ("life_roll  15", "Search  6 6 6", "Coffin  2", "Kill  1↓ 4 4 4 2  (↓ set aside)"):
        assert f"```\n{line}\n```" in text


def test_dice_says_and_switches_who_rolls_between_actions():
    repl, out = make_repl(GAMES["attack"], seed=5)
    assert run(repl, out, "dice").startswith("The game rolls its own dice")
    assert run(repl, out, "dice manual") == ("Real dice from now on: every roll the game needs asks for the faces "
                                             "rolled.\n")
    assert run(repl, out, "dice").startswith("Real dice: every roll")
    assert run(repl, out, "dice manual").startswith("The dice are manual already.")
    assert run(repl, out, "dice loaded") == "dice takes manual or auto (dice manual), not 'loaded'\n"
    run(repl, out, "round")
    assert run(repl, out, "dice auto") == ("a question waits: answer it first (or undo drops it); dice auto takes "
                                           "effect between actions\n")
    assert repl.session.manual_dice and repl.prompt_text == SEARCH
    run(repl, out, "2 3 4")
    assert run(repl, out, "dice auto") == "The game rolls its own dice from now on, going on where they left off.\n"
    assert "dice: manual" not in repl.status()
    assert [e.command for e in entries(repl) if e.kind == "dice"] == ["dice manual", "dice auto"]
    # in help, and completed by Tab
    assert any(line.split()[:1] == ["dice"] for line in run(repl, out, "help").splitlines())
    assert run(repl, out, "help dice").splitlines()[-1].startswith("The command dice [manual|auto]: real dice")
    completer = TableCompleter(repl)
    assert "dice" in completer.candidates("di", "di")
    assert completer.candidates("dice ", "") == ["manual", "auto"]


def test_dice_auto_mid_game_goes_on_with_the_game_s_own_dice():
    # Rounds of real dice draw nothing from the game's dice: the next round rolls what the first would have.
    plain, out = make_repl(GAMES["attack"], seed=5)
    first = run(plain, out, "round", "round").splitlines()
    mixed, out = make_repl(GAMES["attack"], seed=5)
    run(mixed, out, "dice manual", "round", "1 1 1", "round", "2 2 2")   # 1 1 1 none kept; 2 2 2 none kept
    assert mixed.session.game.values["blue"] == []
    run(mixed, out, "dice auto")
    assert run(mixed, out, "round", "round").splitlines() == first
    assert first[0] != "Search  2 2 2"


def test_a_resumed_manual_session_asks_for_dice_where_it_did(tmp_path):
    repl, out = manual()
    run(repl, out, *TYPED, "round")                        # the next round waits for its faces
    state, log = repl.session.game.state, repl.session.game.log
    path = repl.session.journal.path
    repl.session.close()
    resumed = Session.resume(path)
    assert resumed.manual_dice and resumed.game.state == state and resumed.game.log == log
    reply = resumed.perform("round", {}, "round")
    assert reply.decision.kind == "dice" and reply.decision.prompt == "Search: 3d6"
    resumed.close()
    # and the same from the shell: the status line says so, the round asks, the faces play it
    status, lines = table(["resume", str(path), "-c", "round; 6 6 1; status"])
    assert status == 0
    assert lines[1:] == [
        "Real dice: every roll the game needs asks for the faces rolled (dice auto: the game rolls).",
        "Life 15 | Vampires 2 | Track 5 6 6 6 | Blue kept none | Ones aside 0 | dice: manual",
        "> round",
        SEARCH + "6 6 1",
        "Search  6 6 1",
        "> status",
        "Life 15 | Vampires 2 | Track 4 6 6 6 | Blue kept 6 6 | Ones aside 0 | dice: manual",
    ]


def test_a_switch_is_resumed_where_it_was_and_resume_dice_switches(tmp_path):
    save = tmp_path / "game.dusk"
    status, _ = table(["play", "--seed", "5", "--save", str(save), "-c", "round; dice manual; round; 1 1; dice auto"])
    assert status == 0
    resumed = Session.resume(save)
    assert not resumed.manual_dice          # the last switch: the game's own dice
    resumed.close()                         # one table per session: closed before the next opens it
    status, lines = table(["resume", str(save), "--dice", "manual", "-c", "round"])
    assert status == 1 and lines[-2].startswith("Search: roll ")      # asked, and the script ended there
    assert lines[-1] == ("The script ended with a question unanswered, so round was not played: the session file "
                         "keeps the game as it was before it (resume it, and round asks for its dice again).")
    assert [e.command for e in read_session(save)[1] if e.kind == "dice"] == ["dice manual", "dice auto",
                                                                                     "dice manual"]
    resumed = Session.resume(save)
    assert resumed.manual_dice
    resumed.close()


def test_the_session_file_replays_a_game_of_real_dice(tmp_path):
    """What the file keeps is enough to play the game again: the dice it began with, each switch, each
    action with the answers it was given (the faces among them), each undo."""
    repl, out = manual()
    run(repl, out, "8", "13", "round", "6 2 6", "dice auto", "auto 3", "undo", "dice manual", "auto 2", "5", "3",
        "round", "4", "undo")
    assert repl.errors == 0 and repl.session.game.turn == 4
    meta, saved = read_session(repl.session.journal.path)
    saved = [entry for entry in saved if entry.kind != "setup"]     # the start holds the setup's answers
    game = Game.start(load(meta["source"]), meta["params"], meta["seed"], manual_dice=meta["dice"] == "manual")

    def answered(outcome, answers):
        for given in answers:
            outcome = game.answer(outcome.decision, given["answer"])
        assert outcome.decision is None

    answered(game.last_outcome, saved[0].answers)
    for entry in saved[1:]:
        if entry.kind == "dice":
            game.use_manual_dice(entry.command == "dice manual")
        elif entry.kind == "action":
            action = next(e for e in entry.events if e["kind"] == "action")
            answered(game.perform(action["name"], **action["args"]), entry.answers)
        elif entry.kind == "undo":
            for _ in [e for e in entry.events if e["kind"] == "undo"]:
                game.undo()
    assert game.values == repl.session.game.values and game.turn == repl.session.game.turn
    assert rolls(game.log) == rolls(repl.session.game.log)
    assert [e.get("undone", False) for e in game.log if e["kind"] == "roll"] == \
        [e.get("undone", False) for e in repl.session.game.log if e["kind"] == "roll"]


def test_a_script_of_real_dice_reads_as_the_prompt_does(tmp_path):
    status, lines = table(["play", "--seed", "7", "--dice", "manual", "--save", str(tmp_path / "g.dusk"), "-c",
                           "12; round; 6 2; 6 2 6"])
    assert status == 1                                     # 6 2 was refused
    assert lines[2:] == [
        "Real dice: every roll the game needs asks for the faces rolled (dice auto: the game rolls).",
        "life_roll: roll 1d20 [1 face from 1 to 20] > 12",
        "life_roll  12",
        "The hunt begins with 12 life, 3 vampires in the pool, and the track at 6 6 6 6.",
        "> round",
        SEARCH + "6 2",
        "6 2 is not a valid answer: 2 faces, not 3 (expected 3 faces from 1 to 6, separated by spaces or commas) "
        "- try again",
        SEARCH + "6 2 6",
        "Search  6 2 6",
    ]


def test_new_keeps_the_table_s_dice():
    repl, out = manual()
    run(repl, out, "15", "new", "yes")
    assert repl.session.manual_dice and repl.prompt_text.startswith("life_roll: roll 1d20")


@pytest.mark.parametrize("argv", [["play", "--dice", "loaded"], ["resume", "--dice", "sometimes"]])
def test_dice_takes_manual_or_auto(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(argv)
    assert stop.value.code == 2
    assert re.search(r"--dice: invalid choice: '\w+' \(choose from '?manual'?, '?auto'?\)", capsys.readouterr().err)


def test_a_session_saved_before_real_dice_resumes_with_the_game_s_dice(tmp_path):
    import sqlite3

    repl, out = make_repl(GAMES["attack"], seed=5)
    run(repl, out, "auto 2")
    state, path = repl.session.game.state, repl.session.journal.path
    repl.session.close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE entries DROP COLUMN answers")
    db.execute("DELETE FROM meta WHERE key = 'dice'")
    db.commit()
    db.close()
    resumed = Session.resume(path)
    assert not resumed.manual_dice and resumed.game.state == state
    assert resumed.perform("round", {}, "round").decision is None        # rolled by the game
    resumed.close()
    saved = read_session(path)[1]                # the column is there now: empty before, kept after
    assert [e.answers for e in saved] == [None, None, None, []]


SETUP_DICE = """\
ruleset: setup-dice-test
title: Setup dice (test)
state:
  gold: 0
setup:
  - ask: "How much gold do you bring?"
    as: brought
    number: {min: 1, max: 3}
    auto: 2
  - roll: {found: 1d6}
    label: Found
  - set: {gold: brought + found}
loop:
  - name: turn
    times: 3
    steps:
      - ask: "Spend how much?"
        as: spent
        number: {min: 0, max: 1}
        auto: 1
      - roll: {found: 2d6}
        label: Found
      - set: {gold: gold + found - spent}
      - say: "Gold {gold}."
"""


def test_auto_at_a_question_before_real_dice_gives_its_answer_and_the_faces_are_the_roll_s(tmp_path):
    # In the setup and in an action alike: auto's answer is the question's, the faces typed the roll's.
    path = tmp_path / "setup.yaml"
    path.write_text(SETUP_DICE, encoding="utf-8")
    repl, out = make_repl(str(path), dice="manual")
    said = run(repl, out, "auto", "4").splitlines()
    assert said[:2] == ["How much gold do you bring? 2 (auto)", "Found  4"]
    assert repl.session.game.values["gold"] == 6 and not repl.session.game.starting
    run(repl, out, "turn", "auto")
    assert repl.prompt_text.startswith("Found: roll 2d6 ")
    assert run(repl, out, "3 4").splitlines()[:2] == ["Found  3 4", "Gold 12."]    # 6 + 3 + 4 - 1
    assert entries(repl)[-1].answers == [{"answer": 1, "by": "auto", "kind": "number"},
                                         {"answer": [3, 4], "by": "person", "kind": "dice"}]
