"""At the table: an action's arguments typed in the ruleset's own words (`throw strength + brawl as
Ana at 8 bold`), refused in plain words when they cannot be read, and completed: the fields of the
sheet inside a formula, the words not yet given, the values after a word."""

import pytest

from ruleset_engine import InputError
from ruleset_engine.repl.commands import parse_action_args
from ruleset_engine.repl.completer import TableCompleter
from ruleset_engine.ruleset import load
from tests.repl.conftest import RULESETS, make_repl, run

GAME = str(RULESETS / "worded-params.yaml")
THROW = load(GAME).actions["throw"]


@pytest.mark.parametrize("typed, args", [
    ("", {}),
    ("strength + brawl", {"traits": "strength + brawl"}),
    ("strength + brawl as Ana at 8 bold", {"traits": "strength + brawl", "who": "Ana", "at": "8", "bold": "yes"}),
    ("at 7 strength", {"at": "7", "traits": "strength"}),          # a word's value is one word
    ("bold no as Beto", {"bold": "no", "who": "Beto"}),
    ("AT 9", {"at": "9"}),
    ("traits=hp at=4", {"traits": "hp", "at": "4"}),
])
def test_the_words_split_the_line(typed, args):
    assert parse_action_args(typed, THROW) == args


@pytest.mark.parametrize("typed, message", [
    ("at", "at needs a value"),
    ("at 6 at 7", "at is given twice"),
    ("traits=hp as Ana Beto", "too many arguments: 'Beto' (the parameters: as, traits, at, bold)"),
    ("'strength", "cannot read the arguments: No closing quotation"),
])
def test_a_line_that_cannot_be_read_says_why(typed, message):
    with pytest.raises(InputError) as err:
        parse_action_args(typed, THROW)
    assert str(err.value) == message


def test_played_at_the_table_and_refused_in_plain_words():
    repl, out = make_repl(GAME, seed=1)
    shown = run(repl, out, "throw strength as Ana at 8 bold")
    assert "Ana rolls 4 dice at 8:" in shown
    before = repl.session.game.values
    shown = run(repl, out, "throw strenght")
    assert "throw traits: 'strenght' is not a field of Beto (did you mean strength?)" in shown
    assert "Traceback" not in shown and repl.session.game.values == before


def test_completion_offers_fields_words_and_values():
    repl, _ = make_repl(GAME, seed=1)
    completer = TableCompleter(repl)
    assert completer.candidates("throw ", "") == ["strength", "brawl", "hp", "as", "at", "bold"]
    assert completer.candidates("throw strength + ", "") == ["strength", "brawl", "hp", "as", "at", "bold"]
    assert completer.candidates("throw strength as ", "") == ["Ana", "Beto"]
    assert completer.candidates("throw strength as Ana ", "") == ["strength", "brawl", "hp", "at", "bold"]
    assert completer.candidates("throw bold ", "") == ["yes", "no", "as", "at"]
