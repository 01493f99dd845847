"""The steps that steer: if, repeat, for_each, call, return, end."""

from __future__ import annotations

from ruleset_engine.i18n import _

from dataclasses import dataclass

from ruleset_engine.dice.errors import DiceError
from ruleset_engine.dice.kinds import ANY, NUM, POOL

from ..model import Formula, Step
from ..yamlio import position_of
from .kind import StepFailed, StepKind, given, nothing


@dataclass(slots=True, repr=False, eq=False)
class IfStep(Step):
    """A checked `if:` step."""

    test: Formula
    then: list
    otherwise: list


@dataclass(slots=True, repr=False, eq=False)
class RepeatStep(Step):
    """A checked `repeat:` step."""

    body: list
    times: Formula | None = None
    while_: Formula | None = None
    until: Formula | None = None
    max: int | None = None
    index: str | None = None


@dataclass(slots=True, repr=False, eq=False)
class ForEachStep(Step):
    """A checked `for_each:` step."""

    var: str
    source: Formula | None      # a formula giving a pool (each face) ...
    group: str | None           # ... or an entity group (each instance)
    body: list
    only: Formula | None = None             # where: a group's instances, only those that meet it
    by: tuple[Formula, ...] = ()            # a group's instances in the order of these scores
    lowest_first: bool = False              # by: from the lowest score (else from the highest)


@dataclass(slots=True, repr=False, eq=False)
class CallStep(Step):
    """A checked `call:` step."""

    procedure: str
    args: list[tuple[str, Formula]]
    result: str | None = None
    instances: tuple[tuple[str, str], ...] = ()   # (parameter, group): arguments checked to be instances


@dataclass(slots=True, repr=False, eq=False)
class ReturnStep(Step):
    """A checked `return:` step."""

    value: Formula | None
    fields: tuple[tuple[str, Formula], ...] = ()     # return: {name: formula, ..}: a record

    @property
    def formulas(self) -> list:
        """Every formula the step returns: its value's, or each field's."""
        return [formula for _, formula in self.fields] if self.fields else [self.value] if self.value else []


@dataclass(slots=True, repr=False, eq=False)
class EndStep(Step):
    """A checked `end:` step."""

    target: str                 # "game" or a loop level's name
    result: str | None = None


# ---- checks -----------------------------------------------------------------------------


def check_if(c, item, path, scope):
    test = c.formula(item["if"], tuple(path) + ("if",), scope)
    if test is not None and test.expr.is_constant:
        value = test.expr.evaluate().value
        branch = "else" if value else "then"
        if branch in item:
            c.problem(_("the test is always {value}, so {branch}: can never run").format(
                          value='true' if value else 'false', branch=branch),
                      tuple(path) + ("if",))
    then = c.steps(item.get("then") or [], tuple(path) + ("then",), scope)
    otherwise = c.steps(item.get("else") or [], tuple(path) + ("else",), scope)
    return IfStep(position_of(c.data, path), path, test, then, otherwise) if test else None


def check_repeat(c, item, path, scope):
    spec = item["repeat"]
    p = tuple(path) + ("repeat",)
    present = [k for k in ("times", "while", "until") if k in spec]
    if len(present) != 1:
        c.problem(_("repeat takes exactly one of times:, while: or until:"), p)
        return None
    if present[0] != "times" and "max" not in spec:
        c.problem(_("repeat with {present}: needs max: (every loop in a ruleset is bounded)").format(
                      present=present[0]), p)
    ahead = scope.fork()        # times: and while: are read before a time sets as: (the first reads none)
    if item.get("as"):
        c.bind(scope, item["as"], tuple(path) + ("as",), "repeat")
    times = c.formula(spec.get("times"), p + ("times",), ahead)
    while_ = c.formula(spec.get("while"), p + ("while",), ahead)
    body = c.steps(item["do"], tuple(path) + ("do",), scope)
    return RepeatStep(
        position_of(c.data, path), path, body, times=times, while_=while_,
        until=c.formula(spec.get("until"), p + ("until",), c.after(scope, body)),   # read after each time
        max=spec.get("max"), index=item.get("as"),
    )


def runs_once(step: RepeatStep) -> bool:
    """Whether a repeat: surely runs its do: at least once: with until: (tested after each time), or
    a number of times written as a number of 1 or more (max: is 1 or more)."""
    if step.until is not None:
        return True
    times = step.times
    if times is None or not times.expr.is_constant:
        return False
    try:
        value = times.expr.evaluate().value
    except DiceError:
        return False
    return type(value) is int and value >= 1


def check_for_each(c, item, path, scope):
    var = item["for_each"]
    source = item["in"]
    group = None
    formula = None
    where, by = None, ()
    if isinstance(source, str) and source in c.entities and c.entities[source]["group"]:
        group = source
        c.bind(scope, var, tuple(path) + ("for_each",), "for_each", ("entity", source))
        # Read over each instance, through the loop's name, before the loop starts: no dice.
        message = _("where: and by: read each instance as the loop starts, and roll no dice")
        if item.get("where") is not None:
            where = c.formula(item["where"], tuple(path) + ("where",), scope)
            if where is not None:
                c.no_dice(where.expr.tree, where.text, tuple(path) + ("where",), message)
        scores = item.get("by")
        scores = scores if isinstance(scores, list) else [] if scores is None else [scores]
        by = tuple(c.formula(v, tuple(path) + (("by", i) if isinstance(item.get("by"), list) else ("by",)), scope)
                   for i, v in enumerate(scores))
        for formula in by:
            if formula is not None:
                c.no_dice(formula.expr.tree, formula.text, formula.path, message)
        if any(f is None for f in by):
            by = ()
        if item.get("first") is not None and not scores:
            c.problem(_("first: says which end of by:'s order comes first: give by: too"), tuple(path) + ("first",),
                      at_key=True)
    else:
        for key in ("where", "by", "first"):
            if key in item:
                c.problem(_("{key}: goes with for_each over a group (in: a group's name), not over a "
                            "pool").format(key=key),
                          tuple(path) + (key,), at_key=True)
        formula = c.formula(source, tuple(path) + ("in",), scope)
        c.bind(scope, var, tuple(path) + ("for_each",), "for_each")
    body = c.steps(item["do"], tuple(path) + ("do",), scope)
    return ForEachStep(position_of(c.data, path), path, var, formula, group, body, where, by,
                       item.get("first") == "lowest")


def check_call(c, item, path, scope):
    name = item["call"]
    if name not in c.procedure_params:
        c.problem(_("there is no procedure {name!r}{hint}").format(
                      name=name, hint=c.suggest(name, c.procedure_params)), tuple(path) + ("call",))
        return None
    wanted = c.procedure_params[name]
    given = dict(item.get("with") or {})
    for arg in given:
        if arg not in wanted:
            c.problem(_("procedure {name!r} has no parameter {arg!r} (it takes {wanted})").format(
                          name=name, arg=arg, wanted=', '.join(wanted) or 'none'),
                      tuple(path) + ("with", arg), at_key=True)
    for arg in wanted:
        if arg not in given:
            c.problem(_("procedure {name!r} needs {arg!r} in with:").format(name=name, arg=arg),
                      tuple(path) + ("call",))
    args = [(arg, c.formula(v, tuple(path) + ("with", arg), scope)) for arg, v in given.items()]
    if item.get("as"):
        fields = c.names.procedure_fields.get(name)
        c.bind(scope, item["as"], tuple(path) + ("as",), "call", ("record", name) if fields else None)
    return CallStep(position_of(c.data, path), path, name, [(a, f) for a, f in args if f is not None],
                    item.get("as"), instance_params(c.data["procedures"][name]))


def instance_params(spec) -> tuple[tuple[str, str], ...]:
    """The parameters of a procedure declared {NAME: {of: GROUP}}, with their groups (none when the
    procedure is written wrong: that is reported where it is)."""
    params = spec.get("params") if isinstance(spec, dict) else None
    if not isinstance(params, list):
        return ()
    return tuple((next(iter(p)), p[next(iter(p))]["of"]) for p in params
                 if isinstance(p, dict) and len(p) == 1 and isinstance(p[next(iter(p))], dict)
                 and isinstance(p[next(iter(p))].get("of"), str))


def check_return(c, item, path, scope):
    value = item["return"]
    if isinstance(value, dict):      # a record: read field by field after call: ... as: r, as r.NAME
        fields = tuple((name, c.formula(v, tuple(path) + ("return", name), scope)) for name, v in value.items())
        if any(f is None for _, f in fields):
            return None
        return ReturnStep(position_of(c.data, path), path, None, fields)
    return ReturnStep(position_of(c.data, path), path, c.formula(value, tuple(path) + ("return",), scope))


def check_end(c, item, path, scope):
    target = item["end"]
    p = tuple(path)
    if target == "game":
        if not item.get("result"):
            c.problem(_("end: game needs result: (a name for how the game ended, such as won or lost)"), p)
            return None
        c.results.add(item["result"])
    elif target not in c.levels:
        c.problem(_("end: takes game or a loop level ({levels}), not {target!r}{hint}").format(
                      levels=", ".join(c.levels) or _("this ruleset has no named loop level"), target=target,
                      hint=c.suggest(target, c.levels)), p + ("end",))
        return None
    elif item.get("result"):
        c.problem(_("result: only goes with end: game"), p + ("result",), at_key=True)
    elif c.level_end_refused:
        c.problem(_("end: {target} has no iteration to end in {level_end_refused}").format(
                      target=target, level_end_refused=c.level_end_refused), p + ("end",))
        return None
    return EndStep(position_of(c.data, path), path, target, item.get("result"))


# ---- lowering ---------------------------------------------------------------------------


def lower_if(w, step: IfStep) -> None:
    test = w.truth(step.test)
    w.line(f"if {test}:")
    with w.indent():
        w.block(step.then)
    if step.otherwise:
        w.line("else:")
        with w.indent():
            w.block(step.otherwise)


def lower_repeat(w, step: RepeatStep) -> None:
    counter = w.fresh("_i")
    index = w.local(step.index) if step.index else None
    if step.index:
        w.bound(step.index, NUM)
    with w.loop(step):
        if step.times is not None:
            n = w.number(step.times, "repeat times:")
            bound = f"min({n}, {step.max})" if step.max is not None else n
            w.iterations_checked(bound, step.body, step)
            w.line(f"for {counter} in range({bound}):")
            with w.indent():
                if index:
                    w.line(f"{index} = {counter} + 1")
                w.block(step.body)
            return
        w.line(f"for {counter} in range({step.max}):")
        with w.indent():
            if step.while_ is not None:
                w.line(f"if not {w.truth(step.while_)}:")
                w.line("    break")
            if index:
                w.line(f"{index} = {counter} + 1")
            w.block(step.body)
            if step.until is not None:
                w.line(f"if {w.truth(step.until)}:")
                w.line("    break")


def each(value):
    """What for_each goes through: the faces of a pool, or the items of a list."""
    from ruleset_engine.dice import Pool

    if isinstance(value, Pool):
        return value.faces
    if isinstance(value, (list, tuple)):
        return list(value)
    from ..templates import format_value

    raise StepFailed(_("for_each goes through a pool or a group, not {value!r}").format(value=format_value(value)))


def ordered(group: list, where, scores: tuple, lowest_first: bool) -> list:
    """A group's instances for for_each: those that meet `where`, in the order of the scores (the
    first score, ties to the next, ties left in the group's order: Python's sort is stable, reversed too)."""
    chosen = [it for it in group if where(it)] if where is not None else list(group)
    if scores:
        chosen.sort(key=lambda it: tuple(score(it) for score in scores), reverse=not lowest_first)
    return chosen


def _over(w, formula, test: bool) -> str:
    """A formula over one instance as one expression (no line of its own: it is a lambda's body)."""
    src, lo = w.lower(formula)
    if w.failed:
        return "None"
    tree = formula.expr.tree
    try:
        return (lo.truth(tree, raw=src) if test else lo.number(tree, raw=src)).text
    except DiceError as err:
        return w.program.problem(err, formula).text


def lower_for_each(w, step: ForEachStep) -> None:
    var = w.local(step.var)
    if step.group is not None:
        w.bound(step.var, ANY, entity=step.group)
        source = f"list({w.group(step.group)})"
        if step.only is not None or step.by:
            # Each formula over an instance, as a function of the loop's own name.
            where = f"(lambda {var}: {_over(w, step.only, True)})" if step.only is not None else "None"
            scores = "".join(f"(lambda {var}: {_over(w, score, False)}), " for score in step.by)
            source = f"_ordered({w.group(step.group)}, {where}, ({scores}), {step.lowest_first})"
    else:
        value, kind = w.value(step.source)
        w.bound(step.var, NUM if kind == POOL else ANY)    # the faces of a pool; else whatever the list holds
        source = f"_each({value})" if kind != POOL or w.traced else value
    with w.loop(step):
        w.line(f"for {var} in {source}:", step)
        with w.indent():
            w.block(step.body)


def lower_call(w, step: CallStep) -> None:
    procedure = w.program.ruleset.procedures[step.procedure]
    given = dict(step.args)
    args = []
    checked = dict(step.instances)
    for name in procedure.params:
        value, kind = w.value(given[name])
        w.program.argument(step.procedure, name, kind)
        if name in checked:
            # A parameter that holds an instance: checked at the call, where a wrong argument is written.
            group = checked[name]
            value = f"_instance_arg({value}, {w.group(group)}, {group!r}, {step.procedure!r}, {name!r})"
        args.append(value)
    w.call(step, args, step.result)


def instance_arg(value, group: list, group_name: str, procedure: str, param: str):
    """The argument of a parameter declared {param: {of: group}}: an instance of the group, or a name
    one has; anything else stops the step that calls."""
    if isinstance(value, str):
        for instance in group:
            if instance.get("name") == value:
                return instance
        raise StepFailed(no_instance_argument(procedure, param, group_name, value))
    if isinstance(value, dict) and any(instance is value for instance in group):
        return value
    raise StepFailed(not_an_instance(procedure, param, group_name, value))


def no_instance_argument(procedure: str, param: str, group_name: str, name) -> str:
    return _("{procedure}: {param} is an instance of {group}, and none is named {name!r}").format(
        procedure=procedure, param=param, group=group_name, name=name)


def not_an_instance(procedure: str, param: str, group_name: str, value) -> str:
    from ..templates import format_value
    return _("{procedure}: {param} is an instance of {group}, not {value!r}").format(
        procedure=procedure, param=param, group=group_name, value=format_value(value))


def lower_return(w, step: ReturnStep) -> None:
    if step.fields:
        values = [(name, w.value(formula)[0]) for name, formula in step.fields]
        w.line("return {" + ", ".join(f"{name!r}: {value}" for name, value in values) + "}")
        return
    if step.value is None:
        w.line("return None")
        return
    value, _ = w.value(step.value)
    w.line(f"return {value}")


def lower_end(w, step: EndStep) -> None:
    if step.target == "game":
        w.line(f"raise _EndGame({step.result!r})", step)
    else:
        w.line(f"raise _EndLevel({step.target!r})", step)


# ---- vector forms (the lockstep backend: many games at once) -----------------------------------
# `if` splits the rows by the test; a loop keeps a counter per game; a call gathers the rows that
# make it into a fresh frame of locals (runtime/lockstep.py) and scatters what it returns.


def vector_if(m, step: IfStep, rows) -> None:
    test = m.truth(step.test, rows)
    if step.then and test.any():
        m.block(step.then, rows[test])
    if step.otherwise and not test.all():
        m.block(step.otherwise, m.running(rows[~test]))


def vector_repeat(m, step: RepeatStep, rows) -> None:
    if step.times is not None:
        times = m.per_row(m.number(step.times, rows), rows)
        if step.max is not None:
            times = m.np.minimum(times, step.max)
        most = int(times.max()) if len(times) else 0
        m.iterations(times, step.body, step, rows)
        for k in range(most):
            live = m.running(rows[times > k])
            if not len(live):
                break
            if step.index:
                m.bind(step.index, live, k + 1)
            m.block(step.body, live, loop=step)
        return
    live = rows
    for k in range(step.max):
        if step.while_ is not None:
            live = live[m.truth(step.while_, live)]
        if not len(live):
            break
        if step.index:
            m.bind(step.index, live, k + 1)
        m.block(step.body, live, loop=step)
        live = m.running(live)
        if step.until is not None and len(live):
            live = live[~m.truth(step.until, live)]


def vector_for_each(m, step: ForEachStep, rows) -> None:
    if step.group is not None:
        m.each_instance(step, rows)     # instance j for the games that have one, then j + 1, ...
        return
    value = m.value(step.source, rows)
    chosen = getattr(value, "chosen", None)
    if chosen is not None:          # instances chosen (ask with choose: and min:/max:), in the group's order
        for j in range(chosen.shape[1]):
            live = m.running(rows[chosen[:, j]])
            if len(live):
                m.bind(step.var, live, m.groups.instances(value.group, m.np.full(len(live), j, m.np.int64)))
                m.block(step.body, live, loop=step)
        return
    if not hasattr(value, "faces"):
        raise StepFailed(_("for_each goes through a pool here"))
    faces = value.faces
    unread = step.var in m.unread_locals.get(id(step), ())      # nothing the games play reads it
    for j in range(faces.shape[1]):
        live, column = m.running_with(rows, faces[:, j])
        live, column = live[column != m.EMPTY], column[column != m.EMPTY]
        if len(live):
            if not unread:
                m.bind(step.var, live, column.astype(m.np.int64))
            m.block(step.body, live, loop=step)


def vector_call(m, step: CallStep, rows) -> None:
    args = {name: m.value(formula, rows) for name, formula in step.args}
    m.site = step       # a wrong argument is said at the call, as instance_arg says it
    for name, group in step.instances:
        args[name] = vector_instance_arg(m, args[name], group, step.procedure, name, rows)
    m.call(step, args, rows)


def vector_instance_arg(m, value, group: str, procedure: str, param: str, rows):
    """instance_arg for each game: its instance of the group, or the one its name names (the same
    rule: the name as written); the first game given anything else stops the run with its message."""
    if isinstance(value, str) or getattr(getattr(value, "dtype", None), "kind", "-") in "OU":
        names = m.per_row(value, rows)
        index = m.find_named(names, group, rows)
        if (index < 0).any():
            missing = str(names[m.np.flatnonzero(index < 0)[0]])
            raise StepFailed(no_instance_argument(procedure, param, group, missing))
        return m.groups.instances(group, index)
    index = getattr(value, "index", None)
    if getattr(value, "group", None) == group and index is not None and (index >= 0).all():
        return value
    raise StepFailed(not_an_instance(procedure, param, group, m.first_value(value, rows)))


def vector_return(m, step: ReturnStep, rows) -> None:
    if step.fields:     # a record: each field's value for the rows, read back as NAME.FIELD after as:
        m.give_back(rows, {name: m.value(formula, rows) for name, formula in step.fields})
        return
    m.give_back(rows, m.value(step.value, rows) if step.value is not None else None)


def vector_end(m, step: EndStep, rows) -> None:
    if step.target == "game":
        m.end_game(rows, step.result)
    else:
        m.end_level(rows, step.target)     # the rows leave the action; the level moves on after it


IF = StepKind("if", IfStep, ("if", "then", "else"), "runs then: when the test holds, else: otherwise",
              "if: ones >= 3\nthen: [...]\nelse: [...]", check_if, lower_if, nested=("then", "otherwise"),
              vector=vector_if, writes=nothing, formulas=lambda s: [s.test],
              assigns=lambda s, block: block(s.then) & block(s.otherwise),
              schema={
                  "if": {"$ref": "#/$defs/formula"},
                  "then": {"$ref": "#/$defs/steps"},
                  "else": {"$ref": "#/$defs/steps"},
              },
              required=("then",))
REPEAT = StepKind("repeat", RepeatStep, ("repeat", "as", "do"),
                  "runs do: a number of times, or while/until a condition holds (with max:, every loop is bounded)",
                  "repeat: {times: guards}\nas: i\ndo: [...]", check_repeat, lower_repeat, nested=("body",),
                  vector=vector_repeat, writes=nothing, binds=lambda s: given(s.index) and [(s.index, None)],
                  formulas=lambda s: given(s.times, s.while_, s.until),
                  assigns=lambda s, block: (block(s.body) | set(given(s.index))) if runs_once(s) else set(),
                  schema={
                      "repeat": {"type": "object", "additionalProperties": False, "minProperties": 1,
                                 "properties": {"times": {"$ref": "#/$defs/formula"},
                                                "while": {"$ref": "#/$defs/formula"},
                                                "until": {"$ref": "#/$defs/formula"},
                                                "max": {"type": "integer", "minimum": 1}}},
                      "as": {"$ref": "#/$defs/name"},
                      "do": {"$ref": "#/$defs/steps"},
                  },
                  required=("do",))
FOR_EACH = StepKind("for_each", ForEachStep, ("for_each", "in", "where", "by", "first", "do"),
                    "goes through a group's instances (where: only those that meet a test; by: in the order of "
                    "a score, highest first, or first: lowest), or the faces of a pool",
                    "for_each: p\nin: player\nwhere: p.alive\nby: p.speed + p.nerve\ndo: [...]",
                    check_for_each, lower_for_each, helpers={"_each": each, "_ordered": ordered}, nested=("body",),
                    vector=vector_for_each, writes=nothing,
                    binds=lambda s: [(s.var, None)], formulas=lambda s: given(s.source, s.only, *s.by),
                    drops=lambda s: [s.var],
                    assigns=lambda s, block: set(),      # a group or a pool may be empty
                    schema={
                        "for_each": {"$ref": "#/$defs/name"},
                        "in": {"$ref": "#/$defs/formula"},
                        "where": {"$ref": "#/$defs/formula",
                                  "description": "A group's instances: only those that meet this test (read through the for_each name)."},
                        "by": {"anyOf": [{"$ref": "#/$defs/formula"},
                                         {"type": "array", "minItems": 1, "maxItems": 8,
                                          "items": {"$ref": "#/$defs/formula"}}],
                               "description": "A group's instances in the order of this score (a list: ties go to the next), read as the loop starts; ties left go in the group's order."},
                        "first": {"enum": ["highest", "lowest"],
                                  "description": "With by: which end of the order comes first (highest by default)."},
                        "do": {"$ref": "#/$defs/steps"},
                    },
                    required=("in", "do"))
CALL = StepKind("call", CallStep, ("call", "with", "as"), "runs a procedure with arguments; as: binds what it returns",
                "call: attack\nwith: {damage: 3}\nas: result", check_call, lower_call,
                helpers={"_instance_arg": instance_arg}, vector=vector_call,
                writes=nothing, binds=lambda s: given(s.result) and [(s.result, None)],
                formulas=lambda s: [formula for _, formula in s.args],
                calls=lambda s: [(s.procedure, s.args, s.result)],
                schema={
                    "call": {"$ref": "#/$defs/name"},
                    "with": {"type": "object", "additionalProperties": {"$ref": "#/$defs/formula"}},
                    "as": {"$ref": "#/$defs/name"},
                },
                declares=("as",))
RETURN = StepKind("return", ReturnStep, ("return",),
                  "ends the procedure (or the action) with a value, or a record of named values", "return: net",
                  check_return, lower_return, ends_block=True,
                  vector=vector_return, writes=nothing, formulas=lambda s: s.formulas, returns=lambda s: s.formulas,
                  schema={
                      "return": {"anyOf": [{"$ref": "#/$defs/formula"},
                                           {"type": "object", "minProperties": 1,
                                            "additionalProperties": {"$ref": "#/$defs/formula"},
                                            "propertyNames": {"$ref": "#/$defs/name"},
                                            "description": "A record: read NAME.FIELD after call: ... as: NAME."}]},
                  })
END = StepKind("end", EndStep, ("end", "result"),
               "ends the game with a result, or the current iteration of a loop level",
               "end: game\nresult: won", check_end, lower_end, ends_block=True,
               vector=vector_end, writes=nothing,
               schema={
                   "end": {"$ref": "#/$defs/name"},
                   "result": {"$ref": "#/$defs/name"},
               })
