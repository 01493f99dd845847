"""The step that settles who goes first among a group: roll_off. Each instance rolls the same
formula (bound to a local while it rolls); the highest roll wins; the instances tied on the highest
roll again among themselves, until one is left. The winner is bound to a local, an instance."""

from __future__ import annotations

from ruleset_engine.i18n import N_, _

from dataclasses import dataclass

from ruleset_engine.dice.kinds import ANY
from ruleset_engine.dice.named import first_roll

from ..model import Formula, Step
from ..yamlio import position_of
from .kind import StepFailed, StepKind

MAX_ROUNDS = 100     # roll-offs among the tied before the step gives up (a tie that many times is a broken roll)


@dataclass(slots=True, repr=False, eq=False)
class RollOffStep(Step):
    """A checked `roll_off:` step."""

    group: str           # the group whose instances roll
    each: str            # the local naming the instance that rolls, inside `rolls`
    rolls: Formula       # what each rolls: a number (a pool counts its total)
    var: str             # the local the winner is bound to


def check_roll_off(c, item, path, scope):
    p = tuple(path)
    group = item["roll_off"]
    spec = c.entities.get(group)
    known = spec is not None and spec["group"]
    if not known:
        why = _("there is no entity {group!r}{hint}").format(group=group, hint=c.suggest(group, c.entities)) \
            if spec is None else \
            _("{group!r} is one entity; roll_off: is among the instances of a group (an entity with count:)").format(
                group=group)
        c.problem(why, p + ("roll_off",))
    # Bound even after a problem, so the steps after it are not reported for the same mistake.
    instance = ("entity", group) if known else None
    c.bind(scope, item["each"], p + ("each",), "roll_off", instance)
    rolls = c.formula(item["rolls"], p + ("rolls",), scope)
    c.bind(scope, item["as"], p + ("as",), "roll_off", instance)
    if rolls is not None and first_roll(rolls.expr.tree, c.formulas) is None:
        # Without dice a tie would come again at every roll: refused before any game.
        c.problem(_("roll_off: each instance rolls dice, and {text!r} rolls none (ties would never end)").format(
                      text=rolls.text),
                  p + ("rolls",))
        return None
    if rolls is None or not known:
        return None
    return RollOffStep(position_of(c.data, path), path, group, item["each"], rolls, item["as"])


def roll_score(value) -> int:
    """What one instance rolled, as a number: a pool counts its total."""
    from ruleset_engine.dice import Pool

    if type(value) is int:
        return value
    if isinstance(value, Pool):
        return value.total
    if isinstance(value, tuple) and all(isinstance(f, int) and not isinstance(f, bool) for f in value):
        return sum(value)
    from ..templates import format_value

    raise StepFailed(_("roll_off: each roll is a number or dice, not {value!r}").format(value=format_value(value)))


def roll_off_start(group, name: str) -> list:
    if not group:
        raise StepFailed(_("roll_off: {name} has no instances to roll").format(name=name))
    return list(group)


def roll_off_tied(rounds: int) -> None:
    if rounds >= MAX_ROUNDS:
        raise StepFailed(_("roll_off: still tied after {MAX_ROUNDS} roll-offs (a roll that can only "
                           "tie?)").format(MAX_ROUNDS=MAX_ROUNDS))


def lower_roll_off(w, step: RollOffStep) -> None:
    rolling, best, tied, score, rounds = (w.fresh(p) for p in ("_ro", "_rb", "_rt", "_rs", "_rn"))
    each, winner = w.local(step.each), w.local(step.var)
    w.line(f"{rolling} = _roll_off_start({w.group(step.group)}, {step.group!r})", step)
    w.line(f"{rounds} = 0")
    w.line("while True:")
    with w.indent():
        w.line(f"{best} = None")
        w.line(f"{tied} = []")
        w.line(f"for {each} in {rolling}:")
        with w.indent():
            w.bound(step.each, ANY, entity=step.group)
            if w.traced:
                # Each roll is shown under the name of the instance that rolled it.
                w.line(f"C.trace({w.const(step.each, 'l')})")
                w.line(f"{score} = {w.lower(step.rolls)[0].text}", step.rolls)
                steps = w.fresh("_r")
                w.line(f"{steps} = C.end_trace()")
                w.line(f"C.roll_event({w.const(step.rolls.text, 'f')}, {score}, {step.each!r}, "
                       f"_to_state({each}.get('name')), {steps})", step.rolls)
            else:
                src, lo = w.lower(step.rolls)
                if lo.track:
                    w.line("C.budget = C.limit")
                w.line(f"{score} = {src.text}", step.rolls)
            w.line(f"{score} = _roll_score({score})", step)
            w.line(f"if {best} is None or {score} > {best}:")
            w.line(f"    {best} = {score}")
            w.line(f"    {tied} = [{each}]")
            w.line(f"elif {score} == {best}:")
            w.line(f"    {tied}.append({each})")
        w.line(f"if len({tied}) == 1:")
        w.line("    break")
        w.line(f"{rounds} += 1")
        w.line(f"_roll_off_tied({rounds})", step)
        w.line(f"{rolling} = {tied}")
    w.line(f"{winner} = {tied}[0]")
    w.bound(step.var, ANY, entity=step.group)
    if w.traced:
        w.emit("roll_off", group=repr(step.group), winner=f"{winner}.get('name')", rounds=f"{rounds} + 1")


ROLL_OFF = StepKind(
    "roll_off", RollOffStep, ("roll_off", "each", "rolls", "as"),
    "each instance of a group rolls; the highest roll wins, the tied roll again among themselves; as: binds "
    "the winner",
    'roll_off: player\neach: p\nrolls: "1d10 + p.wits"\nas: first', check_roll_off, lower_roll_off,
    helpers={"_roll_score": roll_score, "_roll_off_start": roll_off_start, "_roll_off_tied": roll_off_tied},
    binds=lambda s: [(s.var, None), (s.each, None)], formulas=lambda s: [s.rolls],
    no_vector=N_("the roll-off re-rolls among the tied instances of each game, one game at a time"),
    schema={
        "roll_off": {"$ref": "#/$defs/name"},
        "each": {"$ref": "#/$defs/name"},
        "rolls": {"$ref": "#/$defs/formula"},
        "as": {"$ref": "#/$defs/name"},
    },
    required=("each", "rolls", "as"),
    declares=("as",))
