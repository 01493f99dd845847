"""A ruleset lowered to one Python program, for one set of params, in one of two modes.

The table and `dusk simulate` run the same lowered form: every step written by its kind's
lowering (ruleset/steps/), every formula by the dice language's (dice/lowering.py), the loop by
machine.py. The mode is a switch of this one writer:

* traced (the table, `-c` scripts): the game's values live in a dictionary (snapshots, undo,
  the state shown), every die is traced and every event logged through the Run;
* untraced (simulations): the values live in the program's own variables (Python cells), pools
  are tuples of faces, nothing is logged, params are constants.

The writer infers the kind of every state variable, entity field, local and procedure parameter
by writing the program until they settle, so the code checks at run time only what it cannot know
before (and the same in both modes); the kinds settled on are remembered between runs
(remembered_kinds.py), so a second start writes the program once. Each line remembers the formula or step it came from: an
error while the program runs is reported where the ruleset wrote it, with a caret.
"""

from __future__ import annotations

import builtins
import itertools
from typing import NoReturn

from ruleset_engine import dice, i18n
from ruleset_engine.dice import DEFAULT_LIMITS, DiceError
from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.dice.kinds import ANY, BOOL, NUM, POOL, STR, join
from ruleset_engine.dice.errors import DiceTypeError
from ruleset_engine.dice.lowering import Namespace, Src
from ruleset_engine.dice.runtime import u_env, u_plain
from ruleset_engine.dice.expression import env_name
from ruleset_engine.errors import DuskBug, DuskError
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.marks import start_marks
from ruleset_engine.ruleset.steps.timers import due as timers_due
from ruleset_engine.ruleset.model import Formula
from ruleset_engine.ruleset import walk
from ruleset_engine.ruleset.steps import KINDS, StepFailed, new_track
from ruleset_engine.ruleset.steps.kind import nothing
from ruleset_engine.ruleset.templates import NO_DICE, LocalText, Template

from . import machine, remembered_kinds, support
from .at_once import reads as at_once_reads
from .errors import RuleError
from .run import NOTHING
from .signals import EndGame, EndLevel, NeedDecision, RoundLimit
from .writer import FunctionWriter

_NUMBERS = itertools.count()
MAX_PASSES = 12


class ProgramError(RuleError):
    """Formulas that cannot run with these params, every one found while writing the program."""

    def __init__(self, problems: list[RuleError]):
        first = problems[0]
        super().__init__(first.message, first.where, first.path, first.detail)
        self.problems = problems

    def __str__(self) -> str:
        return "\n".join(RuleError.__str__(p) for p in self.problems)


class Program:
    """The compiled program of a ruleset: make(R, C, G) gives its entry points for one game."""

    def __init__(self, ruleset: model.Ruleset, source: str, origins: dict, namespace: dict, traced: bool):
        self.ruleset = ruleset
        self.source = source
        self.origins = origins
        self.traced = traced
        self.sheets: tuple = ()     # sheets a simulation brings (dusk simulate --sheets), made in every game
        self.filename = f"<dusk program {next(_NUMBERS)}: {ruleset.id}>"
        code = builtins.compile(source, self.filename, "exec")
        exec(code, namespace)  # noqa: S102 - our own generated source
        self.make = namespace["make"]
        self.namespace = namespace     # the helpers the program calls, looked up as it runs
        self.sites: list = []          # coverage mode: the steps, by the number _reached(..) is given
        self.reached: set = set()      # coverage mode: the numbers of the steps reached so far
        self.state_kinds: dict = {}    # name -> kind (kinds.py) of each state value, as the program assumes it
        self.field_kinds: dict = {}    # (entity, field) -> kind of each field of an instance

    def bind(self, randint, run, values: dict | None = None) -> dict:
        """The entry points (start, perform, report, play) of one game, drawing from `randint`."""
        return self.make(randint, run, values)

    def locate(self, err: BaseException) -> BaseException:
        """An error raised while the program ran, at the formula or step it came from: a RuleError when
        the ruleset failed there, a DuskBug when dusk did."""
        if isinstance(err, RuleError) or not isinstance(err, Exception):
            return err
        if isinstance(err, DuskError) and not isinstance(err, (DiceError, StepFailed)):
            return err      # a GameError: the caller's, not the ruleset's
        origin = None
        tb = err.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                origin = self.origins.get(tb.tb_lineno, origin)
            tb = tb.tb_next
        where, path = (origin.where, origin.path) if origin is not None else (None, ())
        if isinstance(err, DiceError):
            if isinstance(origin, Formula):
                err.located(origin.text, err.span)
                return RuleError(err.message, where, path, err.caret_lines())
            return RuleError(err.message, where, path)
        if isinstance(err, StepFailed):
            return RuleError(str(err), where, path)
        return DuskBug.of(err, where, path)

    def reraise(self, err: BaseException) -> NoReturn:
        """Raise `err` located: a RuleError at its place (the message says it all), or a DuskBug
        raised from it (its cause kept, for bugs.log); a GameError or a Signal as it is."""
        located = self.locate(err)
        if isinstance(located, DuskBug):
            raise located from err
        raise located from None


class ProgramWriter:
    """Writes the program of one ruleset for one set of params, in one mode."""

    def __init__(self, ruleset: model.Ruleset, params: dict, *, traced: bool, run_limits,
                 dice_limits=DEFAULT_LIMITS, loop_args: dict | None = None, coverage: bool = False):
        self.ruleset = ruleset
        # Coverage (untraced only, for `dusk check --playouts`): each step first notes that it was
        # reached, as a line of the same program; the two normal modes never write that line.
        self.coverage = coverage and not traced
        self.sites: dict = {}     # id(step) -> (its number, the step)
        self.params = params
        self.traced = traced
        self.run_limits = run_limits
        self.dice_limits = dice_limits
        self.loop_args = loop_args or {}
        everything = list(walk.expressions(ruleset, texts=True))
        rolled = [str(params[name]) for name, p in ruleset.params.items() if p.type == "dice"] + \
            [str(spec.default) for a in ruleset.actions.values() for spec in a.params.values()
             if spec.type == "dice" and spec.default is not None]
        self.aside = any(dice_ast.reads_aside(f.tree) for f in everything) or \
            any(dice_ast.reads_aside(dice.compile(t).tree) for t in rolled)
        # The kinds of dice the ruleset gives: the only ones its formulas may read (of(p, wild)).
        # A named formula's body counts too: it gives its kinds wherever it is called.
        self.kinds = frozenset().union(*(dice_ast.kinds_named(f.tree) for f in everything),
                                       *(dice_ast.kinds_named(f.tree) for f in ruleset.formulas.values()),
                                       *(dice_ast.kinds_named(dice.compile(t).tree) for t in rolled))
        # Only these formulas' untraced pools carry what they set aside; the rest stay plain tuples.
        self.tracked, self.carriers, self.holders = _tracking_aside(ruleset, everything) if self.aside \
            else (set(), set(), set())
        self.read_parts = _needed_texts(ruleset)
        self.recursive = _on_call_cycles(ruleset)
        # Whether an expression calls aside(..), by id, each with its expression (kept, so that no id
        # is reused): the writer asks it of the same trees hundreds of times, once per pass.
        self.calls_aside: dict[int, tuple] = {}
        self.created = _created(ruleset)
        # The end conditions checked after every step that may change them (at_once.py).
        self.at_once = [(i, e, at_once_reads(e)) for i, e in enumerate(ruleset.end) if e.at_once]
        # The set: steps with until: (ruleset/steps/timers.py): the loop machine gives their values back.
        self.timed = walk.timed_steps(ruleset)
        self.call_sites = _call_sites(ruleset)
        self.nesting = {name: walk.nesting(p.steps) for name, p in ruleset.procedures.items()}
        self.dice_params = {name: _dice_param_kind(str(params[name])) for name, p in ruleset.params.items()
                            if p.type == "dice"}
        # Kinds assumed for this pass, and those observed while writing it.
        self.state_kinds: dict = {}
        self.field_kinds: dict = {}
        self.proc_kinds: dict = {}
        self.local_kinds: dict = {}
        self.observed_state = self.observed_fields = self.observed_procs = self.observed_locals = None

    # ---- kinds
    def state_kind(self, name: str) -> str:
        return self.state_kinds.get(name) or ANY

    def field_kind(self, entity: str, field: str) -> str:
        return self.field_kinds.get((entity, field)) or ANY

    def observe_state(self, name: str, kind: str) -> None:
        self.observed_state[name] = join(self.observed_state.get(name), kind)

    def observe_field(self, entity: str, field: str, kind: str) -> None:
        self.observed_fields[(entity, field)] = join(self.observed_fields.get((entity, field)), kind)

    def observe_any_field(self, field: str) -> None:
        """A field written where its entity is not known: every entity's field of that name, any kind."""
        for entity, spec in self.ruleset.entities.items():
            if field in spec.fields or field in ("index", "name"):
                self.observe_field(entity, field, ANY)

    def argument(self, procedure: str, param: str, kind: str) -> None:
        key = (procedure, param)
        self.observed_procs[key] = join(self.observed_procs.get(key), kind)

    def inlined(self, procedure: str) -> bool:
        """Whether calls of this procedure are written in place (untraced: a simulation's hot path)."""
        return (not self.traced and self.call_sites.get(procedure) == 1 and procedure not in self.recursive
                and not _returns(self.ruleset.procedures[procedure].steps))

    def is_read(self, target: tuple) -> bool:
        """Whether a formula could read this place (a note nobody reads is not written in a simulation)."""
        return target[-1] in self.read_parts or target[0] in self.read_parts and len(target) == 1

    def site_number(self, step) -> int:
        """The number a step is known by in coverage mode (the same in every pass of the writer)."""
        found = self.sites.get(id(step))
        if found is None:
            found = self.sites[id(step)] = (len(self.sites), step)
        return found[0]

    # ---- names the writers resolve here
    def param_source(self, rest: tuple, span) -> Src:
        name = rest[0]
        if name in self.dice_params:
            text = f"G['params'][{name!r}]" if self.traced else f"q_{name}"
            src = Src(text, self.dice_params[name], simple=True, safe=True)
        else:
            value = self.params[name]
            kind = BOOL if type(value) is bool else NUM if type(value) is int else STR if isinstance(value, str) \
                else ANY
            bounds = (value, value) if kind == NUM else None
            src = Src(repr(value), kind, value, bounds, simple=True, safe=True)
        if len(rest) > 1:
            convert = "_t_env" if self.traced else "_u_env"
            return Src(f"_env_name({src.text}, {tuple(rest[1:])!r}, {span!r}, {convert})", ANY)
        return src

    def loop_source(self, rest: tuple) -> Src:
        names = [level.name for level in self.ruleset.loop]
        if not rest:
            if self.traced:
                return Src("G['loop']", ANY, simple=True)
            return Src("{" + ", ".join(f"{n!r}: l_{i}" for i, n in enumerate(names)) + "}", ANY)
        i = names.index(rest[0])
        if len(rest) > 1:      # loop.LEVEL.done (the checker allows no other field)
            return Src(self.done_counter(i), NUM, simple=True, safe=True)
        return Src(self.counter(i), NUM, simple=True, safe=True)

    def pair_store(self, name: str) -> str:
        """Where the records of a pair are kept: the game's dictionary, or a cell of the program."""
        return f"G[{name!r}]" if self.traced else f"r_{name}"

    def counter(self, i: int) -> str:
        """Where level i's counter is kept: the iteration being played, or the last one once done."""
        return f"G['loop'][{self.ruleset.loop[i].name!r}]" if self.traced else f"l_{i}"

    def once_per_store(self) -> str:
        """Where each once_per: action keeps the loop counters of the iteration it was last done in."""
        return "G['once_per']" if self.traced else "op"

    def done_counter(self, i: int) -> str:
        """Where the number of level i's finished iterations is kept."""
        return f"G['loop_done'][{self.ruleset.loop[i].name!r}]" if self.traced else f"ld_{i}"

    # ---- errors found while writing (a formula that cannot run with these params)
    def problem(self, err: DiceError, formula: Formula | None, step=None) -> Src:
        """Note a formula that cannot run with these params (all are said at the end of the writing);
        the source written in its place is never run."""
        origin = formula if formula is not None else step
        if formula is not None:
            err.located(formula.text, err.span)
        where, path = (origin.where, origin.path) if origin is not None else (None, ())
        found = RuleError(err.message, where, path, err.caret_lines())
        if all(str(found) != str(other) for other in self.problems):
            self.problems.append(found)
        return Src("None", ANY)

    # ---- the whole
    def build(self) -> Program:
        # The kinds a writer for the same ruleset, params and mode settled on, remembered between runs
        # (remembered_kinds.py): the program is written once from them when that pass checks.
        memo = remembered_kinds.Memo.of(self.ruleset, self.params, traced=self.traced, run_limits=self.run_limits,
                                        dice_limits=self.dice_limits, loop_args=self.loop_args,
                                        coverage=self.coverage)
        functions = self._from_memo(*memo.known) if memo is not None and memo.known is not None else None
        if functions is None:
            functions = self._from_scratch()
            if memo is not None:
                memo.keep(self._assumed(), self._observed())
        return self._program(functions)

    def _from_scratch(self) -> list:
        """Every function, written pass after pass from no kind known until the kinds settle."""
        self.state_kinds, self.field_kinds, self.proc_kinds, self.local_kinds = {}, {}, {}, {}
        self.sites = {}
        for attempt in range(MAX_PASSES):
            self.problems = []
            functions = self.write()
            if self.problems:
                raise ProgramError(self.problems)
            assumed = remembered_kinds.Kinds(self.state_kinds, self.field_kinds, self.proc_kinds, self.local_kinds)
            observed = remembered_kinds.Kinds(self.observed_state, self.observed_fields, self.observed_procs,
                                              self.observed_locals)
            if _settle_kinds(assumed, observed, widen=attempt >= 3):
                return functions
        raise RuntimeError("the kinds of a ruleset's values did not settle")  # pragma: no cover - they widen

    def _from_memo(self, assumed: remembered_kinds.Kinds, observed: remembered_kinds.Kinds) -> list | None:
        """Every function, written once under the remembered kinds; None (the writer starts from scratch)
        unless that pass observes exactly the kinds remembered, each within the kind assumed, and finds
        no problem. A remembered file is the user's, and may hold anything: a pass under kinds that
        are wrong may find problems a ruleset does not have, or fail; either only costs that pass."""
        assumed = assumed.copy()
        self.state_kinds, self.field_kinds, self.proc_kinds = assumed.state, assumed.fields, assumed.procs
        self.local_kinds = assumed.locals
        self.problems = []
        try:
            functions = self.write()
        except Exception:   # noqa: BLE001 - written again from scratch, which raises what is really wrong
            return None
        if self.problems or self._observed() != observed:
            return None
        # Every kind observed within the one assumed: the check the last pass from scratch makes.
        return functions if _settle_kinds(assumed.copy(), observed, widen=True) else None

    def _assumed(self) -> remembered_kinds.Kinds:
        return remembered_kinds.Kinds(self.state_kinds, self.field_kinds, self.proc_kinds,
                                      {name: kinds for name, kinds in self.local_kinds.items() if kinds})

    def _observed(self) -> remembered_kinds.Kinds:
        return remembered_kinds.Kinds(self.observed_state, self.observed_fields, self.observed_procs,
                                      {name: kinds for name, kinds in self.observed_locals.items() if kinds})

    def _program(self, functions: list) -> Program:
        source, origins = self.assemble(functions)
        namespace = self.namespace()
        reached: set = set()
        if self.coverage:
            namespace["_reached"] = reached.add
        program = Program(self.ruleset, source, origins, namespace, self.traced)
        # The kinds the program was written for: a saved game's values are checked against them (saved.py).
        program.state_kinds, program.field_kinds = dict(self.state_kinds), dict(self.field_kinds)
        if self.coverage:
            program.sites = [step for _, step in sorted(self.sites.values(), key=lambda found: found[0])]
            program.reached = reached
        return program

    def write(self) -> list:
        """Every function of the program, under the kinds assumed so far."""
        self.ns = Namespace()
        self.observed_state, self.observed_fields, self.observed_procs = {}, {}, {}
        self.observed_locals = {}
        ruleset = self.ruleset
        functions = []
        for name, procedure in ruleset.procedures.items():
            params = [(p, self.proc_kinds.get((name, p)) or ANY) for p in procedure.params]
            w = FunctionWriter(self, f"p_{name}", params, entity_params=procedure.groups)
            w.block(procedure.steps, checked=True)
            functions.append((w, ", ".join(w.local(p) for p in procedure.params)))
        for name, action in ruleset.actions.items():
            functions.append((self.action(name, action), "args"))
        for entity, spec in ruleset.entities.items():
            # A group that create: grows takes the name of a new instance as it is made.
            made = entity in self.created
            functions.append((self.instance(entity, spec, made), "v_index, _given=None" if made else "v_index"))
        functions.append((self.init(), ""))
        if ruleset.setup:
            w = FunctionWriter(self, "setup_block")
            w.block(ruleset.setup)
            functions.append((w, ""))
        for i, trigger in enumerate(ruleset.triggers):
            w = FunctionWriter(self, f"tr_{i}")
            w.block(trigger.do)
            functions.append((w, ""))
        for i, level in enumerate(ruleset.loop):
            for part in ("begin", "finish", "then"):
                steps = getattr(level, part)
                if steps:
                    w = FunctionWriter(self, f"lb_{i}_{part}")
                    w.block(steps)
                    functions.append((w, ""))
        functions += machine.write(self)
        functions.append((self.report(), ""))
        return functions

    def action(self, name: str, action: model.Action) -> FunctionWriter:
        entity_params = {p: spec.of for p, spec in action.params.items() if spec.type == "entity"}
        w = FunctionWriter(self, f"a_{name}", entity_params=entity_params)
        self.write_action_body(w, name, "args")
        return w

    def inline_action(self, name: str) -> bool:
        """Whether the simulation's loop writes this action's steps in place (it returns nothing)."""
        return not self.traced and not _returns(self.ruleset.actions[name].steps)

    def write_action_body(self, w: FunctionWriter, name: str, args: str) -> None:
        """An action's parameters bound from `args`, then its steps (in its own function, or in place)."""
        action = self.ruleset.actions[name]
        if w.name != f"a_{name}":
            with w.scope(f"a_{name}", f"{name}__"):
                self._action_body(w, name, action, args)
            return
        self._action_body(w, name, action, args)

    def _action_body(self, w: FunctionWriter, name: str, action: model.Action, args: str) -> None:
        for pname, spec in action.params.items():
            var = w.local(pname)
            if spec.type == "entity":
                w.line(f"{var} = _instance_named({w.group(spec.of)}, {args}[{pname!r}])")
                w.bound(pname, ANY, entity=spec.of)
            elif spec.type == "dice" and self.traced:
                path = ("actions", name, "params", pname)
                w.line(f"{var} = C.roll_arg({pname!r}, {args}[{pname!r}], R, G, {path!r})")
                w.bound(pname, ANY)
            elif spec.type == "dice":
                # The default a simulation rolls, read as the table reads what a player types: the
                # game's values, not the action's other parameters.
                text = str(self.loop_args.get(pname, spec.default))
                formula = Formula(text, dice.compile(text), None, ("actions", name, "params", pname))
                if pname in self.carriers:          # aside(pname) reads what the roll set aside
                    self.tracked.add(id(formula.expr))
                outer = w.local(pname)
                with w.scope(f"a_{name}__{pname}", f"{name}__{pname}__"):
                    w.value(formula, into=outer)
                w.bound(pname, ANY)
            elif spec.type == "formula":
                # Read over the fields of the instance its over: parameter (bound above) names.
                what = w.const(f"{name} {pname}", "t")
                w.line(f"{var} = _formula_arg({args}[{pname!r}], {w.local(spec.over)}, {what})")
                w.bound(pname, NUM)
                if spec.reads is not None:
                    # The fields the formula names, each once, in the order written (for_each reads them).
                    w.line(f"{w.local(spec.reads)} = _formula_reads({args}[{pname!r}])")
                    w.bound(spec.reads, ANY)
            else:
                w.line(f"{var} = {args}[{pname!r}]")
                w.bound(pname, {"integer": NUM, "boolean": BOOL}.get(spec.type, STR))
        w.block(action.steps)

    def instance(self, entity: str, spec: model.EntitySpec, made: bool = False) -> FunctionWriter:
        """mk_ENTITY(index): one instance, its fields evaluated in order with index, name and the
        fields before them as locals. `made`: mk_ENTITY(index, _given), where a name given (not None)
        is the instance's, in place of the names: template (create:)."""
        w = FunctionWriter(self, f"mk_{entity}", [("index", NUM)])
        w.line("_i = {}")
        if spec.is_group:
            w.line("_i['index'] = v_index")
            self.observe_field(entity, "index", NUM)
        self.observe_field(entity, "name", ANY)
        w.line(f"v_name = {entity!r}")
        w.bound("name", ANY)
        if made:
            w.line("if _given is not None:")
            with w.indent():
                w.line("v_name = _given")
            w.line("else:")
            w.depth += 1
        if spec.names is not None:
            w.line(f"v_name = str({w.text(spec.names)})", spec)
        elif spec.is_group:
            w.line(f"v_name = {entity + ' '!r} + str(v_index)")
        if made:
            w.depth -= 1
        w.line("_i['name'] = v_name")
        for field, initial in spec.fields.items():
            value, kind = self.initial(w, initial)
            w.line(f"v_{field} = {value}")
            w.bound(field, kind)
            self.observe_field(entity, field, kind)
            w.line(f"_i[{field!r}] = {'_to_state(' + w.local(field) + ')' if self.traced else w.local(field)}")
        for track, tspec in spec.tracks.items():
            if tspec.size is None:
                w.line(f"_i[{track!r}] = _new_track({tspec.labels!r})")
            else:
                what = w.const(i18n._("{entity}.{track}: boxes {formula}").format(entity=entity, track=track,
                                                                                 formula=tspec.size.text), "t")
                w.line(f"_i[{track!r}] = _new_track(_track_boxes({w.number(tspec.size, 'boxes')}, {what}))",
                       tspec.size)
            if tspec.rule is not None:
                w.line(f"_start_marks(_i[{track!r}], {w.const(tspec.rule, 'rule')})")
        w.line("return _i")
        return w

    def initial(self, w: FunctionWriter, initial: model.Initial) -> tuple[str, str]:
        """An initial value: (source, kind)."""
        if initial.pool is not None:
            return (repr(list(initial.pool)) if self.traced else repr(tuple(initial.pool))), POOL
        if initial.text is not None:
            text = w.text(initial.text)
            return (f"_to_state({text})" if self.traced else text), w.text_kind(initial.text)
        value, kind = w.value(initial.formula)
        if kind == ANY:   # a name holding a pool, where a number was meant: its total
            return f"_initial_value({value})", ANY
        return value, kind

    def init(self) -> FunctionWriter:
        """The values a game starts with: params (dice params rolled), loop counters, entities, state."""
        ruleset = self.ruleset
        w = FunctionWriter(self, "init")
        if self.traced:
            plain = {n: v for n, v in self.params.items() if n not in self.dice_params}
            w.line(f"G['params'] = {plain!r}")
        for name in self.dice_params:
            text = str(self.params[name])
            formula = Formula(text, dice.compile(text), None, ("params", name))
            value, _ = w.value(formula) if not self.traced else (None, None)
            if self.traced:
                src, lo = w.lower(formula)
                label = ruleset.params[name].label
                w.line(f"C.trace({w.const(label if label is not None else name, 'l')})")
                w.line(f"G['params'][{name!r}] = C.param_rolled({name!r}, {text!r}, {src.text})", formula)
            else:
                w.line(f"{w.cell('q_' + name)} = _report_value({value})", formula)
        if self.traced:
            zeros = "{" + ", ".join(f"{level.name!r}: 0" for level in ruleset.loop) + "}"
            w.line(f"G['loop'] = {zeros}")
            w.line(f"G['loop_done'] = {zeros}")
            w.line("G['once_per'] = {}")
            if self.timed:
                w.line("G['_timers'] = []")
        else:
            for i in range(len(ruleset.loop)):
                w.line(f"{w.cell(f'l_{i}')} = {w.cell(f'ld_{i}')} = 0")
            w.line(f"{w.cell('op')} = {{}}")
            if self.timed:
                w.line(f"{w.cell('tm')} = []")
        for entity, spec in ruleset.entities.items():
            place = f"G[{entity!r}]" if self.traced else w.cell(f"e_{entity}")
            if spec.is_group:
                n = w.number(spec.count, "count")
                most = "" if spec.max is None else f", {spec.max}"
                w.line(f"{place} = [mk_{entity}(_k + 1) for _k in range(_group_size({n}, {entity!r}{most}))]",
                       spec.count)
                if spec.sheet is not None:
                    # The ruleset's sheets, then those the table brought (the run's), as instances.
                    rules = {t: s.rule for t, s in spec.tracks.items()}
                    w.line(f"_add_sheets({place}, mk_{entity}, {w.const(spec.sheet.sheets, 'sh')}, C, {entity!r}, "
                           f"{spec.most}, {w.const(rules, 'tr')}, {self.traced})")
            else:
                w.line(f"{place} = mk_{entity}(None)")
        for name in ruleset.pairs:     # no record is written yet: each reads its defaults
            w.line(f"{'G[' + repr(name) + ']' if self.traced else w.cell('r_' + name)} = {{}}")
        for name, initial in ruleset.state.items():
            value, kind = self.initial(w, initial)
            self.observe_state(name, kind)
            if self.traced:
                w.line(f"G[{name!r}] = _to_state({value})")
            else:
                w.line(f"{w.cell('s_' + name)} = {value}")
        return w

    def report(self) -> FunctionWriter:
        w = FunctionWriter(self, "report")
        w.line("_r = {}")
        for name, formula in self.ruleset.report.items():
            value, kind = w.value(formula)
            if kind == STR:
                self.problem(DiceTypeError(support.reported(), span=(0, len(formula.text))), formula)
            w.line(f"_r[{name!r}] = _report_value({value})", formula)
            if name in self.ruleset.tallies and not self.traced:
                # The iteration the game ended in, unless its end was read already (machine._tally).
                w.line(f"if {w.cell('l_0')} >= 1:")
                w.line(f"    C.tallied({name!r}, l_0, _r[{name!r}])")
        w.line("return _r")
        return w

    # ---- assembling
    def cells(self) -> list[str]:
        ruleset = self.ruleset
        if self.traced:
            return ["_st", "_dp"]
        return (["_st", "_dp"] + [f"s_{n}" for n in ruleset.state] + [f"e_{n}" for n in ruleset.entities]
                + [f"{c}_{i}" for i in range(len(ruleset.loop)) for c in ("l", "ld")] + ["op"]
                + (["tm"] if self.timed else [])
                + [f"q_{n}" for n in self.dice_params]
                + [f"r_{n}" for n in ruleset.pairs])

    def assemble(self, functions) -> tuple[str, dict]:
        lines: list[tuple[str, object]] = [("def make(R, C, G):", None)]
        lines.append(("    " + " = ".join(self.cells()) + " = None", None))
        lines.append(("    _st = _dp = 0", None))
        for writer, signature in functions:
            lines += writer.source(signature)
        lines += [(text, None) for text in machine.tables(self)]
        source = "\n".join(text for text, _ in lines) + "\n"
        origins = {n: origin for n, (_, origin) in enumerate(lines, 1) if origin is not None}
        return source, origins

    def namespace(self) -> dict:
        values = dict(self.ns.values)
        values.update({
            "_to_state": support.to_state, "_whole": support.whole, "_too_big": support.too_big,
            "_text_ok": support.text_ok, "_truth_value": support.truth_value,
            "_fmt": support.formatter(self.ruleset.words), "_plain_text": support.plain_text, "_shown": support.shown,
            "_report_value": support.report_value,
            "_initial_value": _initial_value, "_group_size": support.group_size, "_track_boxes": support.track_boxes, "_decision": support.decision,
            "_auto_answer": support.auto_answer,
            "_picked": support.picked, "_u_picked": support.u_picked, "_in_level": support.in_level,
            "_instance_named": support.instance_named,
            "_default_arg": support.default_arg, "_default_entity": support.default_entity,
            "_default_truth": support.default_truth, "_default_choice": support.default_choice,
            "_formula_arg": support.formula_arg, "_formula_reads": support.formula_reads, "_add_sheets": support.add_sheets, "_new_track": new_track, "_start_marks": start_marks,
            "_env_name": env_name, "_u_env": u_env, "_u_plain": u_plain,
            "_LocalText": LocalText, "_NO_DICE": NO_DICE, "_NOTHING": NOTHING, "_EndGame": EndGame,
            "_EndLevel": EndLevel, "_NeedDecision": NeedDecision, "_RoundLimit": RoundLimit,
            "_StepFailed": StepFailed, "_timers_due": timers_due,
        })
        for kind in KINDS.values():
            values.update(kind.helpers)
        return values


def build(ruleset: model.Ruleset, params: dict, *, traced: bool, run_limits, loop_args=None,
          coverage: bool = False) -> Program:
    return ProgramWriter(ruleset, params, traced=traced, run_limits=run_limits, loop_args=loop_args,
                         coverage=coverage).build()


_CACHE: dict = {}


def program_for(ruleset: model.Ruleset, params: dict, limits, traced: bool = True) -> Program:
    """The ruleset's program for these params (written once, kept for the next game)."""
    key = (id(ruleset), tuple(sorted((k, repr(v)) for k, v in params.items())), limits, traced)
    found = _CACHE.get(key)
    if found is None or found[0] is not ruleset:
        if len(_CACHE) > 32:
            _CACHE.clear()
        found = _CACHE[key] = (ruleset, build(ruleset, params, traced=traced, run_limits=limits))
    return found[1]



# ---- helpers of the writer ---------------------------------------------------------------------


def _settle_kinds(assumed, observed, widen: bool) -> bool:
    """Adopt every kind observed (state, fields, procedure params, each function's locals) into
    `assumed`, in place; True when nothing changed (both are remembered_kinds.Kinds)."""
    settled = True
    for was, seen in ((assumed.state, observed.state), (assumed.fields, observed.fields), (assumed.procs, observed.procs)):
        settled &= _settle(was, seen, widen)
    for name, seen in observed.locals.items():
        settled &= _settle(assumed.locals.setdefault(name, {}), seen, widen)
    return settled


def _settle(assumed: dict, observed: dict, widen: bool) -> bool:
    """Adopt what was observed; True when nothing changed. After a few passes kinds only widen."""
    settled = True
    for name in set(assumed) | set(observed):
        was, seen = assumed.get(name), observed.get(name)
        new = join(was, seen) if widen else seen
        if widen and was is not None and join(was, seen) == was:
            continue
        if new != was:
            assumed[name] = new
            settled = False
    return settled


def _initial_value(value):
    """An initial value whose formula gave a pool where a number was meant: its total."""
    from ruleset_engine.dice import Pool

    if isinstance(value, Pool):
        return value.total
    return value


def _dice_param_kind(text: str) -> str:
    kind = dice.compile(text).kind
    return NUM if kind in (NUM, POOL) else kind


def _tracking_aside(ruleset: model.Ruleset, everything) -> tuple[set, set, set]:
    """(tracked, carriers, holders). Tracked: the ids of the expressions whose untraced pools must
    carry what they set aside: those that call aside(..), and those whose value reaches a name that
    aside(..) reads (the carriers), through locals, procedure parameters and results (`let: {b: a}`
    passes a's pool on as it is). Holders: every name that may hold such a pool, so that the state,
    which keeps no aside, is given a plain pool. Names are matched without their scopes, which
    only ever counts more than needed. What each step binds, passes, and gives back is its kind's fact."""
    # The state and the entities keep pools plain, and no local shares their names: only locals
    # (and parameters, and results) carry what a pool set aside.
    globals_ = set(ruleset.state) | set(ruleset.entities) | {"params", "loop"}

    def names_in(expr) -> set:
        return {n.path[0] for n in dice_ast.walk(expr.tree) if isinstance(n, dice_ast.Name)} - globals_

    tracked, read = set(), set()
    for expr in everything:
        for node in dice_ast.walk(expr.tree):
            if isinstance(node, dice_ast.Call) and node.function == "aside":   # the names aside(..) reads
                tracked.add(id(expr))
                read |= {n.path[0] for a in node.args for n in dice_ast.walk(a)
                         if isinstance(n, dice_ast.Name)} - globals_
    bindings, results, returns = [], [], []   # (name bound, its formula); names a call's result is bound to
    for step in walk.all_steps(ruleset):
        kind = walk.kind_of(step)
        bindings += [(name, formula) for name, formula in kind.binds(step)
                     if formula is not None and name not in globals_]
        for _, args, result in kind.calls(step):
            bindings += args
            if result is not None:
                results.append(result)
        returns += kind.returns(step)
    while True:                        # until no new name is found to carry a pool to aside(..)
        before = len(read)
        flowing = [formula for name, formula in bindings if name in read]
        if any(name in read for name in results):
            flowing += returns
        for formula in flowing:
            tracked.add(id(formula.expr))
            read |= names_in(formula.expr)
        if len(read) == before:
            break
    # An action's dice parameter that aside(..) reads is rolled tracked (see _action_body).
    holders = {name for a in ruleset.actions.values() for name, spec in a.params.items()
               if spec.type == "dice" and name in read}
    while True:                        # forward: every name a tracked pool may reach
        before = len(holders)
        for name, formula in bindings:
            if id(formula.expr) in tracked or names_in(formula.expr) & holders:
                holders.add(name)
        if any(id(f.expr) in tracked or names_in(f.expr) & holders for f in returns):
            holders |= set(results)
        if len(holders) == before:
            return tracked, read, holders


def _created(ruleset: model.Ruleset) -> set:
    """The groups a step makes instances of, and those with sheets (made as the game starts)."""
    return {group for step in walk.all_steps(ruleset) for group in walk.kind_of(step).makes(step)} | \
        {name for name, spec in ruleset.entities.items() if spec.sheet is not None}


def _calls(block) -> list:
    """The procedures the steps of a block call, one name for each call."""
    return [name for step in walk.steps(block) for name, _, _ in walk.kind_of(step).calls(step)]


def _returns(block) -> bool:
    """Whether a step of the block may give a value back to its caller (a kind with that fact: return:)."""
    return any(walk.kind_of(step).returns is not nothing for step in walk.steps(block))


def _call_sites(ruleset: model.Ruleset) -> dict:
    """How many call steps name each procedure, anywhere in the ruleset."""
    counts: dict = {}
    for block in walk.blocks(ruleset):
        for name in _calls(block.steps):
            counts[name] = counts.get(name, 0) + 1
    return counts


def _needed_texts(ruleset: model.Ruleset) -> set:
    """The names a simulation must keep up to date: those a formula reads, and those the text a step
    keeps (a note:) reads when that text's place is itself one of them (a name is each part of a dotted path)."""
    needed = {part for f in walk.expressions(ruleset, texts=False) for path, _ in f.names for part in path}
    notes = [(target, template) for step in walk.all_steps(ruleset) for target, template in walk.kind_of(step).texts(step)]

    def reads(template) -> set:
        return {part for parts in template.parts.values() for piece in parts if not isinstance(piece, str)
                for path, _ in piece.names for part in path}

    # A note that shows what a note wrote is kept, with what it reads: a text that shows texts is how
    # one grows, and a simulation must meet the limit of texts where the table does.
    written = {part for target, _ in notes for part in target}
    for target, template in notes:
        if reads(template) & written:
            needed |= reads(template) | {target[-1]}
    changed = True
    while changed:
        changed = False
        for target, template in notes:
            if target[-1] in needed or target[0] in needed:
                read = reads(template)
                if not read <= needed:
                    needed |= read
                    changed = True
    return needed


def _on_call_cycles(ruleset: model.Ruleset) -> set:
    """The procedures that can call themselves, directly or through others."""
    calls = {name: set(_calls(p.steps)) for name, p in ruleset.procedures.items()}
    found = set()
    for start in calls:
        seen, stack = set(), list(calls[start])
        while stack:
            name = stack.pop()
            if name == start:
                found.add(start)
                break
            if name not in seen:
                seen.add(name)
                stack.extend(calls.get(name, ()))
    return found

