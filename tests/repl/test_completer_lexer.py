"""The completer and the lexer on their own."""

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from ruleset_engine.repl.completer import TableCompleter
from ruleset_engine.repl.lexer import tokens
from tests.repl.conftest import GAMES, make_repl


def complete(repl, text):
    completer = TableCompleter(repl)
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent(completion_requested=True))]


def test_commands_and_actions():
    repl, _ = make_repl(GAMES["attack"])
    assert complete(repl, "ro") == ["round", "roll", "rules"] or set(complete(repl, "ro")) == {"round", "roll"}
    assert "help" in complete(repl, "he")


def test_action_parameters_and_their_values():
    repl, _ = make_repl(GAMES["pool"])
    # In its place, the parameter's values (`conflict hour`, as the parser reads it), then its name=.
    assert complete(repl, "conflict ") == ["hour", "scene", "shot", "scale="]
    assert complete(repl, "conflict h") == ["hour"]
    assert complete(repl, "conflict hour ") == ["scale="]
    assert complete(repl, "conflict scale=") == ["scale=hour", "scale=scene", "scale=shot"]
    assert complete(repl, "conflict scale=sh") == ["scale=shot"]


def test_tables_help_topics_and_names_in_rolls():
    repl, _ = make_repl(GAMES["pool"])
    assert complete(repl, "table ") == ["outcome"]
    assert "conflict" in complete(repl, "help c")
    assert complete(repl, "roll cou") == ["count"]
    assert "params.pool_limit" in complete(repl, "roll params.p")


def test_decision_answers():
    repl, _ = make_repl(GAMES["pool"])
    repl.run_line("conflict")
    assert complete(repl, "") == [str(n) for n in range(1, 11)]
    assert complete(repl, "1") == ["10"]


def test_entity_values():
    repl, _ = make_repl(GAMES["attack"])
    assert "hunter.life" in complete(repl, "roll hunter.")


def test_lexer_styles_half_typed_dice():
    assert tokens("roll 4d6kh3 + count(") == [
        ("class:command", "roll"), ("", " "), ("class:dice", "4d6kh3"), ("", " "), ("class:operator", "+"),
        ("", " "), ("class:function", "count"), ("class:bracket", "(")]
    assert ("class:name", "dexterity") in tokens("roll dexterity + 2")
    assert ("class:error", "$") in tokens("roll 2 $ 3")
    assert ("class:string", "'unclosed") in tokens("roll 'unclosed")
    assert ("class:keyword", "and") in tokens("roll x and y") and ("class:name", "andy") in tokens("roll andy")
    assert tokens("") == []


def test_roll_completes_every_function_of_the_registry():
    import ruleset_engine as dusk

    repl, _ = make_repl(GAMES["attack"])
    offered = complete(repl, "roll ")
    assert set(dusk.FUNCTIONS) <= set(offered)
    assert complete(repl, "roll 2d6 + uNp") == [] and complete(repl, "roll unp") == ["unpair"]
    assert set(complete(repl, "help ")) >= {"dice", "steps"}


def test_the_lexer_knows_every_modifier_of_the_registry():
    import ruleset_engine as dusk

    for modifier in dusk.MODIFIERS.values():
        styles = {style for style, _ in tokens(f"roll {modifier.example}")[2:]}
        assert styles <= {"class:dice", "class:number", "class:operator", "class:bracket", "class:function", ""}, \
            (modifier.example, tokens(f"roll {modifier.example}"))


def test_the_lexer_knows_the_notations_of_other_tools():
    import ruleset_engine as dusk

    for alias in dusk.ALIASES.values():
        line = f"roll {alias.example}"
        assert not any(style == "class:error" for style, _ in tokens(line)), (alias.token, tokens(line))
        assert ("class:dice", alias.example) in tokens(line) or alias.token in "<>", (alias.token, tokens(line))


def test_positional_arguments_complete_in_their_place():
    # attack's who, target and kind have no word: each is typed in its place, and Tab offers the
    # values of the place it is in (the characters' names, then the kinds), then the words.
    repl, _ = make_repl("vampire-the-masquerade")
    assert complete(repl, "attack Ana Ko") == ["Kojiro"]
    assert complete(repl, "attack Ana Kojiro fi") == ["firearms"]
    assert complete(repl, "attack ")[:2] == ["Ana", "Kojiro"]
    assert complete(repl, "attack Ana Kojiro firearms fr") == ["from"]
    assert complete(repl, "attack Ana Kojiro firearms from ") == ["front", "flank", "rear"]
    assert complete(repl, "attack Ana Kojiro firearms from rear d") == ["diff", "defend", "damage", "dnth"]
    # A formula in the first place takes the leading words: the sheet's fields.
    assert "firearms" in complete(repl, "test dexterity + fi")
