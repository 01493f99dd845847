"""What a registry entry of the dice language is: a function (with its forms), a pool modifier, or
another tool's notation (an alias, rewritten onto the other two).

An entry carries everything about its construct: its signature, its semantics as one primitive
over plain faces, the mark it leaves on the dice it judges or removes, its load-time check and
its documentation line. The lowering (lowering.py) reads the entry's *shape* to wrap the
primitive for each mode: untraced (tuples of faces, for simulations) or traced (every die a Die,
every judgement a TraceStep, for the table). The REPL's completion and help, the docs tables and
the property tests read the same entries.

Shapes of a function form:
    numbers   numbers -> number (min, max: the primitive takes the tuple of values)
    number    one number -> number (abs)
    reduce    pool -> number, over the faces (sum, size)
    extreme   pool -> one face, an empty pool needing default= (highest, lowest)
    count     pool, condition -> how many dice meet it; the counted dice are marked
    filter    pool, condition -> the dice that meet it (keep) or fail it (drop); the rest marked
    select    pool, ... -> the dice but those the primitive sets aside (it gives their indices); those marked
    order     pool -> the same dice sorted by face, stably (descending=true: from the highest)
    aside     pool -> what the operation that made the pool set aside
    kinds     pool, kind=count... -> the same dice, the first ones marked with kinds
    of_kind   pool, kind -> the dice of that kind; the rest marked
    chosen    pool, pool, number -> the chosen dice of the pool re-rolled in place, kinds kept
    repeat    expression, condition -> the expression evaluated again while its total meets it
    plain     numbers and words -> a value: the primitive applied to the arguments' values

The exact form (optional, read only by `dusk prob`): the same rule over icepool. It is called as
exact(x, *arguments, **params, **keywords) with each argument already translated by the exact
translator `x` (ruleset_engine/analysis/exact.py): a number is an int or a distribution, a pool a
multiset of distributions, a condition a test of one face. It returns the translated value, using
`x`'s few helpers (combine, evaluate, transform, ...). An entry without one makes an expression
that uses it fall back to a seeded estimate. A modifier's exact form is exact(x, roll, operand),
with `roll` the dice being built (ExactRoll: each die changed, the pool changed, or exploded).

The vector form (optional, read only by the lockstep backend of `dusk simulate`): the same rule for
many games at once. It is called as vector(v, *arguments, **params, **keywords) with `v` the vector
evaluator (dice/vector.py; `v.np` is numpy, so nothing here imports it): a number is an integer
array (one value per game) or a plain number, a pool a VPool (`faces`: games x slots, v.EMPTY an empty
slot), a condition a test over such faces. It returns the value in the same terms. A modifier's
vector form is vector(v, state, operand), changing `state` (DiceState: faces, sides, dropped) in
place. A ruleset using an entry without one is simulated untraced (the entry's note says why).
A keyword the form names in `lazy` (default=, read by one game only when its pool is empty) reaches
the vector form as a function of a mask over its games, evaluated for those games alone: a default
that would fail (6 // y, y = 0) fails only the games that read it, as at the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable

# The entries are typed dataclasses made once, when the registry is imported, and never changed: each is
# its own construct, compared and hashed by identity (nothing holds two equal entries), so no __eq__,
# __hash__, __repr__ or frozen __setattr__ is generated for them (each costs every start its compiling).

# Argument kinds a form's signature names.
POOL_ARG, NUMBER_ARG, CONDITION_ARG, EXPR_ARG, TRUTH_ARG, WORD_ARG, KIND_ARG = (
    "pool", "number", "condition", "expression", "truth", "word", "kind")
# KIND_ARG is the name of a kind of dice, written bare (`of(p, wild)`, `kind=wild`): a name that some
# kinds(..) of the expression (or of the ruleset) gives, never a value read from the game.


@dataclass(eq=False, repr=False)
class Form:
    """One way to call a function: its positional arguments, keywords, shape and primitive."""

    args: tuple[str, ...]                    # the argument kinds, in order
    shape: str
    primitive: Callable | None = None
    keywords: dict = field(default_factory=dict)   # keyword -> argument kind
    any_keyword: str | None = None           # keywords of any name, each of this argument kind (kinds(..))
    variadic: bool = False                   # the last argument may repeat (min, max)
    mark: str | None = None                  # the fate of the dice judged or removed
    params: dict = field(default_factory=dict)     # fixed extra arguments of the primitive
    result: str = "number"                   # the kind of the value: number, pool or string
    total: bool = False                      # a plain primitive that never raises on arguments of
                                             # the checked kinds (so a text a simulation skips may skip it)
    signature: str = ""                      # as the docs write it: "count(pool, cond)"
    exact: Callable | None = None            # the same rule over icepool (see above), or None
    vector: Callable | None = None           # the same rule over many games at once (numpy; see above)
    no_vector: str = ""                      # why the form has no vector form (said when a ruleset needs one)
    vector_kinds: bool = False               # a pool it gives keeps each die's kind (VPool.kinds): without
                                             # it, a pool with kinds given to it has no vector form
    lazy: tuple = ()                         # keywords read only where needed (default=: for an empty pool);
                                             # the vector form gets lazy(mask) -> their values for those games


@dataclass(eq=False, repr=False)
class Function:
    """A pool function's registry entry: its forms, documentation, check, and each way it runs."""

    name: str
    forms: tuple[Form, ...]
    doc: str                                 # the documentation line
    example: str                             # an example call, as the docs and help show it
    check: Callable | None = None            # (lowering, call, form, args) -> None, may raise before rolling

    def form_for(self, n_args: int) -> Form | None:
        for form in self.forms:
            if len(form.args) == n_args or (form.variadic and n_args >= len(form.args)):
                return form
        return None

    @property
    def arities(self) -> tuple[int, int]:
        low = min(len(f.args) for f in self.forms)
        high = max(99 if f.variadic else len(f.args) for f in self.forms)
        return low, high


# A modifier's operands, by kind (its entry's `operands` is its schema, in order):
#   count               a whole number of dice, 0 or more; 1 when it is left out (kh, kh3, kh(x))
#   cap                 a whole number of dice, 0 or more, always written (the N of !tN)
#   face                any whole number (min2, max(x))
#   condition           a test of one face; a bare value means == (r1, r<3)
#   optional condition  a test of one face written straight after the token (!>=9), or none (!)
# grammar/dice.lark has one rule per schema (the tuple of kinds), and the parser builds one
# ast.Modifier(token, operands, span) from it; every backend reads the operands through operands()
# below, so a new entry of a known schema touches no grammar, no parser and no backend.
COUNT_OP, CAP_OP, FACE_OP, CONDITION_OP, OPTIONAL_CONDITION_OP = (
    "count", "cap", "face", "condition", "optional condition")
NUMBER_OPERANDS = (COUNT_OP, CAP_OP, FACE_OP)
SCHEMAS = ((COUNT_OP,), (FACE_OP,), (CONDITION_OP,), (OPTIONAL_CONDITION_OP,), (CAP_OP, OPTIONAL_CONDITION_OP))


@dataclass(eq=False, repr=False)
class Modifier:
    """A pool modifier: which dice (a rank or a condition) and what happens to them.

    Its forms take the operands in the order of `operands`, each as the backend holds it (a number,
    a test of a face, None for a condition left out): apply(state, *operands, draw, span),
    exact(x, roll, *operands), vector(v, state, *operands); never_ends(sides, *shown), with a
    condition shown as (op, value, text)."""

    token: str                   # as written after the dice: kh, r, !, ...
    syntax: str                  # as the docs write it: khN, r<cond>
    operands: tuple[str, ...]    # its schema: the kinds of its operands, in order (one of SCHEMAS)
    apply: Callable              # (state, *operands, draw, span) -> None, over the faces of a RollState
    doc: str
    example: str
    draws: bool = False          # it may roll more dice (re-rolls, explosions)
    adds_dice: bool = False      # the dice it rolls are added to the pool (explosions), not in place
    most_added: Callable | None = None   # (*operands) -> the most dice one die may add (None: no most)
    keeps_bounds: bool = False   # the pool keeps its number of dice and each die its range of faces
    sets_face: str = ""          # "at least" / "at most": it gives dice the face of its operand
    never_ends: Callable | None = None   # (sides, *shown) -> a message when it could never end
    mark: str | None = None      # the fate of the dice it leaves out
    exact: Callable | None = None   # (x, roll, *operands) -> None: the same rule over icepool (see above)
    vector: Callable | None = None  # (v, state, *operands) -> None: the same rule over many games (see above)


def operands(entry: Modifier, node, number: Callable, condition: Callable) -> tuple:
    """The operands of a modifier node, each translated for one backend by its kind: `number(node,
    kind)` for a count, a cap or a face (an omitted count is the constant 1: number(None, kind)),
    `condition(cond)` for a written condition; None for an optional condition left out."""
    out = []
    for kind, operand in zip(entry.operands, node.operands):
        if kind in NUMBER_OPERANDS:
            out.append(number(operand, kind))
        else:
            out.append(None if operand is None else condition(operand))
    return tuple(out)


def spelled(entry: Modifier, texts) -> str:
    """The modifier written with these operand texts (a condition as `>=9`, or a bare `1` where a bare
    value means ==; None for one left out): how the grammar reads each schema (the property tests
    write every entry through it)."""
    if entry.operands == (CAP_OP, OPTIONAL_CONDITION_OP):
        cap, cond = texts
        return f"{entry.token}{cap}" + (f"({cond})" if cond is not None else "")
    text = texts[0]
    return entry.token + ("" if text is None else text)


@dataclass(eq=False, repr=False)
class Alias:
    """A notation of another tool, written after dice as a modifier is, that dusk reads as its own
    explicit form: `10d10cs>=6` is count(10d10, >= 6). Never a second language: the parser hands it
    to its entry, whose role says what it becomes (aliases.py does the rewriting), and everything
    after the parser sees only dusk's constructs.

    Roles:
        modifier   a dusk modifier: x is !, xo is !o, ro is r
        count      count(pool, cond) over the dice so far: Foundry's cs, Roll20's target number >6
        deduct     after a count, minus count(pool, cond) over the same dice: df, f
        order      sort(pool), sort(pool, descending=true): s, sa, sd
        native     the same spelling as dusk's own modifier, the same meaning (min, max): no rewrite
    """

    token: str               # as written: cs, df, x, >, ...
    tool: str                # the tool that owns the spelling: Foundry VTT or Roll20
    syntax: str              # as the docs write it: cs<cond>
    role: str
    doc: str                 # what it means in dusk, for the docs table and help
    example: str             # a roll written in the tool's notation
    explicit: str            # the same roll in dusk's explicit form (the tests hold the two equal)
    roll20: bool = False     # its comparisons read as Roll20's: > is "at least", < "at most"
    operand: str = "condition"   # "condition", "optional condition" or "none"
    becomes: str | None = None   # modifier role: the token of the dusk modifier it becomes
