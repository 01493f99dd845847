"""The step that makes a new instance of a group during play: create. Its name comes from a text
(an answer, a formula's placeholder) or from the group's names: template; its fields start as
the group's fields do, then take the values the step gives. The group's max: bounds it."""

from __future__ import annotations

from ruleset_engine.i18n import _, number

import unicodedata
from dataclasses import dataclass

from ..model import Formula, Step
from ..instance_names import name_key, name_problem
from ..names import INSTANCE_FIELDS
from ..templates import Template
from ..yamlio import position_of
from .kind import StepFailed, StepKind

MAX_NAME = 80      # characters in the name of an instance made at the table


@dataclass(slots=True, repr=False, eq=False)
class CreateStep(Step):
    """A checked `create:` step."""

    entity: str
    name: Template | None
    fields: list[tuple[str, Formula]]
    var: str | None = None


def check_create(c, item, path, scope):
    p = tuple(path)
    entity = item["create"]
    spec = c.entities.get(entity)
    if spec is None:
        c.problem(_("there is no entity {entity!r}{hint}").format(entity=entity,
                                                                  hint=c.suggest(entity, c.entities)), p + ("create",))
        return None
    if not spec["group"]:
        c.problem(_("{entity!r} is one entity; create: makes instances of a group (an entity with "
                    "count:)").format(entity=entity),
                  p + ("create",))
        return None
    name = c.text(item["name"], p + ("name",), scope) if "name" in item else None
    fields = []
    for field, value in (item.get("fields") or {}).items():
        if field not in spec["fields"]:
            known = ", ".join(spec["fields"]) or "none"
            c.problem(_("{entity!r} has no field {field!r}{hint} (fields: {known}").format(
                          entity=entity, field=field, hint=c.suggest(field, spec['fields']), known=known)
                      + (_("; name: gives the name") if field in INSTANCE_FIELDS else "")
                      + ")",
                      p + ("fields", field), at_key=True)
            continue
        formula = c.formula(value, p + ("fields", field), scope)
        if formula is not None:
            fields.append((field, formula))
    var = item.get("as")
    if var is not None:
        c.bind(scope, var, p + ("as",), "create", ("entity", entity))
    return CreateStep(position_of(c.data, path), path, entity, name, fields, var)


# ---- the rules of create:, in one place: the table's helper (create_instance) and the lockstep
# backend's (lockstep.Machine.create) both call them.

# Characters a name on one line may not hold: controls (a new line, an escape sequence), format
# characters, surrogates, private and unassigned code points, and the line and paragraph separators
# (U+2028, U+2029). A space of any width (a no-break space) is a space.
_NOT_ON_ONE_LINE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def group_full(entity: str, most: int) -> str:
    return _("the group {group!r} holds {n} instances, as many as it may: no more can be made").format(
        group=entity, n=number(most))


def name_refusal(name: str, entity: str) -> str | None:
    """Why `name` (spaces at its ends already dropped) cannot name a new instance of the group: not
    1 to MAX_NAME characters on one line, or letters of two scripts (instance_names.name_problem);
    None when it can."""
    if not 1 <= len(name) <= MAX_NAME or any(unicodedata.category(ch) in _NOT_ON_ONE_LINE for ch in name):
        return _("the name of a new {group!r} is 1 to {most} characters on one line, not {name!r}").format(
            group=entity, most=MAX_NAME, name=name[:MAX_NAME])
    problem = name_problem(name)
    if problem:
        return _("the name {name!r} of a new {group!r}: {problem}").format(name=name, group=entity, problem=problem)
    return None


def name_taken(entity: str, other) -> str:
    """What a new name says when another instance has one that looks the same (instance_names.name_key)."""
    return _("the group {group!r} has an instance named {other!r} already").format(group=entity, other=other)


def create_instance(group: list, make, name, most: int, entity: str) -> dict:
    """A new instance at the end of the group, named `name` (or by the group's names: template when
    None): refused past the group's most, with a name another instance has, or a name that is not
    words on one line."""
    if len(group) >= most:
        raise StepFailed(group_full(entity, most))
    if name is not None:
        name = name.strip()
        refused = name_refusal(name, entity)
        if refused:
            raise StepFailed(refused)
    instance = make(len(group) + 1, name)
    taken = name_key(instance["name"])
    for other in group:
        # The table names instances to choose them (an action's entity parameter): two names that
        # look alike (in any case, full-width or not) could not be told apart.
        if name_key(other.get("name", "")) == taken:
            raise StepFailed(name_taken(entity, other["name"]))
    group.append(instance)
    return instance


def lower_create(w, step: CreateStep) -> None:
    p = w.program
    spec = p.ruleset.entities[step.entity]
    name = f"str({w.text(step.name)})" if step.name is not None else "None"
    given = w.fresh("_nm")
    w.line(f"{given} = {name}")
    # The fields' values first: a formula that fails leaves the group as it was.
    values = [(field, w.value(formula)) for field, formula in step.fields]
    new = w.local(step.var) if step.var is not None else w.fresh("_new")
    w.line(f"{new} = _create_instance({w.group(step.entity)}, mk_{step.entity}, {given}, "
           f"{spec.most}, {step.entity!r})")
    if step.var is not None:
        w.bound(step.var, "any", entity=step.entity)
    for field, (value, kind) in values:
        p.observe_field(step.entity, field, kind)
        if w.traced:
            w.line(f"{new}[{field!r}] = _to_state({value})")
        else:
            w.line(f"{new}[{field!r}] = {value}")
    if w.traced:
        w.emit("create", entity=repr(step.entity), name=f"{new}['name']")


def vector_create(m, step: CreateStep, rows) -> None:
    """create: for many games: the fields' values first (as lower_create), then the new instances."""
    m.create(step, rows, [(field, m.value(formula, rows)) for field, formula in step.fields])


CREATE = StepKind(
    "create", CreateStep, ("create", "name", "fields", "as"),
    "makes a new instance of a group during play, named by name: (else the group's names:), its fields "
    "as the group's, then fields:; as: binds it",
    'create: character\nname: "{who}"\nfields: {side: "\'night\'"}\nas: c',
    check_create, lower_create, vector=vector_create,
    binds=lambda s: [(s.var, None)] if s.var else [], formulas=lambda s: [formula for _, formula in s.fields],
    makes=lambda s: [s.entity],
    helpers={"_create_instance": create_instance},
    schema={
        "create": {"$ref": "#/$defs/name"},
        "name": {"$ref": "#/$defs/text"},
        "fields": {"type": "object", "additionalProperties": {"$ref": "#/$defs/formula"}},
        "as": {"$ref": "#/$defs/name"},
    },
    declares=("as",))
