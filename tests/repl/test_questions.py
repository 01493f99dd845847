"""A question at the table, from a script: its prompt where it is asked, the state while it waits,
and a script that ends before answering it (said, exit status 1, nothing of the action saved)."""

import io

import pytest

from ruleset_engine.cli import build_parser
from ruleset_engine.repl.app import run as run_table
from ruleset_engine.repl.app import script_loop, toolbar
from ruleset_engine.repl.completer import TableCompleter
from ruleset_engine.repl.session import Session
from tests.repl.conftest import GAMES, make_repl, run

TURNS = """\
ruleset: question-test
title: Questions (test)
state:
  gold: 5
SETUP
loop:
  - name: turn
    times: 3
    steps:
      - roll: {found: 1d6}
        label: Found
      - set: {gold: gold + found}
      - say: "Gold {gold}."
      - ask: "How much do you spend? (you have {gold})"
        as: spent
        number: {min: 0, max: 2}
        auto: 0
      - set: {gold: gold - spent}
      - say: "Spent {spent}; {gold} left."
status: "Turn {loop.turn} | Gold {gold}"
"""

SETUP = """\
setup:
  - ask: "How much gold do you bring?"
    as: brought
    number: {min: 1, max: 3}
    auto: 1
  - set: {gold: brought}
"""

QUESTION = "How much do you spend? (you have {gold}) [a whole number from 0 to 2] >"


def ruleset(tmp_path, setup=False) -> str:
    path = tmp_path / "turns.yaml"
    path.write_text(TURNS.replace("SETUP\n", SETUP if setup else ""), encoding="utf-8")
    return str(path)


def table(source, save, how, commands, *more):
    """Run `dusk play` in-process with the commands from -c, a --script file or a pipe; (status, lines)."""
    argv = ["play", source, "--seed", "2", "--save", str(save), *more]
    stdin = io.StringIO("")
    if how == "-c":
        argv += ["-c", "; ".join(commands)]
    elif how == "--script":
        script = save.with_suffix(".txt")
        script.write_text("\n".join(commands) + "\n", encoding="utf-8")
        argv += ["--script", str(script)]
    else:
        stdin = io.StringIO("\n".join(commands) + "\n")
    out = io.StringIO()
    status = run_table(build_parser().parse_args(argv), stdin=stdin, stdout=out)
    return status, out.getvalue().splitlines()


def found(lines) -> int:
    return int(next(line for line in lines if line.startswith("Found  ")).split()[-1])


@pytest.mark.parametrize("how", ["-c", "--script", "pipe"])
def test_a_question_left_waiting_is_shown_said_and_exits_1(tmp_path, how):
    source, save = ruleset(tmp_path), tmp_path / "game.dusk"
    status, lines = table(source, save, how, ["turn"])
    gold = 5 + found(lines)
    assert status == 1
    assert lines[-3:-1] == [f"Gold {gold}.", QUESTION.format(gold=gold)]
    assert lines[-1] == ("The script ended with a question unanswered, so turn was not played: the session file "
                         "keeps the game as it was before it (resume it, and turn rolls the same dice again).")
    # What the file keeps: the game before the turn, and the same dice for it
    resumed = Session.resume(save)
    assert resumed.game.values["gold"] == 5 and resumed.game.turn == 1
    again = resumed.perform("turn", {}, "turn")
    assert [e for e in again.events if e["kind"] == "roll"][0]["value"] == gold - 5
    resumed.close()


def test_a_script_that_answers_reads_as_a_session_at_the_prompt(tmp_path):
    source, save = ruleset(tmp_path), tmp_path / "game.dusk"
    status, lines = table(source, save, "-c", ["turn", "7", "1", "status"])
    gold = 5 + found(lines)
    assert status == 1          # the 7 was refused
    start = lines.index("> turn")
    assert lines[start:] == [
        "> turn",
        f"Found  {gold - 5}",
        f"Gold {gold}.",
        QUESTION.format(gold=gold) + " 7",       # the question where it is asked, the answer after it
        "7 is not a valid answer: expected a whole number from 0 to 2 - try again",
        QUESTION.format(gold=gold) + " 1",       # asked again; the answer is not said twice
        f"Spent 1; {gold - 1} left.",
        "> status",
        f"Turn 2 | Gold {gold - 1}",
    ]


def test_a_script_that_answers_everything_exits_0(tmp_path):
    status, lines = table(ruleset(tmp_path), tmp_path / "game.dusk", "-c", ["turn", "0", "turn", "2"])
    assert status == 0 and "The script ended" not in "\n".join(lines)


def test_quit_while_a_question_waits_says_what_was_not_played(tmp_path):
    status, lines = table(ruleset(tmp_path), tmp_path / "game.dusk", "-c", ["turn", "quit"])
    assert status == 1
    assert lines[-2].startswith("How much do you spend?") and lines[-2].endswith("> quit")
    assert lines[-1].startswith("The script ended with a question unanswered, so turn was not played")


def test_a_setup_question_left_waiting_leaves_no_game(tmp_path):
    source, save = ruleset(tmp_path, setup=True), tmp_path / "game.dusk"
    status, lines = table(source, save, "-c", ["state"])
    assert status == 1
    assert lines[-2:] == ["How much gold do you bring? [a whole number from 1 to 3] >",
                          "The script ended with a question unanswered, so the game's setup did not finish: the "
                          "session file holds no game yet."]
    assert "A question of the game's setup waits, so the game has not begun" in "\n".join(lines)


def test_a_confirmation_left_waiting_is_said_too(tmp_path):
    status, lines = table(ruleset(tmp_path), tmp_path / "game.dusk", "-c", ["new"])
    assert status == 1
    assert lines[-2:] == ["sure? (yes/no) >", "The script ended with a question unanswered: nothing was done."]


def test_state_status_and_log_while_a_question_waits_say_the_game_is_as_before_the_action(tmp_path):
    repl, out = make_repl(ruleset(tmp_path), seed=2)
    run(repl, out, "turn")
    note = ("A question waits, so turn has not happened yet: the game is as it was before it, and what turn has "
            "printed so far takes effect when the question is answered.")
    state = run(repl, out, "state").splitlines()
    assert state[0] == note and any(line.split() == ["│", "gold", "│", "5", "│"] for line in state)
    assert run(repl, out, "status").splitlines() == ["Turn 1 | Gold 5", note]
    assert run(repl, out, "log").splitlines()[-1] == note
    assert toolbar(repl) == "Turn 1 | Gold 5  (as before turn: a question waits)"
    assert repl.decision is not None          # none of them answered the question
    run(repl, out, "1")
    assert note not in run(repl, out, "state", "status", "log") and toolbar(repl).startswith("Turn 2 | Gold ")
    assert "a question waits" not in toolbar(repl)


@pytest.mark.parametrize("game", GAMES)
def test_status_prints_the_status_line_as_the_toolbar_shows_it(game):
    repl, out = make_repl(GAMES[game])
    assert run(repl, out, "status") == repl.status() + "\n" == toolbar(repl) + "\n"


def test_status_is_in_the_tables_language():
    repl, out = make_repl(GAMES["attack"], lang="zh")
    assert run(repl, out, "status").startswith("生命 ")


def test_status_of_a_ruleset_without_one_says_so_and_names_the_result_at_the_end(tmp_path):
    path = tmp_path / "plain.yaml"
    path.write_text(TURNS.replace("SETUP\n", "").split("status:")[0], encoding="utf-8")
    repl, out = make_repl(str(path))
    assert run(repl, out, "status") == "(this ruleset has no status line)\n"
    run(repl, out, "auto 3")
    assert repl.session.game.over and run(repl, out, "status") == f"over: {repl.session.game.result}\n"
    with_status, out = make_repl(ruleset(tmp_path))
    run(with_status, out, "auto 3")
    assert run(with_status, out, "status").endswith(f" | over: {with_status.session.game.result}\n")


def test_status_is_in_help_and_completed_by_tab():
    repl, out = make_repl(GAMES["attack"])
    assert any(line.split()[:1] == ["status"] for line in run(repl, out, "help").splitlines())
    assert run(repl, out, "help status").startswith("status: the status line")
    completer = TableCompleter(repl)
    assert "status" in [c for c in completer.candidates("stat", "stat") if c.startswith("stat")]


CHOOSE = """\
ruleset: choose-test
title: Choose (test)
state:
  picked: {text: ""}
actions:
  choose:
    doc: Choose a word.
    steps:
      - ask: "Which word?"
        as: word
        choice: [state, other]
        auto: "'other'"
      - set: {picked: word}
      - say: "Picked {picked}."
"""


@pytest.mark.parametrize("answer", ["state", "State"])
def test_a_choice_named_like_a_command_is_an_answer(tmp_path, answer):
    path = tmp_path / "choose.yaml"
    path.write_text(CHOOSE, encoding="utf-8")
    repl, out = make_repl(str(path))
    run(repl, out, "choose")
    said = [] if answer == "state" else ["Which word? state"]      # read otherwise: said
    assert run(repl, out, answer).splitlines() == said + ["Picked state."] and repl.decision is None


def test_script_loop_echoes_a_command_after_the_short_prompt_and_an_answer_after_its_question(tmp_path):
    repl, out = make_repl(ruleset(tmp_path), seed=2)
    assert script_loop(repl, ["turn", "0"]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "> turn" and lines[-2].startswith("How much do you spend?") and lines[-2].endswith("] > 0")


def test_the_state_while_a_setup_question_waits_shows_a_group_not_made_yet(tmp_path, monkeypatch):
    """Noche asks how many characters before it makes them: `state` then shows the group's columns
    and no row (it once raised inside the table, a bug said instead of the state)."""
    monkeypatch.setenv("DUSK_DATA_DIR", str(tmp_path / "data"))
    status, lines = table("noche-de-los-vampiros", tmp_path / "game.dusk", "-c", ["state"])
    text = "\n".join(lines)
    assert status == 1 and "Something went wrong" not in text and not (tmp_path / "data" / "bugs.log").exists()
    header = next(line for line in lines if "alive" in line and "dice" in line)
    assert header.split()[1:3] == ["name", "│"]
    assert lines[lines.index(header) + 2].startswith("╰")        # the rule under the header, then the end: no row
