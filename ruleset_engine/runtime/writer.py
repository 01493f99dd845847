"""Writing one function of a ruleset's program: the `w` that each step kind's lowering talks to.

A FunctionWriter turns steps into lines of Python, one statement per formula, each line
remembering the formula or step it came from (so an error when it runs is reported where the
ruleset wrote it). It resolves names the way the checker scoped them (locals, then state,
entities, params, loop counters), records the kinds of what is bound and written (the program
writer joins them until they settle), counts steps against the limit, and writes the game's
values to the dictionary of the table (traced) or to the program's own cells (untraced).
"""

from __future__ import annotations

from contextlib import contextmanager

from ruleset_engine import i18n
from ruleset_engine.dice import DiceError, DiceTypeError
from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.dice.kinds import ANY, BOOL, NUM, POOL, STR, join
from ruleset_engine.dice.lowering import Lowering, Src
from ruleset_engine.dice.runtime import MAX_NUMBER
from ruleset_engine.ruleset.model import MAX_NESTING
from ruleset_engine.ruleset.queries import QUERIES, lower_query
from ruleset_engine.ruleset.steps import KINDS

from .at_once import write_checks

LOWER = {kind.node: kind.lower for kind in KINDS.values()}
TRACK_NUMBERS = ("marked", "free", "size", "next", "last")


class FunctionWriter:
    def __init__(self, program, name: str, params=(), entity_params=None, site=None):
        self.program = program
        self.traced = program.traced
        self.name = name
        self.lines: list[tuple[int, str, object]] = []    # (indent, text, origin)
        self.depth = 1
        self.params = tuple(params)                         # (ruleset name, kind) of the function's parameters
        self.defined: set = {p for p, _ in self.params}
        self.entity_locals: dict = dict(entity_params or {})   # local -> the entity whose instance it holds
        self.assigned: set = set()                          # locals bound in the body (initialised first)
        self.cells: set = set()                             # the program's cells this function writes
        self.loops: list = []
        self.current = site                                 # the step being written (default origin)
        self.pending = None                                 # a formula handed out to be written in place
        self.counter = 0
        self.failed = False       # the formula lowered last could not be written (a problem noted)
        # Python texts of numbers known to be within the limit of numbers (what value() gave: checked,
        # or within by its bounds): a write of anything else is checked where it is stored (assign).
        self.within: set[str] = set()
        self.kinds = program.local_kinds.setdefault(name, {})
        self.kinds_key = name                               # whose locals these are (an inlined procedure's own)
        self.prefix = ""                                    # of the Python names of those locals
        for p, kind in self.params:
            self.observe_local(p, kind)

    # ---- lines
    def line(self, text: str, origin=None) -> None:
        """One line; its origin is the formula or step an error on it is reported at (by default the
        formula whose value was handed out to be written in this line, else the step)."""
        if origin is None:
            origin = self.pending if self.pending is not None else self.current
        self.pending = None
        self.lines.append((self.depth, text, origin))

    @contextmanager
    def indent(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    @contextmanager
    def loop(self, step):
        self.loops.append(step)
        try:
            yield
        finally:
            self.loops.pop()

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def const(self, value, hint: str = "k") -> str:
        return self.program.ns.const(value, hint)

    def cell(self, name: str) -> str:
        """A cell of the untraced program that this function writes (declared nonlocal)."""
        self.cells.add(name)
        return name

    # ---- names
    def local(self, name: str) -> str:
        return "v_" + self.prefix + name

    def observe_local(self, name: str, kind: str) -> None:
        observed = self.program.observed_locals.setdefault(self.kinds_key, {})
        observed[name] = join(observed.get(name), kind)

    @contextmanager
    def scope(self, key: str, prefix: str):
        """The locals of another function written in place (an inlined procedure): its own names."""
        saved = (self.kinds_key, self.prefix, self.defined, self.entity_locals, self.kinds, self.loops, self.current)
        self.kinds_key, self.prefix, self.defined, self.entity_locals = key, prefix, set(), {}
        self.kinds = self.program.local_kinds.setdefault(key, {})
        self.loops = []
        try:
            yield
        finally:
            (self.kinds_key, self.prefix, self.defined, self.entity_locals, self.kinds, self.loops,
             self.current) = saved

    def local_kind(self, name: str) -> str:
        return self.kinds.get(name) or ANY

    def bound(self, name: str, kind: str, entity: str | None = None) -> None:
        """A local name is bound from here on (as the checker's scope has it)."""
        self.defined.add(name)
        if self.prefix or name not in {p for p, _ in self.params}:
            self.assigned.add(self.local(name))
        self.observe_local(name, kind)
        if self.failed:
            # Its formula is a problem already said: reading the local must not say more (the kind
            # a previous pass gave it came from the formula as it was then understood).
            self.kinds[name] = ANY
        if entity is not None:
            self.entity_locals[name] = entity

    def resolve(self, node) -> Src:
        """A name read by a formula, as the lowering needs it."""
        path, span = node.path, node.span
        head, rest = path[0], path[1:]
        p = self.program
        if head in self.defined:
            base = self.local(head)
            if not rest:
                kind = self.local_kind(head)
                # A parameter of the function being written is bound for sure; another local may
                # have been left unbound by a branch not taken.
                sure = not self.prefix and head in {name for name, _ in self.params} and kind != ANY
                return Src(base, kind, simple=True, safe=sure)
            return self.member(base, self.entity_locals.get(head), rest, span, sure=False)
        if head == "params":
            return p.param_source(rest, span)
        if head == "loop":
            return p.loop_source(rest)
        if head in p.ruleset.state:
            kind = p.state_kind(head)
            base = f"G[{head!r}]" if self.traced else f"s_{head}"
            if rest:
                return self.dynamic(base, rest, span)
            if self.traced and kind in (POOL, ANY):
                return Src(f"_t_env({base})", kind)
            return Src(base, kind, simple=True, safe=kind != ANY)
        if head in p.ruleset.entities:
            base = f"G[{head!r}]" if self.traced else f"e_{head}"
            if p.ruleset.entities[head].is_group or not rest:
                return Src(base, ANY, simple=True)
            return self.member(base, head, rest, span)
        return self.dynamic("G" if self.traced else "{}", path, span)

    def member(self, base: str, entity: str | None, rest: tuple, span, sure: bool = True) -> Src:
        """A field of an entity instance (its kind known), a track's numbers, or a row's column.
        `sure`: the instance is there for certain (not a local a branch may have left unbound)."""
        p = self.program
        spec = p.ruleset.entities.get(entity) if entity else None
        if spec is None:
            return self.dynamic(base, rest, span)
        field = rest[0]
        text = f"{base}[{field!r}]"
        if field in spec.tracks:
            counts = ("marked", "free", "size")
            rule = spec.tracks[field].rule
            if len(rest) == 2 and (rest[1] in counts or rest[1] in TRACK_NUMBERS and spec.tracks[field].numbered or
                                   rule is not None and rest[1] in rule.types):
                return Src(f"{text}[{rest[1]!r}]", NUM, simple=True, safe=sure)
            return self.dynamic(text, rest[1:], span) if len(rest) > 1 else Src(text, ANY, simple=True)
        if len(rest) > 1:
            return self.dynamic(text, rest[1:], span)
        kind = p.field_kind(entity, field)
        if self.traced and kind in (POOL, ANY):
            return Src(f"_t_env({text})", kind)
        return Src(text, kind, simple=True, safe=sure and kind != ANY)

    def dynamic(self, base: str, rest: tuple, span) -> Src:
        """A path into a value whose shape is known only when it runs (a row, a dictionary)."""
        if not rest:
            return Src(base, ANY, simple=True)
        convert = "_t_env" if self.traced else "_u_env"
        return Src(f"_env_name({base}, {tuple(rest)!r}, {span!r}, {convert})", ANY)

    # ---- formulas
    def may_keep_aside(self, formula) -> bool:
        """Whether a formula's untraced value may be a pool carrying what it set aside (it is tracked,
        or reads a name that may hold one): only then is it made plain when the state keeps it."""
        p = self.program
        if not p.aside:
            return False
        expr = formula.expr
        return self.tracks_aside(expr) or any(
            isinstance(n, dice_ast.Name) and n.path[0] in p.holders for n in dice_ast.walk(expr.tree))

    def tracks_aside(self, expr) -> bool:
        """Whether this expression's untraced pools carry what they set aside (program.tracked; a
        formula written on the fly, a dice param's, by whether it calls aside itself)."""
        p = self.program
        if not p.aside:
            return False
        if id(expr) in p.tracked:
            return True
        known = p.calls_aside.get(id(expr))
        if known is None:     # a pure function of the tree, which is never changed once parsed
            known = p.calls_aside[id(expr)] = (expr, dice_ast.reads_aside(expr.tree))
        return known[1]

    def lowering(self, text: str, rng: str = "R", aside: bool = False) -> Lowering:
        p = self.program
        return Lowering(text, p.dice_limits, traced=self.traced, names=self.resolve, ns=p.ns, aside=aside,
                        tally="C", rng=rng, kinds=p.kinds, calls=self.record_call,
                        formulas=p.ruleset.formulas)

    def record_call(self, lo: Lowering, node, path: tuple, span) -> Src | None:
        """A read of a record between two instances, NAME(a, b).FIELD (the checker has checked the
        call's arguments and field); None for a name that is not one of the ruleset's pairs."""
        p = self.program
        if node.function in QUERIES and node.function not in p.ruleset.pairs:
            return lower_query(self, lo, node, path, span)       # a query over a group (ruleset/queries.py)
        spec = p.ruleset.pairs.get(node.function)
        if spec is None:
            return None
        if len(node.args) != 2 or path and (len(path) > 1 or path[0] not in spec.fields):
            raise lo.fail(DiceTypeError, i18n._("{function}(..) takes two instances and gives a record of "
                                                "{fields}").format(function=node.function,
                                                                   fields=", ".join(spec.fields) or i18n._("no fields")),
                          span)
        a, b = lo.node(node.args[0]), lo.node(node.args[1])
        field = repr(path[0]) if path else "None"
        convert = "_t_env" if self.traced else "_u_env"
        return Src(f"_pair_read({p.pair_store(node.function)}, {self.group(spec.between)}, {a.text}, {b.text}, "
                   f"{spec.ordered}, {node.function!r}, {self.const(spec.fields, 'pd')}, {field}, {span!r}, "
                   f"{convert})", ANY)

    def lower(self, formula, rng: str = "R") -> tuple[Src, Lowering]:
        lo = self.lowering(formula.text, rng, aside=self.tracks_aside(formula.expr))
        try:
            src = lo.lower(formula.expr.tree)
        except DiceError as err:
            self.failed = True
            return self.program.problem(err, formula), lo
        self.failed = False
        for definition in lo.hoisted:
            self.line(definition, formula)
        return src, lo

    def value(self, formula, into: str | None = None, inline: bool = False) -> tuple[str, str]:
        """Evaluate a formula (into a local of the function, or a fresh one); (source to read it, kind).
        At the table, a formula that drew dice logs its roll. `inline`: the caller writes the
        formula's source in its very next line, when nothing must be done around it."""
        src, lo = self.lower(formula)
        if src.simple and into is None:
            self.within.add(src.text)
            return src.text, src.kind
        grows = _may_grow(src)
        if inline and into is None and not grows and not (self.traced and src.dice) \
                and not (not self.traced and lo.track):
            self.pending = formula
            self.within.add(src.text)
            return src.text, src.kind
        target = into or self.fresh("_v")
        if self.traced and src.dice:
            self.line(f"C.trace({self.const(formula.text, 'f')})")
            self.line(f"{target} = {src.text}", formula)
            self.line(f"C.after_formula({self.const(formula.text, 'f')}, {target})", formula)
        else:
            if not self.traced and lo.track:
                self.line("C.budget = C.limit")
            self.line(f"{target} = {src.text}", formula)
        if grows:
            self.number_checked(target, formula)
        self.within.add(target)
        return target, src.kind

    def number_checked(self, target: str, formula) -> None:
        """A number about to be kept, held to the limit of numbers: kept values are what a loop can
        grow without end (x + x, again and again), and a formula is finite, so one check here bounds
        every number a game builds."""
        self.line(f"if not {-MAX_NUMBER} <= {target} <= {MAX_NUMBER}: _too_big({target})", formula)

    def roll(self, formula, name: str, label, own: tuple = ()) -> None:
        """A roll: step's formula, bound to the local `name`: at the table its roll is always logged,
        under its name and its label (a text, whose placeholders may show the roll itself, so the
        name is bound before the label is lowered)."""
        src, lo = self.lower(formula)
        into = self.local(name)
        # Real dice are asked for under the label: a constant one as it is; one whose placeholders
        # read nothing the step rolls is rendered before the roll (`Mara strikes Oren`), and the
        # same text is shown after it; one that reads the roll is asked for under the roll's name.
        # Both modes evaluate it at the same point, so a label that fails, fails before the same dice.
        early = label is not None and not label.is_constant and not _reads_any(label, own or (name,))
        if not self.traced:
            if early:
                self.text_checked(label)
            if lo.track:
                self.line("C.budget = C.limit")
            self.line(f"{into} = {src.text}", formula)
            if _may_grow(src):          # a local kept: held to the limit of numbers as any value kept
                self.number_checked(into, formula)
            self.bound(name, src.kind)
            if label is not None and not early:
                self.text_checked(label)
            return
        shown = None
        if early:
            shown = self.fresh("_lb")
            self.line(f"{shown} = _to_state({self.text(label)})")
            self.line(f"C.trace({shown})")
        else:
            purpose = name if label is None or not label.is_constant else label.constant()
            self.line(f"C.trace({self.const(purpose, 'l')})")
        self.line(f"{into} = {src.text}", formula)
        if _may_grow(src):
            self.number_checked(into, formula)
        self.bound(name, src.kind)
        steps = self.fresh("_r")
        self.line(f"{steps} = C.end_trace()")
        if shown is None:
            shown = f"_to_state({self.text(label)})" if label is not None else "None"
        self.line(f"C.roll_event({self.const(formula.text, 'f')}, {into}, {name!r}, {shown}, {steps})", formula)

    def number(self, formula, what: str) -> str:
        """A formula that must give a whole number (a pool means its total)."""
        text, kind = self.value(formula)
        if kind == NUM:
            return text
        target = self.fresh("_n")
        self.line(f"{target} = _whole({text}, {what!r})", formula)
        self.within.add(target)         # a pool's total: its dice and faces are bounded
        return target

    def truth(self, formula) -> str:
        """A test, written in the caller's next line."""
        text, kind = self.value(formula, inline=True)
        if kind == BOOL:
            return text
        if kind == NUM:
            return f"({text} != 0)"
        if self.pending is not None:      # written in place after all: into a local first
            target = self.fresh("_v")
            self.line(f"{target} = {text}")
            text = target
        target = self.fresh("_c")
        self.line(f"{target} = _truth_value({text})", formula)
        return target

    def text(self, template) -> str:
        """A text rendered now: a string, or a LocalText carrying every language it has. A text
        written as a plain string takes the languages of the texts its placeholders show."""
        rendered = {}
        unbounded = False
        for lang, parts in template.parts.items():
            pieces = []
            for part in parts:
                if isinstance(part, str):
                    pieces.append(repr(part))
                    continue
                src, hoisted = self.placeholder(part)
                # A number or a truth shows in a few characters; a text or a pool may be long.
                unbounded = unbounded or (src.kind not in (NUM, BOOL) and not src.is_const)
                for definition in hoisted:
                    self.line(definition)
                value = self.fresh("_x")
                self.line(f"{value} = {src.text}")
                pieces.append(value if template.plain else f"_fmt({value}, {lang!r})")
            if template.plain:
                rendered[lang] = f"_plain_text(({''.join(p + ', ' for p in pieces)}))"
            else:
                rendered[lang] = " + ".join(pieces) if pieces else "''"
        target = self.fresh("_x")
        if len(rendered) == 1:
            self.line(f"{target} = {next(iter(rendered.values()))}")
        else:
            self.line(f"{target} = _LocalText({{{', '.join(f'{k!r}: {v}' for k, v in rendered.items())}}})")
        if unbounded:
            self.line(f"_text_ok({target})")
        return target

    def placeholder(self, expr) -> tuple[Src, list]:
        """A text's placeholder lowered (it rolls no dice): its source, and the definitions it needs."""
        lo = self.lowering(expr.text, rng="_NO_DICE.randint", aside=self.tracks_aside(expr))
        try:
            return lo.lower(expr.tree), lo.hoisted
        except DiceError as err:
            return self.program.problem(err, None, self.current), []

    def text_checked(self, template) -> None:
        """A text a simulation does not show: its placeholders that could fail are still evaluated
        (their values dropped), so a text that fails at the table fails in a simulation too."""
        for parts in template.parts.values():
            for part in parts:
                if isinstance(part, str):
                    continue
                src, hoisted = self.placeholder(part)
                if not src.cannot_fail:
                    for definition in hoisted:
                        self.line(definition)
                    self.line(f"_ = {src.text}  # shown only at the table, but it may fail")

    @staticmethod
    def text_kind(template) -> str:
        """A one-language text is a string, unless a placeholder could bring in other languages."""
        if len(template.parts) != 1:
            return ANY
        if template.plain and any(not isinstance(part, str) for parts in template.parts.values() for part in parts):
            return ANY
        return STR

    # ---- places
    def read(self, target: tuple) -> str:
        """The value a place holds now, as it is kept (for steps that change it in place or move from it)."""
        head, rest = target[0], target[1:]
        if head in self.defined:
            base = self.local(head)
        elif head in self.program.ruleset.state:
            base = f"G[{head!r}]" if self.traced else f"s_{head}"
        else:
            base = f"G[{head!r}]" if self.traced else f"e_{head}"
        return base + "".join(f"[{part!r}]" for part in rest)

    def group(self, name: str) -> str:
        return f"G[{name!r}]" if self.traced else f"e_{name}"

    def assign(self, target: tuple, value: str, kind: str, step, event: bool = True, kept: bool = True) -> None:
        """Write a value to a place; at the table the write is logged (unless the step logs its own).
        `kept`: the value may carry what it set aside (the state keeps pools plain). A number that
        value() did not give (a step's helper computed it: `_add_to(x, n)`) is held to the limit of
        numbers here, where it is stored, so no step kind can keep one past it."""
        head, rest = target[0], target[1:]
        p = self.program
        if kind == NUM and value not in self.within:
            checked = self.fresh("_k")
            self.line(f"{checked} = {value}")
            self.number_checked(checked, step)
            value = checked
        if head in self.defined and not rest:
            self.line(f"{self.local(head)} = {value}")
            self.bound(head, kind)
            return
        stored = value
        if head in self.defined:
            entity = self.entity_locals.get(head)
            if entity is not None and len(rest) == 1:
                p.observe_field(entity, rest[0], kind)
            elif rest:
                # Through a local whose entity is not known here (a procedure's parameter, say):
                # the field may be any entity's, so none of them is known to hold one kind.
                p.observe_any_field(rest[0])
            place = self.local(head) + "".join(f"[{part!r}]" for part in rest)
        elif head in p.ruleset.state:
            if not rest:
                p.observe_state(head, kind)
            if self.traced:
                place = f"G[{head!r}]" + "".join(f"[{part!r}]" for part in rest)
            else:
                place = self.cell(f"s_{head}") + "".join(f"[{part!r}]" for part in rest)
        else:
            if len(rest) == 1:
                p.observe_field(head, rest[0], kind)
            place = self.read(target)
        if self.traced:
            stored = self.fresh("_w")
            self.line(f"{stored} = _to_state({value})")
            self.line(f"{place} = {stored}")
            if event:
                self.emit("set", target=self.shown(target), value=stored)
        else:
            plain = f"_u_plain({value})" if p.aside and kept and kind in (POOL, ANY) else value
            self.line(f"{place} = {plain}")

    def shown(self, target: tuple) -> str:
        """How a place reads in the log: through a local holding an instance, the instance's name."""
        if target[0] in self.defined and len(target) > 1:
            return f"_shown({self.local(target[0])}, {target!r})"
        return repr(".".join(target))

    # ---- events
    def emit(self, kind: str, **fields) -> None:
        args = "".join(f", {name}={source}" for name, source in fields.items())
        self.line(f"C.emit({kind!r}{args})")

    # ---- blocks and calls
    def block(self, steps: list, checked: bool = False) -> None:
        """A block of steps: its steps count against the action's limit as it starts. The count is
        compared with the limit where steps can pile up without end: as each iteration of a loop
        and each procedure begins (`checked`); between those, an action's steps are finite."""
        if not steps and not self.loops:
            self.line("pass")
            return
        self.cells.add("_st")
        # Every iteration of a loop counts, an empty one as one step: a loop that does nothing a
        # billion times is stopped like one that does something.
        self.line(f"_st += {max(1, len(steps))}")
        if checked or self.loops:
            site = self.loops[-1] if self.loops else steps[0]
            self.line(f"if _st > {self.program.run_limits.max_steps}: "
                      f"C.too_many({self.const(site, 's')}, {bool(self.loops)})")
        for step in steps:
            self.current = step
            if self.program.coverage:
                # `dusk check --playouts`: which steps the games reach (the normal modes write nothing here).
                self.line(f"_reached({self.program.site_number(step)})")
            LOWER[type(step)](self, step)
            write_checks(self, step)      # end conditions that end the game at once (at_once.py)

    def iterations_checked(self, n: str, steps: list, site) -> None:
        """A loop whose number of iterations is known as it starts: refused before its first one if
        they alone would pass the limit of steps."""
        self.cells.add("_st")
        self.line(f"if _st + {n} * {max(1, len(steps))} > {self.program.run_limits.max_steps}: "
                  f"C.too_many({self.const(site, 's')}, True)")

    def call(self, step, args: list, result: str | None) -> None:
        # Written in place only where Python can nest its blocks (it allows 20 loops, one in another).
        if self.program.inlined(step.procedure) and \
                len(self.loops) + self.program.nesting[step.procedure] <= MAX_NESTING:
            # Called from this one place, never itself, never returning a value: written in place.
            procedure = self.program.ruleset.procedures[step.procedure]
            with self.scope(f"p_{step.procedure}", f"{step.procedure}__"):
                for name, value in zip(procedure.params, args):
                    self.line(f"{self.local(name)} = {value}", step)
                    self.bound(name, self.program.proc_kinds.get((step.procedure, name)) or ANY,
                               procedure.groups.get(name))
                self.block(procedure.steps, checked=True)
            if result:
                self.line(f"{self.local(result)} = None")
                self.bound(result, ANY)
            return
        call = f"p_{step.procedure}({', '.join(args)})"
        into = f"{self.local(result)} = " if result else ""
        if step.procedure not in self.program.recursive:
            self.line(f"{into}{call}", step)
        else:
            # Only a procedure that can reach itself counts its depth, against the limit.
            self.cells.add("_dp")
            self.line(f"if _dp >= {self.program.run_limits.max_call_depth}: C.too_deep({self.const(step, 's')})")
            self.line("_dp += 1")
            self.line("try:")
            self.line(f"    {into}{call}", step)
            self.line("finally:")
            self.line("    _dp -= 1")
        if result:
            self.bound(result, ANY)

    # ---- the function
    def source(self, signature: str) -> list[tuple[str, object]]:
        """The function's lines (indented one level, inside the program's make())."""
        out = [(f"    def {self.name}({signature}):", None)]
        cells = sorted(self.cells)
        if cells:
            out.append((f"        nonlocal {', '.join(cells)}", None))
        unset = sorted(self.assigned - {"v_" + p for p, _ in self.params})
        if unset:
            out.append(("        " + " = ".join(unset) + " = None", None))
        if not self.lines:
            out.append(("        pass", None))
        for depth, text, origin in self.lines:
            out.append(("    " * (depth + 1) + text, origin))
        return out


def _may_grow(src: Src) -> bool:
    """Whether a number a formula computes may be past the limit of numbers (a read or a constant
    is within it already; a result whose range is known within it needs no check)."""
    if src.kind != NUM or src.simple or src.is_const or src.near_read:
        return False
    return src.bounds is None or src.bounds[0] < -MAX_NUMBER or src.bounds[1] > MAX_NUMBER


def _reads_any(template, names) -> bool:
    """Whether a text's placeholders read any of these names (a roll's label that shows the roll)."""
    wanted = set(names)
    return any(path[0] in wanted for parts in template.parts.values() for part in parts
               if not isinstance(part, str) for path, _ in dice_ast.names_in(part.tree))
