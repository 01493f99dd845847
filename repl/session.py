"""A session at the table: one game, its session file, and the free rolls beside it.

This is the REPL's link to the engine, with no prompt in it: the interactive loop and the
non-interactive mode both drive a Session, and each command gives back a Reply (what it did).
Every completed command is journaled before its result is shown, so what a person sees as done
is on disk, with the answers its action was given (real dice's faces among them). A command and
its save are one transaction: when the save fails (a full disk), or anything stops the command
half-way (an error, Ctrl-C), the game is put back as it was before it. Ctrl-C that comes while an
entry is being written waits until it is written and the session knows it (`interrupted`).
On resume the session file is checked (journal.py, validate.py) and so is the ruleset: its
fingerprint (a hash of the ruleset as resolved) must be the one the session was saved with.
The engine is reached through its public face only (`import ruleset_engine as dusk`).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import ruleset_engine as dusk
from ruleset_engine.i18n import _, ngettext
from ruleset_engine.ruleset.names import BUILT_IN

from .journal import Entry, Journal, JournalError, SaveError, new_session_path, remember_last


@dataclass(eq=False, repr=False)
class Command:
    """A command as typed that changed the game, as undo takes it back: its number in the session,
    its text, and the turns of the game actions it did (`auto 12`: twelve turns)."""

    number: int
    text: str
    turns: list = field(default_factory=list)

    @property
    def span(self) -> tuple[int, int]:
        return self.turns[0], self.turns[-1]


@dataclass(eq=False, repr=False)
class Reply:
    """What one command did: the events to show, and the decision that waits, if one does."""

    events: list = field(default_factory=list)
    decision: object = None


class Session:
    """One game at the table and its session file."""

    def __init__(self, game: "dusk.Game", journal: Journal, source: str, free_rng: random.Random,
                 interactive: bool = False):
        self.game = game
        self.interactive = interactive     # played at the prompt: `dusk resume` without a path continues it
        self.journal = journal
        self.source = source
        self.free_rng = free_rng
        self.lang: str | None = journal.meta.get("lang")    # the language asked for at `dusk play`, if any
        self._log_mark = len(game.log)
        # Undo takes back commands as typed, each one or more game actions (Game.undo takes back one).
        self.commands: list[Command] = []       # the commands that can be undone, the last one last
        self._numbered = 0                      # the number of the last command numbered
        self._open: Command | None = None       # a command of several actions under way (auto N)
        self._waiting: Command | None = None    # the command whose action waits for an answer
        self._given: list = []                  # the answers the action under way was given, in order
        self.interrupted = False                # Ctrl-C came while an entry was written (it waited)
        self.notice: str | None = None          # a word for the table on resume (a ruleset resumed by --force)
        self.sheets: tuple = ()                 # the sheets this game started with (a resumed game: none needed)
        self.reply: Reply | None = None         # resumed during its setup: the question that waits
        # The rolls beside the game (free rolls, secret ones, the GM's requests of a roll and their
        # answers), each with the length of the game's log when it was made: the chronicle and the
        # server's feed show them in their place. They are saved in entries of their own ("roll").
        self.rolls: list[tuple[int, dict]] = []
        self._requested = 0                     # the number of the last roll requested
        # The action that waits for an answer, as performed ({kind: waiting, action, args}), and what
        # save_waiting last saved of it (the served table saves the answers of an action under way).
        self._call: dict | None = None
        self._saved_waiting: tuple | None = None

    # ---- starting and resuming
    @classmethod
    def new(cls, source: str, params: dict | None = None, seed: int | None = None, save: Path | None = None,
            lang: str | None = None, interactive: bool = False, dice: str = "auto",
            sheets=()) -> tuple["Session", Reply]:
        """A new game and its session file. Only an interactive session (a person at the prompt)
        becomes the one `dusk resume` continues; a script's, a pipe's or a test's does not.
        `dice`: "auto" (the game rolls) or "manual" (every roll asks for the faces of real dice).
        `sheets`: sheet files and folders the table brought (read and checked here, before the game)."""
        ruleset = dusk.load(source)
        if sheets:      # the sheets' module is imported only for sheets (a plain start has none)
            from ruleset_engine.ruleset.sheets import Sheet, read_all

            if not all(isinstance(s, Sheet) for s in sheets):
                sheets = read_all(sheets, ruleset)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        game = dusk.Game.start(ruleset, params, seed, manual_dice=dice == "manual", sheets=sheets)
        path = save or new_session_path(ruleset.id)
        journal = Journal.create(Path(path), {"source": _stable_source(source), "ruleset": ruleset.id,
                                              "params": game.params, "seed": seed, "lang": lang,
                                              "interactive": interactive, "dice": dice,
                                              "fingerprint": fingerprint(ruleset)})
        free_rng = random.Random(f"{seed}/free")
        session = cls(game, journal, source, free_rng, interactive)
        session.sheets = tuple(sheets)     # a new game at this table starts with them too
        session._log_mark = 0          # the first entry holds the setup's events too
        outcome = game.last_outcome
        if outcome.decision is None:
            try:
                with session._shielded():
                    session._commit("start", "start")
            except SaveError as err:
                journal.discard()      # a file with no game in it is no session to resume
                raise SaveError(err.why, "the game did not start") from None
        if interactive:
            remember_last(journal.path)
        return session, Reply(list(outcome.events), outcome.decision)

    @classmethod
    def resume(cls, path: Path, interactive: bool = False, force: bool = False) -> "Session":
        """The session saved at `path`, its file checked and locked. JournalError when the file is not a
        session (the place of its first problem), when another dusk has it open, or when its ruleset
        changed since it was saved (unless `force`: then it plays on under the ruleset as it is now,
        and `notice` says so)."""
        found: dict = {}

        def accept(meta: dict, entries: list) -> None:
            found["ruleset"], found["notice"] = _checked_ruleset(path, meta, entries, force)

        journal = Journal.open(Path(path), accept)
        try:
            try:
                session = cls._rebuild(journal, found["ruleset"], interactive)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
                # What validate.py cannot see: values that fit their kinds but not each other.
                # TRANSLATORS: {error} is Python's own error, in English (KeyError: 'x')
                raise JournalError(_("{path} is damaged: the game cannot be rebuilt from it ({error}); "
                                     "it was left as it is").format(
                    path=path, error=f"{type(err).__name__}: {str(err)[:80]}")) from None
            if found["notice"]:
                journal.set_meta("fingerprint", fingerprint(found["ruleset"]))
        except BaseException:
            journal.close()
            raise
        session.notice = found["notice"]
        if interactive:
            remember_last(path)
        return session

    @classmethod
    def _rebuild(cls, journal: Journal, ruleset, interactive: bool) -> "Session":
        meta = journal.meta
        entries = journal.entries()
        if entries[-1].kind == "setup":
            return cls._setup_under_way(journal, ruleset, interactive, entries[-1])
        log: list = []
        history: list = []              # the game's: (the game before each action, where its events start)
        commands: list[Command] = []    # the session's: the commands those actions belong to
        rolls: list = []                # the rolls beside the game, each where the log was when it was made
        manual = meta.get("dice") == "manual"     # the dice the game began with (a session from before: its own)
        previous = None
        for entry in entries:
            if entry.kind == "dice":      # `dice manual` or `dice auto`: from the next action on
                manual = entry.command.endswith("manual")
                continue
            if entry.kind == "roll":      # a free roll (a request of one): saved, not the game's turns
                rolls += [(len(log), event) for event in entry.events]
                continue
            if entry.kind in ("setup", "waiting"):     # a setup's answer; the answers of an action under way
                continue
            if entry.kind == "action" and previous is not None:
                history.append((previous, len(log)))
                # A session saved before commands were numbered: each action is a command of its own.
                number = entry.command_no if entry.command_no is not None else -entry.n
                if not commands or commands[-1].number != number:
                    commands.append(Command(number, entry.command))
                commands[-1].turns.append(entry.game["turn"] - 1)
            if entry.kind == "undo":
                for _ in (e for e in entry.events if e["kind"] == "undo"):   # one per game action undone
                    if not history:
                        break
                    _, at = history.pop()
                    _mark_undone(log[at:])
                    commands[-1].turns.pop()
                    if not commands[-1].turns:
                        commands.pop()
            log.extend(entry.events)
            previous = entry.game
        last = entries[-1]
        game = dusk.Game.resume(ruleset, params=meta["params"], seed=meta["seed"], core=last.game, log=log,
                                history=history)
        game.use_manual_dice(manual)
        free_rng = random.Random()
        dusk.restore_dice_source(free_rng, last.free_rng)
        session = cls(game, journal, meta["source"], free_rng, interactive)
        session.commands = commands
        session._numbered = max((e.command_no or 0 for e in entries), default=0)
        session.rolls = rolls
        session._requested = max((e.get("request", 0) for _, e in rolls if type(e.get("request")) is int), default=0)
        waiting = next((e for e in reversed(entries) if e.kind not in ("roll", "dice")), None)
        if waiting is not None and waiting.kind == "waiting" and waiting.events:
            session._play_waiting(waiting)
        return session

    def _play_waiting(self, entry: Entry) -> None:
        """The action the served table left waiting: performed again, given the answers it saved, so
        its question waits again (`reply`). JournalError when they no longer play (a changed ruleset)."""
        call = entry.events[0]
        try:
            outcome = self.game.perform(str(call["action"]), **dict(call["args"]))
            for given in entry.answers or []:
                if outcome.decision is None:
                    raise dusk.GameError(_("the action asks fewer questions than were answered"))
                outcome = self.game.answer(outcome.decision, given["answer"])
        except (dusk.DuskError, KeyError, TypeError) as err:
            # TRANSLATORS: {command} is the command typed at the table, as it was typed
            raise JournalError(_("{path}: the action left waiting ({command}) cannot be played again: "
                                 "{problem}").format(path=self.journal.path, command=entry.command[:40],
                                                     problem=err)) from None
        if outcome.decision is None:          # it asks less now (--force): it is done
            self._given = list(entry.answers or [])
            with self._shielded():
                self._done(self._number(entry.command))
            return
        self._call = dict(call)
        self._given = list(entry.answers or [])
        self._waiting = self._number(entry.command)
        self._saved_waiting = (json.dumps(self._call, sort_keys=True, default=str), json.dumps(self._given, default=str))
        self.reply = Reply(self.game.waiting_events, outcome.decision)

    @classmethod
    def _setup_under_way(cls, journal: Journal, ruleset, interactive: bool, last: Entry) -> "Session":
        """A session left during its game's setup: the game started again from its seed and given the
        answers saved so far, waiting for the next one (`reply` holds its question)."""
        meta = journal.meta
        given = list(last.answers or [])
        game = dusk.Game.start(ruleset, params=meta["params"], seed=meta["seed"],
                               manual_dice=meta.get("dice") == "manual",
                               answers=[a["answer"] for a in given])
        free_rng = random.Random()
        dusk.restore_dice_source(free_rng, last.free_rng)
        session = cls(game, journal, meta["source"], free_rng, interactive)
        session._log_mark = 0              # the start entry will hold the whole setup's events
        session._given = given
        session.reply = Reply(list(game.last_outcome.events), game.last_outcome.decision)   # shown again
        if game.last_outcome.decision is None:       # the ruleset's setup asks less now (--force)
            with session._shielded():
                session._commit("start", "start")
            session.reply = Reply(list(game.last_outcome.events), None)
        return session

    # ---- the dice
    @property
    def manual_dice(self) -> bool:
        """True when every roll of the game asks for the faces of real dice."""
        return self.game.manual_dice

    def use_dice(self, manual: bool, command: str) -> bool:
        """Real dice (manual) or the game's own, from the next action; saved as an entry of its own so
        that a resumed game asks for dice where this one did. False when the dice were so already.
        GameError while a question waits (the action under way began with the dice it has)."""
        if self.game.pending is not None:
            raise dusk.GameError(_("a question waits: answer it first (or undo drops it); the dice change "
                                   "between actions"))
        if manual == self.manual_dice:
            return False
        self.game.use_manual_dice(manual)
        try:
            with self._shielded():
                self.journal.append("dice", command, [], self.game.core(), dusk.dice_source_state(self.free_rng))
        except BaseException as err:
            self.game.use_manual_dice(not manual)
            if isinstance(err, SaveError):
                raise SaveError(err.why, "the dice stay as they were") from None
            raise
        return True

    # ---- all or nothing
    @contextmanager
    def _shielded(self):
        """Ctrl-C waits while an entry is written and the session takes note of it: an entry in the file
        is an entry in the game. It is not lost: `interrupted` says it came (the REPL acts on it once
        the command's result is shown)."""
        if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is None:
            yield             # only the main thread may set a handler; None: one set outside Python
            return
        came: list = []
        previous = signal.signal(signal.SIGINT, lambda *_: came.append(True))
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
            if came:
                self.interrupted = True

    @contextmanager
    def _transaction(self, undone: str, reach: int = 0):
        """A command and its save, all or nothing: if anything in it fails (the save, a rule, Ctrl-C),
        the game and the session are put back as they were before it, and a failed save says what was
        undone (`undone`: "round was not played"). `reach`: how many actions an undo inside takes back."""
        mark = self.game.checkpoint(reach)
        kept = (self._log_mark, list(self._given), self._waiting, self._numbered,
                dusk.dice_source_state(self.free_rng))
        try:
            yield
        except BaseException as err:
            self.game.rollback(mark)
            self._log_mark, self._given, self._waiting, self._numbered, rng = kept
            dusk.restore_dice_source(self.free_rng, rng)
            self.interrupted = False      # a Ctrl-C that waited on a failed save: this stops the command already
            if isinstance(err, SaveError):
                raise SaveError(err.why, undone) from None
            raise

    def take_interrupt(self) -> bool:
        """True (once) when Ctrl-C came while an entry was being written."""
        came, self.interrupted = self.interrupted, False
        return came

    def save_as(self, path: Path) -> None:
        """Copy the session to a new file at `path` and go on in it (after a failed save, say: the game
        as the old file has it, which is the game as it stands). JournalError when it cannot be."""
        if self.game.starting:
            raise JournalError(_("the game has not begun (its setup waits for an answer): nothing to save yet"))
        self.journal.move_to(Path(path))
        if self.interactive:
            remember_last(self.journal.path)

    # ---- playing
    def _commit(self, kind: str, command: str, number: int | None = None) -> None:
        events = self.game.log[self._log_mark:]
        answers = self._given if kind in ("start", "action") else None
        self.journal.append(kind, command, events, self.game.core(), dusk.dice_source_state(self.free_rng),
                            number, answers)
        self._log_mark = len(self.game.log)
        self._given = []
        self._saved_waiting = None          # an action done (or undone): nothing of it waits any more

    def save_waiting(self) -> bool:
        """Save the answers of the action that waits (or that none waits any more, after an undo dropped
        its question), when they changed since last saved: the served table calls it after every line,
        so that an answer a screen showed as taken survives the server's end (a resumed session plays
        the action again with them, and asks the question that waited). The REPL does not: there an
        unfinished action is not saved (it says so when the table is left). True when it wrote."""
        pending = self.game.pending
        now = None
        if pending is not None and self._call is not None and not self.game.starting:
            now = (json.dumps(self._call, sort_keys=True, default=str), json.dumps(self._given, default=str))
        if now == self._saved_waiting:
            return False
        call = [self._call] if now is not None else []
        with self._transaction(_("the answer was not saved: the question waits again")):
            with self._shielded():
                self.journal.append("waiting", self._waiting.text if now is not None and self._waiting else "undo",
                                    call, self.game.core(), dusk.dice_source_state(self.free_rng), None,
                                    list(self._given) if now is not None else [])
        self._saved_waiting = now
        return True

    def _number(self, text: str) -> Command:
        self._numbered += 1
        return Command(self._numbered, text)

    @contextmanager
    def command(self, text: str, under_way: Command | None = None):
        """Every action done inside is part of one command as typed (`auto 12`), which undo takes back
        whole; `under_way`: a command begun before (auto N that stopped for real dice goes on)."""
        self._open = under_way or self._number(text)
        try:
            yield self._open
        finally:
            self._open = None

    def _done(self, command: Command) -> None:
        """An action of `command` is done: journaled, then one more turn for undo to take back (in
        that order, so that a failed save leaves the commands as they were)."""
        with self._shielded():
            self._commit("action", command.text, command.number)
            command.turns.append(self.game.turn - 1)
            if not self.commands or self.commands[-1] is not command:
                self.commands.append(command)

    def perform(self, action: str, args: dict, command: str) -> Reply:
        """Do an action; `command` is what was typed (a command of its own, unless one is under way)."""
        with self._transaction(_("{action} was not played: the game is as it was before it").format(action=action)):
            typed = self._open or self._number(command)
            self._given = []
            outcome = self.game.perform(action, **args)
            if outcome.decision is None:
                self._done(typed)
            else:
                self._waiting = typed       # the answers belong to the command that began the action
                self._call = {"kind": "waiting", "action": action, "args": args}
        return Reply(list(outcome.events), outcome.decision)

    def edit(self, name: str, values: dict, command: str) -> Reply:
        """Set fields of a sheet by hand (field -> value): a command of its own, saved, undone as an
        action is; nothing is saved when nothing changes."""
        with self._transaction(_("{command} was not done: the game is as it was before it").format(command=command)):
            typed = self._number(command)
            self._given = []
            outcome = self.game.edit_many(name, values)
            if outcome.events:
                self._done(typed)
            else:
                self._numbered -= 1
        return Reply(list(outcome.events), None)

    def answer(self, decision, value, command: str) -> Reply:
        def given():
            outcome = self.game.answer(decision, value)
            self._given.append({"answer": decision.check(value), "by": "person", "kind": decision.kind})
            return outcome

        return self._answered(given, command)

    def auto_answer(self, decision, command: str) -> Reply:
        """The ruleset's auto: answer (and auto's answers to the questions after it in the action, up
        to the faces of real dice, which only a person gives)."""
        def auto():
            # The engine keeps auto's answers among the action's answers, so faces typed next for
            # real dice go to the dice.
            outcome = self.game.auto_answer(decision)
            autos = [e for e in outcome.events if e["kind"] == "ask" and e.get("by") == "auto"]
            self._given += [{"answer": e["answer"], "by": "auto", "kind": e["decision"]["kind"]} for e in autos]
            return outcome

        return self._answered(auto, command)

    def _answered(self, answer, command: str) -> Reply:
        # The setup of a game may ask too; its entry is the session's start, which is not undone.
        starting = self.game.starting
        with self._transaction(_("the answer was not taken: the question waits again")):
            outcome = answer()
            if outcome.decision is not None and starting and not self.sheets:
                # The setup waits for its next answer: the answers so far are saved, so that leaving
                # now loses nothing typed (dusk resume gives them again and asks the next question). A
                # game started from sheet files is not: the file does not keep the sheets.
                with self._shielded():
                    self.journal.append("setup", command, [], self.game.core(),
                                        dusk.dice_source_state(self.free_rng), None, list(self._given))
            if outcome.decision is None:
                if starting:
                    with self._shielded():
                        self._commit("start", command)
                else:
                    self._done(self._waiting or self._open or self._number(command))
                self._waiting = None
        return Reply(list(outcome.events), outcome.decision)

    def undo(self, n: int = 1, command: str = "undo") -> list[Command] | None:
        """Take back the last `n` commands that changed the game, each whole (all the rounds of
        `auto 12`): the state and the dice as before them, their events marked undone, one undo
        event for each game action (carrying the command and its turns), one journal entry.
        Returns the commands taken back, the last first; None when a waiting question was dropped
        instead (nothing was journaled for it). GameError, and nothing changed, when there are fewer."""
        if self.game.pending is not None:
            self.game.undo()     # drops the waiting decision; nothing was journaled for it
            self._waiting = None
            self._given = []
            return None
        if not self.commands:
            raise dusk.GameError(_("nothing to undo"))
        if n > len(self.commands):
            k = len(self.commands)
            back = _("undo {k} takes them all back").format(k=k) if k != 1 else _("undo takes it back")
            raise dusk.GameError(ngettext("only {k} command can be undone ({back})",
                                          "only {k} commands can be undone ({back})", k).format(k=k, back=back))
        taken = self.commands[-n:][::-1]          # the last first
        reach = sum(len(c.turns) for c in taken)
        with self._transaction(_("the undo did not happen"), reach):
            mark = len(self.game.log)
            for back in taken:
                first, last = back.span
                for _turn in reversed(back.turns):
                    self.game.undo()
                    event = self.game.log[-1]
                    event.update(command=back.text, turns=[first, last])
            self._log_mark = mark
            number = self._number(command).number
            with self._shielded():
                self._commit("undo", command, number)
                del self.commands[-n:]
        return taken

    def free_roll(self, text: str, secret: bool = False, request: dict | None = None) -> "dusk.Result":
        """A roll beside the game, saved: it reads the game's names (state, entities, `params`, `loop`)
        from a copy of its values, and draws from its own dice source, so neither the game's dice nor
        its state change. `secret`: the GM's alone (the event says so: a screen of a player never
        shows it, the chronicle marks it). `request`: the roll a seat was asked for, which it answers
        (its event names the seat, `who`, and the request)."""
        with self._transaction(_("the roll was not made")):
            # The ruleset's pairs are functions here too: `roll bond('Ana', 'Beto').strength + 2d6`.
            expression = dusk.compile(text, functions=frozenset(self.game.ruleset.pairs),
                                      formulas=self.game.ruleset.formulas)
            result = expression.evaluate(rng=self.free_rng, env=copy.deepcopy(self.game.text_env()))
            event = {"seq": None, "turn": self.game.turn, "kind": "free-roll", **result.to_json()}
            if secret:
                event["secret"] = True
            if request is not None:
                event.update(who=request["who"], request=request["request"])
            typed = f"roll --secret {text}" if secret else f"roll {text}"
            with self._shielded():
                self.journal.append("roll", typed, [event], self.game.core(), dusk.dice_source_state(self.free_rng))
                self.rolls.append((self._shown(), event))
        return result

    # ---- rolls the GM asks of a seat
    def pending_requests(self, seat: str | None = None) -> list[dict]:
        """The rolls asked for and not yet made nor cancelled, the first asked first (of one seat, or all):
        each the request's event, {kind: roll-request, request: N, who: SEAT, expression: TEXT}."""
        closed = {e["request"] for _, e in self.rolls if e["kind"] == "free-roll" and "request" in e} | \
            {e["request"] for _, e in self.rolls if e["kind"] == "roll-request" and e.get("cancelled")}
        return [e for _, e in self.rolls if e["kind"] == "roll-request" and not e.get("cancelled")
                and e["request"] not in closed and (seat is None or e["who"] == seat)]

    def request_roll(self, seat: str, text: str) -> dict:
        """Ask the seat `seat` for a roll of `text` (checked now: a roll that cannot be made is refused
        before it is asked for); saved. The request's event."""
        dusk.compile(text, functions=frozenset(self.game.ruleset.pairs), formulas=self.game.ruleset.formulas)
        event = {"seq": None, "turn": self.game.turn, "kind": "roll-request", "request": self._requested + 1,
                 "who": seat, "expression": text}
        self._journal_roll_event(f"request {seat} {text}", event)
        self._requested += 1
        return event

    def cancel_request(self, request: dict) -> dict:
        """Drop a roll asked for and not made; saved. The event that drops it."""
        event = dict(request, cancelled=True)
        self._journal_roll_event(f"request --cancel {request['who']}", event)
        return event

    def _journal_roll_event(self, command: str, event: dict) -> None:
        with self._transaction(_("nothing was asked")):
            with self._shielded():
                self.journal.append("roll", command, [event], self.game.core(), dusk.dice_source_state(self.free_rng))
                self.rolls.append((self._shown(), event))

    def _shown(self) -> int:
        """Where a roll made now stands in the chronicle: after the log and what the action that waits
        has shown so far (done, the action's events take the log up to there)."""
        return len(self.game.log) + len(self.game.waiting_events)

    @property
    def setup_saved(self) -> bool:
        """The game's setup waits, and the answers it was given so far are in the session file."""
        return self.game.starting and bool(self._given) and not self.sheets

    def waiting_action(self) -> str | None:
        """The name of the action that waits for an answer ("setup" for the game's setup), or None.
        Until it is answered nothing of it is in the game, nor in the session file."""
        pending = self.game.pending
        return pending.action if pending is not None else None

    def loop_action(self) -> str | None:
        for name, action in self.game.ruleset.actions.items():
            if action.plays_level:
                return name
        return None

    def close(self) -> None:
        self.journal.close()


def fingerprint(ruleset) -> str:
    """A hash of the ruleset as resolved (its parents merged in): a session keeps the one it was played
    under, and is resumed only under the same rules. Layout and comments of the files do not count."""
    text = json.dumps(ruleset.data, sort_keys=True, ensure_ascii=False, default=str)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _checked_ruleset(path: Path, meta: dict, entries: list, force: bool):
    """The ruleset a session is resumed under, checked against what the session holds: its id, its
    fingerprint, its params and the names of the game's values. (ruleset, notice): the notice says that
    a changed ruleset was taken because of --force. JournalError names what does not match."""
    try:
        ruleset = dusk.load(meta["source"])
    except (dusk.DuskError, OSError) as err:
        text = str(err) if isinstance(err, dusk.DuskError) else f"{err.filename or meta['source']}: {err.strerror}"
        # TRANSLATORS: {source} is the ruleset as the session names it (a bundled id or a file); {problem} follows on
        # lines of its own
        raise JournalError(_("{path}: its ruleset {source} cannot be loaded:\n{problem}").format(
            path=path, source=meta["source"], problem=text)) from None
    notice = None
    changed = []
    if ruleset.id != meta["ruleset"]:
        # TRANSLATORS: {now} and {saved} are the ruleset's id now and in the saved session
        changed.append(_("it is now {now}, not {saved}").format(now=repr(ruleset.id), saved=repr(meta["ruleset"])))
    saved = meta.get("fingerprint")
    if saved is not None and saved != fingerprint(ruleset):
        changed.append(_("its rules are not the ones the session was played under"))
    if changed:
        where = ruleset.file or meta["source"]
        if not force:
            # TRANSLATORS: {source} is the ruleset as the session names it; {where} its file; {changes} what
            # changed, one or two clauses joined by "; "
            raise JournalError(_("{path}: the ruleset {source} ({where}) changed since the session was saved: "
                                 "{changes}. It was not resumed; dusk resume --force plays on under the ruleset "
                                 "as it is now").format(path=path, source=meta["source"], where=where,
                                                        changes="; ".join(changed)))
        notice = _("The ruleset {source} changed since this session was saved; --force: the game goes on under "
                   "the ruleset as it is now").format(source=meta["source"])
    try:
        full = dusk.resolve_params(ruleset, meta["params"])
    except dusk.DuskError as err:
        # TRANSLATORS: meta.params is the place in the session file, kept as it is
        raise JournalError(_("{path} is damaged or its ruleset changed: meta.params: {problem}").format(
            path=path, problem=err)) from None
    if set(full) != set(meta["params"]):
        missing = sorted(set(full) - set(meta["params"]))
        # TRANSLATORS: meta.params is the place in the session file, kept as it is; {name} a param of the ruleset
        raise JournalError(_("{path} is damaged or its ruleset changed: meta.params has no {name}").format(
            path=path, name=missing[0]))
    names = set(BUILT_IN) | set(ruleset.entities) | set(ruleset.state) | set(ruleset.pairs)
    for entry in entries:
        if entry.kind == "setup":
            continue      # the game before its setup: its answers are what the entry keeps
        values = entry.game["values"]
        _from_before(values)
        here = names | ({TIMERS} if TIMERS in values and _timed(ruleset) else set())
        if set(values) != here:
            extra, missing = sorted(set(values) - names), sorted(names - set(values))
            # TRANSLATORS: this and the next words follow "the game" (... changed: entry 3 (roll): the game ...)
            what = _("has no {name}").format(name=missing[0]) if missing else \
                _("holds {name}, which {ruleset} has not").format(name=extra[0], ruleset=ruleset.id)
        else:
            what = _value_problem(ruleset, full, values) or _records_problem(ruleset, values) \
                or _counters_problem(ruleset, values) or _timers_problem(ruleset, values)
        if what:
            # TRANSLATORS: {n} is the entry's number in the file; {command} the command typed, as it was typed;
            # {problem} what is wrong with the game saved there (has no ..., holds ...)
            raise JournalError(_("{path} is damaged or its ruleset changed: entry {n} ({command}): the game "
                                 "{problem}").format(path=path, n=entry.n, command=entry.command[:40], problem=what))
    return ruleset, notice


TIMERS = "_timers"      # the game's values of a ruleset with set: ... until: (ruleset/steps/timers.py)


def _timed(ruleset) -> bool:
    """The ruleset has a set: step with until:, so its games keep timers."""
    return '"until":' in json.dumps(ruleset.data, default=str)


def _timers_problem(ruleset, values) -> str | None:
    """The timers a game keeps, in the shape the loop machine reads: [place, value before, stamp,
    level, point], each place a state variable or an entity's field; what is wrong, or None."""
    if TIMERS not in values:
        return None
    timers = values[TIMERS]
    levels = len(ruleset.loop)
    if not isinstance(timers, list) or len(timers) > 100_000:
        return _("{where} is not a list of timers").format(where=TIMERS)
    for k, timer in enumerate(timers):
        where = f"{TIMERS}[{k}]"
        if not (isinstance(timer, list) and len(timer) == 5):
            # TRANSLATORS: {where} is the place in the saved game (_timers[3]); the words in [] name the timer's parts
            return _("{where} is not a timer [place, value before, stamp, level, point]").format(where=where)
        place, _before, stamp, level, point = timer
        ok_place = isinstance(place, list) and (
            (len(place) == 2 and place[0] == "s" and place[1] in ruleset.state) or
            (len(place) == 4 and place[0] == "e" and place[1] in ruleset.entities
             and place[3] in ruleset.entities[place[1]].fields
             and (place[2] is None or (type(place[2]) is int and 0 <= place[2] < len(values.get(place[1]) or [])))))
        if not ok_place:
            return _("{where} names no state variable or field of {ruleset}").format(where=where, ruleset=ruleset.id)
        if type(level) is not int or not 0 <= level < levels:
            return _("{where} names no loop level").format(where=where)
        if not (isinstance(stamp, list) and len(stamp) <= levels and all(type(n) is int for n in stamp)):
            return _("{where} has no counters of the loop").format(where=where)
        if point is not None and type(point) is not int:
            return _("{where} ends at no turn of the clock").format(where=where)
    return None


def _from_before(values: dict) -> None:
    """A game saved before the loop counted its finished iterations (between actions every level of a
    running game is in an iteration, so one fewer than its counter are done), and before actions
    could be done once per iteration (none has been)."""
    if "loop_done" not in values and isinstance(values.get("loop"), dict):
        values["loop_done"] = {name: max(0, n - 1) if type(n) is int else n for name, n in values["loop"].items()}
    values.setdefault("once_per", {})


def _value_problem(ruleset, params: dict, values: dict) -> str | None:
    """A value of a kind the ruleset never keeps there, or past its bounds (a text for a number, an
    instance saved as a list or without a field, a number past 2^53, Infinity), or None."""
    kept = values.get("params")     # the params as the game reads them (a dice param: its roll)
    if not isinstance(kept, dict) or set(kept) != set(params):
        return _("holds params that are not the session's")
    found = dusk.saved_values_problem(ruleset, params, values)
    # TRANSLATORS: follows "the game"; {problem} is which value, and what is wrong with it
    return _("value {problem}").format(problem=found) if found else None


def _counters_problem(ruleset, values: dict) -> str | None:
    """What is wrong with the loop counters a saved game holds, or None."""
    levels = {level.name for level in ruleset.loop}
    for key in ("loop", "loop_done"):
        counters = values[key]
        if not isinstance(counters, dict) or set(counters) != levels \
                or not all(type(n) is int and 0 <= n <= 2 ** 53 for n in counters.values()):
            # TRANSLATORS: follows "the game"; {name} is the name of a value a game keeps (loop, once_per, a pair)
            return _("holds {name} in a shape it never has").format(name=key)
    once = values["once_per"]
    depth = {action.name: [level.name for level in ruleset.loop].index(action.once_per) + 1
             for action in ruleset.actions.values() if action.once_per is not None}
    if not isinstance(once, dict) or not all(
            name in depth and isinstance(stamp, list) and len(stamp) == depth[name]
            and all(type(n) is int and 0 <= n <= 2 ** 53 for n in stamp) for name, stamp in once.items()):
        return _("holds {name} in a shape it never has").format(name="once_per")
    return None


def _records_problem(ruleset, values: dict) -> str | None:
    """What is wrong with the records between pairs a saved game holds, or None: each is kept at
    "i,j", two different indices of its group's instances, and holds the pair's fields."""
    for name, spec in ruleset.pairs.items():
        store, group = values[name], values.get(spec.between)
        if not isinstance(store, dict) or not isinstance(group, list):
            return _("holds {name} in a shape it never has").format(name=name)
        for key, record in store.items():
            ends = str(key).split(",")
            if len(ends) != 2 or not all(e.isdigit() and 1 <= int(e) <= len(group) for e in ends) \
                    or ends[0] == ends[1] or not isinstance(record, dict) or set(record) != set(spec.fields):
                # TRANSLATORS: follows "the game"; {key} is where the record is kept ('1,2')
                return _("holds a record of {name} it could not have made ({key})").format(
                    name=name, key=repr(str(key)[:20]))
    return None


def _mark_undone(events: list) -> None:
    """The events of actions taken back, as Game.undo marks them (undo events themselves stay)."""
    for event in events:
        if event["kind"] != "undo":
            event["undone"] = True


def _stable_source(source: str) -> str:
    """A ruleset source that still names the same file from another folder."""
    path = Path(source)
    if source.endswith((".yaml", ".yml")) or "/" in source:
        return str(path.resolve())
    return source

