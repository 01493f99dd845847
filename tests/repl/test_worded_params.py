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


PUSH = load(GAME).actions["push"]


@pytest.mark.parametrize("typed, args", [
    ("dice 4 9-again", {"size": "4", "nine_again": "yes"}),
    ("9-again", {"nine_again": "yes"}),
    ("9-AGAIN no dice 2", {"nine_again": "no", "size": "2"}),
])
def test_a_word_may_start_with_a_digit(typed, args):
    assert parse_action_args(typed, PUSH) == args


def test_a_word_starting_with_a_digit_plays_at_the_table_and_help_lists_the_words():
    repl, out = make_repl(GAME, seed=1)
    run(repl, out, "push dice 2 9-again")
    rolled = [e for e in repl.session.game.log if e["kind"] == "roll"][-1]
    assert len([d for d in rolled["dice"] if not d.get("from_explosion")]) == 2
    shown = run(repl, out, "help push")
    assert "  push [dice N] [9-again]\n" in shown
    assert "9-again  alone: yes; 9-again no: no, default no" in shown
    assert "dice N   a whole number" in shown and "default 3" in shown
    assert "  throw [TRAITS] [as NAME] [at N] [bold]\n" in run(repl, out, "help throw")
    assert TableCompleter(repl).candidates("push ", "") == ["dice", "9-again"]


@pytest.mark.parametrize("word, ok", [("9-again", True), ("8again", True), ("9", False), ("9-1", False),
                                      ("Again", False)])
def test_a_word_holds_a_letter_so_it_is_never_a_number(tmp_path, word, ok):
    from ruleset_engine.ruleset import RulesetError
    path = tmp_path / "w.yaml"
    path.write_text(open(GAME, encoding="utf-8").read().replace("word: 9-again", f"word: '{word}'"), encoding="utf-8")
    if ok:
        assert load(str(path)).actions["push"].params["nine_again"].word == word
    else:
        with pytest.raises(RulesetError, match="w.yaml:"):
            load(str(path))


def _sample(t, param):
    """A value of the right kind for one parameter, as a player would type it."""
    if t.kind == "boolean":
        return None
    if t.choices:
        return t.choices[-1]
    if t.kind == "integer":
        lo = getattr(param.min, "text", None)
        return str(int(lo) if lo is not None and lo.lstrip("-").isdigit() else 1)
    if t.kind == "formula":
        return "2"
    return "Ana"


@pytest.mark.parametrize("ruleset", ["vampire-the-masquerade", "noche-de-los-vampiros", "attack-of-the-vampires"])
def test_every_form_help_shows_is_one_the_parser_takes(ruleset):
    # help ACTION and the parser read one declaration (repl/typed.py): each parameter typed as help
    # writes it (its word, then a value; in its place when it has none) reaches that very parameter.
    from ruleset_engine.repl.typed import typed, usage

    for name, action in load(ruleset).actions.items():
        forms = typed(action)
        assert usage(name, action).split()[0] == name
        words = []
        for t in forms:
            value = _sample(t, action.params[t.name])
            if t.word is None:
                words.append(value if value is not None else "yes")
            else:
                words += [t.word] + ([value] if value is not None else [])
        parsed = parse_action_args(" ".join(words), action)
        assert set(parsed) == {t.name for t in forms}, (name, words, parsed)
        for t in forms:
            if t.word is not None and t.kind == "boolean":
                assert parsed[t.name] == "yes"


def test_help_attack_and_npc_show_the_words_the_parser_takes():
    repl, out = make_repl("vampire-the-masquerade", seed=1)
    shown = run(repl, out, "help attack")
    assert "attack WHO TARGET [KIND] [diff N]" in shown and "[from front|flank|rear]" in shown and "[split N]" in shown
    assert "side=" not in shown and "defence_actions" not in shown
    shown = run(repl, out, "help npc")
    assert "[type bashing|lethal|aggravated]" in shown and "wtype" not in shown
