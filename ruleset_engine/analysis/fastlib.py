"""The helpers of compiled simulations (see compiled.py): the dice language over plain tuples of faces.

Each helper does what the evaluator in ruleset_engine.dice does, drawing the same dice in
the same order, but keeps no trace and no Die objects. Anything unusual (a limit passed, a
value of the wrong kind, an empty pool without a default) raises Fallback: the simulation
then plays that game again with the interpreter, which gives the located, worded error.
"""

from __future__ import annotations

import operator

MAX_POOL = 1_000
MAX_DRAWS = 100_000

OPS = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq,
       "!=": operator.ne}


class Fallback(Exception):
    """This game leaves the compiled path: the interpreter plays it instead."""


def fail(*_):
    raise Fallback()


# ---- kinds ---------------------------------------------------------------------------

def num(x):
    kind = type(x)
    if kind is int:
        return x
    if isinstance(x, (tuple, list)):   # a pool in arithmetic means its sum
        return sum(x)
    raise Fallback()


def pool(x):
    kind = type(x)
    if kind is tuple:
        return x
    if isinstance(x, list) and all(type(f) is int for f in x):
        return tuple(x)
    raise Fallback()


def truth(x):
    kind = type(x)
    if kind is bool:
        return x
    if kind is int:
        return x != 0
    raise Fallback()


def compare(op, a, b):
    if type(a) is int and type(b) is int:
        return OPS[op](a, b)
    if type(a) is not type(b) or isinstance(a, (list, tuple)) or (op not in ("==", "!=")):
        raise Fallback()
    return OPS[op](a, b)


def fdiv(a, b):
    if b == 0:
        raise Fallback()
    return a // b


def item(x):
    """An item of a pool literal: a number is one fixed die, a pool joins in."""
    if type(x) is int:
        return (x,)
    return pool(x)


# ---- dice ----------------------------------------------------------------------------

def times(n):
    """range(n) for a number of dice that is one (0..1000)."""
    if type(n) is not int or n < 0 or n > MAX_POOL:
        raise Fallback()
    return range(n)


def roll(randint, n, s):
    if type(n) is not int or type(s) is not int or n < 0 or n > MAX_POOL or s < 1:
        raise Fallback()
    return tuple([randint(1, s) for _ in range(n)])


def dice(randint, n, s, mods):
    """NdS with modifiers: (kept faces, faces left out)."""
    return modified(randint, roll(randint, n, s), s, mods)


def _covers(op, v, low, high):
    return {">=": low >= v, ">": low > v, "<=": high <= v, "<": high < v, "==": low == high == v,
            "!=": v < low or v > high}[op]


def modified(randint, faces, sides, mods):
    """Faces after the modifiers, in order; returns (kept faces, faces left out).

    `sides` is the number of sides of every die (None for a literal's fixed numbers);
    each modifier is ("kh"|"kl"|"dh"|"dl", n), ("r"|"rr", op, value) or ("!", op, value)
    with op None for the highest face."""
    shown = list(faces)
    active = list(range(len(shown)))
    dropped: list[int] = []
    draws = 0
    for mod in mods:
        kind = mod[0]
        if kind in ("kh", "kl", "dh", "dl"):
            n = mod[1]
            if type(n) is not int or n < 0:
                raise Fallback()
            order = sorted(active, key=lambda i: shown[i], reverse=kind in ("kh", "dh"))
            chosen = order[:n] if kind in ("kh", "kl") else order[n:]
            if len(chosen) != len(active):
                keep = set(chosen)
                dropped.extend(i for i in active if i not in keep)
                active = [i for i in active if i in keep]
        elif kind in ("r", "rr"):
            op, value = mod[1], mod[2]
            if sides is None or type(value) is not int:
                raise Fallback()
            if kind == "rr" and _covers(op, value, 1, sides):
                raise Fallback()
            test = OPS[op]
            for i in active:
                face = shown[i]
                while test(face, value):
                    draws += 1
                    if draws > MAX_DRAWS:
                        raise Fallback()
                    face = randint(1, sides)
                    if kind == "r":
                        break
                shown[i] = face
        else:  # explode
            op, value = mod[1], mod[2]
            if sides is None:
                raise Fallback()
            if op is None:
                if sides == 1:
                    raise Fallback()
            elif type(value) is not int or _covers(op, value, 1, sides):
                raise Fallback()
            test = OPS[op] if op is not None else None
            queue = list(active)
            for i in queue:
                face = shown[i]
                if (face == sides) if test is None else test(face, value):
                    draws += 1
                    if draws > MAX_DRAWS:
                        raise Fallback()
                    shown.append(randint(1, sides))
                    queue.append(len(shown) - 1)
                    active.append(len(shown) - 1)
    return tuple([shown[i] for i in active]), tuple([shown[i] for i in dropped])


# ---- pool functions (each with its `_aside` twin where it leaves dice out) -----------

def count(p, op, v):
    if op == "==":
        return p.count(v)
    test = OPS[op]
    return len([f for f in p if test(f, v)])


def highest(p, default=None):
    if p:
        return max(p)
    if default is None:
        raise Fallback()
    return default


def lowest(p, default=None):
    if p:
        return min(p)
    if default is None:
        raise Fallback()
    return default


def _top_flags(p, n, high):
    if type(n) is not int or n < 0:
        raise Fallback()
    order = sorted(range(len(p)), key=lambda i: p[i], reverse=high)
    chosen = set(order[:n])
    return [i in chosen for i in range(len(p))]


def top(p, n, high):
    flags = _top_flags(p, n, high)
    return tuple([f for f, k in zip(p, flags) if k])


def top_aside(p, n, high):
    flags = _top_flags(p, n, high)
    return tuple([f for f, k in zip(p, flags) if not k])


def _largest_face(p, ignore):
    counts: dict = {}
    for f in p:
        if f not in ignore:
            counts[f] = counts.get(f, 0) + 1
    return max(counts, key=lambda f: (counts[f], f)) if counts else None


def largest_set(p, ignore=()):
    best = _largest_face(p, ignore)
    return tuple([f for f in p if f == best]) if best is not None else ()


def largest_set_aside(p, ignore=()):
    best = _largest_face(p, ignore)
    return tuple([f for f in p if f != best]) if best is not None else p


def _unpair_flags(p):
    total: dict = {}
    for f in p:
        total[f] = total.get(f, 0) + 1
    seen: dict = {}
    flags = []
    for f in p:
        seen[f] = seen.get(f, 0) + 1
        flags.append(seen[f] <= total[f] - total[f] // 2)
    return flags


def unpair(p):
    return tuple([f for f, k in zip(p, _unpair_flags(p)) if k])


def unpair_aside(p):
    return tuple([f for f, k in zip(p, _unpair_flags(p)) if not k])


def _cancel_flags(a, b):
    against: dict = {}
    for f in b:
        against[f] = against.get(f, 0) + 1
    flags = []
    for f in a:
        left = against.get(f, 0)
        if left:
            against[f] = left - 1
        flags.append(not left)
    return flags


def cancel(a, b):
    if len(b) == 1:   # the common case: one die cancels the first equal die
        face = b[0]
        if face in a:
            i = a.index(face)
            return a[:i] + a[i + 1:]
        return a
    return tuple([f for f, k in zip(a, _cancel_flags(a, b)) if k])


def cancel_aside(a, b):
    return tuple([f for f, k in zip(a, _cancel_flags(a, b)) if not k])


def keep(p, op, v, matching=True):
    test = OPS[op]
    return tuple([f for f in p if test(f, v) == matching])


def keep_aside(p, op, v, matching=True):
    test = OPS[op]
    return tuple([f for f in p if test(f, v) != matching])


def reroll(evaluate, op, v):
    test = OPS[op]
    for _ in range(MAX_DRAWS):
        value = evaluate()
        if not test(num(value), v):
            return value
    raise Fallback()
