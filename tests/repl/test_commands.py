"""The built-in commands and actions, run line by line (no prompt), on two games."""

import json
import sqlite3

import pytest

from ruleset_engine.repl.commands import Quit
from tests.repl.conftest import GAMES, make_repl, run


@pytest.mark.parametrize("game", GAMES)
def test_help_lists_the_rulesets_actions_with_their_docs(game):
    repl, out = make_repl(GAMES[game])
    text = run(repl, out, "help")
    action = repl.session.loop_action()
    assert f"  {action}" in text and "Built-in commands" in text and "help [topic]" in text
    assert "roll EXPR" in text


@pytest.mark.parametrize("game", GAMES)
def test_roll_shows_every_die_and_is_saved(game, data_dir):
    repl, out = make_repl(GAMES[game])
    text = run(repl, out, "roll 4d6kh3")
    first = text.splitlines()[0]
    assert first.startswith("4d6kh3  ") and "✗" in first
    rows = sqlite3.connect(repl.session.journal.path).execute(
        "SELECT kind, command FROM entries ORDER BY n").fetchall()
    assert rows[-1] == ("roll", "roll 4d6kh3")


def test_roll_reads_the_state_the_entities_and_the_params_and_changes_nothing():
    repl, out = make_repl(GAMES["attack"], seed=7)
    run(repl, out, "round")
    game = repl.session.game
    before, dice = game.state, game.rng.getstate()
    life = game.values["hunter"]["life"]
    assert run(repl, out, "roll hunter.life").startswith(f"hunter.life = {life}")
    assert run(repl, out, "roll vampires").startswith("vampires = 3")
    assert run(repl, out, "roll params.kill_dice").startswith("params.kill_dice = 5")
    text = run(repl, out, "roll 1d6 + hunter.life")
    assert int(text.split("= ")[-1].split()[0]) - life in range(1, 7)
    assert game.state == before and game.rng.getstate() == dice     # a throw beside the game
    assert "unknown name 'hunterr'" in run(repl, out, "roll hunterr.life")
    # the game goes on with the dice it had: the same round as a game without the rolls
    other, other_out = make_repl(GAMES["attack"], seed=7)
    run(other, other_out, "round")
    assert run(repl, out, "round") == run(other, other_out, "round")


def test_roll_reads_the_state_of_another_game():
    repl, out = make_repl(GAMES["pool"])
    assert run(repl, out, "roll pool + params.players") == "pool + params.players = 3\n"


@pytest.mark.parametrize("game", GAMES)
def test_state_rules_table_and_log(game):
    repl, out = make_repl(GAMES[game])
    assert "state" in run(repl, out, "state")
    assert "seed 1" in run(repl, out, "rules")
    text = run(repl, out, "table")
    assert text.startswith("tables:")
    run(repl, out, "log 3")


def test_a_bad_command_is_one_line_and_the_loop_goes_on():
    repl, out = make_repl(GAMES["attack"])
    text = run(repl, out, "rond")
    assert text == "no command 'rond' (did you mean round?); type help for the commands\n"
    text = run(repl, out, "roll 2d")
    assert text.splitlines() == ["expected a number after 'd'", "  2d", "   ^"]
    assert "Search" in run(repl, out, "round")


def test_decisions_are_asked_and_bad_answers_refused():
    repl, out = make_repl(GAMES["pool"])
    run(repl, out, "conflict scene")
    assert repl.decision.prompt == "P1: how many of your 10 dice do you risk?"
    before = repl.session.game.state
    text = run(repl, out, "12")
    assert "12 is not a valid answer: expected a whole number from 1 to 10 - try again" in text
    assert repl.session.game.state == before and repl.decision is not None
    assert "not a valid answer" in run(repl, out, "lots")
    run(repl, out, "3", "0", "2", "1")
    assert repl.decision is None and repl.session.game.turn == 2


def test_auto_answers_decisions_and_plays_rounds():
    repl, out = make_repl(GAMES["pool"])
    text = run(repl, out, "auto 2")
    assert "(2 rounds played)" in text and repl.session.game.turn == 3
    asks = [e for e in repl.session.game.log if e["kind"] == "ask"]
    assert asks and all(e["by"] == "auto" for e in asks)


def test_undo_rewinds_and_redo_rolls_the_same_dice():
    repl, out = make_repl(GAMES["attack"])
    first = run(repl, out, "round")
    assert "Undone" in run(repl, out, "undo")
    assert run(repl, out, "round") == first
    assert run(repl, out, "undo", "undo").count("nothing to undo") == 1


def test_new_asks_first_and_keeps_the_old_game():
    repl, out = make_repl(GAMES["attack"])
    run(repl, out, "round")
    old = repl.session.journal.path
    assert "The game goes on." in run(repl, out, "new", "no")
    assert repl.session.journal.path == old
    text = run(repl, out, "new", "yes")
    assert f"This game is saved in {old}" in text.replace("\n", "") and repl.session.journal.path != old
    assert repl.session.game.turn == 1


def test_export_writes_the_chronicle_as_markdown(tmp_path):
    repl, out = make_repl(GAMES["attack"])
    run(repl, out, "auto 5", f"export {tmp_path / 'c.md'}")
    text = (tmp_path / "c.md").read_text()
    assert text.startswith("# Attack of the Vampires\n") and "```\nSearch" in text


def test_export_writes_each_lookup_as_a_markdown_table(tmp_path):
    repl, out = make_repl(GAMES["pool"])
    run(repl, out, "conflict", "1", "0", "1", "0", f"export {tmp_path / 'c.md'}")
    text = (tmp_path / "c.md").read_text()
    assert "rich" not in text and "object at 0x" not in text
    lookups = [e for e in repl.session.game.log if e["kind"] == "lookup"]
    assert len(lookups) == 2
    lines = text.splitlines()
    for e in lookups:
        at = lines.index(f"*outcome [{e['key'][0]}]*")
        header, rule, row = lines[at + 2: at + 5]
        assert header == "| highest | label | scene |" and rule == "|---|---|---|"
        assert row == "| " + " | ".join(str(v) for v in e["row"].values()) + " |"


def test_quit_leaves():
    repl, out = make_repl(GAMES["attack"])
    with pytest.raises(Quit):
        repl.run_line("quit")


def test_an_internal_error_is_one_line_naming_the_log(monkeypatch, data_dir):
    repl, out = make_repl(GAMES["attack"])

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(repl.session, "perform", broken)
    text = run(repl, out, "round")
    assert text.startswith("Something went wrong inside dusk (a bug); the details are in")
    assert "Traceback" not in text
    assert "ZeroDivisionError: a bug" in (data_dir / "bugs.log").read_text()


def test_chinese_labels_and_ascii_mode(tmp_path):
    path = tmp_path / "zh.yaml"
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "rulesets" / "success-pool.yaml").read_text("utf-8")
    path.write_text(source, encoding="utf-8")
    repl, out = make_repl(str(path), lang="zh", ascii_only=True)
    text = run(repl, out, "table degrees", "shoot")
    assert "成功度" in text and "一般" in text or "失败" in text
    assert "╭" not in text and "+" in text
    assert any(line.endswith(("成功：失败", "大失败！")) or "个成功" in line for line in text.splitlines())


def test_session_file_holds_every_accepted_command(data_dir):
    repl, out = make_repl(GAMES["attack"])
    run(repl, out, "round", "round", "undo", "roll d20")
    db = sqlite3.connect(repl.session.journal.path)
    kinds = [k for (k,) in db.execute("SELECT kind FROM entries ORDER BY n")]
    assert kinds == ["start", "action", "action", "undo", "roll"]
    events = json.loads(db.execute("SELECT events FROM entries WHERE n = 2").fetchone()[0])
    assert any(e["kind"] == "roll" for e in events)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_lookup_at_the_table_is_shown_as_a_table():
    repl, out = make_repl(GAMES["pool"])
    text = run(repl, out, "conflict", "1", "0", "1", "0")
    assert "outcome [" in text and "│ highest │ label" in text


def test_help_dice_lists_every_function_and_modifier_of_the_registry():
    import ruleset_engine as dusk

    repl, out = make_repl(GAMES["attack"])
    repl.console.width = 300       # no line wrapped
    text = run(repl, out, "help dice")
    assert text.startswith("The dice language")
    for function in dusk.FUNCTIONS.values():
        assert function.doc in text and f"e.g. {function.example}" in text, function.name
        assert all(form.signature in text for form in function.forms)
    for modifier in dusk.MODIFIERS.values():
        assert f"\n  {modifier.syntax}  " in text and modifier.doc in text
        assert f"e.g. {modifier.example}" in text
    assert "Notations from Foundry VTT and Roll20" in text
    for alias in dusk.ALIASES.values():
        assert f"\n  {alias.syntax}  " in text and alias.doc in text, alias.token
        assert f"e.g. {alias.example}, read as {alias.explicit}" in text


def test_the_table_rolls_another_tools_notation_as_dusk_roll_does():
    repl, out = make_repl(GAMES["attack"])
    repl.console.width = 200
    text = run(repl, out, "roll 10d10cs>=6df=1")
    assert text.splitlines()[0] == "10d10cs>=6df=1 → count(10d10, >= 6) - count(10d10, == 1)"
    assert "count(10d10, == 1)" in text.splitlines()[3]


def test_help_steps_lists_every_step_kind_of_the_registry():
    import ruleset_engine as dusk

    repl, out = make_repl(GAMES["pool"])
    repl.console.width = 300
    text = run(repl, out, "help steps")
    assert text.startswith("The steps of a ruleset")
    for kind in dusk.STEP_KINDS.values():
        assert f"\n  {kind.key}:  " in text and kind.doc in text
        assert all(line in text for line in kind.example.splitlines())
    assert "help steps" in run(repl, out, "help")


def test_errors_a_person_sees_share_one_root_and_quit_is_no_error():
    from ruleset_engine import DuskError
    from ruleset_engine.repl.journal import JournalError

    assert issubclass(JournalError, DuskError)
    assert issubclass(Quit, BaseException) and not issubclass(Quit, Exception)


@pytest.mark.parametrize("line, said", [
    ("auto many", "auto takes a number of rounds, 1 or more (auto 5), not 'many'"),
    ("auto abc", "auto takes a number of rounds, 1 or more (auto 5), not 'abc'"),
    ("auto -2", "auto takes a number of rounds, 1 or more (auto 5), not '-2'"),
    ("auto 0", "auto takes a number of rounds, 1 or more (auto 5), not '0'"),
    ("auto 2.5", "auto takes a number of rounds, 1 or more (auto 5), not '2.5'"),
    ("log x", "log takes a number of lines, 1 or more (log 20), not 'x'"),
    ("log abc", "log takes a number of lines, 1 or more (log 20), not 'abc'"),
    ("log -3", "log takes a number of lines, 1 or more (log 20), not '-3'"),
])
def test_a_bad_number_says_what_was_expected_in_one_line(line, said):
    repl, out = make_repl(GAMES["attack"])
    assert run(repl, out, line) == said + "\n"
    assert repl.errors == 1 and repl.session.game.turn == 1


def test_help_of_an_unknown_name_is_an_error_listing_the_names():
    repl, out = make_repl(GAMES["attack"])
    repl.console.width = 300
    text = run(repl, out, "help rond")
    assert text.startswith("no help for 'rond' (did you mean round?); help takes one of: round, help, roll, ")
    assert text.rstrip().endswith("dice, steps, formulas") and repl.errors == 1
    assert run(repl, out, "help nothing-like-it").startswith("no help for 'nothing-like-it'; help takes one of:")


def test_a_file_that_cannot_be_written_is_named_in_plain_words(tmp_path):
    repl, out = make_repl(GAMES["attack"])
    assert run(repl, out, f"export {tmp_path}") == f"{tmp_path}: is a directory\n"
    assert run(repl, out, f"export {tmp_path}/no/such/dir.md") == f"{tmp_path}/no/such/dir.md: no such file or directory\n"


@pytest.mark.parametrize("game", GAMES)
def test_prob_gives_exact_odds_reading_the_game_and_changes_nothing(game):
    repl, out = make_repl(GAMES[game], seed=5)
    game_ = repl.session.game
    before, dice = game_.state, game_.rng.getstate()
    text = run(repl, out, "prob count(3d6, >= 5)")
    assert text.startswith("Exact odds.") and "P(>=x)" in text and "mean 1, standard deviation" in text
    name, value = next((k, v) for k, v in game_.values["params"].items() if type(v) is int and 0 <= v <= 20)
    text = run(repl, out, f"prob params.{name} + 1d4")
    assert f"{value + 4}" in text and "25.00%" in text
    assert game_.state == before and game_.rng.getstate() == dice
    assert "the odds of what" in run(repl, out, "prob")
    assert "^" in run(repl, out, "prob count(3d6 >= 5)")
    assert "prob EXPR" in run(repl, out, "help")


def test_export_never_writes_over_the_session_file_nor_an_existing_file_unless_forced(tmp_path):
    import io

    from ruleset_engine.repl.app import make_console
    from ruleset_engine.repl.commands import Repl
    from ruleset_engine.repl.render import Style
    from ruleset_engine.repl.session import Session

    # issue 24.1: `export live.dusk` during a game saved in live.dusk replaced the game with Markdown.
    session, reply = Session.new(GAMES["attack"], None, 3, save=tmp_path / "live.dusk")
    out = io.StringIO()
    repl = Repl(session, make_console(False, out), Style("en", False))
    repl._after(reply)
    run(repl, out, "auto 2")
    before = (tmp_path / "live.dusk").read_bytes()
    for line in (f"export {tmp_path / 'live.dusk'}", f"export --force {tmp_path / 'live.dusk'}",
                 f"export {tmp_path / 'live.dusk-wal'}", f"export {tmp_path}/../{tmp_path.name}/live.dusk --force"):
        assert "is this game's session file: writing there would lose the game" in run(repl, out, line)
    assert (tmp_path / "live.dusk").read_bytes()[:16] == b"SQLite format 3\x00" and before[:16] == b"SQLite format 3\x00"
    other = tmp_path / "notes.md"
    other.write_text("mine", encoding="utf-8")
    text = run(repl, out, f"export {other}")
    assert text == f"{other} exists already: export --force FILE replaces it, or choose another name\n"
    assert other.read_text(encoding="utf-8") == "mine"
    link = tmp_path / "dangling.md"
    link.symlink_to(tmp_path / "nowhere.md")
    assert "exists already" in run(repl, out, f"export {link}") and not (tmp_path / "nowhere.md").exists()
    assert run(repl, out, f"export --force {other}") == f"The chronicle is in {other}.\n"
    assert other.read_text(encoding="utf-8").startswith("# ") and repl.errors == 6
    session.close()
    resumed = Session.resume(tmp_path / "live.dusk")
    assert resumed.game.turn == 3
    resumed.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_command_line_past_the_limit_is_refused_before_it_is_split(game):
    # issue 24.15: a 2 MB paste was split into words in time quadratic in its length (over a minute).
    from ruleset_engine.repl.commands import LONGEST_COMMAND

    repl, out = make_repl(GAMES[game], seed=2)
    before = repl.session.game.state
    action = repl.session.loop_action() or "conflict"
    for line in (f"{action} " + "x" * 2_000_000, "roll " + "1+" * 600_000 + "1", "export " + "a" * 50_000):
        assert run(repl, out, line) == (f"a command of {len(line):,} characters is not read (the longest read at "
                                        f"the table is 10,000 characters); nothing was done\n")
    assert repl.errors == 3 and repl.session.game.state == before and LONGEST_COMMAND == 10_000
    assert "is 4,099 characters long (the limit is 4,096)" in run(repl, out, "roll " + "1+" * 2049 + "1")
