"""The step that writes a record between two instances: pair (the records are declared under
`pairs:`, see ruleset/pairs.py, and read in formulas as NAME(a, b).FIELD)."""

from __future__ import annotations

from ruleset_engine.i18n import _

from dataclasses import dataclass

from ruleset_engine.dice.kinds import ANY, POOL

from ..model import Formula, Step
from ..pairs import pair_key, pair_read, pair_record, pair_shown
from ..yamlio import position_of
from .kind import StepKind


@dataclass(slots=True, repr=False, eq=False)
class PairStep(Step):
    """A checked `pair:` step."""

    pair: str
    between: tuple[Formula, Formula]
    fields: list[tuple[str, Formula]]


def check_pair(c, item, path, scope):
    p = tuple(path)
    name = item["pair"]
    spec = c.names.pairs.get(name)
    if spec is None:
        c.problem(_("there is no pair {name!r}{hint} (declare it under pairs:)").format(
                      name=name, hint=c.suggest(name, c.names.pairs)),
                  p + ("pair",))
        return None
    ends = [c.formula(value, p + ("of", i), scope) for i, value in enumerate(item["of"])]
    fields = []
    for field, value in item["fields"].items():
        if field not in spec["fields"]:
            known = ", ".join(spec["fields"]) or "none"
            c.problem(_("the records of {name!r} have no field {field!r}{hint} (fields: {known})").format(
                          name=name, field=field, hint=c.suggest(field, spec['fields']), known=known),
                      p + ("fields", field), at_key=True)
            continue
        formula = c.formula(value, p + ("fields", field), scope)
        if formula is not None:
            fields.append((field, formula))
    if None in ends or len(fields) != len(item["fields"]):
        return None
    return PairStep(position_of(c.data, path), path, name, (ends[0], ends[1]), fields)


def lower_pair(w, step: PairStep) -> None:
    p = w.program
    spec = p.ruleset.pairs[step.pair]
    group = w.group(spec.between)
    a, _ = w.value(step.between[0])
    b, _ = w.value(step.between[1])
    key, record = w.fresh("_pk"), w.fresh("_pr")
    w.line(f"{key} = _pair_key({group}, {a}, {b}, {spec.ordered}, {step.pair!r})")
    values = [(field, w.value(formula)) for field, formula in step.fields]
    # Every value is computed before the record changes: a field that fails leaves it as it was.
    w.line(f"{record} = _pair_record({p.pair_store(step.pair)}, {key}, {w.const(spec.fields, 'pd')})")
    for field, (value, kind) in values:
        if w.traced:
            stored = w.fresh("_w")
            w.line(f"{stored} = _to_state({value})")
            w.line(f"{record}[{field!r}] = {stored}")
            w.emit("set", target=f"_pair_shown({group}, {key}, {step.pair!r}, {field!r})", value=stored)
        else:
            plain = f"_u_plain({value})" if p.aside and kind in (POOL, ANY) else value
            w.line(f"{record}[{field!r}] = {plain}")


def vector_pair(m, step: PairStep, rows) -> None:
    """pair: for many games: the two instances and every value first (as lower_pair), then the records."""
    a, b = m.value(step.between[0], rows), m.value(step.between[1], rows)
    values = [(field, m.value(formula, rows)) for field, formula in step.fields]
    m.site = step
    m.pair_write(step.pair, a, b, values, rows)


PAIR = StepKind(
    "pair", PairStep, ("pair", "of", "fields"),
    "writes fields of the record between two instances (declared under pairs:, read as NAME(a, b).FIELD)",
    'pair: bond\nof: [p, q]\nfields: {kind: "\'rival\'", text: words}',
    check_pair, lower_pair, vector=vector_pair,
    formulas=lambda s: [*s.between, *(formula for _, formula in s.fields)],
    helpers={"_pair_key": pair_key, "_pair_read": pair_read, "_pair_record": pair_record,
             "_pair_shown": pair_shown},
    schema={
        "pair": {"$ref": "#/$defs/name"},
        "of": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"$ref": "#/$defs/formula"}},
        "fields": {"type": "object", "minProperties": 1, "additionalProperties": {"$ref": "#/$defs/formula"}},
    },
    required=("of", "fields"))
