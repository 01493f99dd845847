"""`dusk play` and `dusk resume`: the prompt at the table, or the same commands from a script.

Interactive when stdin is a terminal (and no -c / --script): a prompt_toolkit session with
completion, dice highlighting, history in the data dir, suggestions from history and a
toolbar from the ruleset's status. Otherwise each line (or each `;`-separated command of
-c) runs in turn and the output is plain text, so a session can be scripted and tested.
Ctrl-C clears the line, and stops a command under way (`auto 100` stops after its last finished
round; a command cut short is not played); Ctrl-D leaves (everything done is saved already).
In a script, Ctrl-C ends the script (exit 130), the game as after its last finished command.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

import ruleset_engine as dusk
from ruleset_engine import i18n
from ruleset_engine.i18n import _

from .commands import PERSON_ERRORS, Quit, Repl, person_message
from .journal import DataDirError, JournalError, data_dir, last_session
from .render import Style, language_notice
from .session import Session

BUG_STATUS = 70      # a session in which dusk met a bug exits as every command does after one (cli.py)

PROMPT_STYLE = {
    "command": "bold", "dice": "ansimagenta bold", "number": "ansicyan", "string": "ansigreen",
    "keyword": "ansiblue", "function": "ansiyellow", "name": "", "operator": "", "bracket": "",
    "error": "bg:ansired ansiwhite", "bottom-toolbar": "reverse",
}


def read_script(name: str) -> list[str]:
    """The lines of a --script file, read as every text file a person names is (ruleset_engine.textfile:
    a regular file only, bounded, UTF-8 without NUL); UnreadableFile (a DuskError) in words otherwise."""
    from ruleset_engine.textfile import read_text

    return read_text(name, f"--script {name}", what="script").splitlines()


def split_commands(text: str) -> list[str]:
    return [part.strip() for part in text.split(";") if part.strip()]


def make_console(interactive: bool, file=None) -> Console:
    if interactive:
        return Console(file=file, highlight=False)
    # Plain text for scripts, pipes and files: no colour, no terminal codes, and no line broken to fit
    # (soft_wrap: an error's file:line:col stays on one line for editors and CI to read). Tables still
    # need a width to lay themselves out in.
    return Console(file=file, highlight=False, no_color=True, force_terminal=False, width=100, emoji=False,
                   soft_wrap=True)


def open_session(args, interactive: bool = False) -> tuple[Session, object]:
    """A new session for `play`, or the saved one for `resume`; (session, the first reply to show).
    Only an interactive one becomes the session `dusk resume` continues without a path. `--dice`:
    who rolls (play: the game, unless manual; resume: as the session did, unless --dice says)."""
    dice = getattr(args, "dice", None)
    if args.command == "resume":
        path = Path(args.path) if args.path else last_session()
        if path is None:
            raise JournalError(_("no session played at the prompt in {folder}; start one with "
                                 "dusk play, or continue any session with dusk resume PATH (dusk sessions lists them)"
                                 ).format(folder=data_dir() / 'sessions'))
        session = Session.resume(path, interactive, force=getattr(args, "force", False))
        if dice is not None and session.reply is None:
            session.use_dice(dice == "manual", f"dice {dice}")
        return session, session.reply      # None, or the question of a setup left waiting
    if args.save is not None and not args.save.strip():
        raise JournalError(_("--save takes the path of a new session file, not an empty text"))
    save = Path(args.save) if args.save else None
    return Session.new(args.ruleset or dusk.default_ruleset(), dusk.parse_sets(args.set), args.seed, save,
                       args.lang, interactive, dice or "auto", tuple(getattr(args, "sheets", None) or ()))


def table_language(asked: str | None, session: Session) -> str | None:
    """The table's language: the one asked for (--lang), else the one the session had (resume), else
    DUSK_LANG's or the locale's; None for English when none of them names another."""
    chosen = i18n.choose(None)
    return asked or session.lang or (chosen if chosen != i18n.ENGLISH else None)


def seat(session: Session, console: Console, lang: str | None, ascii_only: bool = False) -> Repl:
    """The table over `session`: dusk's own words (the catalog) and the game's texts both in `lang`.
    The one place a table's language is set, for `dusk play`/`resume` and for the tests' tables alike."""
    i18n.set_language(lang)
    return Repl(session, console, Style(lang=lang or i18n.ENGLISH, ascii_only=ascii_only))


def intro(repl: Repl, resumed: bool, lang: str | None = None) -> None:
    """The first lines at the table: the game, its seed and file; and which texts are shown when the
    ruleset has none in the language asked for (`lang`, None when none was asked for)."""
    game = repl.session.game
    title = dusk.as_text(game.ruleset.title, repl.style.lang)
    line = _("{title}. Resumed, seed {seed}, saved in {path}.") if resumed else \
        _("{title}. A new game, seed {seed}, saved in {path}.")
    repl.show(Text(line.format(title=title, seed=game.seed, path=repl.session.journal.path), style="bold"))
    if repl.session.notice:
        repl.show(Text(repl.session.notice + ".", style="yellow"))
    notice = language_notice(game.ruleset, lang)
    if notice:
        repl.show(Text(notice + ".", style="yellow"))
    if not resumed:
        repl.show(Text(_("Type help for the commands; Tab completes; Ctrl-D leaves (the game is saved)."),
                       style="dim"))
    if repl.session.manual_dice:
        repl.show(Text(_("Real dice: every roll the game needs asks for the faces rolled (dice auto: the game "
                         "rolls)."), style="dim"))
    if resumed and game.starting:
        repl.show(Text(_("The game's setup goes on where it stopped: its answers so far, given again, say:"),
                       style="dim"))
    elif resumed:
        repl.show(Text(repl.status(), style="dim"))


def run(args, stdin=None, stdout=None) -> int:
    """The whole session; returns the exit status."""
    stdin = stdin or sys.stdin
    script = None
    if getattr(args, "c", None):
        script = split_commands(args.c)
    interactive = script is None and not getattr(args, "script", None) and stdin.isatty()
    console = make_console(interactive, stdout)
    try:
        if getattr(args, "script", None):
            script = read_script(args.script)
        session, reply = open_session(args, interactive)
    except PERSON_ERRORS as err:
        console.print(Text(person_message(err), style="bold red"))
        return 2
    lang = table_language(args.lang, session)
    repl = seat(session, console, lang, args.ascii)
    intro(repl, args.command == "resume", lang)
    if reply is not None:
        repl._after(reply)
    try:
        if interactive:
            interactive_loop(repl)
            return BUG_STATUS if repl.bugs else 0
        lines = script if script is not None else (line.rstrip("\n") for line in stdin)
        return script_loop(repl, lines)
    finally:
        repl.session.close()


def script_loop(repl: Repl, lines) -> int:
    """Each line in turn, echoed after the prompt as the table shows it (`> ` for a command, a waiting
    question with its valid answers), so a transcript reads as a session at the prompt does.
    Exit status 1 if any line was refused, or if the script ended with a question unanswered (its
    question is shown, as the prompt would show it, and a line says what was not played); 70 if any
    line met a bug in dusk (as every command: its traceback is in bugs.log)."""
    left = False
    for line in lines:
        if not line.strip():
            continue
        repl.console.print(Text(f"{repl.echo_prompt}{line.strip()}", style="dim"))
        try:
            repl.run_line(line)
        except Quit:
            left = True
            break
    lost = repl.unanswered(_("The script ended"))
    if lost is not None:
        if not left:     # the question is asked, and no line answers it
            repl.console.print(Text(repl.echo_prompt.rstrip(), style="dim"))
        repl.error(lost)
    return BUG_STATUS if repl.bugs else 1 if repl.errors else 0


def make_prompt(repl: Repl, input=None, output=None):
    """The prompt_toolkit prompt of a table. `input`/`output` are for tests (a pipe and a dummy)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.history import FileHistory
    from prompt_toolkit.styles import Style as PromptStyle

    from .completer import TableCompleter
    from .lexer import DiceLexer

    try:
        history = FileHistory(str(data_dir() / "history"))
    except DataDirError:      # a data folder that cannot be used: the lines typed are kept for this table only
        from prompt_toolkit.history import InMemoryHistory

        history = InMemoryHistory()
    return PromptSession(
        history=history,
        auto_suggest=AutoSuggestFromHistory(),
        completer=TableCompleter(repl),
        lexer=DiceLexer(),
        bottom_toolbar=lambda: " " + toolbar(repl),
        style=PromptStyle.from_dict(PROMPT_STYLE),
        complete_while_typing=False,
        input=input,
        output=output,
    )


def toolbar(repl: Repl) -> str:
    """The status line; while a question waits, saying that it is the game as before the action."""
    if repl.decision is None:
        return repl.status()
    if repl.session.game.starting:
        note = _("(the game has not begun: a question of its setup waits)")
    else:
        note = _("(as before {action}: a question waits)").format(action=repl.waiting_for())
    return f"{repl.status()}  {note}".strip()


def interactive_loop(repl: Repl, prompt=None) -> None:
    """The prompt, until Ctrl-D or quit."""
    prompt = prompt or make_prompt(repl)
    while True:
        try:
            line = prompt.prompt(repl.prompt_text)
        except KeyboardInterrupt:
            continue          # Ctrl-C clears the line, never leaves
        except EOFError:
            break             # Ctrl-D leaves; every finished command is saved already
        try:
            repl.run_line(line)
        except Quit:
            break
        except KeyboardInterrupt:
            # Ctrl-C stops the command under way, never the table: what it had not saved is undone.
            if not repl.interrupt_told:
                repl.show(Text(_("Interrupted: {command} stopped; the game is as after the last command "
                                 "saved.").format(command=line.strip()), style="yellow"))
            repl.interrupt_told = False
    lost = repl.unanswered(_("You left"))
    if lost is not None:
        repl.show(Text(lost, style="yellow"))
    if repl.session.game.starting and not repl.session.setup_saved:
        return        # no answer yet: nothing for dusk resume to continue
    repl.show(Text(_("Saved in {path}; dusk resume continues it.").format(path=repl.session.journal.path), style="dim"))
