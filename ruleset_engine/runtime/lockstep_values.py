"""The values the lockstep machine (lockstep.py) keeps for many games at once, one row per game
slot: a Store (numbers, true/false, texts, or a pool's faces), a Record (named values: a table's
row, a procedure's return: {..}), a Ref (an instance of a group for each game) and its RefStore,
and a Track of boxes (its rules for marks are marks.py's). Also how a value is split by instance
and assembled again, and read back game by game as the untraced program holds it (for a text).
"""

from __future__ import annotations

import numpy as np

from ruleset_engine import i18n
from ruleset_engine.dice import vector
from ruleset_engine.dice.vector import VPool, compact, put_rows, rows_of, take_rows
from ruleset_engine.ruleset.marks import mark_typed_many
from ruleset_engine.ruleset.steps import StepFailed


_NONE = object()        # a Store that holds no value the same in every slot


class NeverWritten(RuntimeError):
    """A Store read that no game has written: a bug in dusk, not in the ruleset."""
_SAME_TYPES = (bool, int, str)      # the values a Store keeps once for all its slots (and their arrays' types)


class Store:
    """One value for every game slot: numbers, true/false or texts (an array of `size` rows), or a
    pool (faces: size x width, vector.EMPTY empty), with the dice it set aside when it is a local.

    A number, true/false or text written alike to every game that wrote it (a constant: a
    procedure's argument written as a literal, a sheet's field) is kept once, as `same`, and read
    as that plain value, which numpy broadcasts as it does a constant of a formula: no array of
    `size` rows is made, filled and gathered until some game writes another value. The slots no
    game wrote are never read (a local is written before it is read; a game's fields as it starts),
    so they may hold it too."""

    __slots__ = ("data", "aside", "keeps_aside", "kinds", "same")

    def __init__(self, keeps_aside: bool = False):
        self.data = None
        self.same = _NONE
        self.aside: Store | None = None
        self.keeps_aside = keeps_aside
        self.kinds = None       # a pool's dice kinds (size x width), once some game's pool had them

    def _spread(self, size: int) -> None:
        """`same` written into an array of every slot (of the type its first value gave it)."""
        same, self.same = self.same, _NONE
        kind = type(same)
        self.data = np.full(size, same, bool if kind is bool else np.int64 if kind is int else object)

    def put(self, rows, value, size: int) -> None:
        kind = type(value)
        if kind in _SAME_TYPES and self.data is None:
            same = self.same
            if same is _NONE or type(same) is kind and same == value:
                self.same = value
                return
        if self.same is not _NONE:
            self._spread(size)
        if isinstance(value, VPool):
            faces = value.faces
            if self.data is None:
                self.data = np.full((size, faces.shape[1]), vector.EMPTY, vector.FACE)
            elif self.data.ndim != 2:
                raise StepFailed(i18n._("a value that was a number is now a pool (the lockstep backend keeps one "
                                        "kind)"))
            width = self.data.shape[1]
            if faces.shape[1] > width:
                # Wider than the store: cut empty columns at the end, or move each row's dice left.
                faces = faces[:, :width] if not (faces[:, width:] != vector.EMPTY).any() else compact(faces)
                if faces.shape[1] > width:
                    grown = np.full((size, faces.shape[1]), vector.EMPTY, vector.FACE)
                    grown[:, :width] = self.data
                    self.data = grown
                    width = faces.shape[1]
            if faces.shape[1] < width:
                wide = np.full((len(faces), width), vector.EMPTY, vector.FACE)
                wide[:, :faces.shape[1]] = faces
                faces = wide
            put_rows(self.data, rows, faces)
            self.put_kinds(rows, value, faces, width, size)
            if self.keeps_aside:
                if value.aside is not None:
                    if self.aside is None:
                        self.aside = Store()
                    self.aside.put(rows, value.aside, size)
                elif self.aside is not None:
                    self.aside.put(rows, vector.empty_pool(len(rows)), size)
            return
        if isinstance(value, np.ndarray):
            if self.data is None:
                kind = value.dtype.kind
                self.data = np.zeros(size, object if kind in "UO" else np.int64 if value.dtype == np.int16 else
                                     value.dtype)
        elif self.data is None:
            dtype = bool if type(value) is bool else np.int64 if type(value) is int else object
            self.data = np.zeros(size, dtype)
        if self.data.ndim != 1:
            raise StepFailed(i18n._("a value that was a pool is now a number (the lockstep backend keeps one kind)"))
        self.data[rows] = value

    def put_kinds(self, rows, value, faces, width: int, size: int) -> None:
        """The kinds of a pool's dice beside its faces (as cut or moved to fit: faces)."""
        if value.kinds is None and self.kinds is None:
            return
        if self.kinds is None:
            self.kinds = np.zeros((size, width), vector.KIND)
        elif self.kinds.shape[1] < width:
            grown = np.zeros((size, width), vector.KIND)
            grown[:, :self.kinds.shape[1]] = self.kinds
            self.kinds = grown
        self.kinds[rows] = 0
        if value.kinds is not None:
            kinds = value.kinds
            given, w = value.faces, value.faces.shape[1]
            if faces is not given:      # widened, cut, or moved left to fit: the kinds alike
                if faces.shape[1] >= w and np.array_equal(faces[:, :w], given):
                    pass                                    # widened: each die in its slot
                elif faces.shape[1] < w and np.array_equal(given[:, :faces.shape[1]], faces):
                    kinds = kinds[:, :faces.shape[1]]       # empty slots cut at the end
                else:
                    kinds = compact(given, kinds)[1]        # each row's dice moved to its left
            self.kinds[rows, :kinds.shape[1]] = kinds

    def get(self, rows):
        if self.data is None:
            if self.same is _NONE:
                # No game wrote it: the checker refuses a read of a local some way to it does not
                # set (ruleset/assigned.py), and a game's fields are written as it starts. A bug,
                # said as one (play_range: a DuskBug at the place), never a marker read as a value.
                raise NeverWritten("a value read before any game wrote it")
            return self.same
        if self.data.ndim == 2:
            aside = self.aside.get(rows) if self.aside is not None else None
            return VPool(take_rows(self.data, rows), aside, None if self.kinds is None else take_rows(self.kinds, rows))
        return self.data[rows]


class Record:
    """Named values of many games (a table's row, a procedure's return: {..}): a Store per field,
    read as NAME.FIELD."""

    __slots__ = ("fields",)

    def __init__(self):
        self.fields: dict = {}

    def put(self, rows, values: dict, size: int) -> None:
        for name, value in values.items():
            store = self.fields.get(name)
            if store is None:
                store = self.fields[name] = Store()
            store.put(rows, value, size)

    def get(self, rows) -> dict:
        return {name: store.get(rows) for name, store in self.fields.items()}

    def field(self, name: str, rows):
        store = self.fields.get(name)
        if store is None:
            raise StepFailed(i18n._("this record has no field {name}").format(name=repr(name)))
        return store.get(rows)


class Ref:
    """An instance of a group for each game (its index from 0, per game): what a local bound by
    for_each over a group, a procedure's parameter or create:'s as: holds. Its fields are kept per
    instance (`GROUP#J.FIELD` in the machine's globals)."""

    __slots__ = ("group", "index")

    def __init__(self, group: str, index):
        self.group = group
        self.index = index

    def take(self, positions) -> "Ref":
        return Ref(self.group, self.index[positions])


class RefStore:
    """A local holding an instance of a group, per game slot."""

    __slots__ = ("group", "index")

    def __init__(self, size: int):
        self.group = None
        self.index = np.full(size, -1, np.int64)

    def put(self, rows, value: Ref, size: int) -> None:
        if self.group is not None and value.group != self.group:
            raise StepFailed(i18n._("a local held an instance of {group} and now one of {other}").format(
                                 group=self.group, other=value.group))
        self.group = value.group
        self.index[rows] = value.index

    def get(self, rows) -> Ref:
        return Ref(self.group, self.index[rows])


class RefSet:
    """Instances of a group chosen in each game (ask with choose: and min:/max:): `chosen`, games x
    instances (True: chosen), which for_each goes through in the group's order."""

    __slots__ = ("group", "chosen")

    def __init__(self, group: str, chosen):
        self.group = group
        self.chosen = chosen

    def take(self, positions) -> "RefSet":
        return RefSet(self.group, self.chosen[positions])


class RefSetStore:
    """A local holding instances of a group chosen, per game slot (as wide as the most chosen from)."""

    __slots__ = ("group", "chosen")

    def __init__(self, size: int):
        self.group = None
        self.chosen = np.zeros((size, 0), bool)

    def put(self, rows, value: RefSet, size: int) -> None:
        if self.group is not None and value.group != self.group:
            raise StepFailed(i18n._("a local held instances of {group} and now ones of {other}").format(
                                 group=self.group, other=value.group))
        self.group = value.group
        width = value.chosen.shape[1]
        if width > self.chosen.shape[1]:
            grown = np.zeros((size, width), bool)
            grown[:, :self.chosen.shape[1]] = self.chosen
            self.chosen = grown
        self.chosen[rows] = False
        self.chosen[rows, :width] = value.chosen

    def get(self, rows) -> RefSet:
        return RefSet(self.group, self.chosen[rows])


def _store_for(value, keeps_aside: bool, size: int):
    if isinstance(value, Ref):
        return RefStore(size)
    if isinstance(value, RefSet):
        return RefSetStore(size)
    return Record() if isinstance(value, dict) else Store(keeps_aside=keeps_aside)


def _key(group: str, j: int, field: str | None) -> str:
    """Where a field of instance j of a group is kept (j -1: an entity that is no group)."""
    head = group if j < 0 else f"{group}#{j}"
    return head if field is None else f"{head}.{field}"


def _by_instance(ref: Ref, rows):
    """(instance index, the rows whose instance it is, their positions in rows), for each instance."""
    index = ref.index
    if not len(index):
        return []
    first = int(index[0])
    if (index == first).all():
        return [(first, rows, slice(None))]
    out = []
    for j in np.unique(index):
        mask = index == j
        out.append((int(j), rows[mask], mask))
    return out


def _part(value, positions):
    """The part of a value (a constant, one per row, a pool) at `positions` of its rows."""
    if isinstance(positions, slice):
        return value
    if isinstance(value, (VPool, Ref)):
        return value.take(positions)
    if isinstance(value, np.ndarray):
        return value[positions]
    return value


def _assemble(n: int, parts: list):
    """One value of n rows from (positions, value) parts that cover them (vector.merge, for many)."""
    if len(parts) == 1 and isinstance(parts[0][0], slice):
        return parts[0][1]
    if any(isinstance(v, VPool) for _, v in parts):
        width = max(v.faces.shape[1] for _, v in parts)
        faces = np.full((n, width), vector.EMPTY, vector.FACE)
        for mask, v in parts:
            faces[mask, :v.faces.shape[1]] = v.faces
        kinds = None
        if any(v.kinds is not None for _, v in parts):
            kinds = np.zeros((n, width), vector.KIND)
            for mask, v in parts:
                kinds[mask, :v.faces.shape[1]] = v.kinds_or_none()
        return VPool(faces, None, kinds)
    if any(isinstance(v, Ref) for _, v in parts):
        index = np.empty(n, np.int64)
        for mask, v in parts:
            index[mask] = v.index
        return Ref(parts[0][1].group, index)
    columns = [(mask, rows_of(v, int(np.count_nonzero(mask)))) for mask, v in parts]
    texts = any(c.dtype.kind in "OU" for _, c in columns)
    out = np.empty(n, object if texts else np.result_type(*[c for _, c in columns]))
    for mask, column in columns:
        out[mask] = column
    return out


class Track:
    """A track of boxes of one entity, for every game slot: its size (per game: `boxes:` may be a
    formula), how many boxes are marked, and for a track with marks: each box's type of mark (its
    rank in the rule's types, -1 unmarked), the marked boxes first (marks.py's rules)."""

    __slots__ = ("spec", "labels", "size", "marked", "ranks", "numbered")

    def __init__(self, spec, slots: int):
        self.spec = spec
        self.labels = None if spec.size is not None else np.array(list(spec.labels) + [0], object)
        # Labels that are all whole numbers read as numbers (known once, not per game).
        self.numbered = self.labels is not None and all(type(x) is int for x in self.labels)
        self.size = np.full(slots, len(spec.labels), np.int64)
        self.marked = np.zeros(slots, np.int64)
        self.ranks = None if spec.rule is None else np.full((slots, max(1, len(spec.labels))), -1, np.int8)

    def start(self, rows, size) -> None:
        self.size[rows] = size
        self.marked[rows] = 0
        if self.ranks is not None:
            width = int(np.max(size)) if len(rows) else 0
            if width > self.ranks.shape[1]:
                grown = np.full((len(self.ranks), width), -1, np.int8)
                grown[:, :self.ranks.shape[1]] = self.ranks
                self.ranks = grown
            self.ranks[rows] = -1        # a game's marks use its first `size` boxes only

    def mark(self, rows, n, type_: str | None, clear: bool) -> None:
        rule = self.spec.rule
        if rule is None:        # marks.mark: the count moves by n, kept within 0..size
            moved = self.marked[rows] + (-n if clear else n)
            self.marked[rows] = np.clip(moved, 0, self.size[rows])
            return
        sizes = self.size[rows]
        width = int(sizes.max())
        if (sizes == width).all():
            ranks = self.ranks[rows, :width]
            mark_typed_many(np, ranks, n, None if type_ is None else rule.rank(type_), rule, clear)
            self.ranks[rows, :width] = ranks
        else:                   # games of different sizes: each size on its own
            for size in np.unique(sizes):
                part = sizes == size
                ranks = self.ranks[rows[part], :size]
                mark_typed_many(np, ranks, n[part] if isinstance(n, np.ndarray) else n,
                                None if type_ is None else rule.rank(type_), rule, clear)
                self.ranks[rows[part], :size] = ranks
        self.marked[rows] = (self.ranks[rows] >= 0).sum(axis=1)

    def read(self, what: str, rows):
        marked, size = self.marked[rows], self.size[rows]
        if what == "marked":
            return marked
        if what == "free":
            return size - marked
        if what == "size":
            return size
        if what in ("next", "last"):
            index = marked if what == "next" else marked - 1
            inside = (index >= 0) & (index < size)
            if self.labels is None:          # numbered 1..size
                return np.where(inside, index + 1, 0)
            labels = self.labels[np.where(inside, index, len(self.labels) - 1)]
            return labels.astype(np.int64) if self.numbered else labels
        rule = self.spec.rule
        if rule is not None and what in rule.types:
            return (self.ranks[rows] == rule.rank(what)).sum(axis=1).astype(np.int64)
        raise StepFailed(i18n._("a track has no {what} (it has {names})").format(
            what=repr(what), names=", ".join(("marked", "free", "size", "next", "last") + tuple(rule.types if rule else ()))))


def _as_python(value, n: int) -> list:
    """A value of n games as the untraced program holds it, game by game (a pool: its faces)."""
    if isinstance(value, VPool):
        return [tuple(int(f) for f in row if f != vector.EMPTY) for row in value.faces]
    if isinstance(value, (Ref, RefSet)):
        raise StepFailed(i18n._("an instance shown in a text: show one of its fields, such as its name"))
    if isinstance(value, np.ndarray):
        return value.tolist() if value.dtype != object else [_plain(x) for x in value]
    return [value] * n


def factorized(value, n: int):
    """A value of n games as (codes, values): a code for each game (an int64 array) and, for each
    code, the value as the untraced program holds it (_as_python's), so that what is worked out from a
    value (a text written, an answer checked) is worked out once per distinct value, not per game.
    Values equal across types (1, 1.0 and True) keep apart; values no dict can key (a record's
    fields) get a code each."""
    if isinstance(value, VPool):
        faces = value.faces
        if not faces.shape[1]:
            return np.zeros(n, np.int64), [()]
        first, codes = vector.distinct_rows(faces)
        return codes, [tuple(int(f) for f in faces[i] if f != vector.EMPTY) for i in first]
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype != object:
        distinct, codes = np.unique(value, return_inverse=True)
        return codes.reshape(n).astype(np.int64, copy=False), distinct.tolist()
    if not isinstance(value, np.ndarray):
        _as_python(value, 0)                # what cannot be shown is refused as _as_python refuses it
        return np.zeros(n, np.int64), [value]
    seen: dict = {}
    try:
        codes = [seen.setdefault((x, type(x)), len(seen)) for x in value]
    except TypeError:
        return np.arange(n, dtype=np.int64), _as_python(value, n)
    return np.array(codes, np.int64), [_plain(x) for x, _ in seen]


def _plain(value):
    """A numpy scalar as the Python value it holds (a question checks ints, bools and texts)."""
    return value.item() if isinstance(value, np.generic) else value
