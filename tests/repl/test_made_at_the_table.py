"""At the table: characters named at setup and by an action (`join Dora`), completed where an
action takes one, shown in `state` and the chronicle, undone and resumed with the session."""

from ruleset_engine.repl.commands import chronicle_markdown
from ruleset_engine.repl.completer import TableCompleter
from ruleset_engine.repl.session import Session
from tests.repl.conftest import RULESETS, make_repl, run

GAME = str(RULESETS / "made-at-the-table.yaml")


def test_named_at_the_table_then_completed_shown_and_exported():
    repl, out = make_repl(GAME, seed=2)
    shown = run(repl, out, "2", "Ana", "Beto")
    assert "Added to character: Ana." in shown and "Added to character: Beto." in shown
    shown = run(repl, out, "join Dora Lee")
    assert "too many arguments" in shown            # one text parameter: quote a name with a space
    shown = run(repl, out, "join 'Dora Lee'")
    assert "Added to character: Dora Lee." in shown and "Dora Lee joins with nerve 3." in shown
    completer = TableCompleter(repl)
    assert completer.candidates("fall who=", "who=") == ["who=Ana", "who=Beto", "who=Dora Lee"]
    shown = run(repl, out, "fall who=beto", "state")
    assert "│ Beto     │ dead   │ 4     │" in shown
    chronicle = chronicle_markdown(repl)
    assert "Added to character: Dora Lee." in chronicle and "| Ana | Beto | 3 |  |" in chronicle


def test_a_name_taken_is_one_line_and_changes_nothing():
    repl, out = make_repl(GAME, seed=2)
    run(repl, out, "2", "Ana", "Beto")
    before = repl.session.game.values
    shown = run(repl, out, "join ANA")
    assert "the group 'character' has an instance named 'Ana' already" in shown
    assert "Traceback" not in shown and repl.session.game.values == before


def test_made_instances_are_undone_and_resumed():
    repl, out = make_repl(GAME, seed=2)
    run(repl, out, "2", "Ana", "Beto", "join Carla", "join Dora", "undo")
    assert [p["name"] for p in repl.session.game.values["character"]] == ["Ana", "Beto", "Carla"]
    path = repl.session.journal.path
    repl.session.close()
    resumed = Session.resume(path)
    assert [p["name"] for p in resumed.game.values["character"]] == ["Ana", "Beto", "Carla"]
    assert resumed.game.values["character"][2]["index"] == 3
