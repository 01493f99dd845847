"""Records between two instances of a group: a ruleset's `pairs:`.

A pair declares the group it joins, whether NAME(a, b) and NAME(b, a) are one record or two, and
its fields with their defaults. Formulas read a record as `NAME(a, b).FIELD` (a call the ruleset
gives, through the lowering's `calls`); the `pair:` step writes one. This module builds the
declaration, checks the calls a formula makes, and holds the one store both run modes keep: a
mapping from "i,j" (the two instances' indices) to the fields of the records written so far. A
record never written reads its defaults.
"""

from __future__ import annotations

from ruleset_engine.i18n import N_, _

from ruleset_engine import dice
from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.dice.functions import FUNCTIONS
from ruleset_engine.dice.kinds import describe

from . import model
from .instance_names import instance_named, no_instance_named
from .names import suggest


# ---- the declaration ---------------------------------------------------------------------------


def pair(c, name: str, spec) -> model.PairSpec | None:
    path = ("pairs", name)
    group = spec["between"]
    if group not in c.entities:
        c.problem(_("there is no entity {group!r}{hint}").format(group=group, hint=suggest(group, c.entities)),
                  path + ("between",))
    elif not c.entities[group]["group"]:
        c.problem(_("{group!r} is one entity; a pair joins two instances of a group (an entity with "
                    "count:)").format(group=group),
                  path + ("between",))
    for clash, what in ((FUNCTIONS, N_("a function of the dice language")), (c.tables, N_("a table"))):
        if name in clash:
            c.problem(_("the pair {name!r} has the name of {what}; choose another").format(name=name, what=_(what)),
                      path, at_key=True)
    fields = {}
    for field_name, value in (spec.get("fields") or {}).items():
        found = default(c, value, path + ("fields", field_name))
        if found is not None:
            fields[field_name] = found[0]
    return model.PairSpec(name, group, bool(spec.get("ordered", False)), fields, spec.get("label"), spec.get("doc"))


def default(c, value, path) -> tuple | None:
    """A field's default, (value,): a constant, so that every record not yet written reads the same."""
    if isinstance(value, dict) and "text" in value:
        template = c.text(value["text"], tuple(path) + ("text",), None)
        if template is None:
            return None
        if not template.is_constant:
            c.problem(_("a pair's default is the same for every pair: a text without placeholders"),
                      tuple(path) + ("text",))
            return None
        texts = {lang: "".join(parts) for lang, parts in template.parts.items()}
        # One language: a plain string, as a text answer is kept; several: each language's.
        return (next(iter(texts.values())) if len(texts) == 1 else texts,)
    if isinstance(value, dict) and "value" in value:
        value, path = value["value"], tuple(path) + ("value",)
    if isinstance(value, list):
        c.problem(_("a pair's fields hold numbers, true/false or texts, not pools"), path)
        return None
    formula = c.formula(value, path, None)
    if formula is None:
        return None
    if not formula.expr.is_constant or formula.expr.kind not in ("number", "true/false", "string"):
        c.problem(_("a pair's default is the same for every pair: a number, true/false or a quoted text"),
                  path)
        return None
    return (formula.expr.plain(),)


# ---- calls in formulas -------------------------------------------------------------------------


def call_problems(pairs: dict, tree) -> list[tuple[str, tuple]]:
    """(message, span) for each misuse of a pair in a formula: the wrong number of arguments, a
    keyword, or a field the pair does not have. `pairs`: name -> {"between": group, "fields": [...]}."""
    found = []
    members = {id(n.value): n for n in dice_ast.walk(tree) if isinstance(n, dice_ast.Member)}
    for node in dice_ast.walk(tree):
        if not isinstance(node, dice_ast.Call) or node.function not in pairs:
            continue
        spec = pairs[node.function]
        if len(node.args) != 2 or node.keywords or any(isinstance(a, dice_ast.Condition) for a in node.args):
            found.append((_("{pair}(..) takes two instances of {group!r}: {pair}(a, b)").format(
                pair=node.function, group=spec["between"]), node.span))
        member = members.get(id(node))
        if member is not None:
            field = member.path[0]
            if field not in spec["fields"]:
                known = ", ".join(spec["fields"]) or _("none")
                found.append((_("the records of {pair!r} have no field {field!r}{hint} (fields: {known})").format(
                    pair=node.function, field=field, hint=suggest(field, spec["fields"]), known=known), member.span))
            elif len(member.path) > 1:
                found.append((_("{pair}(..).{field} is a value, with no field {name!r}").format(
                    pair=node.function, field=field, name=member.path[1]), member.span))
    return found


# ---- the store, in both modes --------------------------------------------------------------------


class PairFailed(dice.DiceValueError):
    """A pair read or written with arguments that are not two instances of its group."""


def _index(group: list, x, name: str, span) -> int:
    """The index of an instance of the group (given as the instance or its name)."""
    if isinstance(x, str):
        found = instance_named(group, x)
        if found is None:
            raise PairFailed(no_instance_named(x, f"{name}(..)"), span=span)
        return found["index"]
    i = x.get("index") if isinstance(x, dict) else None
    if type(i) is int and 0 < i <= len(group) and (group[i - 1] is x or group[i - 1] == x):
        return i
    what = _("{name!r}, which is not one of them").format(name=x["name"]) if isinstance(x, dict) and "name" in x \
        else describe(x)
    raise PairFailed(_("{name}(..) joins two instances of its group, not {what}").format(name=name, what=what),
                     span=span)


def pair_key(group: list, a, b, ordered: bool, name: str, span=None) -> str:
    """The key of the record between a and b: "i,j", the smaller index first unless `ordered`."""
    i, j = _index(group, a, name, span), _index(group, b, name, span)
    if i == j:
        raise PairFailed(_("{name}(..) joins two different instances, not {name2!r} with itself").format(
                             name=name, name2=group[i - 1]['name']),
                         span=span)
    if not ordered and i > j:
        i, j = j, i
    return f"{i},{j}"


def pair_read(store: dict, group: list, a, b, ordered: bool, name: str, defaults: dict, field, span, convert):
    """A record's field (a copy of the whole record when `field` is None), its defaults until written."""
    record = store.get(pair_key(group, a, b, ordered, name, span), defaults)
    return convert(record[field]) if field is not None else dict(record)


def pair_record(store: dict, key: str, defaults: dict) -> dict:
    """The record to write at key, made from the defaults the first time."""
    record = store.get(key)
    if record is None:
        record = store[key] = dict(defaults)
    return record


def pair_shown(group: list, key: str, name: str, field: str) -> str:
    """How a write reads in the log: bond(Ana, Beto).kind."""
    i, j = (int(k) for k in key.split(","))
    return f"{name}({group[i - 1]['name']}, {group[j - 1]['name']}).{field}"


def listed(store: dict, group: list) -> list[tuple[str, str, dict]]:
    """The records written so far, (first name, second name, fields), in the order of the indices."""
    rows = []
    for key in sorted(store, key=lambda k: tuple(int(n) for n in k.split(","))):
        i, j = (int(k) for k in key.split(","))
        rows.append((group[i - 1]["name"], group[j - 1]["name"], store[key]))
    return rows
