"""A session at the table: one game, its session file, and the free rolls beside it.

This is the REPL's link to the engine, with no prompt in it: the interactive loop and the
non-interactive mode both drive a Session, and each command gives back a Reply (what it did).
Every completed command is journaled before its result is shown, so what a person sees as done
is on disk, with the answers its action was given (real dice's faces among them). The engine is
reached through its public face only (`import ruleset_engine as dusk`).
"""

from __future__ import annotations

import copy
import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import ruleset_engine as dusk

from .journal import Journal, new_session_path, remember_last


@dataclass
class Command:
    """A command as typed that changed the game, as undo takes it back: its number in the session,
    its text, and the turns of the game actions it did (`auto 12`: twelve turns)."""

    number: int
    text: str
    turns: list = field(default_factory=list)

    @property
    def span(self) -> tuple[int, int]:
        return self.turns[0], self.turns[-1]


@dataclass
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

    # ---- starting and resuming
    @classmethod
    def new(cls, source: str, params: dict | None = None, seed: int | None = None, save: Path | None = None,
            lang: str | None = None, interactive: bool = False, dice: str = "auto") -> tuple["Session", Reply]:
        """A new game and its session file. Only an interactive session (a person at the prompt)
        becomes the one `dusk resume` continues; a script's, a pipe's or a test's does not.
        `dice`: "auto" (the game rolls) or "manual" (every roll asks for the faces of real dice)."""
        ruleset = dusk.load(source)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        game = dusk.Game.start(ruleset, params, seed, manual_dice=dice == "manual")
        path = save or new_session_path(ruleset.id)
        journal = Journal.create(Path(path), {"source": _stable_source(source), "ruleset": ruleset.id,
                                              "params": game.params, "seed": seed, "lang": lang,
                                              "interactive": interactive, "dice": dice})
        free_rng = random.Random(f"{seed}/free")
        session = cls(game, journal, source, free_rng, interactive)
        session._log_mark = 0          # the first entry holds the setup's events too
        outcome = game.last_outcome
        if outcome.decision is None:
            session._commit("start", "start")
        if interactive:
            remember_last(journal.path)
        return session, Reply(list(outcome.events), outcome.decision)

    @classmethod
    def resume(cls, path: Path, interactive: bool = False) -> "Session":
        journal = Journal.open(path)
        meta = journal.meta
        ruleset = dusk.load(meta["source"])
        entries = journal.entries()
        log: list = []
        history: list = []              # the game's: (the game before each action, where its events start)
        commands: list[Command] = []    # the session's: the commands those actions belong to
        manual = meta.get("dice") == "manual"     # the dice the game began with (a session from before: its own)
        previous = None
        for entry in entries:
            if entry.kind == "dice":      # `dice manual` or `dice auto`: from the next action on
                manual = entry.command.split()[-1] == "manual"
                continue
            if entry.kind == "roll":      # a free roll: saved, but not part of the game
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
        if interactive:
            remember_last(path)
        session = cls(game, journal, meta["source"], free_rng, interactive)
        session.commands = commands
        session._numbered = max((e.command_no or 0 for e in entries), default=0)
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
            raise dusk.GameError("a question waits: answer it first (or undo drops it); the dice change "
                                 "between actions")
        if manual == self.manual_dice:
            return False
        self.game.use_manual_dice(manual)
        self.journal.append("dice", command, [], self.game.core(), dusk.dice_source_state(self.free_rng))
        return True

    # ---- playing
    def _commit(self, kind: str, command: str, number: int | None = None) -> None:
        events = self.game.log[self._log_mark:]
        answers = self._given if kind in ("start", "action") else None
        self.journal.append(kind, command, events, self.game.core(), dusk.dice_source_state(self.free_rng),
                            number, answers)
        self._log_mark = len(self.game.log)
        self._given = []

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
        """An action of `command` is done: journaled, and one more turn for undo to take back."""
        command.turns.append(self.game.turn - 1)
        if not self.commands or self.commands[-1] is not command:
            self.commands.append(command)
        self._commit("action", command.text, command.number)

    def perform(self, action: str, args: dict, command: str) -> Reply:
        """Do an action; `command` is what was typed (a command of its own, unless one is under way)."""
        typed = self._open or self._number(command)
        self._given = []
        outcome = self.game.perform(action, **args)
        if outcome.decision is None:
            self._done(typed)
        else:
            self._waiting = typed       # the answers belong to the command that began the action
        return Reply(list(outcome.events), outcome.decision)

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
        outcome = answer()
        if outcome.decision is None:
            if starting:
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
            raise dusk.GameError("nothing to undo")
        if n > len(self.commands):
            k = len(self.commands)
            back = f"undo {k} takes them all back" if k != 1 else "undo takes it back"
            raise dusk.GameError(f"only {k} command{'s' if k != 1 else ''} can be undone ({back})")
        mark = len(self.game.log)
        undone = []
        for _ in range(n):
            taken = self.commands.pop()
            first, last = taken.span
            for _turn in reversed(taken.turns):
                self.game.undo()
                event = self.game.log[-1]
                event.update(command=taken.text, turns=[first, last])
            undone.append(taken)
        self._log_mark = mark
        self._commit("undo", command, self._number(command).number)
        return undone

    def free_roll(self, text: str) -> "dusk.Result":
        """A roll beside the game, saved: it reads the game's names (state, entities, `params`, `loop`)
        from a copy of its values, and draws from its own dice source, so neither the game's dice nor
        its state change."""
        result = dusk.roll(text, rng=self.free_rng, env=copy.deepcopy(self.game.values))
        event = {"seq": None, "turn": self.game.turn, "kind": "free-roll", **result.to_json()}
        self.journal.append("roll", f"roll {text}", [event], self.game.core(), dusk.dice_source_state(self.free_rng))
        return result

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

