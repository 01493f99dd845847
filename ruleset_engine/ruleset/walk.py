"""The checked ruleset's own traversal: its top blocks of steps, every step inside them, and its
formulas, so that no reader lists "every block of a ruleset" by hand.

A step's children are the blocks its kind's entry names in `nested`; what a step writes, binds,
evaluates, calls, returns, keeps or makes is its entry's fact (steps/kind.py), read through `kind_of`.

    for block in blocks(ruleset):             # setup, each loop level's begin/steps/finish/then, ...
        for step in steps(block.steps):       # every step, those inside if:/repeat:/for_each: too
            kind_of(step).writes(step)
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleset_engine.dice import Expression

from . import model
from .steps import KINDS, StepKind
from .templates import Template

KIND_OF: dict[type, StepKind] = {kind.node: kind for kind in KINDS.values()}


def kind_of(step) -> StepKind:
    """The registry entry of a step (mark: and clear: share their dataclass and their facts)."""
    return KIND_OF[type(step)]


def children(step) -> list:
    """The blocks of steps inside a step (if:'s then and else, repeat:'s body, ...)."""
    return [getattr(step, name) for name in KIND_OF[type(step)].nested]


def steps(block):
    """Every step of a block, and of the blocks inside its steps (depth first, last step first)."""
    stack = list(block)
    while stack:
        step = stack.pop()
        yield step
        for inner in children(step):
            stack.extend(inner)


def nesting(block) -> int:
    """How deep blocks of steps nest inside these (0: no step holds a block)."""
    return max((1 + nesting(inner) for step in block for inner in children(step)), default=0)


# Read where it is made (a list of them per ruleset), never compared, hashed or changed: nothing generated
# beyond __init__.
@dataclass(eq=False, repr=False)
class Block:
    """A top block of steps: where the ruleset writes it, and the steps."""

    part: str           # setup, begin, steps, finish, then (of a loop level), action, procedure, trigger
    owner: str | None   # the loop level, action or procedure's name; the trigger's id or number
    steps: list

    @property
    def played(self) -> bool:
        """Played by a simulation too: every block but a table action's (the loop action's steps
        are the innermost level's steps:)."""
        return self.part != "action"


def blocks(ruleset: model.Ruleset) -> list[Block]:
    """Every top block of steps, each once, in the order of the file: setup, the loop levels'
    blocks, the actions other than the loop's, the procedures, the triggers."""
    out = [Block("setup", None, ruleset.setup or [])]
    for level in ruleset.loop:
        out += [Block(part, level.name, getattr(level, part)) for part in ("begin", "steps", "finish", "then")]
    out += [Block("action", name, a.steps) for name, a in ruleset.actions.items() if not a.plays_level]
    out += [Block("procedure", name, p.steps) for name, p in ruleset.procedures.items()]
    out += [Block("trigger", t.id or str(i), t.do) for i, t in enumerate(ruleset.triggers)]
    return out


def all_steps(ruleset: model.Ruleset, played_only: bool = False):
    """Every step of the ruleset (of the blocks a simulation plays, when asked)."""
    for block in blocks(ruleset):
        if block.played or not played_only:
            yield from steps(block.steps)


def timed_steps(ruleset: model.Ruleset) -> list:
    """The steps whose values are given back at a point of the clock (their entry's timed fact)."""
    return [step for step in all_steps(ruleset) if kind_of(step).timed(step)]


def step_formulas(ruleset: model.Ruleset, played_only: bool = False):
    """Every formula the ruleset's steps evaluate (not the texts they show), as each kind's entry says."""
    for step in all_steps(ruleset, played_only):
        yield from kind_of(step).formulas(step)


# What the walk of expressions() passes over at once: values that hold no expression (most of what it
# meets: names, numbers, places). A large ruleset's walk meets some 20,000 items, two thirds of them these.
_LEAVES = frozenset({str, int, float, bool, type(None), model.Position})


def expressions(ruleset: model.Ruleset, texts: bool):
    """Every compiled expression of the ruleset: its formulas wherever they are (steps, the loop,
    entities, state, endings, the report, actions' parameters), and (texts) the placeholders of its
    texts. Found by walking its dataclasses, so a new part of the model is walked with no change here."""
    seen = set()
    stack = [ruleset.setup, ruleset.actions, ruleset.procedures, ruleset.triggers, ruleset.end, ruleset.report,
             ruleset.loop, ruleset.entities, ruleset.state, ruleset.status]
    leaves = _LEAVES
    while stack:
        item = stack.pop()
        if type(item) in leaves or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, model.Formula):
            yield item.expr
        elif isinstance(item, Expression):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, Template):
            if texts:
                stack.extend(item.parts.values())
        else:
            fields = _FIELDS.get(type(item))
            if fields is None:
                fields = _FIELDS[type(item)] = tuple(getattr(item, "__dataclass_fields__", ()))
            stack.extend([getattr(item, f) for f in fields])


_FIELDS: dict[type, tuple[str, ...]] = {}     # a dataclass's fields, by its class (none: no dataclass)
