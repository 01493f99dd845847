"""At the table: sheets the table brings (`dusk play --sheets`), one shown whole (`sheet NAME`), the
sheets written back as they now stand (`export sheets DIR`) and read by the next game in place of
the ruleset's own; a new game at the same table starts with the same sheets."""

from pathlib import Path

from ruleset_engine.repl.commands import Repl
from ruleset_engine.repl.completer import TableCompleter
from ruleset_engine.repl.session import Session
from tests.repl.conftest import RULESETS, make_repl, run

GAME = str(RULESETS / "with-sheets.yaml")


def test_a_sheet_shown_whole_and_completed():
    repl, out = make_repl(GAME, seed=1)
    shown = run(repl, out, "sheet mara")
    assert "Mara (hunter)" in shown and "│ kind   │ ghoul" in shown and "X□□□ 1/4 (deep 1)" in shown
    assert "no one is named 'Marta' (did you mean Mara?); the names: Mara, Tom" in run(repl, out, "sheet Marta")
    assert run(repl, out, "sheet").strip() == "sheet NAME shows one: Mara, Tom"
    assert TableCompleter(repl).candidates("sheet ", "") == ["Mara", "Tom"]


def test_exported_sheets_start_the_next_game_as_they_stood(tmp_path):
    repl, out = make_repl(GAME, seed=1)
    folder = tmp_path / "sheets"
    shown = run(repl, out, f"export sheets {folder}")
    assert f"2 sheets written: {folder / 'Mara.yaml'}, {folder / 'Tom.yaml'}." in shown
    assert (folder / "Mara.yaml").read_text("utf-8").splitlines() == [
        "sheet: hunter", "name: Mara", "kind: ghoul", "grit: 3", "aim: 2", "notes: ''", "wounds:", "  deep: 1"]
    assert "exists already" in run(repl, out, f"export sheets {folder}")
    (folder / "Mara.yaml").write_text((folder / "Mara.yaml").read_text("utf-8").replace("grit: 3", "grit: 4"))
    session, _ = Session.new(GAME, None, 1, tmp_path / "next.dusk", sheets=(folder,))
    assert [(h["name"], h["grit"]) for h in session.game.values["hunter"]] == [("Mara", 4), ("Tom", 2)]
    session.close()


def test_a_new_game_at_the_table_keeps_the_sheets(tmp_path):
    (tmp_path / "ines.yaml").write_text("name: Ines\ngrit: 5\n", encoding="utf-8")
    session, reply = Session.new(GAME, None, 1, tmp_path / "a.dusk", sheets=(tmp_path / "ines.yaml",))
    import io

    from ruleset_engine.repl.app import make_console
    from ruleset_engine.repl.render import Style

    out = io.StringIO()
    repl = Repl(session, make_console(False, out), Style("en", False))
    repl._after(reply)
    run(repl, out, "new", "yes")
    assert [h["name"] for h in repl.session.game.values["hunter"]] == ["Mara", "Tom", "Ines"]
    repl.session.close()
    assert Path(tmp_path / "a.dusk").exists()
