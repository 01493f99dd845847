"""Checking what a ruleset means, and building the typed Ruleset.

The schema has already said the shape is right; this pass finds what a shape
cannot: formulas that do not parse, names that do not exist, calls to missing
procedures, loops without a bound, table rows that overlap or leave gaps, steps
that can never run. It reports every problem in one pass, each located.

Each step is checked by its kind's registry entry (ruleset/steps/), the way jsonschema
registers one function per keyword; names and scopes are in names.py, tables in tables.py,
entities in entities.py, the loop and actions in flow.py.
"""

from __future__ import annotations

from ruleset_engine.i18n import _, join_list

from contextlib import contextmanager

from ruleset_engine import dice
from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.dice.named import NO_FORMULAS, first_roll

from . import model
from .entities import entity, initial, param
from .flow import action, ending, level, procedure, trigger
from .formulas import formula_book
from .queries import QUERIES, query_problems
from .names import Names, Scope, suggest, unset_problem
from .assigned import after, step_assigns
from .pairs import call_problems, pair
from .problems import Problem, Problems
from .steps import KINDS
from .tables import build_table
from .templates import LocalText, Template, split_template
from .results import check_results
from .words import check_words
from .yamlio import LDict, key_position_of, position_of


class RulesetChecker:
    def __init__(self, data: LDict, file: str, files=(), broken=(), refused: bool = False, real=None):
        self.data = data
        self.real = dict(real or {})      # the name each file is shown by -> its path (to read sheets beside it)
        self.broken = {tuple(path) for path in broken}   # places the schema refused
        self.refused = refused or bool(self.broken)      # the schema found problems (maybe at the top)
        self.file = file
        self.files = tuple(files) or (file,)
        self.problems = Problems()
        self.names = Names()
        self.results: set[str] = set()
        self.languages: set[str] = set()       # every language a text of the ruleset has
        self.level_end_refused: str | None = None   # where the steps being checked run, if no iteration does
        self.nesting = 0                       # blocks of steps around the one being checked
        self.guards: dict = {}                 # group -> its acts: (who may act), once found sound
        self.formulas = NO_FORMULAS   # the named formulas every formula may call (formulas.py)
        self._called: dict = {}       # id(tree) -> (tree, the functions it calls): see called()

    # The global names, as the step checks read them.
    params = property(lambda self: self.names.params)
    entities = property(lambda self: self.names.entities)
    state_names = property(lambda self: self.names.state_names)
    tables = property(lambda self: self.names.tables)
    levels = property(lambda self: self.names.levels)
    procedure_params = property(lambda self: self.names.procedure_params)

    @contextmanager
    def no_level_end(self, where: str):
        """Steps checked inside this run where no loop iteration is running."""
        saved, self.level_end_refused = self.level_end_refused, where
        try:
            yield
        finally:
            self.level_end_refused = saved

    # ---- locals
    def bind(self, scope, name: str, path, binder: str, info=None) -> None:
        """A local name bound from here on (let, roll, ask, lookup, call as:, repeat as:, for_each, a
        parameter). A local named like a state variable or an entity would hide it for the rest of
        the block, and every write meant for the global would go to the local: refused."""
        if name in self.state_names or name in self.entities:
            what = _("a state variable") if name in self.state_names else _("an entity")
            self.problem(_("{binder}: {name!r} is {what}; a local of that name would hide it. Bind "
                           "another name").format(
                               binder=_(binder) if binder == "a procedure's parameter" else binder, name=name,
                               what=what)
                         + ((_(", then write it with set: {form}").format(form="{" + name + ": ...}")
                             if binder in ("let", "roll") else
                             "")),
                         path, at_key=binder in ("let", "roll"))
            scope.said_once(name)     # a later read of it is not refused again as unset
        scope.define(name, info)

    # ---- reporting
    def problem(self, message: str, path, detail=None, at_key: bool = False, place=None) -> None:
        """A problem said at `path` (file:line:col, and the path shown after it); `place`: the path
        whose line and column are given, when the path shown stops short of it."""
        place = path if place is None else place
        position = key_position_of(self.data, place) if at_key else position_of(self.data, place)
        self.problems.append(Problem(message, position, tuple(path), list(detail or [])))

    @staticmethod
    def suggest(name: str, known) -> str:
        return suggest(name, known)

    # ---- formulas and texts
    def formula(self, value, path, scope: Scope | None, what: str = "formula",
                still: bool = False) -> model.Formula | None:
        """A formula, compiled and its names checked. `still`: it is read at any time (to offer an
        action, bound a parameter, report a game), so it may not roll dice."""
        if value is None:
            return None
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int):
            text = str(value)
        elif isinstance(value, str):
            text = value
        else:
            self.problem(_("expected a {what} (a dice-language string), not a {name}").format(
                             what=what, name=type(value).__name__), path)
            return None
        try:
            expr = dice.compile(text, functions=self.functions, formulas=self.formulas)
        except dice.DiceError as err:
            self.formula_problem(err, text, path)
            return None
        if scope is not None:
            self.check_names(expr, text, path, scope)
        if still:
            self.no_dice(expr.tree, text, path, _("this formula is read at any time (to offer an "
                                                  "action, bound a parameter or report a game), so it "
                                                  "cannot roll dice"))
        return model.Formula(text, expr, position_of(self.data, path), tuple(path))

    def no_dice(self, tree, text: str, path, message: str, offset: int = 0) -> None:
        node = first_roll(tree, self.formulas)      # a named formula that rolls dice rolls them here
        if node is not None:
            self.formula_problem(dice.DiceValueError(message, text, node.span), text, path, offset)

    def formula_problem(self, err: dice.DiceError, text: str, path, offset: int = 0) -> None:
        position = position_of(self.data, path)
        start = (err.span[0] if err.span else len(text)) + offset
        if position is not None and "\n" not in text[:start]:
            position = model.Position(position.file, position.line, position.column + start)
        err.located(text, err.span)
        self.problems.append(Problem(err.message, position, tuple(path), err.caret_lines()))

    def check_names(self, expr, text: str, path, scope: Scope, offset: int = 0) -> None:
        called = self.called(expr.tree)
        # Queries and pairs are looked for only in a formula that calls one: most call neither, and the
        # same texts come back in many places (a ruleset's formulas are checked ~2,000 times for ~500 texts).
        problems, handled = query_problems(self.names, expr.tree, scope) if called & QUERIES.keys() else ((), ())
        for message, span in problems:
            self.formula_problem(dice.DiceTypeError(message, text, span), text, path, offset)
        for name_path, span in expr.names:
            if (name_path, span) in handled:
                continue
            message = self.names.name_problem(name_path, scope) or unset_problem(name_path, scope)
            if message:
                self.formula_problem(dice.UnknownName(message, text, span), text, path, offset)
        if called & self.names.pairs.keys():
            for message, span in call_problems(self.names.pairs, expr.tree):
                self.formula_problem(dice.DiceTypeError(message, text, span), text, path, offset)

    def called(self, tree) -> frozenset:
        """The names of the functions a formula's tree calls, found once per tree (a compiled text is
        one tree wherever it is written)."""
        found = self._called.get(id(tree))
        if found is None or found[0] is not tree:
            found = self._called[id(tree)] = (tree, frozenset(node.function for node in dice_ast.walk(tree)
                                                              if isinstance(node, dice_ast.Call)))
        return found[1]

    @property
    def functions(self) -> frozenset:
        """The functions the ruleset gives its formulas besides the dice language's: its pairs."""
        return frozenset(self.names.pairs) | frozenset(QUERIES)



    def text(self, value, path, scope: Scope | None) -> Template | None:
        """A text (string or {en:, zh:}) compiled as a template."""
        if value is None:
            return None
        if isinstance(value, dict):
            sources = {lang: text for lang, text in value.items() if isinstance(text, str)}
            paths = {lang: tuple(path) + (lang,) for lang in sources}
            self.languages.update(sources)
        else:
            sources, paths = {"en": str(value)}, {"en": tuple(path)}
        parts = {}
        for lang, source in sources.items():
            try:
                pieces = split_template(source)
            except ValueError as err:
                message, offset = err.args
                self.formula_problem(dice.DiceSyntaxError(message, source, (offset, offset + 1)), source,
                                     paths[lang])
                continue
            compiled = []
            for is_formula, piece, offset in pieces:
                if not is_formula:
                    compiled.append(piece)
                    continue
                try:
                    expr = dice.compile(piece, functions=self.functions, formulas=self.formulas)
                except dice.DiceError as err:
                    self.formula_problem(err, piece, paths[lang], offset)
                    continue
                if scope is not None:
                    self.check_names(expr, piece, paths[lang], scope, offset)
                self.no_dice(expr.tree, piece, paths[lang], _("text placeholders show values and never "
                                                              "roll dice: roll first with a roll: "
                                                              "step, then show the name"), offset)
                compiled.append(expr)
            parts[lang] = compiled
        if not parts or len(parts) != len(sources):
            return None
        return Template(parts, plain=not isinstance(value, dict))

    # ---- the sections
    def build(self) -> model.Ruleset | None:
        """The typed ruleset, or None with self.problems filled. Items the schema already
        refused (self.broken) are passed over, so their problems are not reported twice and the
        rest of the file is still checked: every problem comes out in one pass."""
        d = self.data
        self.names.collect(self.data, self.problem)
        self.formulas = formula_book(self)     # before any other formula: every formula may call them
        params = self.each("params", param)
        tables = self.each("tables", build_table)
        entities = self.each("entities", entity)
        state = self.each("state", lambda c, name, value: initial(c, value, ("state", name), Scope(c.names)))
        pairs = self.each("pairs", pair)
        self.start_order(entities, state)
        loop = list(self.each("loop", level).values())
        procedures = self.each("procedures", procedure)
        with self.no_level_end(_("setup: (no loop runs yet)")):
            setup = self.steps(d.get("setup") or [], ("setup",), Scope(self.names)) if self.sound(("setup",)) else []
        actions = self.each("actions", action)
        if loop and len(loop) == len(d.get("loop") or []):
            inner = loop[-1]
            if inner.name in actions:
                self.problem(_("the action {name!r} has the name of the loop level it would play; "
                               "rename one").format(name=inner.name),
                             ("actions", inner.name), at_key=True)
            actions[inner.name] = model.Action(inner.name, inner.steps, inner.params, None, inner.doc, inner.label,
                                               plays_level=inner.name)
        triggers = list(self.each("triggers", trigger).values())
        endings = list(self.each("end", ending).values())
        status = self.text(d.get("status"), ("status",), Scope(self.names)) if self.sound(("status",)) else None
        report = {}
        for name, value in self.items("report"):
            formula_value = value.get("value") if isinstance(value, dict) else value
            sub = ("report", name, "value") if isinstance(value, dict) else ("report", name)
            report[name] = self.formula(formula_value, sub, Scope(self.names), still=True)
        distributions = tuple(name for name, value in self.items("report")
                              if isinstance(value, dict) and value.get("distribution"))
        tallies = {}
        for name, value in self.items("report"):
            if isinstance(value, dict) and value.get("per") is not None:
                tallies[name] = self.tally_level(name, value["per"], loop)
        words = check_words(self) if self.intact(("words",)) else {}
        seats = self.seat_group(d.get("seats"), entities) if self.sound(("seats",)) else None
        results = check_results(self) if self.intact(("results",)) else {}
        if self.problems or self.refused:
            return None
        return model.Ruleset(
            id=d["ruleset"], title=self.plain_text(d.get("title")), file=self.file, params=params, tables=tables,
            entities=entities, state=state, setup=setup, loop=loop, actions=actions, procedures=procedures,
            triggers=triggers, end=endings, status=status, report=report,
            source=self.plain_text(d.get("source")), description=self.plain_text(d.get("description")),
            languages=tuple(d.get("languages") or sorted(self.languages or {"en"})), data=d, files=self.files,
            pairs=pairs, distributions=distributions, tallies=tallies,
            formulas=self.formulas, words=words, seats=seats, results=results,
        )

    def seat_group(self, name, entities: dict) -> str | None:
        """`seats:` names a group of instances (an entity with count: or made during play), or None."""
        if name is None:
            return None
        spec = entities.get(name)
        if spec is None or not spec.is_group:
            groups = [n for n, e in entities.items() if e.is_group]
            what = _("a single entity, not a group") if spec is not None else _("no entity of this ruleset")
            self.problem(_("seats: {name!r} is {what}; seats names the group whose instances people "
                           "play{hint} (the groups: {groups})").format(
                             name=name, what=what, hint=self.suggest(name, groups),
                             groups=", ".join(groups) or _("none")),
                         ("seats",))
            return None
        return name

    def tally_level(self, name: str, level: str, loop: list) -> str:
        """A report value's per: names the outermost loop level (an inner level's iterations start
        again from 1 in each iteration around it, so its numbers name no one iteration)."""
        levels = [lv.name for lv in loop]
        if not levels:
            self.problem(_("per: reads the value as each iteration of a loop level ends, and this "
                           "ruleset has no loop"), ("report", name, "per"))
        elif level != levels[0]:
            why = _("{level!r} is inside it: its iterations start again from 1").format(level=level) \
                if level in levels else _("{level!r} is no loop level").format(level=level)
            self.problem(_("per: takes the outermost loop level, {levels!r} ({why})").format(
                             levels=levels[0], why=why), ("report", name, "per"))
        return level

    def sound(self, path) -> bool:
        """No schema problem lies at or above this place (one may lie inside it)."""
        path = tuple(path)
        return not any(path[: len(b)] == b for b in self.broken)

    def intact(self, path) -> bool:
        """No schema problem lies at, above or inside this place."""
        path = tuple(path)
        return self.sound(path) and not any(b[: len(path)] == path for b in self.broken)

    def guarded(self, path, build, *args):
        """What `build(self, *args)` makes of the item at `path`, or None. An item with a schema problem
        inside it is still checked (so its other problems come out in the same pass), but what the
        schema refused may trip the check: then the item is passed over, its problem already said."""
        if self.intact(path):
            return build(self, *args)
        try:
            return build(self, *args)
        except (KeyError, TypeError, AttributeError, ValueError, IndexError):
            return None

    def items(self, section: str):
        """(key or index, value) of a section, less the items the schema refused."""
        value = self.data.get(section)
        if not self.sound((section,)):
            return []
        pairs = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        return [(k, v) for k, v in pairs if self.sound((section, k))]

    def each(self, section: str, build) -> dict:
        """{key: what build(self, key, value) makes} for a section's items (those it could build)."""
        built = {}
        for key, value in self.items(section):
            item = self.guarded((section, key), build, key, value)
            if item is not None:
                built[key] = item
        return built

    def plain_text(self, value):
        if isinstance(value, dict):
            texts = {k: v for k, v in value.items() if isinstance(v, str)}
            self.languages.update(texts)
            return LocalText(texts)
        return value











    @staticmethod
    def _read_by(*starts) -> list[str]:
        """The first names read by starting values (Initial, Formula or Template; None passed over)."""
        exprs = []
        for start in starts:
            if isinstance(start, model.Initial):
                start = start.formula or start.text
            if isinstance(start, model.Formula):
                exprs.append(start.expr)
            elif start is not None:     # a text: its placeholders
                exprs += [piece for parts in start.parts.values() for piece in parts if not isinstance(piece, str)]
        return [path[0] for expr in exprs for path, _ in expr.names]

    def start_order(self, entities: dict, state: dict) -> None:
        """A game starts with its entities, in the order written, then its records between pairs,
        then its state variables in the order written: a starting value reads only what is made
        before it (params and loop counters always)."""
        made, later = [], set(entities) | set(state)
        for name, spec in entities.items():
            where = ("entities", name)
            starts = [(where + ("fields", f), start) for f, start in spec.fields.items()]
            starts += [(where + ("tracks", t, "boxes"), track.size) for t, track in spec.tracks.items()]
            starts += [(where + ("count",), spec.count), (where + ("names",), spec.names)]
            for path, start in starts:
                early = [n for n in self._read_by(start) if n in later and n not in made]
                if early:
                    what = (_("{name!r} itself, which is still being made").format(name=name) if early[0] == name
                            else _("{name!r}, which is made after it").format(name=early[0]) if early[0] in entities
                            else _("the state variable {name!r}, which starts after every entity").format(
                                name=early[0]))
                    self.problem(_("the starting value of {path} reads {what} (a game makes its "
                                   "entities in the order written, then its state: an entity's "
                                   "starting values read params and the entities above it)").format(
                                     path='.'.join(path[1:]), what=what), path)
            made.append(name)
        self.state_order(state)

    def state_order(self, state: dict) -> None:
        """State variables start in the order written: a starting value reads only those above it."""
        order = list(state)
        for n, (name, start) in enumerate(state.items()):
            later = [read for read in self._read_by(start) if read in order[n:] and read not in self.names.params]
            if later:
                self.problem((_("the starting value of {name!r} reads itself").format(name=name)
                              if later[0] == name else
                              _("the starting value of {name!r} reads {later!r}, which starts after it "
                               "(state variables start in the order written: move {later!r} above "
                               "{name!r})").format(name=name, later=later[0])),
                             ("state", name))

    # ---- steps
    def steps(self, items, path, scope: Scope) -> list:
        if self.nesting >= model.MAX_NESTING:
            # Far past any game's need, and within what the program written from the steps can nest.
            self.problem(_("blocks of steps nested more than {MAX_NESTING} deep; move the inner steps "
                           "into a procedure").format(MAX_NESTING=model.MAX_NESTING), path)
            return []
        self.nesting += 1
        try:
            # A block inside a step (if:'s then, a loop's do) may not run: what it sets is its own
            # until the step says what it surely sets (ruleset/assigned.py).
            return self.block(items, path, scope.fork() if self.nesting > 1 else scope)
        finally:
            self.nesting -= 1

    def block(self, items, path, scope: Scope) -> list:
        out = []
        ended_by = None
        for i, item in enumerate(items):
            p = tuple(path) + (i,)
            if not self.sound(p) or any(len(b) == len(p) + 1 and b[: len(p)] == p for b in self.broken):
                self.declare_refused(item, scope)
                continue      # the schema refused this step or one of its keys, and said why
            if ended_by is not None:
                self.problem(_("this step can never run: the {ended_by} step before it always stops "
                               "this block").format(ended_by=ended_by), p)
                ended_by = None
            kinds = [k for k in KINDS if k in item]
            if not kinds:
                self.problem(_("a step needs one of: {KINDS}").format(KINDS=', '.join(KINDS)), p)
                continue
            if len(kinds) > 1:
                self.problem(_("one step, one kind: this step has {items}; split it into steps").format(
                                 items=join_list([repr(k) for k in kinds])), p)
                self.declare_refused(item, scope)
                continue
            kind = KINDS[kinds[0]]
            stray = [k for k in item if k not in kind.takes and k not in ("id", "doc")]
            if stray:
                takes = ", ".join(sorted(kind.takes))
                self.problem(_("{stray}: does not go with {kinds}: (a {kinds} step takes {takes})").format(
                                 stray=stray[0], kinds=kinds[0], takes=takes),
                             p + (stray[0],), at_key=True)
                self.declare_refused(item, scope)
                continue
            surely = scope.surely.copy()
            step = self.guarded(p, lambda c, *args: kind.check(*args), self, item, p, scope)
            if step is None:
                self.declare_refused(item, scope)
                scope.surely = surely
                continue
            # What the step surely sets (a refused binding inside it is in scope.said, kept apart).
            scope.surely = surely | step_assigns(step)
            out.append(step)
            if kind.ends_block:
                ended_by = kinds[0]
        return out

    def declare_refused(self, item, scope: Scope) -> None:
        """The locals a refused step would have bound for the steps after it (its kind's `declares`),
        bound all the same and said (Scope.said_once): its own problem says what is wrong, and a
        later read of one of them is no second problem. A name already bound keeps what it was bound
        as; one that is no name, or would hide a state variable or an entity, is left (the step's
        problems are said already)."""
        if not isinstance(item, dict):
            return
        for key in (k for k in KINDS if k in item):
            for declared in KINDS[key].declares:
                value = item.get(declared)
                for name in value if isinstance(value, dict) else (value,):
                    if isinstance(name, str) and name.isidentifier() and \
                            name not in self.state_names and name not in self.entities:
                        if name not in scope.local:
                            scope.define(name)
                        scope.said_once(name)

    @staticmethod
    def after(scope: Scope, steps: list) -> Scope:
        """The scope after a block inside a step has run through (what repeat's until: reads)."""
        return after(scope, steps)

    def target(self, text: str, path, scope: Scope, what: str, reads: bool = False) -> tuple[str, ...] | None:
        """A place a step writes to: a state variable, a local, or a field of an entity (not a track).
        `reads`: the step reads the place too (move:'s from and to), so a local must be set there."""
        parts = tuple(text.split("."))
        head = parts[0]
        info = scope.local.get(head) if head in scope.local else ("entity", head) if head in self.entities else None
        if len(parts) >= 2 and info and info[0] == "entity" and \
                parts[1] in self.entities.get(info[1], {}).get("tracks", ()):
            self.problem(_("{what}: {parts} is a track: change it with mark: and clear:").format(
                             what=what, parts='.'.join(parts[:2])), path,
                         at_key=True)
            return None
        if head in scope.local or head in self.state_names:
            if head in scope.local and (len(parts) > 1 or reads):
                problem = (self.names.member_problem(head, scope.local[head], parts[1:]) if len(parts) > 1
                           else None) or unset_problem(parts, scope)
                if problem:
                    self.problem(_("{what}: {problem}").format(what=what, problem=problem), path, at_key=True)
            return parts
        if head in self.entities and not self.entities[head]["group"]:
            problem = self.names.member_problem(head, ("entity", head), parts[1:]) if len(parts) > 1 else \
                _("write {head}.FIELD: an entity is set field by field").format(head=head)
            if problem:
                self.problem(_("{what}: {problem}").format(what=what, problem=problem), path, at_key=True)
            return parts
        known = list(scope.local) + self.state_names + list(self.entities)
        self.problem(_("{what}: {head!r} is not a state variable, an entity or a local name (declare "
                       "state variables under state:){hint}").format(
                         what=what, head=head, hint=self.suggest(head, known)), path, at_key=True)
        return None


