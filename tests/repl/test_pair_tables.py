"""At the table: the records between pairs of instances are listed by `table NAME` and `state`,
completed after `table`, read by `roll`, exported with the chronicle, undone and resumed."""

from ruleset_engine.repl.commands import chronicle_markdown
from ruleset_engine.repl.completer import TableCompleter
from ruleset_engine.repl.session import Session
from tests.repl.conftest import RULESETS, as_first_format, make_repl, run

GAME = str(RULESETS / "pair-records.yaml")


def rows(shown: str, first: str) -> list[list[str]]:
    """The cells of the rows of a table printed in plain text whose first cell is `first`."""
    found = []
    for line in shown.splitlines():
        cells = [c.strip() for c in line.strip("│|").split("│")]
        if cells and cells[0] == first:
            found.append(cells)
    return found


def test_table_lists_the_records_written_and_state_shows_them_too():
    repl, out = make_repl(GAME, seed=3)
    # Seed 3 rolls the bonds 1-2, 1-3, 2-3 as 2, 5, 5 (the setup's log says so).
    strengths = {(a["target"]): a["value"] for a in repl.session.game.log if a["kind"] == "set"}
    assert strengths["bond(P1, P2).strength"] == 2 and strengths["bond(P2, P3).strength"] == 5
    shown = run(repl, out, "table bond")
    assert "Bonds (either way)" in shown
    assert rows(shown, "P1") == [["P1", "P2", "rival", "2", ""], ["P1", "P3", "ally", "5", ""]]
    assert "any other pair: kind none, strength 0" in shown
    run(repl, out, "night", "we owe blood")
    shown = run(repl, out, "table hold")
    # Night 1: every person holds each one whose bond is 3 or more: 1->3, 2->3, 3->1, 3->2.
    assert [r[:3] for r in rows(shown, "P3")] == [["P3", "P1", "1"], ["P3", "P2", "1"]]
    assert rows(shown, "P1") == [["P1", "P3", "1"]]
    shown = run(repl, out, "state")
    assert "we owe blood" in shown and "hold (from → to)" in shown
    shown = run(repl, out, "roll bond('P2', 'P1').strength + 1")
    assert "= 3" in shown


def test_an_empty_text_default_shows_as_a_dash_not_a_dangling_comma():
    # bond's defaults: kind 'none', strength 0, words "" (an empty text)
    repl, out = make_repl(GAME, seed=3)
    caption = [line.strip() for line in run(repl, out, "table bond").splitlines() if "any other pair" in line]
    assert caption == ["any other pair: kind none, strength 0, words —"]
    repl, out = make_repl(GAME, seed=3, ascii_only=True)
    caption = [line.strip() for line in run(repl, out, "table bond").splitlines() if "any other pair" in line]
    assert caption == ["any other pair: kind none, strength 0, words -"]


def test_unknown_names_after_table_name_the_pairs_too():
    repl, out = make_repl(GAME, seed=3)
    shown = run(repl, out, "table bonds")
    assert "no table 'bonds'; the tables: bond, hold" in shown
    assert TableCompleter(repl).candidates("table ", "") == ["bond", "hold"]
    assert {"bond", "hold"} <= set(TableCompleter(repl).candidates("roll ", ""))


def test_records_are_exported_undone_and_resumed():
    repl, out = make_repl(GAME, seed=3)
    run(repl, out, "night", "an old debt")
    chronicle = chronicle_markdown(repl)
    assert "| between | and | kind | strength | words |" in chronicle
    assert "| P1 | P2 | rival | 2 | an old debt |" in chronicle
    run(repl, out, "undo")
    assert repl.session.game.values["hold"] == {}
    assert repl.session.game.values["bond"]["1,2"]["words"] == ""
    run(repl, out, "night", "a new debt")
    path = repl.session.journal.path
    repl.session.close()
    resumed = Session.resume(path)
    assert resumed.game.values["bond"]["1,2"]["words"] == "a new debt"
    assert resumed.game.pair_records("hold")[0] == ("P1", "P3", {"stage": 1})


def test_a_session_with_a_record_it_could_not_have_made_is_refused():
    import sqlite3

    import pytest

    from ruleset_engine.repl.journal import JournalError

    repl, out = make_repl(GAME, seed=3)
    run(repl, out, "night", "an old debt")
    path = repl.session.journal.path
    repl.session.close()
    as_first_format(path)       # every game whole, as a hand edits it
    db = sqlite3.connect(path)
    db.execute("""UPDATE entries SET game = json_set(game, '$.values.hold', json('{"2,2": {"stage": 1}}'))""")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match=r"the game holds a record of hold it could not have made \('2,2'\)"):
        Session.resume(path)
