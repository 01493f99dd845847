"""What a saved game's values must be before a game is rebuilt from them: the kinds and the bounds
the ruleset's program was written for.

A session file is edited by hand, or damaged; the program that will run its values assumed their
kinds when it was written (a number where it adds, a pool where it counts dice), so a value of
another kind would fail deep inside a rule, as a bug. Each value is checked here against the kind
the program keeps it as (program.state_kinds, program.field_kinds), every whole number against
the 2^53 limit (a fraction, Infinity or NaN is never a value of a game), every instance against
its group's fields and tracks, and every track's numbers against its marks. The first problem is
named with its place (`character[2].strength is a text, not a number`).
"""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine.dice.kinds import ANY, BOOL, NUM, POOL, STR
from ruleset_engine.dice.runtime import MAX_NUMBER
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.marks import new_track

MAX_POOL = 100_000            # dice in one pool value (docs/limits.md)
MAX_TEXT = 100_000            # characters in one text


class Wrong(Exception):
    """A saved value that the program could not run: the message names its place and why."""


def _number(value) -> bool:
    return type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER


def _text(value) -> bool:
    """A text, or a text in several languages ({"en": ..., "es": ...})."""
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    return isinstance(value, dict) and bool(value) and all(
        isinstance(k, str) and isinstance(v, str) and len(v) <= MAX_TEXT for k, v in value.items())


def _pool(value) -> bool:
    return isinstance(value, list) and len(value) <= MAX_POOL and all(_number(face) for face in value)


CHECKS = {NUM: (_number, i18n.N_("a whole number within ±2^53")),
          BOOL: (lambda v: type(v) is bool, i18n.N_("true/false")), STR: (_text, i18n.N_("a text")),
          POOL: (_pool, i18n.N_("a pool of dice (a list of whole numbers)"))}


def _kind_in_words(value) -> str:
    if value is None:
        return i18n._("empty (null)")
    if isinstance(value, bool):
        return i18n._("true/false")
    if isinstance(value, int):
        return i18n._("the number {value}").format(value=value) if abs(value) <= 10**30 \
            else i18n._("a number past ±2^53")
    if isinstance(value, float):
        return i18n._("{value} (a number with a fraction, or not a number)").format(value=repr(value))
    if isinstance(value, str):
        return i18n._("a text")
    if isinstance(value, list):
        return i18n._("a list")
    if isinstance(value, dict):
        return i18n._("a mapping")
    return type(value).__name__


def value(found, kind: str, where: str) -> None:
    """Wrong unless `found` is a value of `kind` (ANY: a number, true/false, a text or a pool)."""
    if kind == ANY or kind not in CHECKS:
        if type(found) is bool or _number(found) or _text(found) or _pool(found):
            return
        raise Wrong(i18n._("{where} is {kind}, not a value a game keeps (a whole number within ±2^53, "
                           "true/false, a text or a pool of dice)").format(where=where, kind=_kind_in_words(found)))
    check, words = CHECKS[kind]
    if not check(found):
        raise Wrong(i18n._("{where} is {kind}, not {words}").format(where=where, kind=_kind_in_words(found),
                                                                      words=i18n._(words)))


def track(found, spec: model.TrackSpec, where: str) -> None:
    """A track as the game keeps it: its boxes' labels, and numbers (marked, free, next, last, and each
    type's count) that agree with its marks."""
    if not isinstance(found, dict) or not isinstance(found.get("labels"), list):
        raise Wrong(i18n._("{where} is {kind}, not a track (its boxes and marks)").format(
            where=where, kind=_kind_in_words(found)))
    labels = found["labels"]
    if not 1 <= len(labels) <= model.MAX_BOXES or not all(_number(x) or isinstance(x, str) for x in labels):
        raise Wrong(i18n._("{where}.labels holds {boxes} boxes or a label of another kind (1 to "
                           "{most} boxes, each a number or a text)").format(where=where, boxes=len(labels),
                                                                            most=model.MAX_BOXES))
    if spec.labels and labels != list(spec.labels):
        raise Wrong(i18n._("{where}.labels are not the track's boxes").format(where=where))
    if spec.rule is not None:
        marks = found.get("marks")
        if not isinstance(marks, list) or len(marks) > len(labels) or not all(m in spec.rule.types for m in marks):
            raise Wrong(i18n._("{where}.marks is not a list of at most {most} marks of {types}").format(
                where=where, most=len(labels), types=', '.join(spec.rule.types)))
        marked = len(marks)
    else:
        marked = found.get("marked")
        if type(marked) is not int or not 0 <= marked <= len(labels):
            raise Wrong(i18n._("{where}.marked is {kind}, not a number from 0 to {most}").format(
                where=where, kind=_kind_in_words(marked), most=len(labels)))
    expected = new_track(labels, marked)
    if spec.rule is not None:
        expected["marks"] = list(marks)
        for name in spec.rule.types:
            expected[name] = marks.count(name)
    if found != expected:
        wrong = sorted(set(found) ^ set(expected)) or [k for k in expected if found[k] != expected[k]]
        raise Wrong(i18n._("{where}.{name} does not agree with the track's marks").format(where=where, name=wrong[0]))


def instance(found, program, entity: str, spec: model.EntitySpec, where: str, index: int | None) -> None:
    """One instance: its name (and index in a group), each field of its kind, each track."""
    if not isinstance(found, dict):
        raise Wrong(i18n._("{where} is {kind}, not an instance (a mapping of its fields)").format(
            where=where, kind=_kind_in_words(found)))
    keys = {"name", *spec.fields, *spec.tracks} | ({"index"} if index is not None else set())
    missing, extra = sorted(keys - set(found)), sorted(set(found) - keys)
    if missing:
        raise Wrong(i18n._("{where} has no {name}").format(where=where, name=missing[0]))
    if extra:
        raise Wrong(i18n._("{where} holds {name}, which {entity} has not").format(
            where=where, name=repr(str(extra[0])[:40]), entity=entity))
    if index is not None and found["index"] != index:
        raise Wrong(i18n._("{where}.index is {kind}, not {index} (its place in the group)").format(
            where=where, kind=_kind_in_words(found["index"]), index=index))
    value(found["name"], STR, f"{where}.name")
    for name in spec.fields:
        value(found[name], program.field_kinds.get((entity, name), ANY), f"{where}.{name}")
    for name, track_spec in spec.tracks.items():
        track(found[name], track_spec, f"{where}.{name}")


def check(program, values: dict) -> None:
    """Wrong naming the first value of a saved game that `program` could not run. The names the values
    are kept under (the state's, the groups', the pairs', the loop's) are checked by the caller."""
    ruleset = program.ruleset
    for name, held in (values.get("params") or {}).items():
        value(held, ANY, f"params.{name}")
    for name in ruleset.state:
        if name in values:
            value(values[name], program.state_kinds.get(name, ANY), name)
    for entity, spec in ruleset.entities.items():
        if entity not in values:
            continue
        found = values[entity]
        if not spec.is_group:
            instance(found, program, entity, spec, entity, None)
            continue
        if not isinstance(found, list):
            raise Wrong(i18n._("{entity} is {kind}, not a list of instances").format(
                entity=entity, kind=_kind_in_words(found)))
        if len(found) > spec.most:
            raise Wrong(i18n._("{entity} holds {count} instances, more than its {most}").format(
                entity=entity, count=i18n.number(len(found)), most=i18n.number(spec.most)))
        for i, one in enumerate(found):
            instance(one, program, entity, spec, f"{entity}[{i + 1}]", i + 1)
    for name, spec in ruleset.pairs.items():
        store = values.get(name)
        if not isinstance(store, dict):
            continue                   # its shape is the caller's to check
        for key, record in store.items():
            if not isinstance(record, dict):
                continue
            for field, held in record.items():
                default = spec.fields.get(field)       # a record's field keeps the kind of its default
                kind = BOOL if type(default) is bool else NUM if type(default) is int else \
                    STR if isinstance(default, (str, dict)) else ANY
                value(held, kind, f"{name}[{key}].{field}")


def problem(ruleset: model.Ruleset, params: dict, values) -> str | None:
    """What is wrong with the values of a game of `ruleset` saved with `params` (its params resolved),
    in words with its place, or None when the program of the ruleset can run them."""
    from .limits import DEFAULT_RUN_LIMITS
    from .program import program_for

    if not isinstance(values, dict):
        return i18n._("the values are {kind}, not a mapping").format(kind=_kind_in_words(values))
    try:
        check(program_for(ruleset, params, DEFAULT_RUN_LIMITS), values)
    except Wrong as err:
        return str(err)
    return None
