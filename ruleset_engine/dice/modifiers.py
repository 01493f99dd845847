"""The pool modifiers (kh, kl, dh, dl, r, rr, !, !o, !t, min, max): one registry entry each, its
primitive beside it.

As in d20, a modifier is *which dice* (a rank, or a condition) and *what happens to them*
(kept, dropped, re-rolled, exploded). Each primitive works on a RollState: the faces shown in
roll order, the sides of each die, which are still in the pool and which were left out. The
traced mode gives the state a history (earlier faces, explosions, the fate of each die left out)
for the trace; the untraced mode leaves it out. Both run these same functions.
"""

from __future__ import annotations

from ruleset_engine import i18n

from .entries import CAP_OP, CONDITION_OP, COUNT_OP, FACE_OP, OPTIONAL_CONDITION_OP, Modifier
from .errors import DiceLimitError, DiceValueError
from .faces import as_face, kind_of



def covers(op: str, value: int, low: int, high: int) -> bool:
    """Whether every whole number in low..high meets `OP value`."""
    if low > high:
        return False
    if op == ">=":
        return low >= value
    if op == ">":
        return low > value
    if op == "<=":
        return high <= value
    if op == "<":
        return high < value
    if op == "==":
        return low == high == value
    return value < low or value > high


class RollState:
    """The dice of one pool while its modifiers run: faces in roll order, their sides (None for
    a fixed number), the indices still in the pool and those left out; with a history in the
    traced mode (earlier faces by index, the indices that exploded and those an explosion added, the
    face each die showed before min or max set it)."""

    __slots__ = ("faces", "sides", "active", "dropped", "history", "exploded", "extra", "fates", "changed")

    def __init__(self, faces: list, sides: list, traced: bool):
        self.faces = faces
        self.sides = sides
        self.active = list(range(len(faces)))
        self.dropped: list = []
        self.history = {} if traced else None
        self.exploded = set() if traced else None
        self.extra = set() if traced else None
        self.fates = {} if traced else None     # index -> the mark of the modifier that left it out
        self.changed = {} if traced else None   # index -> the face it showed before min/max set it


# ---- primitives --------------------------------------------------------------------------


def _by_rank(state: RollState, n: int, highest: bool, keeping: bool) -> None:
    active = state.active
    order = sorted(active, key=state.faces.__getitem__, reverse=highest)   # stable: earlier dice first
    chosen = order[:n] if keeping else order[n:]
    if len(chosen) == len(active):
        return
    keep = set(chosen)
    state.dropped.extend(i for i in active if i not in keep)
    state.active = [i for i in active if i in keep]


def keep_highest(state, n, draw, span):
    _by_rank(state, n, True, True)


def keep_lowest(state, n, draw, span):
    _by_rank(state, n, False, True)


def drop_highest(state, n, draw, span):
    _by_rank(state, n, True, False)


def drop_lowest(state, n, draw, span):
    _by_rank(state, n, False, False)


_NOT_REROLLED = i18n.N_("cannot re-roll {face}: it is a number, not a die")
_NOT_EXPLODED = i18n.N_("cannot explode {face}: it is a number, not a die")


def _rollable(state: RollState, message: str, span) -> None:
    """`message` (marked with N_): what cannot be done to a number in the pool, {face} the number."""
    for i in state.active:
        if state.sides[i] is None:
            raise DiceValueError(i18n._(message).format(face=state.faces[i]), span=span)


def _reroll(state: RollState, test, draw, span, once: bool) -> None:
    _rollable(state, _NOT_REROLLED, span)
    faces, history = state.faces, state.history
    for i in state.active:
        face = faces[i]
        if not test(face):
            continue
        sides = state.sides[i]
        while True:
            new = as_face(draw(sides), kind_of(face))     # re-rolled, a die keeps its kind
            if history is not None:
                history.setdefault(i, []).append(int(face))
                state.exploded.discard(i)
                state.changed.pop(i, None)     # rolled anew: the face min/max set is an earlier face now
            face = new
            if once or not test(face):
                break
        faces[i] = face


def reroll_once(state, test, draw, span):
    _reroll(state, test, draw, span, True)


def reroll_while(state, test, draw, span):
    _reroll(state, test, draw, span, False)


def explode(state, test, draw, span):
    """Each die meeting the test (None: showing its highest face) adds a die, which may explode in turn."""
    _rollable(state, _NOT_EXPLODED, span)
    faces, sides = state.faces, state.sides
    queue = list(state.active)
    for i in queue:   # grows while it is walked: added dice may explode too
        s = sides[i]
        if (faces[i] == s) if test is None else test(faces[i]):
            new = as_face(draw(s), kind_of(faces[i]))     # the die an explosion adds is of its parent's kind
            faces.append(new)
            sides.append(s)
            j = len(faces) - 1
            if state.exploded is not None:
                state.exploded.add(i)
                state.extra.add(j)
            queue.append(j)
            state.active.append(j)


def explode_once(state, test, draw, span):
    """Each die meeting the test (None: showing its highest face) adds one die, which does not explode."""
    explode_capped(state, 1, test, draw, span)


def explode_capped(state, cap, test, draw, span):
    """Each die meeting the test (None: showing its highest face) adds a die, which may explode in
    turn, until `cap` dice came from that one die of the pool."""
    _rollable(state, _NOT_EXPLODED, span)
    faces, sides = state.faces, state.sides
    for i in list(state.active):     # the dice before this modifier, each with its own chain
        s, last = sides[i], i
        for _ in range(cap):
            if not ((faces[last] == s) if test is None else test(faces[last])):
                break
            faces.append(as_face(draw(s), kind_of(faces[i])))     # of its parent's kind, as for !
            sides.append(s)
            j = len(faces) - 1
            if state.exploded is not None:
                state.exploded.add(last)
                state.extra.add(j)
            state.active.append(j)
            last = j


def _set_faces(state: RollState, value: int, raising: bool) -> None:
    faces, changed = state.faces, state.changed
    for i in state.active:
        face = faces[i]
        if (face < value) if raising else (face > value):
            if changed is not None:
                changed.setdefault(i, int(face))
            # A die of a kind stays of its kind (untraced faces carry it: values.KFace).
            faces[i] = value if type(face) is int else as_face(value, kind_of(face))


def raise_faces(state, value, draw, span):
    _set_faces(state, value, True)


def lower_faces(state, value, draw, span):
    _set_faces(state, value, False)


# ---- checks once the sides are known, before any die is rolled ------------------------------


def _never_ending_reroll(sides: int, operand) -> str | None:
    op, value, text = operand
    if covers(op, value, 1, sides):
        return i18n._("every face of a d{sides} meets '{text}', so re-rolling while it does would never end").format(
                   sides=sides, text=text)
    return None


def _never_ending_explosion(sides: int, operand) -> str | None:
    if operand is None:
        if sides == 1:
            return i18n._("a d1 always shows its highest face, so exploding it would never end")
        return None
    op, value, text = operand
    if covers(op, value, 1, sides):
        return i18n._("every face of a d{sides} meets '{text}', so exploding on it would never end").format(
                   sides=sides, text=text)
    return None


# ---- exact forms: the same rules over icepool (`dusk prob`) --------------------------------
# `roll` is the exact translator's ExactRoll (ruleset_engine/analysis/exact.py): these call only its
# methods and the methods of the distributions it hands them, so nothing here imports icepool.


def _exact_keep_highest(x, roll, n):
    roll.pool(lambda e: e.highest(n))


def _exact_keep_lowest(x, roll, n):
    roll.pool(lambda e: e.lowest(n))


def _exact_drop_highest(x, roll, n):
    roll.pool(lambda e: e.highest(drop=n))


def _exact_drop_lowest(x, roll, n):
    roll.pool(lambda e: e.lowest(drop=n))


def _exact_reroll_once(x, roll, test):
    # When every face meets the test, each die is rolled again once and keeps what it shows: the die
    # itself (icepool's reroll would divide by the chance of a face that stops, 0 there).
    roll.each(lambda die: die if all(test(face) for face in die.outcomes()) else die.reroll(test, depth=1))


def _exact_reroll_while(x, roll, test):
    # Re-rolled until a face fails the test: the die's chances among those faces, with no depth.
    roll.each(lambda die: die.reroll(test, depth="inf"))


def _exact_explode(x, roll, test):
    roll.explode(test)


def _exact_explode_once(x, roll, test):
    roll.explode(test, most=1)


def _exact_explode_capped(x, roll, cap, test):
    roll.explode(test, most=cap)


def _exact_raise_faces(x, roll, value):
    roll.set_faces(lambda face: max(face, value))


def _exact_lower_faces(x, roll, value):
    roll.set_faces(lambda face: min(face, value))


# ---- vector forms: the same rules over many games at once (the lockstep backend) ----------------
# `state` is dice/vector.py's DiceState: faces (games x slots, v.EMPTY an empty slot), sides (a number or one
# per game), dropped (the dice left out, a VPool, or None), draws (dice rolled, for the limit) and kinds
# (each die's kind code, or None): a form changes faces in place or adds dice at the end, their kinds too.


def _vector_rank(v, state, n, highest: bool, keeping: bool):
    np = v.np
    faces = state.faces
    present = faces != v.EMPTY
    wide = faces.astype(np.int32)
    key = np.where(present, -wide if highest else wide, np.iinfo(np.int32).max)
    order = np.argsort(key, axis=1, kind="stable")       # earlier dice first among equal faces
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.broadcast_to(np.arange(faces.shape[1]), faces.shape).copy(), axis=1)
    n = np.asarray(n)
    chosen = rank < (n[:, None] if n.ndim else n)
    keep = present & (chosen if keeping else ~chosen)
    state.dropped = v.pool(np.where(keep, v.EMPTY, faces).astype(faces.dtype), None, state.kinds)
    state.faces = np.where(keep, faces, v.EMPTY).astype(faces.dtype)      # in place: the kinds stay aligned


def _vector_keep_highest(v, state, n):
    _vector_rank(v, state, n, True, True)


def _vector_keep_lowest(v, state, n):
    _vector_rank(v, state, n, False, True)


def _vector_drop_highest(v, state, n):
    _vector_rank(v, state, n, True, False)


def _vector_drop_lowest(v, state, n):
    _vector_rank(v, state, n, False, False)


def _vector_reroll(v, state, test, once: bool):
    """Every die meeting the test drawn again, all games at once, until none meets it (or once)."""
    np = v.np
    faces = state.faces
    pending = (faces != v.EMPTY) & test(faces)
    per_game = isinstance(state.sides, np.ndarray)
    while pending.any():
        where = pending.nonzero()
        state.draws = state.draws + np.bincount(where[0], minlength=faces.shape[0])     # each game's own
        if state.draws.max() > v.max_dice_rolled:
            raise DiceLimitError(limit_message(v.max_dice_rolled))
        faces[where] = v.draw(state.sides[where[0]] if per_game else state.sides, (len(where[0]),))
        if once:
            break
        pending &= test(faces)


def _vector_reroll_once(v, state, test):
    _vector_reroll(v, state, test, True)


def _vector_reroll_while(v, state, test):
    _vector_reroll(v, state, test, False)


def _vector_explode(v, state, test, most=None):
    """Each die meeting the test (None: on its highest face) adds a die at the end of its game's
    dice; the added dice may explode in turn, round by round: at most `most` rounds (a number, or one
    per game), so that one die adds at most that many; None: until none meets the test."""
    np = v.np
    faces = state.faces
    n = faces.shape[0]
    sides = state.sides[:, None] if isinstance(state.sides, np.ndarray) else state.sides
    new = faces != v.EMPTY
    most = None if most is None else np.asarray(most)
    rounds = 0
    while most is None or rounds < (int(most.max()) if most.size else 0):
        meets = new & ((faces == sides) if test is None else test(faces))
        if most is not None and most.ndim:
            meets &= (rounds < most)[:, None]     # the games whose cap is reached add no more
        rounds += 1
        k = v.row_sum(meets)
        width = int(k.max()) if n else 0
        if not width:
            break
        state.draws = state.draws + k      # each game's own dice rolled, against its own limit
        if state.draws.max() > v.max_dice_rolled:
            raise DiceLimitError(limit_message(v.max_dice_rolled))
        v.held(n, faces.shape[1] + width)
        added = v.draw(state.sides, (n, width))
        added[np.arange(width)[None, :] >= k[:, None]] = v.EMPTY
        if state.kinds is not None:
            # Each added die is of its parent's kind: the k-th added of a game comes from its k-th die
            # that met the test (in slot order, as the dice are added).
            _, parents = v.compact_kinds(np.where(meets, faces, v.EMPTY), state.kinds)
            born = np.zeros(added.shape, state.kinds.dtype)
            born[:, :parents.shape[1]] = parents[:, :width]
            state.kinds = np.concatenate([state.kinds, born], axis=1)
        faces = np.concatenate([faces, added], axis=1)
        new = np.concatenate([np.zeros(meets.shape, bool), added != v.EMPTY], axis=1)
    state.faces = faces


def _vector_explode_once(v, state, test):
    _vector_explode(v, state, test, 1)


def _vector_explode_capped(v, state, cap, test):
    _vector_explode(v, state, test, cap)


def _vector_set_faces(v, state, value, raising: bool):
    np = v.np
    faces = state.faces
    value = np.asarray(value)[:, None] if np.ndim(value) else value
    # A face the pool cannot hold (min above its most, max below its lowest), for a game with dice: refused.
    top, low = np.iinfo(faces.dtype).max, v.MIN_FACE
    outside = v.pool(faces).present & ((value > top) if raising else (value < low))
    if outside.any():
        bad = int(np.broadcast_to(value, faces.shape)[outside][0])
        raise DiceValueError(i18n._("the lockstep backend holds faces {low}..{top} in a pool, and a game put "
                                    "{bad} in one (run it with --backend untraced)").format(
                                 low=i18n.number(low), top=i18n.number(top), bad=bad))
    value = np.clip(value, low - 1, top)      # within the face type; a face past a die's changes none
    moved = np.maximum(faces, value) if raising else np.minimum(faces, value)
    state.faces = np.where(faces != v.EMPTY, moved, v.EMPTY).astype(faces.dtype)


def _vector_raise_faces(v, state, value):
    _vector_set_faces(v, state, value, True)


def _vector_lower_faces(v, state, value):
    _vector_set_faces(v, state, value, False)


MODIFIERS: dict[str, Modifier] = {m.token: m for m in (
    Modifier("kh", "khN", (COUNT_OP,), keep_highest, "keep the N highest dice (kh alone keeps 1)", "4d6kh3",
             mark="dropped", exact=_exact_keep_highest, vector=_vector_keep_highest),
    Modifier("kl", "klN", (COUNT_OP,), keep_lowest, "keep the N lowest dice", "2d20kl1", mark="dropped",
             exact=_exact_keep_lowest, vector=_vector_keep_lowest),
    Modifier("dh", "dhN", (COUNT_OP,), drop_highest, "drop the N highest dice", "4d6dh1", mark="dropped",
             exact=_exact_drop_highest, vector=_vector_drop_highest),
    Modifier("dl", "dlN", (COUNT_OP,), drop_lowest, "drop the N lowest dice", "4d6dl1", mark="dropped",
             exact=_exact_drop_lowest, vector=_vector_drop_lowest),
    Modifier("r", "r<cond>", (CONDITION_OP,), reroll_once,
             "re-roll once each die meeting the condition; the new face stands (a bare value means ==)",
             "3d6r<3", draws=True, keeps_bounds=True, exact=_exact_reroll_once, vector=_vector_reroll_once),
    Modifier("rr", "rr<cond>", (CONDITION_OP,), reroll_while, "re-roll each die while it meets the condition",
             "1d20rr<10", draws=True, keeps_bounds=True, never_ends=_never_ending_reroll,
             exact=_exact_reroll_while, vector=_vector_reroll_while),
    Modifier("!", "!  !<cond>", (OPTIONAL_CONDITION_OP,), explode,
             "explode: each die on its highest face (or meeting the condition) adds a die, which may explode",
             "5d10!>=9", draws=True, adds_dice=True, never_ends=_never_ending_explosion,
             exact=_exact_explode, vector=_vector_explode),
    Modifier("!o", "!o  !o<cond>", (OPTIONAL_CONDITION_OP,), explode_once,
             "explode once: each die on its highest face (or meeting the condition) adds one die, which does "
             "not explode", "5d10!o>=9", draws=True, adds_dice=True, most_added=lambda test: 1,
             exact=_exact_explode_once, vector=_vector_explode_once),
    Modifier("!t", "!tN  !tN(<cond>)", (CAP_OP, OPTIONAL_CONDITION_OP), explode_capped,
             "capped explosion: each die on its highest face (or meeting the condition) adds a die, which may "
             "explode in turn, at most N dice from one die", "5d10!t2(>=9)", draws=True, adds_dice=True,
             most_added=lambda cap, test: cap, exact=_exact_explode_capped, vector=_vector_explode_capped),
    Modifier("min", "minN", (FACE_OP,), raise_faces, "each die showing less than N shows N instead", "4d6min2",
             sets_face="at least", exact=_exact_raise_faces, vector=_vector_raise_faces),
    Modifier("max", "maxN", (FACE_OP,), lower_faces, "each die showing more than N shows N instead", "4d6max5",
             sets_face="at most", exact=_exact_lower_faces, vector=_vector_lower_faces),
)}


def limit_message(limit: int) -> str:
    return (i18n._("this evaluation rolled more than {limit} dice (re-rolls and explosions included); it was "
                   "stopped here").format(limit=i18n.number(limit)))


__all__ = ["MODIFIERS", "RollState", "covers", "DiceLimitError", "limit_message"]
