"""At the table: a track that remembers what marked it shows each box's symbol and the counts in
words, its events name the type, and a saved session resumes with the same marks."""

from ruleset_engine.repl.session import Session
from tests.repl.conftest import RULESETS, make_repl, run

GAME = str(RULESETS / "marked-track.yaml")


def test_state_shows_each_box_by_its_symbol_and_the_counts_in_words():
    repl, out = make_repl(GAME, seed=3)
    shown = run(repl, out, "round", "round", "round", "round", "round", "state")
    # blows 2 5 5 2 3: bruise, cut, cut, bruise, two bruises (the last upgraded on the full track)
    assert "guard.up: marks 2 bruise (now 5 marked)" in shown
    assert "XXX// 5/5 (cut 3, bruise 2)" in shown          # strongest first
    assert "XX/// 5/5 (cut 2, bruise 3)" in shown          # replace: a bruise on a full track is lost
    assert "bccbb 5/5 (bruise 3, cut 2)" in shown          # in the order marked
    assert run(repl, out, "status").strip() == "Guard 5/5 (cut 3, bruise 2) penalty -2"


def test_undo_and_resume_keep_the_marks():
    repl, out = make_repl(GAME, seed=3)
    run(repl, out, "round", "round", "round", "undo")
    marks = repl.session.game.values["guard"]["up"]["marks"]
    assert marks == ["cut", "bruise"]
    path = repl.session.journal.path
    repl.session.close()
    resumed = Session.resume(path)
    assert resumed.game.values["guard"]["up"]["marks"] == marks
    resumed.perform("round", {}, "round")
    assert resumed.game.values["guard"]["up"]["marks"] == ["cut", "cut", "bruise"]   # the undone blow again


def test_roll_completes_the_count_of_each_type_of_mark():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from ruleset_engine.repl.completer import TableCompleter

    repl, _ = make_repl(GAME, seed=3)
    completer = TableCompleter(repl)
    found = [c.text for c in completer.get_completions(Document("roll guard.up."), CompleteEvent(True))]
    assert {"guard.up.bruise", "guard.up.cut", "guard.up.burn"} <= set(found)
