"""Which constructs of the dice language have a vector form (dice/vector.py), found without numpy.

`dusk simulate --backend auto` asks this before any game, in the process that shares the games
among its workers: that process never plays, so it never loads numpy (nor waits for it).
"""

from __future__ import annotations

from . import ast
from .functions import FUNCTIONS
from .modifiers import MODIFIERS

# A dice node's modifiers by their syntax-tree class and fields: the registry token they name.
TOKENS = {
    ast.Select: lambda m: m.kind,
    ast.RerollDice: lambda m: "rr" if m.repeat else "r",
    ast.Explode: lambda m: "!o" if m.once else "!",
    ast.SetFaces: lambda m: m.kind,
}

MAX_FACE = 32_767      # the largest face a pool of the lockstep backend holds (vector.py: int16)
MIN_FACE = 1           # the lowest (0 marks an empty slot there)

_PLAYED = (ast.Integer, ast.String, ast.Boolean, ast.Name, ast.Unary, ast.Arithmetic, ast.Compare, ast.AllOf,
           ast.AnyOf, ast.Not, ast.Conditional, ast.Call, ast.Dice, ast.PoolLiteral, ast.Aliased, ast.Rolled,
           ast.Condition, ast.Keyword, ast.KindName, *TOKENS)


def unsupported(tree, formulas=()) -> tuple[str, tuple] | None:
    """The first construct of a tree that has no vector form: (what it is, its span), or None."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if node.function in formulas:
                return f"the named formula {node.function}(..)", node.span
            entry = FUNCTIONS.get(node.function)
            if entry is None:
                return f"{node.function}(..), a function the game gives", node.span
            form = entry.form_for(len(node.args))
            if form is None or form.vector is None:
                why = form.no_vector if form is not None and form.no_vector else "no vector form"
                return f"{form.signature if form else node.function} ({why})", node.span
            if node.function == "count" and node.keywords:
                return f"count(.., kind=K) ({form.no_vector})", node.span
        elif isinstance(node, ast.Dice):
            if isinstance(node.sides, ast.Integer) and node.sides.value > MAX_FACE:
                return f"dice of more than {MAX_FACE:,} sides (its pools hold faces {MIN_FACE:,}..{MAX_FACE:,})", \
                    node.sides.span
            for modifier in node.modifiers:
                entry = MODIFIERS[TOKENS[type(modifier)](modifier)]
                if entry.vector is None:
                    return f"the modifier {entry.syntax} (no vector form)", modifier.span
                if isinstance(modifier, ast.SetFaces) and _face_outside(modifier.value, modifier.kind):
                    return f"the modifier {entry.syntax} giving dice a face its pools cannot hold (faces " \
                           f"{MIN_FACE:,}..{MAX_FACE:,})", modifier.span
        elif isinstance(node, ast.PoolLiteral) and node.modifiers:
            return "modifiers after [..] (no vector form)", node.span
        elif isinstance(node, ast.PoolLiteral):
            for item in node.items:
                if _face_outside(item):
                    return f"a pool holding a number outside {MIN_FACE:,}..{MAX_FACE:,} (the faces its pools hold)", \
                        item.span
        elif isinstance(node, ast.Member):
            return "a field of a record (no vector form)", node.span
        elif not isinstance(node, _PLAYED):
            return f"{type(node).__name__} (no vector form)", node.span
    return None


def _face_outside(node, kind: str = "") -> bool:
    """A number written in the text that a pool of the lockstep backend cannot hold as a face: in a
    pool, or as the face min sets (above the most) or max sets (below 1); min0 or max99999 change no die."""
    value = node.value if isinstance(node, ast.Integer) else None
    if isinstance(node, ast.Unary) and isinstance(node.operand, ast.Integer):
        value = -node.operand.value if node.op == "-" else node.operand.value
    if value is None:
        return False
    if kind == "min":
        return value > MAX_FACE
    return value < MIN_FACE if kind == "max" else not MIN_FACE <= value <= MAX_FACE
