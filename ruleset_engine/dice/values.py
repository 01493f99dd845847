"""The values of the dice language and the record of how they were made.

A Die is immutable: a pool bound to a name and used again later must not change
when a later operation sets some of its dice aside, so fates (dropped, set aside,
cancelled, counted) live in the trace Steps, not on the dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field


# The faces of untraced pools live in faces.py (below the modifiers, which make them, so that the
# renderer here may read the registry); named here too for those who import them from values.
from .faces import NO_KIND, KFace, as_face, is_of, kind_of  # noqa: E402,F401


class Die:
    """One die: its face, its number of sides (None for a fixed number from a pool literal),
    the faces it showed before being re-rolled, whether it exploded or came from an explosion,
    its kind (None for a plain die; a name such as 'wild' given by kinds(..)), and the face it showed
    before min or max set its face (None when they did not). `origin`: the die first rolled, when
    this one is that die later in the same roll (given a kind, re-rolled, exploded), so a roll's
    list of dice shows each die once, as it ended (Result.dice)."""

    __slots__ = ("face", "sides", "history", "exploded", "extra", "kind", "changed_from", "origin")

    def __init__(self, face: int, sides: int | None, history: tuple[int, ...] = (),
                 exploded: bool = False, extra: bool = False, kind: str | None = None,
                 changed_from: int | None = None, origin: "Die | None" = None):
        self.face = face
        self.sides = sides
        self.history = history
        self.exploded = exploded
        self.extra = extra
        self.kind = kind
        self.changed_from = changed_from
        self.origin = origin

    @property
    def first(self) -> "Die":
        """The die as first rolled: this one, or the one it stands for."""
        return self.origin if self.origin is not None else self

    def rerolled(self, face: int, sides: int | None = None) -> "Die":
        """The die re-rolled to `face` (its kind kept); `sides` for a fixed die that is rolled now."""
        return Die(face, self.sides if sides is None else sides, self.history + (self.face,), False, self.extra,
                   self.kind, origin=self.first)

    def of_kind(self, kind: str | None) -> "Die":
        return Die(self.face, self.sides, self.history, self.exploded, self.extra, kind, self.changed_from,
                   self.first)

    def __repr__(self) -> str:
        return f"Die({self.face}, d{self.sides})" if self.sides else f"Die({self.face})"

    def to_json(self) -> dict:
        data = {"face": self.face, "sides": self.sides}
        if self.history:
            data["rerolled_from"] = list(self.history)
        if self.exploded:
            data["exploded"] = True
        if self.extra:
            data["from_explosion"] = True
        if self.kind is not None:
            data["kind"] = self.kind
        if self.changed_from is not None:
            data["changed_from"] = self.changed_from
        return data


class Pool:
    """A multiset of dice in roll order, and the dice the operation that made it set aside."""

    __slots__ = ("dice", "aside")

    def __init__(self, dice: tuple[Die, ...], aside: tuple[Die, ...] = ()):
        self.dice = dice
        self.aside = aside

    @property
    def faces(self) -> list[int]:
        return [d.face for d in self.dice]

    @property
    def total(self) -> int:
        return sum([d.face for d in self.dice])

    def __len__(self) -> int:
        return len(self.dice)

    def __repr__(self) -> str:
        return f"Pool({self.faces})"

    @classmethod
    def of(cls, faces, sides: int | None = None) -> "Pool":
        """A pool of fixed faces (what `[1, 2, 2, 5]` makes); a face of a kind keeps it."""
        return cls(tuple(Die(f, sides) if type(f) is int else Die(int(f), sides, kind=kind_of(f)) for f in faces))


class Kept(tuple):
    """An untraced pool (a tuple of faces) that also holds the faces the operation making it set
    aside, for `aside(..)`. Only rulesets that read aside(..) make them; elsewhere a pool is a tuple."""

    def __new__(cls, faces, aside=()):
        obj = super().__new__(cls, faces)
        obj.aside = aside
        return obj


class FacesList(list):
    """A pool kept as plain faces (JSON-friendly game state) that remembers its Pool, so reading
    it back into a formula costs nothing. It compares and serialises as the list it is."""

    __slots__ = ("pool",)

    def __init__(self, pool: Pool):
        super().__init__(d.face if d.kind is None else KFace(d.face, d.kind) for d in pool.dice)
        # Fixed faces, exactly what reading the plain list back would give (so a restored
        # game, whose state is plain lists, plays on identically).
        self.pool = Pool.of(self)

    def __deepcopy__(self, memo):
        return list(self)

    def __reduce__(self):
        return (list, (list(self),))


@dataclass(slots=True)
class TraceStep:
    """One operation of an evaluation that rolled or judged dice.

    `dice` are shown in roll order; `marks` (parallel to dice, or None when all are
    plainly kept) say what this step did to each one; `value` is what the step
    produced when it is a number; `note` is any extra word for the reader. A notation
    of another tool is a step of its own, before its dice: `means` is the explicit form
    dusk read it as (`10d10cs>=6` means `count(10d10, >= 6)`).
    """

    label: str
    span: tuple[int, int]
    dice: tuple[Die, ...]
    marks: tuple[str, ...] | None = None
    value: object = None
    note: str | None = None
    means: str | None = None

    def mark(self, index: int) -> str:
        return "kept" if self.marks is None else self.marks[index]

    def to_json(self) -> dict:
        data = {
            "label": self.label,
            "dice": [dict(d.to_json(), fate=self.mark(i)) for i, d in enumerate(self.dice)],
        }
        if self.value is not None:
            data["value"] = _json_value(self.value)
        if self.note:
            data["note"] = self.note
        if self.means:
            data["means"] = self.means
        return data


def _json_value(value):
    if isinstance(value, Pool):
        return value.faces
    return value


@dataclass(slots=True)
class Result:
    """What one evaluation gives: the value, and every step that rolled or judged dice.

    `value` is a number, a boolean or a string; for an expression whose value is a
    pool it is the pool's total, and `pool` holds the pool itself.
    """

    expression: str
    value: int | bool | str
    pool: Pool | None
    steps: list[TraceStep] = field(default_factory=list)

    @classmethod
    def of(cls, expression: str, value, steps: list) -> "Result":
        """The Result of a raw value (a pool's value is its total; the pool is kept)."""
        if isinstance(value, Pool):
            return cls(expression, value.total, value, steps)
        return cls(expression, value, None, steps)

    @property
    def raw(self):
        """The value as the language sees it: the Pool itself for a pool expression."""
        return self.pool if self.pool is not None else self.value

    @property
    def dice(self) -> list[tuple[Die, str]]:
        """Every die rolled or named, once each in order of appearance, as it ended (a die given a kind
        or re-rolled later in the roll is shown so, in its first place), with its final fate."""
        order: dict[int, list] = {}
        for step in self.steps:
            for i, die in enumerate(step.dice):
                entry = order.get(id(die.first))
                fate = step.mark(i)
                if entry is None:
                    order[id(die.first)] = [die, fate]
                else:
                    entry[0] = die
                    if fate != "kept":
                        entry[1] = fate
        return [(d, f) for d, f in order.values()]

    def to_json(self) -> dict:
        """The documented, stable JSON form (see docs/dice-language.md)."""
        return {
            "expression": self.expression,
            "value": self.value,
            "pool": self.pool.faces if self.pool is not None else None,
            "dice": [dict(d.to_json(), fate=f) for d, f in self.dice],
            "steps": [s.to_json() for s in self.steps],
        }

    def __str__(self) -> str:
        from .render import render_text

        return render_text(self)

    def __rich__(self):
        from .render import render_rich

        return render_rich(self)
