"""The steps that bind and write values: set, let, roll, note."""

from __future__ import annotations

from ruleset_engine.i18n import _

from dataclasses import dataclass
from ...dice import kinds
from ..model import Formula, Step
from ..templates import Template
from ..yamlio import position_of
from .kind import StepKind, given, nothing
from .timers import add, check_until, position


@dataclass(slots=True, repr=False, eq=False)
class SetStep(Step):
    """A checked `set:` step."""

    assignments: list[tuple[tuple[str, ...], Formula]]
    until: tuple | None = None      # (loop level index, formula of its counter or None: the iteration's end)


@dataclass(slots=True, repr=False, eq=False)
class LetStep(Step):
    """A checked `let:` step."""

    assignments: list[tuple[str, Formula]]


@dataclass(slots=True, repr=False, eq=False)
class RollStep(Step):
    """A checked `roll:` step."""

    assignments: list[tuple[str, Formula]]
    label: Template | None = None


@dataclass(slots=True, repr=False, eq=False)
class NoteStep(Step):
    """A checked `note:` step."""

    notes: list[tuple[tuple[str, ...], Template]]


# ---- checks -----------------------------------------------------------------------------


def _assignments(c, item, path, scope, key: str, targets: bool):
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
                c.problem(_("{key}: a local name is one word, not {name!r}").format(key=key, name=name), p, at_key=True)
                continue
            if name in c.state_names or name in c.entities:
                c.bind(scope, name, p, key)          # refused: it would hide the global
                continue
            if formula is not None:
                pairs.append((name, formula))
            c.bind(scope, name, p, key, plain_value(formula))
            if formula is None:
                scope.said_once(name)    # its value was refused, and said so: a read of it says no more
    return pairs


def plain_value(formula) -> tuple | None:
    """What a local bound by let: holds, when its formula's kind is known before anything runs (a
    number, true/false, a text, a pool): a value with no fields, so `{f.net}` over it is refused at
    its place. None: not known (a record, an instance, a row, or a name read when it runs)."""
    kind = formula.expr.kind if formula is not None else None
    return ("value", kind) if kind in (kinds.NUM, kinds.BOOL, kinds.STR, kinds.POOL) else None


def check_set(c, item, path, scope):
    assignments = _assignments(c, item, path, scope, "set", True)
    until = None
    if item.get("until") is not None:
        until = check_until(c, item, path, scope, [target for target, _ in assignments])
        if until is None:
            return None
    return SetStep(position_of(c.data, path), path, assignments, until)


def check_let(c, item, path, scope):
    return LetStep(position_of(c.data, path), path, _assignments(c, item, path, scope, "let", False))


def check_roll(c, item, path, scope):
    assignments = _assignments(c, item, path, scope, "roll", False)
    # The label is shown after the roll, so its placeholders may read what was just rolled.
    return RollStep(position_of(c.data, path), path, assignments,
                    c.text(item.get("label"), tuple(path) + ("label",), scope))


def check_note(c, item, path, scope):
    notes = []
    for name, value in item["note"].items():
        p = tuple(path) + ("note", name)
        target = c.target(name, p, scope, "note")
        template = c.text(value, p, scope)
        if target is not None and template is not None:
            notes.append((target, template))
    return NoteStep(position_of(c.data, path), path, notes)


# ---- lowering ---------------------------------------------------------------------------


def lower_set(w, step: SetStep) -> None:
    if step.until is not None:
        _timed(w, step)
    for target, formula in step.assignments:
        value, kind = w.value(formula, inline=True)
        w.assign(target, value, kind, step, kept=w.may_keep_aside(formula))


def _timed(w, step: SetStep) -> None:
    """Before a set: with until: writes, each place's value and the point it comes back at, kept
    (ruleset/steps/timers.py; the loop machine gives the values back when the point comes)."""
    p = w.program
    level, formula = step.until
    point = w.number(formula, "until") if formula is not None else "None"
    if formula is not None:
        held = w.fresh("_u")
        w.line(f"{held} = {point}")
        point = held
    counters = "[" + ", ".join(p.counter(i) for i in range(len(p.ruleset.loop))) + "]"
    store = "G['_timers']" if w.traced else w.cell("tm")
    for target, _ in step.assignments:
        head = target[0]
        if head in p.ruleset.state:
            where = repr(["s", head])
        elif head in p.ruleset.entities:
            where = repr(["e", head, None, target[1]])
        else:
            group = w.entity_locals[head]
            where = f"['e', {group!r}, _timer_position({w.group(group)}, {w.local(head)}, {target!r}), {target[1]!r}]"
        w.line(f"_timer_add({store}, {where}, {w.read(target)}, {counters}, {level}, {point})", step)


def lower_let(w, step: LetStep) -> None:
    for name, formula in step.assignments:
        _, kind = w.value(formula, into=w.local(name))
        w.bound(name, kind)


def lower_roll(w, step: RollStep) -> None:
    own = tuple(name for name, _ in step.assignments)
    for name, formula in step.assignments:
        w.roll(formula, name, step.label, own)


def lower_note(w, step: NoteStep) -> None:
    for target, template in step.notes:
        if not w.traced and not w.program.is_read(target):
            w.line(f"pass  # note {'.'.join(target)}: a text nothing in the rules reads")
            w.text_checked(template)
            continue
        text = w.text(template)
        w.assign(target, text, w.text_kind(template), step, event=False)
        if w.traced:
            w.emit("note", target=w.shown(target), text=f"_to_state({text})")


# ---- vector forms (the lockstep backend: many games at once) -----------------------------------


def vector_set(m, step: SetStep, rows) -> None:
    if step.until is not None:      # what each place held, kept until the point (runtime/lockstep_timers.py)
        m.timers.add(step, rows)
        for target, formula in step.assignments:
            m.assign(target, rows, m.value(formula, rows))
        return
    unread = m.unread_locals.get(id(step), ())
    for target, formula in step.assignments:
        value = m.value(formula, rows)      # evaluated all the same: its dice drawn, its errors raised
        if len(target) > 1 or target[0] not in unread:
            m.assign(target, rows, value)


def vector_let(m, step, rows) -> None:
    unread = m.unread_locals.get(id(step), ())
    for name, formula in step.assignments:
        value = m.value(formula, rows)      # evaluated all the same: its dice drawn, its errors raised
        if name not in unread:
            m.bind(name, rows, value)


def vector_note(m, step: NoteStep, rows) -> None:
    """Only the notes a formula reads are rendered (a simulation shows none of its texts)."""
    for target, template in step.notes:
        if target[0] in m.read_names or len(target) > 1:
            m.assign(target, rows, m.render(template, rows))


def _bound(step) -> list:
    """let: and roll: bind each name to its formula's value."""
    return list(step.assignments)


def _names(step) -> list:
    return [name for name, _ in step.assignments]


def _evaluated(step) -> list:
    return [formula for _, formula in step.assignments]


SET = StepKind("set", SetStep, ("set", "until"),
               "writes state variables, entity fields or existing locals; a pool is stored as its faces; "
               "until: a loop level (the end of its current iteration) or a point of its counter (loop.turn + 2), "
               "when each place takes back what it held",
               'set: {guard.life: "guard.life - damage", kept: "[]"}', check_set, lower_set,
               helpers={"_timer_add": add, "_timer_position": position}, vector=vector_set,
               writes=lambda s: [target for target, _ in s.assignments],
               binds=lambda s: [(target[0], formula) for target, formula in s.assignments if len(target) == 1],
               formulas=lambda s: _evaluated(s) + (given(s.until[1]) if s.until is not None else []),
               timed=lambda s: s.until is not None,
               # a timed set: gives each place back later, so its timer reads the local then
               drops=lambda s: [] if s.until is not None else [t[0] for t, _ in s.assignments if len(t) == 1],
               schema={
                   "set": {"$ref": "#/$defs/assignments"},
                   "until": {"$ref": "#/$defs/formula",
                             "description": "The values hold until this point of the game's clock, then each place takes back what it held: a loop level's name (the end of its current iteration), or a formula of one level's counter (loop.turn + 2)."},
               })
LET = StepKind("let", LetStep, ("let",), "binds local names", 'let: {net: "max(0, hits - ones)"}', check_let, lower_let,
               vector=vector_let, writes=nothing, binds=_bound, formulas=_evaluated, drops=_names,
               schema={
                   "let": {"$ref": "#/$defs/assignments"},
               },
               declares=("let",))
ROLL = StepKind("roll", RollStep, ("roll", "label"),
                "binds the value (a pool keeps its dice and what was set aside) and logs the roll with every die",
                'roll: {blue: "[kept, (3 - size(kept))d6]"}\nlabel: Search', check_roll, lower_roll,
                vector=vector_let, writes=nothing, binds=_bound, formulas=_evaluated, drops=_names,
                shows=lambda s: given(s.label),
                schema={
                    "roll": {"$ref": "#/$defs/assignments"},
                    "label": {"$ref": "#/$defs/text"},
                },
                declares=("roll",))
NOTE = StepKind("note", NoteStep, ("note",), "writes a text into a state variable or field",
                'note: {latest: "The door opens on a {green}"}', check_note, lower_note,
                vector=vector_note, writes=lambda s: [target for target, _ in s.notes], texts=lambda s: s.notes,
                schema={
                    "note": {"type": "object", "minProperties": 1, "additionalProperties": {"$ref": "#/$defs/text"}},
                })
