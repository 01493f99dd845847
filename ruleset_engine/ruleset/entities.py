"""The things a ruleset's formulas read and write: its params, its entities (fields and tracks)
and the initial values of fields and state variables. Each is built by a function that takes the
checker (its reporting, formulas and texts) and one YAML item."""

from __future__ import annotations

from ruleset_engine.i18n import _

from ruleset_engine.dice.kinds import BOOL, STR

from . import model
from .marks import MarkRule
from .names import INSTANCE_FIELDS, TRACK_FIELDS, Scope
from .params import param_value_problem


def param(c, name: str, spec) -> model.Param:
    path = ("params", name)
    kind, default = spec["type"], spec["default"]
    lo, hi, choices = spec.get("min"), spec.get("max"), tuple(spec.get("choices") or ())
    param = model.Param(name, kind, default, lo, hi, choices, spec.get("doc"), spec.get("label"), spec.get("names"))
    if param.names is not None:
        group = (c.data.get("entities") or {}).get(param.names)
        if kind != "text":
            c.problem(_("names: is for a text param (the name of an instance), not a param of type "
                        "{kind}").format(kind=kind), path + ("names",))
        elif group is None:
            c.problem(_("names: {names!r} is not a group{hint}").format(
                          names=param.names, hint=c.suggest(param.names, c.data.get('entities') or {})),
                      path + ("names",))
        elif (group or {}).get("count") != 0 or "sheet" not in group:
            # Only then are the instances a game starts with known before it: those of its sheets.
            c.problem(_("names: the group {names!r} must be made from sheets only (count: 0 and a "
                        "sheet:)").format(names=param.names),
                      path + ("names",))
    problem = param_value_problem(param, default)
    if problem:
        c.problem(_("the default of {name!r}: {problem}").format(name=name, problem=problem), path + ("default",))
    if lo is not None and hi is not None and lo > hi:
        c.problem(_("min {lo} is above max {hi}").format(lo=lo, hi=hi), path + ("min",))
    return param


def initial(c, value, path, scope: Scope) -> model.Initial:
    if isinstance(value, dict) and "text" in value:
        return model.Initial(text=c.text(value["text"], tuple(path) + ("text",), scope))
    if isinstance(value, dict) and "value" in value:
        return model.Initial(formula=c.formula(value["value"], tuple(path) + ("value",), scope))
    if isinstance(value, list):
        return model.Initial(pool=tuple(value))
    return model.Initial(formula=c.formula(value, path, scope))


def entity(c, name: str, spec) -> model.EntitySpec:
    spec = spec or {}
    path = ("entities", name)
    # index and name are given to each instance of a group; a single entity has neither.
    scope = Scope(c.names, {"index": None, "name": None} if "count" in spec else {"name": None})
    fields = {}
    for field_name, value in (spec.get("fields") or {}).items():
        if field_name in INSTANCE_FIELDS:
            c.problem(_("{field_name!r} is given to every instance; choose another field name").format(
                          field_name=field_name),
                         path + ("fields", field_name), at_key=True)
        fields[field_name] = initial(c, value, path + ("fields", field_name), scope)
    tracks = {}
    for track_name, track in (spec.get("tracks") or {}).items():
        boxes, where = track["boxes"], path + ("tracks", track_name)
        size = None
        if isinstance(boxes, str):     # a formula: how many boxes, read as each instance is made
            size = c.formula(boxes, where + ("boxes",), scope)
            if size is not None and size.expr.kind in (STR, BOOL):
                c.problem(_("boxes: {boxes} gives {value}: write how many boxes (a number), or their "
                            "labels as a list").format(
                              boxes=boxes, value=_("a text") if size.expr.kind == STR else _("true/false")),
                          where + ("boxes",))
            labels = ()
        else:
            labels = tuple(range(1, boxes + 1)) if isinstance(boxes, int) else tuple(boxes)
        tracks[track_name] = model.TrackSpec(track_name, labels, mark_rule(c, track, where), size)
    count = c.formula(spec.get("count"), path + ("count",), Scope(c.names)) if "count" in spec else None
    names = c.text(spec.get("names"), path + ("names",), scope) if "names" in spec else None
    if "max" in spec and "count" not in spec:
        c.problem(_("max: bounds a group: give it count: (0 for a group whose instances create: makes)"),
                  path + ("max",), at_key=True)
    sheet = None
    if "sheet" in spec:
        from .sheets import template

        sheet = template(c, name, spec["sheet"], path + ("sheet",))
    acts = None
    if "acts" in spec:
        acts = acts_guard(c, name, spec, path + ("acts",))
    return model.EntitySpec(name, fields, tracks, count, names, spec.get("label"), spec.get("doc"), spec.get("max"),
                            sheet, acts)


def acts_guard(c, name: str, spec, path) -> dict | None:
    """A group's acts: (who may act): its test and its refusal, checked once here over an instance bound
    by its as: name. Each action with an entity parameter of the group asks it first (flow.guard_steps).
    None when it has a problem (said here, once)."""
    acts = spec["acts"]
    if "count" not in spec:
        c.problem(_("acts: says which instances of a group may act: give the entity count:"), path, at_key=True)
        return None
    before = len(c.problems)
    scope = Scope(c.names)
    c.bind(scope, acts["as"], path + ("as",), "acts: as", ("entity", name))
    c.formula(acts["when"], path + ("when",), scope)
    c.text(acts["refused"], path + ("refused",), scope)
    if len(c.problems) != before:
        return None
    c.guards[name] = dict(acts)
    return c.guards[name]


def mark_rule(c, track, path) -> MarkRule | None:
    """The types of mark a track takes (weakest first, each with the symbol the table shows), and its
    rule; None for a track whose boxes are only marked or not."""
    if "marks" not in track:
        for key in ("order", "full"):
            if key in track:
                c.problem(_("{key}: is the rule of marks of a type: declare them first with marks:").format(key=key), path + (key,),
                          at_key=True)
        return None
    types, symbols = tuple(track["marks"]), tuple(track["marks"].values())
    for name in types:
        if name in TRACK_FIELDS or name == "marks":
            c.problem(_("{name!r} is what every track has; choose another name for this type of mark").format(
                          name=name),
                      path + ("marks", name), at_key=True)
    # Two types may share a symbol (a paper sheet that draws two kinds of mark alike): the table
    # follows the boxes with each type's count in words, so it never leans on the symbol (nor colour) alone.
    del symbols
    return MarkRule.of(track)
