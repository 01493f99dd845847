"""The lockstep backend of `dusk simulate`: thousands of games played at once, a row per game.

Every value of the games (state variables, entity fields, locals, loop counters) is a numpy
array with one row per game slot; a pool is a fixed-width array of small integers (0 an empty
slot). A step runs for the rows that reach it, through its kind's vector form (ruleset/steps/):
an `if` splits the rows by its test, a loop keeps a counter per row, a call gathers the rows that
make it into a fresh frame of locals. Formulas are evaluated by dice/vector.py, each function and
modifier by its registry entry's vector form. Games that end are retired from the arrays (their
report read once, for all of them together) and their slots take the next games, so the memory a
run needs is bounded by the batch size, not by the number of games.

The machine is built from the ruleset's parsed model, like the program writer (program.py) and
the loop machine (machine.py), whose order it follows: the values a game starts with (dice params
rolled, entities, state), setup:, the loop level's begin:, then rounds of the loop action, the
triggers and the end conditions, the level's finish:, its counter and its then: when it runs out.
vectorizable.py finds, before any game, the first construct of a ruleset that has no vector form.

The dice come from one numpy generator per range of games, seeded from the run's seed and the
range, so the same seed gives the same report however the ranges are shared among workers. They
differ from the untraced mode's dice by design: the two agree in distribution, not die for die.
"""

from __future__ import annotations

import numpy as np

from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.dice import vector
from ruleset_engine.dice.errors import DiceError
from ruleset_engine.dice.limits import DEFAULT_LIMITS
from ruleset_engine.dice.vector import VPool, Vectors, compact, rows_of
from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.steps import StepFailed

from .at_once import reads as at_once_reads
from .at_once import writes as at_once_writes
from .errors import BoundReached, RuleError
from .support import too_big
from .writer import _may_grow
from .vectorizable import STEP_KINDS, Unsupported, _all_formulas, refusal

BATCH = 4096          # game slots played at once
# ---- the values of the games --------------------------------------------------------------------


class Store:
    """One value for every game slot: numbers, true/false or texts (an array of `size` rows), or a
    pool (faces: size x width, 0 empty), with the dice it set aside when it is a local."""

    __slots__ = ("data", "aside", "keeps_aside")

    def __init__(self, keeps_aside: bool = False):
        self.data = None
        self.aside: Store | None = None
        self.keeps_aside = keeps_aside

    def put(self, rows, value, size: int) -> None:
        if isinstance(value, VPool):
            faces = value.faces
            if self.data is None:
                self.data = np.zeros((size, faces.shape[1]), vector.FACE)
            elif self.data.ndim != 2:
                raise StepFailed("a value that was a number is now a pool (the lockstep backend keeps one kind)")
            width = self.data.shape[1]
            if faces.shape[1] > width:
                # Wider than the store: cut empty columns at the end, or move each row's dice left.
                faces = faces[:, :width] if not faces[:, width:].any() else compact(faces)
                if faces.shape[1] > width:
                    grown = np.zeros((size, faces.shape[1]), vector.FACE)
                    grown[:, :width] = self.data
                    self.data = grown
                    width = faces.shape[1]
            self.data[rows, :faces.shape[1]] = faces
            if faces.shape[1] < width:
                self.data[rows, faces.shape[1]:] = 0
            if self.keeps_aside:
                if value.aside is not None:
                    if self.aside is None:
                        self.aside = Store()
                    self.aside.put(rows, value.aside, size)
                elif self.aside is not None:
                    self.aside.put(rows, vector.empty_pool(len(rows)), size)
            return
        if isinstance(value, np.ndarray):
            if self.data is None:
                self.data = np.zeros(size, value.dtype if value.dtype != np.int16 else np.int64)
        elif self.data is None:
            dtype = bool if type(value) is bool else np.int64 if type(value) is int else object
            self.data = np.zeros(size, dtype)
        if self.data.ndim != 1:
            raise StepFailed("a value that was a pool is now a number (the lockstep backend keeps one kind)")
        self.data[rows] = value

    def get(self, rows):
        if self.data.ndim == 2:
            aside = self.aside.get(rows) if self.aside is not None else None
            return VPool(self.data[rows], aside)
        return self.data[rows]


class Frame:
    """The locals of one call (or of the loop action, or a block outside any): a Store each, and
    the rows that returned (their steps after return: skip them) with what they gave back."""

    __slots__ = ("locals", "returned", "given")

    def __init__(self):
        self.locals: dict = {}
        self.returned = None
        self.given = None


class _Retire(Exception):
    pass


class Machine:
    """Plays the games of one range (start..stop-1) in lockstep and returns their Totals."""

    np = np

    def __init__(self, ruleset: model.Ruleset, params: dict, rng, size: int, run_limits, max_rounds: int):
        self.ruleset = ruleset
        self.params = params
        self.size = size
        self.rng = rng
        self.max_steps = run_limits.max_steps
        self.max_depth = run_limits.max_call_depth
        self.max_rounds = max_rounds
        self.values = Vectors(rng, self.name, DEFAULT_LIMITS.max_dice_rolled)
        self.globals: dict = {}                    # state variables, entity fields ("e.f"), dice params
        self.dice_params = {n for n, p in ruleset.params.items() if p.type == "dice"}
        self.frames: list[Frame] = [Frame()]
        self.alive = np.zeros(size, bool)
        self.result = np.full(size, -1, np.int64)
        self.results: list[str] = []
        self.rounds = np.zeros(size, np.int64)
        self.counter = np.zeros(size, np.int64)
        self.done = np.zeros(size, np.int64)
        self.gone = 0                              # rows that ended or returned so far: blocks refilter
        self.ended: list = []                      # rows that ended since the last retirement
        self.site = None                           # the formula or step being run, for errors
        self.depth = 0
        self.loops: list = []                      # the loop steps whose iterations are running
        # Steps each game ran in this action: step_all (run by all its games) + step_count[row] (by some);
        # step_bound, at least the most of them, is compared first (a sum: cheap).
        self.step_count = np.zeros(size, np.int64)
        self.step_all = self.step_bound = self.action_games = 0
        self.level = ruleset.loop[0]
        self.action = next(a for a in ruleset.actions.values() if a.plays_level)
        self.args = {k: p.default for k, p in self.action.params.items()}
        self.at_once = [(e, at_once_reads(e)) for e in ruleset.end if e.at_once]
        self.reads_loop = any(path[0] == "loop" for e in ruleset.end for path, _ in e.when.expr.names)
        # Locals keep what their pools set aside only when some formula reads it (aside(..)).
        self.reads_aside = any(dice_ast.reads_aside(f.expr.tree) for f in _all_formulas(ruleset))
        self.writes: dict = {}                     # id(step) -> what it may write (at_once.writes)
        self.texts = {name for name, initial in ruleset.state.items() if initial.text is not None}

    # ---- names, formulas
    def name(self, path, rows, span):
        head = path[0]
        frame = self.frames[-1]
        if head in frame.locals:
            return frame.locals[head].get(rows)
        if head == "params":
            if path[1] in self.dice_params:
                return self.globals["params." + path[1]].get(rows)
            return self.params[path[1]]
        if head == "loop":
            return (self.done if len(path) > 2 else self.counter)[rows]
        if head in self.ruleset.entities:
            return self.globals[f"{head}.{path[1]}"].get(rows)
        return self.globals[head].get(rows)

    def value(self, formula: model.Formula, rows):
        self.site = formula
        # Each formula is one evaluation (its limit of dice rolled), counted if it could pass it.
        self.values.begin(formula.expr._src.dice > self.values.max_dice_rolled)
        value = self.values.value(formula.expr.tree, rows)
        if isinstance(value, np.ndarray) and value.dtype.kind == "i" and len(value) and \
                _may_grow(formula.expr._src) and \
                (value.max() > vector.MAX_NUMBER or value.min() < -vector.MAX_NUMBER):
            # A number about to be kept, held to the limit of numbers where the untraced program holds
            # it (writer.py's number_checked, for a formula that may pass it): the first game past it
            # is named by its value.
            too_big(int(value[np.abs(value) > vector.MAX_NUMBER][0]))
        return value

    def number(self, formula, rows):
        value = self.value(formula, rows)
        return value.total() if isinstance(value, VPool) else value

    def truth(self, formula, rows):
        self.site = formula
        self.values.begin(formula.expr._src.dice > self.values.max_dice_rolled)
        value = self.values.truth(formula.expr.tree, rows)
        return value if isinstance(value, np.ndarray) else np.full(len(rows), bool(value))

    def pool_value(self, formula, rows) -> VPool:
        value = self.value(formula, rows)
        if isinstance(value, VPool):
            return value
        raise StepFailed("for_each goes through a pool here")

    def per_row(self, value, rows):
        return rows_of(value, len(rows))

    # ---- writing values
    def assign(self, target: tuple, rows, value) -> None:
        head = target[0]
        if len(target) == 1 and head in self.frames[-1].locals:
            self.frames[-1].locals[head].put(rows, value, self.size)
            return
        key = head if len(target) == 1 else f"{head}.{target[1]}"
        if head in self.texts:
            return          # a text nothing reads (refusal made sure)
        if isinstance(value, VPool) and value.aside is not None:
            value = VPool(value.faces)       # a pool is stored as its faces
        store = self.globals.get(key)
        if store is None:
            store = self.globals[key] = Store()
        store.put(rows, value, self.size)

    def bind(self, name: str, rows, value) -> None:
        frame = self.frames[-1]
        store = frame.locals.get(name)
        if store is None:
            store = frame.locals[name] = Store(keeps_aside=self.reads_aside)
        store.put(rows, value, self.size)

    # ---- running steps
    def running(self, rows):
        """The rows still playing this block: their game goes on, and they did not return."""
        if not len(rows):
            return rows
        keep = self.alive[rows]
        returned = self.frames[-1].returned
        if returned is not None:
            keep &= ~returned[rows]
        return rows[keep]

    def running_with(self, rows, column):
        """running(rows), with the values of `column` (one per row) that go with them."""
        keep = self.alive[rows]
        returned = self.frames[-1].returned
        if returned is not None:
            keep &= ~returned[rows]
        return rows[keep], column[keep]

    def block(self, steps, rows, loop=None, checked: bool = False) -> None:
        """Steps for the rows that reach them. They count against the limit of steps in one action
        as in the untraced program (writer.py's block), for each game that runs them: a game is
        stopped when it passes the limit, as it would be alone (`loop`: the loop step whose
        iteration this block is)."""
        if loop is not None:
            self.loops.append(loop)
        try:
            self._counted(steps, rows, checked)
            self._steps(steps, rows)
        finally:
            if loop is not None:
                self.loops.pop()

    def _counted(self, steps, rows, checked: bool) -> None:
        if not steps and not self.loops or not len(rows):
            return
        counted = max(1, len(steps))
        self.step_bound += counted
        if len(rows) == self.action_games:      # rows are some of the action's games: here, all of them
            self.step_all += counted
        else:
            self.step_count[rows] += counted
        if (checked or self.loops) and self.step_bound > self.max_steps and \
                self.step_all + self.step_count[rows].max() > self.max_steps:
            self.too_many(self.loops[-1] if self.loops else steps[0], bool(self.loops))

    def too_many(self, site, in_loop: bool) -> None:
        where = "in the loop here (a loop that never ends?)" if in_loop else \
            "here, in a procedure (one that calls itself without end?)"
        raise BoundReached(f"more than {self.max_steps:,} steps in one action; stopped {where}", site.where, site.path)

    def _steps(self, steps, rows) -> None:
        for step in steps:
            if not len(rows):
                return
            gone = self.gone
            self.site = step
            STEP_KINDS[type(step)].vector(self, step, rows)
            if self.at_once:
                self.check_at_once(step, rows)
            if self.gone != gone:
                rows = self.running(rows)

    def check_at_once(self, step, rows) -> None:
        written = self.writes.get(id(step), False)
        if written is False:
            written = self.writes[id(step)] = at_once_writes(step, self.ruleset)
        for ending, read in self.at_once:
            if written is None or written & read:
                live = self.running(rows)
                if len(live):
                    hit = self.truth(ending.when, live)
                    if hit.any():
                        self.end_game(live[hit], ending.result)

    def iterations(self, times, body: list, step, rows=None) -> None:
        """A loop whose number of iterations (`times`, one per row, or the most) is known as it starts:
        refused before its first one if they alone would take a game past the limit of steps (writer.py's
        iterations_checked). Without `rows`, counted from the busiest game."""
        steps = self.step_all + (self.step_count[rows] if rows is not None else self.step_count.max())
        if np.size(steps) and np.max(steps + np.asarray(times) * max(1, len(body))) > self.max_steps:
            self.too_many(step, True)

    def call(self, step, args: dict, rows) -> None:
        procedure = self.ruleset.procedures[step.procedure]
        if self.depth >= self.max_depth:
            raise BoundReached(f"calls nested more than {self.max_depth} deep: {step.procedure!r} calls itself "
                               f"without end?", step.where, step.path)
        frame = Frame()
        for name in procedure.params:
            store = frame.locals[name] = Store(keeps_aside=self.reads_aside)
            store.put(rows, args[name], self.size)
        self.frames.append(frame)
        self.depth += 1
        try:
            self.block(procedure.steps, rows, checked=True)
        finally:
            self.depth -= 1
            self.frames.pop()
        if step.result is not None:
            given = frame.given
            if given is None:
                raise StepFailed(f"the procedure {step.procedure!r} returned nothing for as: {step.result}")
            self.bind(step.result, rows, given.get(rows))

    def give_back(self, rows, value) -> None:
        frame = self.frames[-1]
        if frame.returned is None:
            frame.returned = np.zeros(self.size, bool)
        frame.returned[rows] = True
        if value is not None:
            if frame.given is None:
                frame.given = Store(keeps_aside=self.reads_aside)
            frame.given.put(rows, value, self.size)
        self.gone += 1

    def end_game(self, rows, result: str) -> None:
        rows = rows[self.alive[rows]]
        if not len(rows):
            return
        if result not in self.results:
            self.results.append(result)
        self.result[rows] = self.results.index(result)
        self.alive[rows] = False
        self.ended.append(rows)
        self.gone += 1

    def endings(self, rows) -> None:
        """The end conditions in order, for the rows still playing: the first that holds ends a game."""
        for ending in self.ruleset.end:
            rows = rows[self.alive[rows]]
            if not len(rows):
                return
            hit = self.truth(ending.when, rows)
            if hit.any():
                self.end_game(rows[hit], ending.result)

    # ---- a game's start, a round
    def start(self, rows) -> None:
        """The values the games start with, their setup:, the first iteration of the loop level."""
        ruleset = self.ruleset
        self.alive[rows] = True
        self.result[rows] = -1
        self.rounds[rows] = 0
        self.frames = [Frame()]
        self.step_count[:] = 0
        self.step_all = self.step_bound = 0
        self.action_games = len(rows)
        from ruleset_engine import dice
        for name in self.dice_params:
            text = str(self.params[name])
            formula = model.Formula(text, dice.compile(text), None, ("params", name))
            self.assign(("params", name), rows, self.number(formula, rows))
        for entity, spec in ruleset.entities.items():
            # Fields are written in order, each may read the ones before (as locals in the program).
            frame = Frame()
            self.frames.append(frame)
            try:
                for field, initial in spec.fields.items():
                    value = self.initial(initial, rows)
                    self.bind(field, rows, value)
                    self.assign((entity, field), rows, value)
            finally:
                self.frames.pop()
        for name, initial in ruleset.state.items():
            if initial.text is not None:
                continue
            self.assign((name,), rows, self.initial(initial, rows))
        self.block(ruleset.setup, rows)
        self.level_start(self.running(rows))
        self.endings(self.running(rows))

    def initial(self, initial: model.Initial, rows):
        if initial.pool is not None:
            return vector.pool_of(np.tile(np.array(initial.pool, np.int64), (len(rows), 1)))
        return self.value(initial.formula, rows)

    def run_done(self, rows):
        """The rows whose level has run all its iterations (times: read each time)."""
        level = self.level
        done = np.zeros(len(rows), bool)
        if level.times is not None:
            done |= self.counter[rows] > self.number(level.times, rows)
        if level.max is not None:
            done |= self.counter[rows] > level.max
        return done

    def level_start(self, rows) -> None:
        self.counter[rows] = 1
        self.done[rows] = 0
        self.level_begin(rows)

    def level_begin(self, rows) -> None:
        if not len(rows):
            return
        over = self.run_done(rows)
        if over.any():
            self.level_complete(rows[over])
            rows = rows[~over]
        if self.level.begin and len(rows):
            self.block(self.level.begin, rows)

    def level_complete(self, rows) -> None:
        self.counter[rows] = self.done[rows]
        if self.level.then:
            self.block(self.level.then, rows)
        self.end_game(rows, "done")

    def round(self, rows) -> None:
        """One round of the loop action for every game in rows, and what follows it."""
        self.rounds[rows] += 1
        if self.rounds[rows].max() > self.max_rounds:
            raise RoundLimitReached(self.max_rounds)
        frame = Frame()
        self.frames = [frame]
        self.step_count[:] = 0
        self.step_all = self.step_bound = 0
        self.action_games = len(rows)
        for name, value in self.args.items():
            self.bind(name, rows, value)
        self.block(self.action.steps, rows)
        self.frames = [Frame()]
        rows = rows[self.alive[rows]]
        for trigger in self.ruleset.triggers:
            if not len(rows):
                break
            hit = self.truth(trigger.when, rows)
            if hit.any():
                self.block(trigger.do, rows[hit])
                rows = rows[self.alive[rows]]
        self.endings(rows)
        rows = rows[self.alive[rows]]
        if not len(rows):
            return
        if self.level.finish:
            self.block(self.level.finish, rows)
            rows = rows[self.alive[rows]]
        self.done[rows] = self.counter[rows]
        self.counter[rows] += 1
        over = self.run_done(rows)
        if over.any():
            self.level_complete(rows[over])
            rows = rows[~over]
        if self.level.begin and len(rows):
            self.block(self.level.begin, rows)
        if self.level.begin or self.level.finish or self.reads_loop:
            self.endings(rows[self.alive[rows]])

    # ---- the games of a range
    def play(self, start: int, stop: int, totals) -> None:
        size = self.size
        free = np.arange(size)
        live = np.zeros(0, np.int64)
        games = stop - start
        begun = 0
        while True:
            wanted = min(len(free), games - begun)
            if wanted and (len(free) >= size // 2 or not len(live)):
                new, free = free[:wanted], free[wanted:]
                begun += wanted
                self.start(new)
                live = np.concatenate([live, new])
            if len(live):
                self.round(live)
            if self.ended:
                retired = np.concatenate(self.ended)
                self.ended = []
                self.retire(retired, totals)
                free = np.concatenate([free, retired])
                live = live[self.alive[live]]
            if not len(live) and begun == games:
                return

    def retire(self, rows, totals) -> None:
        """Finished games: their results, lengths and report values, added to the totals at once."""
        self.frames = [Frame()]
        report = {}
        for name, formula in self.ruleset.report.items():
            value = self.value(formula, rows)
            if isinstance(value, VPool):
                value = value.total()
            elif isinstance(value, np.ndarray) and value.dtype == object:
                raise StepFailed("a report gives a number (a pool gives its total) or true/false, not a text")
            report[name] = rows_of(value, len(rows))
        totals.add_many([self.results[i] for i in self.result[rows]], self.rounds[rows], report)


class RoundLimitReached(DuskError):
    def __init__(self, rounds: int):
        super().__init__(f"a game went past {rounds:,} rounds")


def play_range(ruleset: model.Ruleset, params: dict, seed: int, start: int, stop: int, totals, run_limits,
               max_rounds: int, batch: int = BATCH) -> None:
    """Games start..stop-1 in lockstep, added to `totals`; their dice drawn from a generator seeded
    by (seed, start). A rule that fails is a RuleError at its place."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed & (2**64 - 1), seed >> 64, start])))
    machine = Machine(ruleset, params, rng, min(batch, stop - start), run_limits, max_rounds)
    try:
        machine.play(start, stop, totals)
    except (RuleError, RoundLimitReached):
        raise
    except (DiceError, StepFailed, DuskError) as err:
        raise _located(err, machine.site) from None
    except Exception as err:     # a bug in dusk: said as one, at the place it happened
        raise RuleError(f"dusk failed here (a bug in dusk's lockstep backend, not in the ruleset): "
                        f"{type(err).__name__}: {err}", getattr(machine.site, "where", None),
                        getattr(machine.site, "path", ())) from None


def _located(err, site) -> RuleError:
    where, path = getattr(site, "where", None), getattr(site, "path", ())
    if isinstance(err, DiceError) and isinstance(site, model.Formula):
        err.located(site.text, err.span)
        return RuleError(err.message, where, path, err.caret_lines())
    return RuleError(getattr(err, "message", str(err)), where, path)


__all__ = ["Unsupported", "refusal", "play_range", "Machine", "BATCH", "STEP_KINDS", "_all_formulas"]
