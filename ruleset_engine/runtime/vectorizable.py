"""Whether the lockstep backend (lockstep.py) can play a ruleset: the first construct without a
vector form, placed in the file, found before any game and without numpy (the process that shares
a run among its workers asks, and never plays).
"""

from __future__ import annotations

import dataclasses

from ruleset_engine import i18n
from ruleset_engine.dice.errors import DiceError
from ruleset_engine.dice.vectorizable import MIXED, unsupported, value_kind
from ruleset_engine.errors import DuskError
from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.queries import QUERIES
from ruleset_engine.ruleset import walk
from ruleset_engine.ruleset.templates import Template

from .errors import RuleError

STEP_KINDS = walk.KIND_OF      # the lockstep machine runs each step by its entry's vector form


class Unsupported(DuskError):
    """A construct of the ruleset that has no vector form, located: the lockstep backend cannot
    play the ruleset (`--backend auto` plays it untraced)."""

    def __init__(self, what: str, where=None, path=(), detail=()):
        self.error = RuleError(i18n._("the lockstep backend cannot play {what}").format(what=what), where, path,
                               detail)
        super().__init__(str(self.error))
        self.what = what


# ---- before any game: does every construct have a vector form? ----------------------------------


def refusal(ruleset: model.Ruleset, params: dict) -> Unsupported | None:
    """The first construct of the ruleset that the lockstep backend cannot play, or None."""
    try:
        _check_ruleset(ruleset, params)
    except Unsupported as err:
        if err.error.where is None and err.error.path and ruleset.data is not None:
            from ruleset_engine.ruleset.yamlio import position_of

            # A part of the file rather than a step or formula: placed by its path in the YAML.
            err.error.where = position_of(ruleset.data, err.error.path)
            err.args = (str(err.error),)
        return err
    return None


def _check_formula(formula: model.Formula | None, ruleset: model.Ruleset) -> None:
    if formula is None:
        return
    found = _query(formula, ruleset) or unsupported(formula.expr.tree, ruleset.formulas, pairs=ruleset.pairs,
                                                    calls=_played_queries(ruleset), kinds=_name_kinds(ruleset),
                                                    kinded=_kinded(ruleset))
    if found is None:
        found = _text_read(formula, ruleset)
    if found is not None:
        what, span = found
        detail = ()
        try:
            err = DiceError(what, span=span)
            err.located(formula.text, span)
            detail = err.caret_lines()
        except Exception:   # pragma: no cover - a caret is a courtesy
            pass
        raise Unsupported(what, formula.where, formula.path, detail)


_PARAM_KINDS = {"integer": "number", "boolean": "number", "dice": "pool", "choice": "text", "text": "text"}


def _name_kinds(ruleset: model.Ruleset) -> dict:
    """What each name gives in every game, where the ruleset says it (a conditional between a pool and
    a number is refused): the params; and each state variable, local or procedure parameter whose every
    binding anywhere in the ruleset (a state's initial value, let:, set:, roll:, a call's with:, the
    loop action's parameters by their type, ...) gives the same kind by its syntax; a name bound to a
    pool in one place and to a number in another (in two procedures, say) is "pool or number". A name
    one binding leaves open (an answer, an instance, a query) stays unknown: checked as it runs."""
    cached = _KINDS.get(id(ruleset))
    if cached is None or cached[0] is not ruleset:
        cached = _KINDS[id(ruleset)] = (ruleset, _infer_kinds(ruleset))
    return cached[1]


_KINDS: dict = {}


def _infer_kinds(ruleset: model.Ruleset) -> dict:
    kinds = {f"params.{name}": _PARAM_KINDS.get(param.type) for name, param in ruleset.params.items()}
    bindings: dict = {}       # one-part name -> the formulas (or fixed kinds, or None: open) it is bound to

    def bind(name: str, source) -> None:
        bindings.setdefault(name, []).append(source)

    for name, initial in ruleset.state.items():
        bind(name, initial.formula or ("text" if initial.text is not None else "pool" if initial.pool is not None
                                       else None))
    for action in ruleset.actions.values():
        for name, param in action.params.items():
            bind(name, _PARAM_KINDS.get(param.type))
    for step in walk.all_steps(ruleset):
        kind = walk.kind_of(step)
        for name, formula in kind.binds(step):
            bind(name, formula)
        for procedure, args, _ in kind.calls(step):
            given = dict(args)
            for name in getattr(ruleset.procedures.get(procedure), "params", ()):
                bind(name, given.get(name))
    # Settled by rounds: a binding's kind may read another name's (let: {b: "a"}); a name is known only
    # once all its bindings are, so a kind once found never changes.
    changed = True
    while changed:
        changed = False
        for name, sources in bindings.items():
            if name in kinds:
                continue
            found = {source if source is None or isinstance(source, str)
                     else value_kind(source.expr.tree, ruleset.formulas, kinds) for source in sources}
            if None in found:
                continue
            kind = found.pop() if len(found) == 1 else MIXED if found <= {"pool", "number", MIXED} else None
            if kind is not None:
                kinds[name] = kind
                changed = True
    return kinds


def _kinded(ruleset: model.Ruleset) -> bool:
    """Whether some formula of the ruleset gives dice kinds (then any pool kept may hold them)."""
    cached = _KINDED.get(id(ruleset))
    if cached is None or cached[0] is not ruleset:
        from ruleset_engine.dice.vectorizable import marks_kinds
        cached = _KINDED[id(ruleset)] = (ruleset, any(marks_kinds(f.expr.tree, ruleset.formulas)
                                                      for f in _every_formula(ruleset))
                                         or any(marks_kinds(f.tree) for f in ruleset.formulas.values()))
    return cached[1]


_KINDED: dict = {}


def _every_formula(ruleset: model.Ruleset):
    yield from _all_formulas(ruleset)
    for spec in ruleset.entities.values():
        yield from (i.formula for i in spec.fields.values() if i.formula is not None)
    yield from (i.formula for i in ruleset.state.values() if i.formula is not None)


def _played_queries(ruleset: model.Ruleset) -> set:
    """The queries the lockstep backend plays through their entries' vector forms (a pair of the same
    name is the pair's record)."""
    return {name for name, query in QUERIES.items() if query.vector is not None and name not in ruleset.pairs}


def _query(formula: model.Formula, ruleset: model.Ruleset):
    """A query over a group (ruleset/queries.py) whose entry has no vector form: the entry says why."""
    for node in dice_ast.walk(formula.expr.tree):
        if isinstance(node, dice_ast.Call) and node.function in QUERIES and node.function not in ruleset.pairs \
                and QUERIES[node.function].vector is None:
            query = QUERIES[node.function]
            return f"{query.signature} ({i18n._(query.no_vector)})", node.span
    return None


def _group_arguments(formula: model.Formula, ruleset: model.Ruleset) -> set:
    """The spans of the group names that queries read as a whole (their first argument)."""
    return {node.args[0].span for node in dice_ast.walk(formula.expr.tree)
            if isinstance(node, dice_ast.Call) and node.function in QUERIES and node.args
            and node.function not in ruleset.pairs and QUERIES[node.function].group_first}


def _text_read(formula: model.Formula, ruleset: model.Ruleset):
    """A formula that reads a group as a whole outside a query (the lockstep backend reads one
    instance at a time)."""
    queried = _group_arguments(formula, ruleset)
    for path, span in formula.expr.names:
        if span in queried:
            continue
        if len(path) == 3 and path[2] == "labels":
            return i18n._("the labels of a track as a list ({name})").format(name=".".join(path)), span
        if path[0] in ruleset.entities and ruleset.entities[path[0]].is_group:
            return i18n._("the group {group} as a whole (its instances are read one by one, in for_each)").format(
                       group=path[0]), span
    return None


def _read_names(ruleset: model.Ruleset) -> set:
    """The heads of every name a formula of the ruleset reads (steps, endings, triggers, report)."""
    formulas = list(_all_formulas(ruleset)) + [e.when for e in ruleset.end] + [t.when for t in ruleset.triggers]
    formulas += list(ruleset.report.values())
    return {path[0] for formula in formulas for path, _ in formula.expr.names}


def unread_locals(ruleset: model.Ruleset, read: set) -> dict:
    """id(step) -> the locals a let:, roll:, set: or for_each: step gives a value that nothing a simulation plays
    reads in their scope (a procedure's body; the other blocks together): no formula, no place a step
    reads (move:'s source, mark:'s track), no text it renders (only those shown, say: and a roll's
    label, and the notes no formula reads, `read`, are not rendered). The lockstep machine evaluates
    their formulas (the dice drawn, the errors raised) and keeps nothing (a for_each: runs its body
    as often, its name bound to nothing). Names that are also a state
    variable, an entity, a param, or read by a named formula, an end condition, a trigger's test or the
    report are left out."""
    outside = set(ruleset.state) | set(ruleset.entities) | set(ruleset.params) | {"params", "loop"}
    for formula in ruleset.formulas.values():
        outside.update(path[0] for path, _ in dice_ast.names_in(formula.tree))
    for formula in [e.when for e in ruleset.end] + [t.when for t in ruleset.triggers] + list(ruleset.report.values()):
        outside.update(path[0] for path, _ in formula.expr.names)
    scopes: dict = {}
    for block in walk.blocks(ruleset):      # a procedure's locals are its call's own (a frame of its own)
        scopes.setdefault(block.owner if block.part == "procedure" else None, []).extend(walk.steps(block.steps))
    out = {}
    for steps in scopes.values():
        given, kept, writers = set(), set(outside), []
        for step in steps:
            kind = walk.kind_of(step)
            for formula in kind.formulas(step):
                kept.update(path[0] for path, _ in formula.expr.names)
            # A step reads a place itself only where it writes it (move:'s source, mark:'s track); one that
            # may write anything (writes None: create:, pair:) reads through its formulas and texts only.
            writes = kind.writes(step) if kind.writes is not None else ()
            dropped = list(kind.drops(step))     # the locals its vector form may keep no value of
            if dropped:
                given.update(dropped)
                writers.append((step, dropped))
            # a place written through a local (set: {c.done: 1}) reads the local
            kept.update(target[0] for target in writes if len(target) > 1 or target[0] not in dropped)
        if not given - kept:
            continue
        for step in steps:          # the texts, read only where some local may still be unread
            kind = walk.kind_of(step)
            shown = {id(t) for t in kind.shows(step)}
            shown.update(id(t) for place, t in kind.texts(step) if len(place) == 1 and place[0] not in read)
            kept.update(_template_heads(step, shown))
        unread = given - kept
        for step, names in writers:
            if unread.intersection(names):
                out[id(step)] = frozenset(unread.intersection(names))
    return out


_FIELDS: dict = {}      # a dataclass type -> its fields' names


def _fields(item) -> tuple:
    names = _FIELDS.get(type(item))
    if names is None:
        names = _FIELDS[type(item)] = tuple(f.name for f in dataclasses.fields(item))
    return names


def _template_heads(item, shown: set) -> set:
    """The heads of the names the texts of a step read (not those of its blocks, nor `shown`)."""
    heads, stack = set(), [getattr(item, name) for name in _fields(item)]
    while stack:
        value = stack.pop()
        if value is None or isinstance(value, (str, int, model.Formula, model.Step)):
            continue                # no text (a formula is read as one; a block's steps on their own)
        if isinstance(value, Template):
            if id(value) not in shown:
                heads.update(path[0] for part in value.parts.values() for x in part if not isinstance(x, str)
                             for path, _ in x.names)
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
            stack.extend(getattr(value, name) for name in _fields(value))
    return heads


def fields_read(ruleset: model.Ruleset) -> dict:
    """name -> the fields any expression of the ruleset (texts included) reads as NAME.FIELD, or None
    when one reads NAME whole (passes it on, field(NAME, ..)): names matched without their scopes,
    which only ever counts more than needed (a lookup: binds only these columns in lockstep)."""
    reads: dict = {}
    for expr in walk.expressions(ruleset, texts=True):
        for path, _ in expr.names:
            if len(path) == 1:
                reads[path[0]] = None
            elif reads.get(path[0], ()) is not None:
                reads.setdefault(path[0], set()).add(path[1])
    return reads


def _check_steps(steps, ruleset: model.Ruleset) -> None:
    for step in steps:
        kind = walk.kind_of(step)
        if kind.vector is None:
            raise Unsupported(i18n._("the step {key}: ({why})").format(
                                  key=kind.key, why=i18n._(kind.no_vector or "no vector form")), step.where, step.path)
        reason = kind.vector_refuses(step) if kind.vector_refuses is not None else None
        if reason is not None:
            raise Unsupported(reason, step.where, step.path)
        for formula in kind.formulas(step):
            _check_formula(formula, ruleset)
        for inner in walk.children(step):
            _check_steps(inner, ruleset)


def _all_formulas(ruleset: model.Ruleset):
    """Every formula the steps of the ruleset evaluate (setup, loop blocks, actions, procedures, triggers)."""
    return walk.step_formulas(ruleset)


def _check_ruleset(ruleset: model.Ruleset, params: dict) -> None:
    levels = ruleset.loop
    if not levels:
        raise Unsupported(i18n._("a ruleset without a loop"))
    for name, spec in ruleset.entities.items():
        if spec.is_group:
            _check_formula(spec.count, ruleset)
        for track in spec.tracks.values():
            _check_formula(track.size, ruleset)
        for initial in spec.fields.values():
            _check_formula(initial.formula, ruleset)
    for name in params:
        if ruleset.params[name].type == "dice":
            from ruleset_engine import dice
            text = str(params[name])
            _check_formula(model.Formula(text, dice.compile(text), None, ("params", name)), ruleset)
    for name, initial in ruleset.state.items():
        _check_formula(initial.formula, ruleset)
    action = next(a for a in ruleset.actions.values() if a.plays_level)
    for name, param in action.params.items():
        if isinstance(param.default, model.Formula):
            if param.type == "entity":
                raise Unsupported(i18n._("the loop action's parameter {name}, an instance of a group").format(
                                      name=name), None,
                                  ("loop", len(levels) - 1, "params", name))
            for formula in (param.default, param.min, param.max):
                _check_formula(formula, ruleset)
    for level in levels:
        _check_formula(level.times, ruleset)
    for trigger in ruleset.triggers:
        _check_formula(trigger.when, ruleset)
    for block in walk.blocks(ruleset):
        if block.played:
            _check_steps(block.steps, ruleset)
    for ending in ruleset.end:
        _check_formula(ending.when, ruleset)
        _check_formula(ending.value, ruleset)
    for formula in ruleset.report.values():
        _check_formula(formula, ruleset)


