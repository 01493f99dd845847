"""The lockstep backend of `dusk simulate`: thousands of games played at once, a row per game.

Every value of the games (state variables, entity fields, locals, loop counters) is a numpy
array with one row per game slot; a pool is a fixed-width array of small integers (vector.EMPTY an empty
slot). A step runs for the rows that reach it, through its kind's vector form (ruleset/steps/):
an `if` splits the rows by its test, a loop keeps a counter per row, a call gathers the rows that
make it into a fresh frame of locals. Formulas are evaluated by dice/vector.py, each function and
modifier by its registry entry's vector form. Games that end are retired from the arrays (their
report read once, for all of them together) and their slots take the next games, so the memory a
run needs is bounded by the batch size, not by the number of games.

The machine is built from the ruleset's parsed model, like the program writer (program.py): the
values a game starts with (dice params rolled, entities, state), setup:, then rounds of the loop
action, the triggers and the end conditions. The loop's levels move by the loop plan
(loop_plan.py), the one machine.py writes as lines: each op run here for the rows by its handler in RUN.
vectorizable.py finds, before any game, the first construct of a ruleset that has no vector form;
lockstep_values.py holds the values the machine keeps (stores, records, instances, tracks).

The dice come from one numpy generator per range of games, seeded from the run's seed and the
range, so the same seed gives the same report however the ranges are shared among workers. They
differ from the untraced mode's dice by design: the two agree in distribution, not die for die.
"""

from __future__ import annotations

import numpy as np

from ruleset_engine import i18n
from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.dice import vector
from ruleset_engine.dice.errors import DiceError
from ruleset_engine.dice.limits import DEFAULT_LIMITS
from ruleset_engine.dice.vector import VPool, Vectors, compact, distinct_rows, rows_of
from ruleset_engine.errors import DuskBug, DuskError
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.model import MAX_BOXES
from ruleset_engine.ruleset.pairs import PairFailed
from ruleset_engine.ruleset.templates import format_value
from ruleset_engine.ruleset.instance_names import name_key, no_instance_named
from ruleset_engine.ruleset.steps.instances import group_full, name_refusal, name_taken
from ruleset_engine.ruleset.templates import LocalText
from ruleset_engine.ruleset.steps import StepFailed
from ruleset_engine.ruleset import walk

from . import loop_plan
from .at_once import reads as at_once_reads
from .at_once import writes as at_once_writes
from .errors import BoundReached, RuleError
from .limits import game_too_long, nested_too_deep, too_many_steps
from .loop_plan import block_where, no_end_in_setup, no_end_inside
from . import lockstep_queries
from .lockstep_timers import Timers
from .lockstep_values import (Record, Ref, RefSet, RefSetStore, RefStore, Store, Track, _as_python, _assemble,
                              _by_instance, _key, _part, factorized,
                              _plain, _store_for)
from .support import auto_answer, decision, default_arg, default_choice, default_truth, fmt, group_size, plain_text
from .support import default_said, track_boxes
from .support import too_big
from .writer import _may_grow
from .vectorizable import STEP_KINDS, Unsupported, _all_formulas, refusal

# A game this many rounds long is told of (then at ten times as many, and so on): the rounds of the few
# long games left in a batch cost as much as those of a full one (~0.2 ms each measured, where the
# untraced backend plays a small ruleset's round in ~1 us), so a game near the limit of rounds takes minutes.
LONG_GAME = 10_000
BATCH = 32_768        # game slots played at once: a round costs ~1 ms whatever its games, so more slots
                      # spread it (4,096 -> 32,768 measured 1.5-2x on the two bundled games benchmarks/ times;
                      # peak ~70 MB and ~120 MB there: benchmarks/side_by_side.py)
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
    EMPTY = vector.EMPTY        # an empty slot of a pool

    def __init__(self, ruleset: model.Ruleset, params: dict, rng, size: int, run_limits, max_rounds: int):
        self.ruleset = ruleset
        self.params = params
        self.size = size
        self.rng = rng
        self.max_steps = run_limits.max_steps
        self.max_depth = run_limits.max_call_depth
        self.max_rounds = max_rounds
        self.values = Vectors(rng, self.name, DEFAULT_LIMITS.max_dice_rolled, formulas=ruleset.formulas,
                              records=self.pair_read, calls=lockstep_queries.calls(self))
        self.over: list = []        # (group, its field names, j): a query reading instance j (lockstep_queries)
        self.groups = lockstep_queries.Groups(self)     # a group read over its instances, for vector forms
        self.records: dict = {name: {} for name in ruleset.pairs}   # pair -> (i, j) -> field -> Store
        self.globals: dict = {}                    # state variables, entity fields ("e.f"), dice params
        self.dice_params = {n for n, p in ruleset.params.items() if p.type == "dice"}
        self.frames: list[Frame] = [Frame()]
        self.alive = np.zeros(size, bool)
        self.result = np.full(size, -1, np.int64)
        self.ending = np.full(size, -1, np.int64)  # the end condition that ended each game, or -1
        self.tallied = np.zeros(size, np.int64)    # the last iteration of the outermost level read (per:)
        self.per: dict = {name: {} for name in ruleset.tallies}   # name -> iteration -> [games, sum]
        self.results: list[str] = []
        self.rounds = np.zeros(size, np.int64)
        self.game = np.zeros(size, np.int64)      # the index of the game each slot plays (for its record)
        self.levels = ruleset.loop
        self.level_names = [level.name for level in ruleset.loop]
        self.counters = [np.zeros(size, np.int64) for _ in ruleset.loop]    # per level: the iteration played
        self.dones = [np.zeros(size, np.int64) for _ in ruleset.loop]       # per level: iterations done
        self.stopped = np.zeros(size, bool)        # rows an end: LEVEL took out of the action (or trigger)
        self.level_ended = np.full(size, -1, np.int64)   # the level a row's end: LEVEL ended this round
        self.no_level = None                       # where no iteration runs (setup:, a level's block), or None
        self.gone = 0                              # rows that ended or returned so far: blocks refilter
        self.ended: list = []                      # rows that ended since the last retirement
        self.site = None                           # the formula or step being run, for errors
        self.step = None                           # the step being run (a number it computes is placed there)
        self.depth = 0
        self.loops: list = []                      # the loop steps whose iterations are running
        # Steps each game ran in this action: step_all (run by all its games) + step_count[row] (by some);
        # step_bound, at least the most of them, is compared first (a sum: cheap).
        self.step_count = np.zeros(size, np.int64)
        # Steps each game ran in all, its rounds before this one (run_limits.max_game_steps).
        self.game_steps = np.zeros(size, np.int64)
        self.max_game_steps = run_limits.max_game_steps
        self.last_rows = None
        self.step_all = self.step_bound = self.action_games = 0
        self.on_long = None                        # told(rounds) as a game passes long_from rounds (and x10)
        self.long_from = LONG_GAME
        self.action = next(a for a in ruleset.actions.values() if a.plays_level)
        params = self.action.params.values()
        self.args = {p.name: p.default for p in params if not isinstance(p.default, model.Formula)}
        self.read_args = [p for p in params if isinstance(p.default, model.Formula)]   # read each round
        self.at_once = [(e, at_once_reads(e)) for e in ruleset.end if e.at_once]
        self.timers = Timers(self)                 # set: with until: (lockstep_timers.py)
        timed = bool(walk.timed_steps(ruleset))
        self.plan = loop_plan.plan(ruleset, timed=timed)
        # Locals keep what their pools set aside only when some formula reads it (aside(..)).
        self.reads_aside = any(dice_ast.reads_aside(f.expr.tree) for f in _all_formulas(ruleset))
        self.writes: dict = {}                     # id(step) -> what it may write (at_once.writes)
        from .vectorizable import _read_names
        self.read_names = _read_names(ruleset)     # the heads of the names formulas read (notes: only those)
        from .vectorizable import unread_locals
        self.unread_locals = unread_locals(ruleset, self.read_names)   # id(step) -> what its let:/set: keeps not
        from .vectorizable import fields_read
        self.fields_read = fields_read(ruleset)    # a lookup:'s columns some expression reads (steps/places.py)
        self.counts = {name: np.zeros(size, np.int64) for name, spec in ruleset.entities.items() if spec.is_group}
        self.brought: tuple = ()                   # sheets the run brought (play_range sets them)
        self.last_value = None      # the value the last formula gave, held to the limit of numbers already

    # ---- names, formulas
    def name(self, path, rows, span):
        head = path[0]
        for group, own, j in reversed(self.over):       # inside a query: a field's name alone is the instance's
            if head in own:
                return self.instance_value(Ref(group, np.full(len(rows), j, np.int64)), path, rows)
        frame = self.frames[-1]
        if head in frame.locals:
            store = frame.locals[head]
            if isinstance(store, (RefStore, RefSetStore)):
                ref = store.get(rows)
                return ref if len(path) == 1 else self.instance_value(ref, path[1:], rows)
            if isinstance(store, Record):
                if len(path) < 2:
                    raise StepFailed(i18n._("{head} is a record: read its fields, {head}.NAME").format(head=head))
                return store.field(path[1], rows)
            return store.get(rows)
        if head == "params":
            if path[1] in self.dice_params:
                return self.globals["params." + path[1]].get(rows)
            return self.params[path[1]]
        if head == "loop":
            i = self.level_names.index(path[1])
            return (self.dones[i] if len(path) > 2 else self.counters[i])[rows]
        if head in self.ruleset.entities:
            if len(path) == 1:          # the entity itself, passed on (a parameter holds it)
                return Ref(head, np.full(len(rows), -1, np.int64))
            if path[1] == "name" and f"{head}.name" not in self.globals:
                return head
            store = self.globals[f"{head}.{path[1]}"]
            if isinstance(store, Track):
                if len(path) < 3:
                    raise StepFailed(i18n._("{head}.{track} is a track: read its numbers ({head}.{track}.marked, "
                                            "..)").format(head=head, track=path[1]))
                return store.read(path[2], rows)
            return store.get(rows)
        return self.globals[head].get(rows)

    def value(self, formula: model.Formula, rows):
        self.site = formula
        # Each formula is one evaluation (its limit of dice rolled), counted if it could pass it.
        self.values.begin(formula.expr._src.dice > self.values.max_dice_rolled, formula.text)
        value = self.values.value(formula.expr.tree, rows)
        # Held to the limit of numbers where the untraced program holds it (writer.py's
        # number_checked, for a formula that may pass it).
        value = self.kept(value) if _may_grow(formula.expr._src) else value
        self.last_value = value         # within the limit: assign need not check it again
        return value

    @staticmethod
    def kept(value):
        """A number about to be kept, held to the limit of numbers (2^53): the first game past it is
        named by its value. A step's vector form that computes a number itself keeps it through this."""
        if isinstance(value, np.ndarray) and value.dtype.kind == "i" and len(value) and \
                (value.max() > vector.MAX_NUMBER or value.min() < -vector.MAX_NUMBER):
            too_big(int(value[np.abs(value) > vector.MAX_NUMBER][0]))
        return value

    def number(self, formula, rows):
        value = self.value(formula, rows)
        return value.total() if isinstance(value, VPool) else value

    def truth(self, formula, rows):
        self.site = formula
        self.values.begin(formula.expr._src.dice > self.values.max_dice_rolled, formula.text)
        value = self.values.truth(formula.expr.tree, rows)
        return value if isinstance(value, np.ndarray) else np.full(len(rows), bool(value))

    def pool_value(self, formula, rows) -> VPool:
        value = self.value(formula, rows)
        if isinstance(value, VPool):
            return value
        raise StepFailed(i18n._("for_each goes through a pool here"))

    def read(self, target: tuple, rows):
        """What a step's place (a state variable, a local, an entity's field) holds for the rows."""
        return self.name(target, rows, None)

    @staticmethod
    def is_pool(value) -> bool:
        return isinstance(value, VPool)

    def as_pool(self, value, rows) -> VPool:
        """A pool, or a face (a number) as a pool of one die."""
        if isinstance(value, VPool):
            return value
        return vector.pool_of(self.per_row(value, rows)[:, None])

    @staticmethod
    def pool(faces, kinds=None) -> VPool:
        """A pool of these faces (each row's dice in order; empty slots anywhere): compacted (with
        `kinds`, each die's kind moved with it)."""
        if kinds is None:
            return VPool(compact(faces))
        faces, kinds = compact(faces, kinds)
        return VPool(faces, None, kinds)

    def per_row(self, value, rows):
        return rows_of(value, len(rows))

    # ---- writing values
    def assign(self, target: tuple, rows, value) -> None:
        # Held to the limit of numbers where it is stored, as FunctionWriter.assign holds it: a
        # step's vector form that computes a number (move:'s sums) cannot keep one past it. A formula's
        # value is within it already, so one past it was computed by the step: placed at the step.
        if isinstance(value, np.ndarray) and value.dtype.kind == "i" and value is not self.last_value:
            site, self.site = self.site, self.step
            self.kept(value)
            self.site = site
        head = target[0]
        if len(target) == 1 and head in self.frames[-1].locals:
            self.frames[-1].locals[head].put(rows, value, self.size)
            return
        if len(target) > 1 and isinstance(self.frames[-1].locals.get(head), RefStore):
            ref = self.frames[-1].locals[head].get(rows)
            for j, part, positions in _by_instance(ref, rows):
                self.assign((_key(ref.group, j, None), target[1]), part, _part(value, positions))
            return
        key = head if len(target) == 1 else f"{head}.{target[1]}"
        if isinstance(value, VPool) and value.aside is not None:
            value = value.plain()       # a pool is stored as its faces (and their kinds)
        store = self.globals.get(key)
        if store is None:
            store = self.globals[key] = Store()
        store.put(rows, value, self.size)

    def bind(self, name: str, rows, value) -> None:
        frame = self.frames[-1]
        store = frame.locals.get(name)
        if store is None or isinstance(store, Record) != isinstance(value, dict) or \
                isinstance(store, RefStore) != isinstance(value, Ref) or \
                isinstance(store, RefSetStore) != isinstance(value, RefSet):
            store = frame.locals[name] = _store_for(value, self.reads_aside, self.size)
        store.put(rows, value, self.size)

    # ---- running steps
    def running(self, rows):
        """The rows still playing this block: their game goes on, and they did not return."""
        if not len(rows):
            return rows
        keep = self.alive[rows] & ~self.stopped[rows]
        returned = self.frames[-1].returned
        if returned is not None:
            keep &= ~returned[rows]
        return rows[keep]

    def running_with(self, rows, column):
        """running(rows), with the values of `column` (one per row) that go with them."""
        keep = self.alive[rows] & ~self.stopped[rows]
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
        raise BoundReached(too_many_steps(self.max_steps, in_loop), site.where, site.path)

    def _steps(self, steps, rows) -> None:
        for step in steps:
            if not len(rows):
                return
            gone = self.gone
            self.site = self.step = step
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
                        self.end_game(live[hit], ending.result, ending)

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
            raise BoundReached(nested_too_deep(self.max_depth, step.procedure), step.where, step.path)
        frame = Frame()
        for name in procedure.params:
            store = frame.locals[name] = _store_for(args[name], self.reads_aside, self.size)
            store.put(rows, args[name], self.size)
        self.frames.append(frame)
        self.depth += 1
        try:
            self.block(procedure.steps, rows, checked=True)
        finally:
            self.depth -= 1
            self.frames.pop()
        if step.result is not None:
            rows = self.running(rows)       # not the games that ended, nor left the action (end: LEVEL)
            if not len(rows):
                return
            given = frame.given
            if given is None:
                raise StepFailed(i18n._("the procedure {procedure} returned nothing for as: {result}").format(
                                     procedure=repr(step.procedure), result=step.result))
            self.bind(step.result, rows, given.get(rows))

    def give_back(self, rows, value) -> None:
        frame = self.frames[-1]
        if frame.returned is None:
            frame.returned = np.zeros(self.size, bool)
        frame.returned[rows] = True
        if value is not None:
            if frame.given is None:
                frame.given = _store_for(value, self.reads_aside, self.size)
            frame.given.put(rows, value, self.size)
        self.gone += 1

    def end_level(self, rows, name: str) -> None:
        """end: LEVEL: these rows leave the action (or trigger) being run; once it and the triggers
        are over, that level's iteration ends (the first level ended in a round is the one)."""
        if self.no_level is not None:
            raise StepFailed(self.no_level(name))
        rows = self.running(rows)
        if not len(rows):
            return
        self.stopped[rows] = True
        first = rows[self.level_ended[rows] < 0]
        self.level_ended[first] = self.level_names.index(name)
        self.gone += 1

    def end_game(self, rows, result: str, ending=None) -> None:
        """These games are over with this result (`ending`: the end condition that ended them, whose
        value: retire reads: nothing changes a game once it is over)."""
        rows = rows[self.alive[rows]]
        if not len(rows):
            return
        if result not in self.results:
            self.results.append(result)
        self.result[rows] = self.results.index(result)
        self.ending[rows] = -1 if ending is None else self.ruleset.end.index(ending)
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
                self.end_game(rows[hit], ending.result, ending)

    # ---- texts (a text question's answer, a name, a note a formula reads): rendered per game
    def render(self, template, rows):
        """A template for each game: its placeholders evaluated for all the games at once, the
        pieces joined per game as the untraced program joins them (support.plain_text, fmt)."""
        n = len(rows)
        if template.is_constant and len(template.parts) == 1:       # the same words for every game
            out = np.empty(n, object)
            out[:] = "".join(next(iter(template.parts.values())))
            return out
        texts = {}
        for lang, parts in template.parts.items():
            columns = []
            for part in parts:
                if isinstance(part, str):
                    columns.append(part)
                    continue
                self.site = template
                self.values.text = getattr(part, "text", None)      # what a call's message quotes
                value = self.values.value(part.tree, rows)
                columns.append(factorized(value, n))
            literal = [isinstance(c, str) for c in columns]     # a value that is a text may show as its label
            words = self.ruleset.words
            write = plain_text if template.plain else \
                (lambda p, lang=lang, literal=literal: "".join(
                    x if lit else fmt(x, lang, words) for x, lit in zip(p, literal)))
            texts[lang] = _each_once(write, columns, n)
        out = np.empty(n, object)
        if len(texts) == 1:
            out[:] = next(iter(texts.values()))
        else:
            langs = list(texts)
            for i in range(n):
                out[i] = LocalText({lang: str(texts[lang][i]) for lang in langs})
        return out

    # ---- questions, answered by auto: (steps/people.py's vector_ask)
    def answers(self, step, rows, auto, low, high, pool):
        """Each game's auto: answer, checked as a person's answer is (support.auto_answer on the
        question support.decision puts), once for each distinct answer with its bounds and pool:
        a few checks however many games. The first that fails stops the run, with its message."""
        n = len(rows)
        if step.kind == "pick":
            if not isinstance(auto, VPool):
                auto = vector.pool_of(self.per_row(auto, rows)[:, None])
            faces, kinds = compact(auto.faces, auto.kinds_or_none())      # the dice picked, kinds and all
            parts = [np.sort(faces, axis=1), np.sort(compact(pool.faces), axis=1)]
        else:
            faces = None
            value = auto.total() if isinstance(auto, VPool) else self.per_row(auto, rows)
            parts = [value]
            if isinstance(auto, VPool):
                parts = [np.full(n, None, object)]          # a pool answers no number, choice or yes/no
        for bound in (low, high):
            if bound is not None:
                parts.append(bound)
        if all(p.dtype.kind in "biu" for p in parts):
            table = np.concatenate([p.reshape(n, -1).astype(np.int64) for p in parts], axis=1)
            first, inverse = distinct_rows(table)
        else:       # texts (a choice): grouped by their values, in the order the games first give them
            first, inverse = distinct_rows(np.stack([codes for codes, _ in (factorized(p, n) for p in parts)],
                                                    axis=1))
            order = np.argsort(first, kind="stable")
            rank = np.empty(len(first), np.int64)
            rank[order] = np.arange(len(first))
            first, inverse = first[order], rank[inverse]
        answered = [self.one_answer(step, rows, int(i), auto, faces, low, high, pool) for i in first]
        if step.kind == "pick":
            return VPool(faces, None, kinds if auto.kinds is not None else None)
        if all(type(a) is int for a in answered):
            return np.array(answered, np.int64)[inverse]
        if all(type(a) is bool for a in answered):
            return np.array(answered, bool)[inverse]
        return np.array(answered, object)[inverse]

    def one_answer(self, step, rows, i, auto, faces, low, high, pool):
        """Game i's answer, as the untraced program checks it (the same question, the same message)."""
        lo = None if low is None else int(low[i])
        hi = None if high is None else int(high[i])
        if step.kind == "text":
            lo, hi = step.min, step.max         # lengths, fixed when the ruleset loads
        given = tuple(int(f) for f in pool.faces[i] if f != vector.EMPTY) if pool is not None else ()
        asked = decision("/".join(map(str, step.path)), step.var, step.kind, step.var, None, lo, hi, step.choices,
                         given, None)
        if step.kind == "pick":
            value = tuple(int(f) for f in faces[i] if f != vector.EMPTY)
        elif isinstance(auto, VPool):
            value = tuple(int(f) for f in auto.faces[i] if f != vector.EMPTY)   # a pool, which no such question takes
        else:
            value = _plain(self.per_row(auto, rows)[i])
        self.site = step
        return auto_answer(asked, value)

    # ---- a game's start, a round
    def start(self, rows) -> None:
        """The values the games start with, their setup:, the first iteration of the loop level."""
        ruleset = self.ruleset
        self.alive[rows] = True
        self.timers.forget(rows)
        self.result[rows] = -1
        self.ending[rows] = -1
        self.tallied[rows] = 0
        self.rounds[rows] = 0
        self.game_steps[rows] = 0
        self.frames = [Frame()]
        self.step_count[:] = 0
        self.step_all = self.step_bound = 0
        self.action_games = len(rows)
        from ruleset_engine import dice
        for name in self.dice_params:
            text = str(self.params[name])
            formula = model.Formula(text, dice.compile(text), None, ("params", name))
            self.assign(("params", name), rows, self.number(formula, rows))
        for name, records in self.records.items():      # a new game's records read their defaults
            for record in records.values():
                for field, default in ruleset.pairs[name].fields.items():
                    record[field].put(rows, default, self.size)
        for entity, spec in ruleset.entities.items():
            if spec.is_group:
                self.start_group(entity, spec, rows)
                continue
            # Fields are written in order, each may read the ones before (as locals in the program).
            frame = Frame()
            self.frames.append(frame)
            try:
                for field, initial in spec.fields.items():
                    value = self.initial(initial, rows)
                    self.bind(field, rows, value)
                    self.assign((entity, field), rows, value)
                for name, track in spec.tracks.items():
                    self.start_track(entity, name, track, rows)
            finally:
                self.frames.pop()
        for name, initial in ruleset.state.items():
            if initial.text is not None and name not in self.read_names:
                continue        # a text only shown: a simulation shows none (as a note nothing reads)
            self.assign((name,), rows, self.initial(initial, rows))
        self.level_block(ruleset.setup, rows, no_end_in_setup)
        self.run_plan(self.plan.start[0], rows[self.alive[rows]])
        self.endings(rows[self.alive[rows]])

    def start_group(self, entity: str, spec, rows) -> None:
        """A group's instances as a game starts: count: read per game (support.group_size's bounds)."""
        n = self.per_row(self.number(spec.count, rows), rows)
        if (n > spec.most).any():
            self.site = spec.count
            group_size(int(n[np.flatnonzero(n > spec.most)[0]]), entity, spec.most)
        n = np.maximum(0, n)
        self.counts[entity][rows] = n
        for j in range(int(n.max()) if len(n) else 0):
            self.make_instances(entity, spec, rows[n > j], j)
        if spec.sheet is not None:
            # The ruleset's sheets, then those the run brought (a brought sheet takes the place of the
            # ruleset's of its name), as support.add_sheets makes them.
            brought = tuple(s for s in self.brought if s.group == entity)
            replaced = {name_key(s.name) for s in brought}
            for sheet in tuple(s for s in spec.sheet.sheets if name_key(s.name) not in replaced) + brought:
                self.add_sheet(entity, spec, sheet, rows)

    def add_sheet(self, entity: str, spec, sheet, rows) -> None:
        """One of the ruleset's sheets as an instance of every game, after those count: made
        (support.add_sheets: the group's fields, then the sheet's, its tracks marked as it says)."""
        count = self.counts[entity]
        made = count[rows].copy()
        wanted = name_key(sheet.name)
        for j in range(int(made.max()) if len(rows) else 0):
            mine = rows[made > j]
            held = self.instance_value(Ref(entity, np.full(len(mine), j, np.int64)), ("name",), mine)
            # Each name the games hold, compared once (not once per game: a batch holds the same few).
            if any(name_key(x) == wanted for x in set(held.tolist() if isinstance(held, np.ndarray) else held)):
                self.site = spec.count
                raise StepFailed(i18n._("the sheet {sheet}: the group {entity} has an instance named {name} "
                                        "already").format(
                                     sheet=sheet.file or sheet.name, entity=repr(entity), name=repr(sheet.name)))
        if (made >= spec.most).any():
            self.site = spec.count
            raise StepFailed(i18n._("the sheet {sheet}: the group {entity} holds {most} already").format(
                                 sheet=sheet.file or sheet.name, entity=repr(entity), most=i18n.number(spec.most)))
        for j in np.unique(made):
            part = rows[made == j]
            key = f"{entity}#{int(j)}"
            # The group's fields the sheet gives are kept as the sheet's only (read as the group's by the
            # fields after them, as support.add_sheets makes them).
            self.make_instances(entity, spec, part, int(j), name=sheet.name,
                                given={field for field, _ in sheet.fields})
            for field, value in sheet.fields:
                if isinstance(value, (list, tuple)):        # a pool a sheet writes
                    value = vector.pool_of(np.tile(np.array(value, np.int64), (len(part), 1)))
                self.assign((key, field), part, value)
            for track, kind, n in sheet.marks:
                self.globals[f"{key}.{track}"].mark(part, n, kind, False)
        count[rows] = made + 1

    def start_track(self, entity: str, name: str, spec, rows) -> None:
        key = f"{entity}.{name}"
        track = self.globals.get(key)
        if track is None:
            track = self.globals[key] = Track(spec, self.size)
        size = len(spec.labels)
        if spec.size is not None:      # boxes: a formula, 1 to MAX_BOXES (support.track_boxes says so)
            size = self.per_row(self.number(spec.size, rows), rows)
            bad = (size < 1) | (size > MAX_BOXES)
            if bad.any():
                track_boxes(int(size[np.flatnonzero(bad)[0]]), i18n._("{entity}.{track}: boxes {formula}").format(
                                                                   entity=entity, track=name, formula=spec.size.text))
        track.start(rows, size)

    def mark_track(self, target: tuple, rows, n, type_, clear: bool) -> None:
        """mark:/clear: on ENTITY.TRACK, or on the track of a group's instance (a local)."""
        store = self.frames[-1].locals.get(target[0])
        if isinstance(store, RefStore):
            ref = store.get(rows)
            for j, part, positions in _by_instance(ref, rows):
                self.globals[_key(ref.group, j, target[1])].mark(part, _part(n, positions), type_, clear)
            return
        self.globals[".".join(target)].mark(rows, n, type_, clear)

    # ---- groups: each instance's fields kept apart, a game's count of instances per group
    def instance_value(self, ref: Ref, rest: tuple, rows):
        """INSTANCE.FIELD (or .TRACK.NUMBER, or .index) for each game, from its own instance."""
        parts = []
        for j, part, positions in _by_instance(ref, rows):
            if rest[0] == "index" and j >= 0:
                value = j + 1
            elif rest[0] == "name" and j < 0 and f"{ref.group}.name" not in self.globals:
                value = ref.group
            else:
                store = self.globals[_key(ref.group, j, rest[0])]
                if isinstance(store, Track):
                    if len(rest) < 2:
                        raise StepFailed(i18n._("{track} is a track: read its numbers ({track}.marked, ..)").format(
                                             track=rest[0]))
                    value = store.read(rest[1], part)
                else:
                    value = store.get(part)
            parts.append((positions, value))
        return _assemble(len(rows), parts)

    def make_instances(self, entity: str, spec, rows, first, name=None, given=frozenset()) -> None:
        """Instance `first` (an index from 0, the same for these rows) of a group: its fields in
        order, each reading index and the fields before it as locals, then its tracks (`given`: the
        fields the caller writes next, a sheet's, evaluated and read here but not kept)."""
        frame = Frame()
        self.frames.append(frame)
        try:
            self.bind("index", rows, first + 1)
            if name is None:
                name = self.render(spec.names, rows) if spec.names is not None else f"{entity} {first + 1}"
            self.bind("name", rows, name)
            self.assign((f"{entity}#{first}", "name"), rows, name)
            for field, initial in spec.fields.items():
                value = self.initial(initial, rows)
                self.bind(field, rows, value)
                if field not in given:
                    self.assign((f"{entity}#{first}", field), rows, value)
            for name, track in spec.tracks.items():
                self.start_track(f"{entity}#{first}", name, track, rows)
        finally:
            self.frames.pop()

    def create(self, step, rows, values: list) -> None:
        """create: a new instance per game, at the end of its group (instances.create_instance's
        checks: the group's max, a name of words on one line, a name no other instance has)."""
        entity = step.entity
        spec = self.ruleset.entities[entity]
        count = self.counts[entity]
        name = self.render(step.name, rows) if step.name is not None else None
        self.site = step
        full = count[rows] >= spec.most
        if full.any():
            raise StepFailed(group_full(entity, spec.most))
        if name is not None:
            # Games name their instances alike: each distinct name checked once (the first game's first).
            codes, distinct = factorized(name, len(name))
            kept = np.empty(len(distinct), object)
            for k in _first_seen(codes):
                text = distinct[k]
                given = str(text).strip()
                refused = name_refusal(given, entity)
                if refused:                                 # the rule create_instance keeps
                    raise StepFailed(refused)
                kept[k] = LocalText(text.texts) if isinstance(text, LocalText) else given
            name = kept[codes]
        made = count[rows].copy()
        for j in np.unique(made):
            part = made == j
            j = int(j)
            given = name[part] if name is not None else None
            self.make_instances(entity, spec, rows[part], j, given)
            taken = _name_keys(self.instance_value(Ref(entity, np.full(int(part.sum()), j)), ("name",), rows[part]))
            for k in range(j):
                other = self.instance_value(Ref(entity, np.full(int(part.sum()), k)), ("name",), rows[part])
                same = _name_keys(other) == taken
                if same.any():
                    self.site = step
                    raise StepFailed(name_taken(entity, other[int(np.flatnonzero(same)[0])]))
            for field, value in values:
                self.assign((f"{entity}#{j}", field), rows[part], _part(value, part))
        count[rows] = made + 1
        if step.var is not None:
            self.bind(step.var, rows, Ref(entity, made))

    # ---- records between two instances (pairs:): a Store per field, for each pair written so far
    def pair_keys(self, name: str, a, b, rows, span=None):
        """(i, j, the rows of that pair, their positions in rows) for each pair of instances the
        games name (pairs.pair_key's checks: two different instances of the group; i < j unless
        ordered)."""
        spec = self.ruleset.pairs[name]
        a, b = (self.named_instance(x, spec.between, rows, name, span) for x in (a, b))
        for x in (a, b):
            if not isinstance(x, Ref) or x.group != spec.between:
                raise PairFailed(i18n._("{name}(..) joins two instances of its group, not {value}").format(
                                     name=name, value=format_value(_plain(x)))
                                 if not isinstance(x, Ref) else
                                 i18n._("{name}(..) joins two instances of its group, not an instance of "
                                        "{group}").format(name=name, group=x.group),
                                 span=span)
        i, j = a.index, b.index
        if not spec.ordered:
            i, j = np.minimum(i, j), np.maximum(i, j)
        same = i == j
        if same.any():
            k = int(np.flatnonzero(same)[0])
            shown = self.instance_value(Ref(spec.between, i[k:k + 1]), ("name",), rows[k:k + 1])[0]
            raise PairFailed(i18n._("{name}(..) joins two different instances, not {shown} with itself").format(
                                 name=name, shown=repr(str(shown))), span=span)
        if (i == i[0]).all() and (j == j[0]).all():
            return [(int(i[0]), int(j[0]), rows, slice(None))]
        pairs = np.stack([i, j], axis=1)
        first, inverse = distinct_rows(pairs)
        out = []
        for k, at in enumerate(first):
            mask = inverse == k
            out.append((int(i[at]), int(j[at]), rows[mask], mask))
        return out

    def named_instance(self, x, group: str, rows, pair: str, span=None):
        """An instance given by its name (a text, per game), as pairs._index reads it (the name as
        written, instance_names.instance_named); else x."""
        if isinstance(x, str) or isinstance(x, np.ndarray) and x.dtype == object:
            names = rows_of(x, len(rows))
            index = self.find_named(names, group, rows)
            if (index < 0).any():
                missing = names[np.flatnonzero(index < 0)[0]]
                raise PairFailed(no_instance_named(missing, f"{pair}(..)"), span=span)
            return Ref(group, index)
        return x

    def find_named(self, names, group: str, rows):
        """The index of the instance of the group each game's name names (the name as written, as
        instance_names.instance_named reads it), -1 where none has it."""
        index = np.full(len(rows), -1, np.int64)
        count = self.counts[group][rows]
        for j in range(int(count.max()) if len(rows) else 0):
            held = self.instance_value(Ref(group, np.full(len(rows), j, np.int64)), ("name",), rows)
            index[(index < 0) & (count > j) & (held == names)] = j
        return index

    def first_value(self, value, rows):
        """The first game's value, as the untraced program holds it (an instance: its name), for a message."""
        if isinstance(value, Ref):
            one = value.take(slice(0, 1))
            return value.group if one.index[0] < 0 else self.instance_value(one, ("name",), rows[:1])[0]
        if isinstance(value, RefSet):
            return value.group
        return _as_python(value, len(rows))[0] if len(rows) else None

    def pair_read(self, name: str, a, b, field: str, rows, span):
        defaults = self.ruleset.pairs[name].fields
        parts = []
        for i, j, part, positions in self.pair_keys(name, a, b, rows, span):
            record = self.records[name].get((i, j))
            parts.append((positions, record[field].get(part) if record is not None else defaults[field]))
        return _assemble(len(rows), parts)

    def pair_write(self, name: str, a, b, values: list, rows) -> None:
        """pair: the fields of each game's record (made from the defaults the first time)."""
        defaults = self.ruleset.pairs[name].fields
        everyone = np.arange(self.size)
        for i, j, part, positions in self.pair_keys(name, a, b, rows):
            record = self.records[name].get((i, j))
            if record is None:
                record = self.records[name][(i, j)] = {}
                for field, default in defaults.items():
                    record[field] = Store()
                    record[field].put(everyone, default, self.size)
            for field, value in values:
                record[field].put(part, _part(value, positions), self.size)

    def each_instance(self, step, rows) -> None:
        """for_each over a group: instance j for the games that have one, then j + 1, ...; with
        where: or by:, each game's own instances in its own order (ordered_instances)."""
        count = self.counts[step.group]
        if step.only is not None or step.by:
            order, chosen = self.ordered_instances(step, rows)
            for k in range(order.shape[1]):
                live, index = self.running_with(rows[chosen > k], order[chosen > k, k])
                if len(live):
                    self.bind(step.var, live, Ref(step.group, index))
                    self.block(step.body, live, loop=step)
            return
        unread = step.var in self.unread_locals.get(id(step), ())     # nothing the games play reads it
        for j in range(int(count[rows].max()) if len(rows) else 0):
            live = self.running(rows[count[rows] > j])
            if len(live):
                if not unread:
                    self.bind(step.var, live, Ref(step.group, np.full(len(live), j, np.int64)))
                self.block(step.body, live, loop=step)

    def ordered_instances(self, step, rows):
        """What control.ordered gives each game, read before the first iteration as it reads it: the
        instances that meet where: (all without it), in the order of the scores of by: (the first
        score, ties to the next, ties left in the group's order; highest first unless first: lowest).
        Gives (order: rows x instances, each game's chosen instances first; chosen: how many)."""
        count = self.counts[step.group][rows]
        most = int(count.max()) if len(rows) else 0
        keep = np.zeros((len(rows), most), bool)
        scores = [np.zeros((len(rows), most), np.int64) for _ in step.by]
        for j in range(most):
            has = np.flatnonzero(count > j)
            part = rows[has]
            self.bind(step.var, part, Ref(step.group, np.full(len(part), j, np.int64)))
            met = self.truth(step.only, part) if step.only is not None else np.ones(len(part), bool)
            keep[has, j] = met
            for column, score in zip(scores, step.by):
                column[has, j] = self.per_row(self.number(score, part), part)
        sign = 1 if step.lowest_first else -1
        # np.lexsort sorts by its last key first: those left out last, then each score, then the index.
        keys = [np.broadcast_to(np.arange(most), keep.shape)] + [sign * c for c in reversed(scores)] + [~keep]
        order = np.lexsort(keys, axis=1) if most else np.zeros((len(rows), 0), np.int64)
        return order, keep.sum(axis=1)

    def initial(self, initial: model.Initial, rows):
        if initial.text is not None:
            template = initial.text
            if template.is_constant and len(template.parts) == 1:
                return "".join(next(iter(template.parts.values())))   # the same words in every game: kept once
            return self.render(template, rows)
        if initial.pool is not None:
            return vector.pool_of(np.tile(np.array(initial.pool, np.int64), (len(rows), 1)))
        return self.value(initial.formula, rows)

    # ---- the loop's levels: the loop plan (loop_plan.py, which machine.py writes) run for many games
    def level_block(self, steps, rows, no_level) -> None:
        """setup:, or a level's begin:, finish: or then:, in locals of its own; no iteration runs
        there that end: LEVEL could end (`no_level` says so)."""
        if not steps or not len(rows):
            return
        saved_frames, saved = self.frames, self.no_level
        self.frames, self.no_level = [Frame()], no_level
        try:
            self.block(steps, rows)
        finally:
            self.frames, self.no_level = saved_frames, saved

    def part(self, i: int, name: str, rows) -> None:
        level = self.levels[i]
        where = block_where(level, name)
        self.level_block(getattr(level, name), rows, lambda ended: no_end_inside(ended, where))

    def run_plan(self, ops, rows) -> None:
        """The ops of a move of the loop plan for these games, each by its handler in RUN; each op
        gives back the games that go on to the next (those a block ended, or a level's end took, do not)."""
        for op in ops:
            if not len(rows):
                return
            rows = RUN[op.kind](self, op, rows)

    def tally(self, rows) -> None:
        """The report values with per: read for these games as the iteration of the outermost level
        they play ends (machine._tally; a game over already reads the same: nothing changes it)."""
        rows = rows[self.counters[0][rows] > self.tallied[rows]]
        if not len(rows):
            return
        self.frames, saved = [Frame()], self.frames
        try:
            k = self.counters[0][rows]
            for name in self.per:
                values = self.reported(self.value(self.ruleset.report[name], rows), rows).astype(np.int64)
                per = self.per[name]
                for one in np.unique(k):
                    mine = k == one
                    kept = per.setdefault(int(one), [0, 0])
                    kept[0] += int(mine.sum())
                    kept[1] += int(values[mine].sum())
        finally:
            self.frames = saved
        self.tallied[rows] = k

    def run_done(self, i: int, rows):
        """The rows whose level i has run all its iterations (times: read each time)."""
        level = self.levels[i]
        done = np.zeros(len(rows), bool)
        if level.times is not None:
            done |= self.counters[i][rows] > self.number(level.times, rows)
        if level.max is not None:
            done |= self.counters[i][rows] > level.max
        return done

    def default_arg(self, param, rows):
        """A loop action's parameter whose default is a formula, read as the round starts and held
        to the parameter's bounds (support.default_arg says what is wrong, for the first game)."""
        value = self.per_row(self.value(param.default, rows), rows)
        if param.type in ("boolean", "choice"):
            return self.default_word(param, value)
        low = self.per_row(self.number(param.min, rows), rows) if param.min is not None else None
        high = self.per_row(self.number(param.max, rows), rows) if param.max is not None else None
        bad = np.zeros(len(rows), bool) if value.dtype.kind in "iu" else np.ones(len(rows), bool)
        if low is not None:
            bad |= value < low
        if high is not None:
            bad |= value > high
        if bad.any():
            self.site = param.default
            i = int(np.flatnonzero(bad)[0])
            one = value[i].item() if isinstance(value[i], np.generic) else value[i]
            default_arg(one, None if low is None else int(low[i]), None if high is None else int(high[i]),
                        default_said(self.action, param, param.default))
        return value

    def default_word(self, param, value):
        """A yes/no or choice parameter's default read from a formula for each game: true/false, or one
        of the choices (support.default_truth and default_choice say what is wrong, for the first game)."""
        if param.type == "boolean":
            bad = np.zeros(len(value), bool) if value.dtype == bool else np.ones(len(value), bool)
        else:
            bad = ~np.isin(value.astype(object), np.array(param.choices, dtype=object))
        if bad.any():
            self.site = param.default
            one = value[int(np.flatnonzero(bad)[0])]
            one = one.item() if isinstance(one, np.generic) else one
            what = default_said(self.action, param, param.default)
            if param.type == "boolean":
                default_truth(one, what)
            default_choice(one, tuple(param.choices), what)
        return value

    # ---- a round
    def round(self, rows) -> None:
        """One round of the loop action for every game in rows, and what follows it: the plan's round
        (loop_plan.py), after the limits on rounds and on a game's steps, and the action's own locals."""
        self.rounds[rows] += 1
        most = int(self.rounds[rows].max())
        if most > self.max_rounds:
            raise RoundLimitReached(self.max_rounds)
        if most >= self.long_from:          # a long game is said, not waited for in silence
            self.long_from *= 10
            if self.on_long is not None:
                self.on_long(most)
        if self.last_rows is not None:      # the round before: its steps added to each game's in all
            self.game_steps[self.last_rows] += self.step_all + self.step_count[self.last_rows]
            if self.game_steps[rows].max() > self.max_game_steps:
                raise RoundLimitReached(self.max_rounds, game_too_long(self.max_game_steps))
        self.last_rows = rows
        self.frames = [Frame()]
        self.step_count[:] = 0
        self.step_all = self.step_bound = 0
        self.action_games = len(rows)
        self.run_plan(self.plan.round, rows)     # the action, what follows it, the loop moving on

    # ---- the games of a range
    def play(self, start: int, stop: int, totals, rows=None) -> None:
        """Games start..stop-1, added to `totals` as they end (and to `rows`, a row each, if given)."""
        size = self.size
        free = np.arange(size)
        live = np.zeros(0, np.int64)
        games = stop - start
        begun = 0
        while True:
            wanted = min(len(free), games - begun)
            if wanted and (len(free) >= size // 2 or not len(live)):
                new, free = free[:wanted], free[wanted:]
                self.game[new] = np.arange(start + begun, start + begun + wanted)
                begun += wanted
                self.start(new)
                live = np.concatenate([live, new])
            if len(live):
                self.round(live)
                live = live[self.alive[live]]
            # Games that ended keep their values until their slot is taken: they are retired (their
            # reports read) together, once an eighth of the slots ended or their slots are wanted.
            if self.ended and (sum(map(len, self.ended)) >= size // 8 or not len(live) or
                               (begun < games and len(free) + sum(map(len, self.ended)) >= size // 2)):
                retired = np.concatenate(self.ended)
                self.ended = []
                self.retire(retired, totals, rows)
                free = np.concatenate([free, retired])
            if not len(live) and begun == games and not self.ended:
                return

    @staticmethod
    def reported(value, rows):
        """A value reported for each of these games: a number (a pool its total) or true/false."""
        if isinstance(value, VPool):
            value = value.total()
        elif isinstance(value, np.ndarray) and value.dtype == object:
            raise StepFailed(i18n._("a report gives a number (a pool gives its total) or true/false, not a text"))
        return rows_of(value, len(rows))

    def retire(self, rows, totals, records=None) -> None:
        """Finished games: their results, lengths and report values, added to the totals at once (and
        to `records`, a row each, with the index of each game: they end out of order)."""
        self.frames = [Frame()]
        report = {}
        for name, formula in self.ruleset.report.items():
            report[name] = self.reported(self.value(formula, rows), rows)
        results = [self.results[i] for i in self.result[rows]]
        totals.add_many(results, self.rounds[rows], report)
        if self.per:
            self.tally(rows[self.counters[0][rows] >= 1])     # the iteration each game ended in
            for name, iterations in self.per.items():
                totals.add_per(name, iterations)
                self.per[name] = {}
        for k, ending in enumerate(self.ruleset.end):       # the values results carry (end: value:)
            if ending.value is not None:
                ended = rows[self.ending[rows] == k]
                if len(ended):
                    totals.add_values(ending.result, self.reported(self.value(ending.value, ended), ended))
        if records is not None:
            records.add_many(self.game[rows].copy(), results, self.rounds[rows].copy(), report)



def _each_once(write, columns: list, n: int):
    """write(pieces) for each of n games, its pieces the literal words (a str column) and its values
    (a column lockstep_values.factorized gives: a code per game, a value per code), written once for
    each distinct combination of values (games mostly say the same few texts: the names of their
    instances), found by numpy, not by a dict per game."""
    coded = [c for c in columns if not isinstance(c, str)]
    if not coded or not n:
        return [write(tuple(columns))] * n
    first, inverse = distinct_rows(np.stack([codes for codes, _ in coded], axis=1))
    texts = np.empty(len(first), object)
    for k, at in enumerate(first):
        values = iter([values[codes[at]] for codes, values in coded])
        texts[k] = write(tuple(c if isinstance(c, str) else next(values) for c in columns))
    return texts[inverse]


def _first_seen(codes):
    """The distinct codes in the order the games first give them."""
    distinct, first = np.unique(codes, return_index=True)
    return distinct[np.argsort(first)].tolist()


def _name_keys(names):
    """name_key of each game's name (an array), each distinct name worked out once."""
    codes, values = factorized(names, len(names))
    keys = np.empty(len(values), object)
    keys[:] = [_name_key(v) for v in values]
    return keys[codes]


_NAME_KEYS: dict = {}


def _name_key(name) -> str:
    """name_key, each distinct text worked out once (NFKC and case folding for each game's names)."""
    text = str(name)
    key = _NAME_KEYS.get(text)
    if key is None:
        if len(_NAME_KEYS) > 4096:      # bounded: names are few, but a ruleset could make many
            _NAME_KEYS.clear()
        key = _NAME_KEYS[text] = name_key(text)
    return key


# ---- the loop plan's ops for the rows of many games (loop_plan.py; machine.WRITE writes the same ops)
# Each handler takes (machine, op, rows) and gives back the rows that go on to the next op.


def _run_first(m: Machine, op, rows):
    m.counters[op.level][rows] = 1
    m.dones[op.level][rows] = 0
    return rows


def _run_moves_on(m: Machine, op, rows):
    m.dones[op.level][rows] = m.counters[op.level][rows]
    m.counters[op.level][rows] += 1
    return rows


def _run_back(m: Machine, op, rows):
    m.counters[op.level][rows] = m.dones[op.level][rows]
    return rows


def _run_if_done(m: Machine, op, rows):
    over = m.run_done(op.level, rows)
    if over.any():
        done = rows[over]
        m.run_plan(m.plan.complete[op.level], done)
        if op.part == "endings":
            m.endings(done[m.alive[done]])
        rows = rows[~over]
    return rows


def _run_block(m: Machine, op, rows):
    m.part(op.level, op.part, rows)
    return rows[m.alive[rows]]


def _run_tally(m: Machine, op, rows):
    m.tally(rows)
    return rows


def _run_move(name: str):
    def run(m: Machine, op, rows):
        m.run_plan(getattr(m.plan, name)[op.level], rows)
        return rows[:0]         # a move is the last op of the one that calls it
    return run


def _run_end_game(m: Machine, op, rows):
    m.end_game(rows, "done")
    return rows[:0]


def _run_endings(m: Machine, op, rows):
    rows = rows[m.alive[rows]]
    m.endings(rows)
    return rows[m.alive[rows]]


def _run_args(m: Machine, op, rows):
    """The loop action's arguments in its locals: its defaults, those that are formulas read now."""
    for name, value in m.args.items():
        m.bind(name, rows, value)
    for param in m.read_args:
        m.bind(param.name, rows, m.default_arg(param, rows))
    return rows


def _run_action(m: Machine, op, rows):
    """The loop action's steps; rows an end: LEVEL took out come back in for the triggers."""
    m.block(m.action.steps, rows)
    m.stopped[rows] = False
    m.frames = [Frame()]
    return rows[m.alive[rows]]


def _run_triggers(m: Machine, op, rows):
    for trigger in m.ruleset.triggers:
        if not len(rows):
            break
        hit = m.truth(trigger.when, rows)
        if hit.any():
            m.block(trigger.do, rows[hit])
            m.stopped[rows] = False
            rows = rows[m.alive[rows]]
    return rows


def _run_jumped(m: Machine, op, rows):
    """The rows whose end: LEVEL ended a level this round: its advance, the end conditions; the
    others go on."""
    ended = m.level_ended[rows]
    if (ended >= 0).any():
        m.level_ended[rows] = -1
        for i in np.unique(ended[ended >= 0]):
            jumped = rows[ended == i]
            m.run_plan(m.plan.advance[int(i)], jumped)
            m.endings(jumped[m.alive[jumped]])
        rows = rows[ended < 0]
    return rows


def _run_clock(m: Machine, op, rows):
    m.timers.due(rows)
    return rows


RUN = {
    "first": _run_first,
    "moves_on": _run_moves_on,
    "back": _run_back,
    "clock": _run_clock,
    "if_done": _run_if_done,
    "event": lambda m, op, rows: rows,          # a simulation logs no events
    "block": _run_block,
    "tally": _run_tally,
    "start": _run_move("start"),
    "next": _run_move("next"),
    "complete": _run_move("complete"),
    "end_game": _run_end_game,
    "endings": _run_endings,
    "args": _run_args,
    "action": _run_action,
    "triggers": _run_triggers,
    "jumped": _run_jumped,
}



class RoundLimitReached(DuskError):
    def __init__(self, rounds: int, message: str | None = None):
        super().__init__(message or i18n._("a game went past {rounds} rounds").format(rounds=i18n.number(rounds)))


def play_range(ruleset: model.Ruleset, params: dict, seed: int, start: int, stop: int, totals, run_limits,
               max_rounds: int, batch: int = BATCH, rows=None, sheets: tuple = (), on_long=None,
               long_from: int = LONG_GAME) -> None:
    """Games start..stop-1 in lockstep, added to `totals` (and a row each to `rows`, if given: its
    `add_many(games, results, rounds, report)`); their dice drawn from a generator seeded by
    (seed, start). A rule that fails is a RuleError at its place. `on_long(rounds)` is told when a
    game first plays `long_from` rounds, then ten times as many, and so on (below the limit)."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed & (2**64 - 1), seed >> 64, start])))
    machine = Machine(ruleset, params, rng, min(batch, stop - start), run_limits, max_rounds)
    machine.on_long, machine.long_from = on_long, long_from
    machine.brought = tuple(sheets)     # sheets the run brought (dusk simulate --sheets), made in every game
    try:
        machine.play(start, stop, totals, rows)
    except (RuleError, RoundLimitReached):
        raise
    except (DiceError, StepFailed, DuskError) as err:
        raise _located(err, machine.site) from None
    except MemoryError:
        # The memory of the machine, not a rule: the games of a batch hold more than it has (values
        # that grow every round). Said at the place, with the way on; the untraced backend holds one game.
        raise RuleError(i18n._("the lockstep backend ran out of memory here, playing {size} games at once; "
                               "--backend untraced plays them one at a time").format(size=i18n.number(machine.size)),
                        getattr(machine.site, "where", None),
                        getattr(machine.site, "path", ())) from None
    except Exception as err:     # a bug in dusk: said as one, at the place it happened, its cause kept
        raise DuskBug.of(err, getattr(machine.site, "where", None), getattr(machine.site, "path", ()),
                         "its lockstep backend") from err


def _located(err, site) -> RuleError:
    where, path = getattr(site, "where", None), getattr(site, "path", ())
    if isinstance(err, DiceError) and isinstance(site, model.Formula):
        err.located(site.text, err.span)
        return RuleError(err.message, where, path, err.caret_lines())
    return RuleError(getattr(err, "message", str(err)), where, path)


__all__ = ["Unsupported", "refusal", "play_range", "Machine", "BATCH", "STEP_KINDS", "_all_formulas"]
