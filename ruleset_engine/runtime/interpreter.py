"""The step interpreter: one plain function per step kind, registered in EXECUTORS.

A Run is one attempt at an action: it draws dice from the game's source, reads
answers given so far, emits events, and counts steps and calls against the
limits. When a step asks a question that has no answer yet, the run stops with
NeedDecision; the game rolls itself back and, once the answer comes, runs the
action again from the start with the same dice, which reaches the same question
and goes on past it (see game.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ruleset_engine import dice
from ruleset_engine.dice import Context, FacesList, Pool, Result
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.templates import LocalText, format_value

from .decisions import Decision
from .errors import RuleError


@dataclass(frozen=True, slots=True)
class RunLimits:
    max_steps: int = 100_000      # steps in one action
    max_call_depth: int = 64      # nested procedure calls


class NeedDecision(Exception):
    def __init__(self, decision: Decision):
        self.decision = decision


class EndLevel(Exception):
    def __init__(self, level: str):
        self.level = level


class EndGame(Exception):
    def __init__(self, result: str):
        self.result = result


class Return(Exception):
    def __init__(self, value):
        self.value = value


class _NoDice:
    """The dice source of text placeholders: text shows values, it never rolls."""

    def randint(self, a, b):
        raise dice.DiceError("text placeholders cannot roll dice: roll first with a roll: step, then show the name")


NO_DICE = _NoDice()


class Env:
    """Names as a formula sees them: the run's locals over the game's values."""

    __slots__ = ("local", "glob")

    def __init__(self, local: dict, glob: dict):
        self.local = local
        self.glob = glob

    def __getitem__(self, name):
        local = self.local
        if name in local:
            return local[name]
        return self.glob[name]

    def __contains__(self, name) -> bool:
        return name in self.local or name in self.glob

    def keys(self):
        return list(self.local) + [k for k in self.glob if k not in self.local]


def to_state(value):
    """Values as the game state keeps them: plain JSON (a pool becomes its faces, which
    remember their Pool so a formula reads them back for free)."""
    if isinstance(value, Pool):
        return FacesList(value)
    if isinstance(value, LocalText):
        return dict(value.texts)
    return value


def track_value(labels, marked: int = 0) -> dict:
    track = {"labels": list(labels), "size": len(labels), "marked": 0}
    _set_marked(track, marked)
    return track


def _set_marked(track: dict, marked: int) -> None:
    labels = track["labels"]
    marked = max(0, min(len(labels), marked))
    track["marked"] = marked
    track["free"] = len(labels) - marked
    track["next"] = labels[marked] if marked < len(labels) else 0
    track["last"] = labels[marked - 1] if marked > 0 else 0


class Run:
    """One attempt at an action (or setup): the dice, the answers, the events, the counters."""

    def __init__(self, game, answers: list, auto: bool, record: bool, limits: RunLimits):
        self.game = game
        self.rng = game.rng
        self.glob = game.values
        self.answers = answers
        self.answered = 0
        self.auto = auto
        self.events: list | None = [] if record else None
        self.limits = limits
        self.steps = 0
        self.depth = 0
        self.turn = game.turn
        self.base_seq = len(game.log)
        self.loops: list = []    # the repeats and for_eaches running, to name the one that passed a limit
        # One evaluation context for the whole run: formulas are the hot path of a simulation.
        self.ctx = Context(self.rng, None, dice.DEFAULT_LIMITS.max_dice_rolled)
        self.ctx.steps = None

    # ---- events
    def emit(self, kind: str, **data) -> None:
        if self.events is not None:
            event = {"seq": self.base_seq + len(self.events), "turn": self.turn, "kind": kind}
            event.update(data)
            self.events.append(event)

    # ---- evaluation
    @staticmethod
    def fail(err: dice.DiceError, formula: model.Formula) -> RuleError:
        """A formula's error, located where the formula was written, with its caret."""
        err.located(formula.text, err.span)
        return RuleError(err.message, formula.where, formula.path, err.caret_lines())

    def value(self, formula: model.Formula, env: Env):
        ctx = self.ctx
        ctx.env = env
        ctx.budget = ctx.limit
        if self.events is None:
            try:
                return formula.run(ctx)
            except dice.DiceError as err:
                raise self.fail(err, formula) from None
        # At the table every die is shown: a formula that rolled logs its roll.
        result = self.evaluate(formula, env)
        if result.steps and ctx.budget < ctx.limit:   # dice were drawn, not only judged
            self.emit("roll", name=None, **result.to_json())
        return result.raw

    def evaluate(self, formula: model.Formula, env: Env) -> Result:
        """The value with its trace (what a roll step shows)."""
        ctx = self.ctx
        ctx.env = env
        ctx.budget = ctx.limit
        ctx.steps = []
        try:
            value = formula.expr.run(ctx)
        except dice.DiceError as err:
            raise self.fail(err, formula) from None
        finally:
            steps, ctx.steps = ctx.steps, None
        return Result.of(formula.text, value, steps)

    def number(self, formula: model.Formula, env: Env, what: str) -> int:
        value = self.value(formula, env)
        if isinstance(value, Pool):
            value = value.total
        if type(value) is not int:
            raise RuleError(f"{what} must be a whole number, not {format_value(value)!r}", formula.where,
                            formula.path)
        return value

    def truth(self, formula: model.Formula, env: Env) -> bool:
        value = self.value(formula, env)
        if type(value) is bool:
            return value
        if type(value) is int:
            return value != 0
        raise RuleError(f"a condition must be true or false, not {format_value(value)!r}", formula.where,
                        formula.path)

    def text(self, template, env: Env):
        try:
            return template.render(env, NO_DICE)
        except dice.DiceError as err:
            raise RuleError(err.message) from None

    # ---- blocks
    def block(self, steps: list, env: Env) -> None:
        limit = self.limits.max_steps
        for step in steps:
            self.steps += 1
            if self.steps > limit:
                raise self.step_limit(step)
            EXECUTORS[type(step)](self, step, env)

    def step_limit(self, step) -> RuleError:
        where = self.loops[-1] if self.loops else step
        return RuleError(
            f"more than {self.limits.max_steps:,} steps in one action; stopped in the loop here "
            f"(a loop that never ends?)", where.where, where.path)

    # ---- writing
    def assign(self, target: tuple, value, env: Env, node) -> None:
        head = target[0]
        if len(target) == 1:
            if head in env.local:
                env.local[head] = value
                return
            self.glob[head] = to_state(value)
            return
        container = env[head]
        for part in target[1:-1]:
            container = container[part]
        if not isinstance(container, dict):
            raise RuleError(f"cannot set {'.'.join(target)}: {'.'.join(target[:-1])} holds no fields",
                            node.where, node.path)
        if isinstance(container.get(target[-1]), dict) and "marked" in container[target[-1]]:
            raise RuleError(f"{'.'.join(target)} is a track: change it with mark: and clear:", node.where,
                            node.path)
        container[target[-1]] = to_state(value)

    def read(self, target: tuple, env: Env, node):
        try:
            value = env[target[0]]
            for part in target[1:]:
                value = value[part]
            return value
        except (KeyError, TypeError, IndexError):
            raise RuleError(f"{'.'.join(target)} does not exist here", node.where, node.path) from None


# ---- one executor per step kind ---------------------------------------------------

def shown_target(target: tuple, env: Env) -> str:
    """How a written place reads in the log: through a local holding an instance, its name."""
    head = target[0]
    held = env.local.get(head) if head in env.local else None
    if isinstance(held, dict) and "name" in held and len(target) > 1:
        return ".".join((str(held["name"]),) + target[1:])
    return ".".join(target)


def exec_set(run: Run, step: model.SetStep, env: Env) -> None:
    for target, formula in step.assignments:
        value = run.value(formula, env)
        run.assign(target, value, env, step)
        if run.events is not None and (target[0] not in env.local or len(target) > 1):
            run.emit("set", target=shown_target(target, env), value=to_state(value))


def exec_let(run: Run, step: model.LetStep, env: Env) -> None:
    local = env.local
    for name, formula in step.assignments:
        local[name] = run.value(formula, env)


def exec_roll(run: Run, step: model.RollStep, env: Env) -> None:
    for name, formula in step.assignments:
        if run.events is None:
            env.local[name] = run.value(formula, env)
            continue
        result = run.evaluate(formula, env)
        env.local[name] = result.raw
        if run.events is not None:
            data = result.to_json()
            data["name"] = name
            if step.label is not None:
                data["label"] = to_state(step.label)
            run.emit("roll", **data)


def exec_note(run: Run, step: model.NoteStep, env: Env) -> None:
    for target, template in step.notes:
        text = run.text(template, env)
        run.assign(target, text, env, step)
        run.emit("note", target=shown_target(target, env), text=to_state(text))


def exec_if(run: Run, step: model.IfStep, env: Env) -> None:
    if run.truth(step.test, env):
        run.block(step.then, env)
    elif step.otherwise:
        run.block(step.otherwise, env)


def exec_repeat(run: Run, step: model.RepeatStep, env: Env) -> None:
    run.loops.append(step)
    local = env.local
    try:
        if step.times is not None:
            n = run.number(step.times, env, "repeat times:")
            if step.max is not None:
                n = min(n, step.max)
            for i in range(n):
                if step.index:
                    local[step.index] = i + 1
                run.block(step.body, env)
            return
        bound = step.max
        for i in range(bound):
            if step.while_ is not None and not run.truth(step.while_, env):
                return
            if step.index:
                local[step.index] = i + 1
            run.block(step.body, env)
            if step.until is not None and run.truth(step.until, env):
                return
    finally:
        run.loops.pop()


def exec_for_each(run: Run, step: model.ForEachStep, env: Env) -> None:
    if step.group is not None:
        items = list(run.glob[step.group])
    else:
        value = run.value(step.source, env)
        if isinstance(value, Pool):
            items = value.faces
        elif isinstance(value, list):
            items = list(value)
        else:
            raise RuleError(f"for_each goes through a pool or a group, not {format_value(value)!r}",
                            step.where, step.path)
    run.loops.append(step)
    try:
        for item in items:
            env.local[step.var] = item
            run.block(step.body, env)
    finally:
        run.loops.pop()


def exec_call(run: Run, step: model.CallStep, env: Env) -> None:
    procedure = run.game.ruleset.procedures[step.procedure]
    if run.depth >= run.limits.max_call_depth:
        raise RuleError(f"calls nested more than {run.limits.max_call_depth} deep: {step.procedure!r} calls "
                        f"itself without end?", step.where, step.path)
    local = {name: run.value(formula, env) for name, formula in step.args}
    run.depth += 1
    result = None
    try:
        run.block(procedure.steps, Env(local, run.glob))
    except Return as ret:
        result = ret.value
    finally:
        run.depth -= 1
    if step.result:
        env.local[step.result] = result


def exec_return(run: Run, step: model.ReturnStep, env: Env) -> None:
    raise Return(run.value(step.value, env) if step.value is not None else None)


def exec_ask(run: Run, step: model.AskStep, env: Env) -> None:
    decision = build_decision(run, step, env)
    if run.answered < len(run.answers):
        value = run.answers[run.answered]
        run.answered += 1
        by = "person"
    elif run.auto:
        value = decision.check(to_answer(run.value(step.auto, env)))
        by = "auto"
    else:
        raise NeedDecision(decision)
    env.local[step.var] = Pool.of(value) if step.kind == "pick" else value
    run.emit("ask", decision=decision.to_json(), answer=value, by=by)


def to_answer(value):
    if isinstance(value, Pool):
        return value.faces
    return value


def build_decision(run: Run, step: model.AskStep, env: Env) -> Decision:
    prompt = run.text(step.prompt, env) if step.prompt is not None else step.var
    decision = Decision(id="/".join(map(str, step.path)), var=step.var, kind=step.kind, prompt=str(prompt),
                        who=str(run.text(step.who, env)) if step.who is not None else None)
    if isinstance(prompt, LocalText):
        decision.texts = dict(prompt.texts)
    if step.min is not None:
        decision.min = run.number(step.min, env, "min")
    if step.max is not None:
        decision.max = run.number(step.max, env, "max")
    if step.kind == "choice":
        decision.choices = step.choices
    elif step.kind == "pick":
        pool = run.value(step.source, env)
        decision.pool = tuple(pool.faces if isinstance(pool, Pool) else pool)
    if step.default is not None:
        decision.default = to_answer(run.value(step.default, env))
    if decision.min is not None and decision.max is not None and decision.min > decision.max:
        raise RuleError(f"this question has no valid answer (min {decision.min} is above max {decision.max})",
                        step.where, step.path)
    return decision


def exec_say(run: Run, step: model.SayStep, env: Env) -> None:
    if run.events is not None:
        run.emit("say", text=to_state(run.text(step.text, env)))


def exec_lookup(run: Run, step: model.LookupStep, env: Env) -> None:
    table = run.game.ruleset.tables[step.table]
    keys = []
    for formula in step.keys:
        value = run.value(formula, env)
        keys.append(value.total if isinstance(value, Pool) else value)
    row = table.find(keys)
    if row is None:
        shown = ", ".join(format_value(k) for k in keys)
        raise RuleError(f"no row of table {step.table!r} matches {shown} (add a row, or a default:)",
                        step.where, step.path)
    env.local[step.var] = row
    run.emit("lookup", table=step.table, key=[to_state(k) for k in keys], row={k: to_state(v) for k, v in row.items()})


def exec_move(run: Run, step: model.MoveStep, env: Env) -> None:
    source = run.read(step.source, env, step)
    target = run.read(step.target, env, step)
    floor = run.number(step.floor, env, "floor") if step.floor is not None else 0
    if step.count is not None:
        if type(source) is not int or type(target) is not int:
            raise RuleError("move count: moves between numbers of dice; use dice: to move faces between pools",
                            step.where, step.path)
        n = max(0, run.number(step.count, env, "count"))
        n = max(0, min(n, source - floor))
        run.assign(step.source, source - n, env, step)
        run.assign(step.target, target + n, env, step)
        run.emit("move", source=shown_target(step.source, env), target=shown_target(step.target, env), count=n)
        return
    faces = to_answer(run.value(step.dice, env))
    if isinstance(faces, int):
        faces = [faces]
    if not isinstance(source, list) or not isinstance(target, list):
        raise RuleError("move dice: moves faces between pools (lists of faces); use count: for numbers",
                        step.where, step.path)
    if Counter(faces) - Counter(source):
        raise RuleError(f"cannot move {format_value(faces)}: {'.'.join(step.source)} holds "
                        f"{format_value(source)}", step.where, step.path)
    keep_back = max(0, floor - (len(source) - len(faces)))
    moving = faces[: len(faces) - keep_back] if keep_back else list(faces)
    left = list(source)
    for face in moving:
        left.remove(face)
    run.assign(step.source, left, env, step)
    run.assign(step.target, list(target) + moving, env, step)
    run.emit("move", source=".".join(step.source), target=".".join(step.target), dice=moving)


def exec_mark(run: Run, step: model.MarkStep, env: Env) -> None:
    track = run.read(step.track, env, step)
    n = run.number(step.count, env, "count") if step.count is not None else 1
    _set_marked(track, track["marked"] + (-n if step.clear else n))
    run.emit("clear" if step.clear else "mark", track=shown_target(step.track, env), count=n,
             marked=track["marked"])


def exec_end(run: Run, step: model.EndStep, env: Env) -> None:
    if step.target == "game":
        raise EndGame(step.result)
    raise EndLevel(step.target)


EXECUTORS = {
    model.SetStep: exec_set, model.LetStep: exec_let, model.RollStep: exec_roll, model.NoteStep: exec_note,
    model.IfStep: exec_if, model.RepeatStep: exec_repeat, model.ForEachStep: exec_for_each,
    model.CallStep: exec_call, model.ReturnStep: exec_return, model.AskStep: exec_ask,
    model.SayStep: exec_say, model.LookupStep: exec_lookup, model.MoveStep: exec_move,
    model.MarkStep: exec_mark, model.EndStep: exec_end,
}
