"""A sheet at the table: `set NAME FIELD VALUE` changes a field a group's sheet template gives (within
its bounds), as one command that is saved, undone and resumed as an action is; `sheet NAME` draws the
template's layout (sections of columns, a number as its dots) and hides the fields it marks internal."""

import pytest

from ruleset_engine.repl.session import Session
from ruleset_engine.ruleset import RulesetError, load
from tests.repl.conftest import make_repl, run

GAME = """\
ruleset: sheet-set
title: Sheets set by hand
entities:
  hunter:
    count: 0
    fields: {kind: {text: human}, grit: 1, aim: 0, seen_turn: -1}
    tracks:
      wounds: {boxes: [0, -1, -2], marks: {light: "/", deep: X}}
    sheet:
      files: [mara.yaml]
      tracks: [wounds]
      internal: [seen_turn]
      layout:
        - title: Traits
          columns:
            - {title: Body, fields: [grit]}
            - {title: Eye, fields: [aim]}
        - title: Harm
          columns: [{fields: [wounds]}]
      fields:
        kind: {choices: [human, ghoul]}
        grit: {min: 1, max: 5}
        aim: {min: 0, max: 5}
state: {total: 0}
actions:
  shoot:
    params:
      who: {type: entity, of: hunter}
    steps:
      - roll: {pool: "(who.grit + who.aim)d6"}
        label: "{who.name}"
      - set: {total: "total + count(pool, >= 5)", who.seen_turn: 1}
report: {total: total}
"""


@pytest.fixture
def game(tmp_path):
    (tmp_path / "mara.yaml").write_text("name: Mara\ngrit: 3\naim: 2\n", encoding="utf-8")
    path = tmp_path / "sheet-set.yaml"
    path.write_text(GAME, encoding="utf-8")
    return str(path)


def test_set_changes_a_sheet_field_and_undo_takes_it_back(game):
    repl, out = make_repl(game, seed=1)
    assert run(repl, out, "set mara aim 4").strip() == "Mara: aim 4 (was 2)."
    assert repl.session.game.values["hunter"][0]["aim"] == 4
    # The next roll reads it: 3 + 4 dice.
    run(repl, out, "shoot Mara")
    assert len([e for e in repl.session.game.log if e["kind"] == "roll"][-1]["dice"]) == 7
    shown = run(repl, out, "undo 2")
    assert repl.session.game.values["hunter"][0]["aim"] == 2 and "set mara aim 4" in shown


def test_set_is_refused_in_words_and_changes_nothing(game):
    repl, out = make_repl(game, seed=1)
    before = repl.session.game.state
    assert "aim must be 0..5" in run(repl, out, "set Mara aim 6")
    assert "'seen_turn' is not a field of Mara's sheet that can be set" in run(repl, out, "set Mara seen_turn 3")
    assert "(did you mean grit?)" in run(repl, out, "set Mara grt 3")
    assert "aim takes a whole number, not 'lots'" in run(repl, out, "set Mara aim lots")
    assert "kind must be one of human, ghoul, not 'elf'" in run(repl, out, "set Mara kind elf")
    assert "no one named 'Bob' has a sheet (those who have one: Mara)" in run(repl, out, "set Bob aim 1")
    assert "set takes a name, a field of their sheet and its value" in run(repl, out, "set Mara aim")
    assert repl.session.game.state == before and repl.session.commands == []


def test_a_set_is_saved_and_resumed(game):
    repl, out = make_repl(game, seed=1)
    shown = run(repl, out, "set Mara kind ghoul")
    assert "Mara: kind ghoul (was human)." in shown
    path = repl.session.journal.path
    repl.session.close()
    resumed = Session.resume(path)
    assert resumed.game.values["hunter"][0]["kind"] == "ghoul"
    assert [c.text for c in resumed.undo(1)] == ["set Mara kind ghoul"]
    assert resumed.game.values["hunter"][0]["kind"] == "human"
    resumed.close()


def test_the_sheet_follows_the_layout_and_hides_internal_fields(game):
    repl, out = make_repl(game, seed=1)
    shown = run(repl, out, "sheet Mara")
    assert "Traits" in shown and "Body" in shown and "Eye" in shown
    assert "grit ●●●○○ 3" in shown and "aim ●●○○○ 2" in shown and "wounds □□□ 0/3" in shown
    assert "other" in shown and "kind human" in shown         # a field the layout leaves out follows
    assert "seen" not in shown                                 # internal: hidden
    # Side by side: grit's column and aim's on one line.
    assert any("grit" in line and "aim" in line for line in shown.splitlines())
    ascii_repl, ascii_out = make_repl(game, seed=1, ascii_only=True)
    assert "grit ***.. 3" in run(ascii_repl, ascii_out, "sheet Mara")


def test_an_empty_text_on_a_sheet_shows_as_the_pair_tables_dash(tmp_path):
    (tmp_path / "mara.yaml").write_text("name: Mara\ngrit: 3\naim: 2\n", encoding="utf-8")
    path = tmp_path / "sheet-set.yaml"
    path.write_text(GAME.replace("kind: {text: human},", 'kind: {text: human}, motto: {text: ""},'), encoding="utf-8")
    for ascii_only, dash in ((False, "—"), (True, "-")):
        repl, out = make_repl(str(path), seed=1, ascii_only=ascii_only)
        lines = run(repl, out, "sheet Mara").splitlines()
        assert any(f"motto {dash}" in line for line in lines), lines
        assert not any(line.rstrip(" │|").endswith("motto") for line in lines), lines


@pytest.mark.parametrize("old, new, message", [
    ("internal: [seen_turn]", "internal: [seen]", "the group has no field 'seen'"),
    ("internal: [seen_turn]", "internal: [grit]", "'grit' is a field a sheet gives: it cannot be internal too"),
    ("fields: [aim]}", "fields: [aim, grit]}", "'grit' is placed twice in the layout"),
    ("fields: [aim]}", "fields: [aime]}", "the group 'hunter' has no field or track 'aime' (did you mean 'aim'?)"),
    ("fields: [wounds]}", "fields: [seen_turn]}", "'seen_turn' is internal: the sheet view does not show it"),
])
def test_the_template_is_checked(tmp_path, game, old, new, message):
    bad = tmp_path / "bad.yaml"
    bad.write_text(GAME.replace(old, new), encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load(str(bad))
    assert message in str(err.value)


def test_the_vtm_sheet_is_laid_out_as_the_paper_one():
    repl, out = make_repl("vampire-the-masquerade", seed=1)
    shown = run(repl, out, "sheet Ana")
    lines = shown.splitlines()
    assert any("Physical" in l and "Social" in l and "Mental" in l for l in lines)
    assert any("strength ●●○○○ 2" in l and "charisma ●●●○○ 3" in l and "perception ●●●○○ 3" in l for l in lines)
    assert any("Talents" in l and "Skills" in l and "Knowledges" in l for l in lines)
    assert "firearms ●●●●○ 4" in shown and "health □□□□□□□ 0/7" in shown
    for internal in ("init", "dazed", "wp turn", "wp_turn"):
        assert internal not in shown
    assert "Ana: firearms 3 (was 4)." in run(repl, out, "set Ana firearms 3")
    assert "firearms ●●●○○ 3" in run(repl, out, "sheet Ana")


def test_fill_asks_a_column_at_a_time_and_makes_every_change_at_once(game):
    repl, out = make_repl(game, seed=1)
    assert repl.prompt_text == "sheet-set> "
    run(repl, out, "fill Mara")
    assert repl.prompt_text == "Mara, Traits, Body: grit [3; keep, skip or done] > "
    shown = run(repl, out, "9")
    assert "grit must be 1..5" in shown and repl.filling is not None and repl.filling.at == 0   # asked again
    run(repl, out, "4")
    assert repl.prompt_text == "Mara, Traits, Eye: aim [2; keep, skip or done] > "
    assert repl.session.game.values["hunter"][0]["grit"] == 3        # nothing changes before the end
    from ruleset_engine.repl.completer import TableCompleter
    assert TableCompleter(repl).candidates("", "")[:4] == ["aim", "keep", "skip", "done"]
    assert run(repl, out, "").strip() == ""                            # Enter keeps the column
    # Harm holds only a track (marked by the rules, not set): no question. Then the fields the layout
    # leaves out, one at a time.
    assert repl.prompt_text == "Mara: kind [human; keep, skip or done] > "
    shown = run(repl, out, "kind ghoul")
    assert shown.strip() == "Mara: grit 4 (was 3), kind ghoul (was human)." and repl.filling is None
    assert [c.text for c in repl.session.commands] == ["fill Mara"]
    run(repl, out, "undo")
    assert (repl.session.game.values["hunter"][0]["grit"], repl.session.game.values["hunter"][0]["kind"]) == (3, "human")


def test_fill_done_at_once_changes_nothing_and_saves_nothing(game):
    repl, out = make_repl(game, seed=1)
    shown = run(repl, out, "fill Mara", "done")
    assert "Mara's sheet is left as it was." in shown and repl.session.commands == []
    assert "no one named 'Nobody' has a sheet" in run(repl, out, "fill Nobody")


def test_a_fill_left_unchanged_says_so_in_the_tables_language(game):
    # These two lines went out in English under --lang es and zh (the review of the start-up round).
    from ruleset_engine.repl.commands import Quit

    for lang, whole, one in (("es", "La hoja queda como estaba.", "La hoja de Mara queda como estaba."),
                             ("zh", "角色卡保持原样。", "Mara 的角色卡保持原样。")):
        repl, out = make_repl(game, seed=1, lang=lang)      # as `dusk play --lang es`: the catalog's too
        assert one in run(repl, out, "fill Mara", "done")
        run(repl, out, "fill Mara")
        with pytest.raises(Quit):          # quit while filling leaves the sheet, then the table
            repl.run_line("quit")
        assert whole in out.getvalue()
