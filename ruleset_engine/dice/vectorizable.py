"""Which constructs of the dice language have a vector form (dice/vector.py), found without numpy.

`dusk simulate --backend auto` asks this before any game, in the process that shares the games
among its workers: that process never plays, so it never loads numpy (nor waits for it).
"""

from __future__ import annotations

from ruleset_engine import i18n

from . import ast
from .functions import FUNCTIONS
from .modifiers import MODIFIERS

MAX_FACE = 32_767      # the largest face a pool of the lockstep backend holds (vector.py: int16)
MIN_FACE = -32_767     # the lowest (one value below it marks an empty slot there: vector.EMPTY)

_PLAYED = (ast.Integer, ast.String, ast.Boolean, ast.Name, ast.Unary, ast.Arithmetic, ast.Compare, ast.AllOf,
           ast.AnyOf, ast.Not, ast.Conditional, ast.Call, ast.Dice, ast.PoolLiteral, ast.Aliased, ast.Rolled,
           ast.Condition, ast.Keyword, ast.KindName, ast.Modifier)


def unsupported(tree, formulas=(), seen: tuple = (), pairs=(), calls=(), kinds=None,
                kinded: bool = False) -> tuple[str, tuple] | None:
    """The first construct of a tree that has no vector form: (what it is, its span), or None. A
    named formula is played through its body (`seen`: the bodies being read, against a cycle);
    `pairs`: the ruleset's records between instances, read as NAME(a, b).FIELD; `calls`: functions
    the caller plays itself (queries over a group), a field of what they give read too; `kinds`: the
    names whose value is known to be a pool or a number in every game (dotted name -> "pool" or
    "number", or "pool or number": bound to a pool in one place and to a number in another), for a
    conditional's sides; `kinded`: some pool may hold dice with kinds (kinds(..) in
    the ruleset), so every function that gives a pool must keep them (its form's vector_kinds)."""
    kinded = kinded or marks_kinds(tree, formulas)
    for node in ast.walk(tree):
        if isinstance(node, ast.Conditional):
            sides = {value_kind(node.then, formulas, kinds), value_kind(node.otherwise, formulas, kinds)}
            if _mixes(sides) and _reads_game(node.test):
                return (i18n._("a conditional giving a pool in some games and a number in others (a value per "
                               "game is one or the other)")), node.span
        elif isinstance(node, ast.Call):
            if node.function in pairs or node.function in calls:
                continue
            if node.function in formulas:
                if node.function in seen:
                    return i18n._("the named formula {function}(..), which calls itself").format(
                               function=node.function), node.span
                found = unsupported(formulas[node.function].tree, formulas, seen + (node.function,), pairs, calls,
                                    kinded=kinded)
                if found is not None:
                    # Said at the call: the body is in another part of the file.
                    return i18n._("{found} in the named formula {function}(..)").format(
                               found=found[0], function=node.function), node.span
                continue
            entry = FUNCTIONS.get(node.function)
            if entry is None:
                return i18n._("{function}(..), a function the game gives").format(function=node.function), node.span
            form = entry.form_for(len(node.args))
            if form is None or form.vector is None:
                why = i18n._(form.no_vector) if form is not None and form.no_vector else i18n._("no vector form")
                return i18n._("{call} ({why})").format(call=form.signature if form else node.function, why=why), \
                    node.span
            if kinded and form.result == "pool" and not form.vector_kinds:
                return (i18n._("{signature} on dice that may have kinds (its vector form does not keep them)").format(
                            signature=form.signature),
                        node.span)
        elif isinstance(node, ast.Dice):
            if isinstance(node.sides, ast.Integer) and node.sides.value > MAX_FACE:
                return i18n._("dice of more than {top} sides (its pools hold faces {low}..{top})").format(
                           top=i18n.number(MAX_FACE), low=i18n.number(MIN_FACE)), \
                    node.sides.span
            for modifier in node.modifiers:
                entry = MODIFIERS[modifier.token]
                if entry.vector is None:
                    return i18n._("the modifier {syntax} (no vector form)").format(syntax=entry.syntax), modifier.span
                if entry.sets_face and _face_outside(modifier.operands[0], entry.sets_face):
                    return i18n._("the modifier {syntax} giving dice a face its pools cannot hold (faces "
                                  "{low}..{top})").format(
                               syntax=entry.syntax, low=i18n.number(MIN_FACE), top=i18n.number(MAX_FACE)), modifier.span
        elif isinstance(node, ast.PoolLiteral):
            for modifier in node.modifiers:
                entry = MODIFIERS[modifier.token]
                if entry.vector is None:
                    return i18n._("the modifier {syntax} (no vector form)").format(syntax=entry.syntax), modifier.span
                if entry.draws and literal_sides(node) is None:
                    return (i18n._("'{token}' after [..] on dice of different sides (each die would need its own; "
                                   "no vector form)").format(token=entry.token)), modifier.span
            for item in node.items:
                if _face_outside(item):
                    return i18n._("a pool holding a number outside {low}..{top} (the faces its pools hold)").format(
                               low=i18n.number(MIN_FACE), top=i18n.number(MAX_FACE)), \
                        item.span
        elif isinstance(node, ast.Member):
            if node.value.function not in pairs and node.value.function not in calls:
                return i18n._("a field of a record (no vector form)"), node.span
        elif not isinstance(node, _PLAYED):
            return i18n._("{name} (no vector form)").format(name=type(node).__name__), node.span
    return None


_NUMBERS = (ast.Integer, ast.Boolean, ast.Unary, ast.Arithmetic, ast.Compare, ast.AllOf, ast.AnyOf, ast.Not)


def value_kind(node, formulas=(), kinds=None, seen: tuple = ()) -> str | None:
    """"pool" or "number" when the syntax says which the node gives in every game (a true/false counts
    as a number), "text" for words, None when the game decides (a name not in `kinds`, a query)."""
    if isinstance(node, _NUMBERS):
        return "number"
    if isinstance(node, (ast.Dice, ast.PoolLiteral, ast.Rolled)) or isinstance(node, ast.Aliased) and node.body is None:
        return "pool"
    if isinstance(node, ast.Aliased):
        return value_kind(node.body, formulas, kinds, seen)
    if isinstance(node, ast.String):
        return "text"
    if isinstance(node, ast.Name):
        return (kinds or {}).get(".".join(node.path))
    if isinstance(node, ast.Conditional):
        then = value_kind(node.then, formulas, kinds, seen)
        return then if then == value_kind(node.otherwise, formulas, kinds, seen) else None
    if isinstance(node, ast.Call):
        if node.function in formulas:
            if node.function in seen:
                return None
            # Its body reads its parameters, not the caller's names.
            return value_kind(formulas[node.function].tree, formulas, None, seen + (node.function,))
        entry = FUNCTIONS.get(node.function)
        form = entry.form_for(len(node.args)) if entry is not None else None
        if form is not None:
            return {"pool": "pool", "number": "number", "string": "text"}.get(form.result)
    return None


MIXED = "pool or number"     # a name bound to a pool in one place of the ruleset and to a number in another


def _mixes(sides: set) -> bool:
    """Whether a conditional with sides of these kinds may give a pool in some games and a number in
    others: a pool and a number, or a side that is either and another that is one of them."""
    return sides == {"pool", "number"} or MIXED in sides and bool(sides & {"pool", "number", MIXED})


def _reads_game(node) -> bool:
    """Whether a test may differ from game to game (it reads a name other than a param, or rolls):
    a test every game shares takes one side for all of them."""
    return any(isinstance(n, ast.Dice) or isinstance(n, ast.Name) and n.path[0] != "params"
               or isinstance(n, ast.Call) for n in ast.walk(node))


def marks_kinds(tree, formulas=(), seen: tuple = ()) -> bool:
    """Whether the tree (or a named formula it calls) gives dice kinds (kinds(..))."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if node.function == "kinds":
                return True
            if node.function in formulas and node.function not in seen and \
                    marks_kinds(formulas[node.function].tree, formulas, seen + (node.function,)):
                return True
    return False


def literal_sides(node) -> int | None:
    """The sides of every die of a bracketed pool, when they are all NdS of one written size (what
    a re-roll or an explosion after the brackets needs in lockstep); None otherwise."""
    sides: set = set()
    items = list(node.items)
    while items:
        item = items.pop()
        if isinstance(item, ast.PoolLiteral) and not item.modifiers:
            items.extend(item.items)
        elif isinstance(item, ast.Dice) and isinstance(item.sides, ast.Integer):
            sides.add(item.sides.value)
        elif isinstance(item, ast.Call) and item.function == "kinds" and item.args:
            items.append(item.args[0])          # the same dice, marked with kinds
        else:
            return None
    return sides.pop() if len(sides) == 1 else None


def _face_outside(node, sets_face: str = "") -> bool:
    """A number written in the text that a pool of the lockstep backend cannot hold as a face: in a
    pool, or as the face a modifier sets (its entry's sets_face): "at least" one above the most (min),
    "at most" one below the lowest (max); max99999 changes no die."""
    value = node.value if isinstance(node, ast.Integer) else None
    if isinstance(node, ast.Unary) and isinstance(node.operand, ast.Integer):
        value = -node.operand.value if node.op == "-" else node.operand.value
    if value is None:
        return False
    if sets_face == "at least":
        return value > MAX_FACE
    return value < MIN_FACE if sets_face == "at most" else not MIN_FACE <= value <= MAX_FACE
