"""The engine API that every front end drives: start a game, list and perform actions, answer
decisions, read the state and the log, undo, snapshot and restore.

    game = Game.start(ruleset, params={"players": 3}, seed=7)
    outcome = game.perform("round")
    if outcome.decision:
        outcome = game.answer(outcome.decision, 3)
    game.values, game.log, game.over, game.result

Pausing for a decision replays: the action runs again from its start with the
same dice and the answers given so far (so same seed + same answers give the
same log, byte for byte). Undo puts back the state and the dice source as they
were before the last action, and marks its log entries as undone.

A game started with record=False and auto=True (what `dusk simulate` plays) keeps no
log and no undo history, and skips the copy taken before each action: an error
in one of its actions leaves it unusable (the simulation reports it and stops).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

from ruleset_engine import dice
from ruleset_engine.dice import Pool
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.compile import param_value_problem

from .decisions import Decision
from .errors import GameError, RuleError
from .interpreter import EndGame, EndLevel, Env, NeedDecision, Return, Run, RunLimits, to_state, track_value

SNAPSHOT_FORMAT = 1
DEFAULT_RUN_LIMITS = RunLimits()


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
        value = parse_param(param, value)
        problem = param_value_problem(param, value)
        if problem:
            raise GameError(f"param {name}: {problem}")
        params[name] = value
    return params


def parse_param(param: model.Param, value):
    """A value from the command line (text) in the param's type."""
    if not isinstance(value, str) or param.type in ("choice", "dice", "text"):
        return value
    if param.type == "integer":
        try:
            return int(value)
        except ValueError:
            raise GameError(f"param {param.name}: expected a whole number, not {value!r}") from None
    if param.type == "boolean":
        word = value.strip().lower()
        if word in ("true", "yes", "on", "1"):
            return True
        if word in ("false", "no", "off", "0"):
            return False
        raise GameError(f"param {param.name}: expected true or false, not {value!r}")
    return value


class Game:
    def __init__(self, ruleset: model.Ruleset, params: dict, seed: int | None, *, record: bool = True,
                 auto: bool = False, limits: RunLimits = DEFAULT_RUN_LIMITS, rng=None):
        self.ruleset = ruleset
        self.params = params
        self.seed = seed
        # Any dice source with randint, getstate and setstate: random.Random, or ScriptedDice in tests.
        self.rng = rng if rng is not None else random.Random(seed)
        self.record = record
        self.auto = auto
        self.limits = limits
        self.values: dict = {}
        self.log: list = []
        self.turn = 0
        self.over = False
        self.result: str | None = None
        self.pending: _Pending | None = None
        self.history: list = []
        self.last_outcome: Outcome | None = None
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

    def _initial_values(self, run: Run) -> None:
        values = self.values
        values.clear()
        values["params"] = self._param_values(run)
        values["loop"] = {level.name: 0 for level in self.ruleset.loop}
        for name, spec in self.ruleset.entities.items():
            if spec.is_group:
                n = run.number(spec.count, Env({}, values), "count")
                values[name] = [self._instance(run, spec, i + 1) for i in range(max(0, n))]
            else:
                values[name] = self._instance(run, spec, None)
        env = Env({}, values)
        for name, initial in self.ruleset.state.items():
            values[name] = self._initial(run, initial, env)

    def _param_values(self, run: Run) -> dict:
        out = {}
        for name, param in self.ruleset.params.items():
            value = self.params[name]
            if param.type == "dice":
                # A dice param is rolled once, when the game starts; formulas read its value.
                result = dice.roll(str(value), rng=self.rng)
                value = result.value
                if run.events is not None:
                    run.emit("roll", name=f"params.{name}", **result.to_json())
            out[name] = value
        return out

    def _instance(self, run: Run, spec: model.EntitySpec, index: int | None) -> dict:
        instance: dict = {}
        if index is not None:
            instance["index"] = index
        local = {"index": index or 1, "name": spec.name}
        if spec.names is not None:
            instance["name"] = str(spec.names.render(Env(local, self.values)))
        else:
            instance["name"] = f"{spec.name} {index}" if index is not None else spec.name
        local["name"] = instance["name"]
        env = Env(local, self.values)
        for field_name, initial in spec.fields.items():
            instance[field_name] = self._initial(run, initial, env)
            local[field_name] = instance[field_name]
        for track_name, track in spec.tracks.items():
            instance[track_name] = track_value(track.labels)
        return instance

    def _initial(self, run: Run, initial: model.Initial, env: Env):
        if initial.pool is not None:
            return list(initial.pool)
        if initial.text is not None:
            return to_state(run.text(initial.text, env))
        value = run.value(initial.formula, env)
        if isinstance(value, Pool) and initial.formula.expr.kind != "pool":
            return value.total
        return to_state(value)

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
            except RuleError:
                continue
            out.append(ActionInfo(name, action.doc, action.params, action.plays_level))
        return out

    def _probe(self) -> Run:
        """A run that changes nothing: for reading conditions, bounds and reports."""
        return Run(self, [], True, False, self.limits)

    def _offered(self, action: model.Action) -> bool:
        return action.when is None or self._probe().truth(action.when, Env({}, self.values))

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
        env = Env({}, self.values)
        run = self._probe()
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
            out[key] = self._check_arg(run, env, action, param, value)
        return out

    def _check_arg(self, run, env, action, param: model.ActionParam, value):
        kind = param.type
        name = f"{action.name} {param.name}"
        if kind == "integer":
            try:
                value = int(value) if not isinstance(value, bool) else None
            except (TypeError, ValueError):
                value = None
            lo = run.number(param.min, env, "min") if param.min is not None else None
            hi = run.number(param.max, env, "max") if param.max is not None else None
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

    def _instances(self, entity: str) -> list:
        value = self.values.get(entity)
        return list(value) if isinstance(value, list) else [value] if isinstance(value, dict) else []

    def _bind_args(self, run: Run, action: model.Action, args: dict) -> dict:
        local = {}
        for key, value in args.items():
            param = action.params[key]
            if param.type == "entity":
                local[key] = next(i for i in self._instances(param.of) if i.get("name") == value)
            elif param.type == "dice":
                result = dice.roll(value, rng=self.rng, env=Env({}, self.values))
                local[key] = result.raw
                if run.events is not None:
                    run.emit("roll", name=key, **result.to_json())
            else:
                local[key] = value
        return local

    # ---- running
    def _save(self) -> tuple:
        return (self.rng.getstate(), copy.deepcopy(self.values), self.turn, self.over, self.result)

    def _put_back(self, saved: tuple) -> None:
        rng_state, values, self.turn, self.over, self.result = saved
        self.rng.setstate(rng_state)
        self.values.clear()
        self.values.update(copy.deepcopy(values))

    def _perform(self, name: str, args: dict, answers: list | None = None, shown: int = 0) -> Outcome:
        answers = answers or []
        rollback = self.record or not self.auto
        if not answers:
            self._before = self._save() if rollback else None
        elif self._before is not None:
            self._put_back(self._before)
        run = self._make_run(answers)
        try:
            self._run_action(run, name, args)
        except NeedDecision as need:
            events = run.events or []
            self._put_back(self._before)
            self.pending = _Pending(name, args, answers, len(events))
            return Outcome(events[shown:], need.decision)
        except (RuleError, dice.DiceError) as err:
            if self._before is not None:
                self._put_back(self._before)
            self.pending = None
            if isinstance(err, dice.DiceError):
                raise RuleError(err.message) from None
            raise
        self.pending = None
        if self.record:
            self.log.extend(run.events)
            if name != "setup":
                self.history.append((self._before, len(self.log) - len(run.events)))
        self.turn += 1
        events = run.events[shown:] if run.events is not None else []
        return Outcome(events, None, self.over, self.result)

    def _make_run(self, answers: list) -> Run:
        """The Run of one attempt at an action (a compiled simulation makes its own)."""
        return Run(self, answers, self.auto, self.record, self.limits)

    def _run_action(self, run: Run, name: str, args: dict) -> None:
        ruleset = self.ruleset
        env = Env({}, self.values)
        try:
            if name == "setup":
                run.emit("start", ruleset=ruleset.id, params=dict(self.params), seed=self.seed)
                self._initial_values(run)
                run.block(ruleset.setup, env)
                self._begin_levels(run, 0)
                self._check_endings(run)
                return
            action = ruleset.actions[name]
            run.emit("action", name=name, args=args)
            env = Env(self._bind_args(run, action, args), self.values)
            ended = None
            try:
                run.block(action.steps, env)
            except EndLevel as end:
                ended = end.level
            except Return:
                pass
            ended = self._run_triggers(run, ended)
            if self._check_endings(run):
                return
            if ended is not None or action.plays_level:
                self._advance(run, ended)
                self._check_endings(run)
        except EndGame as end:
            self._finish(run, end.result)

    def _finish(self, run: Run, result: str) -> None:
        self.over = True
        self.result = result
        run.emit("end", result=result)

    def _run_triggers(self, run: Run, ended: str | None) -> str | None:
        env = Env({}, self.values)
        for trigger in self.ruleset.triggers:
            if run.truth(trigger.when, env):
                run.emit("trigger", id=trigger.id)
                try:
                    run.block(trigger.do, env)
                except EndLevel as end:
                    ended = end.level if ended is None else ended
        return ended

    def _check_endings(self, run: Run) -> bool:
        if self.over:
            return True
        env = Env({}, self.values)
        for ending in self.ruleset.end:
            if run.truth(ending.when, env):
                if ending.say is not None and run.events is not None:
                    run.emit("say", text=to_state(run.text(ending.say, env)))
                self._finish(run, ending.result)
                return True
        return False

    # ---- the loop
    def _level_done(self, run: Run, level: model.Level) -> bool:
        n = self.values["loop"][level.name]
        if level.times is not None and n > run.number(level.times, Env({}, self.values), "times"):
            return True
        return level.max is not None and n > level.max

    def _begin_levels(self, run: Run, first: int) -> None:
        levels = self.ruleset.loop
        for i in range(first, len(levels)):
            level = levels[i]
            self.values["loop"][level.name] = 1
            if self._level_done(run, level):
                self._level_complete(run, i)
                return
            run.emit("level", level=level.name, event="begin", iteration=1)
            self._level_block(run, level.begin, i)

    def _level_block(self, run: Run, steps: list, index: int) -> None:
        if not steps:
            return
        try:
            run.block(steps, Env({}, self.values))
        except EndLevel as end:
            names = [level.name for level in self.ruleset.loop]
            raise RuleError(f"end: {end.level} inside the begin:/finish:/then: of loop level "
                            f"{names[index]!r} is not allowed") from None

    def _advance(self, run: Run, ended: str | None) -> None:
        """The current iteration of `ended` (or of the innermost level) is over: move the loop on."""
        levels = self.ruleset.loop
        if not levels:
            return
        names = [level.name for level in levels]
        i = names.index(ended) if ended is not None else len(levels) - 1
        for j in range(len(levels) - 1, i - 1, -1):
            run.emit("level", level=names[j], event="end", iteration=self.values["loop"][names[j]])
            self._level_block(run, levels[j].finish, j)
        self._next_iteration(run, i)

    def _next_iteration(self, run: Run, i: int) -> None:
        levels = self.ruleset.loop
        counters = self.values["loop"]
        counters[levels[i].name] += 1
        if self._level_done(run, levels[i]):
            self._level_complete(run, i)
            return
        run.emit("level", level=levels[i].name, event="begin", iteration=counters[levels[i].name])
        self._level_block(run, levels[i].begin, i)
        self._begin_levels(run, i + 1)

    def _level_complete(self, run: Run, i: int) -> None:
        """Level i has run all its iterations: its then:, and the enclosing iteration ends."""
        levels = self.ruleset.loop
        self._level_block(run, levels[i].then, i)
        if self.over:
            return
        if i == 0:
            raise EndGame("done")
        run.emit("level", level=levels[i - 1].name, event="end", iteration=self.values["loop"][levels[i - 1].name])
        self._level_block(run, levels[i - 1].finish, i - 1)
        self._next_iteration(run, i - 1)

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
        saved_auto = self.auto
        self.auto = True
        try:
            return self._perform(pending.action, pending.args, list(pending.answers), pending.shown)
        finally:
            self.auto = saved_auto

    # ---- reading
    @property
    def state(self) -> dict:
        """The whole state as plain JSON-able data (a copy)."""
        return {"values": copy.deepcopy(self.values), "turn": self.turn, "over": self.over, "result": self.result}

    def status(self, lang: str = "en") -> str:
        if self.ruleset.status is None:
            return ""
        try:
            return self.ruleset.status.render(Env({}, self.values), lang=lang)
        except dice.DiceError as err:
            return f"(status: {err.message})"

    def report(self) -> dict:
        """The ruleset's report: values, each a number or true/false."""
        run = self._probe()
        out = {}
        for name, formula in self.ruleset.report.items():
            value = run.value(formula, Env({}, self.values))
            out[name] = value.total if isinstance(value, Pool) else value
        return out

    # ---- undo, snapshot, restore
    def undo(self) -> int:
        """Undo the last action: state and dice source as before it; its log entries marked undone."""
        if self.pending is not None:
            self.pending = None
            return self.turn
        if not self.history:
            raise GameError("nothing to undo")
        before, log_at = self.history.pop()
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
        snap = {"format": SNAPSHOT_FORMAT, "ruleset": self.ruleset.id, "params": dict(self.params),
                "seed": self.seed, **self.core(), "log": copy.deepcopy(self.log)}
        snap["history"] = [[_saved_json(before), at] for before, at in self.history]
        return snap

    def core(self) -> dict:
        """The game as it stands, without its log and undo history: values, dice source, turn, end."""
        return _saved_json((self.rng.getstate(), self.values, self.turn, self.over, self.result))

    @classmethod
    def restore(cls, ruleset: model.Ruleset, snap: dict, *, limits: RunLimits = DEFAULT_RUN_LIMITS, rng=None) -> "Game":
        """A game from a snapshot (its log and history may be left out, or given separately)."""
        if snap.get("format") != SNAPSHOT_FORMAT or snap.get("ruleset") != ruleset.id:
            raise GameError(f"this snapshot is not a {ruleset.id} game of this version")
        game = cls(ruleset, dict(snap["params"]), snap["seed"], limits=limits, rng=rng)
        game._put_back(_saved_tuple(snap))
        game.log = copy.deepcopy(snap.get("log", []))
        game.history = [(_saved_tuple(copy.deepcopy(before)), at) for before, at in snap.get("history", [])]
        return game


def rng_to_json(state):
    """A dice source's state (random.Random's, or a ScriptedDice's position) as JSON."""
    if isinstance(state, int):   # a scripted source: how many faces it has given
        return state
    version, internal, gauss = state
    return [version, list(internal), gauss]


def rng_from_json(data):
    """The inverse of rng_to_json, for setstate."""
    return data if isinstance(data, int) else (data[0], tuple(data[1]), data[2])


def _saved_json(saved: tuple) -> dict:
    rng_state, values, turn, over, result = saved
    return {"rng": rng_to_json(rng_state), "values": copy.deepcopy(values), "turn": turn, "over": over,
            "result": result}


def _saved_tuple(data: dict) -> tuple:
    # No copy here: _put_back copies whatever it puts back.
    return (rng_from_json(data["rng"]), data["values"], data["turn"], data["over"], data["result"])
