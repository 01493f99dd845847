"""`dusk --help` and every command's `--help`, written through the real entry point (cli.main, in-process),
against the same commands defined on argparse's own parser: argparse_words makes a command's arguments
only when it is used (CommandParser), which must change nothing a person sees. The options each help
must name are read from the parser definitions (cli.build_parser on plain argparse), never written here.
And what CommandParser cannot keep for later (groups, nested commands, an Action used at definition
time) is made at once or refused in words."""

from __future__ import annotations

import argparse

import pytest

from ruleset_engine import argparse_words, cli


def commands_of(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The commands of `dusk` (name -> its parser), as its subparsers action holds them."""
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


@pytest.fixture
def reference(monkeypatch):
    """dusk's parser built on argparse's own classes (nothing kept for later): the definitions as written."""
    monkeypatch.setenv("COLUMNS", "100")       # both helps at one width, whatever the terminal
    with monkeypatch.context() as patch:
        patch.setattr(argparse_words, "Parser", argparse.ArgumentParser)
        patch.setattr(argparse_words, "CommandParser", argparse.ArgumentParser)
        parser = cli.build_parser()
    assert type(parser) is argparse.ArgumentParser
    return parser


def help_of(argv, capsys) -> str:
    """What `dusk ARGV` prints, run in-process: it must exit 0 and write nothing to stderr."""
    with pytest.raises(SystemExit) as leaving:
        cli.main(argv)
    out, err = capsys.readouterr()
    assert leaving.value.code == 0 and err == "", err
    assert "Traceback" not in out
    return out


def named(parser: argparse.ArgumentParser) -> list[str]:
    """What a help must name: every option string, and each positional's metavar (or its dest)."""
    words = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            words += list(action.choices)
        elif action.option_strings:
            words += action.option_strings
        else:
            words.append(action.metavar or action.dest)
    return words


COMMANDS = sorted(commands_of(cli.build_parser()))


def test_the_commands_are_read_from_the_parser():
    assert {"roll", "prob", "play", "simulate", "serve"} <= set(COMMANDS) and len(COMMANDS) >= 11


@pytest.mark.parametrize("command", COMMANDS)
def test_each_commands_help_names_its_own_options_as_argparse_writes_it(command, reference, capsys):
    expected = commands_of(reference)[command]
    shown = help_of([command, "--help"], capsys)
    assert shown.startswith(f"usage: dusk {command}") and shown.strip()
    missing = [word for word in named(expected) if word not in shown]
    assert missing == [] and len(named(expected)) >= 2       # -h, --help at least
    assert shown == expected.format_help()                   # word for word argparse's own


def test_the_top_help_names_every_command_and_option(reference, capsys):
    shown = help_of(["--help"], capsys)
    assert shown.startswith("usage: dusk ")
    assert [word for word in named(reference) if word not in shown] == []
    assert shown == reference.format_help()


def test_a_command_s_arguments_are_made_only_when_it_is_used():
    parser = cli.build_parser()
    commands = commands_of(parser)
    assert all(p._actions == [] for p in commands.values())     # none made yet: a start pays for one
    parser.parse_args(["roll", "1d6"])
    assert commands["roll"]._actions and commands["prob"]._actions == []


def define(parser):
    """Arguments, a group, a mutually exclusive group and defaults, in an order a kept parser could lose."""
    parser.add_argument("first")
    group = parser.add_argument_group("more", "a group of its own")
    group.add_argument("second")
    group.add_argument("--wide", action="store_true")
    parser.add_argument("third")
    either = parser.add_mutually_exclusive_group()
    either.add_argument("--up", action="store_true")
    either.add_argument("--down", action="store_true")
    parser.add_argument("--seed", type=int, default=3)
    parser.set_defaults(handler="h")
    return parser


def test_groups_on_a_command_come_out_in_the_order_written(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    kept = define(argparse_words.CommandParser(prog="dusk x"))
    plain = define(argparse.ArgumentParser(prog="dusk x"))
    assert kept.format_help() == plain.format_help()
    line = ["1", "2", "3", "--up", "--wide"]
    assert kept.parse_args(line) == plain.parse_args(line)
    assert vars(kept.parse_args(line)) == {"first": "1", "second": "2", "third": "3", "wide": True, "up": True,
                                           "down": False, "seed": 3, "handler": "h"}
    with pytest.raises(SystemExit):
        kept.parse_args(["1", "2", "3", "--up", "--down"])     # the exclusive group holds


def test_nested_commands_parse_and_help_as_argparse_s(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "100")
    made = []
    for cls in (argparse_words.CommandParser, argparse.ArgumentParser):
        parser = cls(prog="dusk x")
        parser.add_argument("--lang")
        parser.add_argument("where")             # before the command's word: kept, it would come after it
        inner = parser.add_subparsers(dest="what")
        inner.add_parser("one").add_argument("n", type=int)
        made.append(parser)
    kept, plain = made
    assert kept.format_help() == plain.format_help()
    line = ["--lang", "zh", "here", "one", "4"]
    assert vars(kept.parse_args(line)) == vars(plain.parse_args(line)) == {"lang": "zh", "where": "here",
                                                                            "what": "one", "n": 4}


def test_an_action_used_at_definition_time_is_refused_in_words():
    parser = argparse_words.CommandParser(prog="dusk x")
    with pytest.raises(TypeError, match="no Action to use here yet"):
        parser.add_argument("--x").completer = None
    with pytest.raises(TypeError, match=r"add_argument\('--y',\)"):
        parser.add_argument("--y").dest
