"""The engine API that every front end drives: start a game, list and perform actions, answer
decisions, read the state and the log, undo, snapshot and restore.

    game = Game.start(ruleset, params={"players": 3}, seed=7)
    outcome = game.perform("round")
    if outcome.decision:
        outcome = game.answer(outcome.decision, 3)
    game.values, game.log, game.over, game.result

A Game runs the ruleset's program in the traced mode (program.py): every die traced, every event
logged. Pausing for a decision replays: the action runs again from its start with the same dice
and the answers given so far (so same seed + same answers give the same log, byte for byte).
Undo puts back the state and the dice source as they were before the last action, and marks its
log entries as undone (history.py keeps what undo and snapshots need).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ruleset_engine import i18n
from ruleset_engine import dice
from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset import model

from ruleset_engine.ruleset.pairs import listed, pair_read
from ruleset_engine.dice.runtime import t_env

from .arguments import check_args, done_this_time, offered
from .decisions import Decision
from .errors import GameError
from .history import SNAPSHOT_FORMAT, History, rng_from_json, rng_to_json, saved_json, saved_tuple
from .limits import DEFAULT_RUN_LIMITS, RunLimits
from .manual import ManualDice
from .params import check_named, resolve_params
from .program import program_for
from .run import Run
from .signals import NeedDecision


@dataclass(slots=True)
class Outcome:
    """What one perform/answer did: the new events, and a decision if one is waiting."""

    events: list = field(default_factory=list)
    decision: Decision | None = None
    over: bool = False
    result: str | None = None


@dataclass(slots=True)
class ActionInfo:
    """An action as the table offers it: its name, documentation and params."""

    name: str
    doc: object
    params: dict
    plays_level: str | None


@dataclass(slots=True, eq=False, repr=False)
class Checkpoint:
    """The game at one moment, as rollback() puts it back: its state, its log and undo history, the
    question waiting, and the undone marks of the log entries an undo may mark."""

    saved: tuple
    log_length: int
    actions: list
    marked_from: int
    marked: set
    pending: object
    before: object


@dataclass(slots=True, eq=False, repr=False)
class _Pending:
    """An action waiting for answers to its questions."""

    action: str
    args: dict
    answers: list
    shown: int


class Game:
    def __init__(self, ruleset: model.Ruleset, params: dict, seed: int | None, *, record: bool = True,
                 auto: bool = False, limits: RunLimits = DEFAULT_RUN_LIMITS, rng=None, manual_dice: bool = False):
        self.ruleset = ruleset
        self.params = params
        self.seed = seed
        # Any dice source with randint, getstate and setstate: random.Random, or ScriptedDice in tests.
        self.rng = rng if rng is not None else random.Random(seed)
        self.record = record
        self.limits = limits
        self.values: dict = {}
        self.log: list = []
        self.turn = 0
        self.pending: _Pending | None = None
        self.history = History()
        self.last_outcome: Outcome | None = None
        self.run = Run(traced=True, auto=auto, max_steps=limits.max_steps, max_depth=limits.max_call_depth)
        self.program = program_for(ruleset, params, limits)
        self.manual: ManualDice | None = None
        self.entry = self.program.bind(self.rng.randint, self.run, self.values)
        self._before: tuple | None = None
        if manual_dice:
            self.use_manual_dice(True)

    # ---- starting
    @classmethod
    def start(cls, ruleset: model.Ruleset, params: dict | None = None, seed: int | None = None, *,
              record: bool = True, auto: bool = False, limits: RunLimits = DEFAULT_RUN_LIMITS, rng=None,
              manual_dice: bool = False, sheets=(), answers=()) -> "Game":
        """A new game: params over the defaults, initial state, then setup (which may ask).
        `rng` replaces the seeded source (tests pass ScriptedDice); `manual_dice`: every die the
        game draws is asked for as a decision (see use_manual_dice); `sheets`: instances written in
        sheet files (ruleset.sheets.read_all), made after the ruleset's own, before setup; `answers`:
        the answers its setup was given so far (`given`, saved while it waited), given again in order:
        the same seed and the same answers make the same setup, which then waits where it stopped."""
        full = resolve_params(ruleset, params)
        check_named(ruleset, full, sheets)
        game = cls(ruleset, full, seed, record=record, auto=auto, limits=limits,
                   rng=rng, manual_dice=manual_dice)
        game.run.sheets = tuple(sheets)
        game.last_outcome = game._perform("setup", {})
        if answers and game.last_outcome.decision is not None:
            game.last_outcome = game._perform("setup", {}, list(answers))
        return game

    @property
    def given(self) -> list:
        """The answers the action (or setup) that waits has been given so far, in order (a copy); none
        when nothing waits."""
        return list(self.pending.answers) if self.pending is not None else []

    @property
    def over(self) -> bool:
        return self.run.over

    @property
    def result(self) -> str | None:
        return self.run.result

    @property
    def auto(self) -> bool:
        return self.run.auto

    @property
    def starting(self) -> bool:
        """True while the game's setup waits for an answer (the game has not begun)."""
        return self.pending is not None and self.pending.action == "setup"

    @property
    def manual_dice(self) -> bool:
        return self.manual is not None

    def use_manual_dice(self, on: bool) -> None:
        """Real dice (on) or the game's own (off), from the next action: with real dice every pool
        the game rolls is a decision of kind `dice` asking for its faces, checked (count and range)
        and saved like any answer. The seeded source is left where it was, for when it comes back."""
        if self.pending is not None:
            raise GameError(i18n._("a decision is waiting: answer it first"))
        if on == self.manual_dice:
            return
        self.manual = ManualDice(self.run) if on else None
        self.run.expect = self.manual.expect if on else None
        self.entry = self.program.bind(self.manual.randint if on else self.rng.randint, self.run, self.values)

    # ---- what can be done
    def actions(self) -> list[ActionInfo]:
        """The actions offered now (none while a decision waits or after the end)."""
        if self.over or self.pending is not None:
            return []
        out = []
        for name, action in self.ruleset.actions.items():
            try:
                if not offered(self, action):
                    continue
            except DuskError:
                continue
            out.append(ActionInfo(name, action.doc, action.params, action.plays_level))
        return out

    def perform(self, name: str, /, **args) -> Outcome:
        if self.pending is not None:
            raise GameError(i18n._("a decision is waiting: answer it first"))
        if self.over:
            raise GameError(i18n._("the game is over ({result})").format(result=self.result))
        action = self.ruleset.actions.get(name)
        if action is None:
            from difflib import get_close_matches

            guess = get_close_matches(name, list(self.ruleset.actions), n=1)
            hint = i18n._(" (did you mean {guess}?)").format(guess=guess[0]) if guess else ""
            raise GameError(i18n._("no action {name}{hint}; the actions: {actions}").format(
                                name=repr(name), hint=hint, actions=', '.join(self.ruleset.actions)))
        if not offered(self, action):
            if action.once_per is not None and done_this_time(self, action):
                raise GameError(i18n._("{name} is done once per {level}, and it was done in this one; it can "
                                       "be done again when the {level} moves on").format(
                                    name=name, level=action.once_per))
            raise GameError(i18n._("{name} cannot be done now").format(name=name))
        return self._perform(name, check_args(self, action, args) if action.params or args else {})

    def edit(self, name: str, field: str, value: str) -> Outcome:
        """Set a field of a sheet's instance by hand (`set Mara grit 3`): a field its group's
        sheet template gives, within its bounds; one turn, which undo takes back (edits.py)."""
        return self.edit_many(name, {field: value})

    def edit_many(self, name: str, values: dict) -> Outcome:
        """Several fields of one instance set by hand at once (field -> value as typed), as one turn;
        GameError, nothing changed, when one of them cannot be."""
        from .edits import apply, edit

        if self.over:
            raise GameError(i18n._("the game is over ({result})").format(result=self.result))
        events = apply(self, [edit(self, name, field, str(value)) for field, value in values.items()])
        return Outcome(events, None, self.over, self.result)

    # ---- running
    def _save(self) -> tuple:
        return self.history.save(self.rng, self.values, self.turn, self.run.over, self.run.result)

    def _put_back(self, saved: tuple) -> None:
        self.turn, self.run.over, self.run.result = self.history.put_back(saved, self.rng, self.values)

    def _perform(self, name: str, args: dict, answers: list | None = None, shown: int = 0) -> Outcome:
        answers = answers or []
        # A game that keeps no log and answers itself (a statistics loop) has nothing to roll
        # back to: it skips the copy, and an error leaves it as the error found it.
        keeps = self.record or not self.run.auto or self.manual is not None   # real dice wait for faces
        if not answers:
            self._before = self._save() if keeps else None
        elif self._before is not None:
            self._put_back(self._before)
        run = self.run
        run.attempt(answers, self.turn, len(self.log))
        if self.manual is not None:
            self.manual.faces = []
        try:
            if name == "setup":
                run.emit("start", ruleset=self.ruleset.id, params=dict(self.params), seed=self.seed)
                self.entry["start"]()
            else:
                self.entry["perform"](name, args)
        except NeedDecision as need:
            events = run.events
            if self._before is None:
                self._before = self._save()   # answers replay from here
            self._put_back(self._before)
            if len(answers) >= self.limits.max_questions:     # the question before waits again, unanswered
                most = (i18n._("more than {limit} questions (the most one action may ask at the table, as each "
                               "answer replays it from its start)").format(
                            limit=i18n.number(self.limits.max_questions)))
                if name == "setup":
                    raise GameError(i18n._("the game's setup asks {most}: the game cannot begin").format(most=most))
                raise GameError(i18n._("{name} asks {most}: it cannot be finished; undo drops it (the game is as "
                                       "before it)").format(name=name, most=most))
            self.pending = _Pending(name, args, answers, len(events))
            return Outcome(events[shown:], need.decision)
        except Exception as err:   # a rule that failed, or a bug: the state as before, the place named
            if self._before is not None:
                self._put_back(self._before)
            self.pending = None
            self.program.reraise(err)
        self.pending = None
        if self.record:
            self.log.extend(run.events)
            if name != "setup":
                self.history.actions.append((self._before, len(self.log) - len(run.events)))
        self.turn += 1
        return Outcome(run.events[shown:], None, self.over, self.result)

    # ---- decisions
    def answer(self, decision: Decision, value) -> Outcome:
        """Answer the waiting decision; DecisionError (state unchanged, still waiting) if out of range."""
        pending = self.pending
        if pending is None:
            raise GameError(i18n._("no decision is waiting"))
        checked = decision.check(value)
        answers = pending.answers + [checked]
        return self._perform(pending.action, pending.args, answers, pending.shown)

    def auto_answer(self, decision: Decision) -> Outcome:
        """Answer the waiting decision with its ruleset's auto: expression (what simulate does)."""
        pending = self.pending
        if pending is None:
            raise GameError(i18n._("no decision is waiting"))
        if decision.kind == "dice":
            raise GameError(i18n._("real dice cannot be rolled automatically: type the faces rolled"))
        saved_auto = self.run.auto
        self.run.auto = True
        try:
            return self._perform(pending.action, pending.args, list(pending.answers), pending.shown)
        finally:
            self.run.auto = saved_auto

    # ---- reading
    @property
    def waiting_events(self) -> list:
        """The events the action that waits for an answer has shown so far: not in the log until the
        action is done (each answer replays it from its start), none when no question waits."""
        return list(self.run.events[:self.pending.shown]) if self.pending is not None else []

    @property
    def state(self) -> dict:
        """The whole state as plain JSON-able data (a copy)."""
        import copy

        return {"values": copy.deepcopy(self.values), "turn": self.turn, "over": self.over, "result": self.result}

    def status(self, lang: str = "en") -> str:
        if self.ruleset.status is None:
            return ""
        try:
            return self.ruleset.status.render(self.text_env(), lang=lang)
        except dice.DiceError as err:
            return i18n._("(status: {message})").format(message=err.message)

    def text_env(self) -> dict:
        """The values a text read between actions sees: the game's values, each loop counter with
        its `done`, and each pair as the function that reads its records (`bond('Ana', 'Beto').kind`)."""
        env = dict(self.values)
        done = env.pop("loop_done", None) or {}
        env["loop"] = {name: LoopCounter(n, done.get(name, 0)) for name, n in (env.get("loop") or {}).items()}
        for name, spec in self.ruleset.pairs.items():
            env[name] = _pair_reader(self.values, name, spec)
        return env

    def pair_records(self, name: str) -> list[tuple[str, str, dict]]:
        """The records of a pair written so far: (first name, second name, fields), by index."""
        spec = self.ruleset.pairs[name]
        return listed(self.values.get(name) or {}, self.values.get(spec.between) or [])

    def report(self) -> dict:
        """The ruleset's report: values, each a number or true/false."""
        try:
            return self.entry["report"]()
        except Exception as err:
            self.program.reraise(err)

    # ---- all or nothing
    def checkpoint(self, reach: int = 0) -> Checkpoint:
        """The game as it is now, for rollback(): a front end that saves each action (and undo) takes
        one before, and rolls back when the save fails, so the game never runs ahead of its file.
        `reach`: how many actions an undo to come may take back (their log entries' marks are kept)."""
        start = self.history.actions[-reach][1] if 0 < reach <= len(self.history.actions) else \
            (0 if reach else len(self.log))
        marked = {i for i in range(start, len(self.log)) if self.log[i].get("undone")}
        return Checkpoint(self._save(), len(self.log), list(self.history.actions), start, marked, self.pending,
                          self._before)

    def rollback(self, mark: Checkpoint) -> None:
        """Put the game back as it was at `mark`: whatever was done since (actions, answers, undos) is
        gone, as if it had never happened (not marked undone: gone)."""
        self._put_back(mark.saved)
        del self.log[mark.log_length:]
        self.history.actions[:] = mark.actions
        for i in range(mark.marked_from, mark.log_length):
            if i in mark.marked:
                self.log[i]["undone"] = True
            else:
                self.log[i].pop("undone", None)
        self.pending = mark.pending
        self._before = mark.before

    # ---- undo, snapshot, restore
    def undo(self) -> int:
        """Undo the last action: state and dice source as before it; its log entries marked undone."""
        if self.pending is not None:
            self.pending = None
            return self.turn
        if not self.history.actions:
            raise GameError(i18n._("nothing to undo"))
        before, log_at = self.history.actions.pop()
        self._put_back(before)
        # The action's events are marked; the undo events of earlier undos after it stand (they
        # happened), and this one names the turn taken back: the game stands as before it.
        for event in self.log[log_at:]:
            if event["kind"] != "undo":
                event["undone"] = True
        self.log.append({"seq": len(self.log), "turn": self.turn, "kind": "undo", "of": self.turn})
        return self.turn

    def snapshot(self) -> dict:
        """Everything needed to continue this game later, as JSON-able data."""
        import copy

        snap = {"format": SNAPSHOT_FORMAT, "ruleset": self.ruleset.id, "params": dict(self.params),
                "seed": self.seed, **self.core(), "log": copy.deepcopy(self.log)}
        snap["history"] = [[saved_json(before), at] for before, at in self.history.actions]
        return snap

    def core(self) -> dict:
        """The game as it stands, without its log and undo history: values, dice source, turn, end."""
        return saved_json((self.rng.getstate(), self.values, self.turn, self.over, self.result))

    @classmethod
    def restore(cls, ruleset: model.Ruleset, snap: dict, *, limits: RunLimits = DEFAULT_RUN_LIMITS,
                rng=None) -> "Game":
        """A game from a snapshot (its log and history may be left out)."""
        if snap.get("format") != SNAPSHOT_FORMAT or snap.get("ruleset") != ruleset.id:
            raise GameError(i18n._("this snapshot is not a {id} game of this version").format(id=ruleset.id))
        return cls.resume(ruleset, params=snap["params"], seed=snap["seed"], core=snap, log=snap.get("log", []),
                          history=snap.get("history", []), limits=limits, rng=rng)

    @classmethod
    def resume(cls, ruleset: model.Ruleset, *, params: dict, seed: int | None, core: dict, log: list = (),
               history: list = (), limits: RunLimits = DEFAULT_RUN_LIMITS, rng=None) -> "Game":
        """A game from the parts a session file keeps: the params and seed, the game as it stands
        (`core()`), its log, and its undo history as (core before the action, where its events start in
        the log). The same game as Game.restore gives from a snapshot of it."""
        import copy

        game = cls(ruleset, dict(params), seed, limits=limits, rng=rng)
        game._put_back(saved_tuple(core))
        game.log = copy.deepcopy(list(log))
        game.history.actions = [(saved_tuple(copy.deepcopy(before)), at) for before, at in history]
        return game


def dice_source_state(rng):
    """A dice source's state as JSON (a random.Random's; a ScriptedDice's position)."""
    return rng_to_json(rng.getstate())


def restore_dice_source(rng, state) -> None:
    """Put a dice source back in a state that dice_source_state gave."""
    rng.setstate(rng_from_json(state))


class LoopCounter(int):
    """A loop level's counter as a text between actions reads it: a number (`loop.night`, the
    iteration being played) with one field, `done` (`loop.night.done`, the iterations finished)."""

    def __new__(cls, value: int, done: int):
        counter = super().__new__(cls, value)
        counter.done = done
        return counter

    def keys(self):
        return ("done",)

    def __getitem__(self, name):
        if name == "done":
            return self.done
        raise KeyError(name)

    def __deepcopy__(self, memo):
        return self


def _pair_reader(values: dict, name: str, spec):
    """A pair's records as a function of two instances (or their names), for texts read between actions."""
    def read(a, b):
        return pair_read(values[name], values[spec.between], a, b, spec.ordered, name, spec.fields, None, None, t_env)
    return read
