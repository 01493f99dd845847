"""At the table: a question answered in words. A line that starts like a command is an answer; the
words are shown in `state`, exported in the chronicle, undone and resumed with the session."""

from ruleset_engine.repl.commands import chronicle_markdown
from ruleset_engine.repl.session import Session
from tests.repl.conftest import RULESETS, make_repl, run

GAME = str(RULESETS / "table-sheets.yaml")


def test_words_are_answers_even_when_they_start_like_a_command(tmp_path):
    repl, out = make_repl(GAME, seed=1)
    shown = run(repl, out, "undo the past", "state the obvious")
    assert "no command" not in shown and "Undone" not in shown and repl.decision is None
    assert [p["concept"] for p in repl.session.game.values["player"]] == ["undo the past", "state the obvious"]
    shown = run(repl, out, "state")
    assert "undo the past" in shown and "state the obvious" in shown


def test_a_long_answer_is_refused_with_its_bounds_and_asked_again():
    repl, out = make_repl(GAME, seed=1)
    shown = run(repl, out, "x" * 41)
    assert "expected a text of 1 to 40 characters, on one line" in shown
    assert repl.decision is not None and repl.decision.prompt.startswith("P1:")


def test_the_words_are_exported_undone_and_resumed(tmp_path):
    repl, out = make_repl(GAME, seed=1)
    run(repl, out, "Ana", "Beto", "motto", "Nobody leaves")
    chronicle = chronicle_markdown(repl)
    assert "P1: who are you, in a few words? Ana" in chronicle and "The motto: Nobody leaves." in chronicle
    run(repl, out, "undo")
    assert repl.session.game.values["motto"] == "none yet"
    run(repl, out, "motto", "Dawn is far")
    path = repl.session.journal.path
    repl.session.close()
    resumed = Session.resume(path)
    values = resumed.game.values
    assert values["motto"] == "Dawn is far" and [p["concept"] for p in values["player"]] == ["Ana", "Beto"]
