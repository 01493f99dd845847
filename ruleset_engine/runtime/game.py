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

from ruleset_engine import dice
from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.params import param_value_problem, parse_param

from .decisions import Decision
from .errors import GameError, RuleError
from .history import SNAPSHOT_FORMAT, History, rng_from_json, rng_to_json, saved_json, saved_tuple
from .limits import DEFAULT_RUN_LIMITS, RunLimits
from .program import Program, build
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
    name: str
    doc: object
    params: dict
    plays_level: str | None


@dataclass(slots=True)
class _Pending:
    action: str
    args: dict
    answers: list
    shown: int


def resolve_params(ruleset: model.Ruleset, given: dict | None) -> dict:
    """The ruleset's params with `given` over the defaults; GameError on an unknown name or bad value."""
    params = {name: p.default for name, p in ruleset.params.items()}
    for name, value in (given or {}).items():
        if name not in ruleset.params:
            known = ", ".join(sorted(ruleset.params)) or "none"
            raise GameError(f"{ruleset.id} has no param {name!r} (its params: {known})")
        param = ruleset.params[name]
        try:
            value = parse_param(param, value)
        except ValueError as err:
            raise GameError(str(err)) from None
        problem = param_value_problem(param, value)
        if problem:
            raise GameError(f"param {name}: {problem}")
        params[name] = value
    return params


_PROGRAMS: dict = {}


def program_for(ruleset: model.Ruleset, params: dict, limits: RunLimits, traced: bool = True) -> Program:
    """The ruleset's program for these params (written once, kept for the next game)."""
    key = (id(ruleset), tuple(sorted((k, repr(v)) for k, v in params.items())), limits, traced)
    found = _PROGRAMS.get(key)
    if found is None or found[0] is not ruleset:
        if len(_PROGRAMS) > 32:
            _PROGRAMS.clear()
        found = _PROGRAMS[key] = (ruleset, build(ruleset, params, traced=traced, run_limits=limits))
    return found[1]


class Game:
    def __init__(self, ruleset: model.Ruleset, params: dict, seed: int | None, *, record: bool = True,
                 auto: bool = False, limits: RunLimits = DEFAULT_RUN_LIMITS, rng=None):
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
        self.entry = self.program.bind(self.rng.randint, self.run, self.values)
        self._before: tuple | None = None

    # ---- starting
    @classmethod
    def start(cls, ruleset: model.Ruleset, params: dict | None = None, seed: int | None = None, *,
              record: bool = True, auto: bool = False, limits: RunLimits = DEFAULT_RUN_LIMITS, rng=None) -> "Game":
        """A new game: params over the defaults, initial state, then setup (which may ask).
        `rng` replaces the seeded source (tests pass ScriptedDice)."""
        game = cls(ruleset, resolve_params(ruleset, params), seed, record=record, auto=auto, limits=limits,
                   rng=rng)
        game.last_outcome = game._perform("setup", {})
        return game

    @property
    def over(self) -> bool:
        return self.run.over

    @property
    def result(self) -> str | None:
        return self.run.result

    @property
    def auto(self) -> bool:
        return self.run.auto

    # ---- what can be done
    def actions(self) -> list[ActionInfo]:
        """The actions offered now (none while a decision waits or after the end)."""
        if self.over or self.pending is not None:
            return []
        out = []
        for name, action in self.ruleset.actions.items():
            try:
                if not self._offered(action):
                    continue
            except DuskError:
                continue
            out.append(ActionInfo(name, action.doc, action.params, action.plays_level))
        return out

    def _read(self, formula: model.Formula):
        """A formula read against the state as it stands (it rolls no dice: the checker saw to it)."""
        try:
            return formula.expr.evaluate(rng=_NO_ROLLS, env=self.values).value
        except dice.DiceError as err:
            err.located(formula.text, err.span)
            raise RuleError(err.message, formula.where, formula.path, err.caret_lines()) from None

    def _offered(self, action: model.Action) -> bool:
        if action.when is None:
            return True
        value = self._read(action.when)
        return value is True or (type(value) is int and value != 0)

    def perform(self, name: str, **args) -> Outcome:
        if self.pending is not None:
            raise GameError("a decision is waiting: answer it first")
        if self.over:
            raise GameError(f"the game is over ({self.result})")
        action = self.ruleset.actions.get(name)
        if action is None:
            from difflib import get_close_matches

            guess = get_close_matches(name, list(self.ruleset.actions), n=1)
            hint = f" (did you mean {guess[0]}?)" if guess else ""
            raise GameError(f"no action {name!r}{hint}; the actions: {', '.join(self.ruleset.actions)}")
        if not self._offered(action):
            raise GameError(f"{name} cannot be done now")
        return self._perform(name, self._check_args(action, args) if action.params or args else {})

    def _check_args(self, action: model.Action, args: dict) -> dict:
        out = {}
        for key in args:
            if key not in action.params:
                raise GameError(f"{action.name} has no parameter {key!r} "
                                f"(its parameters: {', '.join(action.params) or 'none'})")
        for key, param in action.params.items():
            if key in args:
                value = args[key]
            elif param.default is not None:
                value = param.default
            else:
                raise GameError(f"{action.name} needs {key}")
            out[key] = self._check_arg(action, param, value)
        return out

    def _check_arg(self, action, param: model.ActionParam, value):
        kind = param.type
        name = f"{action.name} {param.name}"
        if kind == "integer":
            try:
                value = int(value) if not isinstance(value, bool) else None
            except (TypeError, ValueError):
                value = None
            lo = self._bound(param.min) if param.min is not None else None
            hi = self._bound(param.max) if param.max is not None else None
            if value is None or (lo is not None and value < lo) or (hi is not None and value > hi):
                span = f" from {lo} to {hi}" if lo is not None and hi is not None else \
                    f" of at least {lo}" if lo is not None else f" of at most {hi}" if hi is not None else ""
                raise GameError(f"{name}: expected a whole number{span}")
            return value
        if kind == "boolean":
            return Decision("", "", "yes_no").check(value)
        if kind == "choice":
            return Decision("", "", "choice", choices=param.choices).check(value)
        if kind == "dice":
            try:
                dice.compile(str(value))
            except dice.DiceError as err:
                raise GameError(f"{name}: {err}") from None
            return str(value)
        if kind == "entity":
            candidates = self._instances(param.of)
            for instance in candidates:
                if str(instance.get("name", "")).casefold() == str(value).casefold():
                    return instance["name"]
            raise GameError(f"{name}: expected one of {', '.join(i['name'] for i in candidates)}")
        return str(value)

    def _bound(self, formula: model.Formula) -> int:
        value = self._read(formula)
        if type(value) is not int:
            raise RuleError(f"a bound must be a whole number, not {value!r}", formula.where, formula.path)
        return value

    def _instances(self, entity: str) -> list:
        value = self.values.get(entity)
        return list(value) if isinstance(value, list) else [value] if isinstance(value, dict) else []

    # ---- running
    def _save(self) -> tuple:
        return self.history.save(self.rng, self.values, self.turn, self.run.over, self.run.result)

    def _put_back(self, saved: tuple) -> None:
        self.turn, self.run.over, self.run.result = self.history.put_back(saved, self.rng, self.values)

    def _perform(self, name: str, args: dict, answers: list | None = None, shown: int = 0) -> Outcome:
        answers = answers or []
        # A game that keeps no log and answers itself (a statistics loop) has nothing to roll
        # back to: it skips the copy, and an error leaves it as the error found it.
        keeps = self.record or not self.run.auto
        if not answers:
            self._before = self._save() if keeps else None
        elif self._before is not None:
            self._put_back(self._before)
        run = self.run
        run.attempt(answers, self.turn, len(self.log))
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
            self.pending = _Pending(name, args, answers, len(events))
            return Outcome(events[shown:], need.decision)
        except Exception as err:   # a rule that failed, or a bug: the state as before, the place named
            if self._before is not None:
                self._put_back(self._before)
            self.pending = None
            raise self.program.locate(err) from None
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
            raise GameError("no decision is waiting")
        checked = decision.check(value)
        answers = pending.answers + [checked]
        return self._perform(pending.action, pending.args, answers, pending.shown)

    def auto_answer(self, decision: Decision) -> Outcome:
        """Answer the waiting decision with its ruleset's auto: expression (what simulate does)."""
        pending = self.pending
        if pending is None:
            raise GameError("no decision is waiting")
        saved_auto = self.run.auto
        self.run.auto = True
        try:
            return self._perform(pending.action, pending.args, list(pending.answers), pending.shown)
        finally:
            self.run.auto = saved_auto

    # ---- reading
    @property
    def state(self) -> dict:
        """The whole state as plain JSON-able data (a copy)."""
        import copy

        return {"values": copy.deepcopy(self.values), "turn": self.turn, "over": self.over, "result": self.result}

    def status(self, lang: str = "en") -> str:
        if self.ruleset.status is None:
            return ""
        try:
            return self.ruleset.status.render(self.values, lang=lang)
        except dice.DiceError as err:
            return f"(status: {err.message})"

    def report(self) -> dict:
        """The ruleset's report: values, each a number or true/false."""
        try:
            return self.entry["report"]()
        except Exception as err:
            raise self.program.locate(err) from None

    # ---- undo, snapshot, restore
    def undo(self) -> int:
        """Undo the last action: state and dice source as before it; its log entries marked undone."""
        if self.pending is not None:
            self.pending = None
            return self.turn
        if not self.history.actions:
            raise GameError("nothing to undo")
        before, log_at = self.history.actions.pop()
        self._put_back(before)
        undone_turn = None
        for event in self.log[log_at:]:
            if not event.get("undone"):
                event["undone"] = True
                undone_turn = event["turn"]
        self.log.append({"seq": len(self.log), "turn": self.turn, "kind": "undo", "of": undone_turn})
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
        """A game from a snapshot (its log and history may be left out, or given separately)."""
        import copy

        if snap.get("format") != SNAPSHOT_FORMAT or snap.get("ruleset") != ruleset.id:
            raise GameError(f"this snapshot is not a {ruleset.id} game of this version")
        game = cls(ruleset, dict(snap["params"]), snap["seed"], limits=limits, rng=rng)
        game._put_back(saved_tuple(snap))
        game.log = copy.deepcopy(snap.get("log", []))
        game.history.actions = [(saved_tuple(copy.deepcopy(before)), at) for before, at in snap.get("history", [])]
        return game

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


class _NoRolls:
    """The dice source of formulas read at any time (an action's when:, a bound): they roll nothing."""

    def randint(self, a, b):
        raise dice.DiceError("this formula is read at any time, so it cannot roll dice")


_NO_ROLLS = _NoRolls()
