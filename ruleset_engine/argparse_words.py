"""argparse as the `dusk` command uses it: its own words (`usage:`, `options`, `error:`, `invalid
choice`) in the table's language, and a parser that costs a start little.

argparse writes its words through gettext's default domain, which dusk does not use: `install()`
points argparse's `_` and `ngettext` at dusk's catalogs (ruleset_engine.i18n) for the process, so
`dusk --help`, every subcommand's `--help` and argparse's errors speak the chosen language. The
messages are listed below, marked for extraction exactly as argparse writes them (its %-style
placeholders kept), so `make catalogs` carries them into each language's catalog.

`Parser` is argparse's parser less two costs of every start (see its docstring); what it parses,
and every help and error it writes, are argparse's own.
"""

from __future__ import annotations

import argparse
import re

from ruleset_engine import i18n
from ruleset_engine.i18n import N_

LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")   # a language code: en, zh, es, pt-BR

# The words of argparse (Python 3.11 and later) a person can meet: the help's headings and the
# errors of a command line. (Its errors of a program that builds a parser wrongly are not listed:
# dusk's parser is built right, and a test runs it.)
MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_('argument "-" with mode %r'),
)


def _argparse_gettext(message):
    """argparse's `_`: a message in the active language (argparse passes None for a missing description)."""
    return i18n._(message) if isinstance(message, str) else message


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    """argparse's `ngettext`; its one plural message a person meets is written out for the extractor."""
    if singular == "expected %s argument":
        return i18n.ngettext("expected %s argument", "expected %s arguments", n)
    return i18n.ngettext(singular, plural, n)


def install() -> None:
    """argparse speaks dusk's active language from now on (English: its own words, unchanged)."""
    argparse._ = _argparse_gettext
    argparse.ngettext = _argparse_ngettext


def language_asked(argv: list[str]) -> str | None:
    """The --lang of a command line, read before argparse reads it (its help and errors speak it);
    None when it has none, or none argparse would accept (argparse then says so, in English)."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        value = argv[i + 1] if word == "--lang" and i + 1 < len(argv) else \
            word[len("--lang="):] if word.startswith("--lang=") else None
        if value is not None and LANGUAGE.match(value):
            return value
    return None


class Parser(argparse.ArgumentParser):
    """argparse's parser, less two costs of every start (some 8 ms of a `dusk play`):

    * add_argument checks the argument's metavar with a help formatter, which needs no width for it,
      and argparse's formatter asks the terminal's width as it is made (importing shutil, with bz2 and
      lzma, for the first): the check's formatter is given a width. A help or an error is written by
      argparse's formatter as made by argparse, at the terminal's width;
    * a command's parser (`parser_class` of add_subparsers: `CommandParser`) adds its arguments when it
      is first used (to parse, to write its usage or help): a command line runs one command, and the
      others' arguments, some hundred, were made for nothing.
    """

    _checking = False       # in add_argument: the formatter made is for the metavar's check

    def add_argument(self, *args, **kwargs):
        self._checking = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._checking = False

    def _get_formatter(self):
        if self._checking:
            return self.formatter_class(prog=self.prog, width=80)
        return super()._get_formatter()


class Kept(tuple):
    """What a command's parser's add_argument returns while the argument is kept (not yet made): its words.
    argparse's Action does not exist yet, so reading or setting any of its attributes is refused, at once
    and in words (a programming error). A tuple: one is made for every argument of every start."""

    __slots__ = ()

    def _refuse(self, *_ignored):
        raise TypeError(f"CommandParser.add_argument{tuple(self)!r}: the argument is made when the command is "
                        "first parsed or its help written, so there is no Action to use here yet "
                        "(use add_argument's keywords, or argparse.ArgumentParser for this command)")

    __getattr__ = __setattr__ = __delattr__ = _refuse


class CommandParser(Parser):
    """A command's parser: add_argument and set_defaults are kept, in order, and made when the parser
    is first used (every way argparse uses a parser goes through parse_known_args,
    parse_known_intermixed_args, format_usage, format_help or get_default).

    What adds arguments to the parser other than those two (add_argument_group,
    add_mutually_exclusive_group, add_subparsers) makes it at once, the arguments kept so far first: a
    group holds and adds its arguments itself, so keeping them too would change their order (and with it
    which positional reads which word). Such a command costs its start what argparse's own parser does,
    no more, and its help and parsing are argparse's. add_argument returns a `Kept`, which refuses to be
    used as an Action. (`register` is not watched, every start calls it some dozen times: a name
    registered after the arguments that use it is seen by them when they are made, where argparse would
    have refused the argument as written.)"""

    def __init__(self, *args, **kwargs):
        self._kept: list | None = []
        self._building = True          # argparse's own __init__ makes the two default groups: not a cause
        super().__init__(*args, **kwargs)
        self._building = False

    def add_argument(self, *args, **kwargs):
        if self._kept is None:
            return super().add_argument(*args, **kwargs)
        self._kept.append((super().add_argument, args, kwargs))
        return Kept(args)

    def set_defaults(self, **kwargs):
        if self._kept is None:
            return super().set_defaults(**kwargs)
        self._kept.append((super().set_defaults, (), kwargs))
        return None

    def _made(self) -> None:
        kept, self._kept = self._kept, None
        for call, args, kwargs in kept or ():
            call(*args, **kwargs)


def _making_first(name: str, unless_building: bool):
    """argparse's method `name`, after the parser's kept arguments are made (a group's method: not
    while argparse's own __init__ makes its two default groups)."""
    inherited = getattr(Parser, name)

    def method(self, *args, **kwargs):
        if not (unless_building and self._building):
            self._made()
        return inherited(self, *args, **kwargs)

    method.__name__ = name
    return method


# Every way argparse uses a parser, and every way to add arguments other than add_argument.
for _name in ("parse_known_args", "parse_known_intermixed_args", "format_usage", "format_help", "get_default"):
    setattr(CommandParser, _name, _making_first(_name, False))
for _name in ("add_argument_group", "add_mutually_exclusive_group", "add_subparsers"):
    setattr(CommandParser, _name, _making_first(_name, True))
del _name
