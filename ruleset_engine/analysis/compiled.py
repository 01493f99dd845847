"""Compiled simulations: a ruleset's steps written out as Python functions, for `dusk simulate`.

The interpreter keeps every die's history for the trace and walks the steps one call at a
time; a simulation needs neither. So, for a simulation, each action, procedure and loop
block becomes one Python function (ruleset locals become Python locals, params are
inlined, pools are tuples of faces, formulas are Python expressions through pysource.py),
built once per run and drawing the same dice, in the same order, as the interpreter.

The compiled path is optimistic. What it does not cover is left to the interpreter (a
block that does not translate runs interpreted), and a game that meets anything unusual
(a limit, a value of the wrong kind, a bug of this module) raises Fallback and is played
again from its start by the interpreter, which gives the located error or the result.
The game-for-game tests compare both paths.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.ruleset import model
from ruleset_engine.runtime.decisions import Decision
from ruleset_engine.runtime.errors import DecisionError
from ruleset_engine.runtime.game import Game
from ruleset_engine.ruleset.templates import format_value
from ruleset_engine.runtime.interpreter import EndGame, EndLevel, Env, Return, Run, _set_marked

from . import fastlib
from .fastlib import Fallback
from .pysource import ANY, BOOL, NUM, POOL, STR, ExprSource, NotCovered, gen_dice_pair, gen_literal_pair, rolls

MAX_LOOP = 10_000   # iterations of one loop on the compiled path; beyond, the interpreter (and its step limit) decides
MAX_DEPTH = 64


def _ident(name: str) -> str:
    return "v_" + name


class _Writer:
    def __init__(self):
        self.lines: list[str] = []
        self.depth = 1

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)


class _Function:
    """Source of one function: its locals (with what they hold) and the names bound with left-out dice."""

    def __init__(self, compiler: "RulesetCompiler", params: tuple):
        self.c = compiler
        self.local: set[str] = set(params)
        self.kinds: dict[str, str] = {}      # locals known to hold a number or a pool at this point
        self.asides: set[str] = set()
        self.out = _Writer()

    # ---- formulas
    def expr(self, formula: model.Formula) -> tuple[str, str]:
        return ExprSource(self.resolve, self.aside_of).gen(formula.expr.tree)

    def resolve(self, path) -> tuple[str, str]:
        head, rest = path[0], path[1:]
        if head in self.local:
            if not rest:
                return _ident(head), self.kinds.get(head, ANY)
            src = _ident(head)
        elif head == "params":
            if not rest:
                raise NotCovered("params alone")
            value = self.c.params.get(rest[0])
            if rest[0] in self.c.rolled_params or len(rest) > 1:
                return "G['params']" + "".join(f"[{p!r}]" for p in rest), ANY
            kind = BOOL if isinstance(value, bool) else NUM if isinstance(value, int) else STR if \
                isinstance(value, str) else None
            if kind is None:
                raise NotCovered("param")
            return repr(value), kind
        else:
            src = f"G[{head!r}]"
        return src + "".join(f"[{p!r}]" for p in rest), ANY

    def aside_of(self, path) -> str:
        if len(path) == 1 and path[0] in self.asides:
            return _ident(path[0]) + "__aside"
        raise NotCovered("aside of a name without it")

    def number(self, formula) -> str:
        src, kind = self.expr(formula)
        return src if kind == NUM else f"_L.num({src})"

    def truth(self, formula) -> str:
        src, kind = self.expr(formula)
        return src if kind == BOOL else f"_L.truth({src})"

    def pure(self, formula) -> bool:
        return not rolls(formula.expr.tree)

    # ---- writing to places
    def read(self, target: tuple) -> str:
        src, _ = self.resolve(target)
        return src

    def bind(self, name: str, kind: str = ANY) -> None:
        """A local is (re)bound: remember its kind where a wrong guess could only raise (a
        number or a pool), never where it could pass silently."""
        self.local.add(name)
        if kind in (NUM, POOL):
            self.kinds[name] = kind
        else:
            self.kinds.pop(name, None)

    def assign(self, target: tuple, value_src: str, kind: str = ANY) -> None:
        head = target[0]
        if len(target) == 1:
            if head in self.local:
                self.bind(head, kind)
                self.out.line(f"{_ident(head)} = {value_src}")
            else:
                self.out.line(f"G[{head!r}] = {value_src}")
            return
        container = self.read(target[:-1])
        self.out.line(f"_assign({container}, {target[-1]!r}, {value_src})")

    # ---- steps
    def block(self, steps: list) -> None:
        if not steps:
            self.out.line("pass")
            return
        for step in steps:
            handler = STEPS.get(type(step))
            if handler is None:
                raise NotCovered(type(step).__name__)
            handler(self, step)


def _with_aside(fn: _Function, name: str, formula: model.Formula) -> None:
    """Bind a local; when the ruleset reads `aside(name)` somewhere, bind its left-out dice too."""
    tree = formula.expr.tree
    if name not in fn.c.aside_names:
        src, kind = fn.expr(formula)
        fn.bind(name, kind)
        fn.out.line(f"{_ident(name)} = {src}")
        return
    gen = ExprSource(fn.resolve, fn.aside_of)
    target = _ident(name)
    if isinstance(tree, (dice_ast.Dice, dice_ast.PoolLiteral)) and tree.modifiers:
        pair = gen_dice_pair(gen, tree) if isinstance(tree, dice_ast.Dice) else gen_literal_pair(gen, tree)
        fn.out.line(f"{target}, {target}__aside = {pair}")
    elif isinstance(tree, dice_ast.Call) and tree.function in ("unpair", "cancel", "largest_set", "keep", "drop",
                                                               "highest", "lowest"):
        if any(rolls(k.value) for k in tree.keywords):
            raise NotCovered("a keyword that rolls dice")
        # Each argument once, into a temporary, so rolled dice are not rolled twice.
        temps = []
        for arg in tree.args:
            temp = f"_a{fn.c.fresh()}"
            fn.out.line(f"{_ident(temp)} = {gen.gen(arg)[0]}")
            fn.bind(temp)
            temps.append(dice_ast.Name((temp,), arg.span))
        call = replace(tree, args=tuple(temps))
        fn.out.line(f"{target} = {gen.gen(call)[0]}")
        fn.out.line(f"{target}__aside = {gen.aside(call)}")
    elif isinstance(tree, dice_ast.Name) and len(tree.path) == 1 and tree.path[0] in fn.asides:
        fn.out.line(f"{target} = {_ident(tree.path[0])}")
        fn.out.line(f"{target}__aside = {_ident(tree.path[0])}__aside")
    elif isinstance(tree, (dice_ast.Dice, dice_ast.PoolLiteral)):
        fn.out.line(f"{target} = {gen.gen(tree)[0]}")
        fn.out.line(f"{target}__aside = ()")
    else:
        raise NotCovered("aside of this kind of value")
    fn.bind(name, POOL)
    fn.asides.add(name)


def step_set(fn: _Function, step: model.SetStep) -> None:
    for target, formula in step.assignments:
        src, kind = fn.expr(formula)
        fn.assign(target, src, kind)


def step_let(fn: _Function, step) -> None:
    for name, formula in step.assignments:
        _with_aside(fn, name, formula)


def step_note(fn: _Function, step: model.NoteStep) -> None:
    for target, template in step.notes:
        texts = {}
        for lang, parts in template.parts.items():
            pieces = []
            for part in parts:
                if isinstance(part, str):
                    pieces.append(repr(part))
                else:
                    if rolls(part.tree):
                        raise NotCovered("a text that rolls dice")
                    pieces.append(f"_fmt({ExprSource(fn.resolve, fn.aside_of).gen(part.tree)[0]}, {lang!r})")
            texts[lang] = "".join(["(", " + ".join(pieces) or "''", ")"])
        if len(texts) == 1:
            fn.assign(target, texts["en"])
        else:   # several languages: kept as the game state keeps them, {lang: text}
            fn.assign(target, "{" + ", ".join(f"{lang!r}: {src}" for lang, src in texts.items()) + "}")


def step_if(fn: _Function, step: model.IfStep) -> None:
    fn.out.line(f"if {fn.truth(step.test)}:")
    before = dict(fn.kinds)
    fn.out.depth += 1
    fn.block(step.then)
    fn.out.depth -= 1
    after_then, fn.kinds = fn.kinds, dict(before)
    if step.otherwise:
        fn.out.line("else:")
        fn.out.depth += 1
        fn.block(step.otherwise)
        fn.out.depth -= 1
    # After the if, a local's kind is known only where both ways agree.
    fn.kinds = {name: kind for name, kind in after_then.items() if fn.kinds.get(name) == kind}


def _forget_kinds(fn: _Function, body: list) -> None:
    """Inside and after a loop a local may hold what a later step of an earlier round put there."""
    for step in _steps_in(body):
        for name in _bound_names(step):
            fn.kinds.pop(name, None)


def _bound_names(step) -> list:
    if isinstance(step, (model.LetStep, model.RollStep)):
        return [name for name, _ in step.assignments]
    if isinstance(step, model.SetStep):
        return [target[0] for target, _ in step.assignments if len(target) == 1]
    names = [getattr(step, attr, None) for attr in ("var", "result", "index")]
    return [n for n in names if isinstance(n, str)]


def step_repeat(fn: _Function, step: model.RepeatStep) -> None:
    out = fn.out
    counter = f"_i{fn.c.fresh()}"
    _forget_kinds(fn, step.body)
    if step.index:
        fn.bind(step.index, NUM)
    if step.times is not None:
        bound = fn.number(step.times)
        if step.max is not None:
            bound = f"min({bound}, {step.max})"
        out.line(f"for {counter} in range(_loop({bound})):")
        out.depth += 1
        if step.index:
            out.line(f"{_ident(step.index)} = {counter} + 1")
        fn.block(step.body)
        out.depth -= 1
        _forget_kinds(fn, step.body)
        return
    out.line(f"for {counter} in range(_loop({step.max})):")
    out.depth += 1
    if step.while_ is not None:
        out.line(f"if not {fn.truth(step.while_)}:")
        out.line("    break")
    if step.index:
        out.line(f"{_ident(step.index)} = {counter} + 1")
    fn.block(step.body)
    if step.until is not None:
        out.line(f"if {fn.truth(step.until)}:")
        out.line("    break")
    out.depth -= 1
    _forget_kinds(fn, step.body)


def step_for_each(fn: _Function, step: model.ForEachStep) -> None:
    source = f"list(G[{step.group!r}])" if step.group is not None else f"_each({fn.expr(step.source)[0]})"
    _forget_kinds(fn, step.body)
    fn.bind(step.var, NUM if step.group is None else ANY)
    fn.out.line(f"for {_ident(step.var)} in {source}:")
    fn.out.depth += 1
    fn.block(step.body)
    fn.out.depth -= 1
    _forget_kinds(fn, step.body)


def step_call(fn: _Function, step: model.CallStep) -> None:
    procedure = fn.c.ruleset.procedures[step.procedure]
    given = dict(step.args)
    args = ", ".join(fn.expr(given[p])[0] for p in procedure.params)
    call = f"p_{step.procedure}(G{', ' if args else ''}{args})"
    if step.result:
        fn.bind(step.result)
        fn.out.line(f"{_ident(step.result)} = {call}")
    else:
        fn.out.line(call)


def step_return(fn: _Function, step: model.ReturnStep) -> None:
    fn.out.line(f"return {fn.expr(step.value)[0] if step.value is not None else 'None'}")


def step_ask(fn: _Function, step: model.AskStep) -> None:
    for formula in (step.min, step.max, step.default, step.source):
        if formula is not None and not fn.pure(formula):
            raise NotCovered("a question whose bounds roll dice")
    auto = fn.expr(step.auto)[0]
    lo = fn.number(step.min) if step.min is not None else "None"
    hi = fn.number(step.max) if step.max is not None else "None"
    pool = f"_L.pool({fn.expr(step.source)[0]})" if step.source is not None else "()"
    fn.bind(step.var, {"number": NUM, "pick": POOL}.get(step.kind, ANY))
    fn.out.line(f"{_ident(step.var)} = _ask({step.kind!r}, {auto}, {lo}, {hi}, {step.choices!r}, {pool})")


def step_say(fn: _Function, step) -> None:
    fn.out.line("pass")   # a simulation keeps no chronicle


def step_lookup(fn: _Function, step: model.LookupStep) -> None:
    keys = ", ".join(fn.expr(k)[0] for k in step.keys)
    fn.bind(step.var)
    fn.out.line(f"{_ident(step.var)} = _lookup(_T[{step.table!r}], [{keys}])")


def step_move(fn: _Function, step: model.MoveStep) -> None:
    out = fn.out
    out.line(f"_ms = {fn.read(step.source)}")
    out.line(f"_mt = {fn.read(step.target)}")
    out.line(f"_mf = {fn.number(step.floor) if step.floor is not None else '0'}")
    if step.count is not None:
        out.line("if type(_ms) is not int or type(_mt) is not int: raise Fallback()")
        out.line(f"_mn = max(0, min(max(0, {fn.number(step.count)}), _ms - _mf))")
        fn.assign(step.source, "_ms - _mn")
        fn.assign(step.target, "_mt + _mn")
        return
    out.line(f"_ms, _mt = _move_dice(_ms, _mt, {fn.expr(step.dice)[0]}, _mf)")
    fn.assign(step.source, "_ms")
    fn.assign(step.target, "_mt")


def step_mark(fn: _Function, step: model.MarkStep) -> None:
    n = fn.number(step.count) if step.count is not None else "1"
    track = fn.read(step.track)
    fn.out.line(f"_mark({track}, {n}, {step.clear})")


def step_end(fn: _Function, step: model.EndStep) -> None:
    if step.target == "game":
        fn.out.line(f"raise EndGame({step.result!r})")
    else:
        fn.out.line(f"raise EndLevel({step.target!r})")


STEPS = {
    model.SetStep: step_set, model.LetStep: step_let, model.RollStep: step_let, model.NoteStep: step_note,
    model.IfStep: step_if, model.RepeatStep: step_repeat, model.ForEachStep: step_for_each,
    model.CallStep: step_call, model.ReturnStep: step_return, model.AskStep: step_ask, model.SayStep: step_say,
    model.LookupStep: step_lookup, model.MoveStep: step_move, model.MarkStep: step_mark, model.EndStep: step_end,
}


# ---- the runtime helpers the generated code calls -----------------------------------------

def _assign(container, key, value):
    if not isinstance(container, dict):
        raise Fallback()
    old = container.get(key)
    if isinstance(old, dict) and "marked" in old:
        raise Fallback()
    container[key] = value


def _loop(n):
    if type(n) is not int or n > MAX_LOOP:
        raise Fallback()
    return n


def _each(value):
    if isinstance(value, (tuple, list)):
        return list(value)
    raise Fallback()


def _fmt(value, lang):
    if isinstance(value, tuple):
        return format_value(list(value), lang)
    return format_value(value, lang)


def _ask(kind, auto, lo, hi, choices, pool):
    decision = Decision("", "", kind, min=lo, max=hi, choices=choices, pool=pool)
    try:
        value = decision.check(list(auto) if isinstance(auto, tuple) else auto)
    except DecisionError:
        raise Fallback() from None
    return tuple(value) if kind == "pick" else value


def _lookup(table, keys):
    keys = [sum(k) if isinstance(k, (tuple, list)) else k for k in keys]
    row = table.find(keys)
    if row is None:
        raise Fallback()
    return row


def _move_dice(source, target, faces, floor):
    faces = [faces] if type(faces) is int else list(fastlib.pool(faces))
    if not isinstance(source, (list, tuple)) or not isinstance(target, (list, tuple)):
        raise Fallback()
    left = list(source)
    for face in faces:
        if face not in left:
            raise Fallback()
        left.remove(face)
    keep_back = max(0, floor - (len(source) - len(faces)))
    moving = faces[: len(faces) - keep_back] if keep_back else faces
    left = list(source)
    for face in moving:
        left.remove(face)
    return tuple(left), tuple(target) + tuple(moving)


def _mark(track, n, clear):
    if not isinstance(track, dict) or type(n) is not int:
        raise Fallback()
    _set_marked(track, track["marked"] + (-n if clear else n))


class RulesetCompiler:
    """Python source for the blocks, actions and formulas of one ruleset with one set of params."""

    def __init__(self, ruleset: model.Ruleset, params: dict):
        self.ruleset = ruleset
        self.params = params
        self.rolled_params = {name for name, p in ruleset.params.items() if p.type == "dice"}
        self.counter = itertools.count()
        self.aside_names = self._names_read_aside()
        self.functions: list[str] = []
        self.has_endings = False
        self.blocks: dict[int, str] = {}      # id(step list) -> function name
        self.tests: dict[int, str] = {}       # id(formula) -> function name

    def fresh(self) -> int:
        return next(self.counter)

    def _names_read_aside(self) -> set:
        """Names the ruleset reads as aside(NAME): only those carry their left-out dice along."""
        found = set()
        formulas = []
        for action in self.ruleset.actions.values():
            formulas += _formulas_in(action.steps)
        for procedure in self.ruleset.procedures.values():
            formulas += _formulas_in(procedure.steps)
        for formula in formulas:
            for node in dice_ast.walk(formula.expr.tree):
                if isinstance(node, dice_ast.Call) and node.function == "aside" and node.args \
                        and isinstance(node.args[0], dice_ast.Name) and len(node.args[0].path) == 1:
                    found.add(node.args[0].path[0])
        return found

    def function(self, name: str, params: tuple, steps: list) -> bool:
        fn = _Function(self, params)
        try:
            fn.block(steps)
        except NotCovered:
            return False
        args = "".join(f", {_ident(p)}" for p in params)
        self.functions.append(f"def {name}(G{args}):\n" + "\n".join(fn.out.lines) + "\n")
        return True

    def test(self, formula: model.Formula) -> None:
        fn = _Function(self, ())
        try:
            src = fn.truth(formula)
        except NotCovered:
            return
        name = f"t_{self.fresh()}"
        self.functions.append(f"def {name}(G):\n    return {src}\n")
        self.tests[id(formula)] = name

    def build(self) -> "Compiled":
        ruleset = self.ruleset
        recursive = _on_call_cycles(ruleset)
        sources = {}
        for name, procedure in ruleset.procedures.items():
            fn = _Function(self, procedure.params)
            try:
                fn.block(list(procedure.steps))
            except NotCovered:
                continue
            args = "".join(f", {_ident(p)}" for p in procedure.params)
            if name in recursive:
                # Only a procedure that can reach itself counts its depth, against the interpreter's limit.
                sources[name] = (f"def p_{name}(G{args}):\n    _depth()\n    try:\n"
                                 + "\n".join("    " + line for line in fn.out.lines)
                                 + "\n    finally:\n        _D[0] -= 1\n")
            else:
                sources[name] = f"def p_{name}(G{args}):\n" + "\n".join(fn.out.lines) + "\n"
        # A procedure that calls one left to the interpreter is left to it too.
        covered_procedures = set(sources)
        changed = True
        while changed:
            changed = False
            for name in list(covered_procedures):
                if not _calls(ruleset.procedures[name].steps) <= covered_procedures:
                    covered_procedures.discard(name)
                    changed = True
        self.functions += [sources[name] for name in sources if name in covered_procedures]
        blocks = [(f"a_{name}", action.steps, tuple(action.params)) for name, action in ruleset.actions.items()]
        blocks.append(("setup", ruleset.setup, ()))
        for i, level in enumerate(ruleset.loop):
            blocks += [(f"begin_{i}", level.begin, ()), (f"finish_{i}", level.finish, ()), (f"then_{i}", level.then, ())]
        for i, trigger in enumerate(ruleset.triggers):
            blocks.append((f"trigger_{i}", trigger.do, ()))
        for name, steps, params in blocks:
            if _calls(steps) <= covered_procedures and self.function(name, params, steps):
                self.blocks[id(steps)] = (name, params)
        for formula in [t.when for t in ruleset.triggers] + [e.when for e in ruleset.end]:
            self.test(formula)
        self.ending_function()
        return Compiled(self, "\n".join(self.functions))

    def ending_function(self) -> None:
        """One function for the end conditions, in order: the index of the first that holds, or -1."""
        lines = []
        for i, ending in enumerate(self.ruleset.end):
            fn = _Function(self, ())
            try:
                lines.append(f"    if {fn.truth(ending.when)}:\n        return {i}")
            except NotCovered:
                return
        self.functions.append("def endings(G):\n" + "\n".join(lines + ["    return -1"]) + "\n")
        self.has_endings = True


def _steps_in(steps):
    for step in steps:
        yield step
        for attr in ("then", "otherwise", "body"):
            inner = getattr(step, attr, None)
            if isinstance(inner, list):
                yield from _steps_in(inner)


def _formulas_in(steps) -> list:
    found = []
    for step in _steps_in(steps):
        for name in getattr(step, "__dataclass_fields__", ()):
            value = getattr(step, name)
            if isinstance(value, model.Formula):
                found.append(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, tuple):
                        found += [x for x in item if isinstance(x, model.Formula)]
    return found


def _on_call_cycles(ruleset: model.Ruleset) -> set:
    """The procedures that can call themselves, directly or through others."""
    calls = {name: _calls(p.steps) for name, p in ruleset.procedures.items()}
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


def _calls(steps) -> set:
    return {step.procedure for step in _steps_in(steps) if isinstance(step, model.CallStep)}


class RoundLimit(Exception):
    """A game went past the simulation's bound on rounds."""


class Compiled:
    """The functions of one compiled ruleset, bound to one game's dice at a time."""

    def __init__(self, compiler: RulesetCompiler, source: str):
        self.source = source
        self.depth = [0]
        self.namespace = {
            "_L": fastlib, "Fallback": Fallback, "EndGame": EndGame, "EndLevel": EndLevel, "_R": None,
            "_T": compiler.ruleset.tables, "_assign": _assign, "_loop": _loop,
            "_each": _each, "_fmt": _fmt, "_ask": _ask, "_lookup": _lookup, "_move_dice": _move_dice,
            "_mark": _mark, "_D": self.depth, "_depth": self._enter,
        }
        exec(compile(source, f"<compiled {compiler.ruleset.id}>", "exec"), self.namespace)  # noqa: S102 - our own source
        self.blocks = {key: (self.namespace[name], params) for key, (name, params) in compiler.blocks.items()}
        self.tests = {key: self.namespace[name] for key, name in compiler.tests.items()}
        self.endings = self.namespace["endings"] if compiler.has_endings else None

    def _enter(self):
        self.depth[0] += 1
        if self.depth[0] > MAX_DEPTH:
            raise Fallback()

    def bind(self, rng) -> None:
        self.namespace["_R"] = rng.randint
        self.depth[0] = 0


class CompiledRun(Run):
    """A Run whose blocks and tests go through the compiled functions where there are some."""

    compiled: Compiled

    def block(self, steps: list, env: Env) -> None:
        entry = self.compiled.blocks.get(id(steps))
        if entry is None:
            return super().block(steps, env)
        function, params = entry
        try:
            function(self.glob, *[env.local[p] for p in params])
        except (EndGame, EndLevel, Return, Fallback):
            raise
        except Exception:  # noqa: BLE001 - anything else on the compiled path: play the game interpreted
            raise Fallback() from None

    def truth(self, formula: model.Formula, env: Env) -> bool:
        test = self.compiled.tests.get(id(formula))
        if test is None or env.local:
            return super().truth(formula, env)
        try:
            return test(self.glob)
        except Fallback:
            raise
        except Exception:  # noqa: BLE001 - as above
            raise Fallback() from None


class CompiledGame(Game):
    """A game whose actions run compiled (simulations only: no log, no undo, automatic answers)."""

    compiled: Compiled

    @classmethod
    def start_compiled(cls, ruleset: model.Ruleset, params: dict, seed: int, compiled: Compiled) -> "CompiledGame":
        game = cls(ruleset, params, seed, record=False, auto=True)
        game.compiled = compiled
        compiled.bind(game.rng)
        game.last_outcome = game._perform("setup", {})
        game._run = game._make_run([])
        return game

    def _check_endings(self, run: Run) -> bool:
        endings = self.compiled.endings
        if endings is None or self.over:
            return super()._check_endings(run)
        try:
            which = endings(self.values)
        except Fallback:
            raise
        except Exception:  # noqa: BLE001 - as in CompiledRun
            raise Fallback() from None
        if which < 0:
            return False
        self._finish(run, self.ruleset.end[which].result)
        return True

    def _make_run(self, answers: list) -> Run:
        run = CompiledRun(self, answers, self.auto, self.record, self.limits)
        run.compiled = self.compiled
        return run

    def play_round(self, name: str) -> None:
        """One iteration of the loop action, with less ceremony than perform(): no arguments to
        check, nothing to roll back or show. The same steps, triggers, end conditions and loop."""
        action = self.ruleset.actions[name]
        entry = self.compiled.blocks.get(id(action.steps))
        if entry is None or entry[1] or action.when is not None:
            self.perform(name)
            return
        run = self._run
        try:
            ended = None
            try:
                entry[0](self.values)
            except EndLevel as end:
                ended = end.level
            except Return:
                pass
            except (EndGame, Fallback):
                raise
            except Exception:  # noqa: BLE001 - anything else on the compiled path: play the game interpreted
                raise Fallback() from None
            if self.ruleset.triggers:
                ended = self._run_triggers(run, ended)
            if not self._check_endings(run):
                if ended is None:
                    self._next_round(run)
                else:
                    self._advance(run, ended)
                self._check_endings(run)
        except EndGame as end:
            self._finish(run, end.result)
        self.turn += 1

    def play_to_end(self, name: str, max_rounds: int) -> int:
        """Rounds of the loop action until the game ends; how many were played.

        For the common shape (an action compiled whole, no triggers, end conditions compiled, an
        innermost level with no begin:, finish: or times:) the rounds run in one tight loop doing
        what play_round does; any other shape goes round by round through play_round."""
        action = self.ruleset.actions[name]
        entry = self.compiled.blocks.get(id(action.steps))
        loop = self.ruleset.loop
        level = loop[-1] if loop else None
        endings = self.compiled.endings
        rounds = 0
        simple = (entry is not None and not entry[1] and action.when is None and not self.ruleset.triggers
                  and endings is not None and level is not None and action.plays_level == level.name
                  and not level.begin and not level.finish and level.times is None)
        if not simple:
            while not self.over:
                if rounds >= max_rounds:
                    raise RoundLimit(max_rounds)
                self.play_round(name)
                rounds += 1
            return rounds
        function, values, run = entry[0], self.values, self._run
        counters, counter, bound, inner = values["loop"], level.name, level.max, len(loop) - 1
        results = [ending.result for ending in self.ruleset.end]
        reads_loop = any(path[0] == "loop" for ending in self.ruleset.end for path, _ in ending.when.expr.names)
        while not self.over:
            if rounds >= max_rounds:
                raise RoundLimit(max_rounds)
            rounds += 1
            try:
                try:
                    function(values)
                except EndLevel as end:       # the loop's generic path: rare
                    if not self._check_endings(run):
                        self._advance(run, end.level)
                        self._check_endings(run)
                    self.turn += 1
                    continue
                except Return:
                    pass
                which = endings(values)
                if which < 0:
                    counters[counter] += 1
                    if bound is not None and counters[counter] > bound:
                        self._level_complete(run, inner)
                        which = endings(values)
                    elif reads_loop:      # only the counter moved: it matters if an end reads it
                        which = endings(values)
                if which >= 0:
                    self._finish(run, results[which])
            except EndGame as end:
                self._finish(run, end.result)
            except Fallback:
                raise
            except Exception:  # noqa: BLE001 - as in CompiledRun
                raise Fallback() from None
            self.turn += 1
        return rounds

    def _next_round(self, run: Run) -> None:
        """What _advance does when the innermost iteration simply ends: its finish:, its counter,
        and its begin: (or, when it has run them all, the level's end)."""
        levels = self.ruleset.loop
        i = len(levels) - 1
        level = levels[i]
        if level.finish:
            self._level_block(run, level.finish, i)
        counters = self.values["loop"]
        counters[level.name] += 1
        if level.times is not None or (level.max is not None and counters[level.name] > level.max):
            if self._level_done(run, level):
                self._level_complete(run, i)
                return
        if level.begin:
            self._level_block(run, level.begin, i)


def compile_ruleset(ruleset: model.Ruleset, params: dict) -> Compiled:
    return RulesetCompiler(ruleset, params).build()
