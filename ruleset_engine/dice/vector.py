"""The dice language over many games at once (numpy, for the lockstep simulation backend).

An expression is evaluated for a set of rows (one row per game being played) and gives one value
per row: a number is an integer array, true/false a boolean array, a pool a VPool (a fixed-width
small-integer array, one row per game, EMPTY an empty slot, so each row holds its own number of dice).
A value known before any game (a constant, a param) stays a plain Python value, which numpy
broadcasts. Dice are drawn for all the rows at once from one numpy generator.

What each function and modifier does over these arrays is its registry entry's `vector` form
(functions.py, modifiers.py), called as vector(v, *arguments, **params, **keywords) with `v` this
evaluator; this module only walks the syntax tree (arithmetic, comparisons, logic, dice, pool
literals) and hands names to the caller. A construct whose entry has no vector form is found
before any game (vectorizable.py), so the simulation runs it untraced instead.

The random stream differs from the untraced mode's by design: the two agree in distribution (the
tests compare them statistically), not die for die.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ruleset_engine import i18n

from . import ast
from .binding import COMPARE, bind, translate
from .entries import operands
from .errors import DiceError, DiceLimitError, DiceTypeError, DiceValueError
from .faces import NO_KIND
from .functions import FUNCTIONS
from .limits import DEFAULT_LIMITS
from .modifiers import MODIFIERS, limit_message
from .vectorizable import MAX_FACE, MIN_FACE       # the largest and the lowest face a pool holds here
from .vectorizable import literal_sides
from .runtime import MAX_NUMBER

FACE = np.int16           # a die's face in a pool (MIN_FACE to MAX_FACE)
EMPTY = -32_768           # an empty slot of a pool: below MIN_FACE, so a pool may hold 0 or less
INT = np.int64
# Dice of one pool held at once by the lockstep backend, its games together (rows x dice): 2^25 faces
# (64 MB, and a few times that for the arrays a function works in). At 32,768 games a batch
# (runtime/lockstep.BATCH), 1,024 dice a game, so the 1,000 dice one pool may roll fit in every game;
# a pool wider than that in every game stops with the way on (--backend untraced).
MAX_POOL_CELLS = 1 << 25


def held(rows: int, width: int) -> None:
    """A DiceLimitError before a pool of `width` dice in `rows` games is made past MAX_POOL_CELLS."""
    if rows * width > MAX_POOL_CELLS:
        raise DiceLimitError(i18n._("the lockstep backend holds at most {limit} dice of one pool at once (games x "
                                    "dice), and {rows} games would hold {width} dice each; --backend untraced "
                                    "plays the games one at a time").format(
                                 limit=i18n.number(MAX_POOL_CELLS), rows=i18n.number(rows), width=i18n.number(width)))



# Kinds of dice (kinds(..)): each die's kind a small code beside its face, 0 for no kind; the names
# are interned once per process (a ruleset names a few).
KIND = np.int16
KIND_CODES: dict = {}


def kind_code(name: str) -> int:
    """The code of a kind of dice (NO_KIND, `none`, is 0: the dice no kinds(..) marked)."""
    if name == NO_KIND:
        return 0
    if name not in KIND_CODES:
        KIND_CODES[name] = len(KIND_CODES) + 1
    return KIND_CODES[name]


NARROW = 16         # a pool at most this wide is reduced along its rows column by column


def by_row(ufunc, a, dtype=None):
    """ufunc.reduce(a, axis=1) for a pool's rows (games x slots): column by column when the pool is
    narrow, as pools are (numpy reduces a few values per row several times slower than a few whole
    columns: 3 ms against 0.7 ms for 32,768 games of 5 dice, measured). The sum's type: dtype."""
    width = a.shape[1]
    if not 0 < width <= NARROW:
        return ufunc.reduce(a, axis=1, dtype=dtype) if dtype is not None else ufunc.reduce(a, axis=1)
    out = a[:, 0].astype(dtype if dtype is not None else a.dtype)
    for j in range(1, width):
        ufunc(out, a[:, j], out=out)
    return out


def row_sum(a, dtype=None):
    """Each row's sum (booleans: how many hold), as an integer of `dtype` (INT by default)."""
    return by_row(np.add, a, INT if dtype is None else dtype)


def row_any(a):
    return by_row(np.logical_or, a, bool)


def row_max(a):
    return by_row(np.maximum, a)


def row_min(a):
    return by_row(np.minimum, a)


def row_places(present):
    """Each slot's place among its row's present slots, counting from 0 (np.cumsum(present, axis=1)
    - 1), column by column for a narrow pool."""
    width = present.shape[1]
    if not 0 < width <= 3 * NARROW:        # numpy's running sum along rows is slower still: 4x on 24 dice
        return np.cumsum(present, axis=1) - 1
    out = np.empty(present.shape, INT)
    running = present[:, 0].astype(INT)
    out[:, 0] = running - 1
    for j in range(1, width):
        running += present[:, j]
        out[:, j] = running - 1
    return out


def take_rows(a, index):
    """a[index] for rows of a pool (games x slots): numpy's take along the rows when `index` is an
    index array, several times faster than a fancy index of a 2-D array (a mask: a[index])."""
    if a.ndim == 2 and isinstance(index, np.ndarray) and index.dtype.kind in "iu":
        return a.take(index, axis=0)
    return a[index]


def put_rows(a, index, values) -> None:
    """a[index] = values for whole rows of a pool (games x slots, values as wide and of its type):
    each row written as one opaque item of a 1-D view, about twice as fast as a 2-D fancy assignment."""
    if a.ndim == 2 and a.shape[1] and a.flags.c_contiguous and isinstance(index, np.ndarray) and \
            index.dtype.kind in "iu" and isinstance(values, np.ndarray) and values.dtype == a.dtype and \
            values.shape == (len(index), a.shape[1]):
        row = np.dtype((np.void, a.shape[1] * a.itemsize))
        a.view(row).reshape(-1)[index] = np.ascontiguousarray(values).view(row).reshape(-1)
        return
    a[index] = values


class VPool:
    """Dice of many games: `faces` (rows x width, EMPTY an empty slot, dice in roll order) and, when
    the operation that made it set dice aside, those dice as another VPool (aside(..) reads them);
    `kinds`, when some die has a kind: each die's kind code (rows x width, 0 no kind), else None."""

    __slots__ = ("faces", "_aside", "kinds")

    def __init__(self, faces, aside=None, kinds=None):
        if faces.ndim == 2:
            held(*faces.shape)
        self.faces = faces
        self._aside = aside      # a VPool, None, or a function giving it (most pools' aside is never read)
        self.kinds = kinds

    @property
    def aside(self) -> "VPool | None":
        if callable(self._aside):
            self._aside = self._aside()
        return self._aside

    @property
    def present(self):
        return self.faces != EMPTY

    def size(self):
        return row_sum(self.faces != EMPTY)

    def total(self):
        return row_sum(np.where(self.faces != EMPTY, self.faces, 0))

    def take(self, index) -> "VPool":
        """The rows at `index` (an index array or a mask into this pool's rows)."""
        return VPool(take_rows(self.faces, index), self.aside.take(index) if self.aside is not None else None,
                     None if self.kinds is None else take_rows(self.kinds, index))

    def plain(self) -> "VPool":
        """The pool as a value is kept: its dice and their kinds, without what it set aside."""
        return VPool(self.faces, None, self.kinds)

    def kinds_or_none(self):
        """Each die's kind code (0 for every die when none has one)."""
        return self.kinds if self.kinds is not None else np.zeros(self.faces.shape, KIND)


def empty_pool(n: int) -> VPool:
    return VPool(np.zeros((n, 0), FACE))


def pool_of(faces) -> VPool:
    """A pool from faces that may hold values no die shows (a number written into a pool)."""
    faces = np.asarray(faces)
    if faces.size and (faces.min() < MIN_FACE or faces.max() > MAX_FACE):
        bad = int(faces.min()) if faces.min() < MIN_FACE else int(faces.max())
        raise DiceValueError(i18n._("the lockstep backend holds faces {low}..{top} in a pool, and a game put "
                                    "{bad} in one (run it with --backend untraced)").format(
                                 low=i18n.number(MIN_FACE), top=i18n.number(MAX_FACE), bad=bad))
    return VPool(faces.astype(FACE))


def join(pools: list, n: int) -> VPool:
    """Pools side by side, each row's dice in order (what [a, b] gives): no aside is kept; their
    kinds are."""
    pools = [p for p in pools if p.faces.shape[1]]
    if not pools:
        return empty_pool(n)
    held(n, sum(p.faces.shape[1] for p in pools))
    kinds = None
    if any(p.kinds is not None for p in pools):
        kinds = np.concatenate([p.kinds_or_none() for p in pools], axis=1)
    return VPool(pools[0].faces if len(pools) == 1 else np.concatenate([p.faces for p in pools], axis=1), None, kinds)


def compact(faces, kinds=None):
    """Each row's dice moved to its left (order kept), the width cut to the most any row holds (with
    `kinds`: the kinds moved alike, and both given back)."""
    present = faces != EMPTY
    n, width = faces.shape
    # A wide pool whose first columns are in place already (no row holds a die after an empty slot
    # there: a pool kept, with dice joined after it, [kept, new]) moves only the dice after them.
    packed = 0
    if n and width > NARROW:
        risen = (present[:, 1:] & ~present[:, :-1]).any(axis=0)
        packed = int(np.argmax(risen)) + 1 if risen.any() else width
    if packed < NARROW:
        return _compact_all(faces, kinds, present)
    left = row_sum(present[:, :packed])
    right = present[:, packed:]
    place = row_places(right) + left[:, None] if right.shape[1] else None
    most = int(place[:, -1].max()) + 1 if place is not None else int(left.max())
    out = np.full((n, most), EMPTY, faces.dtype)
    kept = min(packed, most)
    out[:, :kept] = faces[:, :kept]
    moved = None
    if kinds is not None:
        moved = np.zeros(out.shape, KIND)
        moved[:, :kept] = np.where(present[:, :kept], kinds[:, :kept], 0)     # an empty slot has no kind
    if place is not None:
        rows, columns = np.nonzero(right)
        at = place[rows, columns]
        out[rows, at] = faces[rows, columns + packed]
        if kinds is not None:
            moved[rows, at] = kinds[rows, columns + packed]
    return out if kinds is None else (out, moved)


def _compact_all(faces, kinds, present):
    """compact(), every die placed: each die's place among its row's dice, a scatter, not a sort
    (pools are a few dice wide)."""
    place = row_places(present)
    most = int(place[:, -1].max()) + 1 if faces.size else 0
    out = np.full((faces.shape[0], most), EMPTY, faces.dtype)
    rows, columns = np.nonzero(present)
    out[rows, place[rows, columns]] = faces[rows, columns]
    if kinds is None:
        return out
    moved = np.zeros(out.shape, KIND)
    moved[rows, place[rows, columns]] = kinds[rows, columns]
    return out, moved


def distinct_rows(table):
    """(first, inverse) of the distinct rows of an integer table (rows x columns), as
    np.unique(table, axis=0, return_index=True, return_inverse=True) gives them: the distinct rows in
    order, each by the index of its first row, and each row's place among them. Each row is read as one
    number (its columns as digits, the first the highest) when their ranges allow: a sort of numbers,
    many times faster than numpy's sort of rows (50 ms against 1 ms for 20,000 rows, measured)."""
    n, width = table.shape
    if not n or not width:
        _, first, inverse = np.unique(table, axis=0, return_index=True, return_inverse=True)
        return first, inverse.reshape(n)
    low, high = table.min(axis=0), table.max(axis=0)
    spans = [int(h) - int(l) + 1 for l, h in zip(low, high)]
    whole = 1
    for span in spans:
        whole *= span
    if whole >= 1 << 62:
        _, first, inverse = np.unique(table, axis=0, return_index=True, return_inverse=True)
        return first, inverse.reshape(n)
    key = table[:, 0].astype(INT) - int(low[0])
    for column in range(1, width):
        key = key * spans[column] + (table[:, column].astype(INT) - int(low[column]))
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return first, inverse.reshape(n)


def compact_pool(pool: VPool) -> VPool:
    """The pool with each row's dice moved to its left, their kinds with them."""
    if pool.kinds is None:
        return VPool(compact(pool.faces))
    faces, kinds = compact(pool.faces, pool.kinds)
    return VPool(faces, None, kinds)


def rows_of(value, n: int):
    """A value for each of n rows (a constant repeated)."""
    if isinstance(value, np.ndarray):
        return value
    return np.full(n, value)


class VectorError(DiceTypeError):
    """A value the lockstep backend cannot hold (a text in a formula, a record)."""


class Vectors:
    """Evaluates syntax trees over rows. `names(path, rows)` gives a name's value for those rows;
    `spent` counts the dice each row's game rolled in the evaluation under way (begin() starts one),
    for the limit of dice rolled in one evaluation, which holds for each game on its own."""

    np = np
    EMPTY = EMPTY           # an empty slot of a pool, for the vector forms
    # Reductions along each game's dice, fast for narrow pools (by_row): for the vector forms.
    row_sum, row_any, row_max, row_min = staticmethod(row_sum), staticmethod(row_any), staticmethod(row_max), \
        staticmethod(row_min)
    MIN_FACE = MIN_FACE

    def __init__(self, rng, names: Callable, max_dice_rolled: int = 100_000,
                 max_pool_dice: int = DEFAULT_LIMITS.max_pool_dice, formulas=None, records=None, calls=None):
        self.rng = rng
        self.names = names
        self.max_dice_rolled = max_dice_rolled
        self.max_pool_dice = max_pool_dice
        self.formulas = formulas or {}  # the ruleset's named formulas (dice/named.py)
        self.records = records          # (name, a, b, field, rows, span) -> NAME(a, b).FIELD, for each row
        # Functions the caller plays itself (a query over a group): name -> (call, rows, field path) -> value.
        self.calls = calls or {}
        self.rolled: list = []          # the pools of Aliased nodes being read (Rolled), as Bound
        self.bound: list = []           # the parameters of the named formulas being evaluated, as Bound
        # By row (a row's index): dice rolled in the evaluation numbered `evaluation` (begin() starts
        # one without touching the rows: a count of an earlier evaluation is read as 0).
        self.spent = np.zeros(0, INT)
        self.spent_in = np.zeros(0, INT)
        self.evaluation = 0
        self.counting = True            # False: this evaluation cannot roll enough dice to pass the limit
        self.text = None                # the text of the formula under way (a named formula's in its body)
        self.call = None                # the call whose vector form runs (for its messages)
        self.rows = None                # and the rows it runs for (the dice it rolls count for their games)
        self.bindings: dict = {}        # id(call node) -> (node, its binding.Binding)

    def begin(self, counting: bool = True, text: str | None = None) -> None:
        """A new evaluation (of the formula `text`): none of its games has rolled a die in it yet.
        `counting`: it may roll more dice than the limit (the lowering's count of the most it can
        roll), so they are counted."""
        self.evaluation += 1
        self.counting = counting
        self.text = text

    def label(self, span) -> str:
        """The part of the formula under way at `span`, as a message quotes it (as the lowering's label)."""
        return self.text[span[0]:span[1]] if self.text is not None else ".."

    def spent_by(self, rows):
        """The dice these rows' games rolled so far in the evaluation under way."""
        most = int(rows.max()) + 1 if len(rows) else 0
        if most > len(self.spent):
            size, old = max(most, 2 * len(self.spent)), len(self.spent)
            self.spent, self.spent_in = (np.concatenate([a, np.zeros(size - old, INT)]) for a in (self.spent,
                                                                                               self.spent_in))
        return np.where(self.spent_in[rows] == self.evaluation, self.spent[rows], 0)

    def spend(self, rows, total) -> None:
        """These rows' games have rolled `total` dice (each) in the evaluation under way."""
        self.spent[rows] = total
        self.spent_in[rows] = self.evaluation

    # ---- what entries call
    def pool(self, faces, aside: VPool | None = None, kinds=None) -> VPool:
        return VPool(faces, aside, kinds)

    @staticmethod
    def kind_code(name: str) -> int:
        return kind_code(name)

    @staticmethod
    def kind_name(code: int) -> str | None:
        """The kind a code stands for (None: no kind)."""
        return next((name for name, c in KIND_CODES.items() if c == code), None)

    def drew(self, count) -> None:
        """A form that draws dice itself: `count` more for each game of the call under way, held to
        the limit of dice rolled in one evaluation as the untraced tally.spend holds them."""
        if not self.counting:
            return
        rows = self.rows
        total = self.spent_by(rows) + count
        if len(rows) and total.max() > self.max_dice_rolled:
            raise DiceLimitError(limit_message(self.max_dice_rolled), span=self.call.span)
        self.spend(rows, total)

    @staticmethod
    def compact_kinds(faces, kinds):
        """compact(faces, kinds): each row's dice to its left, their kinds with them."""
        return compact(faces, kinds)

    def empty(self, n: int) -> VPool:
        return empty_pool(n)

    @staticmethod
    def held(rows: int, width: int) -> None:
        held(rows, width)

    def draw(self, sides, shape):
        """Faces of dice with `sides` (a number, or one per row) for `shape` (rows, dice)."""
        if isinstance(sides, np.ndarray):
            sides = sides[:, None] if len(shape) == 2 else sides
        if len(shape) == 2:
            held(*shape)
        return self.rng.integers(1, np.asarray(sides) + 1, size=shape, dtype=FACE)

    def reroll(self, expr, test):
        """reroll(expr, cond): the expression evaluated again for the games whose total meets the
        test, until none does (the dice limit stops one that would go on without end)."""
        node, rows = expr
        n = len(rows)
        value = self.value(node, rows)
        tries = 0
        while True:
            total = value.total() if isinstance(value, VPool) else rows_of(value, n)
            # Games that no longer meet it keep their value, so testing every game is the same.
            pending = np.flatnonzero(test(total[:, None])[:, 0])
            if not len(pending):
                return value
            tries += 1
            if tries > self.max_dice_rolled:
                raise DiceLimitError(i18n._("this evaluation rolled more than {limit} dice").format(
                                         limit=i18n.number(self.max_dice_rolled)),
                                     span=node.span)
            again = self.value(node, rows[pending])
            value = scatter(value, pending, again, n)

    # ---- evaluation
    def value(self, node, rows):
        return NODES[type(node)](self, node, rows)

    def number(self, node, rows):
        value = self.value(node, rows)
        if isinstance(value, VPool):
            return value.total()
        return value

    def truth(self, node, rows):
        value = self.value(node, rows)
        if isinstance(value, np.ndarray) and value.dtype != bool:
            return value != 0
        if not isinstance(value, np.ndarray) and type(value) is not bool:
            return value != 0
        return value

    def as_pool(self, node, rows) -> VPool:
        value = self.value(node, rows)
        if isinstance(value, VPool):
            return value
        raise DiceTypeError(i18n._("expected a pool of dice here"), span=node.span)

    def condition(self, node: ast.Condition, rows) -> Callable:
        """A condition's test over a pool's faces (rows x width): its operand read once per row."""
        operand = self.number(node.operand, rows)
        if isinstance(operand, np.ndarray):
            operand = operand[:, None]
        compare = COMPARE[node.op]
        return lambda faces: compare(faces, operand)


def _integer(v, node, rows):
    return node.value


def _constant(v, node, rows):
    return node.value


class Bound:
    """Values given for a set of rows (a named formula's arguments, an aliased pool), read back for
    any of those rows: a part of the expression may be evaluated for only some of them."""

    __slots__ = ("values", "position")

    def __init__(self, values, rows):
        self.values = values
        self.position = np.zeros(int(rows.max()) + 1 if len(rows) else 0, np.int64)
        self.position[rows] = np.arange(len(rows))

    def get(self, name, rows):
        value = self.values[name]
        if hasattr(value, "take"):          # a pool, or an instance of a group per game
            return value.take(self.position[rows])
        if isinstance(value, np.ndarray):
            return value[self.position[rows]]
        return value


def _name(v, node, rows):
    if v.bound and node.path[0] in v.bound[-1].values:
        return v.bound[-1].get(node.path[0], rows)
    return v.names(node.path, rows, node.span)


def _unary(v, node, rows):
    value = v.number(node.operand, rows)
    return value if node.op == "+" else -value


# A sum or difference is let past the limit of numbers (the untraced mode checks the number kept, not
# each step of a formula), up to this bound, far below where int64 would wrap round without a word.
MAX_STEP = 2**61


def _product(value, right, span):
    """value * right, refused before it is computed when it would pass the limit of numbers (an
    int64 product past 2^63 would wrap round into a small number), with the message of the untraced mode."""
    past = (right != 0) & (np.abs(value) > MAX_NUMBER // np.maximum(np.abs(right), 1))
    if np.any(past):
        x, y, past = np.broadcast_arrays(np.asarray(value), np.asarray(right), past)
        first = np.argmax(past)
        raise DiceLimitError(i18n._("{a} * {b} is past the limit of numbers ({limit})").format(
                                 a=i18n.number(int(x.flat[first])), b=i18n.number(int(y.flat[first])),
                                 limit=i18n.number(MAX_NUMBER)), span=span)
    return value * right


def _sum_checked(value, span):
    if isinstance(value, np.ndarray):
        if not value.size or (value.max() <= MAX_STEP and value.min() >= -MAX_STEP):
            return value
        value = value[np.abs(value) > MAX_STEP][0]
    elif -MAX_STEP <= value <= MAX_STEP:
        return value
    raise DiceLimitError(i18n._("{value} is past the limit of numbers ({limit})").format(
                             value=i18n.number(int(value)), limit=i18n.number(MAX_NUMBER)), span=span)


def _arithmetic(v, node, rows):
    value = v.number(node.operands[0], rows)
    for op, operand in zip(node.ops, node.operands[1:]):
        right = v.number(operand, rows)
        if op == "+":
            value = _sum_checked(value + right, node.span)
        elif op == "-":
            value = _sum_checked(value - right, node.span)
        elif op == "*":
            value = _product(value, right, node.span)
        else:
            zero = (right == 0)
            if np.any(zero):
                raise DiceValueError(i18n._("division by zero"), span=operand.span)
            # numpy's // and % floor as Python's do: the remainder has the sign of the divisor.
            value = value // right if op == "//" else value % right
    return value


def _compare(v, node, rows):
    return COMPARE[node.op](v.value(node.left, rows), v.value(node.right, rows))


def _logic(v, node, rows, all_of: bool):
    """and / or, each operand read only for the rows it still decides (as Python's and/or do)."""
    result = v.truth(node.items[0], rows)
    for item in node.items[1:]:
        if not isinstance(result, np.ndarray):
            if bool(result) != all_of:
                return result
            result = v.truth(item, rows)
            continue
        open_ = result if all_of else ~result
        if not open_.any():
            break
        part = v.truth(item, rows[open_])
        result = result.copy()
        result[open_] = part
    return result


def _not(v, node, rows):
    value = v.truth(node.operand, rows)
    return ~value if isinstance(value, np.ndarray) else not value


def _conditional(v, node, rows):
    """then if test else otherwise: each side evaluated only for the rows that take it."""
    test = v.truth(node.test, rows)
    if not isinstance(test, np.ndarray):
        return v.value(node.then if test else node.otherwise, rows)
    then = v.value(node.then, rows[test]) if test.any() else None
    otherwise = v.value(node.otherwise, rows[~test]) if not test.all() else None
    if otherwise is None:
        return then
    if then is None:
        return otherwise
    return merge(test, then, otherwise, len(rows))


def merge(mask, a, b, n: int):
    """Values of the rows where mask holds (a) and of the others (b), as one value of n rows."""
    if isinstance(a, VPool) or isinstance(b, VPool):
        if not (isinstance(a, VPool) and isinstance(b, VPool)):
            raise DiceTypeError(i18n._("the two sides of a conditional give a pool and a number"))
        width = max(a.faces.shape[1], b.faces.shape[1])
        faces = np.full((n, width), EMPTY, FACE)
        faces[mask, :a.faces.shape[1]] = a.faces
        faces[~mask, :b.faces.shape[1]] = b.faces
        kinds = None
        if a.kinds is not None or b.kinds is not None:
            kinds = np.zeros((n, width), KIND)
            kinds[mask, :a.faces.shape[1]] = a.kinds_or_none()
            kinds[~mask, :b.faces.shape[1]] = b.kinds_or_none()
        return VPool(faces, None, kinds)
    a_rows, b_rows = rows_of(a, int(mask.sum())), rows_of(b, n - int(mask.sum()))
    texts = a_rows.dtype.kind in "OU" or b_rows.dtype.kind in "OU"      # a text (a choice's answer)
    out = np.empty(n, object if texts else np.result_type(a_rows, b_rows))
    out[mask] = a_rows
    out[~mask] = b_rows
    return out


def scatter(value, index, part, n: int):
    """`value` (of n rows) with the rows at `index` replaced by `part`."""
    if isinstance(value, VPool):
        width = max(value.faces.shape[1], part.faces.shape[1])
        faces = np.full((n, width), EMPTY, FACE)
        faces[:, :value.faces.shape[1]] = value.faces
        faces[index] = EMPTY
        faces[index, :part.faces.shape[1]] = part.faces
        kinds = None
        if value.kinds is not None or part.kinds is not None:
            kinds = np.zeros((n, width), KIND)
            kinds[:, :value.faces.shape[1]] = value.kinds_or_none()
            kinds[index] = 0
            kinds[index, :part.faces.shape[1]] = part.kinds_or_none()
        return VPool(faces, None, kinds)
    out = rows_of(value, n).copy()
    out[index] = part
    return out


def _named(v, node, rows):
    """A named formula: each argument evaluated once, in order, then the body with the parameters
    bound to them; an error in the body is placed in the body's text, naming the formula."""
    formula = v.formulas[node.function]
    values = {}
    for name, arg in zip(formula.params, node.args):
        value = v.value(arg, rows)
        values[name] = value.plain() if isinstance(value, VPool) else value   # a parameter: a plain pool
    v.bound.append(Bound(values, rows))
    outer, v.text = v.text, formula.text
    try:
        return v.value(formula.tree, rows)
    except DiceError as err:
        if err.text is None:
            err.text = formula.text
            err.message = i18n._("{message} (in the formula {formula})").format(message=err.message,
                                                                                     formula=formula.name)
        raise
    finally:
        v.bound.pop()
        v.text = outer


def _member(v, node, rows):
    """NAME(a, b).FIELD, a record between two instances: read by the caller (its store)."""
    call = node.value
    if call.function in v.calls:
        return v.calls[call.function](call, rows, node.path)
    a, b = (v.value(arg, rows) for arg in call.args)
    return v.records(call.function, a, b, node.path[0], rows, node.span)


def _call(v, node, rows):
    if node.function in v.formulas:
        return _named(v, node, rows)
    if node.function in v.calls:
        return v.calls[node.function](node, rows, ())
    # Bound once per call of the formula (a formula is evaluated many times): kept with its node, whose
    # identity keys it (held, so no other node takes that identity while it is kept).
    kept = v.bindings.get(id(node))
    if kept is None:
        kept = v.bindings[id(node)] = (node, bind(FUNCTIONS[node.function], node))
    binding = kept[1]
    form = binding.form
    args, keywords = translate(binding, lambda kind, arg, what: ARGUMENTS[kind](v, arg, rows),
                               lambda kind, arg, what: lambda mask: ARGUMENTS[kind](v, arg, rows[mask]))
    # The form's messages name the call (v.call, v.label), and an error without a place of its own
    # is placed at the call, as the untraced helpers place theirs.
    outer, v.call, outer_rows, v.rows = v.call, node, v.rows, rows
    try:
        return form.vector(v, *args, **form.params, **keywords)
    except DiceError as err:
        if err.span is None:
            err.span = node.span
        raise
    finally:
        v.call, v.rows = outer, outer_rows


def _number_argument(v, node, rows):
    return v.number(node, rows)


def _pool_argument(v, node, rows):
    value = v.value(node, rows)
    if isinstance(value, VPool):
        return value
    if isinstance(value, np.ndarray) and value.dtype != bool:
        return pool_of(value[:, None])
    raise DiceTypeError(i18n._("expected a pool of dice here"), span=node.span)


ARGUMENTS = {
    "pool": _pool_argument,
    "number": _number_argument,
    "condition": lambda v, node, rows: v.condition(node, rows),
    "truth": lambda v, node, rows: v.truth(node, rows),
    "expression": lambda v, node, rows: (node, rows),      # evaluated by its form, maybe again (reroll)
    "word": lambda v, node, rows: v.value(node, rows),
    "kind": lambda v, node, rows: node.name,        # a kind of dice, named bare: of(p, wild), kind=wild
}


class DiceState:
    """The dice of one NdS while its modifiers run: faces (rows x width, EMPTY empty), their sides
    (a number or one per row), and the dice left out so far (aside(..) reads them)."""

    __slots__ = ("faces", "sides", "dropped", "draws", "kinds")

    def __init__(self, faces, sides, draws=0, kinds=None):
        self.faces = faces
        self.sides = sides
        self.dropped = None
        self.draws = draws      # dice rolled in this evaluation, by each row's game (an array)
        self.kinds = kinds      # each die's kind code beside its face (None: no die has one); a
                                # modifier keeps it aligned with faces (an added die takes its parent's)


def _dice(v, node, rows):
    n = len(rows)
    count = v.number(node.count, rows) if node.count is not None else 1
    sides = v.number(node.sides, rows)
    per_game = isinstance(count, np.ndarray)
    if (count.min() if per_game and n else count if not per_game else 0) < 0:
        raise DiceValueError(i18n._("a negative number of dice"), span=node.span)
    most = (int(count.max()) if per_game else int(count)) if n else 0
    if most > v.max_pool_dice:       # checked before a die is drawn, as the untraced check_count does
        raise DiceLimitError(i18n._("too many dice in one pool: {n} (the limit is {limit})").format(
                                 n=i18n.number(most), limit=i18n.number(v.max_pool_dice)),
                             span=node.count.span)
    if isinstance(sides, np.ndarray):
        low, high = (sides.min(), sides.max()) if len(sides) else (1, 1)
    else:
        low = high = sides
    if low < 1:
        raise DiceValueError(i18n._("a die needs at least 1 side"), span=node.sides.span)
    if high > MAX_FACE:
        raise DiceValueError(i18n._("the lockstep backend rolls dice of at most {limit} sides").format(
                                 limit=i18n.number(MAX_FACE)), span=node.sides.span)
    width = most
    faces = v.draw(sides, (n, width))
    if per_game:
        np.putmask(faces, np.arange(width)[None, :] >= count[:, None], EMPTY)
    # Each game's dice count against its own limit of dice rolled in this evaluation, the first roll too.
    before = v.spent_by(rows) if v.counting else 0
    state = DiceState(faces, sides, before + rows_of(count, n))
    if v.counting and n and state.draws.max() > v.max_dice_rolled:
        raise DiceLimitError(limit_message(v.max_dice_rolled), span=node.span)
    _modify(v, node, state, rows)
    # A modifier's operand (kh(1d3)) may have rolled dice meanwhile, counted in v.spent already.
    if v.counting:
        v.spend(rows, v.spent_by(rows) + state.draws - before if node.modifiers else state.draws)
    return VPool(state.faces, state.dropped, state.kinds)


def _modify(v, node, state, rows) -> None:
    """The node's modifiers, in order, each by its entry's vector form, on the dice of `state`."""
    for modifier in node.modifiers:
        entry = MODIFIERS[modifier.token]
        read: list = []          # each condition's (op, value per row, text): its operand read once

        def condition(cond):
            value = v.number(cond.operand, rows)
            # Shown as the untraced runtime shows it: the condition as written.
            text = v.text[cond.span[0]:cond.span[1]] if v.text is not None and not v.bound else None
            read.append((cond.op, value, text))
            compare, operand = COMPARE[cond.op], value[:, None] if isinstance(value, np.ndarray) else value
            return lambda faces: compare(faces, operand)

        try:
            found = operands(entry, modifier, lambda n, kind: 1 if n is None else v.number(n, rows), condition)
            if entry.never_ends is not None:
                _never_ending(entry, found, read, state.sides, len(rows))
            entry.vector(v, state, *found)
        except (DiceLimitError, DiceValueError) as err:      # placed at the modifier, as untraced
            raise err.located(None, modifier.span) from None


def _never_ending(entry, found, read, sides, n: int) -> None:
    """A modifier that could never end on the dice of some game is refused, as runtime.modifier refuses
    it in one game (rr<7 on a d6, ! on a d1), before a die is rolled: even with no dice to roll."""
    if not n:
        return
    if not isinstance(sides, np.ndarray) and not any(isinstance(value, np.ndarray) for _, value, _ in read):
        combinations = [(sides, *(value for _, value, _ in read))]     # one for every game: the common case
    else:
        combinations = _combinations(sides, read, n)
    for combination in combinations:
        values = iter(int(c) for c in combination[1:])
        conditions = iter(read)
        shown = []
        for operand in found:
            if callable(operand):           # a condition, shown as runtime.modifier shows it
                op, _, text = next(conditions)
                value = next(values)
                shown.append((op, value, text if text is not None else f"{entry.token}{op}{value}"))
            else:
                shown.append(operand)
        message = entry.never_ends(int(combination[0]), *shown)
        if message:
            raise DiceLimitError(message)


def _combinations(sides, read, n: int):
    """The distinct (sides, operand values) of the games, when one of them differs from game to game."""
    columns = [np.broadcast_to(np.asarray(sides), (n,))] + [np.broadcast_to(np.asarray(value), (n,))
                                                             for _, value, _ in read]
    return np.unique(np.stack(columns, axis=1), axis=0)


def _pool_literal(v, node, rows):
    n = len(rows)
    parts = []
    for item in node.items:
        value = v.value(item, rows)
        if isinstance(value, VPool):
            parts.append(value)
        else:
            parts.append(pool_of(rows_of(value, n)[:, None]))
    joined = join(parts, n)      # joined, a pool keeps no dice aside (as in the untraced mode)
    if not node.modifiers:
        return joined
    # Modifiers after the brackets, as after NdS: the dice in order, their sides (one size for all
    # when a modifier rolls more: vectorizable.py made sure) for the ones that re-roll or explode.
    # The dice the items rolled are counted already (each game's own, as _dice counts them).
    before = v.spent_by(rows) if v.counting else np.zeros(n, INT)
    joined = compact_pool(joined)
    state = DiceState(joined.faces, literal_sides(node), before, joined.kinds)
    _modify(v, node, state, rows)
    if v.counting:
        v.spend(rows, v.spent_by(rows) + state.draws - before)
    return VPool(state.faces, state.dropped, state.kinds)


def _aliased(v, node, rows):
    pool = v.as_pool(node.pool, rows)
    if node.body is None:
        return pool
    v.rolled.append(Bound({None: pool}, rows))
    try:
        return v.value(node.body, rows)
    finally:
        v.rolled.pop()


def _rolled(v, node, rows):
    return v.rolled[-1].get(None, rows)


NODES = {
    ast.Integer: _integer, ast.String: _constant, ast.Boolean: _constant, ast.Name: _name, ast.Unary: _unary,
    ast.Arithmetic: _arithmetic, ast.Compare: _compare,
    ast.AllOf: lambda v, node, rows: _logic(v, node, rows, True),
    ast.AnyOf: lambda v, node, rows: _logic(v, node, rows, False),
    ast.Not: _not, ast.Conditional: _conditional, ast.Call: _call, ast.Dice: _dice,
    ast.PoolLiteral: _pool_literal, ast.Aliased: _aliased, ast.Rolled: _rolled, ast.Member: _member,
}
