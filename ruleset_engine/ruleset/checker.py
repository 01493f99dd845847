"""Checking what a ruleset means, and building the typed Ruleset.

The schema has already said the shape is right; this pass finds what a shape
cannot: formulas that do not parse, names that do not exist, calls to missing
procedures, loops without a bound, table rows that overlap or leave gaps, steps
that can never run. It reports every problem in one pass, each located.

Each step is checked by its kind's registry entry (ruleset/steps/), the way jsonschema
registers one function per keyword; names and scopes are in scope.py, tables in tables.py.
"""

from __future__ import annotations

from difflib import get_close_matches

from ruleset_engine import dice

from . import model
from .params import param_value_problem
from .problems import Problem
from .steps import KINDS
from .tables import build_table
from .templates import LocalText, Template, split_template
from .yamlio import LDict, key_position_of, position_of

TRACK_FIELDS = ("marked", "free", "size", "next", "last", "labels")
INSTANCE_FIELDS = ("name", "index")


class Scope:
    """The names a formula may read at one place: locals (with what they hold) over the globals."""

    def __init__(self, compiler: "RulesetChecker", local: dict | None = None):
        self.c = compiler
        self.local = dict(local or {})

    def define(self, name: str, info=None) -> None:
        self.local[name] = info


class RulesetChecker:
    def __init__(self, data: LDict, file: str, files=(), broken=(), refused: bool = False):
        self.data = data
        self.broken = {tuple(path) for path in broken}   # places the schema refused
        self.refused = refused or bool(self.broken)      # the schema found problems (maybe at the top)
        self.file = file
        self.files = tuple(files) or (file,)
        self.problems: list[Problem] = []
        self.params = {}
        self.entities = {}
        self.state_names: list[str] = []
        self.tables = {}
        self.levels: list[str] = []
        self.procedure_params: dict[str, tuple[str, ...]] = {}
        self.results: set[str] = set()
        self.languages: set[str] = set()       # every language a text of the ruleset has

    # ---- reporting
    def problem(self, message: str, path, detail=None, at_key: bool = False) -> None:
        position = key_position_of(self.data, path) if at_key else position_of(self.data, path)
        self.problems.append(Problem(message, position, tuple(path), list(detail or [])))

    def suggest(self, name: str, known) -> str:
        guess = get_close_matches(str(name), [str(k) for k in known], n=1)
        return f" (did you mean {guess[0]!r}?)" if guess else ""

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
            self.problem(f"expected a {what} (a dice-language string), not a {type(value).__name__}", path)
            return None
        try:
            expr = dice.compile(text)
        except dice.DiceError as err:
            self.formula_problem(err, text, path)
            return None
        if scope is not None:
            self.check_names(expr, text, path, scope)
        if still:
            self.no_dice(expr.tree, text, path, "this formula is read at any time (to offer an action, bound a "
                                                 "parameter or report a game), so it cannot roll dice")
        return model.Formula(text, expr, position_of(self.data, path), tuple(path))

    def no_dice(self, tree, text: str, path, message: str, offset: int = 0) -> None:
        for node in dice.ast.walk(tree):
            if isinstance(node, dice.ast.Dice):
                self.formula_problem(dice.DiceValueError(message, text, node.span), text, path, offset)
                return

    def formula_problem(self, err: dice.DiceError, text: str, path, offset: int = 0) -> None:
        position = position_of(self.data, path)
        start = (err.span[0] if err.span else len(text)) + offset
        if position is not None and "\n" not in text[:start]:
            position = model.Position(position.file, position.line, position.column + start)
        err.located(text, err.span)
        self.problems.append(Problem(err.message, position, tuple(path), err.caret_lines()))

    def check_names(self, expr, text: str, path, scope: Scope, offset: int = 0) -> None:
        for name_path, span in expr.names:
            message = self.name_problem(name_path, scope)
            if message:
                self.formula_problem(dice.UnknownName(message, text, span), text, path, offset)

    def name_problem(self, name_path, scope: Scope) -> str | None:
        head, rest = name_path[0], name_path[1:]
        if head in scope.local:
            info = scope.local[head]
            return self.member_problem(head, info, rest)
        if head == "params":
            if not rest:
                return "params is a group of names: write params.NAME"
            if rest[0] not in self.params:
                return f"unknown param {rest[0]!r}{self.suggest(rest[0], self.params)}"
            return None
        if head == "loop":
            if rest and rest[0] not in self.levels:
                return f"unknown loop level {rest[0]!r}{self.suggest(rest[0], self.levels)}"
            return None
        if head in self.state_names:
            return None
        if head in self.entities:
            spec = self.entities[head]
            if spec.get("group"):
                return f"{head!r} is a group: go through it with for_each"
            return self.member_problem(head, ("entity", head), rest)
        known = list(scope.local) + self.state_names + list(self.entities) + ["params", "loop"]
        return f"unknown name {head!r}{self.suggest(head, known)}"

    def member_problem(self, head, info, rest) -> str | None:
        if not rest or info is None:
            return None
        kind, detail = info
        if kind == "entity":
            spec = self.entities.get(detail, {})
            if rest[0] in spec.get("tracks", ()):
                return self.member_problem(f"{head}.{rest[0]}", ("track", None), rest[1:])
            known = list(spec.get("fields", ())) + list(spec.get("tracks", ())) + list(INSTANCE_FIELDS)
            if rest[0] not in known:
                return f"{head!r} has no {rest[0]!r}{self.suggest(rest[0], known)}"
        elif kind == "track":
            if rest[0] not in TRACK_FIELDS:
                return f"a track has {', '.join(TRACK_FIELDS)}, not {rest[0]!r}{self.suggest(rest[0], TRACK_FIELDS)}"
        elif kind == "row":
            columns = self.tables.get(detail, set())
            if columns and rest[0] not in columns:
                return f"the rows of table {detail!r} have no column {rest[0]!r}{self.suggest(rest[0], columns)}"
        return None

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
                    expr = dice.compile(piece)
                except dice.DiceError as err:
                    self.formula_problem(err, piece, paths[lang], offset)
                    continue
                if scope is not None:
                    self.check_names(expr, piece, paths[lang], scope, offset)
                self.no_dice(expr.tree, piece, paths[lang], "text placeholders show values and never roll dice: "
                                                            "roll first with a roll: step, then show the name", offset)
                compiled.append(expr)
            parts[lang] = compiled
        if not parts or len(parts) != len(sources):
            return None
        return Template(parts)

    # ---- the sections
    def compile(self) -> model.Ruleset | None:
        """The compiled ruleset, or None with self.problems filled. Items the schema already
        refused (self.broken) are passed over, so their problems are not reported twice and the
        rest of the file is still checked: every problem comes out in one pass."""
        d = self.data
        self.collect_names()
        params = {name: self.param(name, spec) for name, spec in self.items("params")}
        tables = {name: build_table(self, name, spec) for name, spec in self.items("tables")}
        entities = {name: self.entity(name, spec) for name, spec in self.items("entities")}
        state = {name: self.initial(value, ("state", name), Scope(self)) for name, value in self.items("state")}
        loop = [self.level(i, spec) for i, spec in self.items("loop")]
        procedures = {name: self.procedure(name, spec) for name, spec in self.items("procedures")}
        setup = self.steps(d.get("setup") or [], ("setup",), Scope(self)) if self.sound(("setup",)) else []
        actions = {name: self.action(name, spec) for name, spec in self.items("actions")}
        if loop and len(loop) == len(d.get("loop") or []):
            inner = loop[-1]
            if inner.name in actions:
                self.problem(f"the action {inner.name!r} has the name of the loop level it would play; rename one",
                             ("actions", inner.name), at_key=True)
            actions[inner.name] = model.Action(inner.name, inner.steps, inner.params, None, inner.doc, inner.label,
                                               plays_level=inner.name)
        triggers = [self.trigger(i, spec) for i, spec in self.items("triggers")]
        endings = [self.ending(i, spec) for i, spec in self.items("end")]
        status = self.text(d.get("status"), ("status",), Scope(self)) if self.sound(("status",)) else None
        report = {}
        for name, value in self.items("report"):
            formula_value = value.get("value") if isinstance(value, dict) else value
            sub = ("report", name, "value") if isinstance(value, dict) else ("report", name)
            report[name] = self.formula(formula_value, sub, Scope(self), still=True)
        if self.problems or self.refused:
            return None
        return model.Ruleset(
            id=d["ruleset"], title=self.plain_text(d.get("title")), file=self.file, params=params, tables=tables,
            entities=entities, state=state, setup=setup, loop=loop, actions=actions, procedures=procedures,
            triggers=triggers, end=endings, status=status, report=report,
            source=self.plain_text(d.get("source")), description=self.plain_text(d.get("description")),
            languages=tuple(d.get("languages") or sorted(self.languages or {"en"})), data=d, files=self.files,
        )

    def sound(self, path) -> bool:
        """No schema problem lies at, inside or above this place."""
        path = tuple(path)
        return not any(b[: len(path)] == path or path[: len(b)] == b for b in self.broken)

    def items(self, section: str):
        """(key or index, value) of a section, less the items the schema refused."""
        value = self.data.get(section)
        if not self.sound((section,)) and not any(len(b) > 1 and b[0] == section for b in self.broken):
            return []
        pairs = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        return [(k, v) for k, v in pairs if self.sound((section, k))]

    def plain_text(self, value):
        if isinstance(value, dict):
            texts = {k: v for k, v in value.items() if isinstance(v, str)}
            self.languages.update(texts)
            return LocalText(texts)
        return value

    def collect_names(self) -> None:
        """Every global name first, so formulas may refer to what is declared later in the file.
        Names are taken even from items the schema refused, so they do not read as unknown."""
        d = self.data

        def section(name) -> dict:
            value = d.get(name)
            return value if isinstance(value, dict) else {}

        self.params = {k: v for k, v in section("params").items() if isinstance(v, dict)}
        for name, spec in section("entities").items():
            spec = spec if isinstance(spec, dict) else {}
            fields = spec.get("fields") if isinstance(spec.get("fields"), dict) else {}
            tracks = spec.get("tracks") if isinstance(spec.get("tracks"), dict) else {}
            self.entities[name] = {"fields": list(fields), "tracks": list(tracks),
                                   "group": spec.get("count") is not None}
        self.state_names = list(section("state"))
        for name in self.state_names:
            if name in self.entities or name in ("params", "loop"):
                self.problem(f"the state variable {name!r} has the name of an entity or a built-in name",
                             ("state", name), at_key=True)
        for name, spec in section("tables").items():
            columns = set()
            rows = spec.get("rows") if isinstance(spec, dict) else None
            for row in rows if isinstance(rows, list) else []:
                if isinstance(row, dict):
                    columns.update(row.keys())
            self.tables[name] = columns
        loop = d.get("loop") if isinstance(d.get("loop"), list) else []
        self.levels = [level.get("name") for level in loop if isinstance(level, dict)]
        for name, spec in section("procedures").items():
            params = spec.get("params") if isinstance(spec, dict) else None
            self.procedure_params[name] = tuple(params) if isinstance(params, list) else ()

    def param(self, name: str, spec) -> model.Param:
        path = ("params", name)
        kind, default = spec["type"], spec["default"]
        lo, hi, choices = spec.get("min"), spec.get("max"), tuple(spec.get("choices") or ())
        param = model.Param(name, kind, default, lo, hi, choices, spec.get("doc"), spec.get("label"))
        problem = param_value_problem(param, default)
        if problem:
            self.problem(f"the default of {name!r}: {problem}", path + ("default",))
        if lo is not None and hi is not None and lo > hi:
            self.problem(f"min {lo} is above max {hi}", path + ("min",))
        return param

    def initial(self, value, path, scope: Scope) -> model.Initial:
        if isinstance(value, dict) and "text" in value:
            return model.Initial(text=self.text(value["text"], tuple(path) + ("text",), scope))
        if isinstance(value, dict) and "value" in value:
            return model.Initial(formula=self.formula(value["value"], tuple(path) + ("value",), scope))
        if isinstance(value, list):
            return model.Initial(pool=tuple(value))
        return model.Initial(formula=self.formula(value, path, scope))

    def entity(self, name: str, spec) -> model.EntitySpec:
        spec = spec or {}
        path = ("entities", name)
        scope = Scope(self, {"index": None, "name": None})
        fields = {}
        for field_name, value in (spec.get("fields") or {}).items():
            if field_name in INSTANCE_FIELDS:
                self.problem(f"{field_name!r} is given to every instance; choose another field name",
                             path + ("fields", field_name), at_key=True)
            fields[field_name] = self.initial(value, path + ("fields", field_name), scope)
        tracks = {}
        for track_name, track in (spec.get("tracks") or {}).items():
            boxes = track["boxes"]
            labels = tuple(range(1, boxes + 1)) if isinstance(boxes, int) else tuple(boxes)
            tracks[track_name] = model.TrackSpec(track_name, labels)
        count = self.formula(spec.get("count"), path + ("count",), Scope(self)) if "count" in spec else None
        names = self.text(spec.get("names"), path + ("names",), scope) if "names" in spec else None
        return model.EntitySpec(name, fields, tracks, count, names, spec.get("label"), spec.get("doc"))

    def level(self, i: int, spec) -> model.Level:
        path = ("loop", i)
        name = spec["name"]
        innermost = i == len(self.data["loop"]) - 1
        if spec.get("times") is None and spec.get("max") is None:
            self.problem(f"the loop level {name!r} has neither times: nor max:, so it could run forever",
                         path)
        if innermost and "steps" not in spec:
            self.problem(f"the innermost loop level {name!r} needs steps: (one table action plays them once)", path)
        if not innermost and "steps" in spec:
            self.problem(f"only the innermost loop level has steps:; {name!r} has begin:, finish: and then:",
                         path + ("steps",), at_key=True)
        params = self.action_params(spec.get("params") or {}, path + ("params",))
        scope = Scope(self, {p: None for p in params})
        return model.Level(
            name=name,
            times=self.formula(spec.get("times"), path + ("times",), Scope(self)),
            max=spec.get("max"),
            begin=self.steps(spec.get("begin") or [], path + ("begin",), Scope(self)),
            finish=self.steps(spec.get("finish") or [], path + ("finish",), Scope(self)),
            then=self.steps(spec.get("then") or [], path + ("then",), Scope(self)),
            steps=self.steps(spec.get("steps") or [], path + ("steps",), scope),
            params=params, doc=spec.get("doc"), label=spec.get("label"),
        )

    def action_params(self, specs, path) -> dict:
        params = {}
        for name, spec in specs.items():
            p = path + (name,)
            kind = spec["type"]
            if kind == "entity" and spec.get("of") not in self.entities:
                self.problem(f"'of' names no entity: {spec.get('of')!r}{self.suggest(spec.get('of'), self.entities)}",
                             p + ("of",))
            params[name] = model.ActionParam(
                name, kind, spec.get("default"),
                self.formula(spec.get("min"), p + ("min",), Scope(self), still=True),
                self.formula(spec.get("max"), p + ("max",), Scope(self), still=True),
                tuple(spec.get("choices") or ()), spec.get("of"), spec.get("doc"),
            )
        return params

    def action(self, name: str, spec) -> model.Action:
        path = ("actions", name)
        params = self.action_params(spec.get("params") or {}, path + ("params",))
        scope = Scope(self, {p: (("entity", params[p].of) if params[p].type == "entity" else None) for p in params})
        return model.Action(
            name=name, steps=self.steps(spec["steps"], path + ("steps",), scope), params=params,
            when=self.formula(spec.get("when"), path + ("when",), Scope(self), still=True),
            doc=spec.get("doc"), label=spec.get("label"),
        )

    def procedure(self, name: str, spec) -> model.Procedure:
        params = tuple(spec.get("params") or ())
        scope = Scope(self, {p: None for p in params})
        return model.Procedure(name, params, self.steps(spec["steps"], ("procedures", name, "steps"), scope),
                               spec.get("doc"))

    def trigger(self, i: int, spec) -> model.Trigger:
        path = ("triggers", i)
        return model.Trigger(spec.get("id"), self.formula(spec["when"], path + ("when",), Scope(self)),
                             self.steps(spec["do"], path + ("do",), Scope(self)))

    def ending(self, i: int, spec) -> model.Ending:
        path = ("end", i)
        self.results.add(spec["result"])
        return model.Ending(spec.get("id"), self.formula(spec["when"], path + ("when",), Scope(self)),
                            spec["result"], self.text(spec.get("say"), path + ("say",), Scope(self)))

    # ---- steps
    def steps(self, items, path, scope: Scope) -> list:
        out = []
        ended_by = None
        for i, item in enumerate(items):
            p = tuple(path) + (i,)
            if ended_by is not None:
                self.problem(f"this step can never run: the {ended_by} step before it always stops this block", p)
                ended_by = None
            kinds = [k for k in KINDS if k in item]
            if not kinds:
                self.problem(f"a step needs one of: {', '.join(KINDS)}", p)
                continue
            if len(kinds) > 1:
                self.problem(f"one step, one kind: this step has {' and '.join(repr(k) for k in kinds)}; "
                             "split it into steps", p)
                continue
            kind = KINDS[kinds[0]]
            stray = [k for k in item if k not in kind.takes and k not in ("id", "doc")]
            if stray:
                takes = ", ".join(sorted(kind.takes))
                self.problem(f"{stray[0]}: does not go with {kinds[0]}: (a {kinds[0]} step takes {takes})",
                             p + (stray[0],), at_key=True)
                continue
            step = kind.check(self, item, p, scope)
            if step is not None:
                out.append(step)
                if kind.ends_block:
                    ended_by = kinds[0]
        return out

    def target(self, text: str, path, scope: Scope, what: str) -> tuple[str, ...] | None:
        """A place a step writes to: a state variable, a local, or a field of an entity (not a track)."""
        parts = tuple(text.split("."))
        head = parts[0]
        info = scope.local.get(head) if head in scope.local else ("entity", head) if head in self.entities else None
        if len(parts) >= 2 and info and info[0] == "entity" and \
                parts[1] in self.entities.get(info[1], {}).get("tracks", ()):
            self.problem(f"{what}: {'.'.join(parts[:2])} is a track: change it with mark: and clear:", path,
                         at_key=True)
            return None
        if head in scope.local or head in self.state_names:
            if head in scope.local and len(parts) > 1:
                problem = self.member_problem(head, scope.local[head], parts[1:])
                if problem:
                    self.problem(f"{what}: {problem}", path, at_key=True)
            return parts
        if head in self.entities and not self.entities[head]["group"]:
            problem = self.member_problem(head, ("entity", head), parts[1:]) if len(parts) > 1 else \
                f"write {head}.FIELD: an entity is set field by field"
            if problem:
                self.problem(f"{what}: {problem}", path, at_key=True)
            return parts
        known = list(scope.local) + self.state_names + list(self.entities)
        self.problem(f"{what}: {head!r} is not a state variable, an entity or a local name (declare state "
                     f"variables under state:){self.suggest(head, known)}", path, at_key=True)
        return None


