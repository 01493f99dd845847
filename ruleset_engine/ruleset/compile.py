"""Checking what a ruleset means, and building the compiled Ruleset.

The schema has already said the shape is right; this pass finds what a shape
cannot: formulas that do not parse, names that do not exist, calls to missing
procedures, loops without a bound, table rows that overlap or leave gaps, steps
that can never run. It reports every problem in one pass, each located.

Steps are compiled by one function per kind, registered in STEP_KINDS (the way
jsonschema registers one function per keyword).
"""

from __future__ import annotations

import re
from difflib import get_close_matches

from ruleset_engine import dice

from . import model
from .problems import Problem
from .templates import LocalText, Template, split_template
from .yamlio import LDict, key_position_of, position_of

STEP_KEYS = ("set", "let", "roll", "note", "if", "repeat", "for_each", "call", "return", "ask", "say",
             "lookup", "move", "mark", "clear", "end")
# The keys each kind of step takes (besides id: and doc:); a key of another kind is a mistake.
STEP_ALLOWED = {
    "set": {"set"}, "let": {"let"}, "roll": {"roll", "label"}, "note": {"note"}, "if": {"if", "then", "else"},
    "repeat": {"repeat", "as", "do"}, "for_each": {"for_each", "in", "do"}, "call": {"call", "with", "as"},
    "return": {"return"}, "ask": {"ask", "as", "who", "number", "choice", "yes_no", "pick", "default", "auto"},
    "say": {"say"}, "lookup": {"lookup", "key", "keys", "as"}, "move": {"move"}, "mark": {"mark", "count"},
    "clear": {"clear", "count"}, "end": {"end", "result"},
}
TRACK_FIELDS = ("marked", "free", "size", "next", "last", "labels")
INSTANCE_FIELDS = ("name", "index")
_RANGE = re.compile(r"^\s*(-?\d+)?\s*\.\.\s*(-?\d+)?\s*$")


class Scope:
    """The names a formula may read at one place: locals (with what they hold) over the globals."""

    def __init__(self, compiler: "RulesetCompiler", local: dict | None = None):
        self.c = compiler
        self.local = dict(local or {})

    def define(self, name: str, info=None) -> None:
        self.local[name] = info


class RulesetCompiler:
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

    # ---- reporting
    def problem(self, message: str, path, detail=None, at_key: bool = False) -> None:
        position = key_position_of(self.data, path) if at_key else position_of(self.data, path)
        self.problems.append(Problem(message, position, tuple(path), list(detail or [])))

    def suggest(self, name: str, known) -> str:
        guess = get_close_matches(str(name), [str(k) for k in known], n=1)
        return f" (did you mean {guess[0]!r}?)" if guess else ""

    # ---- formulas and texts
    def formula(self, value, path, scope: Scope | None, what: str = "formula") -> model.Formula | None:
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
        return model.Formula(text, expr, position_of(self.data, path), tuple(path))

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
            sources = {lang: value[lang] for lang in ("en", "zh") if isinstance(value.get(lang), str)}
            paths = {lang: tuple(path) + (lang,) for lang in sources}
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
                compiled.append(expr)
            parts[lang] = compiled
        if "en" not in parts:
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
        tables = {name: self.table(name, spec) for name, spec in self.items("tables")}
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
            report[name] = self.formula(formula_value, sub, Scope(self))
        if self.problems or self.refused:
            return None
        return model.Ruleset(
            id=d["ruleset"], title=self.plain_text(d.get("title")), file=self.file, params=params, tables=tables,
            entities=entities, state=state, setup=setup, loop=loop, actions=actions, procedures=procedures,
            triggers=triggers, end=endings, status=status, report=report,
            source=self.plain_text(d.get("source")), description=self.plain_text(d.get("description")),
            languages=tuple(d.get("languages") or ("en",)), data=d, files=self.files,
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
            return LocalText({k: v for k, v in value.items() if isinstance(v, str)})
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

    def table(self, name: str, spec) -> model.Table:
        path = ("tables", name)
        keys = (spec["key"],) if isinstance(spec["key"], str) else tuple(spec["key"])
        rows = []
        for i, row in enumerate(spec["rows"]):
            row_path = path + ("rows", i)
            missing = [k for k in keys if k not in row]
            if missing:
                self.problem(f"this row has no key column {missing[0]!r}", row_path)
                continue
            matchers = tuple(self.matcher(row[k], row_path + (k,)) for k in keys)
            rows.append(model.Row(matchers, self.cells(row), position_of(self.data, row_path)))
        default = self.cells(spec["default"]) if spec.get("default") is not None else None
        if len(keys) == 1 and rows:
            self.check_coverage(name, rows, path, spec.get("gaps", False), spec.get("first_match", False))
        return model.Table(name, keys, rows, default, dict(spec.get("columns") or {}), spec.get("title"),
                           spec.get("doc"))

    def cells(self, row) -> dict:
        return {k: (LocalText(v) if isinstance(v, dict) and "en" in v else v) for k, v in row.items()}

    def matcher(self, value, path) -> model.Matcher:
        if isinstance(value, str):
            found = _RANGE.match(value)
            if found:
                low = int(found.group(1)) if found.group(1) is not None else None
                high = int(found.group(2)) if found.group(2) is not None else None
                if low is not None and high is not None and low > high:
                    self.problem(f"the range {value!r} is empty ({low} is above {high})", path)
                return model.Matcher(low=low, high=high, is_range=True)
        if isinstance(value, (list, dict)):
            self.problem("a key cell is a number, a range such as '3..5', or a word", path)
        return model.Matcher(exact=value)

    def check_coverage(self, name, rows, path, gaps_ok: bool, overlap_ok: bool) -> None:
        spans = []
        for i, row in enumerate(rows):
            m = row.matchers[0]
            if m.is_range:
                spans.append((float("-inf") if m.low is None else m.low, float("inf") if m.high is None else m.high, i))
            elif type(m.exact) is int:
                spans.append((m.exact, m.exact, i))
            else:
                return  # words as keys: nothing to cover
        spans.sort()
        for (_lo1, hi1, i1), (lo2, hi2, i2) in zip(spans, spans[1:]):
            if lo2 <= hi1 and not overlap_ok:
                self.problem(f"table {name!r}: rows {i1} and {i2} overlap at {_fmt(lo2)}..{_fmt(min(hi1, hi2))} "
                             "(set first_match: true if the first row should win)", path + ("rows", i2))
            elif lo2 > hi1 + 1 and not gaps_ok:
                self.problem(f"table {name!r}: no row covers {_fmt(hi1 + 1)}..{_fmt(lo2 - 1)} "
                             "(add a row, or set gaps: true)", path + ("rows", i2))

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
                self.formula(spec.get("min"), p + ("min",), Scope(self)),
                self.formula(spec.get("max"), p + ("max",), Scope(self)),
                tuple(spec.get("choices") or ()), spec.get("of"), spec.get("doc"),
            )
        return params

    def action(self, name: str, spec) -> model.Action:
        path = ("actions", name)
        params = self.action_params(spec.get("params") or {}, path + ("params",))
        scope = Scope(self, {p: (("entity", params[p].of) if params[p].type == "entity" else None) for p in params})
        return model.Action(
            name=name, steps=self.steps(spec["steps"], path + ("steps",), scope), params=params,
            when=self.formula(spec.get("when"), path + ("when",), Scope(self)),
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
            kinds = [k for k in STEP_KEYS if k in item]
            if not kinds:
                self.problem(f"a step needs one of: {', '.join(STEP_KEYS)}", p)
                continue
            if len(kinds) > 1:
                self.problem(f"one step, one kind: this step has {' and '.join(repr(k) for k in kinds)}; "
                             "split it into steps", p)
                continue
            stray = [k for k in item if k not in STEP_ALLOWED[kinds[0]] and k not in ("id", "doc")]
            if stray:
                takes = ", ".join(sorted(STEP_ALLOWED[kinds[0]]))
                self.problem(f"{stray[0]}: does not go with {kinds[0]}: (a {kinds[0]} step takes {takes})",
                             p + (stray[0],), at_key=True)
                continue
            step = STEP_KINDS[kinds[0]](self, item, p, scope)
            if step is not None:
                out.append(step)
                if isinstance(step, (model.EndStep, model.ReturnStep)):
                    ended_by = kinds[0]
        return out

    def target(self, text: str, path, scope: Scope, what: str) -> tuple[str, ...] | None:
        """A place a step writes to: a state variable, a local, or a field of an entity."""
        parts = tuple(text.split("."))
        head = parts[0]
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


def _fmt(x) -> str:
    return str(int(x)) if x not in (float("inf"), float("-inf")) else ""


def param_value_problem(param: model.Param, value) -> str | None:
    """Why `value` cannot be this param's value, or None."""
    kind = param.type
    if kind == "integer":
        if type(value) is not int:
            return f"expected a whole number, not {value!r}"
        if param.min is not None and value < param.min:
            return f"{value} is below the minimum {param.min}"
        if param.max is not None and value > param.max:
            return f"{value} is above the maximum {param.max}"
    elif kind == "boolean":
        if not isinstance(value, bool):
            return f"expected true or false, not {value!r}"
    elif kind == "choice":
        if value not in param.choices:
            return f"{value!r} is not one of {', '.join(param.choices)}"
    elif kind == "dice":
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            return f"expected a dice expression, not {value!r}"
        try:
            dice.compile(str(value))
        except dice.DiceError as err:
            return f"not a dice expression: {err.message}"
    elif kind == "text":
        if not isinstance(value, str):
            return f"expected text, not {value!r}"
    return None


# ---- one compile function per step kind --------------------------------------------

def _assignments(c: RulesetCompiler, item, path, scope: Scope, key: str, targets: bool):
    pairs = []
    for name, value in item[key].items():
        p = tuple(path) + (key, name)
        formula = c.formula(value, p, scope)
        if targets:
            target = c.target(name, p, scope, key)
            if target is not None and formula is not None:
                pairs.append((target, formula))
        else:
            if "." in name:
                c.problem(f"{key}: a local name is one word, not {name!r}", p, at_key=True)
                continue
            if formula is not None:
                pairs.append((name, formula))
            scope.define(name)
    return pairs


def step_set(c, item, path, scope):
    return model.SetStep(position_of(c.data, path), path, _assignments(c, item, path, scope, "set", True))


def step_let(c, item, path, scope):
    return model.LetStep(position_of(c.data, path), path, _assignments(c, item, path, scope, "let", False))


def step_roll(c, item, path, scope):
    return model.RollStep(position_of(c.data, path), path, _assignments(c, item, path, scope, "roll", False),
                          item.get("label"))


def step_note(c, item, path, scope):
    notes = []
    for name, value in item["note"].items():
        p = tuple(path) + ("note", name)
        target = c.target(name, p, scope, "note")
        template = c.text(value, p, scope)
        if target is not None and template is not None:
            notes.append((target, template))
    return model.NoteStep(position_of(c.data, path), path, notes)


def step_if(c, item, path, scope):
    test = c.formula(item["if"], tuple(path) + ("if",), scope)
    if test is not None and test.expr.is_constant:
        value = test.expr.evaluate().value
        branch = "else" if value else "then"
        if branch in item:
            c.problem(f"the test is always {'true' if value else 'false'}, so {branch}: can never run",
                      tuple(path) + ("if",))
    then = c.steps(item.get("then") or [], tuple(path) + ("then",), scope)
    otherwise = c.steps(item.get("else") or [], tuple(path) + ("else",), scope)
    return model.IfStep(position_of(c.data, path), path, test, then, otherwise) if test else None


def step_repeat(c, item, path, scope):
    spec = item["repeat"]
    p = tuple(path) + ("repeat",)
    present = [k for k in ("times", "while", "until") if k in spec]
    if len(present) != 1:
        c.problem("repeat takes exactly one of times:, while: or until:", p)
        return None
    if present[0] != "times" and "max" not in spec:
        c.problem(f"repeat with {present[0]}: needs max: (every loop in a ruleset is bounded)", p)
    if item.get("as"):
        scope.define(item["as"])
    body = c.steps(item["do"], tuple(path) + ("do",), scope)
    return model.RepeatStep(
        position_of(c.data, path), path, body,
        times=c.formula(spec.get("times"), p + ("times",), scope),
        while_=c.formula(spec.get("while"), p + ("while",), scope),
        until=c.formula(spec.get("until"), p + ("until",), scope),
        max=spec.get("max"), index=item.get("as"),
    )


def step_for_each(c, item, path, scope):
    var = item["for_each"]
    source = item["in"]
    group = None
    formula = None
    if isinstance(source, str) and source in c.entities and c.entities[source]["group"]:
        group = source
        scope.define(var, ("entity", source))
    else:
        formula = c.formula(source, tuple(path) + ("in",), scope)
        scope.define(var)
    body = c.steps(item["do"], tuple(path) + ("do",), scope)
    return model.ForEachStep(position_of(c.data, path), path, var, formula, group, body)


def step_call(c, item, path, scope):
    name = item["call"]
    if name not in c.procedure_params:
        c.problem(f"there is no procedure {name!r}{c.suggest(name, c.procedure_params)}", tuple(path) + ("call",))
        return None
    wanted = c.procedure_params[name]
    given = dict(item.get("with") or {})
    for arg in given:
        if arg not in wanted:
            c.problem(f"procedure {name!r} has no parameter {arg!r} (it takes {', '.join(wanted) or 'none'})",
                      tuple(path) + ("with", arg), at_key=True)
    for arg in wanted:
        if arg not in given:
            c.problem(f"procedure {name!r} needs {arg!r} in with:", tuple(path) + ("call",))
    args = [(arg, c.formula(v, tuple(path) + ("with", arg), scope)) for arg, v in given.items()]
    if item.get("as"):
        scope.define(item["as"])
    return model.CallStep(position_of(c.data, path), path, name, [(a, f) for a, f in args if f is not None],
                          item.get("as"))


def step_return(c, item, path, scope):
    return model.ReturnStep(position_of(c.data, path), path, c.formula(item["return"], tuple(path) + ("return",),
                                                                        scope))


def step_ask(c, item, path, scope):
    p = tuple(path)
    kinds = [k for k in ("number", "choice", "yes_no", "pick") if k in item]
    if len(kinds) != 1:
        c.problem("ask takes exactly one of number:, choice:, yes_no: or pick:", p)
        return None
    kind = kinds[0]
    prompt = c.text(item.get("ask"), p + ("ask",), scope)
    step = model.AskStep(position_of(c.data, path), path, item["as"], prompt, kind,
                         c.formula(item["auto"], p + ("auto",), scope),
                         default=c.formula(item.get("default"), p + ("default",), scope),
                         who=c.text(item.get("who"), p + ("who",), scope))
    if kind == "number":
        spec = item["number"] or {}
        step.min = c.formula(spec.get("min"), p + ("number", "min"), scope)
        step.max = c.formula(spec.get("max"), p + ("number", "max"), scope)
    elif kind == "choice":
        step.choices = tuple(item["choice"])
    elif kind == "pick":
        spec = item["pick"]
        step.source = c.formula(spec["from"], p + ("pick", "from"), scope)
        step.min = c.formula(spec.get("min"), p + ("pick", "min"), scope)
        step.max = c.formula(spec.get("max"), p + ("pick", "max"), scope)
    scope.define(item["as"])
    return step if step.auto is not None else None


def step_say(c, item, path, scope):
    text = c.text(item["say"], tuple(path) + ("say",), scope)
    return model.SayStep(position_of(c.data, path), path, text) if text else None


def step_lookup(c, item, path, scope):
    p = tuple(path)
    name = item["lookup"]
    if name not in c.tables:
        c.problem(f"there is no table {name!r}{c.suggest(name, c.tables)}", p + ("lookup",))
        return None
    spec = c.data["tables"][name]
    if not c.sound(("tables", name)):
        return None   # the table itself is broken, and that is reported already
    keys = (spec["key"],) if isinstance(spec["key"], str) else tuple(spec["key"])
    formulas = []
    if "key" in item and "keys" not in item:
        if len(keys) != 1:
            c.problem(f"table {name!r} has {len(keys)} key columns ({', '.join(keys)}): give keys: with each",
                      p + ("key",))
            return None
        formulas = [c.formula(item["key"], p + ("key",), scope)]
    elif "keys" in item and "key" not in item:
        given = item["keys"]
        for k in given:
            if k not in keys:
                c.problem(f"table {name!r} has no key column {k!r} (its keys: {', '.join(keys)})",
                          p + ("keys", k), at_key=True)
        for k in keys:
            if k not in given:
                c.problem(f"table {name!r} needs a value for its key column {k!r}", p + ("keys",))
                return None
            formulas.append(c.formula(given[k], p + ("keys", k), scope))
    else:
        c.problem("lookup takes key: (one key column) or keys: (a value for each key column)", p)
        return None
    scope.define(item["as"], ("row", name))
    if any(f is None for f in formulas):
        return None
    return model.LookupStep(position_of(c.data, path), path, name, formulas, item["as"])


def step_move(c, item, path, scope):
    spec = item["move"]
    p = tuple(path) + ("move",)
    if ("count" in spec) == ("dice" in spec):
        c.problem("move takes count: (a number of dice) or dice: (a pool of faces)", p)
        return None
    source = c.target(spec["from"], p + ("from",), scope, "move from")
    target = c.target(spec["to"], p + ("to",), scope, "move to")
    step = model.MoveStep(position_of(c.data, path), path, source or (), target or (),
                          count=c.formula(spec.get("count"), p + ("count",), scope),
                          dice=c.formula(spec.get("dice"), p + ("dice",), scope),
                          floor=c.formula(spec.get("floor"), p + ("floor",), scope))
    return step if source and target else None


def step_mark(c, item, path, scope):
    clear = "clear" in item
    key = "clear" if clear else "mark"
    if "mark" in item and "clear" in item:
        c.problem("a step marks or clears, not both", tuple(path))
        return None
    text = item[key]
    parts = tuple(text.split("."))
    head = parts[0]
    info = scope.local.get(head) if head in scope.local else (("entity", head) if head in c.entities else None)
    if info is None or info[0] != "entity" or len(parts) != 2 or parts[1] not in c.entities.get(info[1], {}).get(
            "tracks", ()):
        tracks = [f"{e}.{t}" for e, spec in c.entities.items() for t in spec["tracks"]]
        c.problem(f"{key}: {text!r} is not a track (write ENTITY.TRACK, declared under entities: tracks:)"
                  f"{c.suggest(text, tracks)}", tuple(path) + (key,))
        return None
    return model.MarkStep(position_of(c.data, path), path, parts,
                          c.formula(item.get("count", 1), tuple(path) + ("count",), scope), clear)


def step_end(c, item, path, scope):
    target = item["end"]
    p = tuple(path)
    if target == "game":
        if not item.get("result"):
            c.problem("end: game needs result: (a name for how the game ended, such as won or lost)", p)
            return None
        c.results.add(item["result"])
    elif target not in c.levels:
        c.problem(f"end: takes game or a loop level ({', '.join(c.levels) or 'this ruleset has no loop'}), "
                  f"not {target!r}{c.suggest(target, c.levels)}", p + ("end",))
        return None
    elif item.get("result"):
        c.problem("result: only goes with end: game", p + ("result",), at_key=True)
    return model.EndStep(position_of(c.data, path), path, target, item.get("result"))


STEP_KINDS = {
    "set": step_set, "let": step_let, "roll": step_roll, "note": step_note, "if": step_if,
    "repeat": step_repeat, "for_each": step_for_each, "call": step_call, "return": step_return,
    "ask": step_ask, "say": step_say, "lookup": step_lookup, "move": step_move, "mark": step_mark,
    "clear": step_mark, "end": step_end,
}
