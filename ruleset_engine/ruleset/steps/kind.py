"""What a step kind's registry entry is.

A step kind carries everything about itself: the keys it takes, its documentation line and an
example, its load-time check (YAML -> a typed step, every problem reported with its place), and
its lowering (the typed step -> Python source, through the program writer, in the traced or
untraced mode), with the helpers that source calls. The checker, the program writer, the docs
table and the REPL's help read these entries; nothing else lists the step kinds.

The vector form (optional, read only by the lockstep backend of `dusk simulate`, runtime/lockstep.py)
runs the step for many games at once: vector(m, step, rows) with `m` the lockstep machine (its
value/truth/number of a formula for the rows, assign, bind, block, call, end_game) and `rows` the
games that reach the step. `vector_refuses(step)` gives the reason a step of the kind cannot run
that way (an `end:` of a loop level, say), or None; `no_vector` says why a kind has no vector form.

`schema` and `required` say what the JSON Schema allows of each key the kind takes; the schema file's
step definitions are written from them (ruleset/step_schema.py).

The data-flow facts (read by the program writer, the at-once end conditions and the lockstep
check, through ruleset/walk.py) say what one step does with names, without running it; the
blocks inside a step (`nested`) are walked for their own facts:

    writes(step)   -> the places it writes, each a path (("guard", "life"),); None: it may write
                      anything (the default, so a new kind is safe before it says)
    binds(step)    -> [(local, formula or None)]: the locals it binds, with the formula whose value
                      each takes (None: an answer, a row, an instance); a set: of a one-part place names it too
    formulas(step) -> every formula it evaluates (not the texts it shows)
    calls(step)    -> [(procedure, [(parameter, formula)], local bound to the result or None)]
    returns(step)  -> the formulas whose value it gives back to the caller (return:)
    texts(step)    -> [(place, template)]: the texts it keeps in places (note:), which formulas may read
    shows(step)    -> the texts it only shows (say:, a roll's label): a simulation renders none of them
    makes(step)    -> the groups it makes instances of (create:)
    answers(step)  -> the locals it binds to a person's answer (ask:'s as:), which dusk check
                      --playouts reports when nothing reads them
    drops(step)    -> the locals its vector form keeps no value of when nothing a simulation plays
                      reads them (let:, roll:, a set: of a one-word place, for_each's name; read by
                      runtime/vectorizable.unread_locals); a place written through a local reads it
    assigns(step, block) -> the locals it surely sets once it has run through, `block(steps)` saying
                      it of a block inside; None (the default): what it binds and the one-word places
                      it writes (ruleset/assigned.py: a read of a local some way does not set is refused)

`declares` names the keys of the step as written that name the locals it binds for the steps after
it (ask's as:; let:'s keys): a step refused, by the schema or by its check, still binds them, so a
later read of one adds no second problem to the one that says what is wrong (checker.declare_refused).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ruleset_engine.errors import DuskError


class StepFailed(DuskError):
    """A step met a value it cannot work with. Raised by a step's helpers without a place: the
    program that runs the step knows which step it was and reports it there."""


def nothing(step) -> tuple:
    """A fact of a step that has none of it: writes nothing, binds nothing, ..."""
    return ()


def given(*formulas) -> list:
    """The formulas a step has, leaving out the optional ones it was not given."""
    return [f for f in formulas if f is not None]


# Made once per kind, when the registry is imported, and never changed: compared and hashed by identity
# (nothing holds two equal entries), so no __eq__, __hash__, __repr__ or frozen __setattr__ is generated.
@dataclass(eq=False, repr=False)
class StepKind:
    """A step kind's registry entry: its key, its checked node, its check, lowering and documentation."""

    key: str                        # the key that names the kind in YAML: set, if, ask, ...
    node: type                      # the typed step it checks into
    takes: tuple[str, ...]          # every key a step of this kind may have (besides id: and doc:)
    doc: str                        # the documentation line
    example: str                    # a YAML example, as the docs show it
    check: Callable                 # (checker, item, path, scope) -> a typed step, or None after a problem
    lower: Callable                 # (writer, step) -> None: writes the step's Python source
    ends_block: bool = False        # end: and return: stop their block, so a step after them never runs
    nested: tuple[str, ...] = ()    # the fields of the typed step that hold blocks of steps (if:'s then, ...)
    helpers: dict = field(default_factory=dict)   # name -> function, for the lowered source to call
    vector: Callable | None = None  # (machine, step, rows) -> None: the step for many games at once
    vector_refuses: Callable | None = None   # (step) -> why this step cannot run in lockstep, or None
    no_vector: str = ""             # why the kind has no vector form (said when a ruleset needs one)
    # The data-flow facts (above): what a step writes, binds, evaluates, calls, returns, keeps, makes.
    writes: Callable | None = None
    binds: Callable = nothing
    formulas: Callable = nothing
    calls: Callable = nothing
    returns: Callable = nothing
    texts: Callable = nothing
    shows: Callable = nothing
    makes: Callable = nothing
    answers: Callable = nothing
    drops: Callable = nothing
    # Whether the step's values are given back at a point of the game's clock (set: with until:): both
    # loop machines keep a clock for the timers only when some step is timed.
    timed: Callable = lambda step: False
    # The locals the step surely sets once it has run through (ruleset/assigned.py); a kind that holds
    # blocks says how they run: if: one of them, a loop perhaps never.
    assigns: Callable | None = None
    # The JSON Schema of each key in `takes` (its definitions are the schema file's: #/$defs/formula, ...)
    # and the keys a step of the kind must have besides its own: schemas/ruleset.schema.json's step
    # definitions are written from these (ruleset/step_schema.py), so an editor knows a new kind.
    schema: dict = field(default_factory=dict)
    required: tuple[str, ...] = ()
    # The keys as written that name the locals bound for the steps after it: a name, or a map of names.
    declares: tuple[str, ...] = ()
