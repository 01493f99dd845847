"""What the code generated from the dice language calls: coercions, dice rolling and the generic
wrapping of the registry's primitives, in the two modes.

The traced helpers (t_*) build Die and Pool objects and record a TraceStep for every operation
that rolls or judges dice, for the table. The untraced helpers (u_*) work on tuples of faces and
record nothing, for simulations. Both wrap the same primitives (functions.py, modifiers.py) and
raise the same errors at the same moments; neither knows a function by name.

`info` arguments are constant tuples written by the lowering: the operation's label (its text),
its span, and the spans and limits its checks need.
"""

from __future__ import annotations

from ruleset_engine import i18n

from .entries import FACE_OP, NUMBER_OPERANDS
from .errors import DiceError, DiceLimitError, DiceTypeError, DiceValueError
from .kinds import describe
from .binding import FLIPPED, empty_pool, negative_count
from .modifiers import RollState, limit_message
from .values import Die, FacesList, Kept, KFace, Pool, TraceStep, as_face, is_of, kind_of


class Tally:
    """What one evaluation carries besides its names: the trace (None when untraced) and the dice budget."""

    __slots__ = ("steps", "budget", "limit", "expect")

    def __init__(self, limit: int, traced: bool = True):
        self.steps: list | None = [] if traced else None
        self.budget = limit
        self.limit = limit
        # Told of each pool about to be drawn (n, sides, its text) before its first die, when
        # the dice are real ones a person rolls (runtime/manual.py); None otherwise.
        self.expect = None

    def spend(self, n: int, span) -> None:
        """Count n more dice against the evaluation's limit; stop the moment it is passed."""
        self.budget -= n
        if self.budget < 0:
            raise DiceLimitError(limit_message(self.limit), span=span)


# ---- shared -------------------------------------------------------------------------------


def word(value, what: str, span) -> str:
    """A word argument (plural's) whose kind was known only when it ran."""
    if type(value) is not str:
        raise DiceTypeError(i18n._("{what} needs a word here (in quotes, such as 'ones'), not {kind}").format(
                                what=what, kind=describe(value)), span=span)
    return value


def count_arg(n, what: str, span) -> int:
    """A number of dice given to a function (highest(p, n)): 0 or more."""
    if n < 0:
        raise DiceValueError(negative_count(what, n), span=span)
    return n


def formula_call(info, fn, *args):
    """A named formula's body, run on its arguments; an error in the body is placed in the body's
    text (its caret under the body) and names the formula (info: its name and text)."""
    try:
        return fn(*args)
    except DiceError as err:
        if err.text is None:
            err.text = info[1]
            err.message = i18n._("{message} (in the formula {formula})").format(message=err.message, formula=info[0])
        raise


MAX_NUMBER = 2**53    # whole numbers stay within what any JSON reader keeps exactly


MAX_POOL_LENGTH = 100_000    # dice in one pool value, however built (as many as one evaluation may roll)


def joined(pool, span):
    """Pools joined in brackets, held to the length of a pool: joining a pool to itself again and
    again is how a pool could grow without end."""
    if len(pool) > MAX_POOL_LENGTH:
        raise DiceLimitError(i18n._("this pool would hold {count} dice, past the limit of a pool ({limit})").format(
                                 count=i18n.number(len(pool)), limit=i18n.number(MAX_POOL_LENGTH)), span=span)
    return pool


def mul(a: int, b: int, span) -> int:
    product = a * b
    if -MAX_NUMBER <= product <= MAX_NUMBER:
        return product
    raise DiceLimitError(i18n._("{a} * {b} is past the limit of numbers ({limit})").format(
                             a=i18n.number(a), b=i18n.number(b), limit=i18n.number(MAX_NUMBER)), span=span)


def div(a: int, b: int, span) -> int:
    if b == 0:
        raise DiceValueError(i18n._("division by zero"), span=span)
    return a // b


def rem(a: int, b: int, span) -> int:
    """`a % b`: the remainder of the floor division, so `a == a // b * b + a % b` always holds and the
    remainder has the sign of b (`-7 % 3` is 2, `7 % -3` is -2), as Python's `%` and numpy's `remainder`."""
    if b == 0:
        raise DiceValueError(i18n._("division by zero"), span=span)
    return a % b


def chain(values, ops) -> int:
    """A long chain of one precedence level (*, // and %), left to right. ops: ((op, span), ...)."""
    acc = values[0]
    for value, (op, span) in zip(values[1:], ops):
        if op == "*":
            acc = mul(acc, value, span)
        elif op == "//":
            acc = div(acc, value, span)
        elif op == "%":
            acc = rem(acc, value, span)
        elif op == "+":
            acc += value
        else:
            acc -= value
    return acc


def pool_comparison(pool_text: str, op: str, other: str, written: bool = False) -> str:
    """The refusal of a pool compared with a number. `written`: the pool is dice written there (not a
    name), so Roll20's reading of `>` and `<` is named too."""
    message = i18n._("a pool of dice compared with a number is ambiguous: write count({pool}, {op} {other}) for how "
                     "many dice meet it, or sum({pool}) {op} {other} for the total").format(pool=pool_text, op=op,
                                                                                              other=other)
    if written and op in (">", "<"):
        more = i18n._(" (Roll20's {pool}{op}{other}, written without spaces, counts the dice of {other} or more)")
        less = i18n._(" (Roll20's {pool}{op}{other}, written without spaces, counts the dice of {other} or less)")
        message += (more if op == ">" else less).format(pool=pool_text, op=op, other=other)
    return message


def empty_extreme(name: str, label: str, span):
    raise DiceValueError(empty_pool(name, label), span=span)


def check_count(n: int, info) -> None:
    """A number of dice, checked before they are rolled. info: (label, span, count span, sides span, max)."""
    if n < 0:
        raise DiceValueError(i18n._("cannot roll a negative number of dice ({n})").format(n=n), span=info[2])
    if n > info[4]:
        raise DiceLimitError(i18n._("too many dice in one pool: {n} (the limit is {limit})").format(
                                 n=i18n.number(n), limit=i18n.number(info[4])), span=info[2])


def check_sides(s: int, info) -> None:
    if s < 1:
        raise DiceValueError(i18n._("a die needs at least 1 side, not {s}").format(s=s), span=info[3])


def dice_size(n, s, info, number) -> tuple[int, int]:
    """The number of dice and their sides, known only now: numbers, checked before any is rolled."""
    if type(n) is not int:
        n = number(n, info[2])
    if type(s) is not int:
        s = number(s, info[3])
    check_count(n, info)
    check_sides(s, info)
    return n, s


def check_modifiers(mods, sides_set) -> None:
    """Modifiers that could never end on dice of these sides are refused before any die is rolled."""
    for entry, shown, args, span in mods:
        if entry.never_ends is not None:
            for s in sides_set:
                if s is not None:
                    message = entry.never_ends(s, *shown)
                    if message:
                        raise DiceLimitError(message, span=span)


def _drawer(R, tally, span):
    if tally is None:
        return lambda s: R(1, s)

    def draw(s):
        tally.budget -= 1
        if tally.budget < 0:
            raise DiceLimitError(limit_message(tally.limit), span=span)
        return R(1, s)

    return draw


def _apply(state: RollState, mods, R, tally) -> None:
    for entry, shown, args, span in mods:
        before = len(state.dropped)
        entry.apply(state, *args, _drawer(R, tally, span) if entry.draws else None, span)
        if state.fates is not None:
            for i in state.dropped[before:]:
                state.fates[i] = entry.mark


def condition(op: str, value, span, number):
    """The test `face OP value` for a value known only now (number: the mode's coercion)."""
    if type(value) is not int:
        value = number(value, span)
    return getattr(value, FLIPPED[op])


def modifier(entry, parts, span, number):
    """A modifier's (entry, shown, operands, span) once its values are known. `parts` holds each
    operand in the order of the entry's schema: a number (a count, a cap, a face), a condition
    (op, value, text), or None (an optional condition left out). `operands` are what apply takes
    (a number, or the test of a face); `shown` what never_ends reads (a condition as (op, value, text))."""
    shown, args = [], []
    for kind, part in zip(entry.operands, parts):
        if part is None:
            shown.append(None)
            args.append(None)
        elif kind in NUMBER_OPERANDS:
            value = part if type(part) is int else number(part, span)
            if value < 0 and kind != FACE_OP:
                raise DiceValueError(i18n._("{token} needs a number of dice of 0 or more, not {value}").format(
                                         token=entry.token, value=value), span=span)
            shown.append(value)
            args.append(value)
        else:
            op, value, text = part
            if type(value) is not int:
                value = number(value, span)
            shown.append((op, value, text))
            args.append(getattr(value, FLIPPED[op]))
    return (entry, tuple(shown), tuple(args), span)


def extreme(faces, pick, default, info):
    """highest(p) / lowest(p): one face; else the default (a value, or a function giving it: it is
    evaluated only for an empty pool), or an error naming the expression."""
    if faces:
        return pick(faces)
    if default is None:
        empty_extreme(*info)
    return default() if callable(default) else default


def reroll(tally, evaluate, test, info, number):
    """reroll(expr, cond): evaluate again while the total meets the condition; at the table the
    totals re-rolled are noted in the trace. info: (label, span, expr span)."""
    tries = []
    while True:
        before = tally.budget
        value = evaluate()
        total = value if type(value) is int else number(value, info[2])
        tries.append(total)
        if not test(total):
            break
        if tally.budget == before:
            raise DiceLimitError(i18n._("{label}: {total} meets the condition and rolls no dice, so it would "
                                        "never end").format(label=info[0], total=total),
                                 span=info[1])
    if len(tries) > 1 and tally.steps is not None:
        tally.steps.append(TraceStep(info[0], info[1], (), None, total,
                                     note=i18n._("re-rolled totals {totals}").format(
                                         totals=", ".join(map(str, tries[:-1])))))
    return value


# ---- traced: dice with their history, a TraceStep per operation ----------------------------------


def t_env(value):
    """A value of the environment as the language sees it: lists of faces become pools."""
    kind = type(value)
    if kind is int or kind is bool or kind is Pool or kind is str:
        return value
    if kind is FacesList:
        return value.pool
    if isinstance(value, (list, tuple)) and all(type(v) is int or type(v) is KFace for v in value):
        return Pool.of(value)
    if isinstance(value, int) and kind is not bool:   # a face of a kind, a counter with fields: a number
        return int(value)
    return value


def _finish(tally, state: RollState, originals: list, label, span) -> Pool:
    """The pool a modified roll leaves, and its step of the trace."""
    if state.history or state.exploded or state.changed:
        shown = _traced_dice(state, originals)
    else:   # only kept and dropped: the dice are the ones rolled
        shown = originals
    pool = Pool(tuple([shown[i] for i in state.active]), tuple([shown[i] for i in state.dropped]))
    if tally.steps is not None:
        marks = tuple([state.fates.get(i, "kept") for i in range(len(shown))]) if state.dropped else None
        tally.steps.append(TraceStep(label, span, tuple(shown), marks, pool.total))
    return pool


def _traced_dice(state: RollState, originals: list) -> list:
    """The dice as the modifiers left them: re-rolled ones with their earlier faces, exploded ones
    marked, the dice the explosions added, and the faces min or max set; the others as they were rolled."""
    history, exploded, extra, changed = state.history, state.exploded, state.extra, state.changed
    shown = []
    for i in range(len(state.faces)):
        if i >= len(originals):      # added by an explosion, of its parent's kind
            face = state.faces[i]
            shown.append(Die(int(face), state.sides[i], tuple(history.get(i, ())), i in exploded, True, kind_of(face),
                             changed_from=changed.get(i)))
            continue
        die = originals[i]
        if i not in history and i not in exploded and i not in changed:
            shown.append(die)
            continue
        # A die re-rolled here keeps the faces it showed before (in an earlier roll, then here); a
        # re-roll ends an explosion, as a die exploded here is marked, and ends a face set by min/max.
        earlier = die.history + tuple(history.get(i, ()))
        blew = i in exploded or (die.exploded and i not in history)
        if i in history:     # rolled anew here: only a face set after that counts
            was = changed.get(i)
        else:                # set before (in the roll that made the die), or here
            was = die.changed_from if die.changed_from is not None else changed.get(i)
        shown.append(Die(int(state.faces[i]), state.sides[i], earlier, blew, die.extra or i in extra, die.kind, was,
                         die.first))
    return shown


def t_roll(tally, R, n, s, mods, info) -> Pool:
    """NdS with its modifiers, each die traced. info: (label, span, count span, sides span, max dice)."""
    n, s = dice_size(n, s, info, t_num)
    if mods:
        check_modifiers(mods, (s,))
    tally.spend(n, info[1])
    if tally.expect is not None and n:
        tally.expect(n, s, info[0])
    dice = [Die(R(1, s), s) for _ in range(n)]
    joined(dice, info[1])
    if not mods:
        pool = Pool(tuple(dice))
        if tally.steps is not None:
            tally.steps.append(TraceStep(info[0], info[1], pool.dice, None, pool.total))
        return pool
    state = RollState([d.face for d in dice], [s] * n, True)
    _apply(state, mods, R, tally)
    return _finish(tally, state, dice, info[0], info[1])


def t_literal(tally, R, items, mods, info) -> Pool:
    """A pool literal: numbers become fixed dice, pools join in. items: ((value, span), ...)."""
    dice: list = []
    for value, span in items:
        if type(value) is int:
            dice.append(Die(value, None))
            continue
        value = t_env(value)
        if isinstance(value, Pool):
            dice.extend(value.dice)
        else:
            raise DiceTypeError(i18n._("a pool holds numbers and dice, not {kind}").format(kind=describe(value)), span=span)
    joined(dice, info[1])
    if not mods:
        pool = Pool(tuple(dice))
        if tally.steps is not None:
            tally.steps.append(TraceStep(info[0], info[1], pool.dice, None, pool.total))
        return pool
    # Faces of a kind carry it (KFace), so the dice a re-roll or an explosion draws are of that kind too.
    state = RollState([as_face(d.face, d.kind) for d in dice], [d.sides for d in dice], True)
    check_modifiers(mods, set(state.sides))
    _apply(state, mods, R, tally)
    return _finish(tally, state, dice, info[0], info[1])


def _judged(tally, pool: Pool, marks, value, info):
    if tally.steps is not None:
        tally.steps.append(TraceStep(info[0], info[1], pool.dice, marks,
                                     value.total if isinstance(value, Pool) else value))
    return value


def t_count(tally, pool, test, mark, info, kind=None) -> int:
    if type(pool) is not Pool:
        pool = t_pool(pool, info[2])
    if kind is None:
        hits = [test(d.face) for d in pool.dice]
    else:   # count(p, cond, kind=K): only the dice of that kind are judged
        hits = [is_of(d.kind, kind) and test(d.face) for d in pool.dice]
    marks = tuple([mark if h else "kept" for h in hits]) if tally.steps is not None else None
    return _judged(tally, pool, marks, sum(hits), info)


def t_select(tally, pool: Pool, gone, mark, info) -> Pool:
    """The dice but those at the indices `gone` (set aside, marked)."""
    dice = pool.dice
    gone = set(gone)
    kept = Pool(tuple([d for i, d in enumerate(dice) if i not in gone]),
                tuple([d for i, d in enumerate(dice) if i in gone]))
    marks = tuple([mark if i in gone else "kept" for i in range(len(dice))]) if tally.steps is not None else None
    return _judged(tally, pool, marks, kept, info)


def t_filter(tally, pool, test, matching, mark, info) -> Pool:
    if type(pool) is not Pool:
        pool = t_pool(pool, info[2])
    return t_select(tally, pool, [i for i, d in enumerate(pool.dice) if test(d.face) != matching], mark, info)


def t_order(pool: Pool, descending) -> Pool:
    """The dice sorted by face, stably (equal faces keep their roll order)."""
    return Pool(tuple(sorted(pool.dice, key=_face, reverse=bool(descending))), pool.aside)


def _face(die: Die) -> int:
    return die.face


def t_aside(pool: Pool) -> Pool:
    return Pool(pool.aside)


def t_alias(tally, info, roll):
    """Another tool's notation: a step saying what dusk read it as, then its pool rolled (once).
    info: (label, span, the explicit form as text)."""
    if tally.steps is not None:
        tally.steps.append(TraceStep(info[0], info[1], (), means=info[2]))
    return roll()


# ---- untraced: tuples of faces, nothing recorded ----------------------------------------------


def u_env(value):
    """A value of the environment, untraced: lists of faces become tuples."""
    if isinstance(value, list) and all(type(v) is int or type(v) is KFace for v in value):
        return tuple(value)
    if isinstance(value, Pool):
        return tuple([as_face(d.face, d.kind) for d in value.dice])
    if isinstance(value, int) and type(value) is not bool and type(value) is not int:
        return int(value)        # a face of a kind, a counter with fields: read as a number
    return value


def coercions(pool_type: type, env, total):
    """The coercions of one mode, written once: (number, pool, truth, compare) for values whose kind
    was not known before they ran. `pool_type` is how the mode holds a pool (Pool, or a tuple of
    faces), `env` reads a value of the environment (lists of faces become pools), `total` sums one."""

    def number(value, span) -> int:
        if type(value) is int:
            return value
        if isinstance(value, pool_type):
            return total(value)
        value = env(value)
        if isinstance(value, pool_type):
            return total(value)
        if type(value) is int:     # a face of a kind, read as the number it shows
            return value
        raise DiceTypeError(i18n._("expected a number here, not {kind}").format(kind=describe(value)), span=span)

    def pool(value, span):
        if isinstance(value, pool_type):
            return value
        value = env(value)
        if isinstance(value, pool_type):
            return value
        raise DiceTypeError(i18n._("expected a pool of dice here (such as 5d10 or [1, 2, 3]), not {kind}").format(
                                kind=describe(value)),
                            span=span)

    def truth(value, span) -> bool:
        if type(value) is bool:
            return value
        if type(value) is int:
            return value != 0
        if isinstance(env(value), pool_type):
            raise DiceTypeError(i18n._("a pool of dice is not true or false: test size(..), count(.., >= 6) or "
                                       "sum(..)"),
                                span=span)
        raise DiceTypeError(i18n._("expected true/false here, not {kind}").format(kind=describe(value)), span=span)

    def compare(operator, a, b, info):
        """A comparison whose sides were not known to be numbers. info: (op, left text, right text, spans)."""
        op, ltext, rtext, lspan, rspan, span = info
        if type(a) is int and type(b) is int:
            return operator(a, b)
        a, b = env(a), env(b)
        if isinstance(a, pool_type):
            raise DiceTypeError(pool_comparison(ltext, op, rtext), span=lspan)
        if isinstance(b, pool_type):
            raise DiceTypeError(pool_comparison(rtext, op, ltext), span=rspan)
        if type(a) is not type(b) or (op not in ("==", "!=") and type(a) is not int):
            raise DiceTypeError(i18n._("cannot compare {kind} with {kind2} using {op}").format(
                                    kind=describe(a), kind2=describe(b), op=op), span=span)
        return operator(a, b)

    return number, pool, truth, compare


t_num, t_pool, t_truth, t_cmp = coercions(Pool, t_env, lambda p: p.total)
u_num, u_pool, u_truth, u_cmp = coercions(tuple, u_env, sum)


def u_count_of(n, info):
    """range(n) for a number of dice known only now (checked, as the traced mode checks it)."""
    if type(n) is not int:
        n = u_num(n, info[2])
    check_count(n, info)
    return range(n)


def u_roll(tally, R, n, s, info) -> tuple:
    """NdS without modifiers, where the lowering could not write it in place."""
    n, s = dice_size(n, s, info, u_num)
    if tally is not None:
        tally.spend(n, info[1])
    return tuple([R(1, s) for _ in range(n)])


def _left(state: RollState, with_aside: bool):
    faces = state.faces
    kept = tuple([faces[i] for i in state.active])
    if with_aside and state.dropped:
        return Kept(kept, tuple([faces[i] for i in state.dropped]))
    return kept


def u_dice(tally, R, n, s, mods, info, with_aside=False) -> tuple:
    """NdS with modifiers, over faces."""
    n, s = dice_size(n, s, info, u_num)
    check_modifiers(mods, (s,))
    if tally is not None:
        tally.spend(n, info[1])
    state = RollState([R(1, s) for _ in range(n)], [s] * n, False)
    _apply(state, mods, R, tally)
    return _left(state, with_aside)


def u_literal(tally, R, items, mods, info, with_aside=False) -> tuple:
    """A pool literal with modifiers, over faces. items: ((value, sides, span), ...), sides None for numbers."""
    faces: list = []
    sides: list = []
    for value, s, span in items:
        if type(value) is int:
            faces.append(value)
            sides.append(s)
        else:
            value = u_pool(value, span)
            faces.extend(value)
            sides.extend([s] * len(value))
    joined(faces, info[1])
    state = RollState(faces, sides, False)
    check_modifiers(mods, set(sides))
    _apply(state, mods, R, tally)
    return _left(state, with_aside)


def u_item(value, span) -> tuple:
    """An item of a pool literal: a number is one fixed die, a pool joins in."""
    if type(value) is int:
        return (value,)
    if isinstance(value, tuple):
        return value
    value = u_env(value)
    if type(value) is int:
        return (value,)
    if isinstance(value, tuple):
        return value
    raise DiceTypeError(i18n._("a pool holds numbers and dice, not {kind}").format(kind=describe(value)), span=span)


def u_count(pool, test) -> int:
    return len([f for f in pool if test(f)])


def u_filter(pool, test, matching, with_aside=False) -> tuple:
    kept = tuple([f for f in pool if test(f) == matching])
    if with_aside:
        return Kept(kept, tuple([f for f in pool if test(f) != matching]))
    return kept


def u_order(pool, descending) -> tuple:
    """Sorted faces that keep what the pool set aside (rulesets that read aside())."""
    aside = getattr(pool, "aside", ())
    out = tuple(sorted(pool, reverse=bool(descending)))
    return Kept(out, aside) if aside else out


def u_pick(primitive, pool, *args, **keywords) -> tuple:
    """The faces but those the primitive sets aside."""
    return u_but(pool, primitive(pool, *args, **keywords))


def u_but(pool, gone) -> tuple:
    """The faces but those at the indices `gone`."""
    if not gone:
        return tuple(pool)
    if len(gone) == 1:
        i = gone[0]
        return tuple(pool[:i]) + tuple(pool[i + 1:])
    gone = set(gone)
    return tuple([f for i, f in enumerate(pool) if i not in gone])


def u_pick_aside(primitive, pool, *args, **keywords) -> tuple:
    gone = set(primitive(pool, *args, **keywords))
    return Kept(tuple([f for i, f in enumerate(pool) if i not in gone]),
                tuple([f for i, f in enumerate(pool) if i in gone]))


def u_aside(pool) -> tuple:
    return tuple(getattr(pool, "aside", ()))


def u_plain(value):
    """A value as the untraced game state keeps it: a pool without what it set aside."""
    if type(value) is Kept:
        return tuple(value)
    return value


# ---- kinds of dice, and the re-roll of chosen dice (both modes) --------------------------------


def kinds_marked(n: int, spec) -> list:
    """The kind of each of n dice, in roll order, for kinds(pool, k1=a, k2=b): the first a dice
    are k1, the next b are k2, the rest keep the kind they had (None). spec: ((kind, count, span), ...)."""
    out: list = []
    for kind, count, span in spec:
        if type(count) is not int:
            count = u_num(count, span)
        if count < 0:
            raise DiceValueError(i18n._("kinds(..) needs a number of dice of 0 or more, not {count}").format(
                                     count=count), span=span)
        out.extend([kind] * count)
    return out[:n]


def t_kinds(tally, pool, spec, info) -> Pool:
    if type(pool) is not Pool:
        pool = t_pool(pool, info[2])
    marked = kinds_marked(len(pool.dice), spec)
    dice = tuple([d.of_kind(marked[i]) if i < len(marked) else d for i, d in enumerate(pool.dice)])
    out = Pool(dice)
    if tally.steps is not None:
        tally.steps.append(TraceStep(info[0], info[1], dice, None, out.total))
    return out


def u_kinds(pool, spec, span) -> tuple:
    if not isinstance(pool, tuple):
        pool = u_pool(pool, span)
    marked = kinds_marked(len(pool), spec)
    return tuple([KFace(f, marked[i]) if i < len(marked) else f for i, f in enumerate(pool)])


def t_of(tally, pool, kind, mark, info) -> Pool:
    """The dice of one kind; the others are marked."""
    if type(pool) is not Pool:
        pool = t_pool(pool, info[2])
    return t_select(tally, pool, [i for i, d in enumerate(pool.dice) if not is_of(d.kind, kind)], mark, info)


def u_of(pool, kind, with_aside=False) -> tuple:
    kept = tuple([f for f in pool if is_of(kind_of(f), kind)])
    if with_aside:
        return Kept(kept, tuple([f for f in pool if not is_of(kind_of(f), kind)]))
    return kept


def u_count_kind(pool, test, kind) -> int:
    return len([f for f in pool if is_of(kind_of(f), kind) and test(f)])


def chosen_indices(faces, kinds, chosen, chosen_kinds, label, span) -> list:
    """Which dice of a pool the chosen dice are, in roll order: each chosen die is the earliest die
    not yet taken that shows its face (and, when it has a kind, is of that kind)."""
    taken: set = set()
    for face, kind in zip(chosen, chosen_kinds):
        for i, f in enumerate(faces):
            if f == face and i not in taken and (kind is None or kinds[i] == kind):
                taken.add(i)
                break
        else:
            raise DiceValueError(i18n._("reroll(..): a chosen die shows {face}{kind}, and {label} has no such "
                                        "die left to re-roll").format(
                                     face=face, kind=f" ({kind})" if kind else "", label=label), span=span)
    return sorted(taken)


def t_reroll_chosen(tally, R, pool, chosen, sides, info) -> Pool:
    """The chosen dice of the pool re-rolled in place as dice of `sides` (kinds kept, shown with →).
    info: (label, span, pool span, chosen span, pool text, sides span)."""
    if type(pool) is not Pool:
        pool = t_pool(pool, info[2])
    if type(chosen) is not Pool:
        chosen = t_pool(chosen, info[3])
    sides = t_num(sides, info[5]) if type(sides) is not int else sides
    check_sides(sides, (info[0], info[1], info[1], info[5], 0))
    dice = list(pool.dice)
    which = chosen_indices([d.face for d in dice], [d.kind for d in dice], [d.face for d in chosen.dice],
                           [d.kind for d in chosen.dice], info[4], info[3])
    tally.spend(len(which), info[1])
    for i in which:
        dice[i] = dice[i].rerolled(R(1, sides), sides)
    out = Pool(tuple(dice))
    if tally.steps is not None:
        tally.steps.append(TraceStep(info[0], info[1], out.dice, None, out.total))
    return out


def u_reroll_chosen(tally, R, pool, chosen, sides, info) -> tuple:
    if not isinstance(pool, tuple):
        pool = u_pool(pool, info[2])
    if not isinstance(chosen, tuple):
        chosen = u_pool(chosen, info[3])
    sides = u_num(sides, info[5]) if type(sides) is not int else sides
    check_sides(sides, (info[0], info[1], info[1], info[5], 0))
    faces = list(pool)
    kinds = [kind_of(f) for f in faces]
    which = chosen_indices(faces, kinds, chosen, [kind_of(f) for f in chosen], info[4], info[3])
    if tally is not None:
        tally.spend(len(which), info[1])
    for i in which:
        faces[i] = as_face(R(1, sides), kinds[i])
    return tuple(faces)
