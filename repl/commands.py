"""The commands of the table: the built-ins, one function each in BUILTINS, and the ruleset's actions.

A Repl runs one line at a time, the same way with a prompt or from a script: when an action
asks a decision, the next line is its answer (with `auto` taking the ruleset's answer, and
`undo` dropping the question). With real dice (`dice manual`) every roll is such a question, asking
for the faces rolled; `auto N` stops at each for a person to answer, and goes on. Errors are one
line and the session goes on; a bug is one line naming bugs.log, where its traceback went. A command
whose save fails is undone (session.py) and says why; `save PATH` goes on in a new file. Ctrl-C
stops `auto N` after its last finished round. The
help of the dice language and of the steps is written from the engine's registries
(ruleset_engine.FUNCTIONS, MODIFIERS, STEP_KINDS).
"""

from __future__ import annotations

import copy
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from rich.cells import cell_len
from rich.console import Console
from rich.padding import Padding
from rich.table import Table as RichTable
from rich.text import Text

import ruleset_engine as dusk
from ruleset_engine import DecisionError, DuskError, GameError, InputError, as_text, format_value, render_rich
from ruleset_engine import i18n
from ruleset_engine.i18n import N_, _, ngettext

from . import render
from ruleset_engine import result_words
from .labels import Labels
from .typed import typed as typed_params, usage as typed_usage, words as typed_words
from .written import write_text
from .journal import log_bug
from .session import Session

if TYPE_CHECKING:      # fill.py is imported by the commands that fill a sheet, not at every start
    from . import fill

# What a person can cause: a DuskError (bad dice text with its caret, a rule that failed, a damaged
# session file, a command's arguments that cannot be read: InputError...), a file that cannot be
# written. Shown in one line. A ValueError is not among them: raised by dusk's own code, it is a bug.
PERSON_ERRORS = (DuskError, OSError)


def person_message(err: BaseException) -> str:
    """One of PERSON_ERRORS in plain words: a file that cannot be read or written names the file and
    why, without Python's "[Errno 21]"."""
    if isinstance(err, OSError) and err.strerror:
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror[0].lower()}{err.strerror[1:]}"
    return str(err)


@dataclass(eq=False, repr=False)
class Builtin:
    """A built-in command of the table: what runs it, its usage and its help line."""

    run: Callable[["Repl", str], None]
    usage: str
    doc: str

    def shown_usage(self) -> str:
        """The usage in the table's language: its placeholders translated (`roll 表达式`); a command
        alone (`state`) is the word typed, never translated."""
        return _(self.usage) if " " in self.usage else self.usage


@dataclass(eq=False, repr=False)
class AutoRun:
    """`auto N` under way: it stops at each question for real dice, and goes on once it is answered."""

    text: str                   # the command as typed
    rounds: int                 # the rounds asked for
    looped: bool                # False: a ruleset without a loop (auto finishes the waiting action)
    begun: int = 0              # the rounds begun so far
    command: object = None      # the session's Command the rounds belong to, once one is begun


# The longest answer read: a question for dice is given room for its faces; an answer past this is
# refused in words, without reading it (an answer is typed, or pasted, by anyone).
LONGEST_ANSWER = 200
# The longest command line read (an action with its arguments, a roll, a path): splitting a line into
# words takes time that grows faster than its length, so a longer one (a paste gone wrong) is refused
# before it is split. Ten thousand characters hold any dice expression (4,096) with room to spare.
LONGEST_COMMAND = 10_000


class Quit(BaseException):
    """Leave the session (it is saved already). Control flow, not an error: no `except Exception` stops it."""


class Repl:
    def __init__(self, session: Session, console: Console, style: render.Style):
        self.session = session
        self.console = console
        self.style = style
        self.decision = None
        self.auto_run: AutoRun | None = None
        self.confirm: Callable[[bool], None] | None = None
        self.filling: fill.Fill | None = None     # a sheet being filled in (fill NAME)
        self.errors = 0
        self.bugs = 0          # lines that met a bug in dusk (logged in bugs.log): the session exits 70
        self.interrupt_told = False      # Ctrl-C stopped auto N, which said so already
        self.innermost = session.game.ruleset.loop[-1].name if session.game.ruleset.loop else None
        self.level_labels = {level.name: level.label for level in session.game.ruleset.loop if level.label is not None}
        self.level_labels.update({("entity", name): spec.label for name, spec in session.game.ruleset.entities.items()
                                  if spec.label is not None})    # a group's label, for `New LABEL: NAME.`
        self.level_labels.update({("result", name): words for name, words in session.game.ruleset.results.items()})
        self.labels = Labels(session.game.ruleset, style.lang)      # the words: typed in the table's language
        self.seat: str | None = None     # who types: None at the terminal (the GM, and the whole table); a
                                         # seat's name when the server runs a player's line (web/)
        style.words = self.labels.label_of          # and shown: a field, a choice, a mark's type by its label

    # ---- output
    def show(self, *renderables) -> None:
        for item in renderables:
            # Plain strings are text, never rich markup: "[topic]" must print as typed.
            self.console.print(Text(item) if isinstance(item, str) else item)

    def show_events(self, events: list) -> None:
        for e in events:
            shown = render.event(e, self.style, self.innermost, self.level_labels)
            if shown is not None:
                self.console.print(shown)

    def error(self, message: str) -> None:
        self.errors += 1
        self.console.print(Text(message, style="bold red"))

    @property
    def prompt_text(self) -> str:
        if self.confirm is not None:
            return _("sure? (yes/no) > ")
        if self.filling is not None:
            from . import fill

            return fill.question(self.filling, self.session.game, self.style.lang)
        if self.decision is not None:
            prompt = as_text(self.decision.texts, self.style.lang) if self.decision.texts else self.decision.prompt
            if self.decision.kind == "dice":
                prompt = dice_question(self.decision, prompt)
            whose = self.owner()
            if whose is not None:        # a seat's question says whose it is (seats: in the ruleset)
                prompt = _("({seat} answers) {question}").format(seat=whose, question=prompt)
            return f"{prompt} [{self.valid()}] > "
        return f"{self.session.game.ruleset.id}> "

    def owner(self, decision=None) -> str | None:
        """The seat the waiting question (or `decision`) belongs to, or None: the GM's."""
        decision = decision if decision is not None else self.decision
        if decision is None:
            return None
        game = self.session.game
        return dusk.seat_of(game.ruleset, game.values, decision)

    def valid(self) -> str:
        """The valid answers of the waiting question, a choice's values as the table types them (labels)."""
        if self.decision.kind == "choice" and any(c in self.labels.label_of for c in self.decision.choices):
            return _("one of: {choices}").format(choices=", ".join(self.labels.shown(c) for c in self.decision.choices))
        return self.decision.describe_valid()

    @property
    def echo_prompt(self) -> str:
        """What a line of a script is echoed after: the prompt as the table shows it, a waiting question
        with its valid answers included, but `> ` for a command (the ruleset's id would only repeat)."""
        if self.confirm is None and self.decision is None and self.filling is None:
            return "> "
        return self.prompt_text

    def status(self) -> str:
        """The ruleset's status line, then `over: RESULT` at the end and `dice: manual` with real dice."""
        game = self.session.game
        # Before the setup is done the game has no state for the ruleset's line to read: none is shown.
        parts = [game.status(self.style.lang) if not game.starting else ""]
        if game.over:
            parts.append(_("over: {result}").format(result=result_words(game.ruleset.results, game.result, self.style.lang)))
        if game.manual_dice:
            parts.append(_("dice: manual"))
        return " | ".join(part for part in parts if part)

    def waiting_for(self) -> str:
        """The name of the action that waits on the question."""
        return self.session.waiting_action() or _("the action")

    def waiting_note(self) -> str | None:
        """While a question waits, what `state`, `status`, `log` and the toolbar show: the game as it was
        before the action that asked (the engine applies an action's effects when it completes, and
        replays it from its start on each answer). None when no question waits."""
        if self.decision is None:
            return None
        if self.session.game.starting:
            return _("A question of the game's setup waits, so the game has not begun: what the setup has printed "
                     "so far takes effect when the question is answered.")
        action = self.waiting_for()
        return _("A question waits, so {action} has not happened yet: the game is as it was before it, and what "
                 "{action} has printed so far takes effect when the question is answered.").format(action=action)

    def unanswered(self, how: str) -> str | None:
        """What was lost when the session ends (`how`: "The script ended", "You left") with a question
        waiting; None when none waits. Nothing of an unfinished action is saved."""
        if self.confirm is not None or self.filling is not None:
            return _("{how} with a question unanswered: nothing was done.").format(how=how)
        if self.decision is None:
            return None
        if self.session.setup_saved:
            return _("{how} with a question of the game's setup unanswered: the answers given so far are saved, "
                     "and dusk resume goes on with the setup from this question.").format(how=how)
        if self.session.game.starting:
            return _("{how} with a question unanswered, so the game's setup did not finish: the session file "
                     "holds no game yet.").format(how=how)
        action = self.waiting_for()
        again = _("asks for its dice again") if self.session.manual_dice else _("rolls the same dice again")
        return _("{how} with a question unanswered, so {action} was not played: the session file keeps the "
                 "game as it was before it (resume it, and {action} {again}).").format(how=how, action=action,
                                                                                      again=again)

    # ---- one line
    def run_line(self, line: str) -> None:
        """Run one command line; raises Quit to leave. Never lets a person's mistake out as a traceback."""
        line = line.strip()
        if not line and (self._takes_empty() or self.filling is not None):
            pass          # an empty answer: a pick of no dice, or the values kept
        elif not line or line.startswith("#"):
            return
        try:
            if self.confirm is not None:
                self._answer_confirm(line)
            elif self.filling is not None:
                self._answer_fill(line)
            elif self.decision is not None and not self._is_escape(line):
                self._answer(line)
            else:
                self._command(line)
        except DecisionError as err:
            self.error(_("{refusal} - try again").format(refusal=refusal(err, line)))
        except PERSON_ERRORS as err:
            self.error(self.labels.said_back(person_message(err), line))     # what was typed, as typed
        except Exception:  # noqa: BLE001 - a bug (a DuskBug, or any other): logged with its traceback, one line shown
            self.bugs += 1
            self.error(_("Something went wrong inside dusk (a bug); {where}").format(where=log_bug(repr(line))))

    def _takes_empty(self) -> bool:
        """True when the waiting question is a pick that may be answered with no dice."""
        return self.confirm is None and self.decision is not None and self.decision.kind == "pick" \
            and self.decision.pick_range()[0] == 0

    def _is_escape(self, line: str) -> bool:
        if not line:
            return False
        word = line.split()[0].lower()
        if self.decision.kind in ("choice", "instance", "instances") and \
                line.split(",")[0].strip().casefold() in (c.casefold() for c in self.decision.choices):
            return False      # a choice (an instance) named like a command is an answer
        if self.decision.kind == "text":
            return line.strip().lower() in ESCAPES   # words that start like a command ("undo the past") answer
        return word in ESCAPES

    def _answer(self, line: str) -> None:
        limit = longest_answer(self.decision)
        if len(line) > limit:
            raise DecisionError(_("an answer of {length} characters is not a valid answer (the longest read "
                                  "here is {limit}): expected {expected}").format(
                length=i18n.number(len(line)), limit=i18n.number(limit), expected=self.decision.describe_valid()),
                self.decision)
        if self.decision.kind == "choice" and self.labels.name(line) in self.decision.choices:
            line = self.labels.name(line)           # a choice answered by its label
        reply = self.session.answer(self.decision, line, line)
        # The answer typed is on the screen already, after its question (at the prompt, and in a
        # script's echo): the chronicle's line for it is shown only when it reads the answer otherwise
        # (an empty pick as `none`, `5,5,3` as `5 5 3`), not to say the same again. A yes or no typed
        # (`y`, `no`) is never read otherwise.
        events = reply.events
        if events and events[0]["kind"] == "ask" and events[0].get("by") != "auto" \
                and (render.text_of(events[0]["answer"], self.style) == line.strip()
                     or events[0]["decision"].get("kind") == "yes_no"):
            events = events[1:]
        self.show_events(events)
        self.decision = reply.decision
        if self.auto_run is not None:
            self.go_on_auto()

    def _answer_fill(self, line: str) -> None:
        """An answer to a fill's question; at the last, every change is made as one command."""
        if line.strip().lower() in ("quit", "exit"):
            self.filling = None
            self.show(_("The sheet is left as it was."))
            self._command(line)          # and the table is left, as quit says
            return
        from . import fill

        if not fill.answer(self.filling, self.session.game, line):
            return
        done, self.filling = self.filling, None
        reply = self.session.edit(done.name, done.changes, done.command)
        self.show_events(reply.events)
        if not reply.events:
            self.show(_("{name}'s sheet is left as it was.").format(name=done.name))

    def _answer_confirm(self, line: str) -> None:
        confirm, self.confirm = self.confirm, None
        confirm(line.strip().lower() in ("y", "yes"))

    def _command(self, line: str) -> None:
        if len(line) > LONGEST_COMMAND:
            raise InputError(i18n._("a command of {length} characters is not read (the longest read at the table "
                                    "is {limit} characters); nothing was done").format(
                length=i18n.number(len(line)), limit=i18n.number(LONGEST_COMMAND)))
        word, _, rest = line.partition(" ")
        word = self.labels.name(word).lower()
        if word in self.session.game.ruleset.actions or word in LABELLED:
            rest = self.labels.read(rest)        # the ruleset's names typed as their labels
        builtin = BUILTINS.get(word)
        if builtin is not None:
            builtin.run(self, rest.strip())
            return
        if word in self.session.game.ruleset.actions:
            self._action(word, rest.strip(), line)
            return
        names = list(BUILTINS) + list(self.session.game.ruleset.actions)
        from difflib import get_close_matches

        guess = get_close_matches(word, names, n=1)
        hint = i18n._(" (did you mean {guess}?)").format(guess=guess[0]) if guess else ""
        raise GameError(i18n._("no command {word}{hint}; type help for the commands").format(word=repr(word), hint=hint))

    def _action(self, name: str, rest: str, line: str) -> None:
        action = self.session.game.ruleset.actions[name]
        args = parse_action_args(rest, action)
        self._after(self.session.perform(name, args, line))

    def _after(self, reply) -> None:
        self.show_events(reply.events)
        self.decision = reply.decision
        if self.session.take_interrupt():    # Ctrl-C came while this was saved: it is saved, and shown
            raise KeyboardInterrupt

    # ---- helpers for the built-ins
    def play_rounds(self, n: int, command: str = "auto") -> None:
        """Play n rounds of the loop with the auto: answers, as one command (`command`, as typed) that
        undo takes back whole. A round that waits on a question is finished first (it stays part of
        the command that began it). With real dice it stops at each roll for its faces, and the answer
        goes on with it (go_on_auto)."""
        name = self.session.loop_action()
        if name is None and self.decision is None:
            raise GameError(_("this ruleset has no game loop: auto plays rounds of a loop"))
        if self.decision is not None and self.decision.kind == "dice":
            raise GameError(_("auto cannot roll real dice: type the faces rolled (dice auto lets the game roll "
                              "them, from the next action)"))
        run = AutoRun(command, n if name is not None else 1, name is not None)
        if self.decision is not None:
            run.begun = 1       # the round that waits is the first
        self.auto_run = run
        self.go_on_auto()

    def go_on_auto(self) -> None:
        """Go on with the `auto N` under way: answer the ruleset's questions with their auto: answers and
        begin rounds until N are played or the game is over, or stop at a question for real dice (the
        faces are the person's to give; answered, it goes on from here)."""
        run = self.auto_run
        name = self.session.loop_action()
        try:
            with self.session.command(run.text, run.command) as command:
                run.command = command
                while True:
                    if self.decision is not None:
                        if self.decision.kind == "dice":
                            return          # the prompt asks for the faces; the answer goes on
                        self._after(self.session.auto_answer(self.decision, run.text))
                    elif run.looped and run.begun < run.rounds and not self.session.game.over:
                        run.begun += 1
                        self._after(self.session.perform(name, {}, run.text))
                    else:
                        break
        except BaseException as err:
            self.auto_run = None
            if isinstance(err, (KeyboardInterrupt, DuskError)):
                self._auto_stopped(run, err)
            raise
        self.auto_run = None
        if run.looped:
            self.show(Text(ngettext("({n} round played)", "({n} rounds played)", run.begun).format(n=run.begun), style="dim"))
        else:
            self.show(Text(_("(answered with the ruleset's auto: answers)"), style="dim"))

    def _auto_stopped(self, run: AutoRun, err: BaseException) -> None:
        """`auto N` stopped by Ctrl-C or an error: the rounds it finished are played and saved, the one
        under way is not (session.py put the game back as before it). A question it left waiting is
        dropped at Ctrl-C, so that the prompt is the table's again."""
        if isinstance(err, KeyboardInterrupt) and self.decision is not None and not self.session.game.starting:
            self.session.undo()
            self.decision = None
        if not run.looped:
            return
        done = len(run.command.turns) if run.command is not None else 0
        why = _("at Ctrl-C") if isinstance(err, KeyboardInterrupt) else _("at an error")
        self.interrupt_told = isinstance(err, KeyboardInterrupt)
        self.show(Text(ngettext("({command} stops {why}: {n} round played and saved)",
                                "({command} stops {why}: {n} rounds played and saved)", done).format(
                                    command=run.text, why=why, n=done), style="dim"))

    def stop_auto(self) -> None:
        """The question the `auto N` under way waited on was dropped: it stops, the rounds before it played."""
        run, self.auto_run = self.auto_run, None
        if run is not None:
            done = run.begun - 1
            self.show(Text(ngettext("({command} stops: {n} round played)", "({command} stops: {n} rounds played)",
                                    done).format(command=run.text, n=done), style="dim"))


def dice_question(decision, prompt: str) -> str:
    """A question for real dice as the prompt asks it: what they are for, then how many of which size
    (`Search: roll 3d6`; a die beyond its pool, re-rolled or exploded: `life_roll: roll 1 more d20`).
    `prompt` is the engine's (`Search: 3d6`, `life_roll: +1d20`), in the table's language."""
    label, sep, dice = prompt.rpartition(": ")
    if not sep:
        label, dice = "", prompt
    more = dice.startswith("+")
    count = _("{n} more d{sides}").format(n=decision.min, sides=decision.sides) if more else f"{decision.min}d{decision.sides}"
    return _("{label}: roll {count}").format(label=label, count=count) if label else _("roll {count}").format(count=count)


def longest_answer(decision) -> int:
    """The longest answer read for a question: room for every face of its dice (each with a separator
    and a space), else LONGEST_ANSWER."""
    if decision.kind == "dice":
        return max(LONGEST_ANSWER, (decision.min or 1) * (len(str(decision.sides)) + 2) + 16)
    if decision.kind == "pick":
        width = max((len(str(face)) for face in decision.pool), default=1)
        return max(LONGEST_ANSWER, len(decision.pool) * (width + 2) + 16)
    if decision.kind == "text":   # its own bound, and room for spaces around it
        return max(LONGEST_ANSWER, decision.max + 16)
    if decision.kind == "instances":     # every name offered, each with a comma and a space
        return max(LONGEST_ANSWER, sum(len(name) + 2 for name in decision.choices) + 16)
    return LONGEST_ANSWER


def refusal(err: DecisionError, line: str) -> str:
    """Why an answer was refused: the engine's words, and for real dice what was wrong with the faces
    (how many were given, or which face is not on the die)."""
    decision = getattr(err, "decision", None)
    if decision is None or decision.kind != "dice" or len(line) > longest_answer(decision):
        return str(err)
    text = line.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    words = text.replace(",", " ").split()
    if not words or not all(w.isascii() and w.isdigit() for w in words):
        return str(err)
    faces = [int(w) for w in words]
    expected = decision.describe_valid()
    if len(faces) != decision.min:
        given = ngettext("{n} face", "{n} faces", len(faces)).format(n=len(faces))
        return _("{text} is not a valid answer: {given}, not {wanted} (expected {expected})").format(
            text=text, given=given, wanted=decision.min, expected=expected)
    wrong = [face for face in faces if not 1 <= face <= decision.sides]
    if not wrong:
        return str(err)
    return _("{text} is not a valid answer: {face} is not on a d{sides} (expected {expected})").format(
        text=text, face=wrong[0], sides=decision.sides, expected=expected)


def parse_args(text: str, names: list[str]) -> dict:
    """`key=value` pairs, or values in the order of the parameters."""
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise InputError(_("cannot read the arguments: {error}").format(error=err)) from None
    args: dict = {}
    position = 0
    for word in words:
        key, sep, value = word.partition("=")
        if sep:
            args[key] = value
            continue
        if position >= len(names):
            raise InputError(_("too many arguments: {word} (the parameters: {names})").format(
                word=repr(word), names=', '.join(names) or _('none')))
        args[names[position]] = word
        position += 1
    return args


def parse_action_args(text: str, action) -> dict:
    """An action's arguments as typed. Besides `key=value` and values in the order of the parameters,
    a parameter may declare a word that introduces its value (`against 6`, `as Mara`): the words after it,
    up to the next such word, are its value. A formula parameter takes every word up to the next
    parameter's word (`grit + aim against 6`); any other takes one word (quote a text with
    spaces), and the words after it are read as if typed first. The words are the ruleset's, never
    the table's."""
    words = typed_words(action)
    formulas = [name for name, p in action.params.items() if p.type == "formula"]
    if not words and not formulas:
        return parse_args(text, list(action.params))
    try:
        tokens = shlex.split(text)
    except ValueError as err:
        raise InputError(_("cannot read the arguments: {error}").format(error=err)) from None
    groups: list[tuple[str | None, list[str]]] = [(None, [])]
    for token in tokens:
        if token.lower() in words:
            groups.append((words[token.lower()], []))
        else:
            groups[-1][1].append(token)
    args: dict = {}
    loose = list(groups[0][1])
    for name, values in groups[1:]:
        if name in args:
            raise InputError(_("{word} is given twice").format(word=action.params[name].word))
        if not values and action.params[name].type == "boolean":
            values = ["yes"]                # a yes/no parameter's word alone says yes: `spec`
        if not values:
            raise InputError(_("{word} needs a value").format(word=action.params[name].word))
        if action.params[name].type == "formula":
            args[name] = " ".join(values)
        else:                           # one word is its value; the words after it are read as loose
            args[name] = values[0]
            loose += values[1:]
    keyed = {}
    for token in list(loose):
        key, sep, value = token.partition("=")
        if sep and key in action.params:
            keyed[key] = value
            loose.remove(token)
    open_params = [n for n, p in action.params.items() if n not in args and n not in keyed and not p.word]
    if loose and open_params and action.params[open_params[0]].type == "formula":
        args[open_params[0]] = " ".join(loose)            # the leading words are the formula
        loose = []
    elif loose:
        for token in loose:
            if not open_params:
                raise InputError(_("too many arguments: {word} (the parameters: {names})").format(
                    word=repr(token), names=', '.join(p.word or n for n, p in action.params.items())))
            args[open_params.pop(0)] = token
    args.update(keyed)
    return args


def _typed_what(t, param, labels=None) -> str:
    """What a parameter's value is, in words, for `help ACTION` (`labels`: the choices by their labels)."""
    if t.kind == "boolean":
        return _("alone: yes; {word} no: no").format(word=t.word) if t.word else _("yes or no")
    if t.kind == "integer":
        lo, hi = (getattr(b, "text", b) for b in (param.min, param.max))
        return (_("a whole number from {low} to {high}").format(low=lo, high=hi) if lo is not None and hi is not None
                else _("a whole number"))
    if t.kind == "entity":
        return _("the name of a {group}").format(group=labels.group(param.of) if labels is not None else param.of)
    if t.kind == "formula":
        return _("traits added up (a formula)")
    if t.kind == "choice":       # a word's choices are in its form already
        shown = [labels.shown(c) for c in param.choices] if labels is not None else list(param.choices)
        return "" if t.word else _("one of {choices}").format(choices=", ".join(shown))
    return _("a dice expression") if t.kind == "dice" else _("a text (quoted when it has spaces)")


def _default_shown(default) -> str:
    """A parameter's default as the table types values: a formula's text, yes/no for true/false."""
    if isinstance(default, bool):
        return _("yes") if default else _("no")
    return str(getattr(default, "text", default))


# ---- the built-ins, one function each --------------------------------------------

def cmd_help(repl: Repl, rest: str) -> None:
    ruleset = repl.session.game.ruleset
    style = repl.style
    topic = rest.strip().lower()
    if topic in ruleset.actions:
        action = ruleset.actions[topic]
        lines = [f"{repl.labels.shown(topic)}: {as_text(action.doc, style.lang) if action.doc else ''}"]
        if action.once_per is not None:
            lines.append(_("  done at most once per {level}").format(level=action.once_per))
        # From the one reading of the declaration the parser takes (typed.py): the forms it reads.
        # The action, its words and choices by their labels in the table's language (typed, they read as the names).
        lines.append(f"  {repl.labels.shown_in(typed_usage(topic, action))}")
        forms = typed_params(action)
        width = max((cell_len(repl.labels.shown_in(t.form)) for t in forms), default=0)
        for t in forms:
            param = action.params[t.name]
            what = _typed_what(t, param, repl.labels)
            default = _("default {value}").format(value=repl.labels.shown_in(_default_shown(param.default))) \
                if param.default is not None else ""
            said = ", ".join(x for x in (what, default) if x)
            doc = as_text(param.doc, style.lang) if param.doc else ""
            form = repl.labels.shown_in(t.form)
            lines.append(f"  {_padded(form, width)}  {said}{'  ' + doc if doc else ''}".rstrip())
        repl.show("\n".join(lines))
        return
    if topic in HELP_TOPICS:        # `help dice`: the dice language, then the command of that name
        repl.show(*HELP_TOPICS[topic](ruleset))
        if topic in BUILTINS:
            repl.show(_("The command {usage}: {doc}").format(usage=BUILTINS[topic].shown_usage(), doc=_(BUILTINS[topic].doc)))
        return
    if topic in BUILTINS:
        repl.show(f"{BUILTINS[topic].shown_usage()}: {_(BUILTINS[topic].doc)}")
        return
    if topic:
        from difflib import get_close_matches

        names = list(ruleset.actions) + list(BUILTINS) + list(HELP_TOPICS)
        guess = get_close_matches(topic, names, n=1)
        hint = _(" (did you mean {guess}?)").format(guess=guess[0]) if guess else ""
        raise GameError(_("no help for {topic}{hint}; help takes one of: {names}").format(
            topic=repr(rest.strip()), hint=hint, names=', '.join(names)))
    lines = [_("{title}: the actions").format(title=as_text(ruleset.title, style.lang))]
    for name, action in ruleset.actions.items():
        lines.append(f"  {_padded(_overview_form(repl.labels, name, action), 28)} "
                     f"{as_text(action.doc, style.lang) if action.doc else ''}")
    lines.append(_("Built-in commands"))
    for builtin in BUILTINS.values():
        lines.append(f"  {_padded(builtin.shown_usage(), 28)} {_(builtin.doc)}")
    lines.append(_("help ACTION or help COMMAND for more; help dice for the dice language, help steps for the "
                   "steps of a ruleset."))
    repl.show("\n".join(lines))


# The overview's line of an action stops at about this many columns: `help ACTION` shows the rest.
OVERVIEW_FORM = 48


def _overview_form(labels, name: str, action) -> str:
    """An action as the table types it, for help's overview (`attack WHO TARGET [KIND] [diff N] ..`):
    the forms the parser reads (typed.py), in the table's words, cut at a parameter past
    OVERVIEW_FORM columns."""
    from rich.cells import cell_len

    out = labels.shown(name)
    for t in typed_params(action):
        form = t.form if t.word is None else " ".join([labels.shown(t.word), *t.form.split(" ")[1:]])
        part = form if t.required else f"[{form}]"
        if cell_len(out) + 1 + cell_len(part) > OVERVIEW_FORM:
            return out + " .."
        out += " " + part
    return out


def _padded(text: str, width: int) -> str:
    """`text` padded to `width` columns as a terminal shows them (a Chinese character takes two)."""
    from rich.cells import cell_len

    return text + " " * (width - cell_len(text))


def _entries(rows) -> Padding:
    """(head, doc, example) rows as two columns, so a long doc line wraps inside its own column."""
    grid = RichTable.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column()
    for head, doc, example in rows:
        body = Text(doc)
        body.append("\n" + example, style="dim")
        grid.add_row(Text(head), body)
    return Padding(grid, (0, 0, 0, 2))


def dice_help(ruleset=None) -> list:
    """The dice language, from the engine's registries: every modifier and function, its doc line and an example."""
    modifiers = [(m.syntax, m.doc, _("e.g. {example}").format(example=m.example)) for m in dusk.MODIFIERS.values()]
    functions = [("\n".join(form.signature for form in f.forms if form.signature) or f"{f.name}(..)", f.doc,
                  _("e.g. {example}").format(example=f.example)) for f in dusk.FUNCTIONS.values()]
    notations = [(a.syntax, f"{a.tool}: {a.doc}", _("e.g. {example}, read as {explicit}").format(
        example=a.example, explicit=a.explicit)) for a in dusk.ALIASES.values()]
    return [Text(_("The dice language (docs/dice-language.md)\n"
                   "  3d6  d20  (n + 2)d10  [1, 2, 2, 5]   dice, and a pool of exact faces\n"
                   "  + - * //  == != < <= > >=  and or not  x if cond else y")),
            Text(_("Modifiers, written after the dice (they chain: 4d6r<2kh3)")), _entries(modifiers),
            Text(_("Functions")), _entries(functions),
            Text(_("Notations from Foundry VTT and Roll20, read as dusk's own (the roll shows what it read)")),
            _entries(notations)] + (formulas_help(ruleset) if ruleset and ruleset.formulas else [])


def formulas_help(ruleset=None) -> list:
    """The ruleset's named formulas: each call, its doc line and its body."""
    if ruleset is None or not ruleset.formulas:
        return [Text(_("This ruleset names no formulas (formulas: in its file, docs/rulesets.md)."))]
    rows = [(f.signature, as_text(f.doc) if f.doc else "", f"= {f.text}") for f in ruleset.formulas.values()]
    return [Text(_("The formulas of this ruleset (roll or prob them: roll {example})").format(example=_example_call(ruleset))),
            _entries(rows)]


def _example_call(ruleset) -> str:
    first = next(iter(ruleset.formulas.values()))
    return f"{first.name}({', '.join('1' for _ in first.params)})"


def steps_help(ruleset=None) -> list:
    """The steps a ruleset is written with, from the engine's registry: each kind, its doc line and an example."""
    kinds = [(f"{kind.key}:", kind.doc, kind.example) for kind in dusk.STEP_KINDS.values()]
    return [Text(_("The steps of a ruleset (docs/rulesets.md)")), _entries(kinds)]


HELP_TOPICS: dict[str, Callable[..., list]] = {"dice": dice_help, "steps": steps_help, "formulas": formulas_help}


def cmd_roll(repl: Repl, rest: str) -> None:
    """`roll EXPR`, beside the game; `roll --secret EXPR`, the GM's alone; `roll` alone (or the same
    EXPR) makes the roll the GM asked of this seat (request)."""
    secret = rest.startswith("--secret")
    if secret:
        rest = rest[len("--secret"):].strip()
    asked = [] if secret else repl.session.pending_requests(repl.seat)
    request = next((r for r in asked if not rest or r["expression"] == rest), None)
    if request is not None:
        rest = request["expression"]
    if not rest:
        raise InputError(_("roll what? for example: roll 4d6kh3"))
    result = repl.session.free_roll(rest, secret, request and {"who": request["who"], "request": request["request"]})
    if secret or request is not None:
        repl.show(render.event(repl.session.rolls[-1][1], repl.style))
        return
    if not result.steps:      # no dice: a name or a sum of names reads on one line, as it is written
        repl.show(Text(f"{result.expression} = {_plain_value(result.raw, repl.style)}", style="bold"))
        return
    repl.show(render_rich(result, repl.style.ascii_only))


def cmd_request(repl: Repl, rest: str) -> None:
    """`request NAME EXPR`: ask a seat for a roll (its screen shows the dice; its `roll` makes it);
    `request` alone lists those waiting; `request --cancel NAME` drops the first asked of NAME."""
    session = repl.session
    game = session.game
    if not rest:
        waiting = session.pending_requests()
        repl.show("\n".join(_("{seat}: {expression}").format(seat=r["who"], expression=r["expression"])
                            for r in waiting) if waiting else _("No roll is asked for."))
        return
    cancel = rest.startswith("--cancel")
    words = rest[len("--cancel"):].strip() if cancel else rest
    seat, _sep, text = words.partition(" ")
    seats = dusk.seat_names(game.ruleset, game.values)
    if game.ruleset.seats is None:
        raise GameError(_("this ruleset names no seats (seats: in the ruleset), so no roll can be asked of one"))
    found = next((s for s in seats if s.casefold() == seat.casefold()), None)
    if found is None:
        raise GameError(_("no seat is named {name}; the seats: {names}").format(
            name=repr(seat), names=", ".join(seats) or _("none yet")))
    if cancel:
        waiting = session.pending_requests(found)
        if not waiting:
            raise GameError(_("no roll is asked of {seat}").format(seat=found))
        repl.show(render.event(session.cancel_request(waiting[0]), repl.style))
        return
    if not text.strip():
        raise InputError(_("request takes a seat and the dice to roll: request {seat} 3d10").format(seat=found))
    repl.show(render.event(session.request_roll(found, text.strip()), repl.style))


def cmd_prob(repl: Repl, rest: str) -> None:
    """The odds of an expression, its names read from the game as `roll` reads them (nothing rolled,
    nothing saved). Exact where the language's parts have an exact form, else a seeded estimate."""
    if not rest:
        raise InputError(_("the odds of what? for example: prob count(5d10, >= 6)"))
    from ruleset_engine.analysis import prob, prob_view

    answer = prob.ask([rest.strip()], env=copy.deepcopy(repl.session.game.text_env()),
                      formulas=repl.session.game.ruleset.formulas)
    repl.show(prob_view.render_rich(answer, repl.style.ascii_only))


def _plain_value(value, style: render.Style) -> str:
    """A value read from the game, in words: an entity as its fields, a group as its names."""
    if isinstance(value, dict):
        return ", ".join(f"{key} {_plain_value(item, style)}" for key, item in value.items())
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return "; ".join(_plain_value(item, style) for item in value)
    return render.text_of(value, style)


def cmd_state(repl: Repl, rest: str) -> None:
    note = repl.waiting_note()
    if note:
        repl.show(Text(note, style="yellow"))
    repl.show(*render.state_tables(repl.session.game, repl.style))


def cmd_status(repl: Repl, rest: str) -> None:
    """The status line, as the toolbar shows it at the prompt (in the table's language)."""
    line = repl.status()
    if line or not repl.session.game.starting:
        repl.show(Text(line) if line else Text(_("(this ruleset has no status line)"), style="dim"))
    note = repl.waiting_note()
    if note:
        repl.show(Text(note, style="yellow"))


def whole_number(text: str, default: int, what: str) -> int:
    """The number a command takes (1 or more), `default` when none is given; else one line saying
    what it expected: `log takes a number of lines, 1 or more (log 5), not '-3'`."""
    if not text:
        return default
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1 or not text.strip().isdigit():
        raise InputError(_("{what}, 1 or more ({command} {example}), not {text}").format(
            what=_(what), command=what.split()[0], example=default if default > 1 else 5, text=repr(text)))
    return n


def cmd_log(repl: Repl, rest: str) -> None:
    n = whole_number(rest, 20, N_("log takes a number of lines"))
    chronicle = [e for e in repl.session.game.log
                 if render.event(e, repl.style, repl.innermost, repl.level_labels) is not None]
    for e in chronicle[-n:]:
        repl.console.print(render.event(e, repl.style, repl.innermost, repl.level_labels))
    note = repl.waiting_note()
    if note:
        repl.show(Text(note, style="yellow"))


def cmd_table(repl: Repl, rest: str) -> None:
    game = repl.session.game
    tables, pairs = game.ruleset.tables, game.ruleset.pairs
    known = ", ".join(list(tables) + list(pairs)) or _("none")
    if not rest:
        repl.show(_("tables: {names}").format(names=known))
        return
    if rest in pairs:       # the records between pairs of instances, as they stand
        repl.show(render.pair_table(game, rest, repl.style))
        return
    if rest not in tables:
        raise GameError(_("no table {name}; the tables: {names}").format(name=repr(rest), names=known))
    repl.show(render.lookup_table(tables[rest], repl.style))


def cmd_rules(repl: Repl, rest: str) -> None:
    repl.show(*render.rules(repl.session.game, repl.style))


def cmd_auto(repl: Repl, rest: str) -> None:
    n = whole_number(rest, 1, N_("auto takes a number of rounds"))
    repl.play_rounds(n, f"auto {rest}".strip())


def cmd_undo(repl: Repl, rest: str) -> None:
    """Take back the last N commands as typed (1): a waiting question is dropped first, and counts as one."""
    n = whole_number(rest, 1, N_("undo takes a number of commands"))
    typed = f"undo {rest}".strip()
    if repl.session.game.starting:      # dropped, the setup's question would leave no game at all
        raise GameError(_("nothing to undo: the game's setup waits for this answer before the game begins"))
    if repl.decision is not None:
        repl.session.undo()
        repl.decision = None
        repl.show(Text(_("The question is dropped; the action did not happen."), style="dim"))
        repl.stop_auto()
        n -= 1
        if n == 0 or not repl.session.commands:
            return
    mark = len(repl.session.game.log)
    repl.session.undo(n, typed)
    repl.show_events(repl.session.game.log[mark:])


def cmd_new(repl: Repl, rest: str) -> None:
    def start(yes: bool) -> None:
        if not yes:
            repl.show(_("The game goes on."))
            return
        old = repl.session
        session, reply = Session.new(old.source, old.game.params, None, None, old.lang, old.interactive,
                                     "manual" if old.manual_dice else "auto", old.sheets)
        old.close()
        repl.session = session
        repl.show(Text(_("This game is saved in {path}. A new one begins (seed {seed}).").format(
            path=old.journal.path, seed=session.game.seed), style="dim"))
        repl._after(reply)

    repl.confirm = start
    repl.show(_("Start a new game? This one is saved and can be resumed."))


def cmd_sheet(repl: Repl, rest: str) -> None:
    game = repl.session.game
    names = render.instance_names(game)
    if not rest:
        repl.show(_("sheet NAME shows one: {names}").format(names=", ".join(names) or _("no instances yet")))
        return
    table = render.instance_table(game, rest, repl.style)
    if table is None:
        from difflib import get_close_matches

        guess = get_close_matches(rest, names, n=1)
        raise GameError(_("no one is named {name}{hint}; the names: {names}").format(
            name=repr(rest), hint=_(" (did you mean {guess}?)").format(guess=guess[0]) if guess else "",
            names=', '.join(names) or _('none yet')))
    repl.show(table)


def cmd_set(repl: Repl, rest: str) -> None:
    """`set NAME FIELD VALUE`: a field of a sheet set by hand, saved, undone as an action is."""
    try:
        words = shlex.split(rest)
    except ValueError as err:
        raise InputError(_("cannot read it: {error}").format(error=err)) from None
    if len(words) < 3:
        raise InputError(_("set takes a name, a field of their sheet and its value: set Mara grit 3"))
    if repl.decision is not None:
        raise GameError(_("a question waits: answer it first (or undo drops it)"))
    name, field, value = words[0], words[1], " ".join(words[2:])
    reply = repl.session.edit(name, {field: value}, f"set {rest.strip()}")
    repl.show_events(reply.events)
    if not reply.events:
        repl.show(_("{name}'s {field} is {value} already: nothing changed.").format(name=name, field=field, value=value))


def cmd_fill(repl: Repl, rest: str) -> None:
    """`fill NAME`: the sheet filled in a column of its layout at a time (fill.py), made at once at the end."""
    if not rest.strip():
        raise InputError(_("fill whose sheet? fill NAME (sheet lists the names)"))
    if repl.decision is not None:
        raise GameError(_("a question waits: answer it first (or undo drops it)"))
    from . import fill      # here: fill is the one command that needs it (a start does not)

    repl.filling = fill.begin(repl.session.game, rest.strip(), f"fill {rest.strip()}")


def cmd_export(repl: Repl, rest: str) -> None:
    if not rest:
        raise InputError(i18n._("export to which file? for example: export chronicle.md"))
    word, _, folder = rest.partition(" ")
    if word == "sheets":
        written = export_sheets(repl.session.game, Path(folder.strip() or ".").expanduser())
        repl.show(i18n.ngettext("{n} sheet written: {files}.", "{n} sheets written: {files}.", len(written)).format(
            n=len(written), files=', '.join(str(p) for p in written) or i18n._('none')))
        return
    force, name = _forced(rest)
    if not name:
        raise InputError(i18n._("export to which file? for example: export chronicle.md"))
    path = Path(name).expanduser()
    write_text(path, chronicle_lines(repl), force=force, session_file=repl.session.journal.path)
    repl.show(i18n._("The chronicle is in {path}.").format(path=path))


def _forced(rest: str) -> tuple[bool, str]:
    """`--force` given first or last (it replaces a file that exists), and the rest of the words."""
    words = rest.strip()
    if words.startswith("--force"):
        return True, words[len("--force"):].strip()
    if words.endswith(" --force"):
        return True, words[:-len(" --force")].strip()
    return False, words


def export_sheets(game, folder: Path) -> list[Path]:
    """Every instance of a group with a sheet template, written as a sheet file as it now stands (the
    template's fields and the marks of its tracks), one NAME.yaml each in `folder`. A file there
    already is left alone and nothing is written: choose another folder."""
    import yaml

    files = []
    for entity, spec in game.ruleset.entities.items():
        if spec.sheet is None:
            continue
        for instance in game.values.get(entity) or []:
            data = {"sheet": entity, "name": instance["name"]}
            data.update({f: instance[f] for f in spec.sheet.fields if f in instance})
            for track in spec.sheet.tracks:
                held = instance[track]
                if "marks" in held:
                    counts: dict = {}
                    for mark in held["marks"]:
                        counts[mark] = counts.get(mark, 0) + 1
                    data[track] = counts
                else:
                    data[track] = held["marked"]
            stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in instance["name"]).strip("-") or "sheet"
            files.append((folder / f"{stem}.yaml", data))
    taken = [str(path) for path, _ in files if path.exists()]
    if taken:
        raise GameError(_("{file} exists already: export sheets writes into a folder without them").format(file=taken[0]))
    if len({path for path, _ in files}) != len(files):
        raise GameError(_("two names give the same file name: rename one first"))
    folder.mkdir(parents=True, exist_ok=True)
    for path, data in files:
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return [path for path, _ in files]


def chronicle_markdown(repl: Repl) -> str:
    return "".join(chronicle_lines(repl))


def chronicle_lines(repl: Repl):
    """The chronicle as Markdown, line by line (each with its newline): export writes them as they
    come, so a long game's chronicle is never one text in memory besides its log."""
    for line in _chronicle(repl):
        yield line + "\n"


def _chronicle(repl: Repl):
    game = repl.session.game
    style = render.Style(repl.style.lang, ascii_only=False, words=repl.style.words)
    yield from (f"# {as_text(game.ruleset.title, style.lang)}", "", _("Seed {seed}.").format(seed=game.seed), "")
    for e in with_rolls(game.log, repl.session.rolls):
        shown = render.event(e, style, repl.innermost, repl.level_labels)
        if shown is None:
            continue
        if e["kind"] == "lookup":
            yield from lookup_markdown(e, style)
            yield ""
            continue
        text = shown.plain if hasattr(shown, "plain") else str(shown)
        if e["kind"] in ("roll", "free-roll"):
            yield "```\n" + text + "\n```"
        else:
            yield ("~~" + text + "~~") if e.get("undone") else text
        yield ""
    yield from records_markdown(game, style)
    if game.over:
        yield _("**Result: {result}.** ").format(result=result_words(game.ruleset.results, game.result, style.lang)) + ", ".join(f"{k} {format_value(v)}" for k, v in game.report().items())


def with_rolls(log: list, rolls: list):
    """The game's log with the rolls beside it (free rolls, secret ones, requests) each in its place:
    after the events the log held when it was made."""
    k = 0
    for i, e in enumerate(log):
        while k < len(rolls) and rolls[k][0] <= i:
            yield rolls[k][1]
            k += 1
        yield e
    yield from (event for _, event in rolls[k:])


def records_markdown(game, style: render.Style) -> list[str]:
    """The records between pairs of instances as they stand, one Markdown table per pair."""
    def cell(value) -> str:
        return render.text_of(value, style).replace("|", "\\|").replace("\n", " ")

    lines = []
    for name, spec in game.ruleset.pairs.items():
        records = game.pair_records(name)
        if not records:
            continue
        title = render.text_of(spec.label, style) if spec.label is not None else name
        ends = [_("from"), _("to")] if spec.ordered else [_("between"), _("and")]
        lines += [f"*{title}*", "", "| " + " | ".join(ends + list(spec.fields)) + " |",
                  "|" + "---|" * (2 + len(spec.fields))]
        lines += ["| " + " | ".join([cell(a), cell(b)] + [cell(fields.get(f)) for f in spec.fields]) + " |"
                  for a, b, fields in records]
        lines.append("")
    return lines


def lookup_markdown(e: dict, style: render.Style) -> list[str]:
    """A table looked up during an action, in Markdown: its name and key, then the row it gave."""
    def cell(value) -> str:
        return render.text_of(value, style).replace("|", "\\|").replace("\n", " ")

    keys = ", ".join(cell(k) for k in e["key"])
    title = f"{e['table']} [{keys}]"
    title = f"~~{title}~~" + _(" (undone)") if e.get("undone") else title
    row = e["row"]
    return [f"*{title}*", "", "| " + " | ".join(cell(c) for c in row) + " |",
            "|" + "---|" * len(row), "| " + " | ".join(cell(v) for v in row.values()) + " |"]


DICE_MODES = {
    "manual": N_("Real dice: every roll the game needs asks for the faces rolled (dice auto: the game rolls)."),
    "auto": N_("The game rolls its own dice (dice manual: every roll asks for the faces of real dice)."),
}


def cmd_dice(repl: Repl, rest: str) -> None:
    """`dice` says who rolls; `dice manual` and `dice auto` switch, from the next action on."""
    word = rest.strip().lower()
    mode = "manual" if repl.session.manual_dice else "auto"
    if not word:
        repl.show(_(DICE_MODES[mode]))
        return
    if word not in DICE_MODES:
        raise InputError(_("dice takes manual or auto (dice manual), not {word}").format(word=repr(rest.strip())))
    if repl.decision is not None:
        raise GameError(_("a question waits: answer it first (or undo drops it); dice {word} takes effect "
                          "between actions").format(word=word))
    if not repl.session.use_dice(word == "manual", f"dice {word}"):
        repl.show(_("The dice are {word} already. ").format(word=word) + _(DICE_MODES[word]))
        return
    if word == "manual":
        repl.show(_("Real dice from now on: every roll the game needs asks for the faces rolled."))
    else:
        repl.show(_("The game rolls its own dice from now on, going on where they left off."))


def cmd_save(repl: Repl, rest: str) -> None:
    """`save` says where the session is saved; `save PATH` copies it to a new file and goes on there."""
    session = repl.session
    if not rest:
        repl.show(_("The session is saved in {path} (each command as it is done); save PATH copies "
                    "it to a new file and goes on there.").format(path=session.journal.path))
        return
    old = session.journal.path
    session.save_as(Path(rest).expanduser())
    repl.show(_("The session is now saved in {path}, and goes on there ({old} stays as it was).").format(
        path=session.journal.path, old=old))


def cmd_quit(repl: Repl, rest: str) -> None:
    raise Quit()


BUILTINS: dict[str, Builtin] = {
    # TRANSLATORS: a usage keeps the command's own word (it is typed so) and translates its placeholders
    "help": Builtin(cmd_help, N_("help [topic]"), N_("the actions and commands; help ACTION for its parameters")),
    "roll": Builtin(cmd_roll, N_("roll EXPR"), N_("roll any dice expression, every die shown (saved, apart "
                    "from the game); roll --secret EXPR: shown to the GM alone; roll alone: the roll the GM asked for")),
    "request": Builtin(cmd_request, N_("request [--cancel] NAME EXPR"), N_("ask a seat for a roll (its screen shows the "
                       "dice; its roll makes it); request alone lists those asked for")),
    "prob": Builtin(cmd_prob, N_("prob EXPR"), N_("the exact odds of a dice expression, names read from the game "
                                           "(nothing rolled)")),
    "state": Builtin(cmd_state, "state", N_("the whole state, entities as tables")),
    "status": Builtin(cmd_status, "status", N_("the status line (the toolbar at the prompt)")),
    "log": Builtin(cmd_log, N_("log [N]"), N_("the last N lines of the chronicle (20)")),
    "table": Builtin(cmd_table, N_("table NAME"), N_("show a table of the ruleset, or the records of a pair")),
    "rules": Builtin(cmd_rules, "rules", N_("title, source and the current params")),
    "auto": Builtin(cmd_auto, N_("auto [N]"), N_("play N rounds with the ruleset's automatic answers")),
    "undo": Builtin(cmd_undo, N_("undo [N]"), N_("take back the last N commands (1), all the rounds of auto N too")),
    "dice": Builtin(cmd_dice, N_("dice [manual|auto]"), N_("real dice (manual: each roll asks for its faces) or the "
                                                    "game's (auto); dice alone says which")),
    "new": Builtin(cmd_new, "new", N_("save this game and start a new one (asks first)")),
    "export": Builtin(cmd_export, N_("export [--force] FILE"), N_("write the chronicle as Markdown (a new file; --force "
                      "replaces one); export sheets DIR writes the sheets as they now stand")),
    "sheet": Builtin(cmd_sheet, N_("sheet NAME"), N_("one instance (a character) laid out as its sheet, with its tracks")),
    "fill": Builtin(cmd_fill, N_("fill NAME"), N_("fill in a sheet, a column of its layout at a time (values in order, "
                    "or NAME VALUE; keep, skip a section, done)")),
    "set": Builtin(cmd_set, N_("set NAME FIELD VALUE"), N_("set a field of a sheet by hand (set Mara grit 3): "
                   "saved, undo takes it back")),
    "save": Builtin(cmd_save, N_("save [PATH]"), N_("where the session is saved; save PATH copies it to a new file "
                                             "and goes on there (after a failed save, say)")),
    "quit": Builtin(cmd_quit, "quit", N_("leave (the game is saved; dusk resume continues it)")),
    "exit": Builtin(cmd_quit, "exit", N_("the same as quit")),
}

# The built-ins whose words may be the ruleset's names, typed as their labels (`words:`).
LABELLED = ("help", "table", "roll", "prob")

# The commands that run while a question waits (any other line is its answer).
ESCAPES = ("help", "state", "status", "log", "rules", "table", "quit", "exit", "undo", "auto", "dice", "prob",
           "save", "roll", "request")
